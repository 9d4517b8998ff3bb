// `hailo-tools accuracy`: the same document as the pure table, --json; exit 1 when a context
// crashed or disagrees, 2 for usage and unreadable input. The emulator runs in the fake docker
// (driver/hailo_emulate.py against the fake DFC), the float model in onnxruntime-node.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { runAccuracy } from '../../../server/src/cli/accuracy';
import { FAKE_DOCKER, fakeDocker } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

const MODEL = join(repoRoot, 'examples', 'model');
async function run(...args: string[]) {
  const io = captureIO();
  // Through main() for usage errors; with the built float worker (dist/ortWorker.js) when it runs.
  const code = args.length < 4 ? await main(['accuracy', ...args], io) : await runAccuracy(args, io, { ortWorker: join(repoRoot, 'dist', 'ortWorker.js') });
  return { code, out: io.outText, err: io.errText };
}

test('--json: a crashed SDK_BIT_EXACT is a row and a flag (exit 1); seeded inputs drawn like the calibration set', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-accuracy-cli-'));
  const fd = fakeDocker();
  process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
  try {
    writeFileSync(join(dir, 'scenario.json'), JSON.stringify({ emulate: { SDK_BIT_EXACT: { raise: 'InferenceError', message: 'conv2_1/act_op_1/pow' } } }));
    fd.configure({ scenario: join(dir, 'scenario.json') });
    const r = await run(
      '--json',
      '--onnx',
      join(MODEL, 'tinycnn.onnx'),
      '--har',
      join(MODEL, 'tinycnn_hailo_model.har'),
      '--alls',
      join(MODEL, 'tinycnn.alls'),
      '--calib',
      join(MODEL, 'tinycnn_calib.npy'),
      '--count',
      '2',
      '--contexts',
      'bit_exact',
      '--docker',
      FAKE_DOCKER,
    );
    assert.equal(r.code, 1, r.err);
    const doc = JSON.parse(r.out);
    assert.deepEqual(Object.keys(doc), ['version', 'inputs', 'calibration', 'threshold', 'oracles', 'outputs', 'flags']);
    assert.equal(doc.inputs.count, 2);
    assert.match(doc.inputs.text, /seed 1171.*calibration set's mean\/std.*rounded/);
    assert.equal(doc.outputs[0].rows[0].status, 'ok', doc.outputs[0].rows[0].message);
    assert.deepEqual(
      doc.oracles.map((x: { id: string; status: string }) => `${x.id}:${x.status}`),
      ['float:ok', 'bit_exact:crashed', 'device:unavailable'],
    );
    assert.match(doc.flags.join('\n'), /SDK_BIT_EXACT crashed: InferenceError: conv2_1\/act_op_1\/pow/);
    assert.deepEqual(fd.containers(), []);
  } finally {
    fd.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('usage and unreadable input exit 2 with one sentence', async () => {
  assert.equal((await run()).code, 2);
  assert.equal((await run('--onnx', 'x.onnx')).code, 2);
  const bad = await run('--onnx', join(MODEL, 'tinycnn.onnx'), '--har', join(MODEL, 'tinycnn_hailo_model.har'), '--contexts', 'quantised');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /unknown context quantised \(known: native, fp_optimized, quantized, bit_exact\)/);
  const missing = await run('--onnx', join(MODEL, 'tinycnn.onnx'), '--har', join(MODEL, 'nope.har'), '--contexts', 'none');
  assert.equal(missing.code, 2);
  assert.match(missing.err, /^hailo-tools accuracy: The HAR .*nope\.har cannot be read/);
});
