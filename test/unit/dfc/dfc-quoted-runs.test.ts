// The classes the fifth batch of users' logs (dfc-corpus unseen4/) showed the reader missing, each
// as a general mechanism (docs/dfc-log.md): an exception behind any punctuation (a script's comment
// after a list item), a message quoted in a Markdown code span that the author's prose wrapped over
// lines, several runs in one log — a retry at the shell prompt decides the outcome — and the shell or
// apt refusing before any tool ran. The messages
// are the DFC's and the model zoo's own words (test/fixtures/dfc-corpus/unseen4/04, 20, 21, 27).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (text: string) => readDfcLog(text, { logPath: 'run.log' });

test('an exception after a comment mark in a source line is the error it says', () => {
  const r = read('    "mobilenetv2_selu", #UnsupportedOperationError: Selu operation is unsupported\n');
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'parse');
  assert.deepEqual([...new Set(r.diagnostics.map((d) => d.code))], ['dfc/unsupported-operation']);
});

test('a code span the prose wrapped over lines is read as one message', () => {
  const r = read(
    [
      'On a larger model, HAR→HEF compilation hit `Memory units',
      'capacity exceeded (available: 128, required: 138)` on a single node,',
      'identically across every compiler parameter tried.',
    ].join('\n'),
  );
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'compile');
  assert.ok(r.diagnostics.some((d) => d.code === 'dfc/allocation-failed'));
  const a = read(
    [
      'a hard crash: `AccelerasInitializationError: Activation fitting was enabled',
      'but there is no histogram on ActivationType.INV_POS in',
      '.../reduce_sum1/act_op` — activation fitting failed outright.',
    ].join('\n'),
  );
  assert.equal(a.outcome, 'failed');
  assert.equal(a.failedStage, 'optimize');
  assert.ok(a.diagnostics.some((d) => d.message.includes('reduce_sum1')));
});

test("a span nobody closes leaves its lines as they were (the compiler's own `Assertion `x' failed`)", () => {
  const r = read("[error] Assertion `x' failed\n[info] Model Optimization is done\n");
  assert.ok(r.diagnostics.length > 0);
});

test('several runs in one log: the retry at the prompt decides, the earlier failure stays as a warning', () => {
  const lines = [
    '> hailomz eval yolox_tiny --date-count 100',
    'usage: hailomz [-h] {parse,optimize,compile,profile,eval,info} ...',
    'hailomz: error: unrecognized arguments: --date-count 100',
    '(hailo_virtualenv) hailo@box:/local/workspace$ hailomz eval yolox_tiny --data-count 100',
    '<Hailo Model Zoo INFO> Start run for network yolox_tiny ...',
    '[info] Translation completed on ONNX model yolox_tiny',
  ];
  const r = read(`${lines.join('\n')}\n`);
  assert.notEqual(r.outcome, 'failed');
  const usage = r.diagnostics.find((d) => d.code === 'dfc/usage');
  assert.equal(usage?.severity, 'warning');
  assert.match(usage!.message, /earlier run/);
  // Another program at the prompt only inspects: the failure stands.
  const other = read(`${[...lines.slice(0, 3), 'hailo@box:~$ pip list | grep hailo', 'hailo-model-zoo 2.14.0'].join('\n')}\n`);
  assert.equal(other.outcome, 'failed');
});

test("the shell's `command not found`, in its locale's words, and apt's refusals are failures before anything ran", () => {
  for (const line of [
    '/bin/bash: hailortcli: コマンドが見つかりません',
    'bash: hailortcli: command not found',
    'bash: line 1: hailortcli: Befehl nicht gefunden',
    'zsh: command not found: hailortcli',
    'sh: 1: hailortcli: not found',
  ]) {
    const r = read(`${line}\n`);
    assert.equal(r.outcome, 'failed', line);
    const d = r.diagnostics.find((x) => x.code === 'dfc/not-installed');
    assert.match(d?.message ?? '', /hailortcli.*hailo-all/, line);
  }
  assert.match(read('bash: hailo: command not found\n').diagnostics[0].message, /virtualenv/);
  for (const line of [
    'E: Unable to locate package hailo-dkms',
    "Error: Version '4.19.0-3' for 'hailort' was not found",
    "E: Package 'hailort' has no installation candidate",
  ]) {
    const r = read(`${line}\n`);
    assert.equal(r.outcome, 'failed', line);
    assert.match(r.diagnostics.find((x) => x.code === 'dfc/not-installed')?.message ?? '', /apt policy/, line);
  }
  // Prose about a command is no refusal.
  assert.equal(read('If you see command not found, install HailoRT first.\n').outcome, 'incomplete');
});

test("HailoRT's warnings that say their cause carry HailoRT's advice (libhailort v5.2.0 llm.cpp, vdma_stream.cpp)", () => {
  const full = read('[HailoRT] [warning] Conversation context is full. It is adivsable to clear context as cache size was reached\n');
  assert.equal(full.diagnostics[0]?.severity, 'warning');
  assert.match(full.diagnostics[0].message, /clear_context/);
  const unaligned = read(
    '[HailoRT] [warning] read_async() was provided an unaligned buffer (address=0x7f3a1c000010), which causes performance degradation. Use buffers algined to 4096 bytes for optimal performance\n',
  );
  assert.equal(unaligned.diagnostics[0]?.severity, 'warning');
  assert.match(unaligned.diagnostics[0].message, /aligned to the page size/);
});

test("the firmware's full SRAM says to configure network groups once (libhailort v5.2.0 control.cpp)", () => {
  const r = read(
    '[HailoRT] [error] CHECK failed - Configured network groups reached maximum device internal memory (SRAM Full).\n[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_OUT_OF_FW_MEMORY(71)\n',
  );
  assert.equal(r.outcome, 'failed');
  assert.match(r.diagnostics[0]?.message ?? '', /configure\(\) again/);
});

test('a HailoRT check is quoted when pyhailort raises its status after a traceback', () => {
  const r = read(
    [
      '[HailoRT] [error] CHECK failed - Model has more than one output!',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3/dist-packages/hailo_platform/pyhailort/pyhailort.py", line 2941, in output',
      '    return self.InferStream(self._infer_model.output(name))',
      'hailo_platform.pyhailort._pyhailort.HailoRTStatusException: 6',
    ].join('\n'),
  );
  assert.match(r.diagnostics[0]?.message ?? '', /more than one output/);
});

test("an author's condensed call chain gives its names as the traceback's frames", () => {
  const chain = [
    '_create_layer_normalization_layer',
    '  → get_layer_normalization_info',
    '    → _convert_axes_to_nhwc',
    '      → IndexError: list index out of range',
  ];
  const r = read(`${chain.join('\n')}\n`);
  assert.equal(r.failedStage, 'parse');
  assert.deepEqual([...new Set(r.diagnostics.map((d) => d.code))], ['dfc/axes-format']);
  // The same exception without the chain is not the axes conversion's.
  assert.ok(!read('IndexError: list index out of range\n').diagnostics.some((d) => d.code === 'dfc/axes-format'));
});
