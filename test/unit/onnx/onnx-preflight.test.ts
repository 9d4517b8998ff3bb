// DFC pre-flight findings: each rule fires on the pattern its evidence describes, and nothing the
// evidence cleared is flagged (fused LayerNormalization, opset level, attention, missing batch dim).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { onnx } from 'onnx-proto';
import { readOnnxBuffer, readOnnxFile } from '../../../server/src/core/onnx/reader';
import { analyzeOnnx, type Finding } from '../../../server/src/core/onnx/analysis';
import { checkEndNodeNames } from '../../../server/src/core/onnx/preflight';
import { opKnowledge } from '../../../server/src/core/onnx/dfcFacts';
import { repoRoot, sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';

const FIX = join(repoRoot, 'test', 'fixtures', 'onnx');
const analyze = (f: string, o = {}) => analyzeOnnx(readOnnxFile(join(FIX, f)), o);
const codes = (fs: Finding[]) => fs.map((f) => `${f.code}@${f.node ?? '-'}`);
const serious = (fs: Finding[]) => fs.filter((f) => f.severity !== 'info');

for (const f of ['vit_b1_op16.onnx', 'vit_b1_op17.onnx', 'vit_nobatch_op16.onnx', 'vit_nobatch_op17.onnx']) {
  test(`preflight: ${f} (a zoo-style ViT block) gets no error or warning`, () => {
    const a = analyze(f);
    assert.deepEqual(codes(serious(a.findings)), []);
    // cleared by the evidence (fused or decomposed LN, opset 16/17, attention, no batch dim):
    // only the two informational notes remain, and neither is about those nodes
    assert.deepEqual([...new Set(a.findings.map((x) => x.code))].sort(), ['onnx/end-node-name', 'onnx/linear-form']);
    assert.ok(!a.findings.some((x) => /LayerNorm|ReduceMean|Softmax|attn\/MatMul(_\d)?$/.test(x.node ?? '')));
    assert.ok(a.findings.every((x) => x.evidence && x.fix && x.confidence));
  });
}

test('preflight: batched and unbatched blocks differ only in the linear form (Gemm at rank 2, MatMul at rank 3)', () => {
  const b = analyze('vit_b1_op17.onnx').findings.find((f) => f.code === 'onnx/linear-form')!;
  const u = analyze('vit_nobatch_op17.onnx').findings.find((f) => f.code === 'onnx/linear-form')!;
  assert.match(b.message, /0 as Gemm .* 4 as MatMul with weights \(input rank 3\)/);
  assert.match(u.message, /4 as Gemm/);
  assert.equal(b.severity, 'info');
});

test('preflight: the packed-sequence tower — plumbing Concats, batch-axis concat, rank-6 patchify, sequence→spatial', () => {
  // As large as the Qwen3-VL tower the evidence comes from: the DFC may skip its onnxsim retry, so
  // the plumbing Concats its first parse attempt fails on are warned one by one.
  const a = analyze('tower_packed.onnx', { largeModelBytes: 0 });
  const c = codes(a.findings);
  for (const expected of [
    'onnx/shape-plumbing-concat@/visual/patch_embed/Concat',
    'onnx/shape-plumbing-concat@/visual/blocks.0/attn/Concat',
    'onnx/shape-plumbing-concat@/visual/blocks.0/attn/Concat_1',
    'onnx/batch-axis-concat@/visual/Concat',
    'onnx/high-rank-shuffle@/visual/patch_embed/Reshape',
    'onnx/high-rank-shuffle@/visual/patch_embed/Transpose',
    'onnx/sequence-to-spatial@/visual/merger/Reshape',
    'onnx/foldable-plumbing@-',
  ]) {
    assert.ok(c.includes(expected), `missing ${expected} in ${c.join(', ')}`);
  }
  const plumbing = a.findings.find((f) => f.code === 'onnx/shape-plumbing-concat')!;
  assert.equal(plumbing.confidence, 'high');
  assert.match(plumbing.evidence, /get_concat_info/);
  assert.match(plumbing.fix, /onnxsim .* --overwrite-input-shape image:1,3,32,32/);
  // a no-op Tile (repeats all 1) is not a batch-axis concat
  assert.ok(!c.some((x) => x.startsWith('onnx/batch-axis-tile')));
  // the 2-D (no batch) attention itself is not flagged
  assert.ok(!a.findings.some((f) => /MatMul|Softmax|LayerNorm/.test(f.node ?? '')));
  const fold = a.findings.find((f) => f.code === 'onnx/foldable-plumbing')!;
  assert.match(fold.message, /^\d+ of 59 nodes/);
});

test("preflight: plumbing Concats the DFC's own onnxsim retry folds are one model-level note, not a warning per node (issue 20)", () => {
  // The same tower at its real (small) size: constant at its input shapes, so the retry folds them.
  const a = analyze('tower_packed.onnx');
  assert.deepEqual(
    a.findings.filter((f) => f.code === 'onnx/shape-plumbing-concat'),
    [],
  );
  const fold = a.findings.find((f) => f.code === 'onnx/foldable-plumbing')!;
  assert.equal(fold.severity, 'info');
  assert.match(fold.message, /They include 3 rank-1 shape Concats \(\/visual\/patch_embed\/Concat, .*onnxsim retry folds them/);
  assert.match(fold.evidence, /parsing retry attempt/);
  // What the retry cannot fold stays: a batch-axis concat is no plumbing.
  assert.ok(codes(a.findings).includes('onnx/batch-axis-concat@/visual/Concat'));
});

test('preflight: ops rejected in real parser logs are errors with the DFC error class', () => {
  const a = analyze('rejected.onnx');
  const byNode = new Map(a.findings.filter((f) => f.node).map((f) => [f.node!, f]));
  for (const op of ['TopK', 'GatherElements', 'Mod']) {
    const f = byNode.get(`/head/${op}`)!;
    assert.equal(f.code, 'onnx/unsupported-op');
    assert.equal(f.severity, 'error');
    assert.match(f.message, /UnsupportedOperationError/);
  }
  assert.equal(byNode.get('/head/GridSample')!.code, 'onnx/unsupported-op');
  assert.equal(byNode.get('/head/NonZero')!.code, 'onnx/unsupported-op');
  assert.deepEqual([byNode.get('/embeddings/Gather')!.code, byNode.get('/embeddings/Gather')!.confidence], ['onnx/dynamic-gather', 'high']);
  assert.deepEqual([byNode.get('/head/Tile')!.code, byNode.get('/head/Tile')!.severity], ['onnx/batch-axis-tile', 'error']);
  assert.equal(byNode.get('/head/Concat')!.code, 'onnx/batch-axis-concat');
  assert.match(byNode.get('/head/ReduceMax')!.message, /keepdims=0/);
});

test('preflight: a symbolic batch needs fixed input shapes; the Shape chain folds once they are fixed', () => {
  const a = analyze('vit_dynbatch.onnx');
  const dyn = a.findings.find((f) => f.code === 'onnx/dynamic-input')!;
  assert.equal(dyn.node, 'x');
  assert.match(dyn.message, /\[N,50,32\]/);
  assert.match(dyn.fix, /net_input_shapes=\{'x'/);
  assert.equal(a.findings.filter((f) => f.code === 'onnx/shape-plumbing-concat').length, 2);
  // with the input fixed, every tensor resolves
  const fixed = analyze('vit_dynbatch.onnx', { inputShapes: { x: [1, 50, 32] } });
  assert.equal(fixed.unresolved, 0);
});

test('preflight: run-time Expand/Where are UnexpectedNodeError; constant ones fold and are not flagged', () => {
  const a = analyze('ops.onnx');
  const c = codes(a.findings);
  assert.ok(c.includes('onnx/unexpected-node@/ops/Expand_1'), c.join());
  assert.ok(!c.includes('onnx/unexpected-node@/ops/Expand'), 'Expand of constants folds');
  assert.ok(c.includes('onnx/unexpected-node@/ops/Where'));
});

test('preflight: "large model" is a low-confidence guess; it becomes a warning only when plumbing needs the retry', () => {
  const cnn = analyze('cnn.onnx', { largeModelBytes: 1000 }).findings.find((f) => f.code === 'onnx/large-model')!;
  assert.deepEqual([cnn.severity, cnn.confidence], ['info', 'low']);
  const tower = analyze('tower_packed.onnx', { largeModelBytes: 1000 }).findings.find((f) => f.code === 'onnx/large-model')!;
  assert.equal(tower.severity, 'warning');
  assert.match(tower.fix, /--no-large-tensor/);
  assert.equal(
    analyze('cnn.onnx').findings.find((f) => f.code === 'onnx/large-model'),
    undefined,
  );
});

test('preflight: graph outputs name their producing node for end_node_names; tensor names are caught', () => {
  const a = analyze('cnn.onnx');
  const end = a.findings.find((f) => f.code === 'onnx/end-node-name')!;
  assert.equal(end.fix, "end_node_names=['/head/fc/Gemm']");
  const wrong = checkEndNodeNames(a, ['logits', '/head/fc/Gemm', 'nope']);
  assert.deepEqual(
    wrong.map((f) => [f.node, f.message]),
    [
      ['logits', "'logits' is a tensor name; the node producing it is '/head/fc/Gemm'"],
      ['nope', "no node named 'nope'"],
    ],
  );
});

test('preflight: op knowledge for hover names its source', () => {
  assert.equal(opKnowledge('LayerNormalization').status, 'supported');
  assert.equal(opKnowledge('TopK').status, 'rejected');
  assert.equal(opKnowledge('Erf').status, 'pattern-only');
  assert.equal(opKnowledge('InstanceNormalization').status, 'seen-parsed');
  assert.equal(opKnowledge('FusedMatMul', 'com.microsoft').status, 'not-listed');
  for (const op of ['Conv', 'TopK', 'Expand', 'Gather', 'Tile', 'Shape']) assert.ok(opKnowledge(op).evidence.length > 10);
});

test(
  'preflight: the real whisper model the DFC parsed (its HAR is in ../shared) gets no error or warning',
  { skip: !sharedPath('corpus', 'har', 'whisper-hailo8l.onnx') && SKIP_NO_SHARED },
  () => {
    const a = analyzeOnnx(readOnnxFile(sharedPath('corpus', 'har', 'whisper-hailo8l.onnx')!));
    assert.deepEqual(codes(serious(a.findings)), []);
    assert.deepEqual(a.rankHistogram, { '3': 10, '4': 58, '5': 20 });
  },
);

test('preflight: If subgraphs are indexed and flagged; custom-domain ops are flagged; both get shapes', () => {
  const vi = (name: string, dims: number[]) => ({ name, type: { tensorType: { elemType: 1, shape: { dim: dims.map((d) => ({ dimValue: d })) } } } });
  const branch = (op: string) => ({
    name: op,
    node: [{ opType: op, input: ['x'], output: [`${op}_out`], name: `/branch/${op}` }],
    output: [vi(`${op}_out`, [1, 4])],
  });
  const model = onnx.ModelProto.encode({
    irVersion: 8,
    opsetImport: [
      { domain: '', version: 17 },
      { domain: 'com.microsoft', version: 1 },
    ],
    graph: {
      name: 'g',
      input: [vi('x', [1, 4]), { name: 'cond', type: { tensorType: { elemType: 9, shape: { dim: [] } } } }],
      output: [vi('y', [1, 4]), vi('z', [1, 4])],
      node: [
        {
          opType: 'If',
          name: '/if',
          input: ['cond'],
          output: ['y'],
          attribute: [
            { name: 'then_branch', type: onnx.AttributeProto.AttributeType.GRAPH, g: branch('Relu') },
            { name: 'else_branch', type: onnx.AttributeProto.AttributeType.GRAPH, g: branch('Sigmoid') },
          ],
        },
        { opType: 'FastGelu', domain: 'com.microsoft', name: '/gelu', input: ['x'], output: ['z'] },
      ],
    },
  }).finish();
  const m = readOnnxBuffer(model);
  const ifNode = m.graph.nodes[0];
  assert.deepEqual(
    ifNode.subgraphs.map((s) => [s.attribute, s.graph.nodes[0].opType]),
    [
      ['then_branch', 'Relu'],
      ['else_branch', 'Sigmoid'],
    ],
  );
  const a = analyzeOnnx(m, { useDeclared: false });
  const c = codes(a.findings);
  assert.ok(c.includes('onnx/control-flow@/if'), c.join());
  assert.ok(c.includes('onnx/custom-domain@/gelu'), c.join());
  // both branches keep x's shape (run-time condition); FastGelu keeps its input's shape
  assert.deepEqual(a.shapes.facts.get('y')!.shape, [1, 4]);
  assert.deepEqual(a.shapes.subgraphFacts.get('Relu_out')?.shape, [1, 4], 'tensors inside the branches are inferred too');
  assert.deepEqual(a.shapes.facts.get('z')!.shape, [1, 4]);
  assert.equal(a.operators['com.microsoft.FastGelu'], 1);
});
