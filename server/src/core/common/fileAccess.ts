// The only way the readers open a file someone else may have put in a folder. Two hazards:
// - `open` of a FIFO blocks until a writer appears (forever, for a hostile one), and a device or a
//   folder is not a model file: stat first, open only regular files, with O_NONBLOCK so that a file
//   swapped for a FIFO between the stat and the open cannot block either, then check again on the
//   open descriptor;
// - Node aborts the process on a single read longer than 2 GiB − 1 bytes: reads are split into
//   pieces of at most LIMITS.readChunkBytes.
import {
  closeSync,
  constants,
  createWriteStream,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Dirent,
  type Stats,
  type WriteStream,
} from 'node:fs';
import { open, stat, type FileHandle } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
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
    // procfs reports 0 bytes for a file it generates on read (/proc/sys/kernel/osrelease): read to
    // its end, within the limit.
    if (size === 0) return readToEndSync(path, fd, maxBytes);
    const out = Buffer.allocUnsafe(size);
    const n = readIntoSync(fd, out, 0, size, 0);
    return n === size ? out : out.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** An open file read to its end, at most `maxBytes` (for files whose size says 0: procfs). */
export function readToEndSync(path: string, fd: number, maxBytes: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const chunk = Buffer.allocUnsafe(Math.min(maxBytes + 1 - total, 64 << 10));
    const n = readSync(fd, chunk, 0, chunk.length, total);
    if (n <= 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (total > maxBytes) throw new FileAccessError(`'${path}' is more than the ${formatBytes(maxBytes)} limit; not read`, 'too-large');
  }
  return Buffer.concat(chunks, total);
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

// ---- the folder rule (issue 18) ------------------------------------------------------------------
// Every read and write a file or a setting can steer stays inside the folder the user opened or the
// model lives in, with every symbolic link resolved: a cloned repository can ship `model.dfc.log`
// as a link to ~/.bashrc, `hailo-config.json` as a link to a private key, or `data -> /`. Paths the
// user typed are trusted as written (their folder is a root); what is refused is a link that leads
// somewhere else.

/** `child` is `root` or below it (both absolute; compared as strings after resolve). */
export function isInside(child: string, root: string): boolean {
  const c = resolve(child);
  const r = resolve(root);
  if (c === r) return true;
  const rel = relative(r, c);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/**
 * The real path of `path`: every link resolved; a tail that does not exist yet (an output file, a
 * folder to be created) is resolved through its nearest existing ancestor.
 */
export function realPathOf(path: string): string {
  const abs = resolve(path);
  const missing: string[] = [];
  let cur = abs;
  for (;;) {
    try {
      const real = realpathSync.native(cur);
      return missing.length ? join(real, ...missing.reverse()) : real;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const parent = dirname(cur);
      // A dangling link is not "missing": resolving it through its parent would hide where it points.
      if (code !== 'ENOENT' || parent === cur || isDanglingLink(cur)) throw ioError(path, err);
      missing.push(basename(cur));
      cur = parent;
    }
  }
}

function isDanglingLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/** "the folder '/w'" or "the folders '/a' or '/b'". */
function describeRoots(all: readonly string[]): string {
  const roots = [...new Set(all.map((r) => resolve(r)))];
  return roots.length === 1 ? `the folder '${roots[0]}'` : `the folders ${roots.map((r) => `'${r}'`).join(' or ')}`;
}

/**
 * Checks that `path`, every link resolved, stays inside one of `roots` (themselves resolved), and
 * returns its real path. Otherwise a FileAccessError (code `outside`) whose message is one sentence:
 * "'x' leads outside the folder '/w' (it resolves to '/etc/x'); not read: …".
 */
export function confinePath(path: string, roots: readonly string[], verb: 'read' | 'written' | 'sent' | 'mounted' = 'read'): string {
  const real = realPathOf(path);
  const realRoots = roots.map((r) => {
    try {
      return realPathOf(r);
    } catch {
      return resolve(r);
    }
  });
  if (realRoots.some((r) => isInside(real, r))) return real;
  throw new FileAccessError(
    `'${path}' leads outside ${describeRoots(roots)} (it resolves to '${real}'); not ${verb}: put the file inside the folder, or give its real path yourself`,
    'outside',
  );
}

/** confinePath as a test: the real path, or undefined when it leads outside (or cannot be resolved). */
export function confinedOrUndefined(path: string, roots: readonly string[]): string | undefined {
  try {
    return confinePath(path, roots);
  } catch {
    return undefined;
  }
}

/** O_NOFOLLOW where the platform has it (not on Windows, where a cloned folder holds no symlinks by default). */
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/**
 * Opens `path` for writing, created or truncated, without ever following a link: the last component
 * is opened with O_NOFOLLOW (a symlink fails with ELOOP), O_NONBLOCK (a FIFO is refused, not waited
 * on), and the open file must be a regular file with one name (a hard link to someone else's file
 * is refused too) before a byte is truncated. The caller closes the descriptor.
 */
export function openForWriteSync(path: string): number {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | NOFOLLOW | (constants.O_NONBLOCK ?? 0), 0o644);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ELOOP' || (NOFOLLOW === 0 && isDanglingLink(path)) || e.code === 'EMLINK') {
      throw new FileAccessError(`'${path}' is a symbolic link; not written through it: remove the link (or choose another output folder)`, 'link');
    }
    if (e.code === 'ENXIO') throw new FileAccessError(`'${path}' is a FIFO (named pipe), not a regular file; not written`, 'not-regular');
    throw ioError(path, err);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new FileAccessError(`'${path}' is ${describeFileKind(st)}, not a regular file; not written`, 'not-regular');
    if (st.nlink > 1) throw new FileAccessError(`'${path}' has ${st.nlink} hard links; not written through them: remove it first`, 'link');
    if (NOFOLLOW === 0 && lstatSync(path).isSymbolicLink()) throw new FileAccessError(`'${path}' is a symbolic link; not written through it`, 'link');
    ftruncateSync(fd, 0);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err instanceof FileAccessError ? err : ioError(path, err);
  }
}

/** A write stream on openForWriteSync (a log that grows while a compile runs). */
export function createWriteStreamNoFollow(path: string): WriteStream {
  return createWriteStream(path, { fd: openForWriteSync(path), flags: 'w' });
}

/**
 * Writes a whole file without following links: into a fresh temporary name beside it (O_EXCL, so
 * never an existing file or link), then renamed over `path` — a link at `path` is replaced, never
 * written through.
 */
export function writeFileNoFollowSync(path: string, data: string | Uint8Array): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now().toString(36)}.partial`);
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o644);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data) : data);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw ioError(path, err);
  }
}

// ---- walks -----------------------------------------------------------------------------------------

export interface WalkOptions {
  /** Folders (by name) not entered; default: none. */
  skipDir?: (name: string) => boolean;
  /** Which file names are wanted. */
  wantFile: (name: string) => boolean;
  /** Stop after this many files (default: no bound). */
  maxFiles?: number;
  /** Do not go deeper than this many folders below the root (default 64). */
  maxDepth?: number;
}

export interface WalkResult {
  /** Wanted files, each real file once: regular files, and links to regular files inside the root (as the link's path). */
  files: string[];
  /** One sentence per entry left out for the folder rule or unreadable (a link outside the root, a folder we may not read). */
  skipped: string[];
  /** True when maxFiles stopped the walk. */
  truncated: boolean;
}

/**
 * Walks `root` without following links to folders and without leaving it: a directory link is
 * never entered (`root -> /` walks nothing), a file link counts only when its target is a regular
 * file inside the root, and each real file (device + inode) is listed once however many names it has.
 * Entries are visited in name order.
 */
export function walkFilesSync(root: string, options: WalkOptions): WalkResult {
  const out: WalkResult = { files: [], skipped: [], truncated: false };
  const maxDepth = options.maxDepth ?? 64;
  const max = options.maxFiles ?? Infinity;
  let realRoot: string;
  try {
    realRoot = realpathSync.native(root);
  } catch (err) {
    out.skipped.push(ioError(root, err).message);
    return out;
  }
  const seen = new Set<string>();
  const visit = (dir: string, depth: number): void => {
    let entries: Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    } catch (err) {
      out.skipped.push(`${dir}: cannot read folder (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      return;
    }
    for (const e of entries) {
      if (out.files.length >= max) {
        out.truncated = true;
        return;
      }
      const p = join(dir, e.name);
      if (e.isDirectory()) {
        if (options.skipDir?.(e.name)) continue;
        if (depth + 1 > maxDepth) {
          out.skipped.push(`${p}: more than ${maxDepth} folders deep; not walked`);
          continue;
        }
        visit(p, depth + 1);
        continue;
      }
      if (!options.wantFile(e.name)) continue;
      let st: Stats;
      if (e.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync.native(p);
          st = statSync(real);
        } catch {
          continue; // a dangling link: nothing to read
        }
        if (st.isDirectory()) continue; // never entered
        if (!isInside(real, realRoot)) {
          out.skipped.push(`${p}: a link to '${real}', outside '${root}'; not read`);
          continue;
        }
      } else {
        try {
          st = lstatSync(p);
        } catch {
          continue;
        }
      }
      const key = `${st.dev}:${st.ino}`;
      if (st.isFile() && seen.has(key)) continue;
      seen.add(key);
      out.files.push(p); // FIFOs and devices too: their reader refuses them in one sentence
    }
  };
  visit(root, 0);
  return out;
}

// ---- streaming ---------------------------------------------------------------------------------

/**
 * Streams an opened file as UTF-8 text to `onText` in pieces of `chunkBytes` (a sequence split
 * between pieces is decoded whole): memory is one piece, whatever the size of the file. The caller
 * opened it (FileRoots.streamText) and closes it.
 */
export async function streamHandleText(handle: FileHandle, onText: (text: string) => void, chunkBytes = 1 << 20): Promise<number> {
  const decoder = new StringDecoder('utf8');
  const buf = Buffer.allocUnsafe(chunkBytes);
  let position = 0;
  for (;;) {
    const { bytesRead } = await handle.read(buf, 0, chunkBytes, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    const text = decoder.write(buf.subarray(0, bytesRead));
    if (text) onText(text);
  }
  const rest = decoder.end();
  if (rest) onText(rest);
  return position;
}

/** The first `maxBytes` of an opened file of `size` bytes as UTF-8 text (a partial last character dropped). */
export async function readHandleTextPrefix(handle: FileHandle, size: number, maxBytes: number): Promise<string> {
  const buf = Buffer.allocUnsafe(Math.min(size, maxBytes));
  const n = await readInto(handle, buf, 0, buf.length, 0);
  return new StringDecoder('utf8').write(buf.subarray(0, n));
}

/** Closes a descriptor the layer opened (FileRoots.openSync / openForWriteSync). */
export function closeFile(fd: number): void {
  closeSync(fd);
}
