// The sweep's FPS/latency column on the fake libhailort (test/fake-hailort: a simulated Hailo-10H
// whose frame rate and latency are set by FAKE_HAILORT_FPS / FAKE_HAILORT_LATENCY_US): a variant
// compiled on the fake docker is run through the device worker and its row carries the device's
// numbers; with no device attached the cell says so in one sentence and the variant stays done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLineTrust } from '../../server/src/core/common/trust';
import { trustedLauncher } from '../../server/src/processes/compile/launcher';
import { readPlan } from '../../server/src/core/sweep/plan';
import { runSweep } from '../../server/src/processes/sweep/run';
import { measureOnDevice } from '../../server/src/processes/sweep/deviceMeasure';
import { writeFacts } from '../fakes/fakeHailort';
import { useFakeDevice } from '../fakes/fakeDeviceClients';
import { DRIVER_DIR, FAKE_DOCKER, fakeDocker, scenario, NEEDS_PYTHON } from '../fakes/fakeDocker';
import { repoRoot } from '../helpers/shared';

const MODEL = join(repoRoot, 'examples', 'model');
// The fake DFC's compile() returns this HEF's bytes when no hailo-config.json is embedded.
const COMPILED = join(repoRoot, 'examples', 'qwen3vl-vision-encoder-no-config.hef');
let facts: string;
const device = useFakeDevice('sweep-device', {
  prepare: async (setup) => {
    facts = join(setup.dir, 'sweep-facts.tsv');
    await writeFacts([COMPILED], facts);
  },
});

const client = (extra: Record<string, string> = {}) => device.client({ FAKE_HAILORT_FPS: '400', FAKE_HAILORT_LATENCY_US: '2000', ...extra }, { facts });

test(
  'a compiled variant is measured on the device: FPS and latency as the fake device is set (400 frames/s, 2 ms)',
  { skip: NEEDS_PYTHON, timeout: 180_000 },
  async () => {
    const fd = fakeDocker({ scenario: scenario('sweep') });
    process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
    const dir = mkdtempSync(join(tmpdir(), 'hailo-sweep-device-'));
    try {
      for (const f of ['tinycnn_hailo_model.har', 'tinycnn.alls', 'tinycnn_calib.npy']) copyFileSync(join(MODEL, f), join(dir, f));
      writeFileSync(
        join(dir, 'd.sweep.json'),
        JSON.stringify({
          model: 'tinycnn_hailo_model.har',
          alls: 'tinycnn.alls',
          calibration: 'tinycnn_calib.npy',
          hwArch: 'hailo10h',
          device: { frames: 200 },
        }),
      );
      const dc = client();
      const doc = await runSweep(readPlan(join(dir, 'd.sweep.json')), {
        launch: trustedLauncher(commandLineTrust('sweep device test')),
        driverDir: DRIVER_DIR,
        dockerPath: FAKE_DOCKER,
        extraRunArgs: [],
        measure: (hef, frames) => measureOnDevice(dc, hef, frames),
      });
      const row = doc.rows[0];
      assert.equal(row.state, 'done', row.message ?? '');
      assert.equal(row.device?.status, 'ok', JSON.stringify(row.device));
      if (row.device?.status !== 'ok') return;
      // The fake device cannot go faster than its configured rate, nor answer a frame sooner than its latency.
      assert.ok(row.device.fps > 0 && row.device.fps <= 400 * 1.05, `fps ${row.device.fps}`);
      assert.ok(row.device.latencyP50Ms! >= 2, `p50 ${row.device.latencyP50Ms}`);
      assert.ok(row.device.latencyP99Ms! >= row.device.latencyP50Ms!);
    } finally {
      fd.cleanup();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test('no device attached: the cell says so in one sentence', async () => {
  const m = await measureOnDevice(client({ FAKE_HAILORT_FAULT: 'no-device' }), COMPILED, 50);
  assert.deepEqual(m, { unavailable: 'no Hailo device is attached' });
});
