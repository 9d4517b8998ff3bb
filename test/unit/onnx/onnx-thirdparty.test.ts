// Regression corpus of 16 real third-party ONNX models (../shared/corpus/onnx-thirdparty: ONNX-zoo
// architectures, UltraFace, YuNet, Yolo-FastestV2; sources in its SOURCES.md), issue 20:
// - every intermediate tensor's inferred shape equals the shape onnxruntime executes, all known at
//   fixed input shapes;
// - the pre-flight findings stay bounded: no high-confidence warning on plumbing the DFC's own onnxsim
//   retry folds (torch's `x.view(x.size(0), -1, k)` heads of UltraFace: 8 per model before), and no
//   model gets more than a handful of warnings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import * as ort from 'onnxruntime-node';
import { readOnnxFile } from '../../../server/src/core/onnx/reader';
import { inferShapes } from '../../../server/src/core/onnx/inferShapes';
import { analyzeOnnx } from '../../../server/src/core/onnx/analysis';
import type { Dim } from '../../../server/src/core/onnx/model';
import { listFiles } from '../../helpers/files';
import { sharedPath } from '../../helpers/shared';
import { executedShapes } from '../../helpers/ortShapes';

const corpus = sharedPath('corpus', 'onnx-thirdparty');
const models = corpus ? listFiles(corpus, '.onnx') : [];
const skip = corpus ? false : 'NOTE: ../shared/corpus/onnx-thirdparty is absent';

/** The model's graph inputs with their declared dims, a symbolic one fixed the way SOURCES.md fixes YuNet (1×3×320×320). */
function inputsOf(path: string): Record<string, number[]> {
  const m = readOnnxFile(path);
  const inits = new Set(m.graph.initializers.map((t) => t.name));
  const out: Record<string, number[]> = {};
  for (const v of m.graph.inputs) {
    if (inits.has(v.name) || v.type.kind !== 'tensor' || !v.type.shape) continue;
    out[v.name] = v.type.shape.map((d, i) => (typeof d === 'number' && d > 0 ? d : i === 0 ? 1 : i === 1 ? 3 : 320));
  }
  return out;
}

test('onnx-thirdparty: the corpus is here (16 models)', { skip }, () => {
  assert.equal(models.length, 16, models.map((m) => basename(m)).join(', '));
});

for (const path of models) {
  const name = basename(path);
  test(`onnx-thirdparty ${name}: every tensor's shape equals onnxruntime's, all known at fixed input shapes`, async () => {
    const inputShapes = inputsOf(path);
    const r = inferShapes(readOnnxFile(path), { inputShapes, useDeclared: false });
    const feeds: Record<string, ort.Tensor> = {};
    for (const [k, dims] of Object.entries(inputShapes)) {
      const n = dims.reduce((a, b) => a * b, 1);
      feeds[k] = new ort.Tensor(
        'float32',
        Float32Array.from({ length: n }, (_, i) => Math.sin(i * 0.37) * 0.5),
        dims,
      );
    }
    const { shapes } = await executedShapes(new Uint8Array(readFileSync(path)), feeds);
    const wrong: string[] = [];
    const unknown: string[] = [];
    for (const [t, dims] of shapes) {
      const ours: Dim[] | null = r.facts.get(t)?.shape ?? null;
      if (ours && (ours.length !== dims.length || ours.some((d, i) => d !== null && d !== dims[i])))
        wrong.push(`${t}: ${JSON.stringify(ours)} vs ${JSON.stringify(dims)}`);
      else if (!ours || ours.some((d) => typeof d !== 'number')) unknown.push(`${t}: ${JSON.stringify(ours)} vs ${JSON.stringify(dims)}`);
    }
    assert.ok(shapes.size > 10, `${name}: onnxruntime ran ${shapes.size} tensors`);
    assert.deepEqual(wrong, [], `${name}: wrong shapes`);
    assert.deepEqual(unknown, [], `${name}: unknown shapes`);
  });

  test(`onnx-thirdparty ${name}: pre-flight findings are bounded, none high on plumbing the DFC's retry folds`, () => {
    const a = analyzeOnnx(readOnnxFile(path));
    const serious = a.findings.filter((f) => f.severity !== 'info');
    const highPlumbing = a.findings.filter((f) => f.code === 'onnx/shape-plumbing-concat' && f.confidence === 'high');
    assert.deepEqual(
      highPlumbing.map((f) => f.node),
      [],
      `${name}: high-confidence plumbing findings`,
    );
    // A symbolic input keeps its plumbing warnings (medium): the retry folds them only once the shapes are fixed.
    const dynamic = a.findings.some((f) => f.code === 'onnx/dynamic-input');
    assert.ok(dynamic || serious.length <= 2, `${name}: ${serious.length} warnings: ${serious.map((f) => `${f.code}@${f.node}`).join(', ')}`);
    if (/^ultraface_/.test(name)) {
      // The 8 `view(N, -1, k)` Concats per model are one note: the retry folds them.
      const fold = a.findings.find((f) => f.code === 'onnx/foldable-plumbing')!;
      assert.match(fold.message, /They include 8 rank-1 shape Concats/);
      assert.ok(!serious.some((f) => f.code === 'onnx/shape-plumbing-concat'), name);
    }
  });
}
