// Issue 20: which stage a failure belongs to, read only from what the log shows — a stage line,
// any of the lines only one stage prints (every optimization algorithm's, partitioning, the ONNX
// restore), the error's own traceback, or a one-stage command — else `unknown`, never a default.
// The lines are the DFC's own, from the public logs of test/fixtures/dfc/SOURCES.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { main } from '../../../server/src/cli/main';
import { repoRoot } from '../../helpers/shared';
import { join } from 'node:path';
import { captureIO } from '../../fakes/cliIO';

const VALUE_ERROR = "ValueError: Tried to convert 'input' to a tensor and failed. Error: None values not supported.\n";

test('dfc stages: an error with no stage line, no traceback and no command is in an unknown stage', () => {
  const r = readDfcLog(VALUE_ERROR);
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'unknown');
  assert.deepEqual(
    r.stages.map((s) => s.status),
    ['not-reached', 'not-reached', 'not-reached'],
  );
  assert.equal(r.diagnostics[0].code, 'dfc/unrecognised-error');
});

test('dfc stages: a one-stage command places the error; a multi-stage one does not', () => {
  for (const [cmd, stage] of [
    ['hailomz optimize --hw-arch hailo8l --har yolov8s.har --calib-path calibration_data/ yolov8s', 'optimize'],
    ['hailo optimize yolo11n.har --calib-set-path calib_set.npy --hw-arch hailo8l', 'optimize'],
    ['hailo compiler yolov8s.har --hw-arch hailo8l', 'compile'],
    ['[info] Running `hailo parser onnx m.onnx --hw-arch hailo8l`', 'parse'],
    ['hailomz optimize --hw-arch hailo8l --ckpt m.onnx yolov8s', 'unknown'], // parses first: either stage
    ['hailomz compile yolov8s --hw-arch hailo8l --ckpt=best.onnx --calib-path dataset', 'unknown'],
  ]) {
    const r = readDfcLog(`${cmd}\n${VALUE_ERROR}`);
    assert.equal(r.failedStage, stage, cmd);
  }
});

test('dfc stages: a traceback shows its stage by the DFC module it runs in or the ClientRunner call', () => {
  const frames = (path: string, fn: string, code = '    x()') =>
    `Traceback (most recent call last):\n  File "/work/run.py", line 3, in <module>\n    main()\n  File "${path}", line 10, in ${fn}\n${code}\nRuntimeError: boom\n`;
  const site = '/venv/lib/python3.10/site-packages';
  const cases: [string, string][] = [
    [frames(`${site}/hailo_model_optimization/algorithms/hailo_layer_noise_analysis.py`, 'analyze_full_quant_net'), 'optimize'],
    [frames(`${site}/hailo_sdk_client/sdk_backend/parser/parser.py`, 'translate_onnx_model'), 'parse'],
    [frames(`${site}/hailo_sdk_client/model_translator/edge_nn_translator.py`, '__init__'), 'parse'],
    [frames(`${site}/hailo_sdk_client/runner/client_runner.py`, 'compile'), 'compile'],
    [frames('/work/quantize.py', '<module>', '    runner.optimize(calib, optimization_level=2)'), 'optimize'],
    [frames('/work/build.py', '<module>', '    hef = runner.compile()'), 'compile'],
    [frames('/work/script.py', 'helper'), 'unknown'],
  ];
  for (const [log, stage] of cases) assert.equal(readDfcLog(log).failedStage, stage, log);
});

// Each line is printed only while that stage runs (R, S, Q, B, A of SOURCES.md).
const STAGE_LINES: [string, string][] = [
  ['[info] Starting Layer Noise Analysis', 'optimize'],
  ['Full Quant Analysis:  50%|█████     | 1/2 [02:40<02:40, 160.68s/iterations]', 'optimize'],
  ['[info] Model Optimization Algorithm Statistics Collector is done (completion time is 00:09:59.14)', 'optimize'],
  ['[info] Stats Collector is done (completion time is 00:00:16.59)', 'optimize'],
  ['[info] Bias Correction skipped', 'optimize'],
  ['[info] Starting Quantization-Aware Fine-Tuning', 'optimize'],
  ['[info] Starting Fine Tune', 'optimize'],
  ['Epoch 1/4', 'optimize'],
  [' 24/417 ━━━━━━━━━━━━━━━━━━━━ 2:18:40 21s/step - _distill_loss_x/normalization13: 0.3379', 'optimize'],
  ['500/500 [==============================] - 233s 389ms/step - total_distill_loss: 0.1006', 'optimize'],
  ['[info] Using dataset with 64 entries for calibration', 'optimize'],
  ['[info] Using default optimization level of 2', 'optimize'],
  ['[info] Model received quantization params from the hn', 'optimize'],
  ['[info] Restored ONNX model yolov8n_seg (completion time: 00:00:00.05)', 'parse'],
  ["[info] End nodes mapped from original model: '/model.23/proto/cv3/act/Mul', '/model.23/Transpose'.", 'parse'],
  ['[info] Starting Hailo context-partitioner flow', 'compile'],
  ['[info] Found valid partition to 7 contexts, Performance improved by 12.2%', 'compile'],
  ['[info] Single context flow failed: Recoverable single context error', 'compile'],
  ['[info] Building HEF...', 'compile'],
];

test('dfc stages: every optimization-algorithm line (and each parse-only / compile-only line) puts the failure in its stage', () => {
  for (const [line, stage] of STAGE_LINES) {
    const r = readDfcLog(`${line}\n${VALUE_ERROR}`);
    assert.equal(r.failedStage, stage, line);
    assert.equal(r.stages.find((s) => s.name === stage)!.status, 'failed', line);
  }
});

test('dfc stages: a log that stops inside a traceback failed, in the stage its frames show', () => {
  const log =
    '[info] Starting Layer Noise Analysis\nTraceback (most recent call last):\n  File "/usr/lib/python3.10/dist-packages/hailo_model_optimization/flows/optimization_flow.py", line 347, in step3\n    self._lna()\n';
  const r = readDfcLog(log);
  assert.deepEqual([r.outcome, r.failedStage], ['failed', 'optimize']);
  assert.match(r.diagnostics[0].message, /stops inside/);
  // Without the stage line, the frames alone say optimize.
  assert.equal(readDfcLog(log.slice(log.indexOf('\n') + 1)).failedStage, 'optimize');
});

test('dfc stages: the (y/n) prompt answered on a terminal is no error; EOFError without the prompt is not called one', () => {
  const prompt =
    "[info] Translation started on ONNX model last\nParsing failed with recommendations for end node names: ['a/Mul', 'a/truediv'].\nWould you like to parse again with the recommendation? (y/n)\n";
  const answered = readDfcLog(
    `${prompt}y\n[info] According to recommendations, retrying parsing with end node names: ['a/Mul', 'a/truediv'].\n[info] Translation completed on ONNX model last (completion time: 00:00:00.47)\n`,
  );
  assert.deepEqual(
    answered.diagnostics.map((d) => d.code),
    ['dfc/end-nodes-changed'],
  );
  assert.equal(answered.diagnostics[0].severity, 'warning');
  const eof = readDfcLog(`${prompt}EOFError: EOF when reading a line\n`);
  assert.equal(eof.diagnostics[0].code, 'dfc/parser-prompt');
  const bare = readDfcLog('EOFError: EOF when reading a line\n');
  assert.equal(bare.diagnostics[0].code, 'dfc/unrecognised-error');
});

test('dfc stages: a non-zero exit status and a log with no error line say where the run stopped', () => {
  const log = '[info] Starting Model Optimization\n[info] Starting Statistics Collector\n';
  const r = readDfcLog(log, {}, { code: 1 });
  assert.deepEqual([r.outcome, r.failedStage], ['failed', 'optimize']);
  assert.equal(r.diagnostics[0].code, 'dfc/no-error-in-log');
  assert.match(r.diagnostics[0].message, /exit status 1 during optimize \(its last progress line: Statistics Collector\)/);
  const killed = readDfcLog(log, {}, { code: 137 });
  assert.deepEqual([killed.outcome, killed.failedStage, killed.diagnostics[0].code], ['killed', 'optimize', 'dfc/memory-killed']);
});

test('dfc stages: DFC 5 times the whole compile with its Successful Compilation line; DFC 3 prints the two parts', () => {
  const alloc = '[info] net Successful Partition and Allocation (duration: 8m 5s)\n';
  const dfc5 = readDfcLog(`[info] Starting Hailo allocation and compilation flow\n${alloc}[info] net Successful Compilation (duration: 8m 20s)\n`);
  assert.equal(dfc5.stages[2].seconds, 500);
  assert.deepEqual([dfc5.summary.allocationSeconds, dfc5.summary.compilationSeconds], [485, 500]);
  const dfc3 = readDfcLog(
    '[info] Starting Hailo allocation and compilation flow\n[info] Successful Mapping (allocation time: 8m 6s)\n[info] Successful Compilation (compilation time: 6s)\n',
  );
  assert.equal(dfc3.stages[2].seconds, 492);
});

async function cli(args: string[]) {
  const io = captureIO();
  const code = await main(['dfc-log', ...args], io);
  return { code, out: io.outText, err: io.errText };
}

test('cli dfc-log --exit-code: a log that just stops is read with the status the run ended with', async () => {
  const log = join(repoRoot, 'test', 'fixtures', 'dfc', 'real-killed-137', 'run.log');
  const plain = JSON.parse((await cli(['--json', log])).out);
  assert.deepEqual([plain.outcome, plain.failedStage], ['incomplete', null]);
  // The text names the stage it stopped in and how to say how the run ended.
  assert.match((await cli([log])).out, /incomplete \(the log stops before the run ends, during optimize; .*--exit-code/);
  const killed = await cli(['--json', '--exit-code', '137', log]);
  assert.equal(killed.code, 1);
  const j = JSON.parse(killed.out);
  assert.deepEqual([j.outcome, j.failedStage, j.diagnostics[0].code], ['killed', 'optimize', 'dfc/memory-killed']);
  assert.equal(JSON.parse((await cli(['--json', '--exit-code=1', log])).out).outcome, 'failed');
  for (const bad of ['x', '-1', '256', '']) {
    const r = await cli(['--exit-code', bad, log]);
    assert.equal(r.code, 2, bad);
    assert.match(r.err, /--exit-code needs a process exit status 0…255/);
  }
});
