// The device column of the accuracy table on the fake libhailort: the same inputs through
// DeviceClient (float32 I/O: HailoRT de-quantises with the HEF's zero point and scale). The fake
// device is not the network — its outputs are a deterministic function of the input bytes,
// de-quantised as HailoRT documents ((q − zp) × scale, q a byte) — so the checks are: every value
// is such a de-quantised byte, the same inputs give the same column, the column is compared with
// float like any oracle (and, not being the network, flagged), and no device is one sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandLineTrust } from '../../server/src/core/common/trust';
import { deviceOutputs } from '../../server/src/processes/accuracy/deviceOracle';
import { compareOracles } from '../../server/src/processes/accuracy/compare';
import { locateOnnxRuntime, runOnnxInWorker } from '../../server/src/processes/accuracy/ortProcess';
import { writeNpyFloat32 } from '../../server/src/core/calib/npyRead';
import { buildHef } from '../helpers/hefBuilder';
import { tinycnnSpec, TINYCNN_SCALE, TINYCNN_ZP } from '../helpers/inlineHefs';
import { writeFacts } from '../fakes/fakeHailort';
import { useFakeDevice } from '../fakes/fakeDeviceClients';
import { seededPixels } from '../helpers/tinycnnOracle';
import { repoRoot } from '../helpers/shared';

const MODEL = join(repoRoot, 'examples', 'model');
const ZP = TINYCNN_ZP;
const SCALE = TINYCNN_SCALE;
let hef: string;
let facts: string;
const device = useFakeDevice('accuracy-device', {
  prepare: async (setup) => {
    hef = join(setup.dir, 'tinycnn.hef');
    writeFileSync(hef, await buildHef(tinycnnSpec()));
    facts = join(setup.dir, 'tinycnn-facts.tsv');
    await writeFacts([hef], facts);
  },
});

const client = (extra: Record<string, string> = {}) => device.client(extra, { facts });

test('device column: one float32 output per input, each value a de-quantised byte; the same inputs give the same column', async () => {
  const c = client();
  const inputs = { shape: [3, 64, 64, 3], data: seededPixels(3, 5) };
  const a = await deviceOutputs(c, hef, inputs);
  assert.ok('outputs' in a, JSON.stringify(a));
  assert.deepEqual(Object.keys(a.outputs), ['fc1']);
  assert.equal(a.outputs.fc1.length, 3);
  for (const v of a.outputs.fc1) {
    assert.equal(v.length, 10);
    for (const x of v) {
      const q = x / SCALE + ZP;
      assert.ok(Math.abs(q - Math.round(q)) < 1e-3 && q >= -0.001 && q <= 255.001, `${x} is not (q − ${ZP}) × ${SCALE} for a byte q`);
    }
  }
  const b = await deviceOutputs(c, hef, inputs);
  assert.ok('outputs' in b);
  assert.deepEqual(
    b.outputs.fc1.map((v) => Array.from(v)),
    a.outputs.fc1.map((v) => Array.from(v)),
  );
  assert.notDeepEqual(Array.from(a.outputs.fc1[0]), Array.from(a.outputs.fc1[1]), 'different inputs, different outputs');
});

test('device column in the table: compared with float like any oracle, the calibration beside it; no device is one sentence', async () => {
  const ort = locateOnnxRuntime(undefined, [repoRoot]);
  assert.ok('packageDir' in ort);
  const trust = commandLineTrust('test');
  const dir = join(device.setup.dir, 'table');
  mkdirSync(dir, { recursive: true });
  const inputs = join(dir, 'inputs.npy');
  writeNpyFloat32(inputs, [2, 64, 64, 3], seededPixels(2, 9));
  const infer = async (feeds: Record<string, { dims: number[]; data: Float32Array }>) =>
    (
      await runOnnxInWorker(
        trust,
        { ortPackage: ort.packageDir, onnx: join(MODEL, 'tinycnn.onnx'), feeds },
        { workerPath: join(repoRoot, 'dist', 'ortWorker.js') },
      )
    ).outputs;
  const req = {
    onnx: join(MODEL, 'tinycnn.onnx'),
    har: join(MODEL, 'tinycnn_hailo_model.har'),
    alls: join(MODEL, 'tinycnn.alls'),
    calib: join(MODEL, 'tinycnn_calib.npy'),
    inputsNpy: inputs,
    contexts: [],
    workDir: dir,
  };
  const c = client();
  const doc = await compareOracles(req, { infer, device: (i) => deviceOutputs(c, hef, i) });
  const row = doc.outputs[0].rows.find((r) => r.oracle === 'device')!;
  assert.equal(row.status, 'ok', row.message);
  assert.ok(row.vsFloat && row.vsFloat.count === 20);
  assert.match(row.calibration!, /^integers in 0–255/);
  assert.ok(row.flag, 'the fake device is not the network: it disagrees with float and says so');

  const none = client({ FAKE_HAILORT_FAULT: 'no-device' });
  const doc2 = await compareOracles(req, { infer, device: (i) => deviceOutputs(none, hef, i) });
  const r2 = doc2.outputs[0].rows.find((r) => r.oracle === 'device')!;
  assert.equal(r2.status, 'unavailable');
  assert.ok(r2.message && !r2.message.includes('\n'), r2.message);
});

test('hailo-tools accuracy --hef: the device row in the --json document (emulator skipped with --contexts none)', async () => {
  const { runAccuracy } = await import('../../server/src/cli/accuracy');
  let out = '';
  let err = '';
  const code = await runAccuracy(
    [
      '--json',
      '--onnx',
      join(MODEL, 'tinycnn.onnx'),
      '--har',
      join(MODEL, 'tinycnn_hailo_model.har'),
      '--alls',
      join(MODEL, 'tinycnn.alls'),
      '--count',
      '2',
      '--contexts',
      'none',
      '--hef',
      hef,
    ],
    { out: (t) => (out += t), err: (t) => (err += t) },
    { ortWorker: join(repoRoot, 'dist', 'ortWorker.js'), device: client() },
  );
  assert.equal(code, 1, err); // the fake device disagrees with float: flagged
  const doc = JSON.parse(out);
  assert.deepEqual(
    doc.oracles.map((x: { id: string; status: string }) => `${x.id}:${x.status}`),
    ['float:ok', 'device:ok'],
  );
  assert.equal(doc.outputs[0].rows[1].vsFloat.count, 20);
});
