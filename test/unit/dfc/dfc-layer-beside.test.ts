// The optimizer's refusal quoted by its second sentence alone (`Desired shift is …, but op has only … data bits`, the
// DFC's NegativeSlopeExponentNonFixable message, test/fixtures/dfc-corpus/tune2/37), and the layer a note or a table
// row names beside it in the HN's `<network>/<layer>` form — dfc-corpus unseen11/58 showed the class; these are others.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const quantization = (log: string) => {
  const r = readDfcLog(log);
  return { r, d: r.diagnostics.find((d) => d.code === 'dfc/quantization-failed') };
};

test("quantization: the message's second sentence alone is the optimizer's refusal, at optimize", () => {
  const { r, d } = quantization('Tried again with 64 images, same result:\n\n    Desired shift is 12.0, but op has only 8 data bits\n');
  assert.ok(d);
  assert.equal(r.failedStage, 'optimize');
  assert.match(d.message, /it needs a shift of 12\.0, the op has 8 data bits/);
});

test('quantization: the layer a note or a table row names beside the quoted message is the one it failed on', () => {
  for (const [log, layer] of [
    ['- `client_runner.optimize()` dies on `yolov8s/conv63` with `Desired shift is 12.0, but op has only 8 data bits`.\n', 'yolov8s/conv63'],
    ['| optimize | yolov5m_wo_spp/ew_add3 | Desired shift is 9.0, but op has only 8 data bits | open |\n', 'yolov5m_wo_spp/ew_add3'],
  ] as const) {
    const { d } = quantization(log);
    assert.ok(d, log);
    assert.match(d.message, new RegExp(`Quantization failed in layer ${layer} `), log);
  }
});

test('quantization: a file path beside the quoted message is no layer', () => {
  const { d } = quantization('See logs/optimize_run_02.txt: Desired shift is 9.0, but op has only 8 data bits\n');
  assert.ok(d);
  assert.doesNotMatch(d.message, /in layer/);
});
