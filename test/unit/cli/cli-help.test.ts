// `hailo-tools --version` / `-V` and the help tables of the CLI and of every sub-command: each
// table's descriptions start in one column that clears its longest name by two spaces, and a
// description's further lines start in that column too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { repoRoot } from '../../helpers/shared';

async function run(...args: string[]) {
  let out = '';
  let err = '';
  const code = await main(args, { out: (t) => void (out += t), err: (t) => void (err += t) });
  return { code, out, err };
}

interface Table {
  rows: { line: string; name: string; column: number }[];
  continuations: { line: string; column: number }[];
}

/** The tables of a help text: "  NAME  description" rows and the deeper-indented lines after them. */
function tables(help: string): Table[] {
  const out: Table[] = [];
  let current: Table | undefined;
  for (const line of help.split('\n')) {
    if (/^ {2}\S/.test(line)) {
      current ??= { rows: [], continuations: [] };
      if (!out.includes(current)) out.push(current);
      const gap = / {2,}(?=\S)/.exec(line.slice(2));
      current.rows.push({ line, name: gap ? line.slice(2, 2 + gap.index) : line.slice(2), column: gap ? 2 + gap.index + gap[0].length : -1 });
    } else if (current && /^ {3,}\S/.test(line)) current.continuations.push({ line, column: line.search(/\S/) });
    else current = undefined;
  }
  return out;
}

function assertAligned(help: string, what: string) {
  const found = tables(help);
  assert.ok(found.length > 0, `${what}: has a table`);
  for (const t of found) {
    const longest = Math.max(...t.rows.map((r) => r.name.length));
    const column = 2 + longest + 2;
    for (const r of t.rows)
      assert.equal(r.column, column, `${what}: the description of "${r.name}" starts at column ${column} (the longest name + 2):\n${r.line}`);
    for (const c of t.continuations) assert.equal(c.column, column, `${what}: a continued description starts at column ${column}:\n${c.line}`);
  }
}

test('cli: --version and -V print the package version and exit 0', async () => {
  const { version } = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string };
  for (const flag of ['--version', '-V']) {
    const r = await run(flag);
    assert.equal(r.code, 0, flag);
    assert.equal(r.out, `${version}\n`, flag);
    assert.equal(r.err, '', flag);
  }
  assert.match((await run('--help')).out, /hailo-tools --version/);
});

test('cli: the command table fits its longest name (transcribe), and lists every command', async () => {
  const help = (await run('--help')).out;
  assertAligned(help, 'hailo-tools --help');
  assert.match(help, /^ {2}transcribe {2}transcribe a WAV recording/m);
  assert.match(help, /^ {2}accuracy {4}one table of every oracle/m);
  const names = tables(help)[0].rows.map((r) => r.name);
  for (const name of ['check', 'hef', 'compile', 'onnx', 'calib', 'accuracy', 'dfc-log', 'lsp', 'devices', 'run', 'chat', 'transcribe'])
    assert.ok(names.includes(name), name);
});

test("cli: every sub-command's --help exits 0 and its option table fits its longest option", async () => {
  const help = (await run('--help')).out;
  const names = tables(help)[0].rows.map((r) => r.name);
  for (const name of names) {
    const r = await run(name, '--help');
    assert.equal(r.code, 0, `${name} --help: ${r.err}`);
    assert.match(r.out, new RegExp(`^usage: hailo-tools ${name}`), name);
    if (name !== 'lsp') assertAligned(r.out, `hailo-tools ${name} --help`);
  }
});
