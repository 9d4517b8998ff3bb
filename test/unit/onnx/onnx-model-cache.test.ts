// The sweep's ONNX cache: one parse per file version for everything a sweep asks of a model, and a
// dry-run sweep of several variants of one ONNX model parses it once (it parsed it once per variant).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OnnxModelCache } from '../../../server/src/core/onnx/modelCache';
import { readOnnxFile } from '../../../server/src/core/onnx/reader';
import { readPlan } from '../../../server/src/core/sweep/plan';
import { runSweep } from '../../../server/src/processes/sweep/run';
import { trustedLauncher } from '../../../server/src/processes/compile/launcher';
import { commandLineTrust } from '../../../server/src/core/common/trust';
import { repoRoot } from '../../helpers/shared';

const MODEL = join(repoRoot, 'examples', 'model');

test('one parse per file version: the same model object, derived values computed once, a rewritten file read again, a bad file fails the same way', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-onnx-cache-'));
  try {
    const onnx = join(dir, 'tinycnn.onnx');
    copyFileSync(join(MODEL, 'tinycnn.onnx'), onnx);
    const cache = new OnnxModelCache();
    const a = cache.read(onnx);
    assert.equal(cache.read(onnx), a);
    assert.deepEqual(
      a.graph.nodes.map((n) => n.opType),
      readOnnxFile(onnx).graph.nodes.map((n) => n.opType),
    );
    let computed = 0;
    const count = () => cache.derive(onnx, 'nodes', (m) => (computed++, m.graph.nodes.length));
    assert.equal(count(), a.graph.nodes.length);
    assert.equal(count(), a.graph.nodes.length);
    assert.equal(computed, 1);
    assert.equal(cache.parses, 1);
    // The file changes (a new mtime): it is parsed again.
    const later = new Date(Date.now() + 5000);
    utimesSync(onnx, later, later);
    assert.notEqual(cache.read(onnx), a);
    assert.equal(cache.parses, 2);
    const bad = join(dir, 'bad.onnx');
    writeFileSync(bad, Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f]));
    const first = (() => {
      try {
        cache.read(bad);
      } catch (err) {
        return err as Error;
      }
    })();
    assert.ok(first instanceof Error);
    assert.throws(
      () => cache.read(bad),
      (err) => err === first,
    );
    assert.equal(cache.parses, 3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a sweep of four variants of one ONNX model (and the same ONNX as the float model) parses it once', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-onnx-cache-'));
  try {
    for (const f of ['tinycnn.onnx', 'tinycnn.alls', 'tinycnn_calib.npy']) copyFileSync(join(MODEL, f), join(dir, f));
    const planPath = join(dir, 'tiny.sweep.json');
    writeFileSync(
      planPath,
      JSON.stringify({
        model: 'tinycnn.onnx',
        alls: 'tinycnn.alls',
        calibration: 'tinycnn_calib.npy',
        hwArch: 'hailo10h',
        axes: { optimization_level: [0, 1], compression_level: [0, 1] },
        accuracy: { count: 2 },
      }),
    );
    const onnxCache = new OnnxModelCache();
    const launch = trustedLauncher(commandLineTrust('onnx cache tests'));
    const doc = await runSweep(readPlan(planPath), {
      launch,
      driverDir: join(repoRoot, 'driver'),
      dockerPath: 'docker',
      extraRunArgs: [],
      dryRun: true,
      onnxCache,
    });
    assert.equal(doc.rows.length, 4);
    assert.ok(onnxCache.reads >= 5, `asked ${onnxCache.reads} times (a key per variant and the accuracy key)`);
    assert.equal(onnxCache.parses, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
