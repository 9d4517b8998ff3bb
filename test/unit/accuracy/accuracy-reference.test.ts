// The float reference end to end: the device's first frame (uint8 NHWC in, a quantised and a
// float output back) → the script's normalization → NCHW → onnxruntime-node on a real ONNX model
// → back to NHWC → metrics. Expected figures are numpy's (scripts/gen-accuracy-fixtures.py,
// reference.json); the model has a closed form numpy computes independently.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { compareWithReference, ReferenceError, type FloatTensor, type Infer, type ReferenceRequest } from '../../../server/src/core/accuracy/reference';
import { locateOnnxRuntime, runOnnxInWorker } from '../../../server/src/processes/accuracy/ortProcess';
import { commandLineTrust } from '../../../server/src/core/common/trust';
import type { StreamInfo } from '../../../server/src/core/device/protocol';
import { repoRoot } from '../../helpers/shared';
import { tinyOnnxBytes, writeTinyOnnx } from '../../helpers/tinyOnnx';

type Num = number | string | null;
const fx = JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'accuracy', 'reference.json'), 'utf8')) as {
  hef: { input: string; outputs: [string, string]; shape: [number, number, number]; zp: number; scale: number };
  normalization: { mean: number[]; std: number[] };
  tensors: { inputs: Record<string, string>; outputs: Record<string, string> };
  expected: Record<string, Record<string, Num> & { count: number; maxAbsErrorIndex: number }>;
  onnxInput: number[];
};

const [H, W, C] = fx.hef.shape;
const stream = (
  name: string,
  direction: 'input' | 'output',
  shape: [number, number, number],
  type: string,
  quant = [{ zp: 0, scale: 1, limMin: 0, limMax: 0 }],
): StreamInfo => ({
  name,
  direction,
  shape,
  order: 'NHWC',
  type,
  frameSize: shape[0] * shape[1] * shape[2] * (type === 'FLOAT32' ? 4 : 1),
  quant,
  isNms: false,
});

function request(over: Partial<ReferenceRequest> = {}): ReferenceRequest {
  return {
    inputs: [stream(fx.hef.input, 'input', [H, W, C], 'UINT8')],
    outputs: [
      stream(fx.hef.outputs[0], 'output', [H, W, C], 'UINT8', [{ zp: fx.hef.zp, scale: fx.hef.scale, limMin: 0, limMax: 0 }]),
      stream(fx.hef.outputs[1], 'output', [1, 1, C], 'FLOAT32'),
    ],
    format: 'uint8',
    tensors: fx.tensors,
    onnx: {
      inputs: [{ name: 'input', elemType: 1, dims: [1, C, H, W] }],
      outputs: [
        { name: 'out', elemType: 1, dims: [1, C, H, W] },
        { name: 'pooled', elemType: 1, dims: [1, C, 1, 1] },
      ],
    },
    normalizations: [{ mean: fx.normalization.mean, std: fx.normalization.std, name: 'normalization1', line: 1 }],
    ...over,
  };
}

/** onnxruntime-node in this process, on the model bytes. */
function ortInfer(bytes: Uint8Array, seen?: (feeds: Record<string, FloatTensor>) => void): Infer {
  return async (feeds) => {
    seen?.(feeds);
    const session = await ort.InferenceSession.create(bytes);
    const out = await session.run(Object.fromEntries(Object.entries(feeds).map(([k, t]) => [k, new ort.Tensor('float32', t.data, t.dims)])));
    return Object.fromEntries(Object.entries(out).map(([k, t]) => [k, { dims: [...t.dims], data: t.data as Float32Array }]));
  };
}

function assertMetrics(actual: Record<string, unknown>, expected: Record<string, Num>, what: string, rel: number): void {
  for (const k of ['maxAbsError', 'meanAbsError', 'relativeError', 'correlation', 'cosine']) {
    const a = actual[k] as number;
    const e = expected[k] as number;
    assert.ok(Math.abs(a - e) <= rel * Math.max(1e-3, Math.abs(e)), `${what} ${k}: ${a} vs numpy ${e}`);
  }
  assert.equal(actual.count, expected.count);
}

test("float reference: normalization + NCHW feed equals numpy's, and each output's figures equal numpy's", async () => {
  let fed: Float32Array | undefined;
  const r = await compareWithReference(
    request(),
    ortInfer(tinyOnnxBytes(H, W, C), (f) => (fed = f.input.data)),
  );
  assert.deepEqual(Array.from(fed!), Array.from(Float32Array.from(fx.onnxInput)), "the ONNX input is numpy's normalized NCHW frame");
  assert.deepEqual(r.skipped, []);
  assert.deepEqual(
    r.outputs.map((o) => [o.name, o.onnxName, o.dequantized]),
    [
      [fx.hef.outputs[0], 'out', true],
      [fx.hef.outputs[1], 'pooled', false],
    ],
  );
  // Mul/Add are exact in float32 on both sides; the pool's sum order differs from numpy's float64 mean.
  assertMetrics(r.outputs[0].metrics as unknown as Record<string, unknown>, fx.expected[fx.hef.outputs[0]], 'conv1', 1e-9);
  assert.equal(r.outputs[0].metrics.maxAbsErrorIndex, fx.expected[fx.hef.outputs[0]].maxAbsErrorIndex);
  assertMetrics(r.outputs[1].metrics as unknown as Record<string, unknown>, fx.expected[fx.hef.outputs[1]], 'avgpool1', 1e-4);
  assert.match(
    r.preprocessing[0],
    /^input ← tiny\/input_layer1: \(x − \[123\.675, 116\.28, 103\.53\]\) \/ \[58\.395, 57\.12, 57\.375\] \(normalization1, line 1\), HEF NHWC 4x5x3 ↔ ONNX NCHW \[1,3,4,5\]$/,
  );
});

test("float reference: pairing by the HAR's original names, and refusals as one sentence", async () => {
  const infer = ortInfer(tinyOnnxBytes(H, W, C));
  // Two outputs of one shape: only the HAR's original names (node names) can tell them apart.
  const twin = request({
    outputs: [stream('tiny/b', 'output', [1, 1, C], 'FLOAT32'), stream('tiny/a', 'output', [1, 1, C], 'FLOAT32')],
    onnx: {
      inputs: request().onnx.inputs,
      outputs: [
        { name: 'pooled', elemType: 1, dims: [1, C, 1, 1] },
        { name: 'pooled2', elemType: 1, dims: [1, C, 1, 1] },
      ],
    },
    tensors: { inputs: fx.tensors.inputs, outputs: { 'tiny/a': fx.tensors.outputs[fx.hef.outputs[1]], 'tiny/b': fx.tensors.outputs[fx.hef.outputs[1]] } },
  });
  const ambiguous = await compareWithReference(twin, infer);
  assert.deepEqual(ambiguous.outputs, []);
  assert.match(ambiguous.skipped[0].reason, /^2 ONNX tensors \(pooled, pooled2\) fit 'tiny\/b' and no HAR says which: put the \.har beside the HEF\.$/);
  const named = await compareWithReference(
    { ...twin, originalNames: { a: ['/avgpool1/GlobalAveragePool'] }, producers: { pooled: '/avgpool1/GlobalAveragePool' } },
    infer,
  );
  assert.deepEqual(
    named.outputs.map((o) => [o.name, o.onnxName]),
    [['tiny/a', 'pooled']],
  );
  assert.match(named.outputs[0].pairing, /HAR's original names/);

  await assert.rejects(
    compareWithReference(request({ onnx: { inputs: [{ name: 'input', elemType: 1, dims: [1, 3, 8, 8] }], outputs: [] } }), infer),
    (e: unknown) => e instanceof ReferenceError && /has 192 values but the HEF vstream 4x5x3 has 60/.test((e as Error).message),
  );
  await assert.rejects(
    compareWithReference(request({ onnx: { inputs: [{ name: 'input', elemType: 7, dims: [1, C, H, W] }], outputs: [] } }), infer),
    /is not float32/,
  );
  await assert.rejects(
    compareWithReference(request({ normalizations: [{ mean: [1, 2], std: [1, 1], line: 4 }] }), infer),
    /normalization \(line 4\) has 2 channels but input 'tiny\/input_layer1' has 3/,
  );
  const noNorm = await compareWithReference(request({ normalizations: [] }), infer);
  assert.match(noNorm.warnings.join(' '), /No normalization was found for 'tiny\/input_layer1': the float model gets raw 0–255 values/);
  const nms = await compareWithReference(request({ outputs: [{ ...stream('tiny/nms', 'output', [80, 5, 100], 'FLOAT32'), isNms: true }] }), infer);
  assert.match(nms.skipped[0].reason, /NMS output/);
});

test('onnxruntime-node is found from a setting folder or the checkout, else one sentence; the worker process runs a model', async () => {
  assert.match((locateOnnxRuntime('relative/dir', []) as { error: string }).error, /must be an absolute folder/);
  const empty = mkdtempSync(join(tmpdir(), 'hailo-ort-'));
  try {
    assert.match(
      (locateOnnxRuntime(empty, []) as { error: string }).error,
      /no onnxruntime-node is installed there: run "npm install onnxruntime-node" in that folder/,
    );
    assert.match((locateOnnxRuntime(undefined, [empty]) as { error: string }).error, /does not ship .*set hailo\.onnxruntime\.path/);
    const fromRepo = locateOnnxRuntime(undefined, [repoRoot]);
    assert.ok('packageDir' in fromRepo, JSON.stringify(fromRepo));
    assert.equal(fromRepo.foundBy, 'bundled');
    const viaSetting = locateOnnxRuntime(repoRoot, []);
    assert.ok('packageDir' in viaSetting && viaSetting.foundBy === 'setting');

    const model = join(empty, 'tiny.onnx');
    writeTinyOnnx(model, H, W, C);
    const trust = commandLineTrust('test');
    const feeds = { input: { dims: [1, C, H, W], data: Float32Array.from(fx.onnxInput) } };
    const r = await runOnnxInWorker(trust, { ortPackage: fromRepo.packageDir, onnx: model, feeds }, { workerPath: join(repoRoot, 'dist', 'ortWorker.js') });
    assert.deepEqual(r.outputs.out.dims, [1, C, H, W]);
    assert.deepEqual(
      Array.from(r.outputs.out.data).slice(0, 4),
      fx.onnxInput.slice(0, 4).map((v) => Math.fround(Math.fround(v * 2) + 1)),
    );
    assert.equal(r.version, JSON.parse(readFileSync(join(fromRepo.packageDir, 'package.json'), 'utf8')).version);
    // A broken model: one sentence from onnxruntime, and the worker is gone.
    await assert.rejects(
      runOnnxInWorker(
        trust,
        { ortPackage: fromRepo.packageDir, onnx: join(empty, 'missing.onnx'), feeds },
        { workerPath: join(repoRoot, 'dist', 'ortWorker.js') },
      ),
      /^Error: onnxruntime could not run the model: /,
    );
    // Cancel kills the worker at once.
    const ac = new AbortController();
    const p = runOnnxInWorker(
      trust,
      { ortPackage: fromRepo.packageDir, onnx: model, feeds },
      { workerPath: join(repoRoot, 'dist', 'ortWorker.js'), signal: ac.signal },
    );
    ac.abort();
    await assert.rejects(p, /was cancelled/);
    await assert.rejects(runOnnxInWorker({} as never, { ortPackage: fromRepo.packageDir, onnx: model, feeds }), /only in a trusted workspace/);
  } finally {
    rmSync(empty, { recursive: true, force: true });
  }
});
