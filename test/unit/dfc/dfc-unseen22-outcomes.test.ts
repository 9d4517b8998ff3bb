// Classes the twenty-third batch of users' logs (dfc-corpus unseen22/) showed the reader missing, outside its failed
// stages (dfcfix22a's): the profiler's own report ends a profile, whether or not the line naming its HTML file follows
// (unseen22/43); a message the catalogue knows as an error, logged by the DFC at its own warning level, is a warning
// (unseen22/41); anyone's past-tense word that the HAR was written ends the step that wrote it, as the HEF's does
// (unseen22/41); an environment setting the author's lines name right after a failure is said with it (unseen22/39).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog } from '../../../server/src/core/dfc';
import { corpusLogLines } from '../../helpers/dfcCorpus';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const codes = (r: ReturnType<typeof read>) => [...new Set(r.diagnostics.map((d) => `${d.code}:${d.severity}`))].sort();

const corpusLog = corpusLogLines;

test("the profiler's report ends a profile: a console cut before the line naming its HTML file is a success", () => {
  // Other runs than the batch's (unseen22/43, a hailomz profile without its `Profiler report generated in` line): the
  // model zoo's profile of yolox_tiny (heldout/36) and the `hailo profiler` log file of a compiled HAR (unseen7/08), each
  // without its last line — the line after the report that names the HTML file.
  for (const [part, prefix, last] of [
    ['heldout', '36-', 'Profiler report generated in'],
    ['unseen7', '08-', 'Saved Profiler HTML Report to'],
  ] as const) {
    const lines = corpusLog(part, prefix);
    assert.ok(lines[lines.length - 1].includes(last), `${part}/${prefix}: ends with ${last}`);
    const cut = read(lines.slice(0, -1));
    assert.equal(cut.outcome, 'success', `${part}/${prefix} ${JSON.stringify(cut.diagnostics)}`);
    assert.ok(!codes(cut).some((c) => c.endsWith(':error')), JSON.stringify(cut.diagnostics));
  }
  // Controls: a report cut before its Performance Summary's rows (only its Model Details and input settings) is no answer
  // yet; the row quoted in a sentence is not the report.
  const head = corpusLog('heldout', '36-');
  const upTo = head.findIndex((l) => l.startsWith('Performance Summary'));
  assert.ok(upTo > 0);
  assert.notEqual(read(head.slice(0, upTo + 1)).outcome, 'success');
  assert.notEqual(read([...head.slice(0, upTo), 'The table said Number of Contexts 3 before it hung.']).outcome, 'success');
});

test("a message the catalogue knows as an error, at the DFC's own warning level, is a warning: the DFC went on", () => {
  // Another optimize console than the batch's notes (unseen18/20, DFC 3.33, every algorithm done), with Layer Noise
  // Analysis run instead of skipped and printing the batch's DFC line (unseen22/41): the DFC said warning and went on
  // to `Model Optimization is done`.
  const lines = corpusLog('unseen18', '20-');
  const at = lines.indexOf('[info] Layer Noise Analysis skipped');
  assert.ok(at > 0);
  const warned = [
    ...lines.slice(0, at),
    '[info] Starting Layer Noise Analysis',
    '[warning] GPU memory has been exhausted. Layer Noise Analysis will not generate statistics.',
    ...lines.slice(at + 1),
  ];
  const r = read(warned);
  assert.equal(r.outcome, 'success', JSON.stringify(r.diagnostics));
  assert.ok(codes(r).includes('dfc/gpu-memory:warning'), JSON.stringify(codes(r)));
  assert.ok(!codes(r).some((c) => c.endsWith(':error')), JSON.stringify(codes(r)));
  // An excerpt that stops after the warning (no later stage end to show the DFC recovered): the DFC's level alone says it
  // went on — no failure, the warning said.
  const cut = read(warned.slice(0, at + 2));
  assert.notEqual(cut.outcome, 'failed', JSON.stringify(cut.diagnostics));
  assert.deepEqual(
    codes(cut).filter((c) => c.startsWith('dfc/gpu-memory')),
    ['dfc/gpu-memory:warning'],
  );
  // Controls: the same message raised (fine-tuning's AccelerasResourceError, fixture dfc/gpu-oom's form) or logged at
  // error level is the run's failure.
  for (const line of [
    'hailo_model_optimization.acceleras.utils.acceleras_exceptions.AccelerasResourceError: GPU memory has been exhausted. Please try to use Quantization-Aware Fine-Tuning with lower batch size.',
    '[error] GPU memory has been exhausted. Layer Noise Analysis will not generate statistics.',
  ]) {
    const f = read([...lines.slice(0, at), line]);
    assert.equal(f.outcome, 'failed', line);
    assert.ok(codes(f).includes('dfc/gpu-memory:error'), `${line}: ${JSON.stringify(codes(f))}`);
  }
});

test('a past-tense word that the HAR was written ends the step that wrote it, clause by clause', () => {
  // Notebooks' own lines after the DFC's `Saved HAR to:` (unseen18/19, unseen16/01), here without it; the batch's clause
  // after a negated one (unseen22/41).
  for (const line of [
    'Initial HAR saved: /home/appuser/Hailo-Training/models/doclaynet_yolo26n.har (9.7 MB)',
    'HAR file saved as: bestIR9_hailo_model.har',
    'Not blocking — the HAR was saved normally.',
  ]) {
    const r = read(['Quantization completed in 192.4s (3.2 min)', line]);
    assert.equal(r.outcome, 'success', `${line}: ${JSON.stringify(r.diagnostics)}`);
  }
  assert.deepEqual(
    read(['Initial HAR saved: /home/appuser/Hailo-Training/models/doclaynet_yolo26n.har (9.7 MB)']).saved.map((s) => [s.kind, s.path]),
    [['har', '/home/appuser/Hailo-Training/models/doclaynet_yolo26n.har']],
  );
  // The same file the DFC's own line saved is one file (unseen16/01's two lines).
  const both = read(corpusLog('unseen16', '01-'));
  assert.deepEqual(
    both.saved.map((s) => s.path),
    ['/content/bestIR9_hailo_model.har'],
  );
  // Controls: negated or conditioned in its own clause, or an error line, it says nothing written.
  for (const line of ['The HAR was not saved.', 'If the HAR was saved, compile it next.', '[error] HAR file saved as: x.har']) {
    const r = read(['Quantization completed in 192.4s (3.2 min)', line]);
    assert.notEqual(r.outcome, 'success', line);
  }
});

test("an environment setting the author's lines name right after a failure is said with it", () => {
  // The batch's notes (unseen22/39): the quoted PermissionError, then the author's cause analysis naming VIRTUAL_ENV=/usr.
  const lines = corpusLog('unseen22', '39-');
  const r = read(lines);
  assert.equal(r.outcome, 'failed');
  const failure = r.diagnostics.find((d) => d.severity === 'error');
  assert.ok(failure?.message.includes('VIRTUAL_ENV=/usr'), failure?.message);
  // The same failure with the setting named far from it (a later section), or not in a code span: nothing added.
  const at = lines.findIndex((l) => l.startsWith('PermissionError'));
  const far = read([...lines.slice(0, at + 2), ...Array.from({ length: 10 }, (_, i) => `Other note ${i + 1}.`), '- `VIRTUAL_ENV=/usr` was set.']);
  assert.ok(!far.diagnostics.some((d) => d.message.includes('VIRTUAL_ENV')), JSON.stringify(far.diagnostics));
  // A setting the diagnostic already says (unseen8/11's hailort.h limit, said as HailoRT's limit) is not said again.
  const limit = read(corpusLog('unseen8', '11-'));
  const d = limit.diagnostics.find((x) => x.message.includes('HAILO_MAX_NETWORK_GROUPS'));
  assert.ok(d && !d.message.includes('environment setting'), d?.message);
});
