// Where a calibration array's bytes come from: a .npy file (positional reads, so a multi-GB file
// can be sampled anywhere) or one `.npy` member of a .npz (numpy's np.savez/np.savez_compressed
// write a zip with one member per array, `arr_0.npy` …; read with yauzl). A stored member is read
// in place like a .npy; a deflated one can only be streamed from its start.
import { FileRoots } from '../common/confined';
import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import * as yauzl from 'yauzl';
import { NPY_PREFIX_BYTES } from '../common/npyFormat';

/** Bytes of one array (.npy content). */
export interface ArrayBytes {
  /** How to say where it came from: `calib.npy`, `calib.npz:images.npy`. */
  label: string;
  size: number;
  /** Positional reads are possible (a .npy file or a stored .npz member). */
  randomAccess: boolean;
  /** Reads `length` bytes at `position` (random access only); fewer only at the end. */
  read(position: number, length: number, into: Uint8Array): Promise<number>;
  /** Streams from the start (a deflated .npz member). */
  stream(): Promise<AsyncIterable<Uint8Array>>;
}

export interface NpzMember {
  name: string;
  size: number;
  compressed: boolean;
}

export interface OpenedSource {
  kind: 'npy' | 'npz';
  array: ArrayBytes;
  /** The .npz's array members (name without `.npy`), in archive order. */
  members?: NpzMember[];
  /** Which member was taken and why, for a finding. */
  memberChoice?: string;
  close(): Promise<void>;
}

export class SourceError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SourceError';
  }
}

/** A zip may list this many entries at most (numpy writes one per array). */
const MAX_NPZ_ENTRIES = 4096;

async function openRegular(path: string): Promise<{ handle: FileHandle; size: number }> {
  const roots = FileRoots.named(path);
  let st;
  try {
    st = roots.stat(path);
  } catch (err) {
    throw new SourceError((err as Error).message);
  }
  if (!st) throw new SourceError('no such file');
  if (!st.isFile()) throw new SourceError(st.isDirectory() ? 'a folder, not a file' : 'not a regular file');
  try {
    const { handle, size } = await roots.open(path);
    return { handle, size };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new SourceError(e.code === 'EACCES' || e.code === 'EPERM' ? 'permission denied' : (err as Error).message);
  }
}

function fileBytes(handle: FileHandle, label: string, offset: number, size: number): ArrayBytes {
  return {
    label,
    size,
    randomAccess: true,
    async read(position, length, into) {
      const want = Math.max(0, Math.min(length, size - position));
      let got = 0;
      while (got < want) {
        const { bytesRead } = await handle.read(into, got, Math.min(want - got, 64 << 20), offset + position + got);
        if (bytesRead === 0) break;
        got += bytesRead;
      }
      return got;
    },
    async stream() {
      const self = this;
      return (async function* () {
        const buf = new Uint8Array(new ArrayBuffer(4 << 20));
        for (let p = 0; p < size;) {
          const n = await self.read(p, buf.length, buf);
          if (n === 0) return;
          yield buf.subarray(0, n);
          p += n;
        }
      })();
    },
  };
}

/** Names the member to inspect: `preferred` (e.g. the model's input name), the only one, or the largest. */
function chooseMember(entries: yauzl.Entry[], preferred?: string[]): { entry: yauzl.Entry; why?: string } {
  if (entries.length === 1) return { entry: entries[0] };
  const base = (e: yauzl.Entry) => e.fileName.replace(/\.npy$/, '');
  for (const p of preferred ?? []) {
    const hit = entries.find((e) => base(e) === p || base(e).endsWith(`/${p}`));
    if (hit) return { entry: hit, why: `'${base(hit)}' (named like the model's input)` };
  }
  const largest = entries.reduce((a, b) => (b.uncompressedSize > a.uncompressedSize ? b : a));
  return { entry: largest, why: `'${base(largest)}' (the largest)` };
}

export async function openCalibrationSource(path: string, options: { preferMembers?: string[] } = {}): Promise<OpenedSource> {
  const { handle, size } = await openRegular(path);
  const name = path.split(/[\\/]/).pop() ?? path;
  let closed = false;
  const closeHandle = async () => {
    if (!closed) {
      closed = true;
      await handle.close();
    }
  };
  try {
    const head = new Uint8Array(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    const isZip = bytesRead === 4 && head[0] === 0x50 && head[1] === 0x4b && (head[2] === 3 || head[2] === 5) && (head[3] === 4 || head[3] === 6);
    if (!isZip) return { kind: 'npy', array: fileBytes(handle, name, 0, size), close: closeHandle };
    // .npz: yauzl reads the central directory through its own descriptor.
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(path, { autoClose: false, validateEntrySizes: true, strictFileNames: false });
    } catch (err) {
      throw new SourceError(`not a readable .npz (zip): ${(err as Error).message}`);
    }
    const entries: yauzl.Entry[] = [];
    try {
      let seen = 0;
      for await (const e of zip.eachEntry()) {
        if (++seen > MAX_NPZ_ENTRIES) throw new SourceError(`the .npz lists more than ${MAX_NPZ_ENTRIES} members; numpy writes one per array`);
        if (e.fileName.endsWith('.npy') && !e.fileName.endsWith('/')) entries.push(e);
      }
    } catch (err) {
      zip.close();
      throw err instanceof SourceError ? err : new SourceError(`not a readable .npz (zip): ${(err as Error).message}`);
    }
    if (!entries.length) {
      zip.close();
      throw new SourceError('the .npz holds no .npy member');
    }
    const { entry, why } = chooseMember(entries, options.preferMembers);
    const members = entries.map((e) => ({ name: e.fileName.replace(/\.npy$/, ''), size: e.uncompressedSize, compressed: e.compressionMethod !== 0 }));
    const label = `${name}:${entry.fileName}`;
    const close = async () => {
      zip.close();
      await closeHandle();
    };
    if (entry.isEncrypted()) {
      await close();
      throw new SourceError(`the .npz member ${entry.fileName} is encrypted`);
    }
    if (entry.compressionMethod === 0) {
      const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true });
      if (fileDataStart + entry.uncompressedSize > size) {
        await close();
        throw new SourceError(
          `truncated: the .npz member ${entry.fileName} ends ${(fileDataStart + entry.uncompressedSize - size).toLocaleString('en-US')} bytes past the end of the file`,
        );
      }
      return { kind: 'npz', array: fileBytes(handle, label, fileDataStart, entry.uncompressedSize), members, memberChoice: why, close };
    }
    if (!entry.canDecodeFileData()) {
      await close();
      throw new SourceError(`the .npz member ${entry.fileName} uses compression method ${entry.compressionMethod}, which neither numpy nor this reader writes`);
    }
    const array: ArrayBytes = {
      label,
      size: entry.uncompressedSize,
      randomAccess: false,
      read() {
        return Promise.reject(new Error('a compressed .npz member has no random access'));
      },
      async stream() {
        const s: Readable = await zip.openReadStreamPromise(entry);
        return s as AsyncIterable<Uint8Array>;
      },
    };
    return { kind: 'npz', array, members, memberChoice: why, close };
  } catch (err) {
    await closeHandle();
    throw err;
  }
}

/** The first bytes of an array (its header), whichever way it is read. */
export async function readPrefix(array: ArrayBytes): Promise<Uint8Array> {
  const want = Math.min(array.size, NPY_PREFIX_BYTES);
  const buf = new Uint8Array(new ArrayBuffer(want));
  if (array.randomAccess) {
    const n = await array.read(0, want, buf);
    return buf.subarray(0, n);
  }
  let got = 0;
  const it = await array.stream();
  for await (const chunk of it) {
    const take = Math.min(chunk.length, want - got);
    buf.set(chunk.subarray(0, take), got);
    got += take;
    if (got >= want) break;
  }
  return buf.subarray(0, got);
}
