// Primitives of the confined file layer (confined.ts, issue 29) that take an opened descriptor or
// handle, never a path: FileRoots opens the file (inside its roots, regular files only, O_NONBLOCK
// so a FIFO cannot block) and these read it. Node aborts the process on a single read longer than
// 2 GiB − 1 bytes: reads are split into pieces of at most LIMITS.readChunkBytes. The functions that
// took a bare path (readSmallFileSync, confinePath, writeFileNoFollowSync, …) are gone: a path a
// folder names reaches the disk only through FileRoots.
import { closeSync, readSync, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { formatBytes, limit } from './limits';

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

/** `child` is `root` or below it (both absolute; compared as strings after resolve). */
export function isInside(child: string, root: string): boolean {
  const c = resolve(child);
  const r = resolve(root);
  if (c === r) return true;
  const rel = relative(r, c);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
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
