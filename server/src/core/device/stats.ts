// Per-output statistics of what the device computed: mean, std (population), min, max, argmax,
// the first 16 hex digits of the SHA-256 of the bytes (as the published rung3 probe prints them,
// docs/research/dfc-flow.md#device-probes), and a 32-bin histogram for charts. Pure.
import { createHash } from 'node:crypto';
import type { OutputStats, StreamInfo } from './protocol';
import { maxOf, minOf } from '../common/arrays';

export const HISTOGRAM_BINS = 32;

/** The values of one frame of a stream, as numbers (uint8, uint16 little-endian or float32). */
export function decodeValues(bytes: Uint8Array, type: string): Float64Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (type === 'FLOAT32') {
    const n = Math.floor(bytes.byteLength / 4);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = view.getFloat32(i * 4, true);
    return out;
  }
  if (type === 'UINT16') {
    const n = Math.floor(bytes.byteLength / 2);
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = view.getUint16(i * 2, true);
    return out;
  }
  return Float64Array.from(bytes);
}

export function sha256Prefix(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

export function outputStats(stream: Pick<StreamInfo, 'name' | 'shape' | 'type'>, bytes: Uint8Array): OutputStats {
  const values = decodeValues(bytes, stream.type);
  const n = values.length;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  let argmax = -1;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    sum += v;
    if (v < min) min = v;
    if (v > max) {
      max = v;
      argmax = i;
    }
  }
  const mean = n > 0 ? sum / n : NaN;
  let sq = 0;
  for (let i = 0; i < n; i++) {
    const d = values[i] - mean;
    if (!Number.isNaN(d)) sq += d * d;
  }
  const counts = new Array<number>(HISTOGRAM_BINS).fill(0);
  const width = max > min ? (max - min) / HISTOGRAM_BINS : 1;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (Number.isNaN(v)) continue;
    counts[Math.min(HISTOGRAM_BINS - 1, Math.floor((v - min) / width))]++;
  }
  return {
    name: stream.name,
    shape: stream.shape,
    type: stream.type,
    count: n,
    mean,
    std: n > 0 ? Math.sqrt(sq / n) : NaN,
    min: n > 0 ? min : NaN,
    max: n > 0 ? max : NaN,
    argmax,
    sha256: sha256Prefix(bytes),
    histogram: { min: n > 0 ? min : 0, max: n > 0 ? max : 0, counts },
  };
}

/** 32 equal bins between the smallest and largest sample (latency chart). */
export function histogramOf(samples: readonly number[]): { min: number; max: number; counts: number[] } {
  const counts = new Array<number>(HISTOGRAM_BINS).fill(0);
  if (samples.length === 0) return { min: 0, max: 0, counts };
  const min = minOf(samples);
  const max = maxOf(samples);
  const width = max > min ? (max - min) / HISTOGRAM_BINS : 1;
  for (const v of samples) counts[Math.min(HISTOGRAM_BINS - 1, Math.floor((v - min) / width))]++;
  return { min, max, counts };
}

/** p-th percentile (0..100) by nearest rank of a sample. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

/** Splits one frame of concatenated streams (model order) into per-stream views. */
export function splitFrame(frame: Uint8Array, streams: readonly Pick<StreamInfo, 'name' | 'frameSize'>[]): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  let offset = 0;
  for (const s of streams) {
    out.set(s.name, frame.subarray(offset, offset + s.frameSize));
    offset += s.frameSize;
  }
  return out;
}
