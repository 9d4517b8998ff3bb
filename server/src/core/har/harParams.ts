// The numeric members of a HAR (`<net>.npz` weights, `<net>.fpo.npz` / `<net>.q.npz` of optimized
// and quantized archives, any other `.npz`), read without loading them: the tar headers are walked
// by position to find each member's bytes, and yauzl reads each npz's central directory through a
// window onto those bytes. Per array we keep its key, dtype and shape; small arrays (bits, scales,
// zero points, statistics, SNR figures) also keep their values. Keys are `<scope>/<layer>/<param>:0`
// (docs/research/hn-har-format.md#har-container; netron reads `kernel, bias, *_activation_bits, weight_bits,
// bias_decomposition` from them), so each array lands on its HN layer.
import { FileRoots } from '../common/confined';
import { Readable } from 'node:stream';
import type { FileHandle } from 'node:fs/promises';
import * as yauzl from 'yauzl';
import { readInto } from '../common/fileAccess';
import { limit, limitMessage } from '../common/limits';
import { NpyFormatError, parseNpyHeader } from '../common/npyFormat';
import { readNpy } from '../common/npy';

export interface TarMember {
  name: string;
  /** Byte offset of the member's data in the file. */
  offset: number;
  size: number;
}

export interface HarParamArray {
  /** The npz member it came from. */
  member: string;
  /** Scoped layer name (`net/conv1`), or '' for archive-level arrays such as `params_kind`. */
  layer: string;
  /** The rest of the key without `:0`, e.g. `kernel`, `stats/output_0/stats_limvals`. */
  key: string;
  dtype: string;
  shape: number[];
  /** Values of arrays of at most SMALL_ARRAY elements. */
  values?: number[];
}

export interface HarParams {
  /** The npz members read, with their array counts. */
  members: { name: string; arrays: number }[];
  arrays: HarParamArray[];
  /** One sentence per thing that could not be read (never fatal: the layers still show). */
  notes: string[];
}

/** Arrays up to this many elements keep their values (scalars, per-output ranges, SNR lists). */
export const SMALL_ARRAY = 64;
const NPY_HEADER_BYTES = 4096;

/** Walks an uncompressed tar's headers by position (ustar, pax `x`/`g`, GNU `L`). */
export async function tarMembers(handle: FileHandle, fileSize: number): Promise<TarMember[]> {
  const out: TarMember[] = [];
  const block = new Uint8Array(512);
  let pos = 0;
  let paxName: string | undefined;
  let paxSize: number | undefined;
  let longName: string | undefined;
  const maxEntries = limit('harParamEntries');
  while (pos + 512 <= fileSize) {
    if ((await readInto(handle, block, 0, 512, pos)) < 512) break;
    if (block.every((b) => b === 0)) break;
    const name0 = cstr(block, 0, 100);
    const prefix = cstr(block, 345, 155);
    const type = String.fromCharCode(block[156] || 0x30);
    const size = paxSize ?? octal(block, 124, 12);
    const data = pos + 512;
    if (!Number.isFinite(size) || size < 0 || data + size > fileSize) break; // truncated: what was found stays
    if (type === 'x' || type === 'g' || type === 'L') {
      const body = new Uint8Array(Math.min(size, 1 << 20));
      await readInto(handle, body, 0, body.length, data);
      const text = Buffer.from(body).toString('utf8');
      if (type === 'L') longName = text.replace(/\0.*$/s, '');
      else if (type === 'x') ({ path: paxName, size: paxSize } = pax(text));
    } else {
      if (type === '0' || type === '7' || type === '\0') {
        out.push({ name: longName ?? paxName ?? (prefix ? `${prefix}/${name0}` : name0), offset: data, size });
        if (out.length > maxEntries) break;
      }
      paxName = paxSize = longName = undefined;
    }
    pos = data + Math.ceil(size / 512) * 512;
  }
  return out;
}

function cstr(b: Uint8Array, at: number, len: number): string {
  let end = at;
  while (end < at + len && b[end] !== 0) end++;
  return Buffer.from(b.subarray(at, end)).toString('utf8');
}

function octal(b: Uint8Array, at: number, len: number): number {
  if (b[at] & 0x80) {
    // base-256 (GNU) for members of 8 GiB and more
    let v = 0;
    for (let i = at + 1; i < at + len; i++) v = v * 256 + b[i];
    return v;
  }
  const s = cstr(b, at, len).trim();
  return s ? parseInt(s, 8) : 0;
}

function pax(text: string): { path?: string; size?: number } {
  const r: { path?: string; size?: number } = {};
  for (const line of text.split('\n')) {
    const m = /^\d+ ([^=]+)=(.*)$/s.exec(line);
    if (!m) continue;
    if (m[1] === 'path') r.path = m[2];
    else if (m[1] === 'size' && /^\d+$/.test(m[2])) r.size = Number(m[2]);
  }
  return r;
}

/**
 * A window [base, base+size) of an open file, as yauzl's random-access reader. yauzl reads the
 * central directory a record at a time (three small reads per entry); a 1 MiB cache serves those,
 * longer ranges stream in 64 KiB pieces.
 */
class WindowReader extends yauzl.RandomAccessReader {
  private cacheStart = 0;
  private cache = Buffer.alloc(0);
  constructor(
    private readonly handle: FileHandle,
    private readonly base: number,
    private readonly size: number,
  ) {
    super();
  }
  override _readStreamForRange(start: number, end: number): Readable {
    const { handle, base } = this;
    if (end - start <= 65536) {
      const hit = start >= this.cacheStart && end <= this.cacheStart + this.cache.length;
      const fill = hit
        ? Promise.resolve()
        : (async () => {
            const n = Math.min(1 << 20, this.size - start);
            const buf = Buffer.allocUnsafe(Math.max(0, n));
            const got = await readInto(handle, buf, 0, buf.length, base + start);
            this.cacheStart = start;
            this.cache = buf.subarray(0, got);
          })();
      let done = false;
      const r: Readable = new Readable({
        read: () => {
          if (done) return;
          done = true;
          fill.then(
            () => {
              const from = start - this.cacheStart;
              r.push(this.cache.subarray(from, Math.min(from + (end - start), this.cache.length)));
              r.push(null);
            },
            (err: Error) => r.destroy(err),
          );
        },
      });
      return r;
    }
    let at = start;
    // 64 KiB at a time: a stream over a 100 MB kernel must not allocate 100 MB.
    return new Readable({
      read() {
        if (at >= end) {
          this.push(null);
          return;
        }
        const n = Math.min(65536, end - at);
        const buf = Buffer.allocUnsafe(n);
        readInto(handle, buf, 0, n, base + at).then(
          (got) => {
            at += n;
            if (got < n) {
              this.push(buf.subarray(0, got));
              this.push(null);
              at = end;
            } else this.push(buf);
          },
          (err: Error) => this.destroy(err),
        );
      },
    });
  }
}

async function readStream(zip: yauzl.ZipFile, entry: yauzl.Entry, max: number): Promise<Buffer> {
  // A stored member (np.savez) is read only as far as needed; a deflated one inflates lazily.
  const s = await zip.openReadStreamPromise(entry, entry.compressionMethod === 0 ? { start: 0, end: Math.min(max, entry.uncompressedSize) } : undefined);
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const c of s as AsyncIterable<Buffer>) {
    chunks.push(c);
    got += c.length;
    if (got >= max) break;
  }
  s.destroy();
  return Buffer.concat(chunks).subarray(0, max);
}

/**
 * Positional reads inside one npz member through a 64 KiB window: a quantized HAR has thousands of
 * small arrays next to each other, and one read each cost ~150 µs on a loaded machine (a stream
 * each, ~1 ms). Kernels in between are skipped, never read.
 */
class MemberWindow {
  private start = 0;
  private buf = Buffer.alloc(0);
  constructor(
    private readonly handle: FileHandle,
    private readonly member: TarMember,
  ) {}
  async get(at: number, len: number): Promise<Buffer> {
    if (at >= this.start && at + len <= this.start + this.buf.length) return this.buf.subarray(at - this.start, at - this.start + len);
    const size = Math.min(Math.max(len, 65536), this.member.size - at);
    if (size < len) throw new Error('the entry runs past the end of the npz member');
    const buf = Buffer.allocUnsafe(size);
    const got = await readInto(this.handle, buf, 0, size, this.member.offset + at);
    if (got < len) throw new Error('the archive is cut short');
    this.start = at;
    this.buf = buf.subarray(0, got);
    return this.buf.subarray(0, len);
  }
}

/** The first `want` bytes of a stored (np.savez) entry: its local header (30 bytes + name + extra), then the data. */
async function storedPrefix(w: MemberWindow, e: yauzl.Entry, want: number): Promise<Buffer> {
  const local = await w.get(e.relativeOffsetOfLocalHeader, 30);
  if (local.readUInt32LE(0) !== 0x04034b50) throw new Error(`no local header for ${e.fileName}`);
  const start = e.relativeOffsetOfLocalHeader + 30 + local.readUInt16LE(26) + local.readUInt16LE(28);
  return Buffer.from(await w.get(start, want));
}

/** Splits an npz key into (layer, key) by the HN's scopes: `net/conv1/kernel:0.npy` → (`net/conv1`, `kernel`). */
export function splitParamKey(fileName: string, scopes: readonly string[]): { layer: string; key: string } {
  const k = fileName.replace(/\.npy$/, '').replace(/:\d+$/, '');
  for (const s of scopes) {
    if (k.startsWith(`${s}/`)) {
      const rest = k.slice(s.length + 1);
      const slash = rest.indexOf('/');
      if (slash > 0) return { layer: `${s}/${rest.slice(0, slash)}`, key: rest.slice(slash + 1).replace(/:\d+$/, '') };
    }
  }
  return { layer: '', key: k };
}

/**
 * The arrays of every `.npz` member of the HAR at `path`. A gzip-compressed archive has no random
 * access: its arrays are not read (one note). Bounded by LIMITS.harParamEntries arrays and
 * LIMITS.harParamValueBytes of small-array bytes in total.
 */
export async function readHarParams(path: string, scopes: readonly string[]): Promise<HarParams> {
  const result: HarParams = { members: [], arrays: [], notes: [] };
  let opened;
  try {
    opened = await FileRoots.named(path).open(path);
  } catch (err) {
    result.notes.push((err as Error).message);
    return result;
  }
  const { handle, size } = opened;
  try {
    const magic = new Uint8Array(2);
    if ((await readInto(handle, magic, 0, 2, 0)) === 2 && magic[0] === 0x1f && magic[1] === 0x8b) {
      result.notes.push('The archive is gzip-compressed: its parameter arrays are not read (the DFC writes plain tar; un-gzip it to see them).');
      return result;
    }
    const members = (await tarMembers(handle, size)).filter((m) => m.name.endsWith('.npz'));
    let entries = 0;
    let valueBytes = 0;
    const maxEntries = limit('harParamEntries');
    const maxValueBytes = limit('harParamValueBytes');
    for (const m of members) {
      let zip: yauzl.ZipFile;
      try {
        zip = await yauzl.fromRandomAccessReaderPromise(new WindowReader(handle, m.offset, m.size), m.size, {
          autoClose: false,
          lazyEntries: true,
          validateEntrySizes: true,
          strictFileNames: false,
        });
      } catch (err) {
        result.notes.push(`${m.name} is not a readable .npz: ${(err as Error).message}`);
        continue;
      }
      let count = 0;
      const window = new MemberWindow(handle, m);
      try {
        for await (const e of zip.eachEntry()) {
          if (!e.fileName.endsWith('.npy')) continue;
          if (++entries > maxEntries) {
            result.notes.push(limitMessage('harParamEntries', `${path}: the .npz members`, entries));
            break;
          }
          const { layer, key } = splitParamKey(e.fileName, scopes);
          const arr: HarParamArray = { member: m.name, layer, key, dtype: '?', shape: [] };
          try {
            if (e.isEncrypted() || !e.canDecodeFileData()) throw new Error(`compression method ${e.compressionMethod}`);
            const want = Math.min(e.uncompressedSize, NPY_HEADER_BYTES);
            const head = e.compressionMethod === 0 ? await storedPrefix(window, e, want) : await readStream(zip, e, want);
            const h = parseNpyHeader(head);
            arr.dtype = h.dtype.name;
            arr.shape = h.shape;
            if (h.count <= SMALL_ARRAY && valueBytes + e.uncompressedSize <= maxValueBytes) {
              const whole =
                h.dataOffset + h.dataBytes <= head.length
                  ? head
                  : e.compressionMethod === 0
                    ? await storedPrefix(window, e, e.uncompressedSize)
                    : await readStream(zip, e, e.uncompressedSize);
              valueBytes += e.uncompressedSize;
              arr.values = Array.from(readNpy(whole).data);
            }
          } catch (err) {
            arr.dtype = `unreadable (${err instanceof NpyFormatError ? err.message : (err as Error).message})`;
          }
          result.arrays.push(arr);
          count++;
        }
      } catch (err) {
        result.notes.push(`${m.name}: ${(err as Error).message}`);
      } finally {
        zip.close();
      }
      result.members.push({ name: m.name, arrays: count });
      if (entries > maxEntries) break;
    }
  } finally {
    await handle.close();
  }
  return result;
}
