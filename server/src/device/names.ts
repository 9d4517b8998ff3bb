// hailo_device_architecture_t and hailo_format_type_t by name (hailort.h, 5.2.0), and the
// architecture check made with our own HEF reader before HailoRT opens anything. Pure.
import type { HefReport } from '../hef';
import { FORMAT_ORDERS } from '../hef/tables';

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
}

/** Does the device's architecture appear among the devices HailoRT accepts this HEF on? */
export function checkArchitecture(report: HefReport, deviceArchitecture: string): ArchCheck {
  const header = report.header;
  if (!header) {
    // Unreadable header: let HailoRT judge (it answers 26/91/93 with its own reason).
    return { ok: true, compatible: [], device: deviceArchitecture, detail: 'the HEF header could not be read; HailoRT decides' };
  }
  const compatible = header.hwArch.compatibleDevices;
  const ok = compatible.includes(deviceArchitecture);
  return {
    ok,
    hefArch: header.hwArch.name,
    compatible,
    device: deviceArchitecture,
    detail: ok
      ? `compiled for ${header.hwArch.name}, which runs on ${compatible.join(', ')}`
      : `compiled for ${header.hwArch.name} (runs on ${compatible.join(', ') || 'no known device'}), but the device is a ${deviceArchitecture}`,
  };
}
