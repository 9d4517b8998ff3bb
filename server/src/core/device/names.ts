// hailo_device_architecture_t and hailo_format_type_t by name (hailort.h, 5.2.0). Pure. (Whether a
// HEF runs on a device is the pre-run gate's: runGate.ts.)
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
