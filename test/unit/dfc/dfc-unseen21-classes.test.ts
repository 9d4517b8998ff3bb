// Classes the twenty-second batch of users' logs (dfc-corpus unseen21/) showed the reader missing — each an author's
// Markdown prose quoting the DFC's messages in inline code spans: an exception class the author names only as what an
// action would raise (`omitting the concat layer throws \`AllocatorScriptParserException\``) is no failure of the run
// (unseen21/01); a tool's message the author quotes as what a step raised or refused (`raises \`No predecessor with
// weight for layer X\``, `is rejected (\`…\` on \`node_Conv_10\`)`, `fail in 0s on \`feature_splitter1\`: \`…\``) is a
// failure, with the node its message or the author names beside it, the step the author says failed, and the author's
// next words (their fix) said with it (unseen21/05, 08, 09).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const codes = (r: ReturnType<typeof read>) => [...new Set(r.diagnostics.map((d) => `${d.code}:${d.severity}`))].sort();

test('a class named only as what an action would raise (a gerund aside, a modal) is no failure: the run failed where it says', () => {
  // Another version of the same write-up than the batch's log (library file 59689677336, "Tried on the same TinyStories
  // …"; the batch's is 59939456658, another wording and wrap): the allocator's refusal of the defused layer is the run's
  // failure — at compile, where defuse is applied — and the AllocatorScriptParserException is the command's rule, said aside.
  const other = read([
    'Tried on the same TinyStories `convfixed.har`, splitting `conv49` (the',
    'lm_head, `VOCAB=32000`) into 2: `defuse1, defuse2, defuse_c =',
    'defuse(ts25mpipe/conv49, 2)` (all three return values required — omitting',
    'the auto-generated concat layer `defuse_c` throws',
    '`AllocatorScriptParserException`). Loads and starts compiling, but fails',
    'fast (2s) with a different error than attempt 1: `Auto defused failed',
    'layer ts25mpipe/defuse1 required too many SCs` (subclusters) — each',
    "16000-wide half apparently still doesn't fit as constructed.",
  ]);
  assert.equal(other.failedStage, 'compile', JSON.stringify(other.diagnostics));
  assert.deepEqual(codes(other), ['dfc/allocation-failed:error']);
  assert.ok(other.diagnostics.some((d) => d.message.includes('ts25mpipe/defuse1')));
  // The batch's own wording (unseen21/01): `…, omitting the auto-generated concat layer throws \`X\`):` on one line.
  const batch = read([
    'into 2 (`defuse1, defuse2, defuse_c = defuse(ts25mpipe/conv49, 2)` — all three return values required, omitting',
    'the auto-generated concat layer throws `AllocatorScriptParserException`):',
    'fails fast (2s) with `Auto defused failed layer ts25mpipe/defuse1 required too many SCs` (subclusters).',
  ]);
  assert.equal(batch.failedStage, 'compile', JSON.stringify(batch.diagnostics));
  assert.ok(!codes(batch).includes('dfc/model-script:error'), JSON.stringify(batch.diagnostics));
  // A modal says the same: what it would raise.
  const modal = read(['Leaving out `defuse_c` would raise `AllocatorScriptParserException`, so all three are kept.']);
  assert.deepEqual(codes(modal), []);
  // Controls: a class the run raised, as its sentence's own subject or verb, is still the run's failure.
  for (const line of ['Running it raises `AllocatorScriptParserException`.', 'The model script load throws `AllocatorScriptParserException`.']) {
    const r = read([line]);
    assert.deepEqual(codes(r), ['dfc/model-script:error'], line);
    assert.equal(r.outcome, 'failed', line);
  }
});

test("a tool's message quoted as what a step raised is a failure naming its layer, with the author's fix after it", () => {
  // unseen21/08's bullet (library file 70898832909, "## Attention core, one head"): the optimizer's matmul zero-point
  // correction's refusal, fixed in the model script (core/onnx/transformerRules.ts says the same of zp_comp_block).
  const r = read([
    '- Both matmul inputs are activations. The default zero-point correction (`zp_comp_block`) walks backward looking for a weight producer and raises `No predecessor with weight for layer linear_matmul1`. The model script sets `correction_type=zp_comp_none` on `matmul1` and `matmul2`.',
  ]);
  const d = r.diagnostics.find((x) => x.node === 'linear_matmul1');
  assert.ok(d, JSON.stringify(r.diagnostics));
  assert.equal(d.severity, 'error');
  assert.ok(d.message.includes('No predecessor with weight for layer linear_matmul1'), d.message);
  assert.ok(d.message.includes('zp_comp_none'), d.message);
  assert.equal(r.outcome, 'failed');
  // Controls: the same quote avoided, conditioned or only possible reports nothing; a command quoted after the verb is none.
  for (const line of [
    'Setting `correction_type=zp_comp_none` avoids it: the correction no longer raises `No predecessor with weight for layer linear_matmul1`.',
    'If both inputs are activations, the correction raises `No predecessor with weight for layer linear_matmul1`.',
    'The default correction might raise `No predecessor with weight for layer linear_matmul1` here.',
  ])
    assert.deepEqual(codes(read([line])), [], line);
});

test('a refusal quoted with the node the author names beside it names that node, and the step the author says failed', () => {
  // unseen21/09 (library file 70898832909, "## Gated DeltaNet scan"): the placement's refusal on feature_splitter1, after
  // the author's `Compile then fails in 30s.` — the compile stage, where placement runs.
  const splitter = read([
    "That HAR quantizes. Compile then fails in 30s. Pre-partition takes 29s. Single-context and multi-context placement both fail in 0s on `feature_splitter1`: `one output isn't supported`. The QKV split is 2048, 2048, and 4096. No HEF.",
  ]);
  assert.equal(splitter.failedStage, 'compile', JSON.stringify(splitter.diagnostics));
  const d = splitter.diagnostics.find((x) => x.node === 'feature_splitter1');
  assert.ok(d && d.message.includes("one output isn't supported"), JSON.stringify(splitter.diagnostics));
  // unseen21/05 (the same file, "## Layer-0 depthwise causal conv"): the parser's refusal of a channels-last Conv1d, the node
  // named after the quote inside the author's parentheses — said even though the note's later BadInputsShape is explained.
  const conv = read([
    'A channels-last Conv1d is rejected (`Kernel features: 8192 Input features: 8 Groups: 0` on `node_Conv_10`). An NCHW `Conv2d` with groups 8192 parses. Calibration has to be NHWC; NCHW raises `BadInputsShape`.',
  ]);
  assert.ok(
    conv.diagnostics.some((x) => x.node === 'node_Conv_10' && x.message.includes('Kernel features: 8192')),
    JSON.stringify(conv.diagnostics),
  );
  assert.ok(codes(conv).includes('dfc/calibration-shape:error'), JSON.stringify(codes(conv)));
  // Control: a failure verb with the quote right after it and no place named is how an author introduces any line
  // (`It fails with \`X\`.`): the quote-forms suite's premise, so no failure is made of it here.
  assert.deepEqual(codes(read(['It fails with `Preparing the calibration set`.'])), []);
});
