// Every file a command takes may be named relative to the caller's folder, as a user types it:
// `hailo-tools` runs here from a folder outside the repository (bin/hailo-tools.js in a child
// process whose cwd is that folder) and each command gets relative paths. Where a path crosses into
// another process — the onnxruntime worker (runs in the temp folder), the emulator's container
// (bind mounts; the fake docker refuses a relative source as dockerd does), the compile, noise and
// diverge containers — it must have been resolved against the caller's folder first. (run and
// chat, which cross into the device worker: test/device/cli-relative-paths.test.ts.)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeNpyFloat32 } from '../../../server/src/core/calib/npyRead';
import { FAKE_DOCKER, fakeDocker, NEEDS_PYTHON, scenario, type FakeDocker } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';

let caller: string;
before(() => {
  caller = mkdtempSync(join(tmpdir(), 'hailo-cli-relative-'));
  mkdirSync(join(caller, 'models'));
  for (const f of ['tinycnn.onnx', 'tinycnn.alls', 'tinycnn_hailo_model.har', 'tinycnn_quantized.har', 'tinycnn_calib.npy'])
    copyFileSync(join(repoRoot, 'examples', 'model', f), join(caller, 'models', f));
  mkdirSync(join(caller, 'hefs'));
  copyFileSync(join(repoRoot, 'examples', 'qwen3vl-vision-encoder.hef'), join(caller, 'hefs', 'encoder.hef'));
  mkdirSync(join(caller, 'logs'));
  for (const f of ['run.log', 'model.alls']) copyFileSync(join(repoRoot, 'test', 'fixtures', 'dfc', 'gpu-oom', f), join(caller, 'logs', f));
});
after(() => rmSync(caller, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), ...args], { cwd: caller, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

test('check: a relative script and HAR are read from the caller folder; the report names the script as typed', async () => {
  const r = await cli(['check', '--json', '--har', 'models/tinycnn_hailo_model.har', 'models/tinycnn.alls']);
  assert.equal(r.code, 0, r.stderr);
  const [file] = JSON.parse(r.stdout).files;
  assert.equal(file.path, 'models/tinycnn.alls');
  assert.equal(file.model.har, join(caller, 'models', 'tinycnn_hailo_model.har'));
  assert.equal(file.model.layers, 15, 'the HAR was read (tinycnn has 15 HN layers)');
});

test('hef, onnx, calib, dfc-log: relative inputs are read from the caller folder', async () => {
  const hef = await cli(['hef', 'hefs/encoder.hef']);
  assert.equal(hef.code, 0, hef.stderr);
  assert.match(hef.stdout, new RegExp(`^HEF: hefs/encoder\\.hef \\(${statSync(join(caller, 'hefs', 'encoder.hef')).size.toLocaleString('en-US')} bytes\\)`));

  const onnx = await cli(['onnx', 'models/tinycnn.onnx']);
  assert.equal(onnx.code, 0, onnx.stderr);
  assert.match(onnx.stdout, /^models\/tinycnn\.onnx\n/);

  const calib = await cli(['calib', '--alls', 'models/tinycnn.alls', 'models/tinycnn_calib.npy']);
  assert.notEqual(calib.code, 2, calib.stderr);
  assert.match(calib.stdout, /checked against: script tinycnn\.alls, HAR tinycnn_hailo_model\.har/);

  // test/fixtures/dfc/gpu-oom/expected.json: the error lands on model.alls line 5, column 69.
  const log = await cli(['dfc-log', '--json', '--alls', 'logs/model.alls', 'logs/run.log']);
  assert.equal(log.code, 1, log.stderr);
  const [d] = JSON.parse(log.stdout).diagnostics;
  assert.deepEqual([d.path, d.line, d.column, d.code], ['logs/model.alls', 5, 69, 'dfc/gpu-memory']);
});

test('accuracy: the float reference (onnxruntime worker) and the emulator (bind mounts) run on relative --onnx and --har', { skip: NEEDS_PYTHON }, async () => {
  const fd: FakeDocker = fakeDocker();
  try {
    // The fake DFC replays SDK_NATIVE's outputs: two inputs of tinycnn's fc1 (10 values each).
    writeNpyFloat32(join(fd.dir, 'native.npy'), [2, 1, 1, 10], new Float32Array(20).fill(0.5));
    writeFileSync(join(fd.dir, 'scenario.json'), JSON.stringify({ emulate: { SDK_NATIVE: { outputs: ['native.npy'] } } }));
    fd.configure({ scenario: join(fd.dir, 'scenario.json') });
    const r = await cli(
      [
        'accuracy',
        '--json',
        '--onnx',
        'models/tinycnn.onnx',
        '--har',
        'models/tinycnn_hailo_model.har',
        '--count',
        '2',
        '--contexts',
        'native',
        '--docker',
        FAKE_DOCKER,
      ],
      { HAILO_FAKE_DOCKER_STATE: fd.dir },
    );
    assert.notEqual(r.code, 2, r.stderr);
    const doc = JSON.parse(r.stdout) as { oracles: { id: string; status: string; message?: string }[] };
    assert.deepEqual(
      doc.oracles.map((o) => `${o.id}:${o.status}`),
      ['float:ok', 'native:ok', 'device:unavailable'],
      JSON.stringify(doc.oracles),
    );
    const run = fd.argv().find((a) => a[0] === 'run');
    assert.ok(run, 'docker run was called');
    const sources = run.filter((a) => a.startsWith('type=bind')).map((a) => /source=([^,]+)/.exec(a)?.[1] ?? '');
    assert.ok(sources.includes(join(caller, 'models')), `the HAR's folder is mounted by its absolute path: ${sources.join(' ')}`);
    assert.deepEqual(fd.containers(), []);
  } finally {
    fd.cleanup();
  }
});

test('compile: a relative model, script, calibration set and output folder; outputs land in the caller folder', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker();
  try {
    const r = await cli(
      [
        'compile',
        '--json',
        '--docker',
        FAKE_DOCKER,
        '--alls',
        'models/tinycnn.alls',
        '--calib',
        'models/tinycnn_calib.npy',
        '--out',
        'out',
        'models/tinycnn.onnx',
      ],
      { HAILO_FAKE_DOCKER_STATE: fd.dir },
    );
    assert.equal(r.code, 0, r.stderr);
    const report = JSON.parse(r.stdout) as { outcome: string; outputs: { hef: string | null } };
    assert.equal(report.outcome, 'success');
    assert.equal(report.outputs.hef, join(caller, 'out', 'tinycnn.hef'));
    assert.ok(existsSync(join(caller, 'out', 'tinycnn.hef')));
    assert.ok(readFileSync(join(caller, 'out', 'tinycnn.dfc.log'), 'utf8').length > 0, 'the console is saved beside the outputs');
    assert.deepEqual(fd.containers(), []);
  } finally {
    fd.cleanup();
  }
});

test('noise: a relative HAR and calibration set; the figures are saved beside the HAR in the caller folder', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker({ scenario: scenario('noise') });
  try {
    const r = await cli(['noise', '--json', '--docker', FAKE_DOCKER, '--calib', 'models/tinycnn_calib.npy', 'models/tinycnn_quantized.har'], {
      HAILO_FAKE_DOCKER_STATE: fd.dir,
    });
    assert.notEqual(r.code, 2, r.stderr);
    // test/unit/noise/noise-run.test.ts: the fake DFC's statistics put conv3 and deconv1 at or below 10 dB.
    assert.match(r.stdout, /quantization_param\(\[conv3, deconv1\], precision_mode=a16_w16\)/);
    assert.ok(existsSync(join(caller, 'models', 'tinycnn_quantized.noise.json')));
    assert.deepEqual(fd.containers(), []);
  } finally {
    fd.cleanup();
  }
});

test('diverge: relative --onnx, --har, --inputs and --alls reach the float worker and the emulator container', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker();
  try {
    const r = await cli(
      [
        'diverge',
        '--json',
        '--docker',
        FAKE_DOCKER,
        '--onnx',
        'models/tinycnn.onnx',
        '--har',
        'models/tinycnn_quantized.har',
        '--inputs',
        'models/tinycnn_calib.npy',
        '--alls',
        'models/tinycnn.alls',
      ],
      { HAILO_FAKE_DOCKER_STATE: fd.dir },
    );
    // This scenario replays no per-layer outputs: the run gets as far as the fake DFC in the
    // container, which says so — the mounts were accepted (a relative source is refused).
    assert.doesNotMatch(r.stdout + r.stderr, /doesn't exist|must be absolute|no such file/i);
    assert.match(JSON.parse(r.stdout).message, /fake DFC: the scenario has no inter-layer outputs for SDK_QUANTIZED/);
    assert.deepEqual(fd.containers(), []);
  } finally {
    fd.cleanup();
  }
});
