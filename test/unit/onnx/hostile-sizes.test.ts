// Issue 29: every size taken from a file is bounded before anything is allocated by it. One test
// per class: a dim of an ONNX shape input or an attribute used as an array length (shape rules),
// and a channel count of a HEF stream used to expand a normalization (accuracy). Each ran out of
// memory (a fatal error: no catch helps) before the bound.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeOnnx } from '../../../server/src/core/onnx/analysis';
import { readOnnxBuffer } from '../../../server/src/core/onnx/reader';
import { normalize } from '../../../server/src/core/accuracy/preprocess';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../helpers/shared';
import { encodeModel, type NodeSpec, type ValueSpec } from '../../helpers/onnxBuilder';

const HUGE = 1_000_000_000;

function analyze(nodes: NodeSpec[], inputs: ValueSpec[], outputs: ValueSpec[]) {
  const before = process.memoryUsage().rss;
  const t = process.hrtime.bigint();
  const a = analyzeOnnx(readOnnxBuffer(encodeModel({ graph: { name: 'g', nodes, inputs, outputs } })));
  const ms = Number(process.hrtime.bigint() - t) / 1e6;
  assert.ok(process.memoryUsage().rss - before < 256 * 1024 * 1024, 'no allocation sized by the file');
  assert.ok(ms < 10_000, `${ms} ms`);
  return a;
}

test('ONNX shape rules: a dim or an attribute of 10⁹ used as a length is bounded (LIMITS.onnxRank): the shape is unknown, nothing is allocated', () => {
  // Reshape whose target is a graph input declared [10⁹]: the output rank is that dim
  let a = analyze(
    [{ op: 'Reshape', inputs: ['x', 's'], outputs: ['y'], name: 'reshape' }],
    [
      { name: 'x', dtype: 'float', dims: [2, 3] },
      { name: 's', dtype: 'int64', dims: [HUGE] },
    ],
    [{ name: 'y', dtype: 'float' }],
  );
  assert.equal(a.shapes.facts.get('y')?.shape, null);
  // ConstantOfShape and Expand, the same way
  a = analyze(
    [
      { op: 'ConstantOfShape', inputs: ['s'], outputs: ['c'], name: 'cos' },
      { op: 'Expand', inputs: ['x', 's'], outputs: ['e'], name: 'expand' },
    ],
    [
      { name: 'x', dtype: 'float', dims: [2, 3] },
      { name: 's', dtype: 'int64', dims: [HUGE] },
    ],
    [{ name: 'c', dtype: 'float' }],
  );
  assert.equal(a.shapes.facts.get('c')?.shape, null);
  assert.equal(a.shapes.facts.get('e')?.shape, null);
  // SplitToSequence of an axis of 10⁹ (one item per element), and a Scan with num_scan_inputs = 10⁹
  a = analyze(
    [{ op: 'SplitToSequence', inputs: ['x'], outputs: ['seq'], name: 'split', attrs: { axis: 0 } }],
    [{ name: 'x', dtype: 'float', dims: [HUGE, 2] }],
    [{ name: 'seq', dtype: 'float', kind: 'sequence' }],
  );
  assert.equal(a.shapes.facts.get('seq')?.items, undefined);
  const body = {
    name: 'body',
    nodes: [{ op: 'Identity', inputs: ['si'], outputs: ['so'] }],
    inputs: [{ name: 'si', dtype: 'float' as const, dims: [2] }],
    outputs: [{ name: 'so', dtype: 'float' as const, dims: [2] }],
  };
  a = analyze(
    [{ op: 'Scan', inputs: ['x'], outputs: ['y'], name: 'scan', attrs: { body: { g: body }, num_scan_inputs: HUGE } }],
    [{ name: 'x', dtype: 'float', dims: [3, 2] }],
    [{ name: 'y', dtype: 'float' }],
  );
  assert.equal(a.shapes.facts.get('y')?.shape ?? null, null);
  // within the limit the rules still answer: a Reshape target declared [4] gives rank 4
  a = analyze(
    [{ op: 'Reshape', inputs: ['x', 's'], outputs: ['y'], name: 'reshape' }],
    [
      { name: 'x', dtype: 'float', dims: [2, 3] },
      { name: 's', dtype: 'int64', dims: [4] },
    ],
    [{ name: 'y', dtype: 'float' }],
  );
  assert.deepEqual(a.shapes.facts.get('y')?.shape, [null, null, null, null]);
});

test('accuracy: one normalization mean/std applies to every channel as it is (numpy broadcast), not expanded to the stated channel count', () => {
  // the callers (accuracy/reference.ts, processes/accuracy/compare.ts) pass a single mean and std
  // as they are, where they made arrays as long as the HEF stream's feature count
  assert.deepEqual([...normalize([10, 20, 30, 40], [10], [2])], [0, 5, 10, 15]);
  assert.deepEqual([...normalize([10, 20, 30, 40], [10, 20], [2, 4])], [0, 0, 10, 5]);
  for (const file of ['server/src/core/accuracy/reference.ts', 'server/src/processes/accuracy/compare.ts']) {
    const src = readFileSync(join(repoRoot, file), 'utf8');
    assert.doesNotMatch(src, /new Array\([^)]*(shape\[2\]|features|\bc\b)[^)]*\)\.fill/, file);
  }
});
