// HailoRT's statuses (`hailo_status`), as `HAILO_STATUS_VARIABLES` in hailort/libhailort/include/hailo/hailort.h
// lists them (https://github.com/hailo-ai/hailort, v5.2.0; the list only grows: 4.6.0's 77 values keep
// their numbers in every later release, and only the names below were renamed). A log names a status
// as `HAILO_TIMEOUT(4)`, `status=HAILO_INVALID_HEF(26)`, `status=26` or `status = 62`; this table
// turns the number into the name, and the name into the family of failure the log reader and the
// device errors explain (core/common/dfcMessages.ts, core/device/errors.ts). Pure data.

/** [value, name without `HAILO_`], hailort.h v5.2.0. */
const STATUSES: readonly (readonly [number, string])[] = [
  [0, 'SUCCESS'],
  [1, 'UNINITIALIZED'],
  [2, 'INVALID_ARGUMENT'],
  [3, 'OUT_OF_HOST_MEMORY'],
  [4, 'TIMEOUT'],
  [5, 'INSUFFICIENT_BUFFER'],
  [6, 'INVALID_OPERATION'],
  [7, 'NOT_IMPLEMENTED'],
  [8, 'INTERNAL_FAILURE'],
  [9, 'DATA_ALIGNMENT_FAILURE'],
  [10, 'CHUNK_TOO_LARGE'],
  [11, 'INVALID_LOGGER_LEVEL'],
  [12, 'CLOSE_FAILURE'],
  [13, 'OPEN_FILE_FAILURE'],
  [14, 'FILE_OPERATION_FAILURE'],
  [15, 'UNSUPPORTED_CONTROL_PROTOCOL_VERSION'],
  [16, 'UNSUPPORTED_FW_VERSION'],
  [17, 'INVALID_CONTROL_RESPONSE'],
  [18, 'FW_CONTROL_FAILURE'],
  [19, 'ETH_FAILURE'],
  [20, 'ETH_INTERFACE_NOT_FOUND'],
  [21, 'ETH_RECV_FAILURE'],
  [22, 'ETH_SEND_FAILURE'],
  [23, 'INVALID_FIRMWARE'],
  [24, 'INVALID_CONTEXT_COUNT'],
  [25, 'INVALID_FRAME'],
  [26, 'INVALID_HEF'],
  [27, 'PCIE_NOT_SUPPORTED_ON_PLATFORM'],
  [28, 'INTERRUPTED_BY_SIGNAL'],
  [29, 'START_VDMA_CHANNEL_FAIL'],
  [30, 'SYNC_VDMA_BUFFER_FAIL'],
  [31, 'STOP_VDMA_CHANNEL_FAIL'],
  [32, 'CLOSE_VDMA_CHANNEL_FAIL'],
  [33, 'ATR_TABLES_CONF_VALIDATION_FAIL'],
  [34, 'EVENT_CREATE_FAIL'],
  [35, 'READ_EVENT_FAIL'],
  [36, 'DRIVER_OPERATION_FAILED'],
  [37, 'INVALID_FIRMWARE_MAGIC'],
  [38, 'INVALID_FIRMWARE_CODE_SIZE'],
  [39, 'INVALID_KEY_CERTIFICATE_SIZE'],
  [40, 'INVALID_CONTENT_CERTIFICATE_SIZE'],
  [41, 'MISMATCHING_FIRMWARE_BUFFER_SIZES'],
  [42, 'INVALID_FIRMWARE_CPU_ID'],
  [43, 'CONTROL_RESPONSE_MD5_MISMATCH'],
  [44, 'GET_CONTROL_RESPONSE_FAIL'],
  [45, 'GET_D2H_EVENT_MESSAGE_FAIL'],
  [46, 'MUTEX_INIT_FAIL'],
  [47, 'OUT_OF_DESCRIPTORS'],
  [48, 'UNSUPPORTED_OPCODE'],
  [49, 'USER_MODE_RATE_LIMITER_NOT_SUPPORTED'],
  [50, 'RATE_LIMIT_MAXIMUM_BANDWIDTH_EXCEEDED'],
  [51, 'ANSI_TO_UTF16_CONVERSION_FAILED'],
  [52, 'UTF16_TO_ANSI_CONVERSION_FAILED'],
  [53, 'UNEXPECTED_INTERFACE_INFO_FAILURE'],
  [54, 'UNEXPECTED_ARP_TABLE_FAILURE'],
  [55, 'MAC_ADDRESS_NOT_FOUND'],
  [56, 'NO_IPV4_INTERFACES_FOUND'],
  [57, 'SHUTDOWN_EVENT_SIGNALED'],
  [58, 'THREAD_ALREADY_ACTIVATED'],
  [59, 'THREAD_NOT_ACTIVATED'],
  [60, 'THREAD_NOT_JOINABLE'],
  [61, 'NOT_FOUND'],
  [62, 'COMMUNICATION_CLOSED'],
  [63, 'STREAM_ABORT'],
  [64, 'DRIVER_NOT_INSTALLED'],
  [65, 'NOT_AVAILABLE'],
  [66, 'TRAFFIC_CONTROL_FAILURE'],
  [67, 'INVALID_SECOND_STAGE'],
  [68, 'INVALID_PIPELINE'],
  [69, 'NETWORK_GROUP_NOT_ACTIVATED'],
  [70, 'VSTREAM_PIPELINE_NOT_ACTIVATED'],
  [71, 'OUT_OF_FW_MEMORY'],
  [72, 'STREAM_NOT_ACTIVATED'],
  [73, 'DEVICE_IN_USE'],
  [74, 'OUT_OF_PHYSICAL_DEVICES'],
  [75, 'INVALID_DEVICE_ARCHITECTURE'],
  [76, 'INVALID_DRIVER_VERSION'],
  [77, 'RPC_FAILED'],
  [78, 'INVALID_SERVICE_VERSION'],
  [79, 'NOT_SUPPORTED'],
  [80, 'NMS_BURST_INVALID_DATA'],
  [81, 'OUT_OF_HOST_CMA_MEMORY'],
  [82, 'QUEUE_IS_FULL'],
  [83, 'DMA_MAPPING_ALREADY_EXISTS'],
  [84, 'CANT_MEET_BUFFER_REQUIREMENTS'],
  [85, 'DRIVER_INVALID_RESPONSE'],
  [86, 'DRIVER_INVALID_IOCTL'],
  [87, 'DRIVER_TIMEOUT'],
  [88, 'DRIVER_INTERRUPTED'],
  [89, 'CONNECTION_REFUSED'],
  [90, 'DRIVER_WAIT_CANCELED'],
  [91, 'HEF_FILE_CORRUPTED'],
  [92, 'HEF_NOT_SUPPORTED'],
  [93, 'HEF_NOT_COMPATIBLE_WITH_DEVICE'],
  [94, 'INVALID_HEF_USE'],
  [95, 'OPERATION_ABORTED'],
  [96, 'DEVICE_NOT_CONNECTED'],
  [97, 'DEVICE_TEMPORARILY_UNAVAILABLE'],
];

/**
 * Names older releases printed for the same values (hailort.h 4.6.0–4.17.0 against 5.2.0). 62 and 63
 * changed meaning: before 4.17 a stream abort, from 4.18 62 is HAILO_COMMUNICATION_CLOSED.
 */
const FORMER: Readonly<Record<string, number>> = {
  CONTROL_EVENT_CREATE_FAIL: 34,
  PCIE_DRIVER_FAIL: 36,
  DRIVER_FAIL: 36,
  STREAM_ABORTED: 62,
  STREAM_ABORTED_BY_HW: 62,
  STREAM_INTERNAL_ABORT: 63,
  STREAM_ABORTED_BY_USER: 63,
  PCIE_DRIVER_NOT_INSTALLED: 64,
};

/**
 * Names later releases print for a value of this table: HailoRT 5.3 logs 81 as HAILO_RESOURCE_EXHAUSTED (a user's
 * hailort 5.3.0 log, dfc-corpus unseen8/11), and its linux driver_os_specific.cpp returns HAILO_RESOURCE_EXHAUSTED for
 * ENOBUFS ("insufficient amount of CMA memory") where 5.2.0 returned HAILO_OUT_OF_HOST_CMA_MEMORY.
 */
const LATER: Readonly<Record<string, number>> = {
  RESOURCE_EXHAUSTED: 81,
};

const BY_VALUE = new Map(STATUSES.map(([v, n]) => [v, `HAILO_${n}`]));
const BY_NAME = new Map<string, number>([
  ...STATUSES.map(([v, n]) => [`HAILO_${n}`, v] as const),
  ...Object.entries(FORMER).map(([n, v]) => [`HAILO_${n}`, v] as const),
  ...Object.entries(LATER).map(([n, v]) => [`HAILO_${n}`, v] as const),
]);

/** The current name of a status value (`HAILO_INVALID_HEF` for 26), undefined for a value hailort.h has not. */
export function hailortStatusName(value: number): string | undefined {
  return BY_VALUE.get(value);
}

/** The value of a status name, current or former (`HAILO_PCIE_DRIVER_FAIL` → 36). */
export function hailortStatusValue(name: string): number | undefined {
  return BY_NAME.get(name);
}

/** Every status name a log may print, current and former. */
export const HAILORT_STATUS_NAMES: readonly string[] = [...BY_NAME.keys()];

/**
 * The families of failure a status belongs to — the reader's code for each (core/dfc/codes.ts).
 * A status in no family is reported by its name and meaning (`hailort/status`).
 */
export const HAILORT_FAMILIES = {
  /** HailoRT cannot read or does not support the HEF (or cannot open the file it was given). */
  'hailort/hef-rejected': ['INVALID_HEF', 'HEF_FILE_CORRUPTED', 'HEF_NOT_SUPPORTED', 'INVALID_HEF_USE', 'OPEN_FILE_FAILURE', 'FILE_OPERATION_FAILURE'],
  /** The HEF was compiled for another device architecture. */
  'hailort/hef-device-mismatch': ['HEF_NOT_COMPATIBLE_WITH_DEVICE', 'INVALID_DEVICE_ARCHITECTURE'],
  /** Driver, firmware, service and library of different releases. */
  'hailort/version-mismatch': [
    'INVALID_DRIVER_VERSION',
    'DRIVER_INVALID_IOCTL',
    'DRIVER_INVALID_RESPONSE',
    'UNSUPPORTED_FW_VERSION',
    'UNSUPPORTED_CONTROL_PROTOCOL_VERSION',
    'INVALID_SERVICE_VERSION',
  ],
  /** Another process (or VDevice) holds the device. */
  'hailort/out-of-physical-devices': ['OUT_OF_PHYSICAL_DEVICES', 'DEVICE_IN_USE', 'DEVICE_TEMPORARILY_UNAVAILABLE'],
  /** The device did not answer in time. */
  'hailort/timeout': ['TIMEOUT', 'DRIVER_TIMEOUT'],
  /** The PCIe driver failed, is missing, or the device is gone. */
  'hailort/driver': ['DRIVER_OPERATION_FAILED', 'DRIVER_NOT_INSTALLED', 'PCIE_NOT_SUPPORTED_ON_PLATFORM', 'DEVICE_NOT_CONNECTED', 'FW_CONTROL_FAILURE'],
  /** The connection to the device's or service's other end closed or was refused. */
  'hailort/connection-closed': ['COMMUNICATION_CLOSED', 'RPC_FAILED', 'CONNECTION_REFUSED'],
} as const satisfies Record<string, readonly string[]>;

export type HailortFamilyCode = keyof typeof HAILORT_FAMILIES | 'hailort/status';

const FAMILY_OF = new Map<number, HailortFamilyCode>();
for (const [code, names] of Object.entries(HAILORT_FAMILIES) as [HailortFamilyCode, readonly string[]][])
  for (const n of names) FAMILY_OF.set(BY_NAME.get(`HAILO_${n}`)!, code);

/** The family code of a status value (`hailort/status` for one in no family). */
export function hailortFamily(value: number): HailortFamilyCode {
  return FAMILY_OF.get(value) ?? 'hailort/status';
}

/** The values of a family (for patterns over `status=N`). */
export function hailortFamilyValues(code: HailortFamilyCode): number[] {
  return [...FAMILY_OF].filter(([, c]) => c === code).map(([v]) => v);
}

/** What a status means, in a few words (hailort.h's own description of the value, shortened). */
const MEANING: Readonly<Record<string, string>> = {
  INVALID_ARGUMENT: 'an invalid argument',
  OUT_OF_HOST_MEMORY: 'the host is out of memory',
  TIMEOUT: 'a timeout',
  INVALID_OPERATION: 'an operation not valid in this state',
  NOT_IMPLEMENTED: 'not implemented',
  INTERNAL_FAILURE: 'an unexpected internal failure (the line before it says which check failed)',
  OPEN_FILE_FAILURE: 'a file could not be opened',
  FILE_OPERATION_FAILURE: 'a file operation failed',
  UNSUPPORTED_CONTROL_PROTOCOL_VERSION: "the device's control protocol is of another version",
  UNSUPPORTED_FW_VERSION: "the device's firmware is of another version",
  FW_CONTROL_FAILURE: 'a control operation failed in the firmware',
  INVALID_FRAME: 'part or all of a frame is invalid',
  INVALID_HEF: 'an invalid HEF',
  PCIE_NOT_SUPPORTED_ON_PLATFORM: 'PCIe is not supported on this platform',
  DRIVER_OPERATION_FAILED: 'a driver operation (ioctl) failed — the driver log (dmesg) says more',
  OUT_OF_DESCRIPTORS: 'no more DMA descriptors',
  NOT_FOUND: 'an item was not found',
  COMMUNICATION_CLOSED: 'the communication between the endpoints is closed',
  STREAM_ABORT: 'a stream was aborted',
  DRIVER_NOT_INSTALLED: 'the driver is not installed or not running',
  NOT_AVAILABLE: 'a component is not available',
  NETWORK_GROUP_NOT_ACTIVATED: 'the network group is not activated',
  OUT_OF_FW_MEMORY: 'the firmware is out of memory',
  DEVICE_IN_USE: 'the device is already in use',
  OUT_OF_PHYSICAL_DEVICES: 'not enough free physical devices',
  INVALID_DEVICE_ARCHITECTURE: 'an invalid device architecture',
  INVALID_DRIVER_VERSION: 'the driver is of another version than the library',
  RPC_FAILED: 'a remote call (to hailort.service or the device) failed',
  INVALID_SERVICE_VERSION: 'hailort.service is of another version',
  NOT_SUPPORTED: 'an operation not supported here',
  OUT_OF_HOST_CMA_MEMORY: 'the host is out of CMA memory',
  CANT_MEET_BUFFER_REQUIREMENTS: "a buffer's requirements cannot be met",
  DRIVER_INVALID_RESPONSE: 'the driver answered what the library did not expect (driver and library versions differ)',
  DRIVER_INVALID_IOCTL: 'the driver does not know the ioctl (driver and library versions differ)',
  DRIVER_TIMEOUT: 'a driver operation timed out (the device may need a reset)',
  CONNECTION_REFUSED: 'the connection was refused by the other side',
  HEF_FILE_CORRUPTED: 'the HEF file is corrupted',
  HEF_NOT_SUPPORTED: 'the HEF is not supported by this HailoRT (the DFC version must be compatible)',
  HEF_NOT_COMPATIBLE_WITH_DEVICE: 'the HEF is not compatible with the device',
  INVALID_HEF_USE: 'the HEF is used in a way it does not allow',
  OPERATION_ABORTED: 'the operation was aborted',
  DEVICE_NOT_CONNECTED: 'the device is not connected',
  DEVICE_TEMPORARILY_UNAVAILABLE: 'the device is temporarily unavailable',
};

/**
 * What to do about a status whose cause is known better than its family's advice says, from
 * HailoRT's and the driver's own sources. The reader gives it instead of the family's advice when the
 * failure's own message has no advice of its own.
 */
const ADVICE: Readonly<Record<string, string>> = {
  // HailoRT 5.x on Hailo-10H (a VDevice over the device's own runtime, vdevice_hrpc_client.cpp v5.1.1–v5.2.0):
  // the legacy configure-params / VStreams path returns this status and logs "Not supported. Did you try calling
  // `create_configure_params` on H10? If so, use InferModel instead".
  NOT_IMPLEMENTED:
    'this HailoRT does not implement the call here: on a Hailo-10H (HailoRT 5.x) the legacy configure-params / VStreams API (hailo_init_configure_params_by_vdevice, create_configure_params, InferVStreams) is not implemented — use the InferModel API (create_infer_model, ConfiguredInferModel) instead',
  // No check of its own says more: the line before names the check. One recorded cause (dfc-corpus unseen3/33, DeGirum's
  // runtime agent): an async pipeline failing while the host's hailort service also held the device — stopping the service fixed it.
  INTERNAL_FAILURE:
    "the line before the status says which check failed; when an inference pipeline fails so while the host also runs HailoRT's service (hailort.service, the multi-process service), one program is using the device directly beside it — stop the service (sudo systemctl stop hailort) or have every program go through it",
  // libhailort's Linux device scan (hailort v4.20.0–v5.0.0 vdma/driver/os/posix/linux/driver_os_specific.cpp):
  // "Can't find hailort driver class" when /sys/class/hailo_chardev is missing — which, as v5.0.1's same
  // function says, means "no devices have been detected by driver" (a device not on the bus, or no driver for it).
  DRIVER_NOT_INSTALLED:
    'HailoRT found no device the driver detected: the device may not be connected or not detected on PCIe (lspci | grep -i hailo lists nothing; on a Raspberry Pi check the ribbon cable and the HAT are seated and PCIe is enabled), or the driver (hailo_pci; hailo1x_pci for Hailo-10H/15) is not installed for the running kernel — reinstall it after a kernel update, and check it is loaded (lsmod | grep hailo)',
  // The driver answers an ioctl it does not know with "Invalid general ioctl code" in dmesg and ENOTTY
  // (hailo-ai/hailort-drivers linux/pcie/src/fops.c); a 4.17 library on a 4.18 driver reported it as this
  // status (HailoRTStatusException: 36, dfc-corpus unseen2/23's thread).
  DRIVER_OPERATION_FAILED:
    "read the driver's log (dmesg | grep hailo): \"Invalid general ioctl code\" there means the driver is of another version than the HailoRT library (each release has its own ioctls) — install the driver and HailoRT of one version (or the container's HailoRT of the host driver's version); otherwise reset or re-seat the device",
};

/** The status's own advice, when it has one (see ADVICE). */
export function hailortStatusAdvice(value: number): string | undefined {
  const name = BY_VALUE.get(value);
  return name ? ADVICE[name.slice(6)] : undefined;
}

/** `HAILO_X(N), <meaning>` for a value; a renumbered value says both meanings. */
export function describeHailortStatus(value: number): string {
  const name = hailortStatusName(value);
  if (!name) return `status ${value} (not a status hailort.h lists)`;
  const meaning = MEANING[name.slice(6)];
  const former =
    value === 62 ? '; before HailoRT 4.17, 62 was HAILO_STREAM_ABORTED(_BY_HW)' : value === 63 ? '; before HailoRT 4.17, 63 was a stream abort too' : '';
  return `${name}(${value})${meaning ? `: ${meaning}` : ''}${former}`;
}

/**
 * pyhailort's exception per status (hailo_platform/pyhailort/pyhailort.py, `create_exception_from_status`,
 * 4.22.0 and 5.2.0): Python users see the class, not the status. `_pyhailort.HailoRTStatusException: N`
 * carries the bare number (the indicative class is raised `from` it).
 */
export const PYHAILORT_CLASS_STATUS: Readonly<Record<string, number>> = {
  InvalidProtocolVersionException: 15,
  HailoRTFirmwareControlFailedException: 18,
  HailoRTUnsupportedOpcodeException: 48,
  HailoRTInvalidFrameException: 25,
  HailoRTTimeout: 4,
  HailoRTStreamAborted: 63,
  HailoRTInvalidOperationException: 6,
  HailoRTInvalidArgumentException: 2,
  HailoRTNotFoundException: 61,
  HailoRTInvalidHEFException: 26,
  HailoRTHEFNotCompatibleWithDevice: 93,
  HailoRTEthException: 19,
  HailoRTDriverOperationFailedException: 36,
  HailoRTPCIeDriverException: 36,
  HailoCommunicationClosedException: 62,
  HailoRTNetworkGroupNotActivatedException: 69,
};

/** The pyhailort classes of a family's statuses. */
export function pyhailortClasses(code: HailortFamilyCode): string[] {
  return Object.entries(PYHAILORT_CLASS_STATUS)
    .filter(([, v]) => hailortFamily(v) === code)
    .map(([c]) => c);
}

/** Where a line names a status: `HAILO_NAME` (with or without `(N)`), or `status=N` / `status = N` / `status: N`. */
const STATUS_IN_TEXT = /\b(HAILO_[A-Z0-9_]+)\b(?:\((\d+)\))?|\bstatus\s*[=:]\s*(\d{1,3})\b(?![.\d])/g;

/** The first status a line names (a `HAILO_…` word that is not a status, e.g. an ioctl's name, is skipped). */
export function hailortStatusIn(text: string): { name: string; value: number } | null {
  if (!text.includes('HAILO_') && !text.includes('status')) return null;
  for (const m of text.matchAll(STATUS_IN_TEXT)) {
    if (m[1]) {
      const v = BY_NAME.get(m[1]);
      if (v !== undefined) return { name: BY_VALUE.get(v)!, value: v };
    } else if (m[3]) {
      const v = Number(m[3]);
      const name = BY_VALUE.get(v);
      if (name && v !== 0) return { name, value: v };
    }
  }
  return null;
}
