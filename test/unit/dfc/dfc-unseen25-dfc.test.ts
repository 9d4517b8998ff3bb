// Classes the twenty-sixth batch of users' logs (dfc-corpus unseen25/) showed the reader missing on the DFC side: a step's own
// script run at a command line names its stage (`bash translate.sh …`, unseen25/04); a quoted refusal whose verb ends the line
// before, and CPython's message without its class (unseen25/75: read by unseen24's round's rules since the merge, kept here); the
// dynamic loader's `undefined symbol` (unseen25/21); a CUDA error's name, and a CUDA failure in a DFC run told in notes placed in
// the optimizer (unseen25/06); a program's closing tally of counts (unseen25/08); docker's `Loaded image:` (unseen25/23); a further
// failure that names where it happened said beside the first (unseen25/15); a quoted message cured or avoided in its own sentence
// (unseen25/37). Each test reads lines of another source than the batch's log where one was found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog } from '../../../server/src/core/dfc';
import { corpusLogLines } from '../../helpers/dfcCorpus';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const corpus = corpusLogLines;
const errors = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.severity === 'error');

test("a step's own script run at a command line names the stage its error failed in", () => {
  // An error no entry knows (Vitis AI's quantizer, library file 2641586976, says `Load float model..` first; here its refusal is
  // the Tile one), after a prompt running the user's script named for one DFC step.
  const error = 'Error: Unsupported operator: GatherElements';
  for (const [run, stage] of [
    ['bash translate.sh yolo26n_seg_640 640', 'parse'],
    ['(hailo_virtualenv) hailo@host:/local/workspace$ ./parse_model.sh best.onnx', 'parse'],
    ['python3 quantize.py --har yolov8n.har --calib calib.npy', 'optimize'],
    ['bash scripts/optimize_model.sh yolov8n', 'optimize'],
  ] as const) {
    const r = read(['```bash', run, '```', '', '```', error, '```']);
    assert.equal(r.outcome, 'failed', run);
    assert.equal(r.failedStage, stage, run);
  }
  // The whole flow's script names no stage (authors name it `compile`), nor one naming two steps, nor a name in a sentence.
  for (const run of ['bash compile_hef.sh yolo26n_seg_640 0.6 greedy', 'bash parse_and_quantize.sh m', 'see translate.sh for the steps'])
    assert.equal(read(['```bash', run, '```', '', '```', error, '```']).failedStage, 'unknown', run);
});

test('a quoted refusal whose verb ends the line before the quote, and a message that opens on a quoted name', () => {
  // A code comment's wrapped sentence (library file 61708842444): `… importing it under torch 2.1.1 dies with` / `` # `undefined
  // symbol: …` ``; and an AttributeError's message without its class, after `crashed with` on the line before (CPython's
  // `'%.100s' object has no attribute '%U'`, dfc-corpus unseen18/25's `'int' object has no attribute 'shape'`).
  const comment = [
    '# Wheel is mangled with `St8optional` (std::optional), i.e. it was compiled against a torch new enough',
    '# to have dropped c10::optional, and importing it under torch 2.1.1 dies with',
    '# `undefined symbol: _ZN2at4_ops10zeros_like4call...`. Verified by symbol',
  ];
  const r = read(comment);
  assert.equal(r.outcome, 'failed');
  assert.ok(
    errors(r).some((d) => d.message.includes('_ZN2at4_ops10zeros_like4call')),
    JSON.stringify(r.diagnostics),
  );
  const notes = ['- The SDK emulator harness passed plain ints as shapes and crashed with', "  `'int' object has no attribute 'shape'`. Wrap them."];
  const n = read(notes);
  assert.equal(n.outcome, 'failed');
  assert.ok(
    errors(n).some((d) => d.message.includes("'int' object has no attribute 'shape'")),
    JSON.stringify(n.diagnostics),
  );
  // A quote on the next line after words that are no failure verb stays a quote.
  assert.equal(read(['- The harness then printed', "  `'yolov8n' model compiled to 3 contexts` as its note."]).outcome, 'incomplete');
});

test("the dynamic loader's `undefined symbol` is a failure line", () => {
  // A C++ program's own start (library file 56688057939, paho-mqtt-cpp ABI mismatch) and ld.so's symbol lookup error (32350229634).
  for (const line of [
    './AlertGateway: undefined symbol: _ZN4mqtt15connect_options17set_clean_sessionEb',
    './opt/cachelib/bin/cachebench: symbol lookup error: ./opt/cachelib/bin/cachebench: undefined symbol: _ZN6google21kLogSiteUninitializedE',
  ]) {
    const r = read(['$ ./run.sh', line]);
    assert.equal(r.outcome, 'failed', line);
    assert.ok(
      errors(r).some((d) => d.message.includes('undefined symbol')),
      line,
    );
  }
  // Words about symbols are none.
  assert.equal(read(['$ ./run.sh', 'undefined symbols are listed by nm -u']).outcome, 'incomplete');
});

test("a CUDA error's name is a failure; told in notes of a DFC run, the optimizer's", () => {
  // A troubleshooting page's fenced quote (library file 58604115241): the CUDA driver API's error name and its description.
  const cuda = 'CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected';
  const app = read(['### Linux: no CUDA device despite nvidia-smi working', '', '```', cuda, '```']);
  assert.equal(app.outcome, 'failed');
  assert.equal(app.failedStage, 'unknown');
  // The same in notes about the DFC's container: the GPU is the optimizer's (unseen17/83's translate goes on past TensorFlow's
  // `failed call to cuInit` at warning level and succeeds).
  const dfc = read(['Inside the hailo8_ai_sw_suite_2025-10 container, with the host driver 560:', '', '```', cuda, '```']);
  assert.equal(dfc.outcome, 'failed');
  assert.equal(dfc.failedStage, 'optimize');
  const translate = read(corpus('unseen17', '83-'));
  assert.equal(translate.outcome, 'success');
  // TensorFlow's fatal-looking lines between the optimizer's steps, which go on to `Model Optimization is done` (unseen7/31).
  assert.equal(read(corpus('unseen7', '31-')).outcome, 'success');
});

test("a program's closing tally of counts ends its run; one with failures above zero does not", () => {
  // A CI job's e2e runner (library file 62143623327: `Summary: passed=89 failed=0 skipped=0`) and a kernel benchmark's harness
  // (55697107377: `Summary: passed=3, correct_not_faster=0, incorrect=0, infra_failed=0.`), each after its per-case lines.
  const cases = ['  M=2048: passed  primary_util(MFU)=0.03256  TFLOP/s=42.57', '  M=4096: passed  primary_util(MFU)=0.03308  TFLOP/s=43.26'];
  for (const tally of ['Summary: passed=89 failed=0 skipped=0', 'Summary: passed=3, correct_not_faster=0, incorrect=0, infra_failed=0.'])
    assert.equal(read([...cases, tally]).outcome, 'success', tally);
  // Such scripts exit 1 when a count of failures is above zero (58844020872: `return 0 if failed == 0 else 1`).
  for (const tally of ['Summary: passed=87 failed=2 skipped=0', 'Summary: passed=3, correct_not_faster=0, incorrect=1, infra_failed=0.'])
    assert.notEqual(read([...cases, tally]).outcome, 'success', tally);
  // A summary in words is none.
  assert.equal(read([...cases, 'Summary: the kernel is faster on both sizes']).outcome, 'incomplete');
});

test("docker's last line of `load` or `pull` ends the run, unless a step follows it", () => {
  // A Hailo-8 guide's expected output of the suite's run script (library file 60521967065), and docker pull's final status.
  const load = ['./hailo_ai_sw_suite_docker_run.sh', 'Loaded image: hailo8_ai_sw_suite_2025-10:1'];
  assert.equal(read(load).outcome, 'success');
  // A step the script announces after it takes the answer back: the run went on to start the image
  // (dfc-unseen24-successes.test.ts, the container's welcome).
  assert.equal(read([...load, 'Running Hailo AI SW suite Docker image...']).outcome, 'incomplete');
  assert.equal(read(['docker pull hailo/hailo-suite', 'Status: Downloaded newer image for hailo/hailo-suite:latest']).outcome, 'success');
  // Its layers still loading is no end.
  assert.equal(read(['5baeb41057c7: Loading layer [==================================================>]  976.4MB/976.4MB']).outcome, 'incomplete');
});

test('a further failure that names where it happened is said beside the one the catalogue explained', () => {
  // The wraparound fixture's line (../dfc/SOURCES.md K) as a row, then a row of another probe's refusal (the emulator's
  // InferenceError form, at an HN path of another network): both rows failed, and the second names where.
  // (Under a heading, as a logbook lays its rows out: two rows alone at one indentation read as one hard-wrapped paragraph.)
  const wraparound = "    a16_w4    FAILED  AttributeError: 'function' object has no attribute 'set_wraparound_loss'";
  const r = read(['## Probes', '', wraparound, '    a8_w8     FAILED  InferenceError, graph execution error at yolov8n/conv41/act_op']);
  assert.equal(r.outcome, 'failed');
  assert.ok(r.diagnostics.some((d) => d.code === 'dfc/wraparound-a16w4'));
  assert.ok(
    errors(r).some((d) => d.node === 'yolov8n/conv41/act_op'),
    JSON.stringify(r.diagnostics),
  );
  // A file path is no layer (`failed in src/x.c` names none), and the row without a place stays unsaid beside the first.
  for (const row of ['    a8_w8     FAILED  build error in src/emu.c', '    a8_w8     FAILED  InferenceError, graph execution error'])
    assert.equal(errors(read(['## Probes', '', wraparound, row])).length, 1, row);
});

test('a quoted message cured or avoided in its own sentence is no failure; one after a contrast is', () => {
  // The YOLO26n-seg journal's attempt 2 (dfc-corpus unseen25/05): `matmul1` was resolved, but the PrePostAgent came back — the
  // second quote is the failure. A changelog line naming the compiler's verdict as solved is none.
  const back = read(corpus('unseen25', '05-'));
  assert.ok(
    errors(back).some((d) => d.message.includes('PrePostAgent')),
    JSON.stringify(back.diagnostics),
  );
  for (const line of [
    '- Error "Performance Flow requires automatic resource utilization" fixed by dropping resources_param.',
    '- Cut the model before Concat_4 to eliminate the node causing "Agent infeasible".',
  ])
    assert.deepEqual(errors(read([line])), [], line);
  // Not cured: a failure verb or a contrast between the cure and the quote.
  for (const line of [
    '- Fixed the shapes, then the compile failed with "PrePostAgent Agent infeasible".',
    '- Fixed the input shapes, but "PrePostAgent Agent infeasible" came back.',
  ]) {
    const again = read([line]);
    assert.ok(
      errors(again).some((d) => d.message.includes('PrePostAgent')),
      `${line} ${JSON.stringify(again.diagnostics)}`,
    );
  }
});

test("an author's hard wrap inside a blockquote is joined like one outside it", () => {
  // The AUV notes' wrapped refusal (dfc-corpus unseen25/74: `… *"The specified meta architecture yolov8` / `cannot be run on
  // chip."*`) quoted whole in a Markdown blockquote, as the wrappers test's quote mark does: the catalogue's message is still read.
  const notes = corpus('unseen25', '74-');
  const plain = read(notes);
  assert.ok(plain.diagnostics.some((d) => d.code === 'dfc/model-script'));
  const quoted = read(notes.map((l) => `> ${l}`));
  assert.ok(
    quoted.diagnostics.some((d) => d.code === 'dfc/model-script'),
    JSON.stringify(quoted.diagnostics),
  );
  assert.equal(quoted.failedStage, plain.failedStage);
});
