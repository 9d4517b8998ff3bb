// The classes the sixth batch of users' logs (dfc-corpus unseen5/) showed the reader missing, each as a
// general mechanism (docs/dfc-log.md): a tool's complete answer ends its run (hailortcli run's progress
// at 100%, inference_progress.cpp; hailomz info's card), an author's ✅ before a line they quote, a
// catalogue message wrapped at its own sentence end, argparse's `invalid choice: 'X'` quoted in prose,
// a DFC class whose name alone says what was refused ending a sentence, and a GenAI model failing with a
// status in an author's words. Lines here are written for these tests in the tools' own formats.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (text: string) => readDfcLog(text, { logPath: 'run.log' });
const codes = (text: string) => [...new Set(read(text).diagnostics.map((d) => d.code))];

test("hailortcli run's progress line at 100% ends the run; below 100% it does not", () => {
  const done = read('$ hailortcli run yolov8n.hef --frames-count 100\nNetwork yolov8n/yolov8n: 100% | 100/100 | FPS: 120.50 | ETA: 00:00:00\n');
  assert.equal(done.outcome, 'success');
  const cut = read('$ hailortcli run yolov8n.hef --frames-count 100\nNetwork yolov8n/yolov8n: 40% | 40/100 | FPS: 120.50 | ETA: 00:00:01\n');
  assert.equal(cut.outcome, 'incomplete');
  // A timed run with latency measured prints no FPS (inference_progress.cpp): 100% still ends it.
  assert.equal(read('Network resnet/resnet: 100% | 300 | HW Latency: 3.12 ms | ETA: 00:00:00\n').outcome, 'success');
});

test("hailomz info's card is its complete answer; the model zoo YAML's bare numbers are not", () => {
  const card = [
    '<Hailo Model Zoo INFO> Start run for network resnet_v1_50 ...',
    '<Hailo Model Zoo INFO> ',
    '        task:                    classification',
    '        operations:              6.98G',
    '        parameters:              25.53M',
  ].join('\n');
  assert.equal(read(`${card}\n`).outcome, 'success');
  assert.equal(read('info:\n  parameters: 25.53\n  flops: 6.98\n').outcome, 'incomplete');
});

test("an author's ✅ before the DFC's own lines does not hide them; a ❌ keeps a line from reading as success", () => {
  const r = read(
    [
      'hailo optimize --hw-arch hailo8l model.har',
      '✅ Model Optimization is done',
      'hailo compiler --hw-arch hailo8l model_optimized.har',
      '✅ Found valid partition to 2 contexts',
      '✅ Generated: model.hef (4.1MB)',
    ].join('\n'),
  );
  assert.equal(r.outcome, 'success');
  assert.equal(read('hailo compiler --hw-arch hailo8l model_optimized.har\n❌ Generated: model.hef\n').outcome, 'incomplete');
});

test("a catalogue message wrapped at its own sentence end is read whole (HailoRT's device-arch refusal)", () => {
  const r = read(
    '    [HailoRT] HEF format is not compatible with device.\n              Device arch: HAILO8L, HEF arch: HAILO8\n\nSo pick the HEF at load time.\n',
  );
  assert.equal(r.outcome, 'failed');
  assert.deepEqual(codes('    [HailoRT] HEF format is not compatible with device.\n              Device arch: HAILO8L, HEF arch: HAILO8\n'), [
    'hailort/hef-device-mismatch',
  ]);
  assert.ok(r.diagnostics[0].message.includes('HAILO8L'), r.diagnostics[0].message);
});

test("argparse's `invalid choice: 'X'` quoted in prose refuses the run; the DFC's verbs say the DFC is not there", () => {
  const r = read(`1. Ran \`hailo parser onnx model.onnx\`\n2. Received error: "invalid choice: 'parser'"\n`);
  assert.equal(r.outcome, 'failed');
  assert.deepEqual(codes(`Received error: "invalid choice: 'parser'"\n`), ['dfc/usage']);
  assert.match(r.diagnostics[0].message, /Dataflow Compiler/);
  assert.match(read(`hailomz: error: invalid choice: 'yolov9' (choose from 'yolov8n')\n`).diagnostics[0].message, /--help/);
});

test('a DFC class whose name alone says what was refused, ending a sentence, is that refusal; a generic class is not', () => {
  const r = read('- **Hailo cannot run the `Flatten -> FC` head.** `UnsupportedShuffleLayerError`.\n');
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'parse');
  assert.deepEqual(codes('It stopped with UnsupportedShuffleLayerError.\n'), ['dfc/unsupported-shuffle']);
  assert.deepEqual(codes('It stopped with a ValueError.\n'), []);
  assert.deepEqual(codes('Cutting at the convs avoids UnsupportedShuffleLayerError.\n'), []);
  assert.deepEqual(codes('No more UnsupportedShuffleLayerError.\n'), []);
});

test("a GenAI model failing with a status in an author's words gets the GenAI causes (the HEF's version among them)", () => {
  const r = read('**VLM fails with `HAILO_INVALID_OPERATION` / `HailoRTStatusException: 6`**\n');
  assert.equal(r.outcome, 'failed');
  assert.deepEqual(codes('VLM fails with HailoRTStatusException: 6\n'), ['hailort/status']);
  assert.match(r.diagnostics[0].message, /version/);
  assert.doesNotMatch(read('HailoRTStatusException: 6\n').diagnostics[0].message, /GenAI/);
});
