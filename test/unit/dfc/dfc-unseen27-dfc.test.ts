// Classes the twenty-eighth batch of users' logs (dfc-corpus unseen27/) showed the reader missing on the DFC side: a coloured
// console whose ESC bytes a web page's copy lost (`[[32minfo[0m] …`, unseen27/01); a DFC function an author names alone, without
// its file (`enters \`_handle_neg_feature_shuffle\` and raises …`, unseen27/04); the DFC emulator's inference bar at its last
// frame, then the program's own output (unseen27/02); a bare word that ends its line's sentence (`READY.`) quoted in an author's
// sentence is the line (unseen27/08 through the wrappers suite's inline sentence); a HEF's path and size told inside an author's
// clause — `(\`x.hef\`, N bytes)`, `The HEF is \`x.hef\` (N bytes)` — is a HEF written (unseen27/05, 07). Each test reads lines of another source
// than the batch's log where one was found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog, stripAnsi } from '../../../server/src/core/dfc';
import { corpusLogLines } from '../../helpers/dfcCorpus';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const errors = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.severity === 'error');

test('colour codes whose ESC bytes were lost are taken off as the escapes they were', () => {
  // The DFC's coloured banner of a Colab run (dfc-corpus unseen18/44, its ESC bytes kept), without the version answer after it,
  // as a copy that lost the ESC bytes shows it: each `[[32minfo[0m]` line is the header's, none a failure in its own words
  // (`HailoRT Version: Not Installed`).
  const banner = corpusLogLines('unseen18', '44-')
    .filter((l) => l.startsWith('[\x1b[32minfo'))
    .map((l) => l.replace(/\x1b/g, ''));
  assert.equal(banner.length, 8);
  const r = read(banner);
  assert.deepEqual(errors(r), []);
  assert.equal(r.dfcVersion, '3.29.0');
  assert.equal(r.hailortVersion, null);
  // The DFC colours a warning's level `ESC[33;1m` (docs/research/dfc-flow.md §7.3): a real warning line (dfc-corpus tune/01) so
  // coloured, ESC lost, is the warning the catalogue knows.
  const warning = corpusLogLines('tune', '01-').find((l) => l.startsWith('[warning] Reducing optimization level to 0'))!;
  const w = read([warning.replace('[warning]', '[[33;1mwarning[0m]')]);
  assert.ok(
    w.diagnostics.some((d) => d.code === 'dfc/optimization-level-0' && d.severity === 'warning'),
    JSON.stringify(w.diagnostics),
  );
  // A Python logger's coloured level (library file id 62168001476: `[[32mINFO[0m]` in a bot's archived log), libcamera's
  // coloured fields (dfc-corpus unseen27/03) and the compile stage's bare reset `[m` (dfc-flow.md §7.3).
  assert.equal(stripAnsi('[[32mINFO[0m] msg'), '[INFO] msg');
  assert.equal(
    stripAnsi('[1:30:25.480652426] [128869][1;32m INFO[1;37mCamera[1;34mcamera_manager.cpp:325[0mlibcamera v0.3.2+27-7330f29b'),
    '[1:30:25.480652426] [128869] INFOCameracamera_manager.cpp:325libcamera v0.3.2+27-7330f29b',
  );
  assert.equal(stripAnsi('[[33;1mwarning[m] Reducing optimization level'), '[warning] Reducing optimization level');
});

test('brackets that only look like a lost colour code stay', () => {
  // HailoRT's source file in brackets (`[multi_io_elements.cpp:135]`, dfc-corpus unseen10/11) beside a colour pair keeps its `[m`;
  // a set with no reset after it, or a reset alone, is no colour a copy lost.
  const hailort = '[2026-03-19 11:24:56.110] [3626] [HailoRT] [info] [multi_io_elements.cpp:135] [create] Created';
  assert.equal(stripAnsi(hailort), hailort);
  assert.equal(stripAnsi(`[[32minfo[0m] ${hailort}`), `[info] ${hailort}`);
  for (const s of ['timeout [5m] reached', 'retry in [10m', 'waited [0m] then', 'x [1;2m]']) assert.equal(stripAnsi(s), s);
  // A code whose ESC is written as an escape is no lost one: a notebook's JSON string (nbformat, `\u001b[32m`, which forms.ts
  // decodes), a shell's `\033[0m` or `\e[0m` (what an author's script prints), Python's `\x1b[0m`.
  for (const s of [
    '      "\\u001b[32m[info]\\u001b[0m HailoRT Version: Not Installed\\n",',
    'echo -e "\\033[1;32mOK\\033[0m"',
    'printf "\\e[31mFAIL\\e[0m"',
    "print('\\x1b[33mwarn\\x1b[0m')",
  ])
    assert.equal(stripAnsi(s), s);
});

test("a DFC function named alone, without its file, places the failure in that function's stage", () => {
  // The same project's model code (library file id 71105036346), a docstring: the fuser's function named alone beside the error.
  const doc = [
    '    Hailo DFC 5.4.0 parses this graph. The unmodified block, whose RoPE uses',
    '    ``rotate_half`` (negate one half, then concatenate), dies in the fuser at',
    '    ``_handle_neg_feature_shuffle`` with ``IndexError: list assignment index out of range``.',
  ];
  const r = read(doc);
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'parse');
  // The ONNX translator's function a traceback shows under model_translator/ (test/fixtures/dfc/parse-unsupported-shuffle), named
  // alone beside an error no entry knows.
  const t = read(['The export then stops in `update_reshape_output_format` with `ValueError: cannot reshape array of size 0`.']);
  assert.equal(t.outcome, 'failed');
  assert.equal(t.failedStage, 'parse');
  // Names anyone's code uses, or no DFC function, say no stage.
  for (const fn of ['convert_model', '_create_layers', '_handle_neg_feature_shuffle_v2', 'my._handle_neg_feature_shuffle'])
    assert.equal(read([`The export then stops in \`${fn}\` with \`ValueError: cannot reshape array of size 0\`.`]).failedStage, 'unknown', fn);
});

test("the DFC emulator's inference bar at its last frame, then the program's own output: infer returned", () => {
  // No other public copy of the emulator's bar was found: its line is unseen27/02's; the cell around it is varied. The bar with
  // a total is tqdm's other form, in the DFC's unit (its `Calibration: 100%|██████████| 11/11 [00:25<00:00,  2.30s/entries]`, tune/).
  const bar = corpusLogLines('unseen27', '02-').find((l) => l.startsWith('Inference: 8entries'))!;
  const sized = 'Inference: 100%|██████████| 11/11 [00:25<00:00,  2.30s/entries]';
  for (const b of [bar, sized]) {
    const ok = read(['```text', b, '', '(1, 1, 24, 3024)', '```']);
    assert.equal(ok.outcome, 'success', b);
    assert.deepEqual(errors(ok), [], b);
    // Nothing after the bar but the block's end, or the bar at the log's end: the loop may have died there.
    assert.equal(read(['```text', b, '', '```']).outcome, 'incomplete', b);
    assert.equal(read([b]).outcome, 'incomplete', b);
    // A traceback after it: the program failed after (or in) the inference, as a kill ends it.
    const tb = [
      'Traceback (most recent call last):',
      '  File "/tmp/ipykernel_4242/1.py", line 8, in <module>',
      'ValueError: cannot reshape array of size 72576 into shape (1,3024,24)',
    ];
    assert.equal(read([b, ...tb]).outcome, 'failed', b);
    assert.equal(read([b, 'Killed']).outcome, 'killed', b);
  }
  // A bar that counted nothing, a bar still running (tqdm's `<` before the time left), another unit or label: no end of infer.
  for (const b of [
    'Inference: 0entries [00:00, ?entries/s]',
    'Inference:  50%|█████     | 4/8 [00:15<00:15,  3.97s/entries]',
    'Inference: 8it [00:31,  3.97s/it]',
    'Evaluation: 8entries [00:31,  3.97s/entries]',
  ])
    assert.equal(read([b, '(1, 1, 24, 3024)']).outcome, 'incomplete', b);
});

test("a bare word line with its sentence's end, quoted in an author's sentence, is the line", () => {
  // A program's own last words as it prints them (library file id 62511990986: `print("Starting up -- loading models (this happens
  // once)...")`, then `print("Ready.")`), as printed and each quoted in a sentence (the wrappers suite's inline-sentence form).
  const printed = ['Starting up -- loading models (this happens once)...', 'Ready.'];
  const inline = (ls: string[]) => ls.map((l) => `We got \`${l}\` when running it`);
  assert.equal(read(printed).outcome, 'success');
  assert.equal(read(inline(printed)).outcome, 'success');
  for (const word of ['READY.', 'Ready!', 'Done!!!']) assert.equal(read(inline([word])).outcome, read([word]).outcome, word);
});

test("a HEF's path and its size inside an author's clause: the compile wrote it", () => {
  const saved = (r: ReturnType<typeof read>) => r.saved.map((f) => f.path);
  // The same project's notes on another graph (library file id 71022744079, the scan step): the noun, the path, its size.
  const scan = read([
    'Hailo parses it as `resize`, `ew_mult`, `reduce_sum`, `ew_sub`, and `ew_add`. Both reductions are `reduce_sum` with keepdims. The HEF is `hailo_port/generated/clef_experimental_scan_step.hef` (192,512 bytes, 59s). Totals: control 52.5%, compute 22.1%, memory 35.3%.',
  ]);
  assert.equal(scan.outcome, 'success');
  assert.deepEqual(saved(scan), ['hailo_port/generated/clef_experimental_scan_step.hef']);
  // dfc-corpus unseen21/08's closing paragraph (the attention core): its compile's end.
  const core = corpusLogLines('unseen21', '08-').find((l) => l.includes('The HEF is'))!;
  const c = read([core]);
  assert.equal(c.outcome, 'success');
  assert.equal(c.stages.find((x) => x.name === 'compile')!.status, 'ok');
  // The record in a parenthesis after what compiled (the k/v projections, also library file id 70900131931).
  const kv = read([
    'Both compiled in a single context: K in 1m 17s (`hailo_port/generated/clef_experimental_k_proj.hef`, 3,067,904 bytes) and V in 1m 19s (`hailo_port/generated/clef_experimental_v_proj.hef`, 3,211,264 bytes).',
  ]);
  assert.equal(kv.outcome, 'success');
  assert.deepEqual(errors(kv), []);
  // A failed attempt told before the HEF on the same line (unseen27/05's): the compile got past it (dfc-unseen26-dfc.test.ts's rule).
  const past = read([
    'Single context fails in 6m 31s because `conv_feature_splitter1_1` has no assignment. Ten contexts are accepted after 926 iterations. The HEF is `hailo_port/generated/clef_experimental_attention_masked_rope.hef` (39,940,096 bytes, total 53m 56s).',
  ]);
  assert.equal(past.outcome, 'success');
  // No file written: a graph's account in the present (unseen21/09), a condition without a size (library file id 56358234349),
  // a file to come, a limit.
  for (const line of [
    'The slices compile to `hailo_port/generated/clef_experimental_qkv_slice.hef` (36,864 bytes).',
    "For example, if the HEF is `yolov6n.hef` at `320x320`, keep Frigate's model width and height at `320`.",
    'The HEF would be `out/yolov8n.hef` (about 9 MB).',
    'The HEF is expected at `out/yolov8n.hef` (9 MB).',
    'Compile it in one context (`out/yolov8n.hef`, 9 MB max).',
    'It will fit one context (`out/yolov8n.hef`, 9 MB).',
    'The slices compile to a HEF (`hailo_port/generated/clef_experimental_qkv_slice.hef`, 36,864 bytes).',
  ]) {
    const r = read([line]);
    assert.notEqual(r.outcome, 'success', line);
    assert.deepEqual(saved(r), [], line);
  }
});
