// Fixture folders for the `.alls` checker (svelte-style): test/fixtures/alls/<case>/input.alls
// [+ options.json] + expected.json. Each folder becomes a test. A missing expected.json fails
// the test; run with UPDATE_FIXTURES=1 to write the missing ones, then review them by eye.
// UPDATE_FIXTURES=all rewrites every expected.json (review the git diff).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../server/src/alls/analysis';
import { decodeScript, mergeEncodingDiagnostics } from '../../server/src/alls/encoding';
import { nmsConfigResolver } from '../../server/src/alls/nodeHost';
import { checkDocument, type CheckOptions } from '../../server/src/alls/rules';
import { RULES } from '../../server/src/alls/codes';
import { resolveSettings } from '../../server/src/common/settings';
import type { Diagnostic } from '../../server/src/common/types';
import { repoRoot } from '../helpers/shared';
import { modelFromJson, type ModelJson } from './alls-model';

const root = join(repoRoot, 'test', 'fixtures', 'alls');
const update = process.env.UPDATE_FIXTURES;

interface CaseOptions {
  hwArch?: string;
  model?: ModelJson;
  /** Check nms_postprocess config paths against the fixture folder. */
  files?: boolean;
  maxDiagnostics?: number;
}

function pos(p: { line: number; character: number }): string {
  return `${p.line + 1}:${p.character + 1}`;
}

/** One readable line per diagnostic, one per fix edit: easy to review in a diff. */
export function render(diags: Diagnostic[]): { diagnostics: string[]; fixes: string[] } {
  const diagnostics: string[] = [];
  const fixes: string[] = [];
  for (const d of diags) {
    diagnostics.push(`${pos(d.range.start)}-${pos(d.range.end)} ${d.severity} ${d.code} ${d.message}`);
    for (const r of d.related ?? []) diagnostics.push(`    related ${pos(r.range.start)}-${pos(r.range.end)} ${r.message}`);
    for (const f of d.fixes ?? []) {
      for (const e of f.edits) fixes.push(`${d.code} @${pos(d.range.start)}: ${f.title}${f.preferred ? ' (preferred)' : ''} => ${pos(e.range.start)}-${pos(e.range.end)} ${JSON.stringify(e.newText)}`);
    }
  }
  return { diagnostics, fixes };
}

export function runCase(dir: string): { diagnostics: string[]; fixes: string[] } {
  const input = join(dir, 'input.alls');
  const optPath = join(dir, 'options.json');
  const o: CaseOptions = existsSync(optPath) ? JSON.parse(readFileSync(optPath, 'utf8')) : {};
  const { text, diagnostics: encoding } = decodeScript(readFileSync(input));
  const options: CheckOptions = { settings: resolveSettings({ hwArch: o.hwArch }) };
  if (o.model) options.model = modelFromJson(o.model);
  if (o.files) options.fileExists = nmsConfigResolver(input, {});
  if (o.maxDiagnostics) options.maxDiagnostics = o.maxDiagnostics;
  return render(mergeEncodingDiagnostics(encoding, checkDocument(analyze(text), options)));
}

const cases = existsSync(root) ? readdirSync(root).filter((n) => existsSync(join(root, n, 'input.alls'))).sort() : [];

test('alls fixtures: the folder exists and has cases', () => {
  assert.ok(cases.length >= 40, `expected the fixture folders under ${root}, found ${cases.length}`);
});

for (const name of cases) {
  test(`alls fixture: ${name}`, () => {
    const dir = join(root, name);
    const expectedPath = join(dir, 'expected.json');
    const actual = runCase(dir);
    if (update === 'all' || (update && !existsSync(expectedPath))) {
      writeFileSync(expectedPath, JSON.stringify(actual, null, 2) + '\n');
      return;
    }
    assert.ok(existsSync(expectedPath), `${name}: expected.json is missing — run UPDATE_FIXTURES=1 node test/run.mjs alls-fixtures, then review it`);
    const expected = JSON.parse(readFileSync(expectedPath, 'utf8'));
    assert.deepEqual(actual, expected);
  });
}

test('alls fixtures: every diagnostic code is exercised by a positive case, every rule has a negative (-ok) case', () => {
  const seen = new Set<string>();
  for (const name of cases) {
    const p = join(root, name, 'expected.json');
    if (!existsSync(p)) continue;
    for (const line of JSON.parse(readFileSync(p, 'utf8')).diagnostics as string[]) {
      const m = /^\S+ \w+ (alls\/[\w-]+) /.exec(line);
      if (m) seen.add(m[1]);
    }
  }
  const missing = Object.keys(RULES).filter((c) => !seen.has(c));
  assert.deepEqual(missing, [], `codes no fixture produces: ${missing.join(', ')}`);
  const rules = new Set(Object.values(RULES).map((r) => r.rule).filter((r) => /^R\d+$/.test(r)));
  const withOk = new Set(cases.filter((c) => c.endsWith('-ok')).map((c) => /^r(\d+)-/.exec(c)?.[1]).filter(Boolean).map((n) => `R${Number(n)}`));
  const noNegative = [...rules].filter((r) => !withOk.has(r));
  assert.deepEqual(noNegative, [], `rules without a -ok fixture: ${noNegative.join(', ')}`);
});
