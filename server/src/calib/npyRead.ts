// Whole small .npy arrays in and out, on the same header parser and decoder as the inspector: the
// accuracy table reads emulator outputs and writes its N inputs (float32, C order, format 1.0 with
// the header padded to 64 bytes as numpy writes it). Refuses Fortran order and arrays over 1 GiB.
import { closeSync, openSync, readSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { decodeElements, NpyFormatError, NPY_PREFIX_BYTES, parseNpyHeader } from '../common/npyFormat';

export interface NpyValues {
  shape: number[];
  dtype: string;
  data: Float32Array;
}

const MAX_BYTES = 1 << 30;

export function readNpyFile(path: string): NpyValues {
  const size = statSync(path).size;
  const fd = openSync(path, 'r');
  try {
    const prefix = new Uint8Array(Math.min(size, NPY_PREFIX_BYTES));
    readSync(fd, prefix, 0, prefix.length, 0);
    const h = parseNpyHeader(prefix, size);
    if (h.fortranOrder && h.shape.filter((d) => d > 1).length > 1) throw new NpyFormatError('a Fortran-ordered array (save it with np.ascontiguousarray)');
    if (h.dataBytes > MAX_BYTES) throw new NpyFormatError(`${h.dataBytes.toLocaleString('en-US')} bytes, more than the 1 GiB this reader holds in memory`);
    const body = new Uint8Array(new ArrayBuffer(h.dataBytes));
    let got = 0;
    while (got < h.dataBytes) {
      const n = readSync(fd, body, got, Math.min(h.dataBytes - got, 64 << 20), h.dataOffset + got);
      if (n <= 0) break;
      got += n;
    }
    const values = new Float64Array(h.count);
    decodeElements(h.dtype, body, values);
    return { shape: h.shape, dtype: h.dtype.name, data: Float32Array.from(values) };
  } finally {
    closeSync(fd);
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
  writeFileSync(`${path}.partial`, out);
  renameSync(`${path}.partial`, path);
}
