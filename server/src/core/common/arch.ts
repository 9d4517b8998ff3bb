// The one list of Hailo architectures, as the Dataflow Compiler names them (`hw_arch=` of
// ClientRunner, the `hailo.hwArch` setting, `--hw-arch` of the CLI, `hw_arch` in a HAR's
// metadata.json), with what each is to the rest of the tool: the family whose model-zoo scripts
// the `.alls` rules compare against, the device HailoRT names, and which HEF `hw_arch` values are
// compiled for it. package.json's `hailo.hwArch` enum is held to HW_ARCHES by a test.
// Sources: docs/research/hef-format.md#protobuf-schema (ProtoHEFHwArch, DeviceBase::hef_arch_to_device_compatible_archs),
// docs/research/hn-har-format.md#har-container (metadata.json), docs/research/alls-reference.md#architectures (model-zoo folders per family).

export const HW_ARCHES = ['hailo8', 'hailo8r', 'hailo8l', 'hailo10h', 'hailo15h', 'hailo15m', 'hailo15l'] as const;
export type HwArch = (typeof HW_ARCHES)[number];

export const DEFAULT_HW_ARCH: HwArch = 'hailo10h';

/** Architecture families scripts are written for (docs/research/alls-reference.md#architectures). */
export type ArchFamily = 'hailo8' | 'hailo15' | 'hailo15l';

interface ArchFacts {
  family: ArchFamily;
  /** The device name HailoRT prints ("HEF Compatible for: …"). */
  device: string;
}

const ARCH: Record<HwArch, ArchFacts> = {
  hailo8: { family: 'hailo8', device: 'HAILO8' },
  hailo8r: { family: 'hailo8', device: 'HAILO8' },
  hailo8l: { family: 'hailo8', device: 'HAILO8L' },
  // the model zoo keeps hailo10h scripts in its hailo15h folder
  hailo10h: { family: 'hailo15', device: 'HAILO10H' },
  hailo15h: { family: 'hailo15', device: 'HAILO15H' },
  hailo15m: { family: 'hailo15', device: 'HAILO15M' },
  hailo15l: { family: 'hailo15l', device: 'HAILO15L' },
};

export const FAMILY_LABEL: Record<ArchFamily, string> = { hailo8: 'hailo8-era', hailo15: 'hailo15h/hailo10h', hailo15l: 'hailo15l' };

export function isHwArch(name: string): name is HwArch {
  return (HW_ARCHES as readonly string[]).includes(name);
}

/** The family of an architecture name, or undefined for a name the DFC does not know. */
export function archFamily(name: string): ArchFamily | undefined {
  return isHwArch(name) ? ARCH[name].family : undefined;
}

/** HailoRT's device name for an architecture (`HAILO10H`), or undefined. */
export function archDevice(name: string): string | undefined {
  return isHwArch(name) ? ARCH[name].device : undefined;
}

/**
 * The architectures a HEF's header `hw_arch` value was compiled for, most likely first.
 * HAILO8P (1) is what the DFC writes for hailo8; HAILO1XH (103) is shared by hailo15h and
 * hailo10h (real Hailo-10H HEFs carry 103), so both are returned. Unknown or internal values: [].
 */
export function archesOfHefArch(id: number): HwArch[] {
  switch (id) {
    case 0:
    case 1:
      return ['hailo8'];
    case 2:
      return ['hailo8r'];
    case 3:
      return ['hailo8l'];
    case 4:
      return ['hailo15m'];
    case 5:
      return ['hailo10h'];
    case 6:
    case 106:
      return ['hailo15l'];
    case 103:
      return ['hailo10h', 'hailo15h'];
    default:
      return [];
  }
}
