// Protobuf wire-format walker over a ByteSource with absolute positions. It never materialises a
// length-delimited field it is told to skip, which is how weights stay on disk.

/** What the walker reads: source.ts's file and buffer sources implement it (declared here, where it is read, so source.ts → wire.ts only). */
export interface ByteSource {
  readonly size: number;
  /**
   * Bytes [pos, pos + len), clipped at the end of the source. The view may alias an internal
   * window and is valid only until the next call: copy what you keep.
   */
  read(pos: number, len: number): Uint8Array;
  /** Total bytes fetched from the underlying storage so far (for the "reads little" claim). */
  readonly bytesRead: number;
  /**
   * Makes bytes [pos, pos + len) (clipped at the end, len ≤ the window) addressable in `buf`
   * without allocating; returns their offset in `buf`. For the walker's hot path (varints).
   */
  ensure(pos: number, len: number): number;
  /** The buffer `ensure` offsets point into (changes only through ensure/read). */
  readonly buf: Buffer;
  close(): void;
}

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

  /** Position after the varint the last varintAt read. */
  after = 0;

  /** Reads a varint at pos; returns [value, nextPos]. Values are two's-complement int64. */
  varint(pos: number, limit: number): [number, number] {
    const value = this.varintAt(pos, limit);
    return [value, this.after];
  }

  /** The varint at pos (two's-complement int64); its end goes to `after`. Allocates nothing (the walker's hot path). */
  varintAt(pos: number, limit: number): number {
    const avail = Math.max(0, Math.min(10, limit - pos, this.src.size - pos));
    const b = this.src.buf;
    const off = this.src.ensure(pos, avail);
    // One byte (field tags, small lengths and values): most varints of a model.
    if (avail > 0 && b[off] < 0x80) {
      this.after = pos + 1;
      return b[off];
    }
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
        this.after = pos + i + 1;
        return (hi | 0) * TWO32 + (lo >>> 0);
      }
    }
    if (avail < 10 && pos + avail >= this.src.size) {
      throw new OnnxReadError('truncated', `file ends inside a varint at offset ${pos}`, pos);
    }
    throw new OnnxReadError('corrupt', `malformed varint at offset ${pos}`, pos);
  }

  /**
   * The fields of the message occupying [start, end), one at a time:
   * `for (const f = w.cursor(start, end, 'NodeProto'); f.next(); ) …`. The cursor is the field
   * (its properties change with each next()): one object per message, not one per field, and no
   * generator — the walk of a model is mostly this loop.
   */
  cursor(start: number, end: number, what: string): FieldCursor {
    return new FieldCursor(this, start, end, what);
  }

  /** Iterates the fields of the message occupying [start, end) (each a fresh object; see cursor). */
  *fields(start: number, end: number, what: string): Generator<Field> {
    for (const f = this.cursor(start, end, what); f.next();) yield { no: f.no, wt: f.wt, pos: f.pos, len: f.len, value: f.value };
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

  /** A copy of [pos, pos + len) (the source's view is only valid until its next read). */
  bytes(pos: number, len: number): Uint8Array {
    return new Uint8Array(this.src.read(pos, len)); // a native copy (Uint8Array.from iterates)
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
      const v = this.varintAt(p, end);
      if (out.length >= max) onMax?.();
      out.push(v);
      p = this.after;
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

/** A message's fields in order (Wire.cursor). */
export class FieldCursor implements Field {
  no = 0;
  wt = 0;
  pos = 0;
  len = 0;
  value = 0;
  private at: number;

  constructor(
    private readonly w: Wire,
    start: number,
    private readonly end: number,
    private readonly what: string,
  ) {
    this.at = start;
  }

  /** Moves to the next field; false at the end of the message. Throws OnnxReadError on bad bytes. */
  next(): boolean {
    const w = this.w;
    const end = this.end;
    const at = this.at;
    if (at >= end) return false;
    const tag = w.varintAt(at, end);
    const p1 = w.after;
    const no = Math.floor(tag / 8);
    const wt = tag & 7;
    if (no <= 0 || tag < 0) throw new OnnxReadError('corrupt', `invalid field tag ${tag} in ${this.what} at offset ${at}`, at);
    let next: number;
    switch (wt) {
      case WT_VARINT:
        this.value = w.varintAt(p1, end);
        this.pos = p1;
        this.len = w.after - p1;
        next = w.after;
        break;
      case WT_I64:
        this.value = 0;
        this.pos = p1;
        this.len = 8;
        next = p1 + 8;
        break;
      case WT_I32:
        this.value = 0;
        this.pos = p1;
        this.len = 4;
        next = p1 + 4;
        break;
      case WT_LEN: {
        const len = w.varintAt(p1, end);
        if (len < 0) throw new OnnxReadError('corrupt', `negative length in ${this.what} at offset ${p1}`, p1);
        this.value = len;
        this.pos = w.after;
        this.len = len;
        next = w.after + len;
        break;
      }
      default:
        throw new OnnxReadError('corrupt', `unsupported wire type ${wt} (field ${no}) in ${this.what} at offset ${at}`, at);
    }
    this.no = no;
    this.wt = wt;
    if (next > end) {
      const kind = next > w.src.size ? 'truncated' : 'corrupt';
      const msg =
        kind === 'truncated'
          ? `file is truncated: field ${no} of ${this.what} at offset ${this.pos} needs ${next - this.pos} bytes, the file ends at ${w.src.size}`
          : `field ${no} of ${this.what} at offset ${this.pos} overruns its message (ends at ${end})`;
      throw new OnnxReadError(kind, msg, this.pos);
    }
    this.at = next;
    return true;
  }
}
