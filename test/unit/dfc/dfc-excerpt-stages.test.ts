// Generative metamorphic test of the reader's stage inference (server/src/core/dfc/stageEvidence.ts, issue 30;
// docs/research/dfc-unseen-misses.md, class C: fresh logs are excerpts, and `failedStage` was wrong 70 % of the times
// a fresh log expected it). From every read corpus log and reader fixture whose expectation names the stage the run
// failed in, a seeded PRNG derives excerpts the way authors quote (test/helpers/dfcExcerpts.ts): the stage markers
// before the failure dropped, only the traceback's last frames and its exception, only the command and the error,
// the head or the tail cut, the message replaced by one nobody catalogued, pasted at the margin, the command said in
// a sentence. Whenever an excerpt still holds evidence of the expected stage and none of a later one (`evidenceIn`:
// a DFC frame, a ClientRunner call, a one-stage command, a stage's own exception class, a line only that stage
// prints, a catalogued message of that stage), it must read that stage — and, ended by a kill instead (an exit status
// 130/137/143, a cancel, `Killed`, `^C`, compose's exit line, the kernel's OOM killer), read `killed` in that stage. More seeds:
// `node scripts/dfc-excerpt-stages.mjs --seeds 1..40`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { commandClue, harStageIn, stageOfApiCall, stageOfHar, weighStage } from '../../../server/src/core/dfc/stageEvidence';
import {
  evidenceIn,
  evidences,
  runExcerpts,
  runKilledMidStage,
  runMidStageCuts,
  runSuccessAdditions,
  runTailCuts,
  stagedLogs,
  successLogs,
} from '../../helpers/dfcExcerpts';

/** The seed the suite runs; the script runs others. */
const SEED = 1;
const PER_LOG = 12;

test('dfc excerpt stages: every excerpt that still holds evidence of the stage reads the stage the log failed in', () => {
  const logs = stagedLogs();
  assert.ok(logs.length >= 100, `${logs.length} logs with a failed stage`);
  const run = runExcerpts(logs, SEED, PER_LOG);
  assert.ok(run.asserted >= 300, `${run.asserted} asserted of ${run.excerpts} excerpts`);
  // Excerpts whose only evidence of the stage is one kind: a reader that ignored frames, calls, commands or classes
  // would misread these (so the test would catch it).
  for (const kind of ['frame', 'call', 'command', 'class', 'catalogue'] as const) assert.ok(run.onlyKind[kind] >= 5, `${kind}: ${run.onlyKind[kind]} excerpts`);
  assert.equal(run.differ.length, 0, `${run.differ.length}/${run.asserted} excerpts read another failed stage\n${run.differ.slice(0, 20).join('\n')}`);
  // The same excerpts ended by a kill (an exit status, the shells', compose's or the OOM killer's words): killed, in the
  // same stage — one weighing for a failed and a killed run (state.ts stoppedStage).
  assert.equal(run.killedDiffer.length, 0, `${run.killedDiffer.length}/${run.asserted} killed excerpts\n${run.killedDiffer.slice(0, 20).join('\n')}`);
});

test('dfc excerpt outcomes: a successful run cut inside a stage is incomplete, killed there is killed in it; its tail that keeps the end is a success', () => {
  const logs = successLogs();
  assert.ok(logs.length >= 30, `${logs.length} successful runs with a DFC stage`);
  // Outcome needs positive evidence: nothing shows a run cut mid-stage ended, and nothing there failed.
  const mid = runMidStageCuts(logs, SEED, 6);
  assert.ok(mid.excerpts >= 150, `${mid.excerpts} mid-stage excerpts`);
  assert.equal(mid.differ.length, 0, mid.differ.slice(0, 20).join('\n'));
  // Killed there instead (an exit status, the shells', compose's or the OOM killer's words): killed in that stage.
  const killed = runKilledMidStage(logs, SEED, 6);
  assert.ok(killed.excerpts >= 150, `${killed.excerpts} killed mid-stage excerpts`);
  assert.equal(killed.differ.length, 0, killed.differ.slice(0, 20).join('\n'));
  // Its end kept (the stage's end line, the HAR or HEF written), the run's head is not needed to say it ended.
  const tail = runTailCuts(logs, SEED, 6);
  assert.ok(tail.excerpts >= 150, `${tail.excerpts} tail excerpts`);
  assert.equal(tail.differ.length, 0, tail.differ.slice(0, 20).join('\n'));
});

test('dfc excerpt outcomes: a refusal before the retry that ran, and a search attempt the compile got past, leave a success a success', () => {
  const run = runSuccessAdditions(successLogs(), SEED, 6);
  assert.ok(run.excerpts >= 150, `${run.excerpts} logs with an addition`);
  assert.equal(run.differ.length, 0, run.differ.slice(0, 20).join('\n'));
});

test('dfc excerpt outcomes: a HAR written is the end of the step that wrote it; a model script loaded after it is a next step', () => {
  assert.equal(readDfcLog('[info] Saved HAR to: /work/yolov8n_quantized_model.har\n').outcome, 'success');
  assert.equal(readDfcLog('[info] Saved HAR to: /work/m.har\n[info] Loading model script commands to m from m.alls\n').outcome, 'incomplete');
  assert.equal(readDfcLog('[info] Saved HAR to: /work/m.har\n[info] Starting Model Optimization\n').outcome, 'incomplete');
});

test("dfc excerpt stages: the parser's (y/n) question is the parse stage's own line", () => {
  const log = [
    'Would you like to parse again with the recommendation? (y/n)',
    'Traceback (most recent call last):',
    '  File "/venv/bin/hailo", line 8, in <module>',
    '    sys.exit(main())',
  ].join('\n');
  assert.equal(readDfcLog(`${log}\n`).failedStage, 'parse');
});

test('dfc excerpt stages: what counts as evidence of a stage', () => {
  const stages = (lines: string[]) => [...new Set(evidenceIn(lines).map((e) => `${e.stage}:${e.kind}`))].sort();
  assert.deepEqual(stages(['  File "/venv/lib/python3.10/site-packages/hailo_model_optimization/algorithms/x.py", line 3, in run']), ['optimize:frame']);
  assert.deepEqual(stages(['    hef = runner.compile()']), ['compile:call']);
  assert.deepEqual(stages(['$ hailo optimize m.har --calib-set-path c.npy']), ['optimize:command']);
  assert.deepEqual(stages(['$ hailomz compile yolov8s --hw-arch hailo8l']), []); // three stages: no one stage
  assert.deepEqual(stages(['AccelerasValueError: x']), ['optimize:class']);
  assert.deepEqual(stages(['[info] Starting Hailo allocation and compilation flow']), ['compile:stage-line']);
  // An earlier stage's evidence beside the expected one is a run that got that far; a later one's is not asserted.
  const ev = evidenceIn(['[info] Translation started on ONNX model m', '    runner.optimize(calib)']);
  assert.ok(evidences(ev, 'optimize'));
  assert.ok(!evidences(ev, 'parse'));
});

test('stage evidence: the strongest kind decides, each clue with its reason', () => {
  const c = weighStage([{ stage: 'compile', kind: 'command', reason: 'the command' }, { stage: 'optimize', kind: 'call', reason: 'the call' }, null]);
  assert.deepEqual(c, { stage: 'optimize', kind: 'call', reason: 'the call' });
  assert.equal(
    weighStage([
      { stage: 'parse', kind: 'said', reason: 'words' },
      { stage: 'compile', kind: 'running', reason: 'running' },
    ])?.stage,
    'compile',
  );
  assert.equal(weighStage([]), null);
});

test('stage evidence: calls, HAR names and a command narrowed by what was done', () => {
  assert.equal(stageOfApiCall('hn, npz = runner.translate_onnx_model(onnx_path, name)'), 'parse');
  assert.equal(stageOfApiCall('self._runner.optimize(calib_dataset)'), 'optimize');
  assert.equal(stageOfApiCall('print(runner)'), null);
  assert.equal(stageOfHar('yolov8n_optimized'), 'optimize');
  assert.equal(stageOfHar('m_quantized_model'), 'optimize');
  assert.equal(stageOfHar('m_compiled'), 'compile');
  assert.equal(stageOfHar('yolov8n'), null);
  assert.equal(harStageIn("runner = ClientRunner(har='out/yolov8n_quantized.har')"), 'optimize');
  const mz = { firstStage: null, lastStage: 'compile' } as const;
  assert.equal(commandClue(mz, null), null);
  assert.equal(commandClue(mz, 'optimize')?.stage, 'compile');
  assert.equal(commandClue({ firstStage: 'optimize', lastStage: 'optimize' }, null)?.stage, 'optimize');
  // A command whose only stage the log already shows done: no clue (the evidence disagrees).
  assert.equal(commandClue({ firstStage: 'optimize', lastStage: 'optimize' }, 'optimize'), null);
});

const UNKNOWN_ERROR = 'TypeError: an argument nobody catalogued';

test("dfc excerpt stages: the author's script line outside a traceback places an uncatalogued error", () => {
  assert.equal(readDfcLog(`runner.load_model_script(script)\nrunner.optimize(calib)\n${UNKNOWN_ERROR}\n`).failedStage, 'optimize');
  assert.equal(readDfcLog(`hef = runner.compile()\n${UNKNOWN_ERROR}\n`).failedStage, 'compile');
  assert.equal(readDfcLog(`${UNKNOWN_ERROR}\n`).failedStage, 'unknown');
});

test("dfc excerpt stages: a script pasted whole says no stage by its calls; a notebook's cell after another's output does", () => {
  const script = 'runner.translate_onnx_model(onnx_path, name)\nrunner.optimize(calib)\nhef = runner.compile()\n';
  assert.equal(readDfcLog(`${script}${UNKNOWN_ERROR}\n`).failedStage, 'unknown');
  const cells = 'runner.translate_onnx_model(onnx_path, name)\n[info] Translation completed on ONNX model m\nrunner.optimize(calib)\n';
  assert.equal(readDfcLog(`${cells}${UNKNOWN_ERROR}\n`).failedStage, 'optimize');
});

test('dfc excerpt stages: a traceback pasted at the margin keeps its frames (the code line after a frame is code)', () => {
  const log = [
    'File "/venv/lib/python3.10/site-packages/hailo_sdk_client/tools/cmd_utils/base_utils.py", line 89, in _run',
    'return args.func(args)',
    'File "/venv/lib/python3.10/site-packages/hailo_sdk_client/tools/parser_cli.py", line 213, in run',
    'self._parse(net_name, args, tensor_shapes)',
    UNKNOWN_ERROR,
  ].join('\n');
  assert.equal(readDfcLog(`${log}\n`).failedStage, 'parse');
});

test('dfc excerpt stages: a HAR of a later state loaded narrows a command to its one remaining stage', () => {
  assert.equal(readDfcLog(`$ hailomz compile yolov8s --har yolov8s_optimized.har --hw-arch hailo8l\n${UNKNOWN_ERROR}\n`).failedStage, 'compile');
  assert.equal(readDfcLog(`$ hailomz compile yolov8s --har yolov8s.har --hw-arch hailo8l\n${UNKNOWN_ERROR}\n`).failedStage, 'unknown');
  assert.equal(
    readDfcLog(`$ hailomz compile yolov8s --hw-arch hailo8l\n[info] Saved HAR to: /work/yolov8s_optimized.har\n${UNKNOWN_ERROR}\n`).failedStage,
    'compile',
  );
});

test("dfc excerpt stages: the model zoo's steps and the model script's loading are frames of their stage", () => {
  const tb = (path: string, fn: string) =>
    `Traceback (most recent call last):\n  File "/venv/bin/hailomz", line 8, in <module>\n    sys.exit(main())\n  File "${path}", line 10, in ${fn}\n    x()\n${UNKNOWN_ERROR}\n`;
  const mz = '/venv/lib/python3.10/site-packages/hailo_model_zoo';
  const sdk = '/venv/lib/python3.10/site-packages/hailo_sdk_client';
  for (const [path, fn, stage] of [
    [`${mz}/main_driver.py`, '_ensure_parsed', 'parse'],
    [`${mz}/core/main_utils.py`, 'parse_model', 'parse'],
    [`${mz}/main_driver.py`, '_ensure_optimized', 'optimize'],
    [`${mz}/core/main_utils.py`, 'prepare_calibration_data', 'optimize'],
    [`${mz}/core/main_utils.py`, 'compile_model', 'compile'],
    [`${mz}/main_driver.py`, 'evaluate', 'unknown'],
    [`${sdk}/runner/client_runner.py`, 'load_model_script', 'optimize'],
    [`${sdk}/sdk_backend/script_parser/model_script_parser.py`, 'parse_script', 'optimize'],
    [`${sdk}/runner/client_runner.py`, '_parse_onnx_model_to_hn', 'parse'],
  ])
    assert.equal(readDfcLog(tb(path, fn)).failedStage, stage, `${path} ${fn}`);
});

test('dfc excerpt stages: a frame whose path an author elided keeps the inner DFC package that names its stage', () => {
  const tb = (path: string, fn: string) =>
    `File "${path}", line 5369, in ${fn}\n    input_shape = self.get_input_shapes()[0]\nIndexError: list index out of range\n`;
  assert.equal(readDfcLog(tb('.../onnx_translator/onnx_graph.py', 'is_null_transpose_near_torch_tile')).failedStage, 'parse');
  assert.equal(readDfcLog(tb('…/acceleras/hailo_layers/hailo_io.py', 'validate_shape')).failedStage, 'optimize');
  assert.equal(readDfcLog(tb('<...>/runner/client_runner.py', 'compile')).failedStage, 'compile');
  assert.equal(readDfcLog(tb('.../script_parser/model_script_parser.py', 'parse_script')).failedStage, 'optimize');
  assert.equal(readDfcLog(tb('.../mylib/graph.py', 'run')).failedStage, 'unknown');
});

test('dfc excerpt stages: the running stage and the error’s own stage are weighed — a later stage’s error wins, an earlier one’s does not', () => {
  // The optimizer's class while the parse "runs" (its end not quoted): the run got to optimize.
  assert.equal(readDfcLog('[info] Translation started on ONNX model m\nAccelerasValueError: nobody catalogued this\n').failedStage, 'optimize');
  // A parser class raised while the optimizer runs (dfc-corpus unseen4/19): the optimize stage's failure.
  assert.equal(
    readDfcLog('[info] Starting Model Optimization\nUnsupportedModelError: Unexpected input_shapes at normalization layer mul_and_add71\n').failedStage,
    'optimize',
  );
});

test('dfc excerpt stages: an error nobody catalogued says which stage it belongs to and the evidence', () => {
  const frame = `File ".../onnx_translator/onnx_graph.py", line 5369, in is_null_transpose_near_torch_tile\n    x = y[0]\nIndexError: list index out of range\n`;
  const d = readDfcLog(frame).diagnostics.find((x) => x.code === 'dfc/unrecognised-error');
  // The frame the message names as where it was raised is the evidence: said once.
  assert.ok(d?.message.includes('It belongs to the parse stage, by that frame'), d?.message);
  assert.ok(d?.message.includes('is_null_transpose_near_torch_tile'), d?.message);
  // A stage from another frame than the innermost names that frame.
  const outer = readDfcLog(
    `File "/v/hailo_sdk_client/runner/client_runner.py", line 3, in optimize\n    self._x()\nFile "/v/mylib/x.py", line 9, in helper\n    y()\n${UNKNOWN_ERROR}\n`,
  ).diagnostics[0];
  assert.ok(outer.message.includes('It belongs to the optimize stage: its traceback runs optimize in'), outer.message);
  const call = readDfcLog(`hef = runner.compile()\n${UNKNOWN_ERROR}\n`).diagnostics[0];
  assert.ok(call.message.includes('compile stage: the log shows the call hef = runner.compile()'), call.message);
  // No evidence, no stage said.
  assert.ok(!readDfcLog(`${UNKNOWN_ERROR}\n`).diagnostics[0].message.includes('belongs to'));
});
