// TextMate grammar: scope assertions in test/fixtures/grammar/*.alls, checked by vscode-tmgrammar-test
// (the `# ^^^ scope` comments under each line), plus a negative control so the check itself can fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../helpers/shared';

const cli = join(repoRoot, 'node_modules', 'vscode-tmgrammar-test', 'dist', 'unit.js');
const grammar = join(repoRoot, 'syntaxes', 'alls.tmLanguage.json');
const fixtures = join(repoRoot, 'test', 'fixtures', 'grammar');

function runGrammarTest(file: string) {
  return spawnSync(process.execPath, [cli, '-g', grammar, file], { encoding: 'utf8' });
}

test('grammar: the committed grammar is valid JSON with the source.alls scope', () => {
  const g = JSON.parse(readFileSync(grammar, 'utf8'));
  assert.equal(g.scopeName, 'source.alls');
});

for (const name of readdirSync(fixtures).filter((f) => f.endsWith('.alls'))) {
  test(`grammar: scope assertions hold in ${name}`, () => {
    const r = runGrammarTest(join(fixtures, name));
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
}

test('grammar: a wrong scope assertion is reported (negative control)', () => {
  const text = readFileSync(join(fixtures, 'statements.alls'), 'utf8').replace(
    'support.constant.enum.precision-mode.alls',
    'constant.numeric.alls',
  );
  const dir = mkdtempSync(join(tmpdir(), 'alls-grammar-'));
  const file = join(dir, 'negative.alls');
  writeFileSync(file, text);
  const r = runGrammarTest(file);
  assert.notEqual(r.status, 0);
  assert.match(r.stdout + r.stderr, /missing required scopes: constant\.numeric\.alls/);
});
