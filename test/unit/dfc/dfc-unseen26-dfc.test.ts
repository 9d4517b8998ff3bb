// Classes the twenty-seventh batch of users' logs (dfc-corpus unseen26/) showed the reader missing on the DFC side: a HEF measured by
// its noun, without its path, in a record of a compile (unseen26/40); an author's line that tells its attempts in order and goes on
// from a stage's failure to that stage's end (unseen26/34). Each test reads lines of another source than the batch's log where one
// was found; where none was, it says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { corpusLogLines } from '../../helpers/dfcCorpus';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const errors = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.severity === 'error');
const compile = (r: ReturnType<typeof read>) => r.stages.find((s) => s.name === 'compile')!.status;

test('a HEF measured by its noun, without its path, ends the compile', () => {
  // The port's table of attempts (library file id 70922119188) records a compile of two projections as the noun and each HEF's
  // size after it. No other source was found in this form: the row is rebuilt with another graph's figures from the same table's
  // `question_projection` compile (4,550,656 bytes, 1m 19s), as another row of the table would say it.
  const header = ['| Graph | Stage | Result |', '|---|---|---|'];
  const row = (result: string) => read([...header, `| Published \`question_projection\`, 4096 to 1024 | \`compile\` | ${result} |`]);
  for (const result of [
    'Single-context HEFs. Q: 4,550,656 bytes, 1m 19s, cosine 0.999830, max absolute error 0.0422.',
    'Single-context HEF. 4,550,656 bytes, 1m 19s, 1024 calibration rows.',
    'The HEF is 4,550,656 bytes, 1m 19s.',
  ]) {
    const r = row(result);
    assert.equal(r.outcome, 'success', result);
    assert.equal(compile(r), 'ok', result);
  }
  // The batch's own row reads the same.
  assert.equal(read(corpusLogLines('unseen26', '40-')).outcome, 'success');
  // A program that runs a HEF prints its input's size as a key and its value (a C++ face detector's Initialize, library file id
  // 53622024085: `Using HEF: …` then `HEF size: N bytes`): no compile ran, and where its output stops nothing ended.
  const app = read(['Using HEF: models/scrfd_2.5g.hef', 'HEF size: 3067904 bytes']);
  assert.equal(compile(app), 'not-reached');
  assert.equal(app.outcome, 'incomplete');
  // A noun with no size after it, a negation or a limit before the size, is no measure.
  for (const result of ['No HEF. 4,550,656 bytes of weights.', 'Single-context HEFs. Not written.', 'The HEF is about to be written.'])
    assert.notEqual(compile(row(result)), 'ok', result);
});

test("an author's line that goes on from a stage's failure to that stage's end: the last attempt decides", () => {
  // A changelog line telling three compiles in order (the same author's earlier study, dfc-corpus unseen25/35–37, told each in its
  // own line; here the allocator's real refusal, unseen8/21's client log, `No successful assignments: concat22 errors: Agent
  // infeasible`, and the HEF record of the port's table, library file id 70922119188).
  const refusal = 'No successful assignments: concat22 errors: Agent infeasible';
  const line = `- resources_param(max_utilization=0.6) → ${refusal}. max_utilization=0.9 → 3 contexts. HEF \`yolov8s_seg.hef\`, 9,535,488 bytes, 12m 58s.`;
  const r = read([line]);
  assert.equal(r.outcome, 'success', JSON.stringify(r.diagnostics));
  assert.equal(errors(r).length, 0, JSON.stringify(r.diagnostics));
  // The refusal is still said, as the earlier attempt's warning.
  assert.ok(
    r.diagnostics.some((d) => d.code === 'dfc/allocation-failed' && d.severity === 'warning'),
    JSON.stringify(r.diagnostics),
  );
  // The batch's changelog reads the same.
  assert.equal(read(corpusLogLines('unseen26', '34-')).outcome, 'success');
  // The failure told after the stage's end is the line's last word: it stands.
  const after = read([`- HEF \`yolov8s_seg.hef\`, 9,535,488 bytes. The 4-output cut then failed: ${refusal}.`]);
  assert.equal(after.outcome, 'failed', JSON.stringify(after.diagnostics));
  // So does a failure told with the end on a line of its own before it (one attempt a line: the later line decides).
  const lines = read([`- HEF \`yolov8s_seg.hef\`, 9,535,488 bytes.`, `- The 4-output cut then failed: ${refusal}.`]);
  assert.equal(lines.outcome, 'failed', JSON.stringify(lines.diagnostics));
});

test("a DFC client log that stops at the compiler's advice line shows a compile started, not a run that ended", () => {
  // unseen26/76 and 78 end so, after the optimized HAR was saved; the advice line is the compile's first in the client log (its
  // own lines are hailo_sdk.core.log's). Another project's client log of the same shape (unseen26/71, mars-landmark): its
  // compile's core log (unseen26/72) opens 0.1 s after the advice line, and this log shows no end of it.
  const r = read(corpusLogLines('unseen26', '71-'));
  assert.equal(r.stages.find((s) => s.name === 'optimize')!.status, 'ok');
  assert.equal(compile(r), 'running');
  assert.equal(r.outcome, 'incomplete');
  // Cut before the advice line, the optimize-only run ended well: its stage's end is the log's last word.
  const lines = corpusLogLines('unseen26', '71-');
  const at = lines.findIndex((l) => l.includes('To achieve optimal performance'));
  assert.equal(read(lines.slice(0, at)).outcome, 'success');
});
