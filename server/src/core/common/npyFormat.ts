// NumPy's .npy header (numpy/lib/format.py, versions 1.0–3.0): magic `\x93NUMPY`, major/minor,
// a little-endian header length (u16 for 1.x, u32 for 2.x/3.x), then a Python dict literal
// `{'descr': '<f4', 'fortran_order': False, 'shape': (64, 224, 224, 3), }` padded with spaces to a
// multiple of 64 and ended by '\n'. The body follows, row-major unless fortran_order.
//
// Why not npyjs (the npm reader): it parses one ArrayBuffer holding the whole file — a 4 GB
// calibration set cannot be held at all, and we only need to stream it — it reads big-endian data
// in host order, builds typed-array views that throw on unaligned offsets, and never checks that
// the body is as long as the header says. The header is 60 lines; the body is streamed by
// calib/source.ts. Pure; the one .npy reader of the project (common/npy.ts builds on it).

export type NpyKind = 'b' | 'i' | 'u' | 'f';

export interface NpyDtype {
  /** As written in the header, e.g. `<f4`, `|u1`, `>i2`. */
  descr: string;
  kind: NpyKind;
  /** Bytes per element. */
  size: number;
  littleEndian: boolean;
  /** numpy's name: float32, uint8, … */
  name: string;
}

export interface NpyHeader {
  version: string;
  dtype: NpyDtype;
  fortranOrder: boolean;
  shape: number[];
  /** Byte offset of the first element. */
  dataOffset: number;
  /** Elements (product of the shape). */
  count: number;
  /** Bytes the body must have. */
  dataBytes: number;
}

export class NpyFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NpyFormatError';
  }
}

/** numpy refuses longer headers unless told otherwise (`np.load(max_header_size=…)`, numpy ≥ 1.24). */
export const NPY_MAX_HEADER_BYTES = 10_000;
const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];

const NAMES: Record<string, string> = {
  b1: 'bool',
  i1: 'int8',
  u1: 'uint8',
  i2: 'int16',
  u2: 'uint16',
  i4: 'int32',
  u4: 'uint32',
  i8: 'int64',
  u8: 'uint64',
  f2: 'float16',
  f4: 'float32',
  f8: 'float64',
};

/** How many bytes `parseNpyHeader` needs to see at most (prefix + numpy's header limit). */
export const NPY_PREFIX_BYTES = 12 + NPY_MAX_HEADER_BYTES;

export function parseDtype(descr: string): NpyDtype {
  const m = /^([<>|=]?)([biuf])(\d+)$/.exec(descr);
  const key = m ? `${m[2]}${m[3]}` : '';
  if (!m || !NAMES[key]) {
    throw new NpyFormatError(`dtype '${descr}' is not a numeric array (a calibration set holds numbers: uint8, float32, …)`);
  }
  const size = Number(m[3]);
  // '|' = not applicable (1 byte), '=' = native: numpy writes '<' or '>' for multi-byte types.
  return { descr, kind: m[2] as NpyKind, size, littleEndian: m[1] !== '>', name: NAMES[key] };
}

/**
 * Parses the header from the first bytes of a file. `fileSize` (when known) lets it say how much
 * of the body is missing. Throws NpyFormatError with one sentence.
 */
export function parseNpyHeader(prefix: Uint8Array, fileSize?: number): NpyHeader {
  if (prefix.length < 10 || MAGIC.some((b, i) => prefix[i] !== b)) throw new NpyFormatError('not a .npy file: it does not start with the \\x93NUMPY magic');
  const major = prefix[6];
  const minor = prefix[7];
  if (major < 1 || major > 3) throw new NpyFormatError(`unsupported .npy format version ${major}.${minor} (numpy writes 1.0, 2.0 and 3.0)`);
  const view = new DataView(prefix.buffer, prefix.byteOffset, prefix.byteLength);
  if (major > 1 && prefix.length < 12) throw new NpyFormatError('the file ends inside the .npy header');
  const headerLen = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const start = major === 1 ? 10 : 12;
  if (headerLen > NPY_MAX_HEADER_BYTES) {
    throw new NpyFormatError(
      `the .npy header claims ${headerLen.toLocaleString('en-US')} bytes; numpy itself refuses headers over ${NPY_MAX_HEADER_BYTES.toLocaleString('en-US')} bytes (np.load's max_header_size), so this is not a calibration set the DFC could load`,
    );
  }
  if (start + headerLen > prefix.length)
    throw new NpyFormatError(`the file ends inside the .npy header (${headerLen} bytes announced, ${Math.max(0, prefix.length - start)} present)`);
  const text = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(prefix.subarray(start, start + headerLen));
  const dict = parseDict(text);
  const keys = Object.keys(dict).sort().join(',');
  if (keys !== 'descr,fortran_order,shape')
    throw new NpyFormatError(`the .npy header has keys {${Object.keys(dict).join(', ')}}; numpy requires exactly descr, fortran_order and shape`);
  if (typeof dict.descr !== 'string') throw new NpyFormatError('the .npy header describes a structured dtype (a list of fields), not a numeric array');
  if (typeof dict.fortran_order !== 'boolean') throw new NpyFormatError("the .npy header's fortran_order is not True or False");
  if (!Array.isArray(dict.shape) || dict.shape.some((d) => typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0)) {
    throw new NpyFormatError("the .npy header's shape is not a tuple of non-negative integers");
  }
  const dtype = parseDtype(dict.descr);
  const shape = dict.shape as number[];
  const count = shape.reduce((a, b) => a * b, 1);
  const dataBytes = count * dtype.size;
  if (!Number.isSafeInteger(dataBytes)) throw new NpyFormatError(`the .npy shape (${shape.join(', ')}) describes more bytes than any file can hold`);
  const dataOffset = start + headerLen;
  if (fileSize !== undefined && fileSize - dataOffset < dataBytes) {
    throw new NpyFormatError(
      `truncated: the header promises ${dataBytes.toLocaleString('en-US')} bytes of ${dtype.name} (shape (${shape.join(', ')})), the file has ${Math.max(0, fileSize - dataOffset).toLocaleString('en-US')}`,
    );
  }
  return { version: `${major}.${minor}`, dtype, fortranOrder: dict.fortran_order, shape, dataOffset, count, dataBytes };
}

type PyValue = string | number | boolean | null | PyValue[] | { [k: string]: PyValue };

/** A Python literal: dict, tuple/list, str, int, True/False/None — what numpy's header may hold. */
function parseDict(text: string): Record<string, PyValue> {
  let i = 0;
  const fail = (what: string): never => {
    throw new NpyFormatError(`unreadable .npy header (${what} at character ${i}): ${JSON.stringify(text.trim().slice(0, 120))}`);
  };
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const value = (depth: number): PyValue => {
    if (depth > 8) fail('nesting too deep');
    ws();
    const c = text[i];
    if (c === "'" || c === '"') {
      const end = text.indexOf(c, i + 1);
      if (end < 0) fail('unterminated string');
      const s = text.slice(i + 1, end);
      i = end + 1;
      return s;
    }
    if (c === '{') {
      i++;
      const out: Record<string, PyValue> = {};
      for (;;) {
        ws();
        if (text[i] === '}') {
          i++;
          return out;
        }
        const k = value(depth + 1);
        if (typeof k !== 'string') fail('a dict key that is not a string');
        ws();
        if (text[i] !== ':') fail("missing ':'");
        i++;
        out[k as string] = value(depth + 1);
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== '}') fail("missing ',' or '}'");
      }
    }
    if (c === '(' || c === '[') {
      const close = c === '(' ? ')' : ']';
      i++;
      const out: PyValue[] = [];
      for (;;) {
        ws();
        if (text[i] === close) {
          i++;
          return out;
        }
        out.push(value(depth + 1));
        ws();
        if (text[i] === ',') i++;
        else if (text[i] !== close) fail(`missing ',' or '${close}'`);
      }
    }
    const m = /^(True|False|None|-?\d+L?)/.exec(text.slice(i, i + 32));
    if (!m) return fail('an unexpected value');
    i += m[1].length;
    if (m[1] === 'True') return true;
    if (m[1] === 'False') return false;
    if (m[1] === 'None') return null;
    return Number(m[1].replace('L', ''));
  };
  const v = value(0);
  ws();
  if (i < text.length) fail('text after the dict');
  if (!v || typeof v !== 'object' || Array.isArray(v)) fail('not a dict');
  return v as Record<string, PyValue>;
}

/** IEEE 754 half → number. */
export function halfToNumber(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}

const HOST_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/**
 * Decodes `bytes` (a whole number of elements, starting at an element boundary) into `out`.
 * Returns the number of elements written. `bytes` must start at an 8-byte-aligned offset of its
 * ArrayBuffer for the fast typed-array path; otherwise a DataView is used.
 */
export function decodeElements(dtype: NpyDtype, bytes: Uint8Array, out: Float64Array): number {
  const n = Math.floor(bytes.length / dtype.size);
  const aligned = bytes.byteOffset % 8 === 0;
  const native = dtype.size === 1 || dtype.littleEndian === HOST_LITTLE;
  const key = `${dtype.kind}${dtype.size}`;
  if (aligned && native) {
    const b = bytes.buffer;
    const o = bytes.byteOffset;
    switch (key) {
      case 'u1':
        for (let i = 0; i < n; i++) out[i] = bytes[i];
        return n;
      case 'b1':
        for (let i = 0; i < n; i++) out[i] = bytes[i] ? 1 : 0;
        return n;
      case 'i1':
        copy(new Int8Array(b, o, n), out);
        return n;
      case 'u2':
        copy(new Uint16Array(b, o, n), out);
        return n;
      case 'i2':
        copy(new Int16Array(b, o, n), out);
        return n;
      case 'u4':
        copy(new Uint32Array(b, o, n), out);
        return n;
      case 'i4':
        copy(new Int32Array(b, o, n), out);
        return n;
      case 'f4':
        copy(new Float32Array(b, o, n), out);
        return n;
      case 'f8':
        copy(new Float64Array(b, o, n), out);
        return n;
      case 'f2': {
        const h = new Uint16Array(b, o, n);
        for (let i = 0; i < n; i++) out[i] = halfToNumber(h[i]);
        return n;
      }
      case 'i8': {
        const h = new BigInt64Array(b, o, n);
        for (let i = 0; i < n; i++) out[i] = Number(h[i]);
        return n;
      }
      case 'u8': {
        const h = new BigUint64Array(b, o, n);
        for (let i = 0; i < n; i++) out[i] = Number(h[i]);
        return n;
      }
    }
  }
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = dtype.littleEndian;
  for (let i = 0, p = 0; i < n; i++, p += dtype.size) {
    switch (key) {
      case 'u1':
        out[i] = v.getUint8(p);
        break;
      case 'b1':
        out[i] = v.getUint8(p) ? 1 : 0;
        break;
      case 'i1':
        out[i] = v.getInt8(p);
        break;
      case 'u2':
        out[i] = v.getUint16(p, le);
        break;
      case 'i2':
        out[i] = v.getInt16(p, le);
        break;
      case 'u4':
        out[i] = v.getUint32(p, le);
        break;
      case 'i4':
        out[i] = v.getInt32(p, le);
        break;
      case 'f2':
        out[i] = halfToNumber(v.getUint16(p, le));
        break;
      case 'f4':
        out[i] = v.getFloat32(p, le);
        break;
      case 'f8':
        out[i] = v.getFloat64(p, le);
        break;
      case 'i8':
        out[i] = Number(v.getBigInt64(p, le));
        break;
      case 'u8':
        out[i] = Number(v.getBigUint64(p, le));
        break;
    }
  }
  return n;
}

function copy(src: ArrayLike<number>, out: Float64Array): void {
  for (let i = 0; i < src.length; i++) out[i] = src[i];
}
