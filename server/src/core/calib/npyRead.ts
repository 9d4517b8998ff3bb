// Whole small .npy arrays in and out, on the same header parser and decoder as the inspector: the
// accuracy table reads emulator outputs and writes its N inputs (float32, C order, format 1.0 with
// the header padded to 64 bytes as numpy writes it). Refuses Fortran order and arrays over 1 GiB.
import { dirname, resolve } from 'node:path';
import { FileRoots } from '../common/confined';
import { closeFile, readIntoSync } from '../common/fileAccess';
import { decodeElements, NpyFormatError, NPY_PREFIX_BYTES, parseNpyHeader, type NpyHeader } from '../common/npyFormat';

export interface NpyValues {
  shape: number[];
  dtype: string;
  data: Float32Array;
}

/** The float32 values this reader holds in memory at most (1 GiB). */
const MAX_BYTES = 1 << 30;
/** Elements decoded per step (the float64 scratch is 8 MiB). */
const STEP = 1 << 20;

export interface NpyReadOptions {
  /** Checks the header before a byte of data is read (throw to refuse: a wrong shape costs nothing). */
  check?(header: NpyHeader): void;
  /** Read only the first `firstItems` entries along axis 0 (the accuracy table's N). */
  firstItems?: number;
}

/**
 * A whole (or the first entries of a) .npy array as float32: header first, then only the bytes
 * needed, decoded in steps (memory: the float32 result plus 8 MiB), never more than 1 GiB.
 */
export function readNpyFile(path: string, options: NpyReadOptions = {}): NpyValues {
  const { fd, size } = FileRoots.named(path).openSync(path);
  try {
    const prefix = new Uint8Array(Math.min(size, NPY_PREFIX_BYTES));
    readIntoSync(fd, prefix, 0, prefix.length, 0);
    const h = parseNpyHeader(prefix, size);
    if (h.fortranOrder && h.shape.filter((d) => d > 1).length > 1) throw new NpyFormatError('a Fortran-ordered array (save it with np.ascontiguousarray)');
    options.check?.(h);
    const perItem = h.shape.length ? h.shape.slice(1).reduce((a, b) => a * b, 1) : 1;
    const items = h.shape.length ? Math.min(h.shape[0], options.firstItems ?? h.shape[0]) : 1;
    const count = h.shape.length ? items * perItem : h.count;
    if (count * 4 > MAX_BYTES) {
      throw new NpyFormatError(
        `${count.toLocaleString('en-US')} values (${(count * 4).toLocaleString('en-US')} bytes as float32), more than the 1 GiB this reader holds in memory`,
      );
    }
    const available = size - h.dataOffset;
    if (available < count * h.dtype.size) {
      throw new NpyFormatError(
        `truncated .npy data: the header promises ${h.dataBytes.toLocaleString('en-US')} bytes, the file has ${Math.max(0, available).toLocaleString('en-US')}`,
      );
    }
    const data = new Float32Array(count);
    const scratch = new Float64Array(Math.min(STEP, count));
    const bytes = new Uint8Array(new ArrayBuffer(scratch.length * h.dtype.size));
    for (let done = 0; done < count;) {
      const n = Math.min(scratch.length, count - done);
      const want = n * h.dtype.size;
      if (readIntoSync(fd, bytes, 0, want, h.dataOffset + done * h.dtype.size) < want) throw new NpyFormatError('the .npy file shrank while it was read');
      decodeElements(h.dtype, bytes.subarray(0, want), scratch);
      data.set(scratch.subarray(0, n), done);
      done += n;
    }
    return { shape: h.shape.length ? [items, ...h.shape.slice(1)] : [], dtype: h.dtype.name, data };
  } finally {
    closeFile(fd);
  }
}

/** Writes float32 C-order data as numpy's np.save would (format 1.0); atomically (temp + rename). */
export function writeNpyFloat32(path: string, shape: readonly number[], data: Float32Array): void {
  const count = shape.reduce((a, b) => a * b, 1);
  if (count !== data.length) throw new Error(`${data.length} values do not fill shape (${shape.join(', ')})`);
  const dict = `{'descr': '<f4', 'fortran_order': False, 'shape': (${shape.join(', ')}${shape.length === 1 ? ',' : ''}), }`;
  const total = Math.ceil((10 + dict.length + 1) / 64) * 64;
  const header = dict.padEnd(total - 10 - 1, ' ') + '\n';
  const out = Buffer.alloc(total + data.length * 4);
  Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0]).copy(out, 0);
  out.writeUInt16LE(header.length, 8);
  out.write(header, 10, 'latin1');
  const body = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] === 1) body.copy(out, total);
  else for (let i = 0; i < data.length; i++) out.writeFloatLE(data[i], total + i * 4);
  // In one rename, never through a link at `path` (the folder is the caller's work folder or the user's output).
  FileRoots.of([dirname(resolve(path))]).writeSync(path, out);
}
