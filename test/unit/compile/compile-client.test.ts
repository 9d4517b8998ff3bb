// Pure parts of the VS Code compile: the per-context queue (a second compile waits with its place
// shown), companions found beside a file, the output channel's view of tqdm frames, the summary
// sentence, and the `$hailo-dfc` problem matcher of package.json against the report's own lines.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CompileQueue } from '../../../client/src/compile/queue';
import { calibrationBeside, companions } from '../../../client/src/compile/companions';
import { ConsoleLines } from '../../../client/src/compile/consoleLines';
import { summaryText } from '../../../client/src/compile/summary';
import { readDfcLog, reportText } from '../../../server/src/core/dfc';
import type { CompileReport } from '../../../server/src/processes/compile/session';
import { compileReportText } from '../../../server/src/processes/compile/reportText';
import { repoRoot } from '../../helpers/shared';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

test('queue: one compile per docker context at a time; the next waits with its place, others run beside', async () => {
  const q = new CompileQueue();
  const order: string[] = [];
  const places: Record<string, number[]> = { a: [], b: [], c: [], other: [] };
  const gates = { a: deferred<void>(), b: deferred<void>(), c: deferred<void>(), other: deferred<void>() };
  const job = (name: keyof typeof gates) => async () => {
    order.push(`start ${name}`);
    await gates[name].promise;
    order.push(`end ${name}`);
    return name;
  };
  const a = q.enqueue('', job('a'), (n) => places.a.push(n));
  const b = q.enqueue('', job('b'), (n) => places.b.push(n));
  const c = q.enqueue('', job('c'), (n) => places.c.push(n));
  const other = q.enqueue('gpu-box', job('other'), (n) => places.other.push(n));
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(order, ['start a', 'start other'], 'the other context does not wait');
  assert.equal(q.size(''), 3);
  assert.deepEqual(places.b, [1]);
  assert.deepEqual(places.c, [2]);
  gates.a.resolve();
  assert.equal(await a.result, 'a');
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(places.b, [1, 0], 'b started');
  assert.deepEqual(places.c, [2, 1], 'c moved up');
  // Withdrawing a waiting compile resolves it with undefined and never runs it.
  assert.equal(c.withdraw(), true);
  assert.equal(await c.result, undefined);
  assert.equal(b.withdraw(), false, 'a running compile cannot be withdrawn');
  gates.b.resolve();
  gates.other.resolve();
  assert.equal(await b.result, 'b');
  assert.equal(await other.result, 'other');
  assert.ok(!order.includes('start c'));
  assert.equal(q.size(''), 0);
});

test('companions: the script, calibration set and model found beside the file', () => {
  const names = ['tinycnn.onnx', 'tinycnn.alls', 'tinycnn_calib.npy', 'other.npy', 'README.md'];
  assert.deepEqual(companions('/m/tinycnn.onnx', '/m', names), {
    model: '/m/tinycnn.onnx',
    modelScript: '/m/tinycnn.alls',
    calibration: '/m/tinycnn_calib.npy',
  });
  assert.deepEqual(companions('/m/tinycnn.alls', '/m', names), {
    model: '/m/tinycnn.onnx',
    modelScript: '/m/tinycnn.alls',
    calibration: '/m/tinycnn_calib.npy',
  });
  // An optimized HAR finds the script of its network; ONNX is preferred over HAR from a script.
  assert.equal(companions('/m/net_optimized.har', '/m', ['net_optimized.har', 'net.alls', 'x.alls']).modelScript, '/m/net.alls');
  assert.equal(companions('/m/net.alls', '/m', ['net.har', 'net.onnx']).model, '/m/net.onnx');
  // Nothing decidable: left to the user (asked once per folder).
  assert.deepEqual(companions('/m/a.alls', '/m', ['a.alls', 'x.onnx', 'y.onnx']), { model: undefined, modelScript: '/m/a.alls', calibration: undefined });
  assert.equal(calibrationBeside(['a.npy', 'b.npy'], 'net'), undefined);
  assert.equal(calibrationBeside(['calib_coco.npy', 'b.npz'], 'net'), 'calib_coco.npy');
  assert.equal(calibrationBeside(['only.npz'], 'net'), 'only.npz');
});

test('console lines: colours removed, a tqdm bar keeps its last frame, split chunks joined', () => {
  const c = new ConsoleLines();
  let out = c.push('[\x1b[32minfo\x1b[0m] Starting Model Optimization\nCalibration:   0%|   | 0/64');
  out += c.push(' [00:00]\rCalibration:  50%|█  | 32/64\rCalibration: 100%|██| 64/64 [00:06]\r');
  out += c.push('\n[info] done');
  out += c.flush();
  assert.equal(out, '[info] Starting Model Optimization\nCalibration: 100%|██| 64/64 [00:06]\n[info] done\n');
});

test('summary: success names stage times, HEF size, contexts, utilisation and the contract; failure the first error', () => {
  const base = readDfcLog(readFileSync(join(repoRoot, 'test', 'fixtures', 'dfc', 'success-dfc3-cli', 'run.log'), 'utf8'));
  const ok: CompileReport = {
    ...base,
    outputs: { har: '/o/n.har', optimizedHar: '/o/n_optimized.har', hef: '/o/n.hef' },
    container: null,
    hef: { path: '/o/n.hef', bytes: 3 * 1024 * 1024, intact: true, hailoConfig: 'embedded', contract: { pass: true, failed: [] } },
    log: '/o/n.dfc.log',
    calibration: 'file',
    notes: [],
  };
  const text = summaryText('n', ok, 83);
  assert.match(text, /^Compiled n in 1m 23s \(.*compile .*\): HEF 3\.0 MB/);
  if (ok.summary.contexts !== null) assert.match(text, new RegExp(`${ok.summary.contexts} contexts?`));
  assert.match(text, /mtmd contract passes\.$/);
  const failed = readDfcLog(readFileSync(join(repoRoot, 'test', 'fixtures', 'dfc', 'wraparound-a16w4', 'run.log'), 'utf8'));
  const bad = summaryText('n', { ...ok, ...failed, hef: null }, 10);
  assert.match(bad, /^The compile of n failed in optimize: /);
  assert.ok(bad.includes(failed.diagnostics.find((d) => d.severity === 'error')!.message));
});

test('the $hailo-dfc problem matcher reads the report lines, and leaves ONNX-node lines to the extension', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const matcher = pkg.contributes.problemMatchers.find((m: { name: string }) => m.name === 'hailo-dfc');
  const re = new RegExp(matcher.pattern.regexp);
  const p = matcher.pattern;
  for (const [name, ctx] of [
    [
      'model-script-syntax',
      { allsPath: '/w/model.alls', allsText: readFileSync(join(repoRoot, 'test', 'fixtures', 'dfc', 'model-script-syntax', 'model.alls'), 'utf8') },
    ],
    ['compiler-bug', {}],
    ['parse-unsupported-ops', {}],
  ] as const) {
    const report = readDfcLog(readFileSync(join(repoRoot, 'test', 'fixtures', 'dfc', name, 'run.log'), 'utf8'), { logPath: '/w/run.log', ...ctx });
    const lines = reportText(report, '/w/run.log').split('\n');
    const matched = lines.map((l) => re.exec(l)).filter((m): m is RegExpExecArray => !!m);
    const expected = report.diagnostics.filter((d) => d.node === undefined);
    assert.equal(matched.length, expected.length, `${name}: ${lines.join('\n')}`);
    expected.forEach((d, i) => {
      const m = matched[i];
      assert.deepEqual([m[p.file], Number(m[p.line]), Number(m[p.column]), m[p.severity], m[p.code]], [d.path, d.line, d.column, d.severity, d.code]);
      assert.ok(d.message.startsWith(m[p.message].slice(0, 40)), `${name}: message ${m[p.message]}`);
    });
  }
});

test("the compile's report text (CLI and output channel): the saved files beside the outputs, each path escaped", () => {
  // A cloned project's log can print anything after `Saved HAR to:` — here an OSC 8 hyperlink to a command and a C1 CSI.
  const hostile = '/tmp/hailo-tools/out/\x1b]8;;command:workbench.action.terminal.new\x07x.har\x9b31m';
  const log = `[info] Translation completed on ONNX model m (completion time: 00:00:01.00)\n[info] Saved HAR to: ${hostile}\n`;
  const report: CompileReport = {
    ...readDfcLog(log),
    outputs: { har: '/w/build/m.har', optimizedHar: null, hef: null },
    container: null,
    hef: null,
    log: '/w/build/m.dfc.log',
    calibration: null,
    notes: [],
  };
  assert.equal(report.saved.length, 1, 'the log names one saved HAR');
  const text = compileReportText(report, '/w/build/m.dfc.log');
  assert.ok(!/[\x1b\x07\x9b]/.test(text), JSON.stringify(text));
  const lines = text.split('\n');
  const at = lines.indexOf('outputs: har /w/build/m.har');
  assert.ok(at >= 0, text);
  // The reader drops the terminal's OSC sequences with the colours (no live link); what is left is shown escaped.
  assert.match(lines[at + 3], /^saved: {3}HAR \/tmp\/hailo-tools\/out\/x\.har\\x9b31m \(in the container; log line 2\)$/);
  // Without saved files the line says so, so a reader knows the log named none.
  assert.ok(compileReportText({ ...report, saved: [] }, 'l').includes('saved:   - (the log names no file the run saved)'));
});
