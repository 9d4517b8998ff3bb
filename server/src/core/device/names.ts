// hailo_device_architecture_t and hailo_format_type_t by name (hailort.h, 5.2.0), and the
// architecture check made with our own HEF reader before HailoRT opens anything. Pure.
import type { HefReport } from '../hef';
import { FORMAT_ORDERS } from '../hef/tables';
import { hefRunsOnDevice, parseVersion } from './hailortVersions';

/** hailo_device_architecture_t (HAILO10H = 6; HAILO12L was MARS in 4.23). */
export const DEVICE_ARCHITECTURES = ['HAILO8_A0', 'HAILO8', 'HAILO8L', 'HAILO15H', 'HAILO15L', 'HAILO15M', 'HAILO10H', 'HAILO12L'];

export const FORMAT_TYPES = ['AUTO', 'UINT8', 'UINT16', 'FLOAT32'];

export function deviceArchitectureName(id: number): string {
  return DEVICE_ARCHITECTURES[id] ?? `architecture ${id}`;
}

export function formatTypeName(id: number): string {
  return FORMAT_TYPES[id] ?? `type ${id}`;
}

export function formatOrderName(id: number): string {
  return FORMAT_ORDERS[id] ?? `order ${id}`;
}

export interface ArchCheck {
  ok: boolean;
  /** Known when the HEF header was read. */
  hefArch?: string;
  compatible: string[];
  device: string;
  detail: string;
  /** HailoRT runs it but warns (a Hailo-8L HEF on a Hailo-8). */
  warning?: string;
}

/**
 * Does the device run this HEF under the HailoRT that will open it? 4.x decides by its own
 * is_hef_compatible (a Hailo-8L runs only hailo8l HEFs; a Hailo-8 runs hailo8l ones more slowly),
 * 5.x by the HEF's compatible devices (hailortVersions.ts); without a version, 5.x's rule.
 */
export function checkArchitecture(report: HefReport, deviceArchitecture: string, hailortVersion?: string): ArchCheck {
  const header = report.header;
  if (!header) {
    // Unreadable header: let HailoRT judge (it answers 26/91/93 with its own reason).
    return { ok: true, compatible: [], device: deviceArchitecture, detail: 'the HEF header could not be read; HailoRT decides' };
  }
  const compatible = header.hwArch.compatibleDevices;
  const runtime = parseVersion(hailortVersion) ?? { major: 5, minor: 2, revision: 0 };
  const verdict = hefRunsOnDevice(runtime, header.hwArch.id, compatible, deviceArchitecture);
  return { ok: verdict.ok, hefArch: header.hwArch.name, compatible, device: deviceArchitecture, detail: verdict.detail, warning: verdict.warning };
}
