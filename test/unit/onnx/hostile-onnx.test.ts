// Issue 14, ONNX: subgraphs nested 10,000 deep ("unexpected error: Maximum call stack"), a Slice
// axis used as an array index (a 141-byte model ran 44 s, then "Invalid string length"), external
// data that is a folder or has a negative offset (the whole model was "unexpected error"), int64
// dims above 2^53 rounded and negative ones accepted, 10⁶ objects from a 2 MB file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onnx } from 'onnx-proto';
import Long from 'long';
import { readOnnxBuffer, readOnnxFile, OnnxReadError } from '../../../server/src/core/onnx/reader';
import { analyzeOnnx } from '../../../server/src/core/onnx/analysis';
import { renderGraphView } from '../../../server/src/core/onnx/graphView';
import { summarize, summaryText } from '../../../server/src/core/onnx/summary';
import { repoRoot } from '../../helpers/shared';
import { deepSubgraphOnnx, makeFifo, manyNodesOnnx, releaseFifo } from '../../helpers/hostile';

const F = onnx.TensorProto.DataType.FLOAT;
const I64 = onnx.TensorProto.DataType.INT64;
const vi = (name: string, dims: (number | Long | string)[]) =>
  onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType: F, shape: { dim: dims.map((d) => (typeof d === 'string' ? { dimParam: d } : { dimValue: d })) } } },
  });
const model = (graph: onnx.IGraphProto, opset = 13) =>
  Buffer.from(onnx.ModelProto.encode(onnx.ModelProto.create({ irVersion: 8, opsetImport: [{ domain: '', version: opset }], graph })).finish());

function scratch(): string {
  return mkdtempSync(join(tmpdir(), 'hailo-onnx-hostile-'));
}

test('subgraphs nested 10,000 deep: one onnx/limit sentence, in the reader and the CLI (not "unexpected error")', () => {
  const bytes = deepSubgraphOnnx(10_000);
  assert.throws(
    () => readOnnxBuffer(bytes),
    (e: OnnxReadError) =>
      e instanceof OnnxReadError &&
      e.kind === 'limit' &&
      /has more than 32 levels of nested subgraphs, over the limit of 32 levels: the model is not indexed/.test(e.message),
  );
  // 31 levels under the main graph read fine
  const ok = readOnnxBuffer(deepSubgraphOnnx(31));
  assert.equal(ok.graph.nodes[0].opType, 'If');
  const dir = scratch();
  try {
    writeFileSync(join(dir, 'deep.onnx'), bytes);
    const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'onnx', join(dir, 'deep.onnx')], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.doesNotMatch(r.stderr, /unexpected error/);
    assert.match(r.stderr, /not readable ONNX: The model \(subgraph at offset \d+\) has more than 32 levels of nested subgraphs/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a million empty nodes from a 2 MB file: one onnx/limit sentence, not millions of objects', () => {
  assert.throws(
    () => readOnnxBuffer(manyNodesOnnx(1_000_001)),
    (e: OnnxReadError) =>
      e.kind === 'limit' && /has more than 1,000,000 nodes, tensors, attributes and dims, over the limit of 1,000,000 entries/.test(e.message),
  );
  assert.equal(readOnnxBuffer(manyNodesOnnx(1000)).graph.nodes.length, 1000);
  // a packed list is bounded before it is read into numbers
  const ints = new Array<number>(1_100_000).fill(1);
  const packed = model({
    node: [{ opType: 'Relu', input: ['x'], output: ['y'], attribute: [{ name: 'pads', type: onnx.AttributeProto.AttributeType.INTS, ints }] }],
    input: [vi('x', [1])],
  });
  assert.throws(
    () => readOnnxBuffer(packed),
    (e: OnnxReadError) => e.kind === 'limit',
  );
});

test('a Slice axis far outside the rank leaves the shape unknown, quickly (it ran 44 s, then "Invalid string length")', () => {
  const init = (name: string, v: number) => onnx.TensorProto.create({ name, dataType: I64, dims: [1], int64Data: [v] });
  const bytes = model({
    node: [{ opType: 'Slice', input: ['x', 's', 'e', 'a'], output: ['y'] }],
    initializer: [init('s', 0), init('e', 1), init('a', 1_000_000_000)],
    input: [vi('x', [4, 4])],
    output: [vi('y', [])],
  });
  const t0 = performance.now();
  const a = analyzeOnnx(readOnnxBuffer(bytes));
  const view = renderGraphView(a, 'slice.onnx');
  summaryText(a, 'slice.onnx', true);
  JSON.stringify(summarize(a, true));
  const ms = performance.now() - t0;
  assert.ok(ms < 5000, `${ms.toFixed(0)} ms`);
  assert.deepEqual(a.shapes.facts.get('y')?.shape, [null, null]);
  assert.ok(view.text.length < 10_000);
  // opset 9: the axes attribute
  const v9 = model(
    {
      node: [
        {
          opType: 'Slice',
          input: ['x'],
          output: ['y'],
          attribute: [
            { name: 'starts', type: 7, ints: [0] },
            { name: 'ends', type: 7, ints: [1] },
            { name: 'axes', type: 7, ints: [-1_000_000_000] },
          ],
        },
      ],
      input: [vi('x', [4, 4])],
    },
    9,
  );
  assert.deepEqual(analyzeOnnx(readOnnxBuffer(v9)).shapes.facts.get('y')?.shape, [null, null]);
});

test('external data in a folder, a FIFO, or at a negative offset: one finding each, the model still reads', (t) => {
  const dir = scratch();
  try {
    mkdirSync(join(dir, 'weights.bin'));
    const fifo = join(dir, 'pipe.bin');
    const haveFifo = makeFifo(fifo);
    const ext = (name: string, location: string, offset: string) =>
      onnx.TensorProto.create({
        name,
        dataType: F,
        dims: [2],
        dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
        externalData: [
          { key: 'location', value: location },
          { key: 'offset', value: offset },
          { key: 'length', value: '8' },
        ],
      });
    const bytes = model({
      node: [
        { opType: 'Add', input: ['x', 'w1'], output: ['y'] },
        { opType: 'Add', input: ['y', 'w2'], output: ['z'] },
        { opType: 'Add', input: ['z', 'w3'], output: ['out'] },
      ],
      initializer: [ext('w1', 'weights.bin', '0'), ext('w2', 'data.bin', '-8'), ext('w3', 'pipe.bin', '0')],
      input: [vi('x', [2])],
    });
    writeFileSync(join(dir, 'data.bin'), Buffer.alloc(64));
    writeFileSync(join(dir, 'model.onnx'), bytes);
    const m = readOnnxFile(join(dir, 'model.onnx'));
    const byTensor = Object.fromEntries(m.problems.map((p) => [p.tensors![0], `${p.code}: ${p.message}`]));
    assert.equal(byTensor.w1, "onnx/external-data-invalid: external data location 'weights.bin' is a folder, not a regular file; not read");
    assert.equal(byTensor.w2, "onnx/external-data-invalid: external data offset '-8' of 'data.bin' is not a non-negative integer; not read");
    if (haveFifo)
      assert.equal(byTensor.w3, "onnx/external-data-invalid: external data location 'pipe.bin' is a FIFO (named pipe), not a regular file; not read");
    else t.diagnostic('NOTE: no mkfifo here; the FIFO case is not checked');
    const a = analyzeOnnx(m);
    assert.ok(a.findings.some((f) => f.code === 'onnx/external-data-invalid' && f.severity === 'warning'));
    assert.equal(m.graph.nodes.length, 3);
    releaseFifo(fifo);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('int64 dims above 2^53 are not rounded and negative dims are not accepted: unknown, with the exact value in a finding', () => {
  const big = Long.fromString('1152921504606846977'); // 2^60 + 1: a double would read 2^60
  const bytes = model({
    node: [{ opType: 'Relu', input: ['x'], output: ['y'] }],
    input: [vi('x', [1, big, -3, 'batch'])],
    initializer: [onnx.TensorProto.create({ name: 'w', dataType: F, dims: [-2, 4], floatData: [] })],
  });
  const m = readOnnxBuffer(bytes);
  const x = m.graph.inputs[0].type;
  assert.equal(x.kind, 'tensor');
  assert.deepEqual(x.kind === 'tensor' ? x.shape : undefined, [1, null, null, 'batch']);
  const messages = m.problems.map((p) => `${p.code}: ${p.message}`).sort();
  assert.deepEqual(messages, [
    "onnx/invalid-dim: 'x' has a dim of 1152921504606846977, above 2^53 (a JavaScript number would round it); that dim is treated as unknown",
    "onnx/invalid-dim: 'x' has a negative dim -3 (dims are ≥ 0); that dim is treated as unknown",
    "onnx/invalid-dim: tensor 'w' has a negative dim -2 (dims are ≥ 0); its shape and data are not used",
  ]);
  const a = analyzeOnnx(m);
  const finding = a.findings.find((f) => f.code === 'onnx/invalid-dim')!;
  assert.match(finding.evidence, /dims are int64 sizes/);
  assert.deepEqual(m.graph.initializers[0].dims, []);
});
