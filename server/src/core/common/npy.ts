// Whole small .npy arrays from memory, for the device runner (`hailo-tools run --input FILE.npy`).
// One format reader for the project: the header parser and the element decoder are
// common/npyFormat.ts (also behind the calibration inspector and the accuracy table). C order only.
import { decodeElements, NpyFormatError, parseNpyHeader } from './npyFormat';

export type NpyDtype = 'u1' | 'i1' | 'u2' | 'i2' | 'u4' | 'i4' | 'f2' | 'f4' | 'f8' | 'i8' | 'u8' | 'b1';

export interface NpyArray {
  dtype: NpyDtype;
  shape: number[];
  /** Values as numbers, in C order (int64/uint64 beyond 2^53 lose precision): all of them, or the first `maxValues`. */
  data: Float64Array;
  /** The raw bytes when the file's dtype is u1 (no copy needed for uint8 frames). */
  bytes?: Uint8Array;
}

export { NpyFormatError as NpyError };

/** An array's header read and checked, its values decoded on demand (`decode`), never all at once. */
export interface NpySource {
  dtype: NpyDtype;
  shape: number[];
  /** Values the file holds (the product of the shape). */
  count: number;
  /** Decodes values start … start + out.length − 1 into `out` (C order). */
  decode(start: number, out: Float64Array): void;
  /** The raw bytes when the file's dtype is u1. */
  bytes?: Uint8Array;
}

/** The array in `buf`, checked (C order, not truncated), decoded piece by piece by the caller. */
export function openNpy(buf: Uint8Array): NpySource {
  const h = parseNpyHeader(buf);
  // A Fortran-ordered array with at most one dimension above 1 has the same bytes as C order.
  if (h.fortranOrder && h.shape.filter((d) => d > 1).length > 1) {
    throw new NpyFormatError('Fortran-ordered .npy arrays are not supported; save it with np.ascontiguousarray');
  }
  const available = buf.length - h.dataOffset;
  if (available < h.dataBytes) {
    throw new NpyFormatError(`truncated .npy data: the header promises ${h.dataBytes} bytes, the file has ${Math.max(0, available)}`);
  }
  const dtype = `${h.dtype.kind}${h.dtype.size}` as NpyDtype;
  const size = h.dtype.size;
  return {
    dtype,
    shape: h.shape,
    count: h.count,
    decode: (start, out) => void decodeElements(h.dtype, buf.subarray(h.dataOffset + start * size, h.dataOffset + (start + out.length) * size), out),
    ...(dtype === 'u1' ? { bytes: buf.subarray(h.dataOffset, h.dataOffset + h.dataBytes) } : {}),
  };
}

/**
 * The array in `buf`; `maxValues`: decode only the first this many values (`data` is then that
 * long; `shape` still says how many the file holds) — a caller that uses a prefix does not hold
 * the whole file at 8 bytes a value.
 */
export function readNpy(buf: Uint8Array, maxValues = Infinity): NpyArray {
  const src = openNpy(buf);
  const data = new Float64Array(Math.min(src.count, maxValues));
  src.decode(0, data);
  const out: NpyArray = { dtype: src.dtype, shape: src.shape, data };
  if (src.bytes) out.bytes = src.bytes;
  return out;
}
