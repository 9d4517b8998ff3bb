// Layer noise analysis run for the user, end to end: the real driver (driver/hailo_noise.py) in the
// fake docker against the fake DFC, whose analyze_noise returns None and fills
// get_params_statistics() as the real one does (scenario noise.json); the host reads the figures
// back, states the calibration set's distribution (the calibration core's words for
// tinycnn_calib.npy, as Compare Accuracy states them), writes <net>.noise.json beside the HAR, and
// picks the layers for 16 bits. A parsed HAR is refused before any docker call; a DFC exception is
// one sentence; `hailo-tools noise` prints the line and exits 1 when layers need more bits.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyzeNoise } from '../../../server/src/processes/noise/noiseRun';
import { readNoiseResults } from '../../../server/src/core/har/noise';
import { readHarView } from '../../../server/src/core/har/harView';
import { runNoise } from '../../../server/src/cli/noise';
import { trustedLauncher } from '../../../server/src/processes/compile/launcher';
import { commandLineTrust } from '../../../server/src/core/common/trust';
import { DRIVER_DIR, FAKE_DOCKER, NEEDS_PYTHON, fakeDocker, scenario } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';

const FIX = join(repoRoot, 'test', 'fixtures', 'har');
const CALIB = join(repoRoot, 'examples', 'model', 'tinycnn_calib.npy');
const launch = trustedLauncher(commandLineTrust('noise tests'));
const settings = { dockerPath: FAKE_DOCKER, gpus: 'none' as const, extraRunArgs: [] };

async function inFolder(name: string, run: (dir: string, fd: ReturnType<typeof fakeDocker>) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-noise-'));
  const fd = fakeDocker({ scenario: scenario(name) });
  process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
  try {
    copyFileSync(join(FIX, 'tinycnn_quantized.har'), join(dir, 'tinycnn_quantized.har'));
    copyFileSync(join(FIX, 'tinycnn_hailo_model.har'), join(dir, 'tinycnn_hailo_model.har'));
    copyFileSync(CALIB, join(dir, 'tinycnn_calib.npy'));
    await run(dir, fd);
  } finally {
    fd.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
}

test(
  'noise: analyze_noise in the container, figures read back worst first, the sidecar beside the HAR, the container gone',
  { skip: NEEDS_PYTHON },
  async () => {
    await inFolder('noise', async (dir, fd) => {
      const har = join(dir, 'tinycnn_quantized.har');
      const out = await analyzeNoise({ har, calibration: join(dir, 'tinycnn_calib.npy'), dataCount: 16, batchSize: 2, mode: 'simple' }, settings, {
        launch,
        driverDir: DRIVER_DIR,
      });
      assert.equal(out.status, 'ok', out.message);
      // the DFC calls the driver made, with the arguments the documented CLI takes
      const calls = fd.calls();
      const an = calls.find((c) => c.method === 'analyze_noise')!;
      assert.deepEqual(an.kwargs, { data_count: 16, batch_size: 2, analyze_mode: 'simple' });
      assert.deepEqual((an.args[0] as { ndarray: number[] }).ndarray, [16, 64, 64, 3], 'the first 16 entries of the set');
      assert.ok(calls.some((c) => c.method === 'get_params_statistics'));
      assert.deepEqual(fd.containers(), [], 'the container was removed');
      assert.deepEqual(
        readdirSync(dir).filter((f) => f.startsWith('.')),
        [],
        'no staging folder or partial file is left',
      );
      // the sidecar: the statistics verbatim, the calibration distribution in the calibration core's words
      assert.equal(out.resultsPath, join(dir, 'tinycnn_quantized.noise.json'));
      const saved = readNoiseResults(out.resultsPath!)!;
      assert.deepEqual(saved.statistics['tinycnn/conv3/layer_noise_analysis/noise_results/tinycnn/output_layer1'].length, 1);
      assert.ok(Math.abs(saved.statistics['tinycnn/conv3/layer_noise_analysis/noise_results/tinycnn/output_layer1'][0] - 6.3) < 1e-6);
      assert.match(saved.calibration.distribution, /^integers in 0–255 \(image pixels\).*tinycnn_calib\.npy, 64 entries/);
      assert.equal(saved.dataCount, 16);
      assert.equal(saved.mode, 'simple');
      // the report: worst first, output_layer1 not ranked, conv3 and deconv1 at or below 10 dB
      const r = out.report!;
      assert.deepEqual(
        r.layers.filter((l) => !l.unranked).map((l) => l.name),
        ['conv3', 'deconv1', 'fc1', 'concat1', 'conv2', 'dw1', 'conv1'],
      );
      assert.deepEqual(r.chosen, ['conv3', 'deconv1']);
      // the HAR view now reads the same figures
      const view = await readHarView(har);
      assert.equal(view.noise?.source, out.resultsPath);
      assert.equal(view.layers.find((l) => l.name === 'conv3')!.noise!.basis, 'noise_results');
    });
  },
);

test('noise: a parsed HAR is refused in one sentence before docker runs; a data count beyond the set too', { skip: NEEDS_PYTHON }, async () => {
  await inFolder('noise', async (dir, fd) => {
    const out = await analyzeNoise({ har: join(dir, 'tinycnn_hailo_model.har'), calibration: join(dir, 'tinycnn_calib.npy') }, settings, {
      launch,
      driverDir: DRIVER_DIR,
    });
    assert.equal(out.status, 'refused');
    assert.match(out.message!, /is a hailo_model archive: noise analysis .* needs the HAR optimize wrote \(e\.g\. tinycnn_optimized\.har/);
    const more = await analyzeNoise({ har: join(dir, 'tinycnn_quantized.har'), calibration: join(dir, 'tinycnn_calib.npy'), dataCount: 65 }, settings, {
      launch,
      driverDir: DRIVER_DIR,
    });
    assert.equal(more.status, 'refused');
    assert.match(more.message!, /--data-count 65 is more than the 64 entries of tinycnn_calib\.npy/);
    assert.deepEqual(fd.argv(), [], 'docker was never called');
  });
});

test('noise: the DFC raising inside analyze_noise is one sentence; nothing is written beside the HAR', { skip: NEEDS_PYTHON }, async () => {
  await inFolder('noise-crash', async (dir, fd) => {
    const out = await analyzeNoise({ har: join(dir, 'tinycnn_quantized.har'), calibration: join(dir, 'tinycnn_calib.npy'), mode: 'advanced' }, settings, {
      launch,
      driverDir: DRIVER_DIR,
    });
    assert.equal(out.status, 'failed');
    assert.equal(out.message, "The DFC's noise analysis failed: ValueError: Dimensions must be equal, but are 768 and 780");
    assert.equal(existsSync(join(dir, 'tinycnn_quantized.noise.json')), false);
    assert.deepEqual(fd.containers(), []);
  });
});

test(
  'hailo-tools noise: prints the figures worst first with the calibration set and the 16-bit line; exit 1 (layers need bits)',
  { skip: NEEDS_PYTHON },
  async () => {
    await inFolder('noise', async (dir) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runNoise(
        ['--count', '8', '--docker', FAKE_DOCKER, '--gpus', 'none', join(dir, 'tinycnn_quantized.har')],
        { out: (t) => void out.push(t), err: (t) => void err.push(t) },
        { driverDir: DRIVER_DIR, onInterrupt: () => () => undefined },
      );
      const text = out.join('');
      assert.equal(code, 1, err.join(''));
      assert.match(text, /default analysis on 8 entries of the calibration set \(integers in 0–255/, 'the calibration set found beside the HAR');
      assert.match(text, /^ {9}6\.30 {2}conv3 {2}<- SNR 6\.30 dB ≤ 10 dB$/m);
      assert.match(text, /add to the model script:\n {2}quantization_param\(\[conv3, deconv1\], precision_mode=a16_w16\)/);
      assert.match(err.join(''), /hailo-tools noise: analyze_noise/, 'the container console goes to stderr');
      const bad: string[] = [];
      assert.equal(await runNoise(['--mode', 'fast', 'x.har'], { out: () => undefined, err: (t) => void bad.push(t) }), 2);
      assert.match(bad.join(''), /--mode is simple or advanced/);
      JSON.parse(readFileSync(join(dir, 'tinycnn_quantized.noise.json'), 'utf8'));
    });
  },
);
