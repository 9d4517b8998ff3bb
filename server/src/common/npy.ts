// A small reader for NumPy's .npy format (versions 1.0-3.0; the format is specified in numpy's
// `numpy/lib/format.py` docs): magic `\x93NUMPY`, version, header length, a Python-literal dict
// {'descr', 'fortran_order', 'shape'}, then the raw data. Little- and big-endian numeric dtypes;
// C order only (Fortran order is refused with a sentence). Pure: shared by the device runner
// (`hailo-tools run --input FILE.npy`) and the calibration-set inspector.

export type NpyDtype = 'u1' | 'i1' | 'u2' | 'i2' | 'u4' | 'i4' | 'f2' | 'f4' | 'f8' | 'i8' | 'u8' | 'b1';

export interface NpyArray {
  dtype: NpyDtype;
  shape: number[];
  /** Values as numbers, in C order (int64/uint64 beyond 2^53 lose precision). */
  data: Float64Array;
  /** The raw little-endian bytes when the file's dtype is u1 (no copy needed for uint8 frames). */
  bytes?: Uint8Array;
}

export class NpyError extends Error {}

const MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59]; // \x93NUMPY

export function parseNpyHeader(buf: Uint8Array): { descr: string; fortran: boolean; shape: number[]; dataOffset: number } {
  if (buf.length < 10 || MAGIC.some((b, i) => buf[i] !== b)) throw new NpyError('not a .npy file (no \\x93NUMPY magic)');
  const major = buf[6];
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let headerLen: number;
  let start: number;
  if (major === 1) {
    headerLen = view.getUint16(8, true);
    start = 10;
  } else if (major === 2 || major === 3) {
    if (buf.length < 12) throw new NpyError('truncated .npy header');
    headerLen = view.getUint32(8, true);
    start = 12;
  } else throw new NpyError(`unsupported .npy version ${major}.${buf[7]}`);
  if (start + headerLen > buf.length) throw new NpyError('truncated .npy header');
  const header = new TextDecoder(major === 3 ? 'utf-8' : 'latin1').decode(buf.subarray(start, start + headerLen));
  const descr = /'descr'\s*:\s*'([^']*)'/.exec(header)?.[1];
  const fortran = /'fortran_order'\s*:\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape'\s*:\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || fortran === undefined || shapeText === undefined) throw new NpyError(`unreadable .npy header: ${header.trim().slice(0, 120)}`);
  const shape = shapeText
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0)
    .map((s) => {
      if (!/^\d+L?$/.test(s)) throw new NpyError(`bad dimension '${s}' in the .npy shape`);
      return Number.parseInt(s, 10);
    });
  return { descr, fortran: fortran === 'True', shape, dataOffset: start + headerLen };
}

export function readNpy(buf: Uint8Array): NpyArray {
  const { descr, fortran, shape, dataOffset } = parseNpyHeader(buf);
  if (fortran) throw new NpyError('Fortran-ordered .npy arrays are not supported; save it with np.ascontiguousarray');
  const m = /^([<>|=])([uifb])(\d)$/.exec(descr);
  if (!m) throw new NpyError(`unsupported .npy dtype '${descr}' (numeric dtypes only)`);
  const [, endian, kind, sizeText] = m;
  const size = Number(sizeText);
  const dtype = `${kind}${size}` as NpyDtype;
  const valid: NpyDtype[] = ['u1', 'i1', 'u2', 'i2', 'u4', 'i4', 'f2', 'f4', 'f8', 'i8', 'u8', 'b1'];
  if (!valid.includes(dtype)) throw new NpyError(`unsupported .npy dtype '${descr}'`);
  const little = endian !== '>';
  const count = shape.reduce((a, b) => a * b, 1);
  const need = count * size;
  if (dataOffset + need > buf.length) throw new NpyError(`truncated .npy data: the header promises ${need} bytes, the file has ${buf.length - dataOffset}`);
  const view = new DataView(buf.buffer, buf.byteOffset + dataOffset, need);
  const data = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const o = i * size;
    switch (dtype) {
      case 'u1':
      case 'b1':
        data[i] = view.getUint8(o);
        break;
      case 'i1':
        data[i] = view.getInt8(o);
        break;
      case 'u2':
        data[i] = view.getUint16(o, little);
        break;
      case 'i2':
        data[i] = view.getInt16(o, little);
        break;
      case 'u4':
        data[i] = view.getUint32(o, little);
        break;
      case 'i4':
        data[i] = view.getInt32(o, little);
        break;
      case 'f2':
        data[i] = half(view.getUint16(o, little));
        break;
      case 'f4':
        data[i] = view.getFloat32(o, little);
        break;
      case 'f8':
        data[i] = view.getFloat64(o, little);
        break;
      case 'i8':
        data[i] = Number(view.getBigInt64(o, little));
        break;
      case 'u8':
        data[i] = Number(view.getBigUint64(o, little));
        break;
    }
  }
  const out: NpyArray = { dtype, shape, data };
  if (dtype === 'u1') out.bytes = buf.subarray(dataOffset, dataOffset + need);
  return out;
}

function half(h: number): number {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * 2 ** -14 * (f / 1024);
  if (e === 31) return f ? NaN : s * Infinity;
  return s * 2 ** (e - 15) * (1 + f / 1024);
}
