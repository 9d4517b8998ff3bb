// The allocator's iteration line is read by the mechanisms it can concern only (server/src/core/dfc/routes.ts): each test
// routes.ts says cannot react to it is asked here on the kind's lines, and a line the route must leave to the full
// reading — one that goes on past the allocator's words, one read while the error collector has something open — is read
// as the full reading reads it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DfcLogReader, readDfcLog } from '../../../server/src/core/dfc';
import {
  ALLOCATOR_ITERATION,
  classifyCommand,
  classifyHeader,
  classifyMarker,
  classifyProgress,
  classifySummaryLine,
  endsRun,
  level,
} from '../../../server/src/core/dfc/markers';
import { allocatorIteration } from '../../../server/src/core/dfc/routes';
import { mayHoldPrompt, normalise, startsWithPrefix, Margin } from '../../../server/src/core/dfc/normalise';
import { QuoteForms } from '../../../server/src/core/dfc/forms';
import { exceptionIn, reportsInProse } from '../../../server/src/core/dfc/errors';
import { completedIn, exportFailureIn, failureIn } from '../../../server/src/core/dfc/failureWords';
import { stageOfApiCall, stageOfMention, optimizerAlgorithmIn } from '../../../server/src/core/dfc/stageEvidence';
import { endsAtMessageSentence, matchDfcMessage } from '../../../server/src/core/common/dfcMessages';
import { osReasonIn } from '../../../server/src/core/common/errno';
import type { DfcEvent } from '../../../server/src/core/dfc';
import { repoRoot } from '../../helpers/shared';

const fixture = (c: string) => readFileSync(join(repoRoot, 'test', 'fixtures', 'dfc', c, 'run.log'), 'utf8');

/** The allocator's phrases as test/fixtures and the corpus show them, with numbers of every width and the padding it prints. */
const KIND: string[] = [];
for (const phrase of ['Trying parallel mapping...', 'Trying parallel splits...', 'Mapping prepost...'])
  for (const [n, m, k] of [
    ['0', '0', '1'],
    ['1', '3', '4'],
    ['12', '15', '123'],
    ['1234', '5678', '999999'],
  ])
    for (const pad of ['', '  ', '          ']) KIND.push(`Context:${n}/${m} Iteration ${k}: ${phrase}${pad}`);

test('dfc routes: the kind is the allocator line with nothing after its words', () => {
  for (const t of KIND) assert.ok(allocatorIteration(t), t);
  for (const t of [
    '[info] Context:0/3 Iteration 4: Trying parallel mapping...  ',
    ' Context:0/3 Iteration 4: Trying parallel mapping...',
    'Context:0/3 Iteration 4: Trying parallel mapping...  [error] Mapping Failed',
    'Context:0/3 Iteration 4: Trying parallel mapping...` and the worker grid',
    'Context:0/3 Iteration 4: Trying something else...',
  ])
    assert.equal(allocatorIteration(t), null, t);
});

test('dfc routes: no test the route skips reads the kind', () => {
  for (const t of KIND) {
    const body = t.trim();
    // The quoting forms and the margin leave it as it is.
    assert.equal(new QuoteForms().take(t), t, t);
    const margin = new Margin();
    margin.take('    indented block line');
    assert.equal(margin.take(t), t, t);
    // Normalisation takes nothing off.
    assert.equal(normalise(t), null, t);
    assert.equal(startsWithPrefix(t), false, t);
    // Its progress is classifyProgress's Context branch.
    const m = ALLOCATOR_ITERATION.exec(t)!;
    assert.deepEqual(classifyProgress(t), {
      label: `Allocation, context ${Number(m[1]) + 1} of ${Number(m[2]) + 1}, iteration`,
      done: Number(m[3]),
      total: null,
    });
    // The state's other tests.
    assert.equal(classifyHeader(t), null, t);
    assert.equal(classifyCommand(t), null, t);
    assert.equal(classifyMarker(t), null, t);
    assert.equal(classifySummaryLine(t), null, t);
    assert.equal(level(t), null, t);
    assert.equal(mayHoldPrompt(t), false, t);
    assert.equal(endsRun(t), false, t);
    // The error collector's and the explainer's.
    assert.equal(exceptionIn(body), null, t);
    assert.deepEqual(reportsInProse(body), [], t);
    assert.equal(matchDfcMessage(body), null, t);
    assert.equal(endsAtMessageSentence(body), false, t);
    assert.equal(failureIn(body), null, t);
    assert.equal(completedIn(body), false, t);
    assert.equal(exportFailureIn(body), false, t);
    assert.equal(stageOfMention(t), null, t);
    assert.equal(stageOfApiCall(t), null, t);
    assert.equal(optimizerAlgorithmIn(body), null, t);
    assert.equal(osReasonIn(body), undefined, t);
  }
});

/** The allocation-failed fixture's run (a real DFC 3.33 log) with the allocator's tries, and what follows, for its verdict and after. */
function allocationRun(tries: string): string {
  const log = fixture('allocation-failed');
  return log.slice(0, log.indexOf('[error] Mapping Failed\n')) + tries;
}

test("dfc routes: an allocator line that goes on past the allocator's words is read whole", () => {
  // The allocator's line printed without its line end, the DFC's verdict after it on the same line (its `[error] Mapping
  // Failed`, test/fixtures/dfc/allocation-failed): still the run's failure, said on that line.
  const tries = 'Context:0/2 Iteration 4: Trying parallel mapping...  \nContext:1/2 Iteration 4: Trying parallel mapping...  [error] Mapping Failed\n';
  const report = readDfcLog(allocationRun(tries));
  assert.equal(report.outcome, 'failed');
  assert.equal(report.failedStage, 'compile');
  const failure = report.diagnostics.find((d) => d.code === 'dfc/allocation-failed');
  assert.ok(failure, JSON.stringify(report.diagnostics.map((d) => d.code)));
  assert.equal(failure.severity, 'error');
  assert.equal(failure.logLine, 10, 'said on the allocator line that carries the verdict');
});

/** Every event and the report of a log read in 61-character chunks (a chunk splits lines anywhere). */
function reading(text: string): string {
  const r = new DfcLogReader({ logPath: 'x.log' });
  const events: DfcEvent[][] = [];
  for (let i = 0; i < text.length; i += 61) events.push(r.push(text.slice(i, i + 61)));
  const done = r.finish();
  return JSON.stringify({ report: done.report, events: [...events, done.events] });
}

test('dfc routes: an allocator line the error collector may take is read as the full reading reads it', () => {
  // The same line with a colour reset after its words is read whole (its raw text is not its text: never routed), and
  // says the same: where the collector holds a message that ends in `:`, is inside a traceback or right after its
  // exception, or a code span is open, the allocator's line must be read as any line.
  const it = 'Context:0/2 Iteration 4: Trying parallel mapping...';
  const coloured = `${it}\x1b[0m`;
  const situations = [
    // A message ending in `:` held for its next line (errors.ts join).
    `[error] Mapping Failed\n[error] No successful assignments:\n${it}\n`,
    // Inside a traceback (its lines kept in the excerpt), then right after its exception line.
    `Traceback (most recent call last):\n  File "/x/bin/hailo", line 8, in <module>\n${it}\n    sys.exit(main())\nhailo_sdk_client.sdk_backend.sdk_backend_exceptions.BackendAllocatorException: Compilation failed: No successful assignments\n${it}\n`,
    // Inside a code span an author's prose opened and has not closed yet (reader.ts spans): one of the span's lines.
    `The compiler stops at \`[error] Mapping\n${it}\nFailed\` every time.\n`,
  ];
  for (const s of situations) {
    const full = reading(allocationRun(s.split(it).join(coloured)));
    const routed = reading(allocationRun(s));
    assert.equal(routed.replaceAll('\\u001b[0m', ''), full.replaceAll('\\u001b[0m', ''), s);
  }
});
