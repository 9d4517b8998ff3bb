// What happens to a frame between the bytes the device receives and the floats the ONNX model
// receives, and back: the script's on-chip `normalization` (x − mean) / std per channel (0–255
// scale, channel = last axis of the NHWC frame), and HailoRT's dequantisation (q − zp) × scale.
// Pure; checked against numpy.

/** Applies `normalization(mean, std)` to an NHWC frame (any numeric type) → float32. */
export function normalize(data: ArrayLike<number>, mean: readonly number[], std: readonly number[]): Float32Array {
  const c = mean.length;
  if (c === 0 || std.length !== c) throw new Error(`normalization needs as many std values as mean values (${c} vs ${std.length})`);
  if (data.length % c !== 0) throw new Error(`a frame of ${data.length} values does not have ${c} channels`);
  const out = new Float32Array(data.length);
  // Divide like numpy does ((x − m) / s in float64, rounded once) rather than multiplying by 1/s.
  for (let i = 0; i < data.length; i++) {
    const k = i % c;
    out[i] = (data[i] - mean[k]) / std[k];
  }
  return out;
}

/** (q − zp) × scale, one pair for the whole frame, or per feature (last axis) when arrays are given. */
export function dequantize(data: ArrayLike<number>, zp: number | readonly number[], scale: number | readonly number[]): Float32Array {
  const out = new Float32Array(data.length);
  if (typeof zp === 'number' && typeof scale === 'number') {
    for (let i = 0; i < data.length; i++) out[i] = (data[i] - zp) * scale;
    return out;
  }
  const zps = typeof zp === 'number' ? [zp] : zp;
  const scales = typeof scale === 'number' ? [scale] : scale;
  const f = Math.max(zps.length, scales.length);
  if ((zps.length !== f && zps.length !== 1) || (scales.length !== f && scales.length !== 1))
    throw new Error(`per-feature quantisation with ${zps.length} zero points and ${scales.length} scales`);
  if (data.length % f !== 0) throw new Error(`a frame of ${data.length} values does not have ${f} features`);
  for (let i = 0; i < data.length; i++) {
    const k = i % f;
    out[i] = (data[i] - zps[zps.length === 1 ? 0 : k]) * scales[scales.length === 1 ? 0 : k];
  }
  return out;
}
