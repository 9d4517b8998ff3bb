// `hailo-tools calib`: exit 0 with no warning, 1 with warnings, 2 for usage or an unreadable file;
// --json is exactly the document; --alls brings the script's calibset_size/normalization
// and the HAR beside it (the layout is then checked against the HN input layer).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { repoRoot } from '../../helpers/shared';

async function run(...args: string[]) {
  let out = '';
  let err = '';
  const code = await main(['calib', ...args], { out: (t) => (out += t), err: (t) => (err += t) });
  return { code, out, err };
}
const fx = (f: string) => join(repoRoot, 'test', 'fixtures', 'calib', f);
const example = join(repoRoot, 'examples', 'model');

test('the example set beside tinycnn.alls: NHWC against the HAR, no warning, exit 0', async () => {
  const r = await run('--json', '--alls', join(example, 'tinycnn.alls'), join(example, 'tinycnn_calib.npy'));
  assert.equal(r.code, 0, r.err);
  const doc = JSON.parse(r.out);
  assert.deepEqual(Object.keys(doc), ['dtype', 'shape', 'layout', 'count', 'channels', 'findings']);
  assert.equal(doc.dtype, 'uint8');
  assert.deepEqual(doc.shape, [64, 64, 64, 3]);
  assert.equal(doc.layout, 'NHWC');
  assert.equal(doc.count, 64);
  assert.equal(doc.channels.length, 3);
  assert.deepEqual(doc.findings, []);
});

test('warnings exit 1: NCHW against the ONNX input, too few entries for calibset_size', async () => {
  const r = await run('--json', '--onnx', join(example, 'tinycnn.onnx'), fx('pixels_nchw_u8.npy'));
  assert.equal(r.code, 1);
  const doc = JSON.parse(r.out);
  // [1,3,64,64] wants (N,64,64,3): an (N,3,8,8) set fits neither order.
  assert.equal(doc.layout, 'unknown');
  assert.ok(doc.findings.some((f: { code: string }) => f.code === 'calib/shape'));
  const few = await run('--json', fx('few_nhwc_u8.npy'));
  assert.equal(few.code, 1);
  assert.ok(JSON.parse(few.out).findings.some((f: { code: string; severity: string }) => f.code === 'calib/too-few' && f.severity === 'warning'));
});

test('text output: a table per channel and the findings, then a count line', async () => {
  const r = await run(fx('constdup_nhwc_u8.npy'));
  assert.equal(r.code, 1);
  assert.match(r.out, /^constdup_nhwc_u8\.npy: uint8 \(64, 8, 8, 3\), 64 entries, layout NHWC/);
  assert.match(r.out, /^channel +min +max +mean +std +histogram/m);
  assert.match(r.out, /^warning calib\/constant-entries: 2 of 64 entries are constant/m);
  assert.match(r.out, /^2 warnings, 0 info$/m);
});

test('exit 2: unreadable files (one line on stderr) and usage errors', async () => {
  for (const f of ['truncated.npy', 'huge_header.npy', 'structured.npy', 'bad_zip.npz', 'nope.npy']) {
    const r = await run('--json', fx(f));
    assert.equal(r.code, 2, f);
    assert.equal(r.out, '');
    assert.match(r.err, /^hailo-tools calib: .+\n$/);
  }
  assert.equal((await run()).code, 2);
  assert.equal((await run('--bogus', fx('few_nhwc_u8.npy'))).code, 2);
  assert.equal((await run('--alls')).code, 2);
  assert.equal((await run('--alls', fx('missing.alls'), fx('few_nhwc_u8.npy'))).code, 2);
});
