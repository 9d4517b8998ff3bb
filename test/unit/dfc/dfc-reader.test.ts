// DfcLogReader behaviours the fixtures do not pin: live events and snapshots mid-run, the exit
// status, recovery by the parser's retry, placement when the DFC's line numbers disagree with the
// file, nodes the given model lacks, and bounded memory on a log without line ends.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DfcLogReader, nodeIndexFrom, readDfcLog, type DfcEvent } from '../../../server/src/core/dfc';

const PARSE_OK = '[info] Translation started on ONNX model net\n[info] Translation completed on ONNX model net (completion time: 00:00:02.50)\n';

test('dfc reader: live events in order, and a snapshot mid-run says incomplete with the running stage', () => {
  const r = new DfcLogReader();
  const events: DfcEvent[] = [];
  events.push(...r.push(PARSE_OK + '[info] Starting Model Optimization\n[info] Starting Statistics Collector\n'));
  events.push(...r.push('Calibration:  50%|█████     | 32/64 [00:03<00:03]\r'));
  const snap = r.report();
  assert.equal(snap.outcome, 'incomplete');
  assert.deepEqual(
    snap.stages.map((s) => s.status),
    ['ok', 'running', 'not-reached'],
  );
  // The tqdm frame ends with `\r`: it is reported only once the next character says it is not `\r\n`.
  events.push(...r.push('C'));
  const kinds = events.map((e) =>
    e.kind === 'progress'
      ? `progress:${e.label}:${e.done}/${e.total}`
      : e.kind === 'stageStarted' || e.kind === 'stageFinished'
        ? `${e.kind}:${e.stage}`
        : e.kind,
  );
  assert.deepEqual(kinds, [
    'stageStarted:parse',
    'stageFinished:parse',
    'stageStarted:optimize',
    'progress:Statistics Collector:0/null',
    'progress:Calibration:32/64',
  ]);
  const fin = events.find((e) => e.kind === 'stageFinished');
  assert.equal(fin?.kind === 'stageFinished' && fin.seconds, 2.5);
});

test('dfc reader: the exit status decides killed/failed/success when the log alone cannot', () => {
  const log = PARSE_OK + '[info] Starting Model Optimization\n';
  assert.equal(readDfcLog(log).outcome, 'incomplete');
  const cancelled = readDfcLog(log, {}, { code: 137, cancelled: true });
  assert.equal(cancelled.outcome, 'killed');
  assert.equal(cancelled.failedStage, 'optimize');
  // A cancel is not a memory problem: the caller says it stopped the run, and the report says so in its stage.
  assert.deepEqual(
    cancelled.diagnostics.map((d) => [d.code, d.severity]),
    [['dfc/stopped', 'info']],
  );
  assert.match(cancelled.diagnostics[0].message, /^The run was stopped by its user \(a cancel\) during optimize/);
  // The caller's own deadline the same way, as an error (the run did not finish); whatever status the stop left.
  for (const code of [137, 143, null]) {
    const timedOut = readDfcLog(log, {}, { code, stoppedBy: 'timeout' });
    assert.deepEqual([timedOut.outcome, timedOut.failedStage], ['killed', 'optimize']);
    assert.deepEqual(
      timedOut.diagnostics.map((d) => [d.code, d.severity]),
      [['dfc/stopped', 'error']],
      String(code),
    );
    assert.match(timedOut.diagnostics[0].message, /^The run was stopped at the tool's time limit during optimize/);
  }
  // A bare 137 (a pasted log, dfc-log --exit-code 137): nothing says who stopped it, so the memory diagnosis stays.
  const oom = readDfcLog(log, {}, { code: 137 });
  assert.equal(oom.diagnostics[0].code, 'dfc/memory-killed');
  const failed = readDfcLog(log, {}, { code: 1 });
  assert.deepEqual([failed.outcome, failed.failedStage], ['failed', 'optimize']);
  const dockerRefused = readDfcLog('', {}, { code: 125 });
  assert.deepEqual([dockerRefused.outcome, dockerRefused.failedStage], ['failed', 'docker']);
  // A `hailo parser` run ends after parsing: its log shows a successful run.
  assert.equal(readDfcLog('[info] Running `hailo parser onnx m.onnx --hw-arch hailo8`\n' + PARSE_OK).outcome, 'success');
});

test('dfc reader: an error the parser recovered from (the stage completed) is a warning, and the run can succeed', () => {
  const log =
    '[info] Running `hailo parser onnx m.onnx`\n[info] Translation started on ONNX model m\nUnsupportedShuffleLayerError in op /a/Reshape: Failed to determine type of layer to create in node /a/Reshape\n[info] Simplified ONNX model for a parsing retry attempt (completion time: 00:00:01.00)\n[info] Translation completed on ONNX model m (completion time: 00:00:03.00)\n';
  const r = readDfcLog(log);
  assert.equal(r.outcome, 'success');
  assert.equal(r.diagnostics[0].severity, 'warning');
  assert.match(r.diagnostics[0].message, /recovered/);
});

test('dfc reader: the `>!<` echo places a model-script error even when the DFC numbers lines per statement', () => {
  // Composed: if the parser saw one statement at a time, pyparsing would say (line:1, col:N) for a
  // statement on line 3 of the file. The echoed text is the better witness.
  const script = 'normalization1 = normalization([0, 0, 0], [255, 255, 255])\n\nmodel_optimization_config(calibration, batch_size=2 calibset_size=64)\n';
  const log =
    "pyparsing.exceptions.ParseException: Expected ')', found 'calibset_size'  (at char 52), (line:1, col:53)\n\nDuring handling of the above exception, another exception occurred:\n\nhailo_sdk_client.sdk_backend.sdk_backend_exceptions.AllocatorScriptParserException: Parsing failed at:\nmodel_optimization_config(calibration, batch_size=2 >!<calibset_size=64)\n";
  const r = readDfcLog(log, { allsPath: 's.alls', allsText: script });
  const d = r.diagnostics[0];
  assert.equal(d.code, 'dfc/model-script-syntax');
  const col = script.split('\n')[2].indexOf('calibset_size') + 1;
  assert.deepEqual([d.path, d.line, d.column, d.endColumn], ['s.alls', 3, col, col + 'calibset_size'.length]);
});

test('dfc reader: a node the given model does not have stays on the log line and says so', () => {
  const onnx = nodeIndexFrom([{ name: '/other/Conv', opType: 'Conv', outputs: ['/other/Conv_output_0'] }]);
  const r = readDfcLog('UnsupportedOperationError in op /model.23/TopK: TopK operation is unsupported\n', { logPath: 'x.log', onnx, onnxPath: 'm.onnx' });
  const d = r.diagnostics[0];
  assert.deepEqual([d.path, d.line, d.node], ['x.log', 1, '/model.23/TopK']);
  assert.match(d.message, /m\.onnx has no node of that name/);
});

test('dfc reader: MisspellNodeError with the model — a name that is neither node nor tensor', () => {
  const onnx = nodeIndexFrom([{ name: '/a/Conv', opType: 'Conv', outputs: ['/a/Conv_output_0'] }]);
  const r = readDfcLog("MisspellNodeError: Unable to find end node names: ['/a/Cnv']\n", { onnx, onnxPath: 'm.onnx' });
  assert.equal(r.diagnostics.length, 1);
  assert.match(r.diagnostics[0].message, /No node named '\/a\/Cnv'/);
  assert.equal(r.diagnostics[0].fix, undefined);
});

test('dfc reader: a log without line ends stays bounded and is still read', () => {
  const r = new DfcLogReader();
  const block = 'x'.repeat(1 << 20);
  for (let i = 0; i < 16; i++) r.push(block);
  r.push('\n[info] Translation started on ONNX model m\n');
  const rep = r.end();
  assert.equal(rep.stages[0].status, 'running');
  assert.equal(rep.network, 'm');
  assert.throws(() => r.push('more'), /push after end/);
  assert.equal(r.report(), rep);
});

test('dfc reader: a log that repeats errors without end keeps at most MAX_DIAGNOSTICS of them', async () => {
  const { MAX_DIAGNOSTICS } = await import('../../../server/src/core/dfc/errors');
  const r = new DfcLogReader();
  for (let i = 0; i < MAX_DIAGNOSTICS + 500; i++) r.push(`UnsupportedOperationError in op /n${i}/TopK: TopK operation is unsupported\n`);
  for (let i = 0; i < 50; i++)
    r.push("[warning] Reducing optimization level to 0 (the accuracy won't be optimized and compression won't be used) because there's no available GPU\n");
  const rep = r.end();
  assert.equal(rep.diagnostics.length, MAX_DIAGNOSTICS);
  assert.equal(rep.outcome, 'failed');
});

test('dfc reader: a repeated warning is one diagnostic per run', () => {
  const w = "[warning] Reducing optimization level to 0 (the accuracy won't be optimized and compression won't be used) because there's no available GPU\n";
  const rep = readDfcLog(w + w + w);
  assert.deepEqual(
    rep.diagnostics.map((d) => [d.code, d.line]),
    [['dfc/optimization-level-0', 1]],
  );
});
