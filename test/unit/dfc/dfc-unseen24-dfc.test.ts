// Classes the twenty-fifth batch of users' logs (dfc-corpus unseen24/) showed the reader missing on the DFC's side, each told in
// notes rather than pasted: a record of the HEF with its size is the compile's end (unseen24/42); a results list's case name and
// its PASS verdict last (unseen24/78); the compiler's single-context attempt failing, told in words, is the step it recovers from
// (unseen24/42, /78); a class an author quotes as what a run crashed with, across their hard wrap (unseen24/06); the DFC tool an
// author makes the subject of `couldn't`, and their next lines said with the failure (unseen24/38). Each test reads lines of
// another source than the batch's log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog } from '../../../server/src/core/dfc';
import { corpusLogLines } from '../../helpers/dfcCorpus';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const corpus = corpusLogLines;
const errors = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.severity === 'error');

test("a record of the HEF with its size is the compile's end; a limit, a failure or an author's account in the present is not", () => {
  // A Korean compile report's verification list (library file id 42778402369): the output HEF with its size and a check mark.
  const report = [
    '**검증 결과:**',
    '- 입력: `best_hailo_compatible.onnx` (29MB, node_conv2d_N 네이밍)',
    '- 변환: `best_hailo_renamed.onnx` (29MB, /model.X 네이밍)',
    '- 출력: `yolov5s_seg.hef` (7.3MB) ✓',
    '- Calibration: 64 images, 51초',
    '- Mapping: 3분 55초',
    '- Compilation: 16초',
  ];
  const r = read(report);
  assert.equal(r.outcome, 'success', JSON.stringify(r.diagnostics));
  assert.deepEqual(
    r.saved.map((s) => [s.kind, s.path]),
    [['hef', 'yolov5s_seg.hef']],
  );
  // Without the output's line the list shows no end.
  assert.equal(read(report.filter((l) => !l.includes('.hef'))).outcome, 'incomplete');
  // The same port's notes, another graph (library file id 70898832909): `Compile took 32s. \`x.hef\` is 241,664 bytes.`
  const measured = [
    'With 1024 rows and optimization level 0, the quantized emulator matches PyTorch at cosine 0.997265, MSE 5.37e-5, and max absolute error 0.0320.',
    'Compile took 32s. `hailo_port/generated/clef_experimental_depthwise_conv.hef` is 241,664 bytes. Totals: control 38.8%, compute 12.9%, memory 13.3%.',
  ];
  assert.equal(read(measured).outcome, 'success');
  // A limit or a failure is no measure of a file written.
  for (const line of ['- 출력: `yolov5s_seg.hef` (at most 32 MB)', '- Output: `yolov5s_seg.hef` (7.3MB) failed to load on the device'])
    assert.notEqual(read([...report.filter((l) => !l.includes('.hef')), line]).outcome, 'success', line);
  // An author's sentence with a verb in the present, beside the failure the notes are about (dfc-corpus unseen21/09, read whole):
  // an account of what a variant does, not this run's end.
  const variant = read(corpus('unseen21', '09-'));
  assert.equal(variant.outcome, 'failed');
  assert.equal(variant.failedStage, 'compile');
});

test("a results list's case name with its PASS verdict last ends the run it wraps; PASS inside a sentence does not", () => {
  // The benchmark sweep's sanity run (dfc-corpus unseen2/21, library file 59218690720: yolov8n-seg on hailo8), without its own
  // verdict and HEF lines: the partition search is all it shows. A results list's `name — PASS` (`\`pytest -q\` — PASS`, library
  // file id 251830364; `### Correctness — PASS`, library file id 71653689599) after it says the case passed.
  const sweep = corpus('unseen2', '21-').filter((l) => !/^PASS|^HEF compiled/.test(l));
  assert.equal(read(sweep).outcome, 'incomplete');
  for (const verdict of ['`yolov8n-seg.pt` — PASS', '### yolov8n-seg hailo8 — PASS', 'yolov8n-seg.pt: PASSED', 'yolov8n-seg.pt ... PASS']) {
    const r = read([...sweep, '', verdict]);
    assert.equal(r.outcome, 'success', verdict);
    assert.deepEqual(errors(r), [], verdict);
  }
  // Words of a sentence, and a verdict that is not last, are none.
  for (const line of ['The same case should PASS on hailo8 too', 'yolov8n-seg — PASS rate 3 of 5', 'yolov8n-seg — PASS?'])
    assert.equal(read([...sweep, '', line]).outcome, 'incomplete', line);
});

test("the compiler's single-context attempt failing, told in words, is the step it recovers from — not the run's failure", () => {
  // The same port's notes in another version (library file id 70898832909): the no-RoPE attention's HEF and the single-context
  // attempt that failed before its 9-context partition; and the second compile that `failed single context again` before its
  // 17 contexts were accepted.
  const attempts = [
    'Single context failed in 6m 32s on `conv4` and two feature splitters. Context 7 uses 62.5% control. Context 8 uses 72.5% memory.',
    '',
    'A second compile from the quantized HAR failed single context again in 28m 33s, then accepted 17 contexts in 33m 56s.',
  ];
  for (const line of attempts.filter(Boolean)) {
    const r = read([line]);
    assert.equal(r.outcome, 'incomplete', line);
    assert.deepEqual(errors(r), [], line);
  }
  // A hard wrap between the subject and the words (a release note's bullet: `(single-context` / `presolve failed …`).
  const wrapped = ['- Final partition: 4 contexts, multi-context flow (single-context', '  presolve failed `lcus=(150/80)`, expected here)'];
  assert.deepEqual(errors(read(wrapped)), []);
  // The multi-context flow's failure in the same words is the run's: it is no recovered step.
  const multi = read(['Single-context and multi-context placement both failed in 0s on `feature_splitter1`.']);
  assert.equal(multi.outcome, 'failed');
  const placement = read(['The multi-context placement failed in 30m 2s because `conv1` had no successful assignment. No HEF.']);
  assert.equal(placement.outcome, 'failed');
});

test('a class an author quotes as what a run crashed with is its failure, across a hard wrap; the algorithm named before it places it', () => {
  // The form of a project's notes (library file id 71438732554: `The opportunities runtime suite crashed with a \`TypeError\` on an
  // empty database.`; 67237895884: `… crashed with a \`KeyError\``), said of DFC runs: the class in a code span after `crashed with a`
  // / `died with an` / `raised a`, once wrapped after its verb; its stage from the optimizer's algorithm or the step named before it.
  const cases: [string[], string][] = [
    [['The `bias_correction` run crashed with a `FileNotFoundError` on a cached calibration file.'], 'optimize'],
    [
      [
        'Our run with `bias_correction` and `adaround` enabled died with an',
        '`IndexError` on `calib_cache_12.npz` at block 12 of 24, the same block',
        'every time we ran it.',
      ],
      'optimize',
    ],
    [['The first translation of the graph raised a `KeyError` on the Shape node.'], 'parse'],
    [['The opportunities runtime suite crashed with a `TypeError` on an empty database.'], 'unknown'],
  ];
  for (const [lines, stage] of cases) {
    const r = read(lines);
    assert.equal(r.outcome, 'failed', lines.join(' / '));
    assert.equal(r.failedStage, stage, lines.join(' / '));
    assert.ok(
      errors(r).some((d) => /FileNotFoundError|IndexError|KeyError|TypeError/.test(d.message)),
      JSON.stringify(r.diagnostics),
    );
  }
  // A class named as what an action would raise — a gerund's aside that begins on the line before (dfc-corpus unseen21/01's form),
  // a modal — is no failure of the run.
  for (const lines of [
    ['The layer list is required: all three return values, omitting', 'the auto-generated concat layer throws `AllocatorScriptParserException`.'],
    ['Without the fix the run would crash with a `FileNotFoundError`.'],
  ])
    assert.deepEqual(errors(read(lines)), [], lines.join(' / '));
});

test("the DFC tool an author makes the subject of `couldn't` is the failed stage, and their next lines are said with it", () => {
  // The bullet's form (an IMU port's notes, library file id 59956797563 — the batch's unseen24/38 is another version of that file),
  // said of each DFC tool as the sentence's subject, the author's fix on the next line.
  const cases: [string[], string, string][] = [
    [
      [
        '- Dynamic reshape in the FC head traced to a',
        "  Gather chain that Hailo's parser couldn't handle.",
        '  Replaced with `torch.flatten(x, 1)`, which exports as a plain ONNX `Flatten` op.',
      ],
      'parse',
      'torch.flatten',
    ],
    [['- The 16-bit head that the optimizer could not quantize', '  on 8 images. Raised the calibration set to 1024.'], 'optimize', '1024'],
    [['- A 4096-wide matmul the allocator could not place in one cluster', '  anywhere. Split it with `defuse`.'], 'compile', 'defuse'],
  ];
  for (const [lines, stage, fix] of cases) {
    const r = read(lines);
    assert.equal(r.outcome, 'failed', lines.join(' / '));
    assert.equal(r.failedStage, stage, lines.join(' / '));
    assert.ok(
      errors(r).some((d) => d.message.includes(fix)),
      JSON.stringify(r.diagnostics.map((d) => d.message)),
    );
  }
  // The activity is anyone's word: a C build's `missing during compilation (cannot find -lgsthailometa …)` (dfc-corpus unseen10/07)
  // names no DFC stage.
  const build = read(corpus('unseen10', '07-'));
  assert.equal(build.outcome, 'failed');
  assert.equal(build.failedStage, 'unknown');
});

test('a failure told as a noun with the step it came in (`errors during allocation`) is the run’s, in that step; a possibility is not', () => {
  // An issue's title in the same grammar (library file id 29388568688: `#608: Unclosed quotation causes hard crash during
  // compilation`), and the DFC's own steps in it (the allocator's, the optimizer's calibration).
  const cases: [string[], string][] = [
    [['#608: Unclosed quotation causes hard crash during compilation'], 'compile'],
    [['- Decoded end nodes instead of raw per-scale ones:', '  placement errors during allocation (`Agent infeasible`).'], 'compile'],
    [['- An internal crash during calibration of the 16-bit outputs.'], 'optimize'],
  ];
  for (const [lines, stage] of cases) {
    const r = read(lines);
    assert.equal(r.outcome, 'failed', lines.join(' / '));
    assert.equal(r.failedStage, stage, lines.join(' / '));
  }
  // A possibility or a cure (library file ids 9104672032, 55836098422, 671848568), and a count of none, are no failure.
  for (const line of [
    'If you do this with a virtual machine, it will most likely crash during compilation.',
    'that passing a cpu_qcomp by-value to a function inside an OpenMP parallel region can cause MSVC to crash during compilation',
    'To fix the crash during compilation, you have to disable precompiled headers',
    'No errors during allocation: 3 contexts.',
  ])
    assert.deepEqual(errors(read([line])), [], line);
});
