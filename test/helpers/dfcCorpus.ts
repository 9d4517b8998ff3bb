// Scores the DFC log reader on users' published logs (test/fixtures/dfc-corpus/, issue 30): each
// case's expect.json was written from the log and its thread, never from the reader's output; a
// case is read right when every field it states holds. Fields are checked one by one so a score can
// say which part of the reading failed.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog, type DfcReport } from '../../server/src/core/dfc';
import { repoRoot } from './shared';

export const DFC_CORPUS = join(repoRoot, 'test', 'fixtures', 'dfc-corpus');

export interface CorpusExpect {
  outcome?: DfcReport['outcome'];
  failedStage?: DfcReport['failedStage'];
  /** Codes that must be among the diagnostics. */
  codes?: string[];
  /** Codes that must be among the diagnostics with severity warning. */
  warnings?: string[];
  /** Layer or node names a diagnostic must name (its node, or its message). */
  names?: string[];
  /** Words of the thread's cause or fix a diagnostic must say (case-insensitive). */
  mentions?: string[];
  /** No diagnostic of severity error. */
  noErrors?: boolean;
}

export interface FieldResult {
  field: string;
  ok: boolean;
  detail: string;
}

export interface CaseResult {
  name: string;
  fields: FieldResult[];
  ok: boolean;
}

/**
 * The halves: tune/ and heldout/ (the first batch, issue 30), tune2/ and unseen/ (a second batch collected
 * by another engineer than the one who builds the reader; unseen/ is set aside unread until the lead scores it
 * once — test/fixtures/dfc-corpus/README.md); unseen2/ (a third batch, collected by an engineer who never read the
 * reader, set aside whole and scored once by the lead; tuned since); unseen3/ (a fourth batch, set aside whole the same way);
 * unseen4/ (a fifth batch, set aside whole the same way); unseen5/ (a sixth batch, set aside whole the same way);
 * unseen6/ (a seventh batch, set aside whole the same way); unseen7/ (an eighth batch, set aside whole the same way);
 * unseen8/ (a ninth batch, collected at the same time as unseen7/ by another engineer, set aside whole the same way);
 * unseen9/ (a tenth batch, collected by one engineer alone, set aside whole the same way); unseen10/ (an eleventh
 * batch, collected by one engineer alone, set aside whole the same way); unseen11/ (a twelfth batch, collected by two
 * engineers at once on disjoint halves of the pool, set aside whole the same way); unseen12/ (a thirteenth batch,
 * collected the same way, set aside whole the same way); unseen13/ (a fourteenth batch, collected the same way, set
 * aside whole the same way, scored once and read since); unseen14/ (a fifteenth batch, collected the same way, set
 * aside whole the same way, scored once and read since).
 */
export const CORPUS_PARTS = [
  'tune',
  'heldout',
  'tune2',
  'unseen',
  'unseen2',
  'unseen3',
  'unseen4',
  'unseen5',
  'unseen6',
  'unseen7',
  'unseen8',
  'unseen9',
  'unseen10',
  'unseen11',
  'unseen12',
  'unseen13',
  'unseen14',
  'unseen15',
  'unseen16',
  'unseen17',
  'unseen18',
  'unseen19',
  'unseen20',
  'unseen21',
  'unseen22',
  'unseen23',
  'unseen24',
  'unseen25',
  'unseen26',
  'unseen27',
  'unseen28',
  'unseen29',
  'unseen30',
] as const;
export type CorpusPart = (typeof CORPUS_PARTS)[number];

/**
 * The batches set aside, unread or not yet mended: listed and their format checked, never scored or wrapped by the tests.
 * unseen30/ (the thirty-first batch, collected 2026-12-07 18:45–19:05; scored once 34/34) is unread, for the next session's
 * round. unseen21/ … unseen29/ (scored once 9/13, 17/24, 19/25, 35/50, 36/52, 30/41, 31/44, 21/24 and 16/20) are read since.
 */
export const SET_ASIDE: readonly CorpusPart[] = ['unseen30'];

export const READ_PARTS: readonly CorpusPart[] = CORPUS_PARTS.filter((p) => !SET_ASIDE.includes(p));

/** A corpus case's log as lines (its last newline dropped), found by its folder's number prefix (`'56-'`) in a part. */
export function corpusLogLines(part: string, prefix: string): string[] {
  const dir = readdirSync(join(DFC_CORPUS, part)).find((n) => n.startsWith(prefix));
  if (!dir) throw new Error(`no corpus case ${part}/${prefix}`);
  return readFileSync(join(DFC_CORPUS, part, dir, 'run.log'), 'utf8')
    .replace(/\n$/, '')
    .split('\n');
}

export function corpusCases(part: CorpusPart): string[] {
  const dir = join(DFC_CORPUS, part);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(dir, d.name))
    .sort();
}

export function scoreCase(dir: string): CaseResult {
  const e = (JSON.parse(readFileSync(join(dir, 'expect.json'), 'utf8')) as { expect: CorpusExpect }).expect;
  const r = readDfcLog(readFileSync(join(dir, 'run.log'), 'utf8'), { logPath: 'run.log' });
  return { name: dir.slice(dir.lastIndexOf('/') + 1), ...scoreReport(r, e) };
}

export function scoreReport(r: DfcReport, e: CorpusExpect): { fields: FieldResult[]; ok: boolean } {
  const fields: FieldResult[] = [];
  const ds = r.diagnostics;
  const said = (d: DfcReport['diagnostics'][number]) => `${d.node ?? ''} ${d.message}`;
  if (e.outcome !== undefined) fields.push({ field: 'outcome', ok: r.outcome === e.outcome, detail: `${r.outcome} (want ${e.outcome})` });
  if (e.failedStage !== undefined)
    fields.push({ field: 'failedStage', ok: r.failedStage === e.failedStage, detail: `${r.failedStage} (want ${e.failedStage})` });
  for (const c of e.codes ?? []) fields.push({ field: `code ${c}`, ok: ds.some((d) => d.code === c), detail: ds.map((d) => d.code).join(', ') || 'none' });
  for (const c of e.warnings ?? [])
    fields.push({
      field: `warning ${c}`,
      ok: ds.some((d) => d.code === c && d.severity === 'warning'),
      detail: ds.map((d) => `${d.code}:${d.severity}`).join(', ') || 'none',
    });
  // Names and mentions are looked for in the diagnostics of the expected codes when the case names any. A failed run
  // whose case names warnings only (its error has no code docs/dfc-log.md lists, dfc-corpus unseen18/10) names the
  // failure's layer: its errors are looked in too.
  const wanted = [...(e.codes ?? []), ...(e.warnings ?? [])];
  const failureUncoded = e.outcome === 'failed' && !e.codes?.length;
  const pool = wanted.length ? ds.filter((d) => wanted.includes(d.code) || (failureUncoded && d.severity === 'error')) : ds;
  for (const n of e.names ?? [])
    fields.push({ field: `names ${n}`, ok: pool.some((d) => said(d).includes(n)), detail: pool.map(said).join(' | ').slice(0, 300) });
  for (const w of e.mentions ?? [])
    fields.push({
      field: `mentions ${w}`,
      ok: pool.some((d) => said(d).toLowerCase().includes(w.toLowerCase())),
      detail: pool.map(said).join(' | ').slice(0, 300),
    });
  if (e.noErrors)
    fields.push({ field: 'noErrors', ok: !ds.some((d) => d.severity === 'error'), detail: ds.map((d) => `${d.code}:${d.severity}`).join(', ') || 'none' });
  return { fields, ok: fields.every((f) => f.ok) };
}

export interface Score {
  cases: number;
  right: number;
  fields: number;
  fieldsRight: number;
}

export function score(results: CaseResult[]): Score {
  return {
    cases: results.length,
    right: results.filter((r) => r.ok).length,
    fields: results.reduce((n, r) => n + r.fields.length, 0),
    fieldsRight: results.reduce((n, r) => n + r.fields.filter((f) => f.ok).length, 0),
  };
}
