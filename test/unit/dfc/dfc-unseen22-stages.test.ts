// The stage clues the twenty-third batch of users' logs (dfc-corpus unseen22/) showed the weighing (stageEvidence.ts)
// not taking, each a class: the author's line introducing a fenced quote names the step (`a second failure in
// \`translate\`:` then ```` ``` ````, unseen22/04); a frame an author names in prose by its file and function
// (`fuser.py _handle_neg_feature_shuffle`, unseen22/34) is the DFC module that ran; a DFC message an author quotes by
// its fixed words without the values after them (`fails every tried split with \`Automri finished with too many
// resources\``, unseen22/35) is that message, of its stage; and the configuration class a validation error is for
// (pydantic's `validation errors for ModelOptimizationConfig`, unseen22/37) is its stage's.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });

test("the author's line introducing a fenced quote names the step that failed (the parser's `translate`, the optimizer's words)", () => {
  // unseen22/04's shape (a team's Journey.md): the DFC's translate step, the tool's line in a fence after it.
  const fenced = (intro: string, fence: string) => read([intro, '', fence, 'Reshape: input shape {1,512,20,20} cannot be reshaped to {1,4,128,256}', '```']);
  for (const fence of ['```', '```text', '~~~'])
    assert.equal(fenced('exporting with `opset=12` caused a second failure in `translate`:', fence).failedStage, 'parse', fence);
  // The same line introduced by the optimizer's words is the optimize stage's; with no step named it stays unknown.
  assert.equal(fenced('The quantization step then stops on:', '```').failedStage, 'optimize');
  assert.equal(fenced('After the export we got this:', '```').failedStage, 'unknown');
});

test('a frame named in prose by its file and function is the DFC module that ran (the parser)', () => {
  // Frames of the parser's onnx_graph.py from real tracebacks (dfc-corpus: `get_concat_info`, `_convert_axes_to_nhwc`),
  // said in prose as unseen22/34 says its own (`onnx_graph.py _is_spatial…`, `fuser.py _handle_neg_feature_shuffle`).
  for (const lines of [
    ['- Concat head: failed in `onnx_graph.py get_concat_info`, then:', '- `IndexError: list index out of range`.'],
    ['The translation dies in onnx_graph.py, in _convert_axes_to_nhwc.', 'IndexError: list index out of range'],
    ['- RoPE block: crashed in the fuser, `fuser.py _handle_neg_feature_shuffle`.', '- Two stacked blocks: failed, `IndexError: list index out of range`.'],
  ])
    assert.equal(read(lines).failedStage, 'parse', lines[0]);
  // A file alone, or a file no DFC module has, names no frame of it.
  assert.equal(read(['The script onnx_graph.py is ours.', 'IndexError: list index out of range']).failedStage, 'unknown');
  assert.equal(read(['It failed in `utils.py load_images`.', 'IndexError: list index out of range']).failedStage, 'unknown');
});

test("a DFC message quoted by its fixed words, without the values after them, is that message's stage's", () => {
  // unseen22/35's own line (the allocator's multi-context search), and another catalogue message quoted the same way.
  const automri = read([
    'Multi-context search then fails every tried split with `Automri finished with too many resources` on contexts 0 through 5 (hundreds of iterations, no success yet).',
  ]);
  assert.equal(automri.failedStage, 'compile', JSON.stringify(automri.diagnostics));
  assert.ok(automri.diagnostics.some((d) => d.severity === 'error' && d.message.includes('Automri finished with too many resources')));
  assert.equal(read(['The optimizer fails on the last conv with `Quantization failed in layer`, every time.']).failedStage, 'optimize');
  // The quote-forms rule stands for any other quote: `fails … with \`X\`` introduces a line, no failure of the run.
  const other = read(['It fails every time with `some words of no tool here`.']);
  assert.equal(other.outcome, 'incomplete');
});

test("the configuration class a validation error is for is its stage: the optimizer's ModelOptimizationConfig", () => {
  // unseen22/37's quote (a UI around the DFC, an empty calibration folder), and pydantic's singular form of the same header.
  const quoted = (head: string) =>
    read([
      '```',
      `pydantic.v1.error_wrappers.ValidationError: ${head}`,
      'calibration -> calibset_size',
      '  ensure this value is greater than 0 (type=value_error.number.not_gt; limit_value=0)',
      '```',
    ]);
  for (const head of ['2 validation errors for ModelOptimizationConfig', '1 validation error for ModelOptimizationConfig'])
    assert.equal(quoted(head).failedStage, 'optimize', head);
  // Another program's settings validated by pydantic are no DFC stage's.
  assert.equal(quoted('1 validation error for AppSettings').failedStage, 'unknown');
});
