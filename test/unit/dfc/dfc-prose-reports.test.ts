// The classes the seventh batch of users' logs (dfc-corpus unseen6/) showed the reader missing, each as a
// general mechanism (docs/dfc-log.md): a sentence that says something itself around a code span it quotes
// (the regression of the code-span rule), HailoRT's CHECK_SUCCESS form with the status before the caller's
// message, HailoRT's HEF-header version check and the status its check returns, refusals an author reports
// in prose or a table row instead of pasting the console, and the allocator's words inside a sentence. The
// lines here are written for these tests, in other words, languages and wrappers than the batch's; the
// messages in them are the DFC's and HailoRT's own (the catalogue's evidence: core/common/dfcMessages.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (text: string) => readDfcLog(text, { logPath: 'run.log' });
const codes = (text: string) => [...new Set(read(text).diagnostics.map((d) => d.code))];

test('a sentence that quotes a command in a code span and says a HailoRT status itself is read whole', () => {
  // The status is the sentence's, the span a recovery command (before: the span alone was read, the status lost).
  assert.deepEqual(
    codes(
      'After a hot reboot the service logs CHECK_SUCCESS failed with status=HAILO_TIMEOUT(4) - Failed to read from stream until you run `sudo systemctl restart hailort`.\n',
    ),
    ['hailort/timeout'],
  );
  assert.deepEqual(codes('Im Log steht dann HAILO_COMMUNICATION_CLOSED(62), bis man `sudo modprobe -r hailo1x_pci && sudo modprobe hailo1x_pci` ausführt.\n'), [
    'hailort/connection-closed',
  ]);
  assert.deepEqual(codes('> The parser stops with UnsupportedSoftmaxLayerError: Unsupported softmax axis, so we run `onnxsim model.onnx out.onnx` first.\n'), [
    'dfc/unsupported-softmax',
  ]);
  // A sentence that says nothing itself still reads the line its span quotes (the rule the regression came with).
  assert.deepEqual(codes('The compile hit `Memory units capacity exceeded (available: 64, required: 70)` on the last context.\n'), ['dfc/allocation-failed']);
});

test("HailoRT's CHECK_SUCCESS form puts the status before the caller's message: a GenAI create's HAILO_INVALID_HEF is the HEF's release", () => {
  const vlm = read('[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INVALID_HEF(26) - Failed to create VLM\n');
  assert.deepEqual(
    vlm.diagnostics.map((d) => d.code),
    ['hailort/version-mismatch'],
  );
  assert.match(vlm.diagnostics[0].message, /major\.minor version/);
  assert.match(vlm.diagnostics[0].message, /^HailoRT: CHECK_SUCCESS failed with status=HAILO_INVALID_HEF\(26\) - Failed to create VLM/);
  assert.deepEqual(codes('2026-01-02 10:11:12 ERROR whisper: CHECK_SUCCESS failed with status=26 - Failed to create Speech2Text\n'), [
    'hailort/version-mismatch',
  ]);
  // Not a GenAI model: the family's HEF refusal, as before.
  assert.deepEqual(codes('[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INVALID_HEF(26) - Failed to create network group\n'), [
    'hailort/hef-rejected',
  ]);
});

test("HailoRT's 'HEF version does not match' is a version mismatch, and the status its check returns is the same failure", () => {
  const r = read(
    [
      '[HailoRT] [error] CHECK failed - HEF version does not match',
      '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INVALID_HEF(26)',
      '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INVALID_HEF(26) - Failed to parse HEF',
    ].join('\n'),
  );
  assert.equal(r.outcome, 'failed');
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['hailort/version-mismatch'],
  );
  assert.match(r.diagnostics[0].message, /HEF version does not match — HAILO_INVALID_HEF\(26\)/);
  assert.match(r.diagnostics[0].message, /version/);
  // The DFC-version check of a strictly versioned HEF and its status: one failure too.
  const dfc = read(
    '[HailoRT] [error] CHECK failed - DFC version from which this HEF was created (5.1.0) is different from library version (5.2.0), which is not allowed for this model.\n[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INVALID_HEF(26)\n',
  );
  assert.deepEqual(
    dfc.diagnostics.map((d) => d.code),
    ['hailort/version-mismatch'],
  );
  // The 4.18–4.19 libraries answered the same check with HAILO_INTERNAL_FAILURE (docs/hef-inspector.md): one failure too.
  assert.deepEqual(
    codes('[HailoRT] [error] CHECK failed - HEF version does not match\n[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INTERNAL_FAILURE(8)\n'),
    ['hailort/version-mismatch'],
  );
  // Quoted in Italian notes, in a code span.
  assert.deepEqual(codes("Sul Pi compare `HEF version does not match`: l'HEF è di un'altra versione.\n"), ['hailort/version-mismatch']);
});

test('refusals an author reports in prose, with where they were raised, are the parser refusing those nodes', () => {
  const r = read(
    'Translation then stops on the attention block: UnsupportedSoftmaxLayerError at `/blocks.0/attn/Softmax`; UnsupportedConcatLayerError for node concat_17 (axis batch).\n',
  );
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'parse');
  assert.deepEqual(
    r.diagnostics.map((d) => [d.code, d.node]),
    [
      ['dfc/unsupported-softmax', '/blocks.0/attn/Softmax'],
      ['dfc/unsupported-concat', 'concat_17'],
    ],
  );
  // Other languages' words between the class and the node; a class of the parser's form nobody listed.
  assert.deepEqual(
    read('Le parseur échoue avec UnexpectedNodeError sur `node_Expand_3` puis s’arrête.\n').diagnostics.map((d) => [d.code, d.node]),
    [['dfc/unexpected-node', 'node_Expand_3']],
  );
  assert.deepEqual(
    read('파서가 UnsupportedGatherLayerError가 node_gather_12에서 발생했다\n').diagnostics.map((d) => [d.code, d.node]),
    [['dfc/unsupported-layer', 'node_gather_12']],
  );
  assert.deepEqual(
    read('// the DFC rejects it: UnsupportedResizeLayerError on Resize_207\n').diagnostics.map((d) => [d.code, d.node]),
    [['dfc/unsupported-layer', 'Resize_207']],
  );
});

test('a refusal class alone in a table cell is reported; prose naming a class as avoided, hypothetical or without a node is not', () => {
  const table = read('| model | DFC 3.31 | DFC 5.2 |\n|---|---|---|\n| yolo-world | `UnsupportedConcatLayerError` | parses |\n');
  assert.equal(table.outcome, 'failed');
  assert.equal(table.failedStage, 'parse');
  assert.deepEqual(
    table.diagnostics.map((d) => d.code),
    ['dfc/unsupported-concat'],
  );
  assert.doesNotMatch(table.diagnostics[0].message, /: :/);
  // Any class alone in a results table's cell is what that step died of; an optimizer's class says its stage and whose it is.
  const acc = read('| step | result |\n|---|---|\n| parse | ok |\n| quantize | `AccelerasNumerizationError` |\n');
  assert.equal(acc.outcome, 'failed');
  assert.equal(acc.failedStage, 'optimize');
  assert.deepEqual(
    acc.diagnostics.map((d) => d.code),
    ['dfc/unrecognised-error'],
  );
  assert.match(acc.diagnostics[0].message, /^The DFC failed with an error this reader does not know: AccelerasNumerizationError\./);
  assert.equal(read('| yolov8s | 3.27 | RuntimeError |\n').outcome, 'failed');
  assert.deepEqual(codes('If you hit UnsupportedShuffleLayerError on node_x, cut the graph there.\n'), []);
  assert.deepEqual(codes('Splitting the scan avoids UnexpectedNodeError on node_Expand_1.\n'), []);
  assert.deepEqual(codes('UnsupportedShuffleLayerError is raised for reshape ops in general\n'), []);
  assert.deepEqual(codes('It ran into UnsupportedModelError in DFC v5.3 as well\n'), []);
  // A model's name after the class is no node of its graph.
  assert.deepEqual(codes('It ran into UnsupportedOperationError on the YOLO26n head as well\n'), []);
  // A generic class beside a node says nothing by itself.
  assert.deepEqual(codes('parse_raw_data raises ValueError on node_const_3 sometimes\n'), []);
});

test('a class told by the function that raised it, named together in prose, is that entry', () => {
  const r = read('运行 hailo parser 时报错 IndexError，位置在 `_convert_axes_to_nhwc`（onnx_graph.py）\n');
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'parse');
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['dfc/axes-format'],
  );
  assert.deepEqual(codes('- get_concat_info raised an IndexError on the raw vision tower\n'), ['dfc/concat-format']);
  // The class quoted with its message, the function after it.
  assert.deepEqual(codes('IndexError: list index out of range (raised in get_concat_info)\n'), ['dfc/concat-format']);
  // Another function: no entry of the catalogue.
  assert.deepEqual(codes('- parse_raw_data raised an IndexError on an empty attribute\n'), []);
  assert.deepEqual(codes('onnxsim at a fixed shape avoids the IndexError in get_concat_info.\n'), []);
});

test("the allocator's Agent infeasible and Mapping Failed inside a sentence are the compile failing", () => {
  const r = read('La compilación para hailo8 termina con PPUAgent infeasible en el contexto 2, incluso con timeout alto.\n');
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'compile');
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['dfc/allocation-failed'],
  );
  const m = read('# the hailo8l compile ended in Mapping Failed after 40 minutes\n');
  assert.equal(m.failedStage, 'compile');
  assert.deepEqual(
    m.diagnostics.map((d) => d.code),
    ['dfc/allocation-failed'],
  );
});

test('beyond the batch: an error line nobody catalogued that a DFC run never got past fails it, in the stage its command names', () => {
  // Before: only an application's run (no hailo command, no DFC stage) failed on such a line; a DFC run read incomplete with no diagnostic.
  const r = read('$ hailo compiler yolov8n_optimized.har --hw-arch hailo8\n[error] Failed to build the resource plan: internal planner error\n');
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'compile');
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['dfc/unrecognised-error'],
  );
  assert.match(r.diagnostics[0].message, /internal planner error/);
  const mz = read('hailomz compile yolov8n --hw-arch hailo8l\nERROR: Failed to load the network configuration\n');
  assert.equal(mz.outcome, 'failed');
  assert.equal(mz.failedStage, 'unknown');
  // The DFC's banner after its first-run check's `[Error]` lines: it started after all.
  const check = read('[Error] See full log: /home/u/.install_logs/hailo_installation_log.log\n[info] Hailo DFC Version: 3.31.0\n[info] Running `hailo -h`\n');
  assert.notEqual(check.outcome, 'failed');
});

test("beyond the batch: an uncatalogued error's stage from the author's words where they quote it, one stage's words only", () => {
  // Before: `unknown` — nothing the reader knows names the stage, but the author did.
  assert.equal(read("Parsing fails: `KeyError: '/model.22/Concat_3'`\n").failedStage, 'parse');
  assert.equal(read('The calibration step dies with:\n\n    RuntimeError: CUDA error: out of memory\n').failedStage, 'optimize');
  const tb = read(
    'Quantization crashes here:\n\nTraceback (most recent call last):\n  File "/home/u/run.py", line 12, in <module>\n    main()\nRuntimeError: CUDA error: an illegal memory access was encountered\n',
  );
  assert.equal(tb.failedStage, 'optimize');
  assert.match(tb.diagnostics[0].message, /^The DFC failed/);
  // `compile` is what authors call the whole flow; two stages' words say neither; HailoRT's failures have no DFC stage.
  assert.equal(read('Compiling my model fails: ValueError: bad shape\n').failedStage, 'unknown');
  assert.equal(read('After parsing, the optimizer fails: ValueError: bad shape\n').failedStage, 'unknown');
  assert.equal(read('While parsing the HEF: HailoRTException: bad magic\n').failedStage, 'unknown');
});

// The tenth batch's classes (dfc-corpus unseen9/): a HailoRT check quoted without its status, and a sentence with several spans.

test("a HailoRT check quoted without its callers' status lines is HailoRT's failure, not an unknown one", () => {
  // HailoRT's CHECK returns a status with every failed check; a quote that stops at the check has not shown it.
  const r = read("[HailoRT] [error] CHECK failed - Output buffer size 1024 is different than expected 2048 for output 'ssd_mobilenet_v1/bbox_decoder13'\n");
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['hailort/status'],
  );
  assert.match(r.diagnostics[0].message, /Output buffer size 1024 is different than expected 2048.*ssd_mobilenet_v1\/bbox_decoder13/);
});

test('a sentence with several code spans: the one that quotes a line (words with spaces) is the line, the single tokens are names', () => {
  // The author wraps the span over lines and names a function and a class in spans of their own around it.
  const r = read(
    "After the upgrade `run_async` hangs, then: `[HailoRT] [error] CHECK failed - Output buffer size 1024 is different\nthan expected 2048 for output 'ssd_mobilenet_v1/bbox_decoder13'` from `AsyncInferJob`, every frame.\n",
  );
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['hailort/status'],
  );
  assert.match(r.diagnostics[0].message, /ssd_mobilenet_v1\/bbox_decoder13/);
  // A span of words that is no log line (a phrase naming a block) beside a class: the sentence is read whole, as without spans.
  const phrase = 'Our `Conv -> Transpose -> Reshape` head is refused: `UnsupportedShuffleLayerError`.';
  assert.deepEqual(codes(phrase), codes(phrase.replace(/`/g, '')));
  assert.notDeepEqual(codes(phrase), []);
});

test("an application's failure nobody catalogued is said where it began: its first error line, before its callers' lines", () => {
  // A program logs the failure's cause first (a KeyError's bare key, here), then each caller's line as it gives up.
  const r = read(
    [
      "2025-06-01 08:00:00 ERROR    [frigate.detectors.hailo] Could not open the device: 'scheduling_algorithm'",
      '2025-06-01 08:00:00 ERROR    [frigate.detectors.hailo] Detector setup aborted',
      '2025-06-01 08:00:01 ERROR    [frigate.app] Detector hailo is unavailable, retrying in 30 s',
      '',
    ].join('\n'),
  );
  assert.equal(r.outcome, 'failed');
  assert.match(r.diagnostics[0]?.message ?? '', /began with: (?:\[[\w.]+\] )?Could not open the device: 'scheduling_algorithm'/);
});

test('a HailoRT buffer of size 0 from Python says what empties it: an empty array, or numpy 2 under a HailoRT 4.x wheel', () => {
  const r = read(
    "[HailoRT] [error] CHECK failed - Output buffer size 0 is different than expected 8400 for output 'yolov5s/yolov5_nms_postprocess'\n[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INVALID_ARGUMENT(2)\n",
  );
  assert.deepEqual([...new Set(r.diagnostics.map((d) => d.code))], ['hailort/status']);
  assert.match(r.diagnostics[0].message, /yolov5s\/yolov5_nms_postprocess/);
  assert.match(r.diagnostics[0].message, /numpy 1.*numpy 2|numpy<2/);
  // Any other size is a shape or dtype mismatch, not this.
  assert.doesNotMatch(
    read("[HailoRT] [error] CHECK failed - Output buffer size 4200 is different than expected 8400 for output 'a/b'\n").diagnostics[0]?.message ?? '',
    /numpy/,
  );
});
