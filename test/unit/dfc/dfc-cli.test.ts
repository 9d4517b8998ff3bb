// `hailo-tools dfc-log`: the exact JSON document and exit codes of issue 8, stdin, --alls/--onnx,
// unreadable input in one sentence, and no terminal control byte from a log reaching the terminal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../../../server/src/cli/main';
import { repoRoot } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

const FIX = join(repoRoot, 'test', 'fixtures', 'dfc');

async function run(args: string[], stdin?: string) {
  const io = captureIO(stdin === undefined ? undefined : Readable.from([Buffer.from(stdin, 'utf8')]));
  const code = await main(['dfc-log', ...args], io);
  return { code, out: io.outText, err: io.errText };
}

test('cli dfc-log --json: the documented keys in order, 1-based positions, exit 0 for a successful run', async () => {
  const r = await run(['--json', join(FIX, 'success-dfc3-hailomz', 'run.log')]);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.deepEqual(Object.keys(j), [
    'outcome',
    'failedStage',
    'stages',
    'dfcVersion',
    'hailortVersion',
    'hwArch',
    'network',
    'summary',
    'recommendedEndNodes',
    'diagnostics',
    'saved',
  ]);
  assert.equal(j.outcome, 'success');
  assert.equal(j.failedStage, null);
  assert.deepEqual(Object.keys(j.stages[0]), ['name', 'status', 'seconds']);
  assert.deepEqual(
    j.stages.map((s: { name: string }) => s.name),
    ['parse', 'optimize', 'compile'],
  );
  assert.equal(j.summary.contexts, 2);
  const d = j.diagnostics[0];
  assert.deepEqual(Object.keys(d).slice(0, 8), ['path', 'line', 'column', 'endLine', 'endColumn', 'severity', 'code', 'message']);
  // The "[warning] Reducing optimization level to 0 …" line is the 15th of the log; the path is the log.
  assert.equal(d.line, 15);
  assert.equal(d.column, 1);
  assert.equal(d.path, join(FIX, 'success-dfc3-hailomz', 'run.log'));
});

test('cli dfc-log: exit 1 for failed, killed and incomplete runs', async () => {
  for (const c of ['parse-unsupported-ops', 'killed-line', 'incomplete']) {
    const r = await run(['--json', join(FIX, c, 'run.log')]);
    assert.equal(r.code, 1, c);
    assert.notEqual(JSON.parse(r.out).outcome, 'success');
  }
});

test('cli dfc-log --alls --onnx: diagnostics on the script line and on the ONNX node (path = the model, node = its name)', async () => {
  const s = await run(['--json', '--alls', join(FIX, 'wraparound-a16w4', 'model.alls'), join(FIX, 'wraparound-a16w4', 'run.log')]);
  const d = JSON.parse(s.out).diagnostics[0];
  assert.equal(d.path, join(FIX, 'wraparound-a16w4', 'model.alls'));
  // `quantization_param({*}, precision_mode=a16_w4)`: a16_w4 starts at character 40.
  assert.deepEqual([d.line, d.column, d.endColumn], [1, 40, 46]);

  const model = join(FIX, 'parse-unsupported-shuffle', 'model.onnx');
  const o = await run(['--json', '--onnx', model, join(FIX, 'parse-unsupported-shuffle', 'run.log')]);
  const j = JSON.parse(o.out);
  assert.equal(j.diagnostics.length, 3);
  for (const x of j.diagnostics) {
    assert.equal(x.path, model);
    assert.ok(x.node.startsWith('CCT_OCR_1/'));
  }
  assert.equal(j.recommendedEndNodes.length, 4);
});

test('cli dfc-log: text output lists stages, summary and file:line:col severity code message', async () => {
  const r = await run([join(FIX, 'success-dfc3-hailomz', 'run.log')]);
  assert.equal(r.code, 0);
  assert.match(r.out, /: success\n/);
  assert.match(r.out, /compile +ok +4m 30s/); // 4m 25s allocation + 5s compilation
  assert.match(r.out, /utilisation +control 59\.4%, compute 55\.9%, memory 33\.5%/);
  assert.match(r.out, /run\.log:15:1: warning dfc\/optimization-level-0 /);
});

test('cli dfc-log -: reads the log from stdin', async () => {
  const r = await run(
    ['--json', '-'],
    '[info] Translation started on ONNX model m\n[info] Translation completed on ONNX model m (completion time: 00:00:01.50)\n',
  );
  const j = JSON.parse(r.out);
  assert.equal(j.stages[0].status, 'ok');
  assert.equal(j.stages[0].seconds, 1.5);
  // No command line says more was meant, and the one stage that ran finished: a parse-only run (issue 30;
  // a `hailomz compile` line before it keeps it incomplete: dfc-catalogue.test.ts).
  assert.equal(j.outcome, 'success');
  assert.equal(r.code, 0);
});

test('cli dfc-log: unreadable input is one sentence and exit 2', async () => {
  const cases: [string[], RegExp][] = [
    [[join(FIX, 'no-such.log')], /cannot read the log \(no such file\)/],
    [[FIX], /is a folder, not a log file/],
    [['--alls', join(FIX, 'nope.alls'), join(FIX, 'incomplete', 'run.log')], /cannot read the model script/],
    [['--onnx', join(FIX, 'incomplete', 'run.log'), join(FIX, 'incomplete', 'run.log')], /not readable ONNX/],
    [[], /expected one LOG/],
    [['--bogus', 'x'], /unknown option '--bogus'/],
  ];
  for (const [args, re] of cases) {
    const r = await run(args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.err, re);
    assert.equal(r.out, '');
  }
});

test('cli dfc-log: terminal control bytes in the log never reach the terminal (text and JSON)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'dfclog-'));
  try {
    const evil = 'Traceback (most recent call last):\n  File "x.py", line 1, in <module>\nRuntimeError: boom \x1b]0;pwned\x07\x1b[2J\x9b31m\u202egnp.exe\n';
    const f = join(dir, 'evil.log');
    writeFileSync(f, evil);
    for (const args of [[f], ['--json', f]]) {
      const r = await run(args);
      assert.equal(r.code, 1);
      assert.doesNotMatch(r.out, /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202e]/, `no raw control character in ${args.join(' ')}`);
      assert.match(r.out, /boom/);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
