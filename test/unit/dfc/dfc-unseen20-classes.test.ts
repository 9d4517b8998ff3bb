// Classes the twenty-first batch of users' logs (dfc-corpus unseen20/) showed the reader missing, and the metamorphic
// suites found once that batch was read: CLI11's refusal of a command line (hailortcli's parser, unseen20/05) is a
// usage refusal like argparse's and click's; procps top's `%Cpu(s):` summary line is no IPython `%magic` (a shell
// prompt's retry that would decide the outcome); a relay's level column padded after its brackets, where the widest
// level fills the column and leaves no padding at all (the logger-shapes suite, seed 1).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog } from '../../../server/src/core/dfc';
import { repoRoot } from '../../helpers/shared';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const corpusLines = (half: string, num: string) => {
  const dir = join(repoRoot, 'test', 'fixtures', 'dfc-corpus', half);
  const name = readdirSync(dir).find((n) => n.startsWith(`${num}-`))!;
  return readFileSync(join(dir, name, 'run.log'), 'utf8')
    .replace(/\n$/, '')
    .split('\n');
};
const codes = (r: ReturnType<typeof read>) => [...new Set(r.diagnostics.map((d) => `${d.code}:${d.severity}`))].sort();

test("CLI11's refusal — its error's words, then `Run with --help for more information.` — is dfc/usage: nothing ran", () => {
  // CLI11's own example programs' expected output (CLIUtils/CLI11 examples/CMakeLists.txt, PASS_REGULAR_EXPRESSION of
  // `range` and `simple`): `FailureMessage::simple` prints `e.what()`, then the footer (include/CLI/impl/App_inl.hpp).
  for (const [what, words] of [
    ['--value: Value 9 not in range [3 - 6]', 'Value 9 not in range'],
    ['--file is required', '--file is required'],
  ]) {
    const r = read([what, 'Run with --help for more information.']);
    const usage = r.diagnostics.filter((d) => d.code === 'dfc/usage');
    assert.equal(usage.length, 1, what);
    assert.equal(usage[0].severity, 'error');
    assert.equal(usage[0].line, 1, 'the refusal is the line before the footer');
    assert.ok(usage[0].message.includes(words), usage[0].message);
    assert.equal(r.outcome, 'failed');
  }
  // Both help flags named (`names` joined by " or ": `--help` and `--help-all`), and CLI11's ExtrasError's words (include/CLI/Error.hpp).
  const r = read(['The following arguments were not expected: --hef yolov8s.hef', 'Run with --help or --help-all for more information.']);
  assert.ok(
    r.diagnostics.some((d) => d.code === 'dfc/usage' && d.message.includes('were not expected')),
    JSON.stringify(r.diagnostics),
  );
  // The batch's log: hailortcli's `A subcommand is required` (CLI11's RequiredError::Subcommand(1)) and `hef is required`.
  const b = readDfcLog(`${corpusLines('unseen20', '05').join('\n')}\n`, { logPath: 'run.log' });
  const said = b.diagnostics.filter((d) => d.code === 'dfc/usage').map((d) => d.message);
  assert.ok(
    said.some((m) => m.includes('A subcommand is required')),
    said.join('\n'),
  );
  assert.ok(
    said.some((m) => m.includes('hef is required')),
    said.join('\n'),
  );
});

test("procps top's `%Cpu(s):` line is top's summary, not an IPython `%magic`: a second snapshot is no retry", () => {
  // `top -bn1` as procps-ng prints it (this machine, 2026-12-07), twice after a refused command line: an IPython magic
  // is `%name` then its arguments (https://ipython.readthedocs.io/en/stable/interactive/magics.html), never `%Cpu(s):`.
  const top = (clock: string, cpu: string) => [
    `top - ${clock} up  4:46,  0 user,  load average: 4.84, 3.42, 3.85`,
    'Tasks:  93 total,   4 running,  89 sleeping,   0 stopped,   0 zombie',
    `%Cpu(s):  ${cpu} us,100.0 sy,  0.0 ni,  0.0 id,  0.0 wa,  0.0 hi,  0.0 si,  0.0 st `,
    'MiB Mem :  24105.3 total,  17438.1 free,   2718.8 used,   4267.8 buff/cache     ',
    'MiB Swap:      0.0 total,      0.0 free,      0.0 used.  21386.4 avail Mem ',
    '',
  ];
  const r = read(['--file is required', 'Run with --help for more information.', '', ...top('06:07:15', '0.0'), ...top('06:07:17', '3.1')]);
  assert.equal(r.outcome, 'failed');
  assert.deepEqual(codes(r), ['dfc/usage:error']);
});

test('a relay level column padded after its brackets reads the same where the widest level fills it (no padding at all)', () => {
  // Python's `%-9s` pads `<Info>` with three spaces and `<Warning>` (9 characters) with none: one column, one
  // separator after it. The DFC lines of another log than the one the suite met it on (unseen3/13, its `[warning]`).
  const lines = corpusLines('unseen3', '13');
  const level = (l: string) => (/^\[warning\]/.test(l) ? '<Warning>' : '<Info>');
  for (const sep of [': ', ' | ', ' - ']) {
    const shaped = lines.map((l, i) => `2026-12-07 06:10:${String(10 + i).padStart(2, '0')},${String(100 + i)} ${level(l).padEnd(9)}${sep}${l}`);
    const plain = read(lines);
    const r = read(shaped);
    assert.ok(
      codes(plain).some((c) => c.endsWith(':warning')),
      'the plain log has its warning',
    );
    assert.deepEqual(codes(r), codes(plain), sep);
    assert.equal(r.outcome, plain.outcome, sep);
  }
});
