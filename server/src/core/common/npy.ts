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

/**
 * The array in `buf`; `maxValues`: decode only the first this many values (`data` is then that
 * long; `shape` still says how many the file holds) — a caller that uses a prefix does not hold
 * the whole file at 8 bytes a value.
 */
export function readNpy(buf: Uint8Array, maxValues = Infinity): NpyArray {
  const h = parseNpyHeader(buf);
  // A Fortran-ordered array with at most one dimension above 1 has the same bytes as C order.
  if (h.fortranOrder && h.shape.filter((d) => d > 1).length > 1) {
    throw new NpyFormatError('Fortran-ordered .npy arrays are not supported; save it with np.ascontiguousarray');
  }
  const available = buf.length - h.dataOffset;
  if (available < h.dataBytes) {
    throw new NpyFormatError(`truncated .npy data: the header promises ${h.dataBytes} bytes, the file has ${Math.max(0, available)}`);
  }
  const n = Math.min(h.count, maxValues);
  const body = buf.subarray(h.dataOffset, h.dataOffset + n * h.dtype.size);
  const data = new Float64Array(n);
  decodeElements(h.dtype, body, data);
  const out: NpyArray = { dtype: `${h.dtype.kind}${h.dtype.size}` as NpyDtype, shape: h.shape, data };
  if (out.dtype === 'u1') out.bytes = buf.subarray(h.dataOffset, h.dataOffset + h.dataBytes);
  return out;
}
