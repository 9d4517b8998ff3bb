// The classes the third batch of users' logs (dfc-corpus unseen2/) showed the reader missing, each
// tested on forms that batch does not contain (issue 30): a run ending without a Python traceback
// (an argument parser's refusal, a native program's death), a Rich console's traceback, an excerpt
// elided down to a wrapper's word that the HEF exists, and HailoRT statuses whose own cause says more
// than their family's advice. The forms are each tool's own (sources beside each case).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

function read(lines: string[]) {
  return readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
}

test('run ends: an argument parser refusing the command line is a failure where nothing ran (argparse, click)', () => {
  // argparse prints `usage: …` then `%(prog)s: error: %(message)s` and exits 2 (Lib/argparse.py, ArgumentParser.error).
  for (const [log, says] of [
    [
      [
        '$ hailo parser onnx model.onnx --hw-arch hailo9',
        'usage: hailo parser onnx [-h] [--hw-arch {hailo8,hailo8l,hailo8r,hailo10h}] model',
        "hailo parser onnx: error: argument --hw-arch: invalid choice: 'hailo9' (choose from 'hailo8', 'hailo8l', 'hailo8r', 'hailo10h')",
      ],
      '--help',
    ],
    [
      ['usage: hailomz [-h] {parse,optimize,compile,profile,eval} ...', 'hailomz: error: the following arguments are required: model_name'],
      'the following arguments are required',
    ],
    [['usage: detect.py [-h] [--hef HEF]', 'detect.py: error: unrecognized arguments: --input-shape 640'], 'unrecognized arguments'],
    // click: `Usage: …`, `Try '… --help' for help.`, then `Error: No such option: --x` (click/exceptions.py).
    [
      ['Usage: hailo-compile [OPTIONS] MODEL', "Try 'hailo-compile --help' for help.", '', 'Error: No such option: --hw_arch Did you mean --hw-arch?'],
      'No such option',
    ],
  ] as const) {
    const r = read([...log]);
    assert.equal(r.outcome, 'failed', log.join('\n'));
    const d = r.diagnostics.find((x) => x.code === 'dfc/usage');
    assert.ok(d, `${log.join('\n')}: ${r.diagnostics.map((x) => x.code).join(', ')}`);
    assert.ok(d.message.includes(says) && /nothing ran/.test(d.message), d.message);
    assert.equal(d.line, log.length, 'on the error line');
  }
  // Prose that quotes the form is no refusal; a line naming `error:` without argparse's message neither.
  for (const line of ['The script prints "error: something" when it fails.', 'compile: error: 3 layers were skipped']) {
    assert.ok(!read([line]).diagnostics.some((x) => x.code === 'dfc/usage'), line);
  }
});

test('run ends: a native program dies of an uncaught C++ exception or a fatal signal — failed, with what it said', () => {
  // libstdc++'s verbose terminate handler (libstdc++-v3/libsupc++/vterminate.cc): the type, then `  what():  …`; the shell reports SIGABRT.
  let r = read([
    '[HailoRT] [info] Creating VDevice',
    "terminate called after throwing an instance of 'std::runtime_error'",
    '  what():  Failed to open /dev/hailo0',
    'Aborted (core dumped)',
  ]);
  assert.equal(r.outcome, 'failed');
  let d = r.diagnostics.find((x) => x.code === 'dfc/crashed')!;
  assert.ok(d && /std::runtime_error/.test(d.message) && /Failed to open \/dev\/hailo0/.test(d.message) && /aborted/.test(d.message), d?.message);
  assert.equal(d.line, 2);
  assert.equal(d.excerpt?.length, 3);
  // bash's job line for a segfault, after a Python program's own lines.
  r = read(['Loading yolov8s.hef', './run.sh: line 12:  4242 Segmentation fault      (core dumped) python3 detect.py']);
  assert.equal(r.outcome, 'failed');
  d = r.diagnostics.find((x) => x.code === 'dfc/crashed')!;
  assert.ok(d && /Segmentation fault/.test(d.message), JSON.stringify(r.diagnostics));
  // CPython's fatal error handler.
  r = read(['Fatal Python error: Segmentation fault', '', 'Current thread 0x00007f (most recent call first):']);
  assert.equal(r.outcome, 'failed');
  assert.ok(r.diagnostics.some((x) => x.code === 'dfc/crashed'));
  // An instruction the CPU lacks (a DFC on a CPU without AVX) says so.
  r = read(['$ hailo parser onnx model.onnx', 'Illegal instruction (core dumped)']);
  assert.equal(r.outcome, 'failed');
  assert.ok(/AVX/.test(r.diagnostics.find((x) => x.code === 'dfc/crashed')?.message ?? ''), JSON.stringify(r.diagnostics));
  // The words in prose are no death.
  for (const line of ['Segmentation fault happens when the HEF is for another device.', 'Aborted!', 'The run was Aborted by the user'])
    assert.ok(!read([line]).diagnostics.some((x) => x.code === 'dfc/crashed'), line);
});

test('run ends: a Rich console traceback is a traceback — its frames name the functions, the class after the panel is the error', () => {
  // rich/traceback.py: a panel titled `Traceback (most recent call last)`, frames as `path:N in fn`, the frame's
  // code line marked ❱, locals panels, and `ExcType: message` under the panel.
  const r = read([
    '[info] Translation started on ONNX model rfdetr',
    '╭──────────────────── Traceback (most recent call last) ────────────────────╮',
    '│ /usr/lib/python3.10/site-packages/hailo_sdk_client/runner/client_runner.py:1187 in translate_onnx_model │',
    '│                                                                           │',
    '│   1186 │   │   try:                                                       │',
    '│ ❱ 1187 │   │   │   parser.translate(model)                                │',
    '│ /usr/lib/python3.10/site-packages/hailo_sdk_client/model_translator/onnx_translator/onnx_graph.py:2041 in get_concat_info │',
    '│ ╭─────────── locals ───────────╮                                          │',
    '│ │ axis = 3                     │                                          │',
    '│ ╰──────────────────────────────╯                                          │',
    '╰───────────────────────────────────────────────────────────────────────────╯',
    'IndexError: list index out of range',
  ]);
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'parse');
  // IndexError is told by the function that raised it (get_concat_info → the Concat format error).
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['dfc/concat-format'],
  );
});

test('run ends: an elided run whose last word is that the HEF exists succeeded', () => {
  for (const done of [
    'Saved HEF to /work/out/yolov8s.hef',
    'HEF was written successfully',
    'yolov8s.hef written (7.7 MB)',
    'Wrote the compiled HEF',
    'Compiled HEF saved to out/yolov8s.hef',
  ]) {
    const r = read(['[info] Model Optimization is done', '[info] Found valid partition to 3 contexts', '...', done]);
    assert.equal(r.outcome, 'success', done);
  }
  // Neither a future tense nor an error line says it exists.
  for (const not of [
    'Saving HEF to /work/out/yolov8s.hef',
    '[error] HEF written to a full disk was truncated',
    'No HEF written: the compile failed',
    'Final HEF was not saved',
  ]) {
    const r = read(['[info] Model Optimization is done', '[info] Found valid partition to 3 contexts', '...', not]);
    assert.notEqual(r.outcome, 'success', not);
  }
});

test("run ends: HailoRT statuses whose own cause says more than the family's advice", () => {
  // No device the driver detected (hailort 4.20–5.0's scan; 5.0.1 says "no devices have been detected by driver").
  let r = read(['[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_DRIVER_NOT_INSTALLED(64) - Failed listing hailo devices']);
  let d = r.diagnostics.find((x) => x.code === 'hailort/driver')!;
  assert.ok(d && /not be connected/.test(d.message) && /lspci/.test(d.message), d?.message);
  // pyhailort's class for 36: the driver refusing the library's ioctls is a version mismatch.
  r = read(["hailo_platform.pyhailort.pyhailort.HailoRTPCIeDriverException: PCIe driver failure. run 'dmesg | grep hailo' for more information"]);
  d = r.diagnostics.find((x) => x.code === 'hailort/driver')!;
  assert.ok(d && /Invalid general ioctl code/.test(d.message) && /version/.test(d.message), d?.message);
  // A message with advice of its own keeps it (the descriptor page size names the driver's parameter).
  r = read([
    '[HailoRT] [error] CHECK failed - max_desc_page_size given 16384 is bigger than hw max desc page size 4096',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_DRIVER_OPERATION_FAILED(36)',
  ]);
  d = r.diagnostics.find((x) => x.code === 'hailort/driver')!;
  assert.ok(d && /force_desc_page_size=4096/.test(d.message) && !/Invalid general ioctl/.test(d.message), d?.message);
  // The kernel's errno still says more than the status (ENOMEM under 36 is the host's memory).
  r = read([
    '[HailoRT] [error] Failed to allocate buffer with errno: 12',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_DRIVER_OPERATION_FAILED(36)',
  ]);
  d = r.diagnostics.find((x) => x.code === 'hailort/driver')!;
  assert.ok(d && !/Invalid general ioctl/.test(d.message), d?.message);
});

test('run ends: journald short-iso and kubectl forms around one DFC error read as the error itself', () => {
  for (const line of [
    '2024-08-24T21:51:44+0200 gpu-box hailo-compile[4821]: [error] Mapping Failed',
    '[pod/dfc-7x2kq/dfc] 2024-08-24T21:51:44.123456789Z [error] Mapping Failed',
    'dfc-1  | [error] Mapping Failed',
    'Aug 24 21:51:44 gpu-box python3[4821]: [error] Mapping Failed',
  ]) {
    const r = read([line]);
    assert.deepEqual(
      r.diagnostics.map((d) => [d.code, d.line]),
      [['dfc/allocation-failed', 1]],
      line,
    );
    assert.ok(r.diagnostics[0].excerpt?.every((x) => !x.includes('gpu-box') && !x.includes('pod/') && !x.includes('dfc-1')) ?? true, line);
  }
});

test('run ends: the shell and the programs around a run say how it ended — killed, crashed, or its exit status', () => {
  const opt = ['[info] Starting Model Optimization', '[info] Starting Statistics Collector'];
  // SIGKILL (the memory killer) as bash's job line and as zsh reports it: killed, in the stage it stopped in.
  for (const k of [
    './compile.sh: line 7: 81234 Killed                  hailo optimize model.har',
    'zsh: killed     hailo optimize model.har',
    '[1]+  Killed                  hailo optimize model.har',
  ]) {
    const r = read([...opt, k]);
    assert.equal(r.outcome, 'killed', k);
    assert.equal(r.failedStage, 'optimize', k);
  }
  // zsh's words for a native death.
  const z = read(['Loading yolov8s.hef', 'zsh: segmentation fault  python3 detect.py']);
  assert.equal(z.outcome, 'failed');
  assert.ok(z.diagnostics.some((d) => d.code === 'dfc/crashed'));
  // The exit status the log prints (an IDE, compose, CI, GNU time) is used like one the caller gives.
  for (const [line, outcome] of [
    ['Process finished with exit code 1', 'failed'],
    ['Process finished with exit code 137 (interrupted by signal 9: SIGKILL)', 'killed'],
    ['dfc-compile exited with code 1', 'failed'],
    ['Error: Process completed with exit code 2.', 'failed'],
    ['Command exited with non-zero status 1', 'failed'],
    ['make: *** [Makefile:12: hef] Error 1', 'failed'],
  ] as const) {
    const r = read([...opt, line]);
    assert.equal(r.outcome, outcome, line);
    if (outcome === 'failed')
      assert.ok(
        r.diagnostics.some((d) => d.code === 'dfc/no-error-in-log'),
        `${line}: ${r.diagnostics.map((d) => d.code).join(', ')}`,
      );
  }
  const ok = read(['[info] Starting Model Optimization', '[info] Model Optimization is done', 'Process finished with exit code 0']);
  assert.equal(ok.outcome, 'success');
  // An exit status given by the caller wins over the log's.
  assert.equal(readDfcLog(`${opt.join('\n')}\nProcess finished with exit code 0\n`, {}, { code: 137 }).outcome, 'killed');
});

test('run ends: no Hailo device at all is not a device another process holds', () => {
  // hailortcli.cpp: `CHECK(scan_res.size() > 0, HAILO_OUT_OF_PHYSICAL_DEVICES, "No devices found")`.
  let r = read([
    '[HailoRT CLI] [error] CHECK failed - No devices found',
    '[HailoRT CLI] [error] CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)',
  ]);
  assert.equal(r.outcome, 'failed');
  assert.equal(r.diagnostics.length, 1, r.diagnostics.map((d) => d.code).join(', '));
  assert.ok(
    /not be connected/.test(r.diagnostics[0].message) && !/another process \(or a second VDevice/.test(r.diagnostics[0].message),
    r.diagnostics[0].message,
  );
  // scan_command.cpp prints it on stdout, no level.
  r = read(['$ hailortcli scan', 'Hailo devices not found']);
  assert.equal(r.outcome, 'failed');
  assert.ok(r.diagnostics.some((d) => d.code === 'hailort/driver' && /not be connected/.test(d.message)));
  // Devices held by another process keep their own advice.
  r = read([
    '[HailoRT] [error] CHECK failed - Failed to create vdevice. there are not enough free devices. requested: 1, found: 0',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)',
  ]);
  assert.ok(/another process/i.test(r.diagnostics[0].message), r.diagnostics[0].message);
});

test("run ends: hailortcli's answers end a run on the device — scan, parse-hef, run2 — as run, benchmark and identify do", () => {
  for (const log of [
    ['$ hailortcli scan', 'Hailo Devices:', '[-] Device: 0000:01:00.0'],
    ['$ hailortcli parse-hef yolov8s.hef', 'HEF Compatible for: HAILO8L', 'Network group name: yolov8s, Single Context'],
    ['$ hailortcli run2 set-net yolov8s.hef', '[HailoRT] [warning] Low memory', '=======', 'Summary', '=======', 'yolov8s: FPS: 61.64'],
  ]) {
    const r = read(log);
    assert.equal(r.outcome, 'success', log.join('\n'));
  }
  // An error after the answer still fails the run.
  assert.equal(read(['[-] Device: 0000:01:00.0', '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_TIMEOUT(4)']).outcome, 'failed');
});

test('run ends: an error nobody catalogued still says what its errno or MemoryError means, and whose it is', () => {
  let r = read(['Loading yolov8s.hef', "OSError: [Errno 28] No space left on device: '/tmp/out.npy'"]);
  let d = r.diagnostics.find((x) => x.code === 'dfc/unrecognised-error')!;
  assert.ok(d && /ENOSPC/.test(d.message) && /^The program failed/.test(d.message), d?.message);
  r = read(['[info] Starting Model Optimization', 'Traceback (most recent call last):', '  File "x.py", line 3, in <module>', 'MemoryError']);
  d = r.diagnostics.find((x) => x.code === 'dfc/unrecognised-error')!;
  assert.ok(d && /could not allocate memory/.test(d.message) && /^The DFC failed/.test(d.message), d?.message);
});

test("run ends: an author's elision inside a traceback leaves it open — the class is still told by its frames", () => {
  // IndexError is many things: the function that raised it says which (get_concat_info → the Concat format error).
  for (const gap of ['...', '…', '[...]']) {
    const r = read([
      '[info] Translation started on ONNX model rfdetr',
      'Traceback (most recent call last):',
      '  File "/usr/lib/python3.10/site-packages/hailo_sdk_client/runner/client_runner.py", line 1187, in translate_onnx_model',
      gap,
      '  File "/usr/lib/python3.10/site-packages/hailo_sdk_client/model_translator/onnx_translator/onnx_graph.py", line 2041, in get_concat_info',
      '    axis = self._info.input_format[axis]',
      'IndexError: list index out of range',
    ]);
    assert.deepEqual(
      r.diagnostics.map((d) => d.code),
      ['dfc/concat-format'],
      gap,
    );
  }
});
