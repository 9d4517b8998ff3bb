// "Run on Device"'s float reference as the extension runs it (client/src/device/floatReference.ts):
// files found beside the HEF, the script's normalization, onnxruntime-node in its worker process,
// and numpy's figures (reference.json) on the page's document; each way it cannot run is one
// sentence with the fix the page offers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { floatReference } from '../../../client/src/device/floatReference';
import { commandLineTrust } from '../../../server/src/core/common/trust';
import type { RunReport, StreamInfo } from '../../../server/src/core/device/protocol';
import { rbBatchedReport } from '../../helpers/runFixtures';
import { repoRoot } from '../../helpers/shared';
import { writeTinyOnnx } from '../../helpers/tinyOnnx';

const fx = JSON.parse(readFileSync(join(repoRoot, 'test', 'fixtures', 'accuracy', 'reference.json'), 'utf8'));
const [H, W, C] = fx.hef.shape as number[];

function report(): RunReport {
  const r = rbBatchedReport();
  const s = (name: string, direction: 'input' | 'output', shape: [number, number, number], type: string, zp = 0, scale = 1): StreamInfo => ({
    name,
    direction,
    shape,
    order: 'NHWC',
    type,
    frameSize: 0,
    quant: [{ zp, scale, limMin: 0, limMax: 0 }],
    isNms: false,
  });
  r.model.inputs = [s(fx.hef.input, 'input', [H, W, C], 'UINT8')];
  r.model.outputs = [s(fx.hef.outputs[0], 'output', [H, W, C], 'UINT8', fx.hef.zp, fx.hef.scale), s(fx.hef.outputs[1], 'output', [1, 1, C], 'FLOAT32')];
  r.tensors = fx.tensors;
  return r;
}

test("float reference: the ONNX beside the HEF, the script's normalization, onnxruntime in its process → numpy's figures", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-ref-'));
  try {
    const hef = join(dir, 'tiny.hef');
    writeFileSync(hef, '');
    writeTinyOnnx(join(dir, 'tiny.onnx'), H, W, C);
    writeFileSync(join(dir, 'tiny.alls'), `normalization1 = normalization([${fx.normalization.mean.join(', ')}], [${fx.normalization.std.join(', ')}])\n`);
    const trust = commandLineTrust('test');
    const r = await floatReference(trust, hef, report(), { extensionPath: repoRoot });
    assert.equal(r.status, 'ok', JSON.stringify(r));
    if (r.status !== 'ok') return;
    assert.equal(r.onnx, 'tiny.onnx');
    assert.equal(r.onnxFoundBy, 'beside the HEF, same name');
    assert.equal(r.script, 'tiny.alls');
    const conv = r.comparison.outputs.find((o) => o.name === fx.hef.outputs[0])!;
    const e = fx.expected[fx.hef.outputs[0]];
    for (const k of ['maxAbsError', 'meanAbsError', 'relativeError', 'correlation', 'cosine'] as const) {
      assert.ok(Math.abs((conv.metrics[k] as number) - e[k]) <= 1e-9 * Math.max(1, Math.abs(e[k])), `${k}: ${conv.metrics[k]} vs numpy ${e[k]}`);
    }
    assert.match(r.calibration, /66\.65 % relative error .* 2\.44 %/);
    assert.equal(r.inputs, report().input.text);

    // Without the script the figures change (raw 0–255 values reach the float model), and it says so.
    rmSync(join(dir, 'tiny.alls'));
    const raw = await floatReference(trust, hef, report(), { extensionPath: repoRoot });
    assert.equal(raw.status, 'ok');
    if (raw.status === 'ok') {
      assert.match(raw.comparison.warnings.join(' '), /No normalization was found/);
      assert.ok(raw.comparison.outputs[0].metrics.relativeError! > 10 * e.relativeError);
    }
    // onnxruntime-node not where the setting says: skipped, with the setting as the fix.
    const noOrt = await floatReference(trust, hef, report(), { extensionPath: repoRoot, onnxRuntimePath: dir });
    assert.deepEqual([noOrt.status, noOrt.status !== 'ok' && noOrt.fix], ['skipped', 'set-onnxruntime']);
    // A broken model: failed, with onnxruntime's reason.
    writeFileSync(join(dir, 'tiny.onnx'), 'not a model');
    const broken = await floatReference(trust, hef, report(), { extensionPath: repoRoot });
    assert.equal(broken.status, 'failed');
    // No model at all: skipped, with "choose the ONNX" as the fix.
    rmSync(join(dir, 'tiny.onnx'));
    const none = await floatReference(trust, hef, report(), { extensionPath: repoRoot });
    assert.deepEqual(none, {
      status: 'skipped',
      fix: 'set-onnx',
      reason: 'No ONNX model was found for tiny.hef: none is named tiny.onnx beside it, no HAR beside it records one, and hailo.model.onnx is not set.',
      inputs: report().input.text,
      calibration: none.calibration,
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('float reference: the HAR beside the HEF names the ONNX (its recorded original model)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-ref-'));
  try {
    // examples/model: tinycnn_hailo_model.har records tinycnn.onnx; the HEF has another name.
    for (const f of ['tinycnn_hailo_model.har', 'tinycnn.onnx', 'tinycnn.alls'])
      writeFileSync(join(dir, f), readFileSync(join(repoRoot, 'examples', 'model', f)));
    const { findModelFiles } = await import('../../../server/src/core/accuracy/modelFiles');
    const files = await findModelFiles(join(dir, 'compiled.hef'));
    assert.equal(files.onnx?.path, join(dir, 'tinycnn.onnx'));
    assert.equal(files.onnx?.foundBy, 'the model tinycnn_hailo_model.har was parsed from');
    assert.equal(files.alls, join(dir, 'tinycnn.alls'));
    assert.equal(files.har, join(dir, 'tinycnn_hailo_model.har'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
