// Fixture folders for the `.alls` checker (svelte-style): test/fixtures/alls/<case>/input.alls
// [+ options.json] + expected.json, and oracle cases (oracle.json). Each folder becomes a test.
//
// expected.json lists each diagnostic as { range, severity, code, message }. The test compares
// range + severity + code first, apart from the message text, then the messages, then the fixes.
//   UPDATE_FIXTURES=1         write expected.json where it is missing (review it by eye)
//   UPDATE_FIXTURES=messages  rewrite message and fix text only; ranges, severities and codes must
//                             already match (they are never regenerated from the checker's output)
//   UPDATE_FIXTURES=all       rewrite everything (review the git diff)
// Under CI any UPDATE_FIXTURES refuses to run: CI checks fixtures, it never writes them.
//
// Oracle cases (`oracle-*`): oracle.json holds what a real DFC said about the script, quoted from
// a public source (message + URL) and the diagnostic that message implies, written by hand. They
// have no expected.json: their expected outcome comes from the DFC, not from this checker.
//
// `-ok` cases: besides matching expected.json, none of their own rule's codes may appear.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../../server/src/core/alls/analysis';
import { decodeScript, mergeEncodingDiagnostics } from '../../../server/src/core/alls/encoding';
import { nmsConfigResolver, setOpenedFolders } from '../../../server/src/core/alls/nodeHost';
import { checkDocument, type CheckOptions } from '../../../server/src/core/alls/rules';
import { RULES, type AllsCode } from '../../../server/src/core/alls/codes';
import { resolveSettings } from '../../../server/src/core/common/settings';
import type { Diagnostic } from '../../../server/src/core/common/types';
import { repoRoot } from '../../helpers/shared';
import { modelFromJson, type ModelJson } from '../../helpers/allsModel';

const root = join(repoRoot, 'test', 'fixtures', 'alls');
const update = process.env.UPDATE_FIXTURES;

interface CaseOptions {
  hwArch?: string;
  model?: ModelJson;
  /** Check nms_postprocess config paths against the fixture folder. */
  files?: boolean;
  maxDiagnostics?: number;
}

export interface ExpectedDiagnostic {
  /** `line:col-line:col`, 1-based. */
  range: string;
  severity: Diagnostic['severity'];
  code: string;
  message: string;
  related?: string[];
}

export interface Expected {
  diagnostics: ExpectedDiagnostic[];
  fixes: string[];
}

/** What a real DFC said about an oracle case, and the diagnostic it implies. */
interface Oracle {
  /** The DFC's own words, verbatim from the source. */
  dfcMessage: string;
  /** Where it was published (URL, or repository + path). */
  source: string;
  dfcVersion?: string;
  /** Why the quoted message implies the expectation below. */
  reasoning: string;
  expect: { range: string; severity: Diagnostic['severity']; code: string }[];
}

function pos(p: { line: number; character: number }): string {
  return `${p.line + 1}:${p.character + 1}`;
}

/** The checker's output in the fixture format (one fix edit per line: easy to review in a diff). */
export function render(diags: Diagnostic[]): Expected {
  const diagnostics: ExpectedDiagnostic[] = [];
  const fixes: string[] = [];
  for (const d of diags) {
    const e: ExpectedDiagnostic = { range: `${pos(d.range.start)}-${pos(d.range.end)}`, severity: d.severity, code: d.code, message: d.message };
    if (d.related?.length) e.related = d.related.map((r) => `${pos(r.range.start)}-${pos(r.range.end)} ${r.message}`);
    diagnostics.push(e);
    for (const f of d.fixes ?? []) {
      for (const ed of f.edits)
        fixes.push(
          `${d.code} @${pos(d.range.start)}: ${f.title}${f.preferred ? ' (preferred)' : ''} => ${pos(ed.range.start)}-${pos(ed.range.end)} ${JSON.stringify(ed.newText)}`,
        );
    }
  }
  return { diagnostics, fixes };
}

export function runCase(dir: string): Expected {
  const input = join(dir, 'input.alls');
  const optPath = join(dir, 'options.json');
  const o: CaseOptions = existsSync(optPath) ? JSON.parse(readFileSync(optPath, 'utf8')) : {};
  const { text, diagnostics: encoding } = decodeScript(readFileSync(input));
  const options: CheckOptions = { settings: resolveSettings({ hwArch: o.hwArch }) };
  if (o.model) options.model = modelFromJson(o.model);
  // The repository is the folder the user opened: config paths are looked up inside it only.
  setOpenedFolders([repoRoot]);
  if (o.files) options.fileExists = nmsConfigResolver(input);
  if (o.maxDiagnostics) options.maxDiagnostics = o.maxDiagnostics;
  return render(mergeEncodingDiagnostics(encoding, checkDocument(analyze(text), options)));
}

/** `range severity code` — the part of a diagnostic that is never regenerated. */
function key(d: { range: string; severity: string; code: string }): string {
  return `${d.range} ${d.severity} ${d.code}`;
}

/** Codes of reference rule `R<n>` (from the case name `r<n>-…`). */
function ruleCodes(caseName: string): AllsCode[] {
  const n = /^r(\d+)-/.exec(caseName)?.[1];
  if (!n) return [];
  return (Object.keys(RULES) as AllsCode[]).filter((c) => RULES[c].rule === `R${Number(n)}`);
}

const cases = existsSync(root)
  ? readdirSync(root)
      .filter((n) => existsSync(join(root, n, 'input.alls')))
      .sort()
  : [];
const oracleCases = cases.filter((c) => existsSync(join(root, c, 'oracle.json')));
const expectedCases = cases.filter((c) => !oracleCases.includes(c));

test('alls fixtures: UPDATE_FIXTURES refuses to run under CI', () => {
  // CI must check fixtures against what was reviewed, never rewrite them to match the code.
  if (update && process.env.CI) assert.fail(`UPDATE_FIXTURES=${update} is set under CI=${process.env.CI}: fixtures are never rewritten in CI`);
  assert.ok(!(update && process.env.CI));
});

test('alls fixtures: the folder exists and has cases', () => {
  assert.ok(cases.length >= 40, `expected the fixture folders under ${root}, found ${cases.length}`);
  assert.ok(oracleCases.length >= 4, `expected oracle cases (oracle.json) under ${root}, found ${oracleCases.length}`);
});

for (const name of expectedCases) {
  test(`alls fixture: ${name}`, () => {
    const dir = join(root, name);
    const expectedPath = join(dir, 'expected.json');
    const actual = runCase(dir);
    if (update && !process.env.CI) {
      if (update === 'all' || !existsSync(expectedPath)) {
        writeFileSync(expectedPath, JSON.stringify(actual, null, 2) + '\n');
        return;
      }
      if (update === 'messages') {
        const old = JSON.parse(readFileSync(expectedPath, 'utf8')) as Expected;
        assert.deepEqual(
          actual.diagnostics.map(key),
          old.diagnostics.map(key),
          `${name}: ranges/severities/codes changed — fix the code or edit expected.json by hand; UPDATE_FIXTURES=messages only rewrites text`,
        );
        writeFileSync(expectedPath, JSON.stringify(actual, null, 2) + '\n');
        return;
      }
    }
    assert.ok(existsSync(expectedPath), `${name}: expected.json is missing — run UPDATE_FIXTURES=1 node test/run.mjs alls-fixtures, then review it`);
    const expected = JSON.parse(readFileSync(expectedPath, 'utf8')) as Expected;
    // 1. Where, how severe and which rule — independent of the wording.
    assert.deepEqual(actual.diagnostics.map(key), expected.diagnostics.map(key), `${name}: range/severity/code`);
    // 2. The wording, related locations and quick fixes.
    assert.deepEqual(actual, expected);
    // 3. A negative case shows none of its own rule's codes.
    if (name.endsWith('-ok')) {
      const own = ruleCodes(name);
      const hits = actual.diagnostics.filter((d) => (own as string[]).includes(d.code));
      assert.deepEqual(hits.map(key), [], `${name}: a -ok case produced its own rule's codes (${own.join(', ')})`);
    }
  });
}

for (const name of oracleCases) {
  test(`alls oracle: ${name}`, () => {
    const dir = join(root, name);
    const oracle = JSON.parse(readFileSync(join(dir, 'oracle.json'), 'utf8')) as Oracle;
    assert.ok(oracle.dfcMessage && oracle.source && oracle.reasoning, `${name}: oracle.json needs dfcMessage, source and reasoning`);
    assert.ok(!existsSync(join(dir, 'expected.json')), `${name}: an oracle case has no expected.json (its outcome comes from the DFC)`);
    const actual = runCase(dir).diagnostics;
    for (const e of oracle.expect) {
      const hit = actual.find((d) => key(d) === key(e));
      assert.ok(
        hit,
        `${name}: the DFC rejects this script ("${oracle.dfcMessage}", ${oracle.source}); expected ${key(e)}, got:\n${actual.map(key).join('\n')}`,
      );
    }
    // The DFC refused the script, so the checker must say error somewhere — and nowhere else than
    // the oracle's expectations may it claim an error.
    const errors = actual.filter((d) => d.severity === 'error').map(key);
    assert.deepEqual(errors, oracle.expect.filter((e) => e.severity === 'error').map(key), `${name}: errors beyond the oracle's`);
  });
}

test('alls fixtures: every diagnostic code is exercised by a positive case, every rule has a negative (-ok) case', () => {
  const seen = new Set<string>();
  for (const name of expectedCases) {
    const p = join(root, name, 'expected.json');
    if (!existsSync(p)) continue;
    for (const d of (JSON.parse(readFileSync(p, 'utf8')) as Expected).diagnostics) seen.add(d.code);
  }
  const missing = Object.keys(RULES).filter((c) => !seen.has(c));
  assert.deepEqual(missing, [], `codes no fixture produces: ${missing.join(', ')}`);
  const rules = new Set(
    Object.values(RULES)
      .map((r) => r.rule)
      .filter((r) => /^R\d+$/.test(r)),
  );
  const withOk = new Set(
    expectedCases
      .filter((c) => c.endsWith('-ok'))
      .map((c) => /^r(\d+)-/.exec(c)?.[1])
      .filter(Boolean)
      .map((n) => `R${Number(n)}`),
  );
  const noNegative = [...rules].filter((r) => !withOk.has(r));
  assert.deepEqual(noNegative, [], `rules without a -ok fixture: ${noNegative.join(', ')}`);
});
