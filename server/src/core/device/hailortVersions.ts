// What each HailoRT version does with a device and a HEF, read in github.com/hailo-ai/hailort
// (tags v4.18.0 … v5.2.0) and hailort-drivers; every rule names its source file so docs/doctor.md
// can cite it. Pure: used by the pre-run gate (runGate.ts: before HailoRT opens a HEF), the status
// bar and `hailo-tools doctor`.

export interface Version {
  major: number;
  minor: number;
  revision: number;
}

export function parseVersion(text: string | undefined): Version | undefined {
  const m = /^(\d+)\.(\d+)\.(\d+)/.exec(text?.trim() ?? '');
  return m ? { major: Number(m[1]), minor: Number(m[2]), revision: Number(m[3]) } : undefined;
}

export function versionText(v: Version): string {
  return `${v.major}.${v.minor}.${v.revision}`;
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.revision - b.revision;
}

export function atLeast(v: Version, major: number, minor: number, revision = 0): boolean {
  return compareVersions(v, { major, minor, revision }) >= 0;
}

export function sameVersion(a: Version, b: Version): boolean {
  return compareVersions(a, b) === 0;
}

/** The Hailo-8 family (Hailo-8, Hailo-8L, Hailo-8R): HailoRT 4.x's devices. */
export function isHailo8Family(deviceArch: string): boolean {
  return deviceArch === 'HAILO8' || deviceArch === 'HAILO8L' || deviceArch === 'HAILO8_A0';
}

/** The last HailoRT line for the Hailo-8 family: 5.x refuses it, hailo-apps asks for 4.23.x. */
export const HAILO8_LAST_RUNTIME = '4.23.0';

/**
 * Whether this HailoRT opens a device of this architecture at all (vdma/pcie/pcie_device.cpp):
 * 5.x answers a Hailo-8 with 79 "Hailo8 devices are only supported in versions 4.x.x and earlier";
 * 4.22+ answers a Hailo-1X device with 79 "Hailo1X Devices are only supported in versions 5.0.0
 * and above". Older 4.x still reached Hailo-10H through its RPC client.
 */
export function runtimeOpensDevice(runtime: Version, deviceArch: string): { ok: true } | { ok: false; hailortSays: string; install: string } {
  if (runtime.major >= 5 && isHailo8Family(deviceArch)) {
    return { ok: false, hailortSays: 'Hailo8 devices are only supported in versions 4.x.x and earlier', install: `HailoRT ${HAILO8_LAST_RUNTIME}` };
  }
  if (runtime.major === 4 && atLeast(runtime, 4, 22) && !isHailo8Family(deviceArch)) {
    return { ok: false, hailortSays: 'Hailo1X Devices are only supported in versions 5.0.0 and above', install: 'HailoRT 5.x' };
  }
  return { ok: true };
}

/** The kernel module a HailoRT version's driver package builds (hailort-drivers linux/pcie/Makefile). */
export function driverModuleFor(runtime: Version): 'hailo_pci' | 'hailo1x_pci' {
  return atLeast(runtime, 5, 0, 1) ? 'hailo1x_pci' : 'hailo_pci';
}

/** Header versions a HailoRT reads: V3 (XXH3, DFC 5.x) from 4.21 (hef.cpp calc_hef_residue_size). */
export function readsContainerVersion(runtime: Version, containerVersion: number): boolean {
  return containerVersion <= 2 || (containerVersion === 3 && atLeast(runtime, 4, 21));
}

/** The status HailoRT gives a HEF it refuses for `kind`: 91/92/93 since 4.21, 26 before (hailort.h per tag). */
export function hefRefusalStatus(runtime: Version, kind: 'corrupted' | 'not-supported' | 'not-compatible'): number {
  if (!atLeast(runtime, 4, 21)) return 26;
  return kind === 'corrupted' ? 91 : kind === 'not-supported' ? 92 : 93;
}

/**
 * ProtoHEFExtensionType values each version supports (hef/hef_internal.hpp SUPPORTED_EXTENSIONS,
 * numbered by hef.proto): 4.18-4.20 end at 29 (BBOX_DECODING), 4.21 adds 30-32 (CCW_PTR_SQUEEZE,
 * EXTERNAL_RESOURCES, SHARED_CONFIG), 5.0.0 adds 35 (STRICT_RUNTIME_VERSIONING), 5.0.1 adds 33-34.
 */
export function supportedExtensions(runtime: Version): Set<number> {
  const base = [0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29];
  if (atLeast(runtime, 4, 21)) base.push(30, 31, 32);
  if (atLeast(runtime, 5, 0, 0)) base.push(35);
  if (atLeast(runtime, 5, 0, 1)) base.push(33, 34);
  return new Set(base);
}

export interface HefOnDevice {
  ok: boolean;
  /** Set when HailoRT runs it but warns (a Hailo-8L HEF on a Hailo-8). */
  warning?: string;
  /** The status HailoRT refuses it with (only when !ok). */
  status?: number;
  /** What decided, in words. */
  detail: string;
}

// 4.x's DeviceBase::is_hef_compatible (device_common/device_internal.cpp, v4.18.0-v4.23.0): HEF
// hw_arch values each device runs. HW_ARCH__HAILO8 (0) is not among the Hailo-8's: the DFC writes
// HAILO8P (1) for hailo8.
const RUNS_ON_4X: Record<string, number[]> = {
  HAILO8: [1, 2, 3],
  HAILO8L: [3],
  HAILO15H: [104, 105, 103, 4, 5],
  HAILO10H: [104, 105, 103, 4, 5],
  HAILO15L: [6, 106],
  HAILO15M: [4],
};

const HEF_ARCH_NAMES: Record<number, string> = {
  0: 'legacy hailo8 (hw_arch 0)',
  1: 'hailo8',
  2: 'hailo8r',
  3: 'hailo8l',
  4: 'hailo15m',
  5: 'hailo10h',
  6: 'hailo15l',
  103: 'hailo15h/hailo10h',
  104: 'hailo15h',
  105: 'hailo15h',
  106: 'hailo15l',
  108: 'hailo12l',
};

export function hefArchLabel(hwArch: number): string {
  return HEF_ARCH_NAMES[hwArch] ?? `hw_arch ${hwArch}`;
}

/**
 * Does HailoRT `runtime` run a HEF whose header says `hwArch` on a device of `deviceArch`?
 * 4.x: is_hef_compatible above, with its warning for a Hailo-8L HEF on a Hailo-8; 5.x: the
 * HEF's compatible devices (hef_arch_to_device_compatible_archs, as our reader lists them).
 */
export function hefRunsOnDevice(runtime: Version, hwArch: number, compatibleDevices: string[], deviceArch: string): HefOnDevice {
  const device = deviceArch;
  if (runtime.major === 4) {
    const ok = (RUNS_ON_4X[device] ?? []).includes(hwArch);
    if (!ok) {
      return {
        ok,
        status: hefRefusalStatus(runtime, 'not-compatible'),
        detail: `compiled for ${hefArchLabel(hwArch)}; HailoRT ${versionText(runtime)} runs ${device === 'HAILO8L' ? 'only hailo8l HEFs' : `hw_arch ${(RUNS_ON_4X[device] ?? []).join(', ') || 'none'}`} on a ${device}`,
      };
    }
    if (hwArch === 3 && device === 'HAILO8') {
      return {
        ok,
        warning:
          'this HEF was compiled for hailo8l and runs on the Hailo-8 at lower performance (HailoRT warns "This will result in lower performance."); compile it with --hw-arch hailo8 for the full speed',
        detail: 'compiled for hailo8l, which a Hailo-8 runs',
      };
    }
    return { ok, detail: `compiled for ${hefArchLabel(hwArch)}, which a ${device} runs` };
  }
  const ok = compatibleDevices.includes(device);
  return {
    ok,
    status: ok ? undefined : 93,
    detail: ok
      ? `compiled for ${hefArchLabel(hwArch)}, which runs on ${compatibleDevices.join(', ')}`
      : `compiled for ${hefArchLabel(hwArch)} (runs on ${compatibleDevices.join(', ') || 'no known device'}), but the device is a ${device}`,
  };
}

/** The DFC's --hw-arch for a device HailoRT names (`HAILO8L` → `hailo8l`). */
export function dfcArchFor(deviceArch: string): string {
  return deviceArch.toLowerCase().replace('_a0', '');
}

/** The one sentence for a HEF the device does not run (worker and client say the same). */
export function archMismatchSentence(title: string, detail: string, deviceArch: string): string {
  return `${title} was ${detail}: recompile it with the Dataflow Compiler (--hw-arch ${dfcArchFor(deviceArch)}).`;
}

/** HailoRT's architecture name for sentences (`HAILO8L` → `Hailo-8L`). */
export function deviceLabel(name: string): string {
  const m = /^HAILO(\d+)([A-Z]*)(_A0)?$/.exec(name);
  return m ? `Hailo-${m[1]}${m[2]}` : name;
}
