// Constant folding of shape plumbing and quantized models, on generated fixtures that mirror what
// torch and onnxruntime's quantizer write (test/helpers/onnxFixtures.ts). Every tensor is compared
// with the shapes onnxruntime executes; the pre-flight findings for quantized forms are checked too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as ort from 'onnxruntime-node';
import { readOnnxBuffer } from '../../../server/src/core/onnx/reader';
import { inferShapes } from '../../../server/src/core/onnx/inferShapes';
import { analyzeOnnx } from '../../../server/src/core/onnx/analysis';
import { encodeModel, type ModelSpec } from '../../helpers/onnxBuilder';
import { dynamicQuantized, qdqQuantized, qoperatorQuantized, reflectPadChain } from '../../helpers/onnxFixtures';
import { executedShapes } from '../../helpers/ortShapes';

async function compareAll(spec: ModelSpec, feeds: Record<string, ort.Tensor>) {
  const bytes = encodeModel(spec);
  const model = readOnnxBuffer(bytes);
  const r = inferShapes(model, { useDeclared: false });
  const { shapes } = await executedShapes(bytes, feeds);
  const diff: string[] = [];
  for (const [name, dims] of shapes) {
    const ours = r.facts.get(name)?.shape ?? null;
    if (JSON.stringify(ours) !== JSON.stringify(dims)) diff.push(`${name}: ours ${JSON.stringify(ours)} vs ort ${JSON.stringify(dims)}`);
  }
  return { model, r, shapes, diff, bytes };
}

const floats = (dims: number[]) =>
  new ort.Tensor(
    'float32',
    Float32Array.from({ length: dims.reduce((a, b) => a * b, 1) }, (_, i) => Math.cos(i)),
    dims,
  );

test('folding: torch reflect-padding chain (Cast → Concat+ConstantOfShape → Reshape → Slice step -1 → Transpose → Reshape → Cast) resolves the Pad', async () => {
  const { r, shapes, diff } = await compareAll(reflectPadChain(), { x: floats([1, 1, 64]) });
  assert.ok(shapes.size >= 20, `only ${shapes.size} tensors`);
  assert.deepEqual(diff, []);
  // the pads themselves, as ONNX orders them (begins then ends): torch's (16, 16) on the last axis
  assert.deepEqual(r.facts.get('pads')!.value, [0, 0, 16, 0, 0, 16]);
  assert.deepEqual(r.facts.get('padded')!.shape, [1, 1, 96]);
  assert.deepEqual(r.facts.get('y')!.shape, [1, 4, 46]);
});

test('folding: a dynamically quantized model (DynamicQuantizeLinear, ConvInteger, MatMulInteger, MatMulIntegerToFloat) is fully shaped', async () => {
  const { model, diff, shapes } = await compareAll(dynamicQuantized(), { x: floats([1, 3, 16, 16]) });
  assert.ok(shapes.size >= 15);
  assert.deepEqual(diff, []);
  const a = analyzeOnnx(model, { useDeclared: false });
  const q = a.findings.find((f) => f.code === 'onnx/quantized-model');
  assert.ok(q, 'model-level quantized finding');
  assert.match(q!.message, /dynamically quantized/);
  assert.equal(q!.severity, 'warning', 'no DFC refusal of a quantized ONNX is on record: not an error');
  assert.deepEqual(
    a.findings.filter((f) => f.code === 'onnx/quantized-op').map((f) => f.node),
    ['x_QuantizeLinear', '/conv/Conv_quant', 'DynamicQuantizeLinear_8', '/fc/MatMul_quant', 'MatMulIntegerToFloat_13'],
  );
  // the quantizer's com.microsoft op is reported as quantization, not as an optimiser's custom op
  assert.ok(!a.findings.some((f) => f.code === 'onnx/custom-domain'));
});

test('folding: QDQ and QOperator forms are shaped and named by their form; a float model gets no quantization finding', async () => {
  const qdq = await compareAll(qdqQuantized(), { x: floats([1, 3, 8, 8]) });
  assert.deepEqual(qdq.diff, []);
  const a = analyzeOnnx(qdq.model, { useDeclared: false });
  const f = a.findings.find((x) => x.code === 'onnx/quantized-model');
  assert.match(f!.message, /QDQ form .*: 5 quantize\/dequantize and 0 integer nodes/);
  assert.equal(f!.confidence, 'low');
  assert.ok(!a.findings.some((x) => x.code === 'onnx/quantized-op'), 'QDQ pairs only get the model-level finding');

  const qop = await compareAll(qoperatorQuantized(), { x: floats([1, 3, 8, 8]) });
  assert.deepEqual(qop.diff, []);
  const b = analyzeOnnx(qop.model, { useDeclared: false });
  assert.match(b.findings.find((x) => x.code === 'onnx/quantized-model')!.message, /QOperator form/);
  assert.deepEqual(
    b.findings.filter((x) => x.code === 'onnx/quantized-op').map((x) => x.node),
    ['QLinearConv_1', 'QLinearAdd_2'],
  );

  const float = readOnnxBuffer(encodeModel({ ...reflectPadChain() }));
  assert.ok(!analyzeOnnx(float).findings.some((x) => x.code.startsWith('onnx/quantized')));
});
