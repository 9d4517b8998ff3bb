// One table of every oracle. The pure table on arrays whose figures are known by construction
// (identical arrays: error 0, cosine 1; an array scaled by k: relative error |k − 1|, cosine 1);
// then the whole path: inputs → float ONNX with onnxruntime-node for real (its own worker process)
// → the emulate driver in the fake docker, whose fake DFC replays per-context outputs written as
// .npy → the table. Two contexts that agree are not flagged; SDK_BIT_EXACT six orders of
// magnitude off is; a context that raises InferenceError is a crashed row, the others still run.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildAccuracyDocument, type OracleRun } from '../../../server/src/core/accuracy/oracles';
import { compareOracles } from '../../../server/src/processes/accuracy/compare';
import { runEmulator, type EmulatorRequest } from '../../../server/src/processes/accuracy/emulator';
import { runOnnxInWorker, locateOnnxRuntime } from '../../../server/src/processes/accuracy/ortProcess';
import { writeNpyFloat32 } from '../../../server/src/core/calib/npyRead';
import { trustedLauncher } from '../../../server/src/processes/compile/launcher';
import { commandLineTrust } from '../../../server/src/core/common/trust';
import { DRIVER_DIR, FAKE_DOCKER, fakeDocker } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';
import { seededPixels, tinycnnFloatLogits, writeReplayedLogits } from '../../helpers/tinycnnOracle';

const f32 = (xs: number[]) => Float32Array.from(xs);

test('table: identical oracles are not flagged; a ×10⁶ context is, against float and against its neighbour; a crash is a row', () => {
  const y = [f32([1, -2, 3, 0.5]), f32([0.25, 4, -1, 2])];
  const scaled = y.map((a) => a.map((v) => v * 1e6));
  const runs: OracleRun[] = [
    { id: 'float', status: 'ok', outputs: { out: y } },
    { id: 'native', status: 'ok', outputs: { out: y.map((a) => a.slice()) } },
    { id: 'quantized', status: 'ok', outputs: { out: y.map((a) => a.slice()) } },
    { id: 'bit_exact', status: 'ok', outputs: { out: scaled } },
    { id: 'fp_optimized', status: 'crashed', message: 'InferenceError: conv2_1/act_op_1/pow' },
    { id: 'device', status: 'unavailable', message: 'no device attached' },
  ];
  const doc = buildAccuracyDocument({ outputs: ['out'], runs, inputs: { count: 2, text: 'two' }, calibration: 'standard normal-like' });
  const t = doc.outputs[0];
  assert.equal(t.size, 4);
  assert.deepEqual(
    t.rows.map((r) => r.oracle),
    ['float', 'native', 'fp_optimized', 'quantized', 'bit_exact', 'device'],
    'rows in a fixed order',
  );
  const row = (id: string) => t.rows.find((r) => r.oracle === id)!;
  assert.equal(row('native').vsFloat!.maxAbsError, 0);
  assert.equal(row('native').vsFloat!.relativeError, 0);
  assert.equal(row('native').vsFloat!.cosine, 1);
  assert.equal(row('native').flag, undefined);
  assert.equal(row('native').calibration, undefined, 'SDK_NATIVE does not depend on the calibration');
  assert.equal(row('quantized').calibration, 'standard normal-like', 'quantised figures carry the calibration distribution');
  // ‖(k−1)y‖/‖y‖ = k − 1 (float32 rounding of 1e6·y is exact for these values).
  assert.ok(Math.abs(row('bit_exact').vsFloat!.relativeError! - 999999) < 1e-3);
  assert.ok(Math.abs(row('bit_exact').vsFloat!.cosine! - 1) < 1e-12);
  assert.match(row('bit_exact').flag!, /relative error 1\.00e\+8 % > 10\.0 %/);
  assert.equal(row('fp_optimized').status, 'crashed');
  assert.equal(row('fp_optimized').vsFloat, undefined);
  assert.equal(row('device').status, 'unavailable');
  const pair = (a: string, b: string) => t.pairs.find((p) => p.reference === a && p.other === b)!;
  assert.equal(pair('native', 'quantized').flag, undefined, 'identical contexts are not flagged');
  assert.equal(pair('native', 'quantized').metrics.maxAbsError, 0);
  assert.ok(pair('quantized', 'bit_exact').flag, 'SDK_QUANTIZED vs SDK_BIT_EXACT disagreement is flagged');
  assert.ok(doc.flags.some((f) => /SDK_FP_OPTIMIZED crashed: InferenceError: conv2_1\/act_op_1\/pow/.test(f)));
  assert.ok(doc.flags.some((f) => /SDK_BIT_EXACT vs float.*\(calibration: standard normal-like\)/.test(f)));
  // error histogram: every value counted, 32 bins from 0 to max|err|
  const h = row('bit_exact').errorHistogram!;
  assert.equal(
    h.counts.reduce((a, b) => a + b, 0),
    8,
  );
  assert.equal(h.edges.length, 33);
  assert.equal(h.edges[32], row('bit_exact').vsFloat!.maxAbsError);
});

// ---- the whole path ------------------------------------------------------------------------------

const MODEL = join(repoRoot, 'examples', 'model');
const ONNX = join(MODEL, 'tinycnn.onnx');
const HAR = join(MODEL, 'tinycnn_hailo_model.har');
const ALLS = join(MODEL, 'tinycnn.alls');
const N = 4;

/** The float outputs computed here directly with onnxruntime-node (the replays are built from them). */
const floatLogits = (x: Float32Array) => tinycnnFloatLogits(x, N);

async function withScenario(emulate: Record<string, unknown>, run: (dir: string, fd: ReturnType<typeof fakeDocker>) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-accuracy-'));
  const fd = fakeDocker();
  process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
  try {
    writeFileSync(join(dir, 'scenario.json'), JSON.stringify({ emulate }));
    fd.configure({ scenario: join(dir, 'scenario.json') });
    await run(dir, fd);
  } finally {
    fd.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

function deps(trust = commandLineTrust('accuracy tests')) {
  const ort = locateOnnxRuntime(undefined, [repoRoot]);
  assert.ok('packageDir' in ort, JSON.stringify(ort));
  const launch = trustedLauncher(trust);
  return {
    infer: async (feeds: Record<string, { dims: number[]; data: Float32Array }>) =>
      (await runOnnxInWorker(trust, { ortPackage: ort.packageDir, onnx: ONNX, feeds }, { workerPath: join(repoRoot, 'dist', 'ortWorker.js') })).outputs,
    emulate: (r: EmulatorRequest) => runEmulator(r, { dockerPath: FAKE_DOCKER, gpus: 'none', extraRunArgs: [] }, { launch, driverDir: DRIVER_DIR }),
  };
}

const pixels = () => seededPixels(N, 7);

test('float (onnxruntime) + every emulator context (fake DFC in the fake docker): agreeing contexts unflagged, a ×10⁶ SDK_BIT_EXACT flagged', async () => {
  if (!existsSync(join(repoRoot, 'dist', 'ortWorker.js'))) throw new Error('run `npm run build` first (dist/ortWorker.js)');
  const x = pixels();
  const logits = await floatLogits(x);
  await withScenario({}, async (dir, fd) => {
    const rep = (name: string, f: (v: number) => number) => {
      writeReplayedLogits(join(dir, name), logits, f);
      return name;
    };
    // Quantised: rounded to 1/1024 — |err| ≤ 1/2048 by construction.
    const q = (v: number) => Math.round(v * 1024) / 1024;
    writeFileSync(
      join(dir, 'scenario.json'),
      JSON.stringify({
        emulate: {
          SDK_NATIVE: { outputs: [rep('native.npy', (v) => v)] },
          SDK_FP_OPTIMIZED: { outputs: [rep('fp.npy', (v) => v)] },
          SDK_QUANTIZED: { outputs: [rep('q.npy', q)] },
          SDK_BIT_EXACT: { outputs: [rep('bx.npy', (v) => q(v) * 1e6)] },
        },
      }),
    );
    const inputs = join(dir, 'inputs.npy');
    writeNpyFloat32(inputs, [N, 64, 64, 3], x);
    const doc = await compareOracles(
      {
        onnx: ONNX,
        har: HAR,
        alls: ALLS,
        calib: join(MODEL, 'tinycnn_calib.npy'),
        inputsNpy: inputs,
        contexts: ['native', 'fp_optimized', 'quantized', 'bit_exact'],
        workDir: dir,
      },
      deps(),
    );
    assert.equal(doc.inputs.count, N);
    assert.match(doc.calibration, /^integers in 0–255 \(image pixels\).*tinycnn_calib\.npy, 64 entries/);
    const t = doc.outputs[0];
    assert.equal(t.name, 'fc1');
    const row = (id: string) => t.rows.find((r) => r.oracle === id)!;
    for (const id of ['float', 'native', 'fp_optimized', 'quantized', 'bit_exact']) assert.equal(row(id).status, 'ok', `${id}: ${row(id).message}`);
    // SDK_NATIVE replays onnxruntime's own numbers: the worker's run of the same inputs matches.
    assert.ok(row('native').vsFloat!.maxAbsError < 1e-5, `native max|err| ${row('native').vsFloat!.maxAbsError}`);
    assert.ok(row('quantized').vsFloat!.maxAbsError <= 1 / 2048 + 1e-6, `quantized max|err| ${row('quantized').vsFloat!.maxAbsError}`);
    assert.equal(row('native').flag, undefined);
    assert.equal(row('quantized').flag, undefined);
    assert.ok(row('bit_exact').flag);
    const pair = (a: string, b: string) => t.pairs.find((p) => p.reference === a && p.other === b)!;
    assert.equal(pair('native', 'fp_optimized').flag, undefined);
    assert.equal(pair('native', 'fp_optimized').metrics.maxAbsError, 0);
    assert.ok(pair('quantized', 'bit_exact').flag);
    assert.ok(Math.abs(pair('quantized', 'bit_exact').metrics.relativeError! - 999999) < 1);
    assert.equal(row('device').status, 'unavailable');
    // The emulator got the HAR and the inputs through the real driver; the container is gone.
    const calls = fd.calls().filter((c) => c.method === 'infer');
    assert.deepEqual(
      calls.map((c) => c.args[0]),
      ['SDK_NATIVE', 'SDK_FP_OPTIMIZED', 'SDK_QUANTIZED', 'SDK_BIT_EXACT'],
    );
    assert.deepEqual((calls[0].args[1] as { ndarray: number[] }).ndarray, [N, 64, 64, 3]);
    assert.deepEqual(fd.containers(), []);
  });
});

test('a context that raises (the a8_w8 SDK_BIT_EXACT pow InferenceError) is a crashed row; the other contexts still run', async () => {
  const x = pixels();
  const logits = await floatLogits(x);
  await withScenario({}, async (dir) => {
    writeReplayedLogits(join(dir, 'q.npy'), logits, (v) => v);
    writeFileSync(
      join(dir, 'scenario.json'),
      JSON.stringify({
        emulate: {
          SDK_BIT_EXACT: { raise: 'InferenceError', message: 'Inference failed in layer tinycnn/conv2_1/act_op_1/pow' },
          SDK_QUANTIZED: { outputs: ['q.npy'] },
        },
      }),
    );
    const inputs = join(dir, 'inputs.npy');
    writeNpyFloat32(inputs, [N, 64, 64, 3], x);
    const doc = await compareOracles({ onnx: ONNX, har: HAR, alls: ALLS, inputsNpy: inputs, contexts: ['bit_exact', 'quantized'], workDir: dir }, deps());
    const t = doc.outputs[0];
    const bx = t.rows.find((r) => r.oracle === 'bit_exact')!;
    assert.equal(bx.status, 'crashed');
    assert.equal(bx.message, 'InferenceError: Inference failed in layer tinycnn/conv2_1/act_op_1/pow');
    assert.equal(t.rows.find((r) => r.oracle === 'quantized')!.status, 'ok');
    assert.match(doc.calibration, /^unknown/);
    assert.ok(doc.flags.some((f) => /SDK_BIT_EXACT crashed: InferenceError/.test(f)));
  });
});

test('docker missing: every emulator row says so in one sentence; float still runs', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-accuracy-'));
  try {
    const x = pixels();
    const inputs = join(dir, 'inputs.npy');
    writeNpyFloat32(inputs, [N, 64, 64, 3], x);
    const d = deps();
    const launch = trustedLauncher(commandLineTrust('accuracy tests'));
    const doc = await compareOracles(
      { onnx: ONNX, har: HAR, alls: ALLS, inputsNpy: inputs, contexts: ['native'], workDir: dir },
      {
        infer: d.infer,
        emulate: (r) => runEmulator(r, { dockerPath: join(dir, 'no-such-docker'), gpus: 'none', extraRunArgs: [] }, { launch, driverDir: DRIVER_DIR }),
      },
    );
    const row = doc.outputs[0].rows.find((r) => r.oracle === 'native')!;
    assert.equal(row.status, 'unavailable');
    assert.match(row.message!, /docker/i);
    assert.ok(!row.message!.includes('\n'));
    assert.equal(doc.outputs[0].rows.find((r) => r.oracle === 'float')!.status, 'ok');
    assert.ok(!existsSync(join(dir, '.hailo-compile-emulate')));
    void readFileSync;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
