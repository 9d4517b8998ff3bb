// Protobuf wire-format walker over a ByteSource with absolute positions. It never materialises a
// length-delimited field it is told to skip, which is how weights stay on disk.
import type { ByteSource } from './source';

export type ReadErrorKind = 'truncated' | 'corrupt' | 'not-onnx' | 'io' | 'limit';

export class OnnxReadError extends Error {
  constructor(
    readonly kind: ReadErrorKind,
    message: string,
    readonly offset?: number,
  ) {
    super(message);
    this.name = 'OnnxReadError';
  }
}

export const WT_VARINT = 0;
export const WT_I64 = 1;
export const WT_LEN = 2;
export const WT_I32 = 5;

export interface Field {
  no: number;
  wt: number;
  /** Absolute position of the value (after tag, and after the length for WT_LEN). */
  pos: number;
  /** Length of a WT_LEN value; 8/4 for fixed; bytes of the varint for WT_VARINT. */
  len: number;
  /** Decoded varint (signed int64 semantics, as a JS number; exact below 2^53). */
  value: number;
}

const TWO32 = 4294967296;

export class Wire {
  constructor(readonly src: ByteSource) {}

  /** Reads a varint at pos; returns [value, nextPos]. Values are two's-complement int64. */
  varint(pos: number, limit: number): [number, number] {
    const avail = Math.max(0, Math.min(10, limit - pos, this.src.size - pos));
    const off = this.src.ensure(pos, avail);
    const b = this.src.buf;
    let lo = 0;
    let hi = 0;
    let i = 0;
    for (; i < avail; i++) {
      const byte = b[off + i];
      if (i < 4) lo |= (byte & 0x7f) << (7 * i);
      else if (i === 4) {
        lo |= (byte & 0x0f) << 28;
        hi |= (byte & 0x7f) >> 4;
      } else hi |= (byte & 0x7f) << (7 * i - 32);
      if ((byte & 0x80) === 0) {
        const value = (hi | 0) * TWO32 + (lo >>> 0);
        return [value, pos + i + 1];
      }
    }
    if (avail < 10 && pos + avail >= this.src.size) {
      throw new OnnxReadError('truncated', `file ends inside a varint at offset ${pos}`, pos);
    }
    throw new OnnxReadError('corrupt', `malformed varint at offset ${pos}`, pos);
  }

  /** Iterates the fields of the message occupying [start, end). */
  *fields(start: number, end: number, what: string): Generator<Field> {
    let pos = start;
    while (pos < end) {
      const [tag, p1] = this.varint(pos, end);
      const no = Math.floor(tag / 8);
      const wt = tag & 7;
      if (no <= 0 || tag < 0) throw new OnnxReadError('corrupt', `invalid field tag ${tag} in ${what} at offset ${pos}`, pos);
      let f: Field;
      switch (wt) {
        case WT_VARINT: {
          const [value, p2] = this.varint(p1, end);
          f = { no, wt, pos: p1, len: p2 - p1, value };
          pos = p2;
          break;
        }
        case WT_I64:
          f = { no, wt, pos: p1, len: 8, value: 0 };
          pos = p1 + 8;
          break;
        case WT_I32:
          f = { no, wt, pos: p1, len: 4, value: 0 };
          pos = p1 + 4;
          break;
        case WT_LEN: {
          const [len, p2] = this.varint(p1, end);
          if (len < 0) throw new OnnxReadError('corrupt', `negative length in ${what} at offset ${p1}`, p1);
          f = { no, wt, pos: p2, len, value: len };
          pos = p2 + len;
          break;
        }
        default:
          throw new OnnxReadError('corrupt', `unsupported wire type ${wt} (field ${no}) in ${what} at offset ${pos}`, pos);
      }
      if (pos > end) {
        const kind = pos > this.src.size ? 'truncated' : 'corrupt';
        const msg =
          kind === 'truncated'
            ? `file is truncated: field ${no} of ${what} at offset ${f.pos} needs ${pos - f.pos} bytes, the file ends at ${this.src.size}`
            : `field ${no} of ${what} at offset ${f.pos} overruns its message (ends at ${end})`;
        throw new OnnxReadError(kind, msg, f.pos);
      }
      yield f;
    }
  }

  string(f: Field, maxLen = 1 << 20): string {
    if (f.wt !== WT_LEN) throw new OnnxReadError('corrupt', `field ${f.no} at offset ${f.pos} should be a string`, f.pos);
    const len = Math.min(f.len, maxLen);
    if (len <= 4096) {
      const off = this.src.ensure(f.pos, len);
      return this.src.buf.toString('utf8', off, off + len);
    }
    const b = this.src.read(f.pos, len);
    return Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
  }

  bytes(pos: number, len: number): Uint8Array {
    return Uint8Array.from(this.src.read(pos, len));
  }

  float32(pos: number): number {
    const b = this.src.read(pos, 4);
    return new DataView(b.buffer, b.byteOffset, 4).getFloat32(0, true);
  }

  /**
   * The varint at `pos` as an exact signed int64 (for messages about values a double cannot hold).
   */
  bigVarint(pos: number): bigint {
    const avail = Math.max(0, Math.min(10, this.src.size - pos));
    const b = this.src.read(pos, avail);
    let v = 0n;
    for (let i = 0; i < b.length; i++) {
      v |= BigInt(b[i] & 0x7f) << BigInt(7 * i);
      if ((b[i] & 0x80) === 0) break;
    }
    v &= (1n << 64n) - 1n;
    return v >= 1n << 63n ? v - (1n << 64n) : v;
  }

  /**
   * Repeated int64 (packed or not): appends to out. `max`: elements out may hold at most (a packed
   * field of 100 MB would otherwise become 10⁸ numbers); beyond it, `onMax` throws.
   */
  int64s(f: Field, out: number[], max = Infinity, onMax?: () => never): void {
    if (f.wt === WT_VARINT) {
      out.push(f.value);
      return;
    }
    if (f.wt !== WT_LEN) throw new OnnxReadError('corrupt', `bad repeated int at offset ${f.pos}`, f.pos);
    let p = f.pos;
    const end = f.pos + f.len;
    while (p < end) {
      const [v, n] = this.varint(p, end);
      if (out.length >= max) onMax?.();
      out.push(v);
      p = n;
    }
  }

  /** Repeated float (packed or not): appends to out (at most `max` elements, see int64s). */
  floats(f: Field, out: number[], max = Infinity, onMax?: () => never): void {
    if (f.wt === WT_I32) {
      out.push(this.float32(f.pos));
      return;
    }
    if (f.wt !== WT_LEN) throw new OnnxReadError('corrupt', `bad repeated float at offset ${f.pos}`, f.pos);
    if (out.length + f.len / 4 > max) onMax?.();
    const b = this.src.read(f.pos, f.len);
    const dv = new DataView(b.buffer, b.byteOffset, b.length);
    for (let i = 0; i + 4 <= b.length; i += 4) out.push(dv.getFloat32(i, true));
  }
}
