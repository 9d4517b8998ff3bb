// The kernel's error numbers (errno), as HailoRT and its PCIe driver print them (`Failed to allocate
// buffer with errno: 12`, `ioctl … failed with errno: 16`): the number alone says what went wrong,
// often something other than the HailoRT status the caller then reports (ENOMEM under
// HAILO_DRIVER_FAIL is the host out of memory, not a driver fault). Values and names from Linux's
// include/uapi/asm-generic/errno-base.h (1–34) and errno.h (https://github.com/torvalds/linux,
// the numbering every Linux architecture HailoRT supports — x86-64, arm64 — uses). Pure data.

/** [value, name, meaning, advice (where the number alone says what to do)]. */
const ERRNO: readonly (readonly [number, string, string, string?])[] = [
  [1, 'EPERM', 'operation not permitted', 'the process lacks the permission: run as a user allowed to use the device (its udev rule, /dev/hailo*)'],
  [2, 'ENOENT', 'no such file or directory', 'a path or device node does not exist: check the path, and that the driver created /dev/hailo*'],
  [3, 'ESRCH', 'no such process'],
  [4, 'EINTR', 'interrupted system call', 'a signal interrupted the call (Ctrl-C, a timer): rerun it'],
  [5, 'EIO', 'I/O error', 'the device did not complete an I/O: read the driver log (dmesg | grep hailo); reset or reseat the device'],
  [6, 'ENXIO', 'no such device or address', 'the device is gone or not enumerated: check lspci and the driver log (dmesg | grep hailo)'],
  [7, 'E2BIG', 'argument list too long'],
  [8, 'ENOEXEC', 'exec format error'],
  [9, 'EBADF', 'bad file descriptor'],
  [10, 'ECHILD', 'no child processes'],
  [11, 'EAGAIN', 'resource temporarily unavailable', 'the resource is busy for now: retry'],
  [
    12,
    'ENOMEM',
    'out of memory',
    'not a driver fault: the host could not allocate the memory asked for — free memory (close other programs and models), lower the batch size or the number of models loaded at once, or rerun (contiguous memory fragments over time; a reboot gives it back)',
  ],
  [
    13,
    'EACCES',
    'permission denied',
    "the process may not open the device or file: fix its permissions (the driver's udev rule for /dev/hailo*) or run as a user in its group",
  ],
  [14, 'EFAULT', 'bad address'],
  [15, 'ENOTBLK', 'block device required'],
  [16, 'EBUSY', 'device or resource busy', 'another process holds the device: stop it, or share the device through the HailoRT service (multi-process)'],
  [17, 'EEXIST', 'file exists'],
  [18, 'EXDEV', 'cross-device link'],
  [19, 'ENODEV', 'no such device', 'no device answers: check that the driver is loaded (lsmod | grep hailo) and the device is seen (lspci)'],
  [20, 'ENOTDIR', 'not a directory'],
  [21, 'EISDIR', 'is a directory'],
  [
    22,
    'EINVAL',
    'invalid argument',
    "the driver refused the request's arguments — often a driver of another release than the library: install both from one release",
  ],
  [23, 'ENFILE', 'file table overflow'],
  [24, 'EMFILE', 'too many open files', 'the process opened too many files or devices: close them, or raise ulimit -n'],
  [
    25,
    'ENOTTY',
    'not a typewriter (inappropriate ioctl for device)',
    'the driver does not know this ioctl: driver and library are of different releases — install both from one release',
  ],
  [26, 'ETXTBSY', 'text file busy'],
  [27, 'EFBIG', 'file too large'],
  [28, 'ENOSPC', 'no space left on device', "the disk (or the device's memory) is full: free space"],
  [29, 'ESPIPE', 'illegal seek'],
  [30, 'EROFS', 'read-only file system'],
  [31, 'EMLINK', 'too many links'],
  [32, 'EPIPE', 'broken pipe', "the other end closed the connection (the HailoRT service or the device's server stopped)"],
  [33, 'EDOM', 'math argument out of domain of func'],
  [34, 'ERANGE', 'math result not representable'],
  [62, 'ETIME', 'timer expired', 'the device did not answer in time: it may need a reset'],
  [95, 'EOPNOTSUPP', 'operation not supported on transport endpoint'],
  [104, 'ECONNRESET', 'connection reset by peer', "the other end (the HailoRT service or the device's server) dropped the connection"],
  [110, 'ETIMEDOUT', 'connection timed out', 'the device or service did not answer in time: it may need a reset'],
  [111, 'ECONNREFUSED', 'connection refused', "nothing listens at the other end: start the HailoRT service (hailort.service) or the device's server"],
];

export interface Errno {
  value: number;
  name: string;
  meaning: string;
  advice?: string;
}

/** Every errno the table knows. */
export const ERRNOS: readonly Errno[] = ERRNO.map(([value, name, meaning, advice]) => ({ value, name, meaning, ...(advice ? { advice } : {}) }));

const BY_VALUE = new Map<number, Errno>(ERRNOS.map((e) => [e.value, e]));

/** The errno a line reports (`errno: 12`, `errno = -12`, `errno 12`, Python's `[Errno 12]`), when it is one Linux defines. */
export function errnoIn(text: string): Errno | undefined {
  if (!/errno/i.test(text)) return undefined;
  const m = /\berrno\s*[:=]?\s*\(?-?(\d{1,4})\b/i.exec(text);
  return m ? BY_VALUE.get(Number(m[1])) : undefined;
}

/** Words that may give an OS reason (one test before any other). */
const MAY_REASON = /errno|denied|permi(?:ssion|tted)|chmod|no such|read-only|no space|(?:cannot|can't|unable to) read|not readable|owned by/i;
/** An author's words for a file the process may not read (`cannot read these files`, `mode 600`, `chmod 644`). */
const PERMISSION_WORDS = /\bpermissions?\b|\bchmod\b|(?:cannot|can't|unable to) read\b|\bnot readable\b|\bowned by\b/i;

/**
 * The OS's reason a line gives for a failure, in any of its forms: the errno (`errno: 13`, `[Errno 13]`),
 * strerror's words (`Permission denied`, `No such file or directory` — what C's perror and Python print after
 * the errno), or an author's words for a permission the process lacks (`cannot read`, `chmod 644`) — EACCES.
 */
export function osReasonIn(text: string): Errno | undefined {
  if (!MAY_REASON.test(text)) return undefined;
  const e = errnoIn(text);
  if (e) return e;
  const lower = text.toLowerCase();
  const worded = ERRNOS.find((x) => x.meaning.length >= 12 && lower.includes(x.meaning));
  if (worded) return worded;
  return PERMISSION_WORDS.test(text) ? BY_VALUE.get(13) : undefined;
}

/** `errno 12 (ENOMEM, out of memory)`. */
export function describeErrno(e: Errno): string {
  return `errno ${e.value} (${e.name}, ${e.meaning})`;
}
