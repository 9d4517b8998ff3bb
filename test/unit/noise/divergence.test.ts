// First divergent layer, the pure core: the float side is onnxruntime-node for real on the example
// model with the layers' tensors added as graph outputs (the added outputs leave the model's own
// output bit-identical, and their shapes are the ones onnxruntime reports for the plain model's
// tensors); the emulator side is that float run in the emulator's NHWC layout with a known fault
// injected from one layer on, so the expected answer is the layer the test broke.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { readHar } from '../../../server/src/core/har/harReader';
import { dataflowOrder } from '../../../server/src/core/har/harView';
import { analyzeOnnx } from '../../../server/src/core/onnx/analysis';
import { readOnnxFile } from '../../../server/src/core/onnx/reader';
import { alignToOnnx, divergence, layerTensors, withExtraOutputs, type Tensor } from '../../../server/src/core/noise/divergence';
import { repoRoot } from '../../helpers/shared';

const MODEL = join(repoRoot, 'examples', 'model');
const ONNX = join(MODEL, 'tinycnn.onnx');
type Ort = typeof import('onnxruntime-node');
const ort = () => createRequire(join(repoRoot, 'package.json'))('onnxruntime-node') as Ort;

async function setup() {
  const har = await readHar(join(MODEL, 'tinycnn_hailo_model.har'));
  const layers = dataflowOrder(har.hn.layers);
  const analysis = analyzeOnnx(readOnnxFile(ONNX));
  const mapping = layerTensors(layers, analysis);
  const tensors = mapping.filter((m) => m.tensor).map((m) => m.tensor!);
  const o = ort();
  const plain = await o.InferenceSession.create(ONNX);
  const extended = await o.InferenceSession.create(withExtraOutputs(readFileSync(ONNX), tensors));
  const x = new Float32Array(3 * 64 * 64);
  for (let i = 0; i < x.length; i++) x[i] = ((i * 7919) % 255) / 255;
  const feed = { input: new o.Tensor('float32', x, [1, 3, 64, 64]) };
  const a = await plain.run(feed);
  const b = await extended.run(feed);
  return { layers, analysis, mapping, tensors, plain: a, out: b, extended };
}

test('divergence: added graph outputs leave the model output bit-identical and give every mapped layer its tensor', async () => {
  const { mapping, tensors, plain, out, extended } = await setup();
  assert.deepEqual(Array.from(out.logits.data as Float32Array), Array.from(plain.logits.data as Float32Array));
  for (const t of tensors) assert.ok(extended.outputNames.includes(t), t);
  const conv1 = mapping.find((m) => m.layer === 'conv1')!;
  assert.equal(conv1.tensor, '/backbone/Relu_output_0', 'Conv+BN+Relu: the Relu output leaves the group (onnxruntime names it so)');
  assert.deepEqual(out['/backbone/Relu_output_0'].dims, [1, 8, 32, 32]);
  assert.match(mapping.find((m) => m.layer === 'input_layer1')!.why!, /not compared/);
});

test('divergence: the first layer whose error jumps is the one broken; an uncompared layer right before it is said', async () => {
  const { layers, mapping, out } = await setup();
  const floatOf = (t: string): Tensor | undefined => (out[t] ? { dims: out[t].dims as number[], data: out[t].data as Float32Array } : undefined);
  // the emulator side: the float tensors in NHWC, ×1.5 from conv3 on (everything downstream of it)
  const after = new Set<string>();
  const mark = (n: string) => {
    if (after.has(n)) return;
    after.add(n);
    for (const l of layers) if (l.input.some((i) => i.endsWith(`/${n}`))) mark(l.name);
  };
  mark('conv3');
  const nhwc = (t: Tensor, k: number): Tensor => {
    const [n, c, h, w] = t.dims;
    if (t.dims.length !== 4) return { dims: t.dims, data: Float32Array.from(t.data, (v) => v * k) };
    const d = new Float32Array(t.data.length);
    for (let b = 0; b < n; b++)
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) for (let q = 0; q < c; q++) d[((b * h + y) * w + x) * c + q] = t.data[((b * c + q) * h + y) * w + x] * k;
    return { dims: [n, h, w, c], data: d };
  };
  const tensorOf = new Map(mapping.filter((m) => m.tensor).map((m) => [m.layer, m.tensor!]));
  const emuOf = (layer: string) => {
    const t = tensorOf.get(layer);
    const f = t ? floatOf(t) : undefined;
    return f ? nhwc(f, after.has(layer) ? 1.5 : 1) : undefined;
  };
  const r = divergence(layers, mapping, floatOf, emuOf);
  assert.equal(r.first?.layer, 'conv3', r.verdict);
  assert.ok(Math.abs(r.first!.relativeError - 0.5) < 1e-6);
  assert.equal(r.first!.inputError, 0);
  assert.equal(r.first!.ambiguous, undefined);
  assert.match(r.verdict, /^First divergent layer: conv3 \(relative error 50\.0 %, its inputs 0\.0 %\)\.$/);
  const deconv1 = r.layers.find((l) => l.layer === 'deconv1')!;
  assert.ok(Math.abs(deconv1.relativeError! - 0.5) < 1e-6 && Math.abs(deconv1.inputError! - 0.5) < 1e-6, 'downstream errors follow their input: no new jump');
  // conv2 (conv3's producer) not given by the emulator: the jump may start there
  const gap = divergence(layers, mapping, floatOf, (l) => (l === 'conv2' ? undefined : emuOf(l)));
  assert.equal(gap.first?.layer, 'conv3');
  assert.match(gap.first!.ambiguous!, /may start in conv2 before it/);
  // nothing broken: no divergence, said so
  const clean = divergence(layers, mapping, floatOf, (l) => {
    const t = tensorOf.get(l);
    const f = t ? floatOf(t) : undefined;
    return f ? nhwc(f, 1) : undefined;
  });
  assert.equal(clean.first, undefined);
  assert.match(clean.verdict, /^No layer's error jumps above 10\.0 % \(\d+ of 15 layers compared\)\.$/);
});

test('divergence: layouts line up NHWC→NCHW and [N,1,1,C]→[N,C]; anything else is said, not guessed', () => {
  const e = { dims: [1, 2, 2, 3], data: Float32Array.from({ length: 12 }, (_, i) => i) };
  const a = alignToOnnx(e, [1, 3, 2, 2]) as Float64Array;
  // NHWC index (h,w,c) = (h*2+w)*3+c → NCHW (c,h,w) = c*4+h*2+w; numpy: x.transpose(0,3,1,2).ravel()
  assert.deepEqual(Array.from(a), [0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11]);
  assert.deepEqual(Array.from(alignToOnnx({ dims: [2, 1, 1, 3], data: [1, 2, 3, 4, 5, 6] }, [2, 3]) as Float64Array), [1, 2, 3, 4, 5, 6]);
  assert.match(alignToOnnx(e, [1, 12]) as string, /layouts do not line up/);
  assert.match(alignToOnnx(e, [1, 3, 2, 3]) as string, /shapes differ/);
});
