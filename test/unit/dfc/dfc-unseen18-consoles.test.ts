// Half of the classes the nineteenth batch of users' logs (dfc-corpus unseen18/) showed the reader missing, each tested on
// lines from another real source than that batch's log: Keras's wrapper around an exception raised in a layer's call names
// that layer (the innermost of nested calls); the parser's recommended end nodes are said by name in each refusal it made;
// a command whose answer is its version (`hailortcli --version`) or an argparse program's help is complete once printed;
// the DFC's first-run system check whose table comes with no `[Error]` row before it passed, and the DFC went on.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog } from '../../../server/src/core/dfc';
import { repoRoot } from '../../helpers/shared';

const DFC_FIXTURES = join(repoRoot, 'test', 'fixtures', 'dfc');

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });

test("Keras's wrapper names the layer an unrecognised error came out of: the innermost of nested calls", () => {
  // A public notebook's tf.keras 2.13+ training error (the tool library's file id 53312223297): a temporal fusion
  // transformer whose LSTM got bfloat16 inputs — Keras wraps the LSTM's error inside the model's, names in single quotes.
  const nested = read([
    'Traceback (most recent call last):',
    '  File "/content/train.py", line 12, in <module>',
    '    model.fit(ds, epochs=1)',
    '  File "/usr/local/lib/python3.10/dist-packages/keras/utils/traceback_utils.py", line 70, in error_handler',
    '    raise e.with_traceback(filtered_tb) from None',
    "TypeError: Exception encountered when calling layer 'temporal_fusion_transformer' (type TemporalFusionTransformer).",
    '',
    'in user code:',
    '',
    '    File "/usr/local/lib/python3.10/dist-packages/keras/utils/traceback_utils.py", line 70, in error_handler',
    '        raise e.with_traceback(filtered_tb) from None',
    '',
    "    TypeError: Exception encountered when calling layer 'historical_features_lstm' (type LSTM).",
    '    ',
    "    Value passed to parameter 'input' has DataType bfloat16 not in list of allowed values: float16, float32, float64",
    '    ',
    "    Call arguments received by layer 'historical_features_lstm' (type LSTM):",
    '      • inputs=tf.Tensor(shape=(64, 168, 160), dtype=bfloat16)',
    '      • mask=None',
    '',
    '',
    "Call arguments received by layer 'temporal_fusion_transformer' (type TemporalFusionTransformer):",
    "  • kwargs={'training': 'True'}",
  ]);
  assert.equal(nested.outcome, 'failed');
  const e = nested.diagnostics.find((d) => d.severity === 'error');
  assert.equal(e?.node, 'historical_features_lstm', JSON.stringify(nested.diagnostics));
  // A public notebook's tf.keras 2.13+ error out of one layer (file id 71186913958): Dropout given rate=1.
  const one = read([
    'Traceback (most recent call last):',
    '  File "/kaggle/working/model.py", line 40, in <module>',
    '    model.fit(x, y)',
    "ValueError: Exception encountered when calling layer 'dropout' (type Dropout).",
    '',
    '`rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=1',
    '',
    "Call arguments received by layer 'dropout' (type Dropout):",
    '  • inputs=tf.Tensor(shape=(None, 32), dtype=float32)',
    '  • training=True',
  ]);
  assert.equal(one.diagnostics.find((d) => d.severity === 'error')?.node, 'dropout', JSON.stringify(one.diagnostics));
  // Without Keras's wrapper the same error names no layer.
  const bare = read([
    'Traceback (most recent call last):',
    '  File "/kaggle/working/model.py", line 40, in <module>',
    '    model.fit(x, y)',
    'ValueError: `rate` must be a scalar tensor or a float in the range [0, 1). Received: rate=1',
  ]);
  assert.equal(bare.diagnostics.find((d) => d.severity === 'error')?.node, undefined);
});

test('each refusal of a parse says the end nodes the parser recommends, by name (not a count)', () => {
  // Fixture parse-unsupported-ops: a YOLO26 parse refused, with two recommended end nodes (SOURCES.md, form G).
  const r = readDfcLog(readFileSync(join(DFC_FIXTURES, 'parse-unsupported-ops', 'run.log'), 'utf8'), { logPath: 'run.log' });
  const refusals = r.diagnostics.filter((d) => d.code.startsWith('dfc/unsupported'));
  assert.ok(refusals.length >= 2, JSON.stringify(r.diagnostics.map((d) => d.code)));
  for (const d of refusals) {
    assert.match(d.message, /\/model\.23\/one2one_cv2\.0\/one2one_cv2\.0\.2\/Conv/, d.message);
    assert.match(d.message, /\/model\.23\/one2one_cv3\.0\/one2one_cv3\.0\.2\/Conv/, d.message);
  }
  // The `hailo parser` CLI's form of the advice, a list after `Parsing failed with recommendations for end node names:`
  // (fixture parse-unsupported-shuffle, from ankandrew/fast-plate-ocr#44): its first node is said in every refusal.
  const cli = readDfcLog(readFileSync(join(DFC_FIXTURES, 'parse-unsupported-shuffle', 'run.log'), 'utf8'), { logPath: 'run.log' });
  const shuffles = cli.diagnostics.filter((d) => d.code === 'dfc/unsupported-shuffle');
  assert.ok(shuffles.length >= 1, JSON.stringify(cli.diagnostics.map((d) => d.code)));
  for (const d of shuffles) assert.ok(d.message.includes('CCT_OCR_nchw_1/CCT_OCR_1/transformer_block_1_1/multi_head_attention_1/key_1/BiasAdd'), d.message);
});

test("a command's version line or an argparse program's help is its complete answer; a help cut before its options is not", () => {
  // `hailortcli --version` as dfc-corpus unseen5/20 shows it (HailoRT 4.18).
  assert.equal(read(['> hailortcli --version', 'HailoRT-CLI version 4.18.0']).outcome, 'success');
  assert.equal(read(['> hailortcli --version']).outcome, 'incomplete');
  // argparse's help (https://docs.python.org/3/library/argparse.html: `usage: PROG [-h] …`, then `options:` with its own
  // `-h, --help  show this help message and exit`), here `hailomz -h`.
  const help = [
    '$ hailomz -h',
    'usage: hailomz [-h] {parse,optimize,compile,profile,eval,info} ...',
    '',
    'positional arguments:',
    '  {parse,optimize,compile,profile,eval,info}',
    '',
  ];
  assert.equal(read([...help, 'options:', '  -h, --help            show this help message and exit']).outcome, 'success');
  assert.equal(read(help).outcome, 'incomplete');
  // argparse's refusal after its usage line still fails the run (fixture usage-error's form).
  const refused = read([
    ...help,
    'options:',
    '  -h, --help            show this help message and exit',
    "hailomz: error: argument command: invalid choice: 'compille'",
  ]);
  assert.equal(refused.outcome, 'failed');
});

test("the DFC's first-run check passed when its table comes with no [Error] row before it; an [Error] row or no table decides nothing", () => {
  // The DFC 3.29 check of dfc-corpus unseen18/17 (a different log from unseen18/36), up to its table — without the help after it.
  const check = [
    '[info] First time Hailo Dataflow Compiler is being used. Checking system requirements... (this might take a few seconds)',
    '[Warning] It is recommended to have 32 GB of RAM, while this system has only 19 GB.',
    '[Warning] CUDNN version should be 8.9 or higher, found ..',
  ];
  const table = [
    'Component                                Requirement                    Found                               ',
    '==========  ==========       ==========  ==========                                                         ',
    'OS                                       Ubuntu               Ubuntu                                        Required',
    'RAM(GB)     16                           19                                          Required               ',
    'RAM(GB)     32                           19                                          Recommended            ',
  ];
  const passed = read([...check, ...table]);
  assert.equal(passed.outcome, 'success');
  assert.ok(!passed.diagnostics.some((d) => d.severity === 'error'));
  // Cut before its table: the rows not yet reported may be required ones.
  assert.equal(read(check).outcome, 'incomplete');
  // A Required row unmet is reported as `[Error]` before the table (dfc-corpus tune2/25, DFC 3.31): no verdict of a pass.
  assert.equal(read([check[0], '[Error] The SDK requires 16 GB of RAM (32 GB recommended), while this system has only 9 GB.', ...table]).outcome, 'incomplete');
  // A command that runs a stage is not answered by the check before it.
  assert.equal(read(['[info] Running `hailo optimize model.har --hw-arch hailo8`', ...check, ...table]).outcome, 'incomplete');
});

test("a marker in the source IPython quotes around a frame (a format string's `{field}` still in it) says nothing of the run", () => {
  // IPython's verbose traceback (Jupyter's default) quotes each frame's code with its line numbers and `---->` at the call;
  // an f-string's replacement field (https://docs.python.org/3/library/string.html#format-string-syntax) stands unformatted
  // only in source. The lines are written for this test in those formats, the exception line as dfc-corpus unseen8/21's.
  const lines = [
    '---------------------------------------------------------------------------',
    'BackendAllocatorException                 Traceback (most recent call last)',
    'Cell In[7], line 1',
    '----> 1 hef = runner.compile()',
    '',
    'File /venv/lib/python3.10/site-packages/hailo_sdk_client/runner/client_runner.py:910, in ClientRunner.compile(self)',
    '--> 908 hef = self._compile()',
    '    909 elapsed = self._format_time_milestone(start)',
    '    910 self._logger.info(f"Successful Compilation (compilation time: {elapsed})")',
    '',
    'BackendAllocatorException: Compilation failed: No successful assignments: concat22 errors: Agent infeasible',
  ];
  const r = read(lines);
  assert.equal(r.outcome, 'failed');
  assert.equal(r.stages.find((s) => s.name === 'compile')?.status, 'failed');
  assert.ok(
    r.diagnostics.some((d) => d.severity === 'error' && d.code === 'dfc/allocation-failed'),
    JSON.stringify(r.diagnostics.map((d) => [d.code, d.severity])),
  );
  // The same words as the DFC prints them, formatted, do end the compile.
  assert.equal(read(['[info] Successful Compilation (compilation time: 12s)']).stages.find((s) => s.name === 'compile')?.status, 'ok');
});
