// The transformer pitfalls of DFC 5.x as pre-flight findings (server/src/core/onnx/transformerRules.ts):
// each on the forms the public DFC 5.4.0 probes built (test/helpers/transformerOnnx.ts), at the
// severity the evidence allows — a warning unless the DFC in use is known to be another release, never
// an error — and silent on what the evidence cleared: attention whose Q/K come from weighted layers
// (zoo ViTs), fused LayerNormalization, the Neg-free RoPE rewrite.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { analyzeOnnx } from '../../../server/src/core/onnx/analysis';
import { readOnnxBuffer, readOnnxFile } from '../../../server/src/core/onnx/reader';
import { attentionCoreModel, ropeModel } from '../../helpers/transformerOnnx';
import { repoRoot } from '../../helpers/shared';

const CODES = ['onnx/rotate-half', 'onnx/softmax-additive-mask', 'onnx/matmul-two-activations'];
const pitfalls = (bytes: Uint8Array, dfcVersion?: string) => analyzeOnnx(readOnnxBuffer(bytes), { dfcVersion }).findings.filter((f) => CODES.includes(f.code));

test('rotate_half (Neg of one half, Concat with the other): a warning on the Concat with the swap-and-sign rewrite; info when the DFC in use is 5.3', () => {
  const [f, ...rest] = pitfalls(ropeModel());
  assert.equal(rest.length, 0);
  assert.equal(f.code, 'onnx/rotate-half');
  assert.equal(f.node, 'rope/Concat');
  assert.equal(f.severity, 'warning');
  assert.match(f.message, /seen on DFC 5\.4\.0; the DFC in use is not known here/);
  assert.match(f.evidence, /_handle_neg_feature_shuffle .* IndexError: list assignment index out of range/);
  assert.match(f.fix, /swap the halves .* constant sign vector/);
  assert.equal(pitfalls(ropeModel(), '5.4.0')[0].severity, 'warning');
  const older = pitfalls(ropeModel(), '5.3.0')[0];
  assert.equal(older.severity, 'info');
  assert.match(older.message, /not reported for 5\.3\.0/);
});

test('the Neg-free RoPE rewrite (swap × constant sign) is not flagged', () => {
  assert.deepEqual(pitfalls(ropeModel(true)), []);
});

test('attention core with Q/K/V as inputs: the rank-3 additive mask into Softmax and the .alls matmul_correction line for both MatMuls', () => {
  const found = pitfalls(attentionCoreModel());
  const mask = found.find((f) => f.code === 'onnx/softmax-additive-mask')!;
  assert.equal(mask.node, 'attn/Add');
  assert.equal(mask.severity, 'warning');
  assert.match(mask.message, /constant rank-3 additive mask 'mask' goes into Softmax 'attn\/Softmax'/);
  assert.match(mask.fix, /additive_mask:0/);
  const mm = found.filter((f) => f.code === 'onnx/matmul-two-activations');
  assert.deepEqual(
    mm.map((f) => f.node),
    ['attn/MatMul', 'attn/MatMul_1'],
  );
  assert.match(mm[0].fix, /pre_quantization_optimization\(matmul_correction, layers=\[matmul1, matmul2\], correction_type=zp_comp_none\)/);
  assert.match(mm[0].message, /it parses \(the DFC parses attention\)/);
  assert.ok(
    found.every((f) => f.severity !== 'error'),
    'one public probe each: never an error',
  );
});

test('zoo-style attention (Q/K/V from a qkv linear), fused LayerNormalization, the packed tower: none of these pitfalls', () => {
  for (const f of ['vit_b1_op17.onnx', 'vit_nobatch_op17.onnx', 'vit_b1_op16.onnx', 'tower_packed.onnx']) {
    const a = analyzeOnnx(readOnnxFile(join(repoRoot, 'test', 'fixtures', 'onnx', f)));
    assert.deepEqual(
      a.findings.filter((x) => CODES.includes(x.code)).map((x) => `${x.code} ${x.node}`),
      [],
      f,
    );
  }
});
