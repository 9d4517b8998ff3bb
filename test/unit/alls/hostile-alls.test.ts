// Issue 14, `.alls`: nesting without a limit overflowed the stack (the CLI printed nothing for any
// file of the folder, the server stopped answering hover), a line of commas cost ~190 bytes each,
// and semantic tokens were quadratic in a call's positional arguments. Each limit answers with a
// diagnostic (LIMITS in server/src/core/common/limits.ts) and every editor feature keeps working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  analyze,
  checkDocument,
  complete,
  definition,
  documentSymbols,
  foldingRanges,
  hover,
  semanticTokens,
  signatureHelp,
} from '../../../server/src/core/alls';
import { reanalyze } from '../../../server/src/core/alls/incremental';
import { main } from '../../../server/src/cli/main';
import type { ArgNode, NameNode } from '../../../server/src/core/alls/ast';
import { ArgNodeObject, NameNodeObject } from '../../../server/src/core/alls/nodes';
import { LIMITS } from '../../../server/src/core/common/limits';
import type { Diagnostic } from '../../../server/src/core/common/types';

const codes = (ds: Diagnostic[]) => ds.map((d) => d.code);

/** Runs every editor feature at a few offsets: none may throw. */
function everyFeature(text: string): void {
  const doc = analyze(text);
  checkDocument(doc);
  documentSymbols(doc);
  foldingRanges(doc);
  semanticTokens(doc);
  for (const offset of [0, Math.floor(text.length / 2), text.length]) {
    const pos = doc.lines.positionAt(offset);
    hover(doc, pos);
    complete(doc, pos);
    signatureHelp(doc, pos);
    definition(doc, pos);
  }
}

test('5,000 nested brackets: one alls/limit error at bracket 33, the next statement is still checked, every feature answers', () => {
  const deep = 'normalization1 = normalization(' + '['.repeat(5000) + ']'.repeat(5000) + ')\n';
  const text = deep + 'nonsense_command()\n';
  const ds = checkDocument(analyze(text));
  const limit = ds.filter((d) => d.code === 'alls/limit');
  assert.equal(limit.length, 1, JSON.stringify(ds));
  // `normalization(` is level 1, so the 32nd `[` is level 33: column 31 + 31 = 62 (0-based).
  assert.deepEqual(limit[0].range.start, { line: 0, character: 'normalization1 = normalization('.length + 31 });
  assert.match(
    limit[0].message,
    /^This bracket has 33 levels of nesting, over the limit of 32 levels: this bracket is skipped up to its closer; the rest of the file is still checked\.$/,
  );
  assert.ok(codes(ds).includes('alls/unknown-command'), 'the statement after the deep one is checked');
  everyFeature(text);
  // 100,000 levels, unclosed: the skip is iterative too.
  everyFeature('x = f(' + '{'.repeat(100_000) + '\n');
});

test('the CLI reports every file of a folder holding a deeply nested script', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-deep-'));
  try {
    writeFileSync(join(dir, 'a-deep.alls'), 'normalization1 = normalization(' + '['.repeat(20_000) + ')\n');
    writeFileSync(join(dir, 'b-good.alls'), 'nonsense_command()\n');
    let out = '';
    const code = await main(['check', '--json', dir], { out: (t) => void (out += t), err: () => undefined });
    assert.equal(code, 1);
    const report = JSON.parse(out);
    assert.equal(report.summary.files, 2);
    assert.ok(report.files[0].diagnostics.some((d: { code: string }) => d.code === 'alls/limit'));
    assert.ok(report.files[1].diagnostics.some((d: { code: string }) => d.code === 'alls/unknown-command'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a million empty arguments keep 10 errors and one summary line, not a million error objects', () => {
  const doc = analyze('quantization_param(' + ','.repeat(1_000_000) + ')\n');
  assert.equal(doc.script.errors.length, LIMITS.allsErrorsPerStatement.value + 1);
  const ds = checkDocument(doc);
  assert.equal(ds.filter((d) => d.message === 'expected a value before `,`').length, 10);
  // the call has 1,000,000 commas; 10 are listed and the other 999,990 counted (plus the item limit)
  assert.ok(
    ds.some(
      (d) =>
        d.code === 'alls/limit' && /^\d{3},\d{3} more syntax problems in this statement are not listed \(at most 10 per statement are\)\.$/.test(d.message),
    ),
    JSON.stringify(ds.slice(-2)),
  );
});

test('more than 10,000 items in one bracket: one alls/limit error at the first item too many; the rest of the bracket is skipped', () => {
  const text = 'quantization_param(' + 'conv1,'.repeat(640_000 / 2) + 'conv1)\nnonsense_command()\n';
  const doc = analyze(text);
  assert.equal(doc.statements[0].node.call!.args.length, 10_000);
  const ds = checkDocument(doc);
  const hit = ds.find((d) => d.code === 'alls/limit')!;
  assert.equal(hit.range.start.character, 'quantization_param('.length + 'conv1,'.length * 10_000);
  assert.match(hit.message, /^This call has more than 10,000 items, over the limit of 10,000 items: the rest of this bracket is skipped/);
  assert.ok(codes(ds).includes('alls/unknown-command'));
  // the same in a list
  const list = checkDocument(analyze('x = f([' + 'a,'.repeat(10_001) + 'a])\n'));
  assert.ok(list.some((d) => d.code === 'alls/limit' && d.message.startsWith('This list has more than 10,000 items')));
});

test('files over the size limits are not analysed, with one warning on line 1 (lines, tokens, characters)', () => {
  const lines = checkDocument(analyze('transpose()\n'.repeat(100_001)));
  assert.deepEqual(codes(lines), ['alls/limit']);
  assert.equal(lines[0].severity, 'warning');
  assert.match(lines[0].message, /^This file has more than 100,000 lines, over the limit of 100,000 lines: the file is not analysed/);
  const tokens = checkDocument(analyze('x = f(' + 'a,'.repeat(1_000_001) + ')\n'));
  assert.deepEqual(codes(tokens), ['alls/limit']);
  assert.match(tokens[0].message, /^This file has more than 2,000,000 tokens, over the limit of 2,000,000 tokens/);
  const chars = checkDocument(analyze('#'.repeat(16 * 1024 * 1024 + 1)));
  assert.match(chars[0].message, /^This file has 16,777,217 characters, over the limit of 16,777,216 characters: the file is not analysed/);
  // Under the limits nothing changes.
  assert.deepEqual(codes(checkDocument(analyze('transpose()\n'.repeat(1000)))), []);
});

test('an edit that takes a script over a limit (or back under it) re-analyses like a fresh analysis', () => {
  const base = 'normalization1 = normalization([0, 0, 0], [1, 1, 1])\n'.repeat(10);
  const prev = analyze(base);
  const big = base + 'transpose()\n'.repeat(100_001);
  const over = reanalyze(prev, big);
  assert.match(over.skipped ?? '', /100,000 lines/);
  const back = reanalyze(over, base);
  assert.equal(back.skipped, undefined);
  assert.equal(back.statements.length, 10);
  // deep nesting inserted by an edit: the same errors as a fresh analysis
  const edited = base.replace('[0, 0, 0]', '['.repeat(40) + ']'.repeat(40));
  assert.deepEqual(
    reanalyze(analyze(base), edited).script.errors.map((e) => [e.start, e.code]),
    analyze(edited).script.errors.map((e) => [e.start, e.code]),
  );
});

test("semantic tokens are linear in a call's positional arguments (200,000 arguments in well under 10 s; quadratic took minutes)", () => {
  // The parser stops at 10,000 items per bracket, so the core function is given a statement with
  // 200,000 positional arguments directly: its cost must not grow with arguments × arguments.
  const doc = analyze('quantization_param(conv1)\n');
  const st = doc.statements[0];
  const args: ArgNode[] = [];
  for (let i = 0; i < 200_000; i++) args.push(new ArgNodeObject(19, 24, undefined, new NameNodeObject(19, 24, 'conv1') as NameNode));
  st.node.call!.args = args;
  st.positionals = args;
  const t0 = performance.now();
  const tokens = semanticTokens(doc);
  const ms = performance.now() - t0;
  assert.ok(tokens.length >= 2, 'the command name and the first argument are highlighted');
  assert.ok(ms < 10_000, `semantic tokens took ${ms.toFixed(0)} ms for 200,000 arguments`);
});

test('a budget that has run out stops semantic tokens, folding and symbols after the statements they had time for', () => {
  const text = 'conv1 = quantization_param(conv1)\n'.repeat(1000) + '# a comment at the end\n';
  const doc = analyze(text);
  const spent = { ms: 0, expired: () => true };
  const full = semanticTokens(doc);
  const part = semanticTokens(doc, spent);
  assert.ok(part.length > 0 && part.length < full.length, `${part.length} of ${full.length}`);
  assert.ok(
    part.every((t) => t.line < 256),
    'only the statements before the first look at the clock',
  );
  assert.ok(!part.some((t) => t.type === 'comment'), 'comments after the stop are left out too');
  const symbols = documentSymbols(doc, spent);
  assert.equal(
    symbols.reduce((n, s) => n + (s.children?.length ?? 0), 0),
    256,
  );
  assert.ok(foldingRanges(doc, spent).length <= foldingRanges(doc).length);
});

test('an edit before a bare name at the very end of the file reports its error once (found by the fuzz suite)', () => {
  const a = 'a()\nb()\nc()\nx = f(1)\nmodel_optimization_flavor(optimization_level=2, compression_level=2)\npre';
  const b = a.replace('compre', 'compre' + 'layer_noise_analysis, policy=enab');
  const errors = (d: ReturnType<typeof analyze>) => d.script.errors.map((e) => `${e.code}@${e.start}`);
  assert.deepEqual(errors(reanalyze(analyze(a), b)), errors(analyze(b)));
  assert.equal(errors(analyze(b)).filter((e) => e.endsWith(`@${b.length}`)).length, 1);
});
