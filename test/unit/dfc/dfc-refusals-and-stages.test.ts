// Classes the fifteenth batch of users' logs (dfc-corpus unseen14/) showed the reader missing — the stage a failure
// belongs to, and refusals the reader did not know — each tested on the batch's own lines and, where a public log
// from outside it has the same kind, on that (cited at each test):
// - the allocator's resource verdicts: `… capacity exceeded (available: N, required: M)` for any resource, and the
//   presolve's `Resources presolve failed: lcus=(N/M)` — the compile failure with the resource named; the compiler's own
//   `Recoverable single context error` form of the presolve is none;
// - the allocator's `Reshape is needed for layers: L, but adding a reshape has failed` (compile);
// - the optimizer's shift-delta refusals (`layer L does not support shift delta …`, `Shift delta in L is larger than N`);
// - the DFC's validation of a model-script value (`Unsupported value [X] for fields ['k']`);
// - the DFC's check of one layer of its network (`conv layer net/x (translated from …) with … requires …`), its head
//   wrapped over lines by its author;
// - an error no evidence places, after the author's words name the optimizer's algorithm that was running.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { optimizerAlgorithmIn } from '../../../server/src/core/dfc/stageEvidence';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.code} ${d.node ?? ''} ${d.message}`).join(' | ');
const errors = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.severity === 'error');

// ---- the allocator's resource verdicts ---------------------------------------------------------------------------------

test('a resource over its budget after the presolve, an author wrapping it: the compile failed, shmifo and lcus named (dfc-corpus unseen14/51)', () => {
  // DFC 5.4.0 for hailo15h at the default utilization (library file id 68430039408, section 3.3).
  const r = read([
    'The default 60% utilization **does not compile**:',
    '',
    '```',
    'Resources presolve failed: lcus=(180/80)',
    'context hailo_stereo_context_6 shmifo in capacity exceeded',
    '(available: 20, required: 37)',
    '```',
  ]);
  assert.equal(r.outcome, 'failed', said(r));
  assert.equal(r.failedStage, 'compile', said(r));
  const d = errors(r);
  assert.equal(d.length, 1, said(r));
  assert.equal(d[0].code, 'dfc/allocation-failed');
  assert.match(d[0].message, /context hailo_stereo_context_6 exceeds its shmifo in capacity \(required: 37, available: 20\)/);
  assert.match(d[0].message, /lcus=\(180\/80\)/);
  assert.match(d[0].message, /max_utilization/);
});

test("another run's resource line, with the allocator's counts and no context, is the compile's failure too", () => {
  // The same stereo project's later notes, another run at max_utilization=0.95 (library file id 68536455802: `34 of 46
  // allocator failures were \`shmifo in capacity exceeded (available: 20, required: 39)\``), the line as quoted there.
  const r = read(['```', 'shmifo in capacity exceeded (available: 20, required: 39)', '```']);
  assert.equal(r.outcome, 'failed', said(r));
  assert.equal(r.failedStage, 'compile', said(r));
  assert.match(said(r), /dfc\/allocation-failed[^|]*exceeds its shmifo in capacity \(required: 39, available: 20\)/);
});

test("the compiler's own recoverable presolve, then the multi-context flow and a HEF, is no failure, tagged or not", () => {
  // A YOLO compile sweep's session notes (library file id 59218690720, "Sanity 1 — v8n-seg / Hailo-8").
  const lines = [
    '[info] Loading model script commands to yolov8n-seg from string',
    '[info] Using default optimization level of 2',
    '[info] Model Optimization Algorithm Bias Correction is done (completion time is 00:02:04.87)',
    '[info] Model Optimization is done',
    '[info] Single context flow failed: Recoverable single context error - Resources presolve failed: lcus=(>80)',
    '[info] Using Multi-context flow',
    '[info] Found valid partition to 2 contexts, ... (~15 iterations, last gain ≈ 1.6%)',
    'HEF compiled successfully: 7,722,864 bytes',
  ];
  for (const form of [lines, lines.map((l) => l.replace(/^\[info\] /, ''))]) {
    const r = read(form);
    assert.equal(r.outcome, 'success', said(r));
    assert.equal(errors(r).length, 0, said(r));
  }
});

test('the recoverable presolve in an excerpt cut before the compile ends is no failure: the run is incomplete', () => {
  // The same session notes' lines (library file id 59218690720), quoted without their level up to the multi-context flow.
  const r = read([
    'Model Optimization is done',
    'Single context flow failed: Recoverable single context error - Resources presolve failed: lcus=(>80)',
    'Using Multi-context flow',
  ]);
  assert.equal(r.outcome, 'incomplete', said(r));
  assert.equal(errors(r).length, 0, said(r));
});

test("a program's own `capacity exceeded` without the allocator's counts or a context is no allocation failure", () => {
  // A web app's message (library file id 53309937875: `Shelf capacity exceeded (available: …)`), as its log would print it.
  const r = read(['Shelf capacity exceeded (available: 3)']);
  assert.ok(!r.diagnostics.some((d) => d.code === 'dfc/allocation-failed'), said(r));
});

// ---- the allocator's reshape ---------------------------------------------------------------------------------------------

test('the reshape the allocator could not add is the compile failure, its layer named (dfc-corpus unseen14/62)', () => {
  // OWLv2's image tower on DFC 3.34.0 for hailo8l (library file id 70882543132): translation and optimization ok.
  const r = read([
    '**The first three rows all die on `conv1`** -- the single Conv in a 575-node',
    'graph, the 16x16-stride-16 patch embedding:',
    '',
    '    Reshape is needed for layers: conv1, but adding a reshape has failed',
    '',
    "Resolution does not change it (row 2) and neither does the allocator's own",
    'reshape policy (row 3), so it is not capacity and not a missing flag.',
  ]);
  assert.equal(r.outcome, 'failed', said(r));
  assert.equal(r.failedStage, 'compile', said(r));
  assert.match(said(r), /dfc\/allocation-failed[^|]*could not add the reshape layer conv1 needs/);
});

test("another project's reshape failure names every layer of its list", () => {
  // A ConvTasNet export's conversion notes (library file id 19586792410, Feb 17): a list item quoting the line.
  const r = read([
    '4. `project + mask_bypass + reduced_deconv_128/64` and `project + mask_bypass + conv1x1_head` remove skip/concat/mask failures but still fail on early conv reshape:',
    '- `Reshape is needed for layers: conv2, conv3`',
  ]);
  assert.equal(r.outcome, 'failed', said(r));
  assert.equal(r.failedStage, 'compile', said(r));
  assert.match(said(r), /could not add the reshape layers conv2, conv3 need/);
});

// ---- the optimizer's shift-delta refusals -------------------------------------------------------------------------------

test("the optimizer's shift delta refusal names its layer and the DFC's force_range_in (dfc-corpus unseen14/14)", () => {
  // An export script's EXPORT NOTES comment, DFC 3.30.0 (library file id 4173774960).
  const r = read([
    '# EXPORT NOTES: ',
    '# hailo-dataflow-compiler version: 3.30.0',
    '',
    '# Export of efficientvit_b2-mpii-256x256-light fails with:',
    '# layer model/matmul3 does not support shift delta. To overcome this issue you should force',
    '# larger range at the inputs of the layer using command',
    '# quantization_param([layer_name], force_range_in=[range_min, range_max], force_range_index=index)',
    '# current range of input 0 is [0.000, 35.384] and input 1 is [-3064.808, 2911.036].',
  ]);
  assert.equal(r.outcome, 'failed', said(r));
  assert.equal(r.failedStage, 'optimize', said(r));
  assert.match(said(r), /dfc\/quantization-failed[^|]*layer model\/matmul3 does not support shift delta[^|]*force_range_in/);
});

test("the optimizer's other shift-delta words, on a global average pool, are the same refusal (dfc-corpus unseen14/56)", () => {
  // Traditional Chinese notes on an OSNet ReID network, DFC 3.29.0 (library file id 67188899891).
  const r = read([
    '```',
    'AccelerasNumerizationError: Shift delta in osnet_reid/avgpoolN/avgpool_op is',
    'larger than 2, cannot quantize. ... reduce global average-pool spatial dimensions',
    '```',
  ]);
  assert.equal(r.failedStage, 'optimize', said(r));
  assert.match(said(r), /dfc\/quantization-failed[^|]*osnet_reid\/avgpoolN[^|]*global_avgpool_reduction/);
});

// ---- a model-script value the DFC refuses -----------------------------------------------------------------------------

test("a model-script value the DFC's validation refuses is the script's failure, its field named (dfc-corpus unseen14/58)", () => {
  // An Elixir module's @doc, DFC 5.3.0 for hailo10h (library file id 62410137598).
  const r = read([
    '  THE RUNGS THAT EXIST, which is not what the release notes advertise. 5.3.0 announces `a16_w8`',
    '  and `a16_w4` as Hailo-10H preview and the compiler rejects both outright with',
    "  `Unsupported value [PrecisionMode.a16_w8] for fields ['precision_mode']`. What is left is one",
    '  ratio dial and the default.',
  ]);
  assert.equal(r.outcome, 'failed', said(r));
  assert.equal(r.failedStage, 'optimize', said(r));
  assert.match(said(r), /dfc\/model-script[^|]*model script's precision_mode[^|]*\[PrecisionMode\.a16_w8\]/);
});

test("another user's refused value, quoted without its fields in a results table, is the script's failure at its load", () => {
  // A YOLO compile sweep's session notes (library file id 59218690720): v26-seg's matmul precision overrides.
  const r = read([
    '| Attempt | Override | Outcome |',
    '|---|---|---|',
    '| v3 | `quantization_param([matmul1..4], precision_mode=a16_w16)` | 32 s — `Unsupported value [<PrecisionMode.a16_w16>]` at script load |',
  ]);
  assert.equal(r.outcome, 'failed', said(r));
  assert.equal(r.failedStage, 'optimize', said(r));
  assert.match(said(r), /dfc\/model-script[^|]*does not take \[<PrecisionMode\.a16_w16>\]/);
});

// ---- the DFC's check of one layer -------------------------------------------------------------------------------------

test("a layer of the DFC's network refused by its kind's rule, wrapped after its name: the layer and the rule (dfc-corpus unseen14/52)", () => {
  // `hailo profiler` on a compiled hailo15h HAR, DFC 5.4.0 (library file id 68430039408, "On item 2 — the profiler bug").
  const r = read([
    '### On item 2 — the profiler bug',
    '',
    '```',
    'conv layer hailo_stereo/conv78_sd0',
    '(translated from /refine4/blocks/blocks.2/conv2/Conv)',
    'with element-wise addition requires the output_shape of conv and of the',
    'add to be equal',
    "add_output_shape='[-1, 92, 308, 32]', conv_output_shape=[-1, 92, 40, 32]",
    '```',
  ]);
  assert.equal(r.outcome, 'failed', said(r));
  // Nothing says which step ran it: the check is no parser's alone.
  assert.equal(r.failedStage, 'unknown', said(r));
  const d = errors(r);
  assert.equal(d.length, 1, said(r));
  assert.equal(d[0].node, 'hailo_stereo/conv78_sd0');
  assert.match(
    d[0].message,
    /translated from \/refine4\/blocks\/blocks\.2\/conv2\/Conv\) with element-wise addition requires the output_shape of conv and of the add to be equal/,
  );
});

test("the same refusal in a script's comment, wrapped after its rule's verb, reads the same", () => {
  // The project's build script's comment on the profiler (library file id 68289297889), another author's wrap of the message.
  const r = read([
    '    # they break `hailo profiler` on the compiled HAR:',
    '    #',
    '    #   conv layer hailo_stereo/conv78_sd0 with element-wise addition requires',
    '    #   the output_shape of conv and of the add to be equal',
    "    #   add_output_shape='[-1, 92, 308, 32]', conv_output_shape=[-1, 92, 40, 32]",
    '    #',
  ]);
  assert.equal(r.outcome, 'failed', said(r));
  assert.match(said(r), /dfc\/unsupported-layer hailo_stereo\/conv78_sd0 [^|]*requires the output_shape of conv and of the add to be equal/);
});

// ---- the optimizer's algorithm the author names before an error -------------------------------------------------------

test("an unknown error after the author's words name the optimizer's algorithm that ran into it: optimize (dfc-corpus unseen14/57)", () => {
  // Traditional Chinese notes, DFC 3.29.0 (library file id 67188899891, error 2): "the default optimization level runs to
  // bias_correction and throws".
  const r = read([
    '### 2. bias_correction zero-size array',
    '- 預設 optimization level 跑到 bias_correction 丟',
    '  `ValueError: zero-size array to reduction operation maximum`。',
  ]);
  assert.equal(r.outcome, 'failed', said(r));
  assert.equal(r.failedStage, 'optimize', said(r));
  assert.match(said(r), /dfc\/unrecognised-error[^|]*It belongs to the optimize stage: the line before it says the optimizer's bias_correction was running/);
});

test("the author's words behind a relay's level still name the algorithm that ran into the error", () => {
  // unseen14/57's lines relayed through Python's logging, every line at INFO (as dfc-wrappers.test.ts relays every corpus log).
  const r = read(
    [
      '### 2. bias_correction zero-size array',
      '- 預設 optimization level 跑到 bias_correction 丟',
      '  `ValueError: zero-size array to reduction operation maximum`。',
    ].map((l, i) => `2026-12-06 09:12:1${i},00${i} - INFO - compile_model.dfc - ${l}`),
  );
  assert.equal(r.failedStage, 'optimize', said(r));
  assert.match(said(r), /the optimizer's bias_correction was running/);
});

test("the optimizer's algorithms by the model script's names, spelt with an underscore: a bare `finetune` is anyone's word", () => {
  // unseen14/57's line, and a VLM project's troubleshooting notes (library file id 52676609249), nothing of the DFC's.
  assert.equal(optimizerAlgorithmIn('- 預設 optimization level 跑到 bias_correction 丟'), 'bias_correction');
  assert.equal(
    optimizerAlgorithmIn('- `pre_quantization_optimization(global_avgpool_reduction, layers=avgpoolN, division_factors=[H,1])`'),
    'global_avgpool_reduction',
  );
  assert.equal(optimizerAlgorithmIn('**SmolVLM finetune fails with "stack expects each tensor to be equal size"**'), null);
});
