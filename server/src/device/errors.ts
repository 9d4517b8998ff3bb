// One sentence per failure. HailoRT statuses (hailort.h, 5.2.0) and our own failure kinds map to a
// DeviceError whose `sentence` says what happened and what to do; `message` keeps the detail.
// Pure: used by the worker, the client, the CLI and the webview.
import type { DeviceError, DeviceErrorKind } from './protocol';

/** hailo_status values the device path meets (names as hailort.h spells them). */
export const HailoStatus = {
  SUCCESS: 0,
  INVALID_ARGUMENT: 2,
  OUT_OF_HOST_MEMORY: 3,
  TIMEOUT: 4,
  INSUFFICIENT_BUFFER: 5,
  INVALID_OPERATION: 6,
  NOT_IMPLEMENTED: 7,
  INTERNAL_FAILURE: 8,
  OPEN_FILE_FAILURE: 13,
  FILE_OPERATION_FAILURE: 14,
  INVALID_HEF: 26,
  DRIVER_OPERATION_FAILED: 36,
  SHUTDOWN_EVENT_SIGNALED: 57,
  NOT_FOUND: 61,
  COMMUNICATION_CLOSED: 62,
  DRIVER_NOT_INSTALLED: 64,
  NOT_AVAILABLE: 65,
  DEVICE_IN_USE: 73,
  OUT_OF_PHYSICAL_DEVICES: 74,
  INVALID_DRIVER_VERSION: 76,
  RPC_FAILED: 77,
  NOT_SUPPORTED: 79,
  CONNECTION_REFUSED: 89,
  HEF_FILE_CORRUPTED: 91,
  HEF_NOT_SUPPORTED: 92,
  HEF_NOT_COMPATIBLE_WITH_DEVICE: 93,
  INVALID_HEF_USE: 94,
  OPERATION_ABORTED: 95,
  DEVICE_NOT_CONNECTED: 96,
  DEVICE_TEMPORARILY_UNAVAILABLE: 97,
} as const;

const STATUS_NAMES = new Map<number, string>(Object.entries(HailoStatus).map(([k, v]) => [v, `HAILO_${k}`]));

export function statusName(status: number): string {
  return STATUS_NAMES.get(status) ?? `hailo_status ${status}`;
}

const SENTENCES: Record<DeviceErrorKind, string> = {
  'hailort-missing':
    'HailoRT is not installed: no libhailort and headers were found. Install the HailoRT 5.x runtime for Hailo-10H (the "hailort" or "h10-hailort" package from Hailo\'s Developer Zone), or point the hailo.hailort.path setting (CLI: --hailort DIR) at its install prefix.',
  'build-failed': 'The native HailoRT bridge could not be compiled against the installed HailoRT; the compiler output is in the log.',
  'driver-missing':
    'The Hailo PCIe driver is not loaded: install the hailo1x_pci driver package that matches your HailoRT version, then reboot or load the module.',
  'no-device': 'No Hailo device was found: check that the Hailo-10H is connected and powered, and that "hailortcli scan" lists it.',
  busy: 'The Hailo device is busy: another process holds it. Close that process, or give every process the same group id (setting hailo.device.groupId, CLI --group-id, e.g. SHARED) to share the device.',
  'arch-mismatch':
    'This HEF was compiled for a different Hailo architecture than the attached device; recompile it for the device with the Dataflow Compiler (--hw-arch).',
  'hef-not-compatible': "HailoRT refused the HEF as not compatible with this device (status 93): recompile it for this device's architecture.",
  'hef-corrupted':
    'HailoRT found the HEF corrupted (status 91): a checksum does not match, so the file was damaged after compilation — copy or compile it again.',
  'hef-not-supported':
    'This HailoRT does not support the HEF (status 92): it was compiled by a Dataflow Compiler newer than the runtime; update HailoRT or compile with a matching DFC.',
  'hef-unreadable': 'HailoRT could not read the HEF: the file is missing, unreadable or not a HEF.',
  'wrong-input-size': "The input does not have the size of one frame of the model's input, so it was refused before it reached the device.",
  'bad-input': 'The input file could not be used for this model.',
  timeout: 'The device did not answer in time: it may be overloaded or hung; try again, and reset the device if it keeps happening.',
  'worker-crashed': 'The device worker stopped unexpectedly; it will be restarted on the next request.',
  untrusted: 'Native HailoRT code runs only in a trusted workspace: trust this folder to run on the device.',
  'hailort-error': 'HailoRT reported an error.',
  'not-genai':
    "This HEF is not an LLM or VLM that HailoRT's GenAI API can run: it has no prefill network group and hailo-config.json as HailoRT's GenAI server needs them.",
  'genai-busy':
    'Another LLM or VLM holds the Hailo device (HailoRT runs one at a time: "KV-Cache is already in use by another model!"): close the other chat or program (e.g. hailo-ollama), then try again.',
  'lora-missing': 'The HEF has no LoRA adapter of that name.',
  'wrong-frames':
    'A VLM takes exactly one frame of VLM::input_frame_size() bytes per image in the message, so the images were refused before they reached the device.',
  'bad-params': 'A generator parameter is outside the range HailoRT accepts.',
  'hailort-too-old': 'The installed HailoRT is too old for this call: update HailoRT (hailo.hailort.path, CLI --hailort).',
};

/** The kind a HailoRT status means in the call it came from. */
export function kindOfStatus(status: number, context: { scanCount?: number; during?: 'create-vdevice' | 'open' | 'infer' | 'other' } = {}): DeviceErrorKind {
  switch (status) {
    case HailoStatus.OUT_OF_PHYSICAL_DEVICES:
      // 74 with a non-empty scan: the device exists but another process holds it (hailort5-api.md §4).
      return context.scanCount && context.scanCount > 0 ? 'busy' : 'no-device';
    case HailoStatus.DEVICE_IN_USE:
      return 'busy';
    case HailoStatus.DRIVER_NOT_INSTALLED:
      return 'driver-missing';
    case HailoStatus.HEF_NOT_COMPATIBLE_WITH_DEVICE:
      return 'hef-not-compatible';
    case HailoStatus.HEF_FILE_CORRUPTED:
      return 'hef-corrupted';
    case HailoStatus.HEF_NOT_SUPPORTED:
      return 'hef-not-supported';
    case HailoStatus.INVALID_HEF:
    case HailoStatus.OPEN_FILE_FAILURE:
    case HailoStatus.FILE_OPERATION_FAILURE:
      return context.during === 'open' ? 'hef-unreadable' : 'hailort-error';
    case HailoStatus.TIMEOUT:
      return 'timeout';
    default:
      return 'hailort-error';
  }
}

export function errorFromKind(kind: DeviceErrorKind, message: string, status: number | null = null, name?: string): DeviceError {
  let sentence = SENTENCES[kind];
  // HailoRT's own timeout names its status; the client's (a stuck worker) has none.
  if (kind === 'timeout' && status !== null) sentence = sentence.replace('did not answer in time:', `did not answer in time (status ${status}):`);
  return { kind, status, name: name ?? (status === null ? kind : statusName(status)), message, sentence };
}

/** A DeviceError for a failed HailoRT call; the generic kind still names the status in its sentence. */
export function errorFromStatus(status: number, message: string, context: Parameters<typeof kindOfStatus>[1] = {}, name?: string): DeviceError {
  const kind = kindOfStatus(status, context);
  const err = errorFromKind(kind, message, status, name && name.length > 0 ? name : statusName(status));
  if (kind === 'hailort-error') err.sentence = `HailoRT answered ${err.name} (status ${status}) to ${message.split(': ')[0]}.`;
  return err;
}

/** The sentence plus, where useful, the detail (for CLI output and logs). */
export function describeError(err: DeviceError): string {
  const code = err.status !== null ? ` [${err.name}, status ${err.status}]` : '';
  return `${err.sentence}${code}${err.message && !err.sentence.includes(err.message) ? ` (${err.message})` : ''}`;
}
