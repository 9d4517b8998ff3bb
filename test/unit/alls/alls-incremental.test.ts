// Incremental re-analysis must equal a full analysis: chains of seeded random edits (typing,
// deleting, pasting lines, breaking and fixing brackets) on real scripts, compared after each step
// on tokens, syntax tree, syntax errors, comments, definitions and the diagnostics.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze, type AllsDocument } from '../../../server/src/core/alls/analysis';
import { reanalyze } from '../../../server/src/core/alls/incremental';
import { checkDocument } from '../../../server/src/core/alls/rules';
import { repoRoot, sharedPath, skipUnless } from '../../helpers/shared';
import { listFiles } from '../../helpers/files';
import { prng } from '../../helpers/random';

/** Everything observable about an analysis, without object identity. */
function snapshot(doc: AllsDocument): unknown {
  const ts = doc.script.tokens;
  return {
    tokens: [
      Array.from(ts.kinds.subarray(0, ts.length)),
      Array.from(ts.starts.subarray(0, ts.length)),
      Array.from(ts.ends.subarray(0, ts.length)),
      [...ts.unterminatedAt].sort((a, b) => a - b),
    ],
    statements: doc.script.statements,
    errors: doc.script.errors,
    comments: doc.script.comments,
    trailing: doc.script.trailingComments,
    resolved: doc.statements.map((s) => [
      s.index,
      s.spec?.name,
      s.sub?.name,
      s.isMethod,
      s.positionals.length,
      s.keywords.length,
      s.signature ? s.spec?.signatures.indexOf(s.signature) : -1,
    ]),
    definitions: [...doc.definitions.entries()].map(([k, v]) => [k, v.map((d) => [d.statement, d.node.start, d.command])]),
    lines: doc.lines.lineStarts,
    diagnostics: checkDocument(doc),
  };
}

const SNIPPETS = [
  '(',
  ')',
  '[',
  ']',
  ',',
  '=',
  '\n',
  '\r\n',
  '# c\n',
  'x',
  'quantization_param(conv1, precision_mode=a8_w8)\n',
  'normalization1 = normalization([1.0], [2.0]\n',
  '"',
  'context_0.place(0, [a])\n',
  '{conv*}',
  '  ',
];

function edit(text: string, rnd: () => number): string {
  const i = Math.floor(rnd() * (text.length + 1));
  switch (Math.floor(rnd() * 5)) {
    case 0:
      return text.slice(0, i) + SNIPPETS[Math.floor(rnd() * SNIPPETS.length)] + text.slice(i);
    case 1:
      return text.slice(0, i) + text.slice(i + 1 + Math.floor(rnd() * 8));
    case 2: {
      // delete or duplicate a whole line
      const ls = text.indexOf('\n', i);
      const le = text.indexOf('\n', ls + 1);
      if (ls < 0 || le < 0) return text + '\n';
      return rnd() < 0.5 ? text.slice(0, ls) + text.slice(le) : text.slice(0, le) + text.slice(ls, le) + text.slice(le);
    }
    case 3:
      return text.slice(0, i) + String.fromCharCode(32 + Math.floor(rnd() * 95)) + text.slice(i + 1);
    default:
      return text.slice(0, i) + text.slice(i, i + 30).toUpperCase() + text.slice(i + 30);
  }
}

test('alls incremental: chains of random edits give exactly what a full analysis gives', { timeout: 120_000 }, () => {
  const corpus = sharedPath('corpus', 'alls'); // under CI its absence throws
  let files = corpus ? listFiles(corpus, '.alls') : [];
  if (files.length === 0) {
    process.stderr.write('NOTE: using examples/ for incremental edits\n');
    files = listFiles(join(repoRoot, 'examples'), '.alls');
  }
  // Keep it to a few seconds: mid-sized scripts (the big ones are covered by the focused test below).
  const texts = files.map((f) => readFileSync(f, 'utf8')).filter((t) => t.length > 200 && t.length < 60_000);
  const rnd = prng(0xed17);
  let steps = 0;
  let reused = 0;
  for (let chain = 0; chain < 60; chain++) {
    let text = texts[Math.floor(rnd() * texts.length)];
    let doc = analyze(text);
    for (let step = 0; step < 15; step++, steps++) {
      const next = edit(text, rnd);
      const before = new Set(doc.script.statements);
      const inc = reanalyze(doc, next);
      if (inc.script.statements.some((st) => before.has(st))) reused++;
      const full = analyze(next);
      assert.deepEqual(snapshot(inc), snapshot(full), `chain ${chain} step ${step}: incremental ≠ full after editing\n${JSON.stringify(next.slice(0, 400))}`);
      text = next;
      doc = inc;
    }
  }
  assert.ok(steps >= 900);
  // Most steps must take the window path (statements reused), not the full-parse fallback.
  assert.ok(reused > steps * 0.6, `only ${reused} of ${steps} edits were incremental`);
});

test(
  'alls incremental: a one-line edit in the middle of the 1 MB dump re-parses only a window',
  { skip: skipUnless(sharedPath('corpus', 'alls'), '../shared/corpus/alls') },
  () => {
    const path = listFiles(sharedPath('corpus', 'alls')!, '.alls').find((f) => f.endsWith('hailo15l/base/vit_base_bn.alls'));
    if (!path) return;
    const text = readFileSync(path, 'utf8');
    const doc = analyze(text);
    const kept = doc.script.statements[doc.script.statements.length - 1];
    const mid = text.indexOf('\n', text.length >> 1) + 1;
    const edited = text.slice(0, mid) + 'quantizaton_param(conv1)\n' + text.slice(mid);
    const inc = reanalyze(doc, edited);
    // The last statement is the same object, shifted — not re-parsed.
    assert.equal(inc.script.statements[inc.script.statements.length - 1], kept);
    assert.deepEqual(snapshot(inc), snapshot(analyze(edited)));
  },
);
