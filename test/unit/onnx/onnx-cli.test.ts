// `hailo-tools onnx`: the JSON contract of issue 4, human output, exit codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { repoRoot } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

const FIX = join(repoRoot, 'test', 'fixtures', 'onnx');

async function run(...args: string[]) {
  const io = captureIO();
  const code = await main(['onnx', ...args], io);
  return { code, out: io.outText, err: io.errText };
}

test('cli onnx --json: exactly the documented keys, in order', async () => {
  const r = await run('--json', join(FIX, 'vit_b1_op17.onnx'));
  assert.equal(r.code, 0);
  const j = JSON.parse(r.out);
  assert.deepEqual(Object.keys(j), ['irVersion', 'opsets', 'nodes', 'operators', 'rankHistogram', 'inputs', 'outputs', 'initializers', 'findings']);
  assert.equal(j.irVersion, 8);
  assert.deepEqual(j.opsets, { '': 17 });
  assert.equal(j.nodes, 33);
  assert.equal(j.operators.LayerNormalization, 2);
  assert.equal(j.operators.MatMul, 6);
  assert.deepEqual(j.inputs, [{ name: 'x', shape: [1, 50, 32] }]);
  assert.deepEqual(j.outputs, [{ name: 'y', shape: [1, 50, 32] }]);
  // rank 4: q, k, v, kᵀ, QKᵀ, scaled, softmax, AV, AV transposed; rank 5: the qkv reshape and its transpose
  assert.deepEqual(j.rankHistogram, { '0': 3, '3': 20, '4': 9, '5': 2 });
  assert.equal(j.initializers.count, 18); // 2 LN × 2, 4 linears × 2, 2 shapes, scale, 3 GELU constants
  assert.ok(j.initializers.bytes > 30000);
  for (const f of j.findings) {
    assert.deepEqual(Object.keys(f), ['code', 'severity', 'node', 'message', 'evidence', 'fix', 'confidence']);
  }
  assert.equal(j.shapes, undefined);
});

test('cli onnx --json --shapes: numbers, strings for symbols, null for unknown', async () => {
  const r = await run('--json', '--shapes', join(FIX, 'vit_dynbatch.onnx'));
  assert.equal(r.code, 0);
  const j = JSON.parse(r.out);
  assert.deepEqual(j.shapes.x, ['N', 50, 32]);
  assert.deepEqual(j.shapes.y, ['N', 50, 32]);
  assert.deepEqual(j.shapes['/blocks.0/attn/Reshape_output_0'], ['N', 50, 3, 4, 8]);
  const ops = JSON.parse((await run('--json', '--shapes', join(FIX, 'ops.onnx'))).out);
  // nchw,nchw->nc on x [2,3,8,8]; onnx-shapes.test.ts checks the same tensor against onnxruntime
  assert.deepEqual(ops.shapes['/ops/Einsum_output_0'], [2, 3], 'Einsum from its equation');
  assert.deepEqual(ops.shapes['/ops/Reshape_output_0'], [6, 64], 'Shape→Slice→ReduceProd→Concat→Reshape folded');
});

test('cli onnx: human output lists summary, inputs, operators, ranks and findings', async () => {
  const r = await run(join(FIX, 'rejected.onnx'));
  assert.equal(r.code, 0);
  assert.match(r.out, /IR 8, opsets ai\.onnx 16/);
  assert.match(r.out, /inputs:\n  feat  float32\[1,4,8,8\]\n  tokens  int64\[1,7\]/);
  assert.match(r.out, /tensor ranks:\n  rank 2: 3, rank 3: 12, rank 4: 8/);
  assert.match(r.out, /error   onnx\/unsupported-op \[\/head\/TopK\] \(high confidence\)/);
  assert.match(r.out, /evidence: .*YOLO26n/);
});

for (const [file, pattern] of [
  ['truncated.onnx', /truncated/],
  ['corrupt.onnx', /offset 2/],
  ['not_onnx.onnx', /not an ONNX model/],
  ['empty.onnx', /empty/],
  ['does-not-exist.onnx', /cannot open/],
] as const) {
  test(`cli onnx: ${file} → exit 2 with a clear message, nothing on stdout`, async () => {
    const r = await run('--json', join(FIX, file));
    assert.equal(r.code, 2);
    assert.equal(r.out, '');
    assert.match(r.err, /not readable ONNX/);
    assert.match(r.err, pattern);
  });
}

test('cli onnx: usage errors exit 2; --help exits 0', async () => {
  assert.equal((await run()).code, 2);
  assert.equal((await run('--frob', 'x.onnx')).code, 2);
  assert.equal((await run('a.onnx', 'b.onnx')).code, 2);
  const h = await run('--help');
  assert.equal(h.code, 0);
  assert.match(h.out, /--shapes/);
});

test('cli onnx: the bundled bin prints parseable JSON and exits 0 (built by esbuild)', () => {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'onnx', '--json', join(FIX, 'cnn.onnx')], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).outputs[0].shape.join('x'), '1x10');
  const bad = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'onnx', join(FIX, 'truncated.onnx')], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
});
