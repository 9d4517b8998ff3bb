// TextMate grammar: scope assertions in test/fixtures/grammar/*.alls, checked by vscode-tmgrammar-test
// (the `# ^^^ scope` comments under each line), plus a negative control so the check itself can fail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tm from 'vscode-textmate';
import * as onig from 'vscode-oniguruma';
import { repoRoot, sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';
import { listFiles } from '../../helpers/files';

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
  const text = readFileSync(join(fixtures, 'statements.alls'), 'utf8').replace('support.constant.enum.precision-mode.alls', 'constant.numeric.alls');
  const dir = mkdtempSync(join(tmpdir(), 'alls-grammar-'));
  const file = join(dir, 'negative.alls');
  writeFileSync(file, text);
  const r = runGrammarTest(file);
  assert.notEqual(r.status, 0);
  assert.match(r.stdout + r.stderr, /missing required scopes: constant\.numeric\.alls/);
});

// Every non-blank character of every real script gets a scope of its own (nothing falls through
// to bare `source.alls`): the grammar understands the whole corpus, including allocator dumps.

async function loadGrammar(): Promise<tm.IGrammar> {
  const wasm = readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm'));
  await onig.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
  const registry = new tm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (s: string[]) => new onig.OnigScanner(s),
      createOnigString: (s: string) => new onig.OnigString(s),
    }),
    loadGrammar: async () => tm.parseRawGrammar(readFileSync(grammar, 'utf8'), grammar),
  });
  const g = await registry.loadGrammar('source.alls');
  if (!g) throw new Error('grammar did not load');
  return g;
}

function unscoped(g: tm.IGrammar, text: string): string[] {
  const misses: string[] = [];
  let state = tm.INITIAL;
  for (const line of text.split(/\r?\n/)) {
    const r = g.tokenizeLine(line, state);
    state = r.ruleStack;
    for (const t of r.tokens) {
      const piece = line.slice(t.startIndex, t.endIndex).trim();
      if (piece && t.scopes.length === 1) misses.push(`${piece} in: ${line.slice(0, 100)}`);
    }
  }
  return misses;
}

test('grammar: every token of the grammar fixtures is scoped', async () => {
  const g = await loadGrammar();
  for (const f of listFiles(fixtures, '.alls')) assert.deepEqual(unscoped(g, readFileSync(f, 'utf8')), [], f);
});

test('grammar: every token of every corpus script is scoped', async (t) => {
  const corpus = sharedPath('corpus', 'alls');
  if (!corpus) return t.skip(SKIP_NO_SHARED);
  const g = await loadGrammar();
  const files = listFiles(corpus, '.alls');
  assert.ok(files.length > 200, `expected the 246-file corpus, found ${files.length}`);
  const misses = files.flatMap((f) => unscoped(g, readFileSync(f, 'utf8')).map((m) => `${f}: ${m}`));
  assert.deepEqual(misses.slice(0, 10), []);
});
