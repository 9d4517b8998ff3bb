// The only way the readers open a file someone else may have put in a folder. Two hazards:
// - `open` of a FIFO blocks until a writer appears (forever, for a hostile one), and a device or a
//   folder is not a model file: stat first, open only regular files, with O_NONBLOCK so that a file
//   swapped for a FIFO between the stat and the open cannot block either, then check again on the
//   open descriptor;
// - Node aborts the process on a single read longer than 2 GiB − 1 bytes: reads are split into
//   pieces of at most LIMITS.readChunkBytes.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { formatBytes, limit } from './limits';

/** Opens without blocking on FIFOs (O_NONBLOCK does not exist on Windows, where FIFOs don't either). */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The reason a path cannot be read as a file, as a sentence ("… is a folder, not a file"). */
export class FileAccessError extends Error {
  constructor(
    message: string,
    /** `not-regular` (a folder, FIFO, socket or device), `too-large`, or the errno code (ENOENT, EACCES, …). */
    readonly code: string,
  ) {
    super(message);
    this.name = 'FileAccessError';
  }
}

/** "a folder", "a FIFO (named pipe)", … for a stat that is not a regular file. */
export function describeFileKind(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

function notRegular(path: string, st: Stats): FileAccessError {
  return new FileAccessError(`'${path}' is ${describeFileKind(st)}, not a regular file; not read`, 'not-regular');
}

function ioError(path: string, err: unknown): FileAccessError {
  if (err instanceof FileAccessError) return err;
  const e = err as NodeJS.ErrnoException;
  const why =
    e.code === 'ENOENT'
      ? 'no such file'
      : e.code === 'EACCES' || e.code === 'EPERM'
        ? 'permission denied'
        : e.code === 'ELOOP'
          ? 'too many symbolic links'
          : (e.message ?? String(e));
  return new FileAccessError(`cannot open '${path}': ${why}`, e.code ?? 'io');
}

/** Stats `path` and throws a FileAccessError unless it is a regular file. */
export function statRegularSync(path: string): Stats {
  let st: Stats;
  try {
    st = statSync(path);
  } catch (err) {
    throw ioError(path, err);
  }
  if (!st.isFile()) throw notRegular(path, st);
  return st;
}

/** Opens a regular file for reading; never blocks on a FIFO. The caller closes the handle. */
export async function openRegularFile(path: string): Promise<{ handle: FileHandle; size: number }> {
  let handle: FileHandle;
  try {
    const st = await stat(path);
    if (!st.isFile()) throw notRegular(path, st);
    handle = await open(path, OPEN_FLAGS);
  } catch (err) {
    throw ioError(path, err);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) throw notRegular(path, st); // swapped between the stat and the open
    return { handle, size: st.size };
  } catch (err) {
    await handle.close();
    throw ioError(path, err);
  }
}

/** Synchronous twin of openRegularFile (the ONNX reader is synchronous). The caller closes `fd`. */
export function openRegularFileSync(path: string): { fd: number; size: number } {
  statRegularSync(path);
  let fd: number;
  try {
    fd = openSync(path, OPEN_FLAGS);
  } catch (err) {
    throw ioError(path, err);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw notRegular(path, st);
    return { fd, size: st.size };
  } catch (err) {
    closeSync(fd);
    throw ioError(path, err);
  }
}

/**
 * Reads `length` bytes at file position `position` into `target[offset…]`, in pieces below 2 GiB.
 * Returns the bytes read (fewer only when the file ends first).
 */
export async function readInto(handle: FileHandle, target: Uint8Array, offset: number, length: number, position: number): Promise<number> {
  const chunk = limit('readChunkBytes');
  let got = 0;
  while (got < length) {
    const { bytesRead } = await handle.read(target, offset + got, Math.min(chunk, length - got), position + got);
    if (bytesRead === 0) break; // the file shrank under us
    got += bytesRead;
  }
  return got;
}

/** Synchronous twin of readInto. */
export function readIntoSync(fd: number, target: Uint8Array, offset: number, length: number, position: number): number {
  const chunk = limit('readChunkBytes');
  let got = 0;
  while (got < length) {
    const n = readSync(fd, target, offset + got, Math.min(chunk, length - got), position + got);
    if (n <= 0) break;
    got += n;
  }
  return got;
}

/**
 * The whole of a small regular file (a script, a JSON config), refusing folders, FIFOs and devices
 * and anything larger than `maxBytes` (with a FileAccessError whose code is `too-large`).
 */
export function readSmallFileSync(path: string, maxBytes: number): Buffer {
  const { fd, size } = openRegularFileSync(path);
  try {
    if (size > maxBytes) {
      throw new FileAccessError(`'${path}' is ${size.toLocaleString('en-US')} bytes, more than the ${formatBytes(maxBytes)} limit; not read`, 'too-large');
    }
    const out = Buffer.allocUnsafe(size);
    const n = readIntoSync(fd, out, 0, size, 0);
    return n === size ? out : out.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** size:mtime of a regular file (a cache key that changes when the file does), or undefined. */
export function fileStamp(path: string): string | undefined {
  try {
    const s = statSync(path);
    return s.isFile() ? `${s.size}:${s.mtimeMs}` : undefined;
  } catch {
    return undefined;
  }
}
