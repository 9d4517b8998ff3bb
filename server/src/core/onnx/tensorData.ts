// Decodes the small tensors the reader kept (shape constants, scales, axes) into numbers.
import { DT, numel, type TensorInfo } from './model';
import { Wire } from './wire';
import { BufferSource } from './source';
import { halfToNumber } from '../common/npyFormat';

/** Values of a small tensor, or undefined when its data was not kept or its type is not numeric. */
export function tensorValues(t: TensorInfo): number[] | undefined {
  const n = numel(t.dims);
  if (n === 0) return [];
  const data = t.data;
  if (!data) return undefined;
  const dv = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out: number[] = [];
  if (t.dataField === 'raw_data' || t.dataField === 'external') {
    const size = rawSize(t.dataType);
    if (!size || data.length < n * size) return undefined;
    for (let i = 0; i < n; i++) out.push(readRaw(dv, t.dataType, i * size));
    return out;
  }
  // typed fields are packed varints / fixed values
  const w = new Wire(new BufferSource(data));
  switch (t.dataField) {
    case 'float_data':
      for (let i = 0; i + 4 <= data.length; i += 4) out.push(dv.getFloat32(i, true));
      break;
    case 'double_data':
      for (let i = 0; i + 8 <= data.length; i += 8) out.push(dv.getFloat64(i, true));
      break;
    case 'int32_data':
    case 'int64_data':
    case 'uint64_data': {
      let p = 0;
      while (p < data.length) {
        const [v, next] = w.varint(p, data.length);
        out.push(v);
        p = next;
      }
      if (t.dataField === 'int32_data' && t.dataType === DT.FLOAT16) return out.map(halfToNumber);
      break;
    }
    default:
      return undefined;
  }
  return out.length === n ? out : undefined;
}

function rawSize(dt: number): number {
  switch (dt) {
    case 1:
    case 6:
    case 12:
      return 4;
    case 7:
    case 11:
    case 13:
      return 8;
    case 2:
    case 3:
    case 9:
      return 1;
    case 4:
    case 5:
    case 10:
    case 16:
      return 2;
    default:
      return 0;
  }
}

function readRaw(dv: DataView, dt: number, off: number): number {
  switch (dt) {
    case 1:
      return dv.getFloat32(off, true);
    case 6:
      return dv.getInt32(off, true);
    case 12:
      return dv.getUint32(off, true);
    case 7:
      return Number(dv.getBigInt64(off, true));
    case 13:
      return Number(dv.getBigUint64(off, true));
    case 11:
      return dv.getFloat64(off, true);
    case 2:
    case 9:
      return dv.getUint8(off);
    case 3:
      return dv.getInt8(off);
    case 4:
      return dv.getUint16(off, true);
    case 5:
      return dv.getInt16(off, true);
    case 10:
      return halfToNumber(dv.getUint16(off, true));
    case 16:
      return new Float32Array(new Uint32Array([dv.getUint16(off, true) << 16]).buffer)[0];
    default:
      return NaN;
  }
}
