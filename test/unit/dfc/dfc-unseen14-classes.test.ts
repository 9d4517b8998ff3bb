// The classes the fifteenth batch of users' logs (dfc-corpus unseen14/) showed the reader missing (dfcfix15a's half), each
// tested on the batch's own lines and, where the corpus has one, a case from outside it (cited at each test):
// - the compiler's words after its verdict (`Mapping Failed`): the builder's status and its words, the partitioner's
//   `No valid partition found`, the performance flow refusing resources set by hand — the cause the log states;
// - a DFC tool's own words that its user stopped it (`Interrupted by user, aborting...`): the user's interrupt, as
//   KeyboardInterrupt is;
// - a warning level a logger qualifies (the DFC's own `DEPRECATION_WARNING`): a warning, said in a run with no error;
// - a layer's own name without its network's scope, in a code span beside the optimizer's refusal;
// - the optimizer's report of the layer it was configuring (`Layer: net/x, Config: {…}`) before a failure that names none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog } from '../../../server/src/core/dfc';
import { DFC_CORPUS } from '../../helpers/dfcCorpus';

/** A corpus log's lines (1-based, inclusive) as its author published them. */
function lines(part: string, nn: string, from = 1, to = Infinity): string[] {
  const dir = readdirSync(join(DFC_CORPUS, part)).find((d) => d.startsWith(`${nn}-`));
  assert.ok(dir, `${part}/${nn}`);
  return readFileSync(join(DFC_CORPUS, part, dir, 'run.log'), 'utf8')
    .split('\n')
    .slice(from - 1, to);
}
const read = (ls: string[]) => readDfcLog(`${ls.join('\n')}\n`, { logPath: 'run.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.code}:${d.severity} ${d.node ?? ''} ${d.message}`).join(' | ');
const one = (r: ReturnType<typeof read>, code: string) => {
  const ds = r.diagnostics.filter((d) => d.code === code);
  assert.equal(ds.length, 1, said(r));
  return ds[0];
};

// ---- the compiler's words after its verdict -------------------------------------------------------------------------

test('Mapping Failed, then the builder refusing the performance flow with resources set by hand: the cause and its fix (unseen14/02)', () => {
  const r = read(lines('unseen14', '02'));
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'compile');
  const d = one(r, 'dfc/allocation-failed');
  assert.match(d.message, /Performance Flow requires automatic resource utilization/);
  assert.match(d.message, /The DFC names the cause[^.]*: performance_param\(compiler_optimization_level=max\)[^.]*resources_param/);
  assert.doesNotMatch(d.message, /Try allocator_param/, 'not the generic advice');
});

test("Mapping Failed after the performance flow's utilization steps, then the partitioner's verdict: said, with its advice (unseen14/12)", () => {
  const r = read(lines('unseen14', '12'));
  assert.equal(r.outcome, 'failed');
  const d = one(r, 'dfc/allocation-failed');
  assert.match(d.message, /No valid partition found/);
  assert.match(d.message, /no valid partition of the network into contexts/);
  assert.match(d.message, /The DFC names the cause \(no valid partition into contexts\)/);
});

test("the partitioner's verdict in the client log's exception is the same cause (outside the batch: unseen8/20)", () => {
  // hailo_sdk.client.log of another user's compile: `Failed to produce compiled graph`, then the allocator's exception.
  const r = read(lines('unseen8', '20'));
  assert.equal(r.failedStage, 'compile');
  const d = one(r, 'dfc/allocation-failed');
  assert.match(d.message, /BackendAllocatorException: Compilation failed: No valid partition found/);
  assert.match(d.message, /The DFC names the cause \(no valid partition into contexts\)/);
});

test("the builder's status before a more precise cause on its line leaves that cause's reading (unseen9/23, outside the batch)", () => {
  // `Builder fail with status 66: Failed to reach required FPS …` joined with `Compilation failed with exception: … layer matmul1`.
  const r = read(lines('unseen9', '23'));
  const d = one(r, 'dfc/allocation-failed');
  assert.match(d.message, /^Allocation failed: More than one output is not supported for layer matmul1/);
  assert.match(d.message, /The DFC names the cause \(the compiler's exception\)/);
});

// ---- a tool's own words that its user stopped it --------------------------------------------------------------------

test("the compiler's `Interrupted by user, aborting...` after its partition search: interrupted during compile, a failure (unseen14/03)", () => {
  const r = read(lines('unseen14', '03'));
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'compile');
  const d = one(r, 'dfc/interrupted');
  assert.equal(d.logLine, 82);
  assert.match(d.message, /interrupted during compile: stopped by its user — the tool's own words `Interrupted by user, aborting\.\.\.`/);
  assert.match(d.message, /The DFC did not fail/);
});

test('the client log of a compile stopped the same way (KeyboardInterrupt) reads the same: the corpus convention (unseen8/23)', () => {
  const r = read(lines('unseen8', '23'));
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'compile');
  one(r, 'dfc/interrupted');
});

test('the words alone, outside any DFC stage, are no failure of a DFC stage (an application stopped by its user ends as meant)', () => {
  // The compiler's line with nothing around it that shows a DFC stage running.
  const r = read(lines('unseen14', '03', 82, 82));
  assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 0, said(r));
});

// ---- a qualified warning level ------------------------------------------------------------------------------------

test("the DFC's DEPRECATION_WARNING lines in a compile cut before its end are said (unseen14/10)", () => {
  const r = read(lines('unseen14', '10'));
  assert.equal(r.outcome, 'incomplete');
  const ws = r.diagnostics.filter((d) => d.code === 'dfc/unrecognised-warning');
  assert.ok(ws.length >= 1, said(r));
  assert.ok(
    ws.every((d) => d.severity === 'warning'),
    said(r),
  );
  assert.match(ws[0].message, /has implicit precision config during compilation, filling default values/);
  assert.match(ws[0].message, /hailo_nn\.py:1546/);
});

test('two lines of it, too few for a template: the listed prefix reads the level (unseen14/10, lines 10–11)', () => {
  const r = read(lines('unseen14', '10', 10, 11));
  const ws = r.diagnostics.filter((d) => d.code === 'dfc/unrecognised-warning');
  assert.ok(ws.length >= 1, said(r));
  assert.match(ws[0].message, /implicit precision config/);
});

test("another user's parse with the ClientRunner's DEPRECATION_WARNING: a success that says it (outside the batch: unseen8/18)", () => {
  const r = read(lines('unseen8', '18'));
  assert.equal(r.outcome, 'success');
  assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 0);
  const w = one(r, 'dfc/unrecognised-warning');
  assert.match(w.message, /All ClientRunner APIs for getting\/setting\/saving the HN model will be deprecated/);
});

// ---- a layer's bare name beside the optimizer's refusal -------------------------------------------------------------

test("a README's table row names the layer in a code span without its network: the refusal's layer (unseen14/15)", () => {
  const r = read(lines('unseen14', '15'));
  assert.equal(r.failedStage, 'optimize');
  const d = one(r, 'dfc/quantization-failed');
  assert.match(d.message, /^Quantization failed in layer ne_activation_mul_and_add78 \(it needs a shift of 16\.0/);
});

test('a data type or a device in a code span beside the refusal is no layer', () => {
  for (const name of ['int8', 'uint16', 'hailo8', 'float32', 'yolov8']) {
    const r = read([`| optimize | \`${name}\` | Desired shift is 9.0, but op has only 8 data bits | open |`]);
    const d = one(r, 'dfc/quantization-failed');
    assert.doesNotMatch(d.message, /in layer/, name);
  }
});

// ---- the optimizer's report of the layer it was configuring ---------------------------------------------------------

test("the optimizer's `Layer: pow/square1, Config: {…}` before a failure that names no layer: said as where to look (unseen14/59)", () => {
  const r = read(lines('unseen14', '59'));
  assert.equal(r.outcome, 'failed');
  const d = r.diagnostics.find((x) => x.severity === 'error');
  assert.ok(d, said(r));
  assert.match(d.message, /ZeroDivisionError: division by zero/);
  assert.match(d.message, /Before it \(line 3\) the optimizer reported layer pow\/square1 with the config it built for it/);
  assert.match(d.message, /if this failure is that layer's/, 'said as a lead, not as the cause');
});

test('a failure before the report is not said to be about its layer', () => {
  const ls = lines('unseen14', '59');
  // The same note with the report moved after the failure's line.
  const r = read([...ls.slice(3, 20), ls[2]]);
  assert.doesNotMatch(said(r), /pow\/square1/);
});
