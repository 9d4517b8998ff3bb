// The DFC log reader on users' published logs it was not written from (issue 30): 40 excerpts with
// sources and expectations taken from each log and its thread (test/fixtures/dfc-corpus/README.md).
// Half were set aside unread before the tolerant reader was built (heldout/); the other half and the
// older fixtures were built against (tune/). The scores below are what was measured at the end —
// the held-out half once — and must not fall: a case that is read right stays read right.
// A second batch (tune2/, unseen/) was collected later by an engineer who did not build the reader and
// split by a fixed rule (scripts/dfc-corpus-split.mjs). tune2/ was scored once before the reader was
// changed for it (9/21, docs/dfc-log.md) and is kept at its score after. unseen/ was set aside unread
// and scored once by the lead (16/21, 44/51 fields); it was then read and its five misses fixed as
// classes (dfc-runtime-classes.test.ts) — it is a tuned half now, kept at its score after, and no
// longer a measure of logs nobody has seen.
// A third batch (unseen2/) was set aside whole and scored once by the lead (20/27, 43/51 fields); it was
// then read and its seven misses fixed as classes (dfc-run-ends.test.ts, dfc-wrappers.test.ts) — a tuned
// half now, kept at its score after.
// A fourth batch (unseen3/) was set aside whole and scored once by the lead (26/39, 76/93 fields — the
// same as the reader before the third batch's fixes); it was then read and its thirteen misses fixed as
// classes (dfc-optimize-inputs.test.ts) — a tuned half now, kept at its score after.
// A fifth batch (unseen4/) was set aside whole and scored once by the lead (14/28, 34/60 fields — the
// reader before the fourth batch's fixes scored 15/28); it was then read and its misses fixed as classes
// (dfc-quoted-runs.test.ts, dfc-wrappers.test.ts) — a tuned half now, kept at its score after.
// A sixth batch (unseen5/) was set aside whole and scored once by the lead (18/25, 42/54 fields — the
// reader before the fifth batch's fixes scored 17/25); it was then read and its misses fixed as classes
// (dfc-tool-answers.test.ts) — a tuned half now, kept at its score after.
// A seventh batch (unseen6/) was set aside whole and scored once by the lead (20/26, 27/41 fields — the
// reader of 09:00 read 21/26); it was then read and its misses fixed as classes (dfc-prose-reports.test.ts)
// — a tuned half now, kept at its score after.
// An eighth batch (unseen7/: the log files the DFC and HailoRT write themselves) was set aside whole and scored
// once by the lead (23/31, 60/68 fields — the reader of 09:00 scored the same); it was then read and its misses
// fixed as classes (dfc-log-files.test.ts, dfc-wrappers.test.ts) — a tuned half now, kept at its score after.
// A ninth batch (unseen8/) was set aside whole and scored once by the lead (18/28, 52/64 fields — the reader of
// 09:00 read 14/28); it was then read and its misses fixed as classes (dfc-stops-and-causes.test.ts: a run its user
// or a signal stopped, the cause a log's own lines give beside a HailoRT failure, the layers a message names, a
// later run that shows only its start) — a tuned half now, kept at its score after.
// A tenth batch (unseen9/: mostly the tools' own log files — hailort.log, hailo_sdk.*.log, the DFC's install check
// log) was set aside whole and scored once by the lead (22/28, 60/73 fields); it was then read and its misses fixed
// as classes (dfc-log-files.test.ts, dfc-prose-reports.test.ts: the DFC's system check rows, the compiler's verdict at
// info, HailoRT's monitor thread and a pipeline torn down, a HailoRT check without its status, a sentence's one span
// that quotes a log line, the first error line where an unknown failure began,
// a HailoRT buffer of size 0 from Python) — a tuned half now, kept at its score after.
// An eleventh batch (unseen10/) was set aside whole and scored once by the lead (16/25, 33/49 fields — the reader of
// 09:00 read 15/25); then read and its misses fixed as classes (dfc-failure-grammar.test.ts: any program's own words
// that it failed, the loader's library and HailoRT release, a locale's fatal signals, an exception's function and its
// stage from the DFC's module folders, the run's other warnings beside a catalogued one) — a tuned half now.
// A twelfth batch (unseen11/) was set aside whole and scored once by the lead (31/41, 53/66 fields — the reader of
// that session's start read 27/41, 46/66); it is read from then on (kept at least at that score).
// A thirteenth batch (unseen12/) was set aside whole the same way and scored once by the lead: 5/10, 12/19 fields, at
// the end of the session that collected it (the same with the reader of that session's start); read from then on.
// A fourteenth batch (unseen13/) was set aside whole the same way and scored once by the lead: 23/26, 52/55 fields; read
// from then on and its misses fixed as classes (dfc-got-past.test.ts).
// A fifteenth batch (unseen14/) was set aside whole the same way and scored once by the lead: 16/28, 50/72 fields; read
// from then on and its misses fixed as classes (dfc-unseen14-classes.test.ts, dfc-refusals-and-stages.test.ts): 28/28, 72/72.
// A sixteenth batch (unseen15/) was set aside whole the same way and scored once by the lead: 22/29, 66/75 fields.
// A seventeenth batch (unseen16/, 11 logs) the same way: 11/11, 21/21 fields.
// An eighteenth batch (unseen17/, 32 logs) the same way, scored once on the reader of the session's start: 28/32, 69/75 fields.
// A nineteenth batch (unseen18/, 50 logs) the same way, scored once on the reader of the session's start (bf247718): 40/50, 101/117.
// A twentieth batch (unseen19/, 45 logs) the same way, scored once on the reader after unseen18's round (870d2505): 39/45, 77/84
// (the same on the session's first reader, bf247718); its apt/dpkg misses (43, 44), HailoRT's EFAULT ioctl (71) and an SDK's multi-line [ERROR] in a WARNING record (73) fixed as classes (dfc-unseen19-causes.test.ts), and its application outcomes (dfc-unseen19-outcomes.test.ts): 44/45, 83/84.
// A twenty-first batch (unseen20/, 24 logs) the same way, scored once on the reader after unseen19's round (7e8b38fb): 23/24,
// 38/39 (the same on bf247718); its CLI11 usage refusal fixed as a class (dfc-unseen20-classes.test.ts): 24/24.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CORPUS_PARTS, READ_PARTS, corpusCases, score, scoreCase, type CaseResult, type CorpusPart } from '../../helpers/dfcCorpus';
import { repoRoot } from '../../helpers/shared';

/** Measured 2026-12-06 (docs/dfc-log.md "Scores"): logs read right, fields right. */
const MEASURED: Partial<Record<CorpusPart, { cases: number; right: number; fields: number; fieldsRight: number }>> = {
  tune: { cases: 20, right: 20, fields: 69, fieldsRight: 69 },
  // 18/20 at the end of the first batch; the two misses (NaN params, a profile ending in its report) were fixed as classes with tune2/.
  heldout: { cases: 20, right: 20, fields: 70, fieldsRight: 70 },
  // 9/21 logs, 38/61 fields before the reader was changed for it.
  tune2: { cases: 21, right: 21, fields: 61, fieldsRight: 61 },
  // Scored 16/21 (44/51 fields) once unread; then read and fixed to 21/21 — tuned since.
  unseen: { cases: 21, right: 21, fields: 51, fieldsRight: 51 },
  // Scored 20/27 (43/51 fields) once unread; then read and fixed to 27/27 — tuned since.
  unseen2: { cases: 27, right: 27, fields: 51, fieldsRight: 51 },
  // Scored 26/39 (76/93 fields) once unread; then read and fixed to 39/39 — tuned since.
  unseen3: { cases: 39, right: 39, fields: 93, fieldsRight: 93 },
  // Scored 14/28 (34/60 fields) once unread; then read and fixed as classes — tuned since.
  unseen4: { cases: 28, right: 27, fields: 60, fieldsRight: 58 },
  // Scored 18/25 (42/54 fields) once unread; then read and fixed as classes — tuned since.
  unseen5: { cases: 25, right: 25, fields: 54, fieldsRight: 54 },
  // Scored 20/26 (27/41 fields) once unread; then read and fixed as classes — tuned since.
  unseen6: { cases: 26, right: 26, fields: 41, fieldsRight: 41 },
  // Scored 23/31 (60/68 fields) once unread; then read and fixed as classes — tuned since.
  unseen7: { cases: 31, right: 31, fields: 68, fieldsRight: 68 },
  // Scored 18/28 (52/64 fields) once unread; then read and fixed as classes — tuned since.
  unseen8: { cases: 28, right: 28, fields: 64, fieldsRight: 64 },
  // Scored 22/28 (60/73 fields) once unread; then read and fixed as classes — tuned since.
  unseen9: { cases: 28, right: 28, fields: 73, fieldsRight: 73 },
  // Scored 16/25 (33/49 fields) once unread, at the end of the session that collected it; then read and its misses
  // fixed as classes (dfc-failure-grammar.test.ts) — tuned since. Left: 01's `640` (the HEF's input size the thread found).
  unseen10: { cases: 25, right: 24, fields: 49, fieldsRight: 48 },
  // Scored 31/41 (53/66 fields) once unread, at the end of the session that collected it.
  unseen11: { cases: 41, right: 35, fields: 66, fieldsRight: 59 },
  // Scored 5/10 (12/19 fields) once unread, at the end of the session that collected it; then read and its misses fixed
  // as classes (dfc-unknown-warnings, dfc-kernel-splat, dfc-relayed-deaths tests) — tuned since.
  unseen12: { cases: 10, right: 10, fields: 19, fieldsRight: 19 },
  // Scored 23/26 (52/55 fields) once unread, in the session that collected it; then read and its misses fixed as classes
  // (dfc-got-past.test.ts: a retry at any shell's prompt, a program's ready word, a driver's warning it goes on past and
  // its probe's end, the element a HailoRT caller names) — tuned since. 25/26 since one rule reads a HEF and a HAR written
  // (markers.ts FILE_DONE, dfc-written-files.test.ts): 56's success, which only its thread says, was read from HailoRT's
  // warning `HEF was compiled for Hailo8L device` taken as a compile that ended; it now reads incomplete.
  unseen13: { cases: 26, right: 25, fields: 55, fieldsRight: 54 },
  // Scored 16/28 (50/72 fields) once unread, in the session that collected it; then read and its misses fixed as classes
  // (dfc-unseen14-classes.test.ts) — tuned since.
  unseen14: { cases: 28, right: 28, fields: 72, fieldsRight: 72 },
  // Scored 22/29 (66/75 fields) once unread, in the session that collected it (the reader of that session's start: 22/29,
  // 62/75); one miss was the expectation's word (09's `succeeded` for `success`, now refused by the format test below) —
  // 23/29 (67/75) with it corrected; then read and its misses fixed as classes (dfc-stops-and-causes.test.ts: the
  // allocator's search, a pipeline set up again, one HailoRT thread's run, a long warning's quote) — tuned since.
  unseen15: { cases: 29, right: 29, fields: 75, fieldsRight: 75 },
  // Scored 11/11 (21/21 fields) once unread, on the reader at the end of the session that collected it (the reader of that
  // session's start: 10/11, 20/21); a small batch, mostly runs that succeeded — nothing to fix.
  unseen16: { cases: 11, right: 11, fields: 21, fieldsRight: 21 },
  // Scored 28/32 (69/75 fields) once unread, on the reader of the session's start (90b6adc); then read and its misses
  // fixed as classes (dfc-unseen17-classes.test.ts: a compiler's file:line:column error, a program's `threw exception`,
  // a parse of `TensorFlow 2.x`, the module a kernel Oops was loading) — tuned since.
  unseen17: { cases: 32, right: 32, fields: 75, fieldsRight: 75 },
  // Scored 40/50 (101/117 fields) once unread, on the reader of the session's start (bf247718); then read and its misses
  // fixed as classes (dfc-unseen18-prose.test.ts: notes that tell a run; dfc-unseen18-consoles.test.ts: the layer Keras
  // names, recommended end nodes by name, the CLI's answers, a first-run check that passed).
  unseen18: { cases: 50, right: 49, fields: 117, fieldsRight: 116 },
  // Scored 39/45 (77/84 fields) once unread, on the reader after unseen18's round (870d2505) and on bf247718 alike; then
  // read and its misses fixed as classes (dfc-unseen19-causes.test.ts: escapes by ECMA-35, dpkg's and apt's failure
  // headings with their reasons, HailoRT's EFAULT ioctl answer, an error quoted in a warning, a record's later lines;
  // dfc-unseen19-outcomes.test.ts: a display window the user closed, a HailoRT call its thread retried past its failure).
  unseen19: { cases: 45, right: 44, fields: 84, fieldsRight: 83 },
  // Scored 23/24 (38/39 fields) once unread, on the reader after unseen19's round (7e8b38fb) and on bf247718 alike;
  // 24/24 since dfc-unseen20-classes.test.ts's classes (CLI11's refusal, hailortcli's parser, is dfc/usage).
  unseen20: { cases: 24, right: 24, fields: 39, fieldsRight: 39 },
  // Scored 9/13 (18/24 fields) once unread, on the session-start reader (c386cde8); 8/13 (17/24) on bf247718.
  // 13/13 since dfc-unseen21-classes.test.ts's classes (a class an author names only as what an action would raise; a
  // tool's message quoted as what a step raised or refused, with the node the author names beside it).
  unseen21: { cases: 13, right: 13, fields: 24, fieldsRight: 24 },
  // Scored 17/24 (42/50 fields) once unread, on the session-start reader (c386cde8) and on bf247718 alike.
  // 24/24 with dfc-unseen22-stages.test.ts's stage clues (04, 34, 35, 37) and dfcfix22b's outcome and mention classes (39, 41, 43).
  unseen22: { cases: 24, right: 24, fields: 50, fieldsRight: 50 },
  // Scored 19/25 (50/59 fields) once unread, on the session-start reader (c386cde8), on bf247718 and after unseen21's round alike;
  // then read and its misses fixed as classes (dfc-unseen23-classes.test.ts: a harness's PASS verdict and a benchmark's mean ±
  // spread end a run, NetworkX's classes, the step a failure's own words or an author's contrast or the API's names say), with
  // unseen22's round's intro before a fenced quote (01, 03, 04).
  unseen23: { cases: 25, right: 25, fields: 59, fieldsRight: 59 },
  // Scored 35/50 (68/88 fields) once unread, on the session-start reader (cf3cda0e) and after FILE_DONE alike; 50/50 since
  // its round's classes (dfc-unseen24-dfc.test.ts: a HEF recorded with its size, a verdict last, the single-context attempt
  // told in words, a class quoted as what a run crashed with, the tool an author says couldn't; dfc-unseen24-successes.test.ts:
  // GStreamer tools' ends, a benchmark's throughput, the suite container's welcome, a retyped typo, a teardown error;
  // dfc-unseen24-runtime.test.ts: HailoRT's buffer-size check and its ratio, a WARN header elided, Python's messages
  // without their class, a warning's words quoted bare).
  unseen24: { cases: 50, right: 50, fields: 88, fieldsRight: 88 },
  // Scored 36/52 (87/106 fields) once unread, on the session-start reader (cf3cda0e); 37/52 after unseen24's round. 51/52
  // after its own round (dfc-unseen25-dfc.test.ts, dfc-unseen25-runtime.test.ts); read by every suite since unseen26's round
  // (its 74 across any relayed line break). 79 left: the corpus's judgments of a failure whose notes end with its recovery
  // verified are split (unseen13/52 and unseen26/35 success; 79 failed).
  unseen25: { cases: 52, right: 51, fields: 106, fieldsRight: 105 },
  // Scored 30/41 (67/78 fields) once unread, on the session-start reader (cf3cda0e); 33/41 (70/78) after unseen24's round.
  // 40/41 after its own round (dfc-unseen26-dfc.test.ts: a HEF measured by its noun, a failure got past on its own line;
  // dfc-unseen26-runtime.test.ts: a status before its message, a question is no success, an author's verdict, HailoRT's
  // teardown lines; dfc-unseen25-relayed.test.ts: a catalogue message across any line break) — 38/41 on the collectors'
  // expectations: 76 and 78 were changed to incomplete, their last line being the compiler's hint that opens a compile.
  // 81 (a hailort.log that stops after configuring, no teardown) stays incomplete by HailoRT's own source (docs/dfc-log.md).
  unseen26: { cases: 41, right: 40, fields: 78, fieldsRight: 77 },
  // Scored 31/44 (72/88 fields) once unread, on the session-start reader (e414f18e), and the same after unseen26's round.
  // 44/44 after its own round (dfc-unseen27-dfc.test.ts: colour codes that lost their ESC, a DFC function named alone, the
  // emulator's inference bar then output, a HEF told in prose with its path and size, a bare word quoted; dfc-unseen27-
  // runtime.test.ts: identify's firmware line, docker's API wording, dpkg in any locale, a check's inventory, an author's
  // frame rate, a hanging indent, the author's clause is no cause, a question why).
  unseen27: { cases: 44, right: 44, fields: 88, fieldsRight: 88 },
  // Scored 21/24 (56/59 fields) once unread, on the session-start reader (e414f18e), and the same after unseen26's and
  // unseen27's rounds (343b0734). 24/24 after its own round (dfc-unseen28-runtime.test.ts: a HailoRT session's lines written
  // late show nothing after the run; dfc-outcome-open-ends.test.ts: `incomplete` needs evidence of its own).
  unseen28: { cases: 24, right: 24, fields: 59, fieldsRight: 59 },
  // Scored 16/20 (34/39 fields) once unread, on the session-start reader (343b0734), and the same after unseen28's round.
  // 20/20 after its own round (dfc-unseen29.test.ts: the system-requirements check in every form, pyhailort's exceptions
  // with a status number, a utilization table's Total row, the diagnostic tool's normalization findings, a line template
  // within two fields of its source column, a syslog line after an author's lead-in).
  unseen29: { cases: 20, right: 20, fields: 39, fieldsRight: 39 },
};

function report(results: CaseResult[]): string {
  return results
    .filter((r) => !r.ok)
    .map(
      (r) =>
        `${r.name}: ${r.fields
          .filter((f) => !f.ok)
          .map((f) => `${f.field} — ${f.detail}`)
          .join('; ')}`,
    )
    .join('\n');
}

for (const part of READ_PARTS) {
  test(`dfc corpus ${part}: users' logs are read at least as well as measured, field by field`, () => {
    const results = corpusCases(part).map(scoreCase);
    const s = score(results);
    const want = MEASURED[part];
    assert.ok(want, `${part}: a half read while building has its measured score here`);
    assert.equal(s.cases, want.cases, `${part}: the corpus has ${want.cases} logs`);
    assert.ok(s.right >= want.right, `${part}: ${s.right}/${s.cases} logs read right, measured ${want.right}\n${report(results)}`);
    assert.ok(s.fieldsRight >= want.fieldsRight, `${part}: ${s.fieldsRight}/${s.fields} fields right, measured ${want.fieldsRight}\n${report(results)}`);
  });
}

test('dfc corpus: every case states what its thread says and where it comes from', async () => {
  const { readFileSync } = await import('node:fs');
  for (const dir of CORPUS_PARTS.flatMap((p) => corpusCases(p))) {
    const e = JSON.parse(readFileSync(join(dir, 'expect.json'), 'utf8')) as { source: string; thread: string; expect: Record<string, unknown> };
    assert.ok(e.source.length > 10 && e.thread.length > 30, dir);
    assert.ok(Object.keys(e.expect).length > 0, `${dir}: checks something`);
  }
});

test('dfc corpus: the second batch sits where the split rule puts it (tune2/ and unseen/ each at least 18)', () => {
  // The rule reads only each case's source and folder name, so this never shows a set-aside log.
  const r = spawnSync(process.execPath, [join(repoRoot, 'scripts', 'dfc-corpus-split.mjs'), '--check'], { encoding: 'utf8' });
  assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  assert.ok(corpusCases('tune2').length >= 18, 'tune2/ has at least 18 logs');
  assert.ok(corpusCases('unseen').length >= 18, 'unseen/ has at least 18 logs');
});

// The batches collected whole by an engineer who never read the reader (test/fixtures/dfc-corpus/README.md):
// each scored once unread by the lead, then read and tuned (scored above); their format is checked here.
const WHOLE_BATCHES: [CorpusPart, string, number][] = [
  ['unseen2', 'third', 20],
  ['unseen3', 'fourth', 25],
  ['unseen4', 'fifth', 25],
  ['unseen5', 'sixth', 20],
  ['unseen6', 'seventh', 15],
  ['unseen7', 'eighth', 20],
  ['unseen8', 'ninth', 20],
  ['unseen9', 'tenth', 20],
  ['unseen10', 'eleventh', 20],
  ['unseen11', 'twelfth', 35],
  ['unseen12', 'thirteenth', 8],
  ['unseen13', 'fourteenth', 20],
  ['unseen14', 'fifteenth', 25],
  ['unseen15', 'sixteenth', 25],
  ['unseen16', 'seventeenth', 10],
  ['unseen17', 'eighteenth', 15],
  ['unseen18', 'nineteenth', 45],
  ['unseen19', 'twentieth', 40],
  ['unseen20', 'twenty-first', 20],
  ['unseen21', 'twenty-second', 13],
  ['unseen22', 'twenty-third', 24],
  ['unseen23', 'twenty-fourth', 25],
  ['unseen24', 'twenty-fifth', 50],
  ['unseen25', 'twenty-sixth', 52],
  ['unseen26', 'twenty-seventh', 41],
  ['unseen27', 'twenty-eighth', 44],
  ['unseen28', 'twenty-ninth', 24],
  ['unseen29', 'thirtieth', 20],
  ['unseen30', 'thirty-first', 34],
];

// The words an expectation may use are the report's own (server/src/core/dfc/types.ts: Outcome, FailedStage): a word the
// reader never says (a collector's `succeeded` for `success`, unseen15/09) would score as a miss of the reader when it
// is a slip of the expectation — so the format check refuses it before any score is taken.
const OUTCOMES = new Set(['success', 'failed', 'killed', 'incomplete']);
const STAGES = new Set(['parse', 'optimize', 'compile', 'docker', 'unknown', null]);
const FIELDS = new Set(['outcome', 'failedStage', 'codes', 'warnings', 'names', 'mentions', 'noErrors']);
test("dfc corpus: every expect.json states only the report's fields, in the report's own words", async () => {
  const { readFileSync } = await import('node:fs');
  const bad: string[] = [];
  for (const part of CORPUS_PARTS) {
    for (const dir of corpusCases(part)) {
      const e = (JSON.parse(readFileSync(join(dir, 'expect.json'), 'utf8')) as { expect?: Record<string, unknown> }).expect ?? {};
      for (const key of Object.keys(e)) if (!FIELDS.has(key)) bad.push(`${dir}: unknown field ${key}`);
      if ('outcome' in e && !OUTCOMES.has(e.outcome as string)) bad.push(`${dir}: outcome ${JSON.stringify(e.outcome)}`);
      if ('failedStage' in e && !STAGES.has(e.failedStage as string | null)) bad.push(`${dir}: failedStage ${JSON.stringify(e.failedStage)}`);
    }
  }
  assert.deepEqual(bad, []);
});
for (const [part, which, atLeast] of WHOLE_BATCHES) {
  test(`dfc corpus: the ${which} batch (${part}/) is listed, at least ${atLeast} logs, each NN-short-name with run.log and expect.json`, async () => {
    const { existsSync } = await import('node:fs');
    const cases = corpusCases(part);
    assert.ok(cases.length >= atLeast, `${part}/ has at least ${atLeast} logs (${cases.length})`);
    for (const dir of cases) {
      assert.ok(existsSync(join(dir, 'run.log')) && existsSync(join(dir, 'expect.json')), `${dir}: run.log and expect.json`);
      assert.match(dir.slice(dir.lastIndexOf('/') + 1), /^\d{2}-[a-z0-9-]+$/, `${dir}: NN-short-name`);
    }
  });
}
