// Classes the twenty-fourth batch of users' logs (dfc-corpus unseen23/) showed the reader missing: a harness's own PASS
// verdict on the case it ran ends the run (unseen23/67); a benchmark's mean ± spread over its timed runs is the run's answer
// (unseen23/08); NetworkX's exception classes, named for the library (unseen23/03); a program's own words naming the step it
// could not do to the model (`Could not parse the model …`, unseen23/06); `Invalid … for conv X`, a message's first word, and
// the layer it names by its HN kind (unseen23/04); the step an author's intro sets against the steps that went through
// (`…, mais le compile plante :`, unseen23/04); the DFC API's method an author names for the step (`translate_onnx_model`,
// unseen23/01). Each test reads lines of another source than the batch's log where one was found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog } from '../../../server/src/core/dfc';
import { repoRoot } from '../../helpers/shared';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const corpus = (half: string, prefix: string) => {
  const dir = join(repoRoot, 'test/fixtures/dfc-corpus', half);
  const name = readdirSync(dir).find((d) => d.startsWith(prefix));
  return readFileSync(join(dir, name!, 'run.log'), 'utf8').split('\n');
};

test("a harness's PASS verdict on its case ends the run it wraps; a cut before it, or `pass` in prose, does not", () => {
  // The same sweep's other sanity run (dfc-corpus unseen2/21, library file 59218690720: yolov8n-seg on hailo8), without the
  // wrapper's `HEF compiled successfully` line: the sweep's `PASS  hailo8 / yolov8n-seg.pt` alone says the compile ended well.
  const sweep = corpus('unseen2', '21-').filter((l) => !/^HEF compiled/.test(l));
  assert.ok(sweep.some((l) => l.startsWith('PASS')));
  const r = read(sweep);
  assert.equal(r.outcome, 'success', JSON.stringify(r.diagnostics));
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  // Cut before the verdict: the compile's partition search is all it shows — no end.
  assert.equal(read(sweep.filter((l) => !l.startsWith('PASS'))).outcome, 'incomplete');
  // Go's test runner (`go test -v`: `--- PASS: TestName (0.01s)`) and pytest's verbose line (after the blank line that ends its
  // captured output) say the same of their case.
  const compiling = ['[info] Model Optimization is done', '[info] Found valid partition to 2 contexts'];
  for (const verdict of [['--- PASS: TestCompileYolov8n (812.40s)'], ['', 'tests/test_compile.py::test_yolov8n_hailo8 PASSED                [100%]']])
    assert.equal(read([...compiling, ...verdict]).outcome, 'success', verdict.join('\n'));
  // Prose and names are no verdict.
  for (const line of ['PASS_THROUGH layers are kept as is', 'Passed the calibration set as a numpy array', 'we pass hailo8 / yolov8n-seg.pt'])
    assert.equal(read([...compiling, line]).outcome, 'incomplete', line);
});

test("a benchmark's mean ± spread over its timed runs is its answer; a live FPS line is not", () => {
  // IPython's %timeit report (IPython/core/magics/execution.py, TimeitResult: `{mean} ± {std} per loop (mean ± std. dev. of {runs}
  // runs, {loops} loops each)`) after a notebook's emulator warnings, and a script's `latency: mean +/- std ms`.
  const warned =
    'WARNING:tensorflow:5 out of the last 5 calls to <function Model.make_predict_function.<locals>.predict_function at 0x7f2a1c0d4ee0> triggered tf.function retracing.';
  for (const report of ['412 ms ± 9.71 ms per loop (mean ± std. dev. of 7 runs, 1 loop each)', 'Emulator latency: 412.3 +/- 9.7 ms']) {
    const r = read(['Running the quantized emulator...', warned, report]);
    assert.equal(r.outcome, 'success', report);
  }
  // hailo-apps' per-second line (dfc-corpus unseen19/38) is the pipeline still running: the excerpt shows no end.
  const live = corpus('unseen19', '38-').filter((l) => /^FPS: /.test(l));
  assert.ok(live.length > 3);
  assert.equal(read(live).outcome, 'incomplete');
  // A figure without its spread is no summary of runs (a single measurement, a setting).
  assert.equal(read(['Running the quantized emulator...', warned, 'Emulator latency: 412.3 ms']).outcome, 'incomplete');
});

test("NetworkX's exception classes are a failure (named for the library, not ending in Error)", () => {
  // networkx/algorithms/dag.py topological_sort: `raise nx.NetworkXUnfeasible("Graph contains a cycle or graph changed during
  // iteration")`; shortest_path's `NetworkXNoPath`. Quoted as authors quote an error, its last line alone (inside a traceback
  // any class is read at the traceback's end).
  for (const line of [
    'networkx.exception.NetworkXUnfeasible: Graph contains a cycle or graph changed during iteration',
    'NetworkXNoPath: No path between input_layer1 and output_layer3.',
  ]) {
    const r = read(['The parser stops there:', line]);
    assert.equal(r.outcome, 'failed', line);
    assert.equal(r.failedStage, 'parse', line);
    assert.ok(
      r.diagnostics.some((d) => d.severity === 'error' && d.message.includes(line.replace(/^networkx\.exception\./, '').split(':')[0])),
      JSON.stringify(r.diagnostics),
    );
  }
  // Named in a sentence without its message, it reports nothing.
  assert.equal(read(['NetworkX graphs hold the HN layers.']).outcome, 'incomplete');
});

test("a program's own words name the step it could not do to the model; HailoRT's `Failed to parse HEF` is no DFC stage", () => {
  // The DFC CLI's prefix (dfc-corpus tune2/22: `[error] Failed to compile the model: …`) with a message no catalogue entry has.
  const compile = read(['[error] Failed to compile the model: the kernel table has no entry for this shape']);
  assert.equal(compile.outcome, 'failed');
  assert.equal(compile.failedStage, 'compile', JSON.stringify(compile.diagnostics));
  const parse = read(['Could not parse the ONNX model: unsupported opset 22']);
  assert.equal(parse.failedStage, 'parse', JSON.stringify(parse.diagnostics));
  const optimize = read(['Unable to quantize the model, the calibration set is empty']);
  assert.equal(optimize.failedStage, 'optimize', JSON.stringify(optimize.diagnostics));
  // HailoRT's (dfc/hailort-runtime fixture): a runtime step, whatever its verb.
  const hef = read(['[HailoRT] [error] Failed to parse HEF file. status=HAILO_HEF_FILE_CORRUPTED']);
  assert.notEqual(hef.failedStage, 'parse');
  // The verb's object must be the model: another thing's parse says no stage.
  assert.equal(read(['Could not parse the config file: line 3']).failedStage, 'unknown');
});

test("`Invalid … for/of/found …` as a message's first words is a failure, naming the layer by its HN kind", () => {
  // ffmpeg (libavformat's AVERROR_INVALIDDATA, as `ffmpeg -i` prints it for a file it cannot read).
  const ff = read(['calib.mp4: Invalid data found when processing input']);
  assert.equal(ff.outcome, 'failed', JSON.stringify(ff.diagnostics));
  // The DFC's compile message with another layer than the batch's.
  const conv = read(['Invalid kernel shape for conv conv12, Groups: 0']);
  assert.equal(conv.outcome, 'failed');
  assert.ok(
    conv.diagnostics.some((d) => d.node === 'conv12' || d.message.includes('conv12')),
    JSON.stringify(conv.diagnostics),
  );
  assert.ok(
    conv.diagnostics.some((d) => d.node === 'conv12'),
    JSON.stringify(conv.diagnostics),
  );
  // A word inside a sentence, or a name without a digit or underscore, is no such report / no layer.
  assert.equal(read(['An invalid value for the batch size is replaced by 1.']).outcome, 'incomplete');
  assert.ok(!read(['Invalid kernel shape for conv layers, Groups: 0']).diagnostics.some((d) => d.node === 'layers'));
});

test("the step an author's intro sets against the steps that went through is the one that failed", () => {
  for (const [intro, stage] of [
    ['Parsing and optimization pass without a hitch, but the compile crashes:', 'compile'],
    ["L'optimize passe sans broncher, mais le compile plante :", 'compile'],
    ['The parser is happy, but quantization falls over:', 'optimize'],
  ] as const) {
    // Right after the intro, or in a Markdown fence after it (the fence's line is no words of its own).
    for (const quote of [['Invalid kernel shape for conv conv5, Groups: 0'], ['```', 'Invalid kernel shape for conv conv5, Groups: 0', '```']]) {
      const r = read([intro, ...quote]);
      assert.equal(r.outcome, 'failed', intro);
      assert.equal(r.failedStage, stage, `${intro} ${JSON.stringify(r.diagnostics)}`);
    }
  }
  // Without a contrast, two stages named say neither.
  assert.equal(read(['Parsing and optimization both run, then:', 'Invalid kernel shape for conv conv5, Groups: 0']).failedStage, 'unknown');
});

test("the DFC API's method an author names for the step places an error nothing else does", () => {
  for (const [intro, stage] of [
    ['`translate_onnx_model` blows up at once:', 'parse'],
    ['Then `optimize_full_precision` dies:', 'optimize'],
  ] as const) {
    for (const quote of [["KeyError: 'images'"], ['```', "KeyError: 'images'", '```']]) {
      const r = read([intro, ...quote]);
      assert.equal(r.outcome, 'failed');
      assert.equal(r.failedStage, stage, `${intro} ${JSON.stringify(r.diagnostics)}`);
    }
  }
});
