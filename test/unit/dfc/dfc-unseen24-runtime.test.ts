// Classes the twenty-fifth batch of users' logs (dfc-corpus unseen24/) showed the reader missing at runtime: a kernel WARN
// header an author quotes with its CPU and PID elided (`WARNING: ... at file:line func+off/size`, unseen24/43); HailoRT's
// frame-size check (`Input buffer size N is different than expected M`), quoted bare, with the format type its ratio names
// (unseen24/11, 39); Python's own AttributeError and TypeError messages an application prints without their class
// (`…: {e}`, unseen24/83); a program's warning whose words an author also quotes bare, as a heading (unseen24/67). Each test reads lines of another source than the batch's log where one was found.
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
const codes = (lines: string[]) => read(lines).diagnostics.map((d) => `${d.code}:${d.severity}`);

test("a kernel WARN header quoted with its CPU and PID elided is the kernel's splat, at its function", () => {
  // A Linux commit message quoting the splat it fixes (hwrng: refcount_t use-after-free; library file 53867489321).
  const commit = [
    'refcount_t: addition on 0; use-after-free.',
    'WARNING: ... at lib/refcount.c:25 refcount_warn_saturate+0xec/0x1c0',
    'Call Trace:',
    ' kthread_stop+0x181/0x360',
    ' hwrng_unregister+0x288/0x380',
    ' virtrng_remove+0xe3/0x200',
  ];
  const r = read(commit);
  const s = r.diagnostics.filter((d) => d.code === 'dfc/kernel-splat');
  assert.equal(s.length, 1, JSON.stringify(r.diagnostics));
  assert.equal(s[0].severity, 'warning');
  assert.match(s[0].message, /a WARNING at refcount_warn_saturate \(lib\/refcount\.c:25\)/);
  // A session note's prose quoting the header in a code span (tailscale's TUN interface; library file 60286957214).
  const prose = [
    '`tailscaled` failed to bring up its `tailscale0` kernel TUN interface',
    '(`tstun.New("tailscale0"): invalid argument`), reproduced twice with a kernel',
    '`WARNING: ... at net/ethtool/common.c:534 ethtool_check_ops+0x18/0x30` at the moment of the',
    'failing `TUNSETIFF` ioctl.',
  ];
  const p = read(prose).diagnostics.find((d) => d.code === 'dfc/kernel-splat');
  assert.ok(p, JSON.stringify(read(prose).diagnostics));
  assert.match(p.message, /a WARNING at ethtool_check_ops \(net\/ethtool\/common\.c:534\)/);
  assert.ok(!codes(prose).includes('dfc/unrecognised-warning:warning'), codes(prose).join());
  // An elided header without the kernel's symbol form (a note's `WARNING: ... at f2fs_put_page`, library file 66498589634),
  // or any warning with an ellipsis, is no splat.
  assert.ok(!codes(['   - 不应出现 `WARNING: ... at f2fs_put_page`']).includes('dfc/kernel-splat:warning'));
  assert.ok(!codes(['WARNING: ... at the end of the calibration the range is narrow']).includes('dfc/kernel-splat:warning'));
});

// HailoRT v5.2.0's check, as infer_model.cpp's validate_bindings prints it (CHECK(…, HAILO_INVALID_OPERATION, "Input buffer size {}
// is different than expected {} for input '{}'")), for a 640×640×3 input (yolov8s: 1 228 800 bytes as uint8).
const sizeCheck = (dir: 'Input' | 'Output', got: number, want: number, name: string) => [
  `[HailoRT] [error] CHECK failed - ${dir} buffer size ${got} is different than expected ${want} for ${dir.toLowerCase()} '${name}'`,
  '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INVALID_OPERATION(6)',
];

test("HailoRT's frame-size check: a ratio of two format types names them and the setting; another ratio is the shape", () => {
  // float32 data (4 bytes an element) bound to a stream of the default UINT8 format type.
  const f32 = read(sizeCheck('Input', 4915200, 1228800, 'yolov8s/input_layer1'));
  assert.equal(f32.outcome, 'failed');
  const d = f32.diagnostics.find((x) => x.code === 'hailort/status');
  assert.ok(d, JSON.stringify(f32.diagnostics));
  assert.match(d.message, /4× the frame/);
  assert.match(d.message, /float32 data for a stream whose format type is UINT8/);
  assert.match(d.message, /set_format_type\(FormatType\.FLOAT32\)/);
  // uint8 data for an output HailoRT dequantises to FLOAT32 (its size a quarter of the frame): the other way round.
  const u8 = read(sizeCheck('Output', 33600, 134400, 'yolov8s/yolov8_nms_postprocess')).diagnostics.find((x) => x.code === 'hailort/status');
  assert.match(u8?.message ?? '', /uint8 data for a stream whose format type is FLOAT32/);
  assert.match(u8?.message ?? '', /FormatType\.UINT8/);
  // A 640×640 frame for a 416×416 input: no ratio of format types — the shape.
  const shape = read(sizeCheck('Input', 1228800, 519168, 'yolov5s/input_layer1')).diagnostics.find((x) => x.code === 'hailort/status');
  assert.match(shape?.message ?? '', /its shape is another than the stream's/);
  assert.doesNotMatch(shape?.message ?? '', /FormatType/);
});

test("HailoRT's frame-size check in published logs: 4× is float32 data for a uint8 input, 8× numpy's default float64", () => {
  // HailoRT's own log of a TinyCLIP encoder's first run_async (dfc-corpus unseen7/22): 602112 = 4 × 150528.
  const clip = read(corpus('unseen7', '22-')).diagnostics.find((d) => d.code === 'hailort/status' && d.severity === 'error');
  assert.match(clip?.message ?? '', /4× the frame/);
  assert.match(clip?.message ?? '', /set_format_type\(FormatType\.FLOAT32\)/);
  // A forum post's 9-conv model (dfc-corpus unseen3/32): 9830400 = 8 × 1228800, 8-byte floats (the thread's own arithmetic).
  const f64 = read(corpus('unseen3', '32-')).diagnostics.find((d) => d.code === 'hailort/status' && d.severity === 'error');
  assert.match(f64?.message ?? '', /8× the frame/);
  assert.match(f64?.message ?? '', /float64 data — numpy's default float/);
});

test("HailoRT's frame-size check quoted bare, in prose or a comment, is the run's failure; a buffer of size 0 keeps its own cause", () => {
  for (const lines of [
    // pyhailort raising it (its status's class, HailoRTException), and an author quoting the message in a code span.
    ['hailo_platform.pyhailort.pyhailort.HailoRTException: Input buffer size 4915200 is different than expected 1228800'],
    ['Binding the normalised frame gives `Input buffer size 4915200 is different than expected 1228800`.'],
  ]) {
    const r = read(lines);
    assert.equal(r.outcome, 'failed', lines.join('\n'));
    const d = r.diagnostics.find((x) => x.code === 'hailort/status');
    assert.match(d?.message ?? '', /FormatType\.FLOAT32/, JSON.stringify(r.diagnostics));
  }
  // An author's symbols for the sizes (`N` against `N/4`) say the same ratio.
  const sym = read(['passing float32 arrays fails with "Input buffer size N is different than expected N/4".']);
  assert.match(sym.diagnostics.find((x) => x.code === 'hailort/status')?.message ?? '', /float32 data for a stream whose format type is UINT8/);
  // Size 0 (numpy 2 against a HailoRT 4.x wheel, dfc-corpus unseen9/27's cause) is its own entry's.
  const zero = read(sizeCheck('Input', 0, 1228800, 'yolov8s/input_layer1')).diagnostics.find((x) => x.code === 'hailort/status');
  assert.match(zero?.message ?? '', /numpy/);
});

test("Python's own AttributeError and TypeError messages printed without their class are the program's failure", () => {
  // The Piper TTS notes' emulator harness (dfc-corpus unseen18/25), without the author's `… originally failed with:` that
  // read it before: the fenced `'int' object has no attribute 'shape'` alone is CPython's AttributeError (Objects/object.c).
  const piper = corpus('unseen18', '25-').filter((l) => !/failed with/.test(l));
  const r = read(piper);
  assert.equal(r.outcome, 'failed', JSON.stringify(r.diagnostics));
  assert.match(r.diagnostics.find((d) => d.severity === 'error')?.message ?? '', /AttributeError: 'int' object has no attribute 'shape'/);
  // The DFC fixture's TypeError (test/fixtures/dfc/unrecognised, ClientRunner.optimize's refused keyword) as an application
  // prints str(e) after its own words, and a module's missing attribute the same way.
  for (const [line, cls] of [
    ["optimize step aborted: ClientRunner.optimize() got an unexpected keyword argument 'optimization_level'", 'TypeError'],
    ["Device init aborted: module 'hailo_platform' has no attribute 'InferVStreams'", 'AttributeError'],
  ]) {
    const x = read([line]);
    assert.equal(x.outcome, 'failed', line);
    assert.match(x.diagnostics.find((d) => d.severity === 'error')?.message ?? '', new RegExp(cls), line);
  }
  // The words without CPython's quoted names are prose, no exception.
  assert.equal(read(['The old module has no attribute for the stream format any more.']).outcome, 'incomplete');
});

test("a warning's words an author quotes bare elsewhere are that warning, not a failure; words the log shows only as an error stay one", () => {
  // A DFC docker guide's troubleshooting entry (library file 28067462611): HailoRT's warning in a fence. Its title quoting the
  // message bare, before or after the program's line, says no more than the line: HailoRT prints it as a warning and goes on.
  const warning = ['```', 'HailoRT warning: Cannot create log file hailort.log!', '```'];
  for (const lines of [
    ['#### 1. `Cannot create log file hailort.log!`', '', ...warning, '', '**Solution**: Add `-e HOME=/workspace` to Docker command.'],
    [...warning, '', 'Cannot create log file hailort.log! is printed on every call.'],
  ]) {
    const r = read(lines);
    assert.deepEqual(
      r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
      [],
      lines.join('\n'),
    );
    assert.notEqual(r.outcome, 'failed', lines.join('\n'));
  }
  // The same title without the program's warning line is a failure told by its words, as before; so is a title whose words the
  // warning does not print, and words the program printed at error level.
  assert.equal(read(['#### 1. `Cannot create log file hailort.log!`']).outcome, 'failed');
  assert.equal(read(['#### 1. `Cannot open the device /dev/hailo0 for writing`', '', ...warning]).outcome, 'failed');
  assert.equal(read(['#### 1. `Cannot create log file hailort.log!`', '', '[HailoRT] [error] Cannot create log file hailort.log!']).outcome, 'failed');
  // A sentence that says the program reports it as a warning tells no failure (`… can't open the log and emits the warning.`);
  // the same words without it do.
  assert.equal(read(["so HailoRT can't open the log for append and emits the warning."]).outcome, 'incomplete');
  assert.equal(read(["so HailoRT can't open the log for append."]).outcome, 'failed');
});
