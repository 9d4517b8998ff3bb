// One sentence per failure. HailoRT statuses (hailort.h, 4.18-5.2) and our own failure kinds map to
// a DeviceError whose `sentence` says what happened and what to do; `message` keeps the detail.
// Where the system's facts are known (HailoRT's and the driver's versions, the device), the
// sentence names them: status 76 and 86 read the same wherever they come from (run, chat, devices,
// the status bar). Pure: used by the worker, the client, the CLI and the webview.
import type { DeviceError, DeviceErrorKind } from './protocol';
import { hailortStatusName } from '../common/hailortStatus';

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
  UNSUPPORTED_FW_VERSION: 16,
  DEVICE_IN_USE: 73,
  OUT_OF_PHYSICAL_DEVICES: 74,
  INVALID_DRIVER_VERSION: 76,
  RPC_FAILED: 77,
  INVALID_SERVICE_VERSION: 78,
  NOT_SUPPORTED: 79,
  DRIVER_INVALID_IOCTL: 86,
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
  return STATUS_NAMES.get(status) ?? hailortStatusName(status) ?? `hailo_status ${status}`;
}

const SENTENCES: Record<DeviceErrorKind, string> = {
  'hailort-missing':
    'HailoRT is not installed: no libhailort and headers were found. Install the HailoRT of your device (4.x for Hailo-8/8L: the "hailort" package, "hailo-all" on a Raspberry Pi; 5.x for Hailo-10H: "hailort" or "h10-hailort" from Hailo\'s Developer Zone), or point the hailo.hailort.path setting (CLI: --hailort DIR) at its install prefix.',
  'build-failed': 'The native HailoRT bridge could not be compiled against the installed HailoRT; the compiler output is in the log.',
  'driver-missing':
    'The Hailo PCIe driver is not loaded: install the driver package of your HailoRT version (hailo_pci for HailoRT 4.x, hailo1x_pci for 5.x), then reboot or load the module.',
  'no-device': 'No Hailo device was found: check that the Hailo device is connected and powered, and that "hailortcli scan" lists it.',
  'driver-mismatch':
    'The Hailo driver and HailoRT are different versions, and HailoRT opens a device only when they are equal: run "hailo-tools doctor" to see both, then install the driver package of HailoRT\'s version and reboot.',
  'runtime-mismatch':
    "This HailoRT does not run this device: the Hailo-8 family needs HailoRT 4.x with the hailo_pci driver, the Hailo-10H HailoRT 5.x with hailo1x_pci; install the runtime of the device's family.",
  'firmware-mismatch':
    'The device\'s firmware is not of HailoRT\'s version (HailoRT runs only a firmware of its own major.minor): install the firmware of the installed HailoRT (the hailofw package, or "hailortcli fw-update") and reboot.',
  'service-missing':
    'Sharing the device with other processes goes through hailort.service on HailoRT 4.x, and it is not running: start it ("sudo systemctl enable --now hailort.service"), or use the group id UNIQUE to take the device alone.',
  'service-mismatch':
    'hailort.service runs another libhailort version than this process: restart it after the upgrade ("sudo systemctl restart hailort.service") so both are the same version.',
  'hef-missing': 'The HEF does not exist or cannot be opened: check the path.',
  busy: 'The Hailo device is busy: another process holds it. Close that process, or give every process the same group id (setting hailo.device.groupId, CLI --group-id, e.g. SHARED) to share the device.',
  'arch-mismatch':
    'This HEF was compiled for a different Hailo architecture than the attached device; recompile it for the device with the Dataflow Compiler (--hw-arch).',
  'hef-not-compatible': "HailoRT refused the HEF as not compatible with this device (status 93): recompile it for this device's architecture.",
  'hef-corrupted':
    'HailoRT found the HEF corrupted (status 91): a checksum does not match, so the file was damaged after compilation — copy or compile it again.',
  'hef-not-supported':
    'This HailoRT does not support the HEF (status 92): it was compiled by a Dataflow Compiler newer than the runtime; update HailoRT or compile with a matching DFC.',
  'hef-unreadable': 'HailoRT could not read the HEF: the file is unreadable or not a HEF.',
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
  'native-missing':
    "This hailo-tools package carries no native code for this machine's platform: install the package built for it (npm run package makes one per platform).",
  'compiler-missing':
    'No C++ compiler is installed, and the HailoRT bridge is compiled on this machine on first use: install one ("sudo apt install g++"), then try again.',
  'not-speech':
    "This HEF is not a speech-to-text model that HailoRT's Speech2Text can run: it needs an encoder and a decoder network group and the hailo-config.json HailoRT's server reads.",
  'bad-audio': 'The recording could not be read as audio: convert it to WAV (e.g. `ffmpeg -i INPUT -ar 16000 -ac 1 OUTPUT.wav`).',
};

/** What is known about the system when a status is explained (any field may be missing). */
export interface SystemFacts {
  /** The libhailort the worker loaded (`hailo_get_library_version`). */
  hailortVersion?: string;
  /** The loaded kernel module (`hailo_pci`, `hailo1x_pci`) and its version (sysfs). */
  driverModule?: string;
  driverVersion?: string;
  /** The device's architecture (`HAILO8L`) and firmware (`4.20.0`), when identify answered. */
  deviceArch?: string;
  firmware?: string;
}

export interface StatusContext {
  scanCount?: number;
  during?: 'create-vdevice' | 'open' | 'infer' | 'other';
  /** The VDevice was a client of hailort.service (4.x, a group id other than UNIQUE). */
  throughService?: boolean;
  system?: SystemFacts;
}

/** The kind a HailoRT status means in the call it came from. */
export function kindOfStatus(status: number, context: StatusContext = {}): DeviceErrorKind {
  switch (status) {
    // The driver's version differs from the library's (hailort_driver.cpp validate_driver_version),
    // or the driver does not know the library's ioctl ("can happen due to version mismatch").
    case HailoStatus.INVALID_DRIVER_VERSION:
    case HailoStatus.DRIVER_INVALID_IOCTL:
      return 'driver-mismatch';
    case HailoStatus.RPC_FAILED:
      return context.throughService ? 'service-missing' : 'hailort-error';
    case HailoStatus.INVALID_SERVICE_VERSION:
      return 'service-mismatch';
    case HailoStatus.NOT_SUPPORTED:
      return context.during === 'create-vdevice' || context.during === 'open' ? 'runtime-mismatch' : 'hailort-error';
    case HailoStatus.UNSUPPORTED_FW_VERSION:
      return 'firmware-mismatch';
    case HailoStatus.OUT_OF_PHYSICAL_DEVICES:
      // 74 with a non-empty scan: the device exists but another process holds it (docs/research/hailort5-api.md#busy-devices-and-sharing).
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

/** The sentence of a kind with what is known of the system filled in. */
export function sentenceFor(kind: DeviceErrorKind, system: SystemFacts = {}): string {
  const lib = system.hailortVersion;
  const major = lib ? Number(lib.split('.')[0]) : undefined;
  switch (kind) {
    case 'driver-mismatch': {
      const module = system.driverModule ?? (major !== undefined ? (major >= 5 ? 'hailo1x_pci' : 'hailo_pci') : 'Hailo');
      if (lib && system.driverVersion && system.driverVersion !== lib) {
        return `The Hailo driver (${module} ${system.driverVersion}) and HailoRT (${lib}) are different versions, and HailoRT opens a device only when they are equal: install the driver of HailoRT ${lib} (${major !== undefined && major >= 5 ? `hailort-pcie-driver ${lib}` : `hailort-pcie-driver ${lib}, or hailo-dkms on a Raspberry Pi`}) and reboot, or install HailoRT ${system.driverVersion}.`;
      }
      if (lib) {
        return `The Hailo driver${system.driverModule ? ` (${system.driverModule}${system.driverVersion ? ` ${system.driverVersion}` : ''})` : ''} and HailoRT (${lib}) do not match, and HailoRT opens a device only when they are the same version: install the driver of HailoRT ${lib} and reboot ("hailo-tools doctor" shows both versions).`;
      }
      return SENTENCES[kind];
    }
    case 'runtime-mismatch':
      if (lib && system.deviceArch) {
        const hailo8 = /^HAILO8/.test(system.deviceArch);
        const device = system.deviceArch.replace(/^HAILO(\d+)/, 'Hailo-$1').replace('_A0', '');
        return hailo8
          ? `HailoRT ${lib} does not run a ${device} (HailoRT 5.x supports only the Hailo-10/15 families): install HailoRT 4.23.0 with its hailo_pci driver for the Hailo-8 family.`
          : `HailoRT ${lib} does not run a ${device} (HailoRT 4.22 and later support only the Hailo-8 family): install HailoRT 5.x with its hailo1x_pci driver for the ${device}.`;
      }
      return SENTENCES[kind];
    case 'firmware-mismatch':
      if (lib && system.firmware) {
        return `The device's firmware ${system.firmware} is not of HailoRT ${lib}'s version (HailoRT runs only a firmware of its own major.minor): install the firmware of HailoRT ${lib} (the hailofw package, or "hailortcli fw-update") and reboot.`;
      }
      return SENTENCES[kind];
    case 'service-mismatch':
      return lib
        ? `hailort.service runs another libhailort version than HailoRT ${lib}: restart it after the upgrade ("sudo systemctl restart hailort.service") so both are ${lib}.`
        : SENTENCES[kind];
    case 'driver-missing':
      if (major !== undefined)
        return `The Hailo PCIe driver is not loaded: install the ${major >= 5 ? 'hailo1x_pci' : 'hailo_pci'} driver of HailoRT ${lib} (${major >= 5 ? 'hailort-pcie-driver' : 'hailort-pcie-driver, or hailo-dkms on a Raspberry Pi'}), then reboot or load the module.`;
      return SENTENCES[kind];
    default:
      return SENTENCES[kind];
  }
}

export function errorFromKind(kind: DeviceErrorKind, message: string, status: number | null = null, name?: string, system?: SystemFacts): DeviceError {
  let sentence = system ? sentenceFor(kind, system) : SENTENCES[kind];
  // HailoRT's own timeout names its status; the client's (a stuck worker) has none.
  if (kind === 'timeout' && status !== null) sentence = sentence.replace('did not answer in time:', `did not answer in time (status ${status}):`);
  return { kind, status, name: name ?? (status === null ? kind : statusName(status)), message, sentence };
}

/** A DeviceError for a failed HailoRT call; the generic kind still names the status in its sentence. */
export function errorFromStatus(status: number, message: string, context: StatusContext = {}, name?: string): DeviceError {
  const kind = kindOfStatus(status, context);
  const err = errorFromKind(kind, message, status, name && name.length > 0 ? name : statusName(status), context.system);
  if (kind === 'hailort-error') err.sentence = `HailoRT answered ${err.name} (status ${status}) to ${message.split(': ')[0]}.`;
  return err;
}

/** The sentence plus, where useful, the detail (for CLI output and logs); the status is named once. */
export function describeError(err: DeviceError): string {
  const named = err.sentence.includes(err.name);
  const code = err.status !== null && !named ? ` [${err.name}, status ${err.status}]` : '';
  // The detail is added only when the sentence does not already say it (with or without its full stop).
  const said = err.message !== '' && err.sentence.includes(err.message.replace(/\.$/, ''));
  return `${err.sentence}${code}${err.message && !said ? ` (${err.message})` : ''}`;
}
