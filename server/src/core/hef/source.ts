// Where HEF bytes come from. The reader only ever asks for ranges, so a multi-gigabyte HEF is
// never held in memory: a file is read with positional reads, a buffer (tests, fuzzing) is sliced.
// Files are opened through common/fileAccess (regular files only, never blocking on a FIFO; reads
// split below Node's 2 GiB single-read limit).
import { FileRoots } from '../common/confined';
import { readInto } from '../common/fileAccess';

export interface ByteSource {
  /** Total size in bytes. */
  readonly size: number;
  /** Human-readable name for messages (a path or "<buffer>"). */
  readonly name: string;
  /**
   * Bytes [offset, offset + length), clipped to the end of the source. The result is shorter than
   * `length` only when the source ends first; it may share memory with the source (do not mutate).
   */
  read(offset: number, length: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

/** A source over bytes already in memory. */
export function bufferSource(bytes: Uint8Array, name = '<buffer>'): ByteSource {
  return {
    size: bytes.length,
    name,
    async read(offset, length) {
      const start = Math.max(0, Math.min(offset, bytes.length));
      const end = Math.max(start, Math.min(offset + length, bytes.length));
      return bytes.subarray(start, end);
    },
    async close() {},
  };
}

/**
 * A source over a file, read with positional reads (FileHandle.read at offsets). Throws a
 * FileAccessError for a path that is not a readable regular file inside `roots` (default: the file
 * the user named, in its own folder; a file found beside another passes that file's roots).
 */
export async function fileSource(path: string, roots: FileRoots = FileRoots.named(path)): Promise<ByteSource> {
  const { handle, size } = await roots.open(path);
  return {
    size,
    name: path,
    async read(offset, length) {
      const start = Math.max(0, Math.min(offset, size));
      const want = Math.max(0, Math.min(length, size - start));
      const out = new Uint8Array(want);
      const got = await readInto(handle, out, 0, want, start);
      return got === want ? out : out.subarray(0, got);
    },
    close: () => handle.close(),
  };
}

/** Runs `fn` with a file source and always closes it. */
export async function withFileSource<T>(path: string, fn: (src: ByteSource) => Promise<T>, roots?: FileRoots): Promise<T> {
  const src = await fileSource(path, roots);
  try {
    return await fn(src);
  } finally {
    await src.close();
  }
}
