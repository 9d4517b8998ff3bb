// Fuzz: ≥ 10,000 seeded mutations of real scripts (../shared/corpus/alls, or examples/ when the
// corpus is absent). Every mutant must analyse without throwing or hanging, and every range the
// core returns — diagnostics, fixes, symbols, folding, tokens, completion, hover — must lie
// inside the document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
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
  type SymbolInfo,
} from '../../../server/src/core/alls';
import { LineIndex } from '../../../server/src/core/alls/lineIndex';
import type { Range } from '../../../server/src/core/common/types';
import { repoRoot, sharedPath } from '../../helpers/shared';
import { modelFromJson } from '../../helpers/allsModel';
import { listFiles } from '../../helpers/files';
import { prng } from '../../helpers/random';

const MUTATIONS = 10_000;
const SEED = 0x5eed_a115;

function sources(): { from: string; texts: string[] } {
  const corpus = sharedPath('corpus', 'alls'); // under CI its absence throws
  let files: string[] = [];
  try {
    if (corpus) files = listFiles(corpus, '.alls');
  } catch {
    files = [];
  }
  if (files.length === 0) {
    process.stderr.write('NOTE: fuzzing the examples/ scripts instead\n');
    files = listFiles(join(repoRoot, 'examples'), '.alls');
  }
  return { from: files.length ? files[0] : '', texts: files.map((f) => readFileSync(f, 'utf8')) };
}

const PIECES = [
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  ',',
  '=',
  ':',
  '#',
  '"',
  "'",
  '\n',
  '\r\n',
  '\r',
  ' ',
  '.',
  '*',
  '-',
  '/',
  ';',
  '\t',
  'é',
  '😀',
  '\uFFFD',
  'a8_w8',
  'precision_mode=',
  'context_0.place(',
  'quantization_param(',
  '{conv*}',
  '30m',
  '1e-5',
  'True',
  'x = ',
  '\u0000',
  'constructor',
  '__proto__=',
  'hasOwnProperty',
  'toString(',
];

function mutate(text: string, rnd: () => number): string {
  const pick = <T>(xs: T[]) => xs[Math.floor(rnd() * xs.length)];
  const at = () => Math.floor(rnd() * (text.length + 1));
  let out = text;
  const n = 1 + Math.floor(rnd() * 4);
  for (let k = 0; k < n; k++) {
    const i = Math.floor(rnd() * (out.length + 1));
    switch (Math.floor(rnd() * 6)) {
      case 0: // insert a piece
        out = out.slice(0, i) + pick(PIECES) + out.slice(i);
        break;
      case 1: // delete a span
        out = out.slice(0, i) + out.slice(Math.min(out.length, i + 1 + Math.floor(rnd() * 20)));
        break;
      case 2: // duplicate a span elsewhere
        {
          const a = at();
          const piece = text.slice(a, a + Math.floor(rnd() * 40));
          out = out.slice(0, i) + piece + out.slice(i);
        }
        break;
      case 3: // truncate
        out = out.slice(0, i);
        break;
      case 4: // replace one character with any code unit (lone surrogates included)
        out = out.slice(0, i) + String.fromCharCode(Math.floor(rnd() * 0xffff)) + out.slice(i + 1);
        break;
      default: // swap two halves
        out = out.slice(i) + out.slice(0, i);
    }
  }
  return out;
}

function checkRange(r: Range, lines: LineIndex, what: string): void {
  const ok = (p: Range['start']) =>
    p.line >= 0 && p.line < lines.lineCount && p.character >= 0 && p.character <= lines.lineEnd(p.line) - lines.lineStarts[p.line];
  assert.ok(ok(r.start) && ok(r.end), `${what}: range ${JSON.stringify(r)} outside the document (${lines.lineCount} lines)`);
  assert.ok(r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character), `${what}: reversed range ${JSON.stringify(r)}`);
}

function checkSymbols(syms: SymbolInfo[], lines: LineIndex): void {
  for (const s of syms) {
    checkRange(s.range, lines, 'symbol');
    checkRange(s.selectionRange, lines, 'symbol selection');
    if (s.children) checkSymbols(s.children, lines);
  }
}

const MODEL = modelFromJson({
  networkName: 'net',
  layers: [
    { name: 'conv1', type: 'conv' },
    { name: 'concat1', type: 'concat' },
    { name: 'matmul1', type: 'matmul' },
  ],
});

test(`alls fuzz: ${MUTATIONS} seeded mutations never throw, never hang, keep every range inside the document`, { timeout: 120_000 }, () => {
  const { texts } = sources();
  assert.ok(texts.length > 0, 'no scripts to fuzz');
  const rnd = prng(SEED);
  const started = Date.now();
  let slowest = 0;
  for (let m = 0; m < MUTATIONS; m++) {
    // A window of a real script (allocator dumps are megabytes; a window keeps each case small).
    const src = texts[Math.floor(rnd() * texts.length)];
    const from = Math.floor(rnd() * Math.max(1, src.length - 1500));
    const base = src.slice(from, from + 200 + Math.floor(rnd() * 1300));
    const text = mutate(base, rnd);
    const t0 = Date.now();
    try {
      const doc = analyze(text);
      const lines = new LineIndex(text);
      const model = m % 3 === 0 ? MODEL : undefined;
      for (const d of checkDocument(doc, { model, settings: { hwArch: m % 2 ? 'hailo8' : 'hailo10h' } })) {
        checkRange(d.range, lines, d.code);
        for (const r of d.related ?? []) checkRange(r.range, lines, `${d.code} related`);
        for (const f of d.fixes ?? []) for (const e of f.edits) checkRange(e.range, lines, `${d.code} fix`);
      }
      if (m % 5 === 0) {
        checkSymbols(documentSymbols(doc), lines);
        for (const f of foldingRanges(doc))
          assert.ok(f.startLine >= 0 && f.endLine < lines.lineCount && f.startLine <= f.endLine, `folding ${JSON.stringify(f)}`);
        for (const t of semanticTokens(doc)) {
          assert.ok(t.length > 0 && t.line < lines.lineCount, 'token line');
          assert.ok(t.character + t.length <= lines.lineEnd(t.line) - lines.lineStarts[t.line], `token runs past its line: ${JSON.stringify(t)}`);
        }
        const pos = lines.positionAt(Math.floor(rnd() * (text.length + 1)));
        for (const c of complete(doc, pos, { model })) checkRange(c.range, lines, 'completion');
        const h = hover(doc, pos, { model });
        if (h) checkRange(h.range, lines, 'hover');
        signatureHelp(doc, pos);
        for (const l of definition(doc, pos, { model })) if (!l.uri) checkRange(l.range, lines, 'definition');
      }
    } catch (err) {
      throw new Error(`mutation ${m} (seed ${SEED}) failed on ${JSON.stringify(text.slice(0, 300))}…: ${(err as Error).stack}`);
    }
    slowest = Math.max(slowest, Date.now() - t0);
    assert.ok(Date.now() - t0 < 2000, `mutation ${m} took ${Date.now() - t0} ms (a hang?)`);
  }
  process.stderr.write(`alls fuzz: ${MUTATIONS} mutations in ${Date.now() - started} ms (slowest ${slowest} ms)\n`);
});

test('alls bad input: binary junk, invalid UTF-8 decoded with U+FFFD, lone surrogates, empty text', () => {
  const rnd = prng(7);
  const junk = Array.from({ length: 20_000 }, () => String.fromCharCode(Math.floor(rnd() * 0xffff))).join('');
  for (const text of [junk.replace(/\u0000/g, ''), junk, '\uFFFD\uFFFD(\uFFFD', '\uD800quantization_param(\uDC00)', '', '\n\n\r\n']) {
    const doc = analyze(text);
    const diags = checkDocument(doc);
    const lines = new LineIndex(text);
    for (const d of diags) checkRange(d.range, lines, d.code);
    assert.ok(diags.length <= 1001, 'diagnostics are capped');
    if (text.includes('\u0000'))
      assert.deepEqual(
        diags.map((d) => d.code),
        ['alls/binary-file'],
      );
    if (text.trim() === '') assert.deepEqual(diags, []);
  }
});
