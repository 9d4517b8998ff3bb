// Inputs and float outputs of examples/model/tinycnn for the accuracy tests: seeded byte-valued
// pixels (NHWC 64×64×3), the float logits by onnxruntime-node directly (tinycnn.alls:
// normalization([0,0,0],[255,255,255]) → x/255, then NHWC → NCHW), and a replayed emulator
// output (the logits through a known change) as the fake DFC's .npy.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { writeNpyFloat32 } from '../../server/src/core/calib/npyRead';
import { projectRoot as repoRoot } from './projectRoot';

export const TINYCNN_ONNX = join(repoRoot, 'examples', 'model', 'tinycnn.onnx');
/** Values in one tinycnn input frame (64×64×3). */
export const TINYCNN_FRAME = 64 * 64 * 3;

/** `n` frames of integer pixels in 0–255 from a seeded LCG (the same seed, the same frames). */
export function seededPixels(n: number, seed: number): Float32Array {
  const x = new Float32Array(n * TINYCNN_FRAME);
  let s = seed;
  for (let i = 0; i < x.length; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    x[i] = (s >>> 16) % 256;
  }
  return x;
}

/** The float logits of tinycnn.onnx for each of the first `n` frames of `x`, by onnxruntime-node. */
export async function tinycnnFloatLogits(x: Float32Array, n = x.length / TINYCNN_FRAME): Promise<Float32Array[]> {
  const ort = createRequire(join(repoRoot, 'package.json'))('onnxruntime-node') as typeof import('onnxruntime-node');
  const session = await ort.InferenceSession.create(TINYCNN_ONNX);
  const logits: Float32Array[] = [];
  for (let k = 0; k < n; k++) {
    const nchw = new Float32Array(TINYCNN_FRAME);
    for (let h = 0; h < 64; h++)
      for (let w = 0; w < 64; w++) for (let c = 0; c < 3; c++) nchw[c * 4096 + h * 64 + w] = x[k * TINYCNN_FRAME + (h * 64 + w) * 3 + c] / 255;
    const r = await session.run({ input: new ort.Tensor('float32', nchw, [1, 3, 64, 64]) });
    logits.push(Float32Array.from(r.logits.data as Float32Array));
  }
  return logits;
}

/** Writes `f` of every logit as the emulator's output, shape [N, 1, 1, 10] (the HAR's fc1). */
export function writeReplayedLogits(path: string, logits: Float32Array[], f: (v: number) => number): void {
  const data = new Float32Array(logits.length * 10);
  logits.forEach((l, k) => l.forEach((v, j) => (data[k * 10 + j] = f(v))));
  writeNpyFloat32(path, [logits.length, 1, 1, 10], data);
}
