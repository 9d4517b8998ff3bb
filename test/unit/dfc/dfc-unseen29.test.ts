// The classes the thirtieth batch (dfc-corpus unseen29) showed the reader missing, tested on lines that batch does not
// contain: the DFC's system-requirements check in its other forms (the Software Suite's check and its log file, a row a
// line), and pyhailort's exceptions carrying a HailoRT status by number in any of their forms.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const codes = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.severity} ${d.code}`);
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => d.message).join(' | ');

// The Hailo AI Software Suite's docker run script (hailo_ai_sw_suite_2025-01, library file id 47346491386) writes its check
// to system_reqs_results.log a row a line: `X | ` before an unmet row, ` | ` before one below a recommendation, `V | ` before
// a met one; and says each unmet one on stderr as `ERROR: …`. These rows are its other rows (CPU architecture and flag, the
// recommended RAM), in its own wording, on a machine unseen29/02 is not (an arm host with 24 GB).
test('the check log file: its unmet rows (CPU architecture, CPU flag, RAM below the recommendation) are the system-requirements warning', () => {
  const r = read([
    'HAILO System requirements check - log',
    '',
    'X | Unsupported CPU architecture: aarch64. The supported architecture is x86_64.',
    'X | Required avx CPU flag is not supported in this CPU, and is required to install TensorFlow.',
    '  | Available RAM (24 GB) below recommended amount (32 GB).',
    '  | GPU Requirements are not checked- no GPU connected.',
  ]);
  assert.deepEqual(codes(r), ['warning dfc/system-requirements']);
  assert.match(said(r), /Unsupported CPU architecture: aarch64/);
  assert.match(said(r), /avx CPU flag is not supported/);
  assert.match(said(r), /Available RAM \(24 GB\) below recommended amount/);
});

test('the check on stderr: the Software Suite script says its RAM row as "The Dataflow Compiler requires"', () => {
  const r = read([
    'INFO: Checking system requirements...',
    'ERROR: The Dataflow Compiler requires 16 GB of RAM (32 GB recommended), while this system has only 8 GB.',
    'ERROR: CPU architecture required is x86_64, found aarch64.',
    'ERROR: System requirements check failed.',
  ]);
  assert.ok(codes(r).includes('warning dfc/system-requirements'), said(r));
  assert.match(said(r), /requires 16 GB of RAM/);
  assert.match(said(r), /CPU architecture required is x86_64, found aarch64/);
});

test('a check log whose rows all passed says nothing', () => {
  const r = read([
    'HAILO System requirements check - log',
    '',
    'V | Available RAM (64 GB) is sufficient, and within recommendation (32 GB).',
    'V | CPU architecture x86_64 is supported.',
    'V | Required avx CPU flag is supported.',
    'V | GPU driver version is 550.',
  ]);
  assert.deepEqual(codes(r), []);
});

// pyhailort raises a status it has no class for as HailoRTException in its own words (dfc-corpus unseen3/28's log, and a
// user's notes, library file id 63137270447: `hailo_platform.pyhailort.pyhailort.HailoRTException: libhailort failed with
// error: 74`), with no HailoRT log line before it here.
test("pyhailort's `libhailort failed with error: N` is HailoRT status N", () => {
  const r = read(['hailo_platform.pyhailort.pyhailort.HailoRTException: libhailort failed with error: 74']);
  assert.deepEqual(codes(r), ['error hailort/out-of-physical-devices']);
});

// A sentence that quotes the exception ends it with its own full stop: the number is still the status (a README's
// troubleshooting line in the form of unseen29/70's comment, with another status: 69, network group not activated).
test('a sentence quoting `HailoRTStatusException: N.` is HailoRT status N', () => {
  const r = read(['Every call to infer() then fails with HailoRTStatusException: 69.']);
  assert.equal(r.diagnostics.length, 1, said(r));
  assert.notEqual(r.diagnostics[0].code, 'dfc/unrecognised-error');
  assert.match(r.diagnostics[0].message, /HAILO_NETWORK_GROUP_NOT_ACTIVATED\(69\)/);
});

// The compiler's utilization table is printed once its allocation succeeded, right before `Successful Mapping`: dfc-corpus
// unseen17/07 (audiblemaple/AlertWatch's hailo_sdk.core.log, DFC 3.28) lines 9–22, the table alone — an excerpt that keeps
// only the table (a notebook's expected output, a README) shows the compile's record, and nothing open after it.
const TABLE = [
  '[2024-07-22 21:24:54.441] [default] [info] +-----------+---------------------+---------------------+--------------------+',
  '[2024-07-22 21:24:54.441] [default] [info] | Cluster   | Control Utilization | Compute Utilization | Memory Utilization |',
  '[2024-07-22 21:24:54.441] [default] [info] +-----------+---------------------+---------------------+--------------------+',
  '[2024-07-22 21:24:54.441] [default] [info] | cluster_0 | 62.5%               | 59.4%               | 33.6%              |',
  '[2024-07-22 21:24:54.442] [default] [info] | cluster_1 | 100%                | 96.9%               | 49.2%              |',
  '[2024-07-22 21:24:54.442] [default] [info] | cluster_2 | 50%                 | 60.9%               | 90.6%              |',
  '[2024-07-22 21:24:54.442] [default] [info] | cluster_3 | 87.5%               | 98.4%               | 80.5%              |',
  '[2024-07-22 21:24:54.442] [default] [info] | cluster_4 | 100%                | 76.6%               | 86.7%              |',
  '[2024-07-22 21:24:54.442] [default] [info] | cluster_5 | 68.8%               | 54.7%               | 60.2%              |',
  '[2024-07-22 21:24:54.442] [default] [info] | cluster_6 | 68.8%               | 95.3%               | 54.7%              |',
  '[2024-07-22 21:24:54.442] [default] [info] | cluster_7 | 50%                 | 64.1%               | 60.2%              |',
  '[2024-07-22 21:24:54.442] [default] [info] +-----------+---------------------+---------------------+--------------------+',
  '[2024-07-22 21:24:54.442] [default] [info] | Total     | 73.4%               | 75.8%               | 64.5%              |',
  '[2024-07-22 21:24:54.442] [default] [info] +-----------+---------------------+---------------------+--------------------+',
];

test("the compiler's utilization table alone is its record: with no failure and nothing open, the run succeeded", () => {
  const r = read(TABLE);
  assert.equal(r.outcome, 'success');
  assert.equal(r.summary.controlUtilization, 73.4);
  assert.deepEqual(codes(r), []);
});

// Guard (passes with the mechanism removed too): the compile shown started and not shown ending stays incomplete — the
// same file's next line, `Successful Mapping`, is the compile stage's, and nothing after it shows the HEF built.
test('the table, then the compile going on with nothing after it, is still incomplete', () => {
  const r = read([...TABLE, '[2024-07-22 21:24:54.452] [default] [info] \u001b[1;32mSuccessful Mapping (allocation time: 1m 35s)\u001b[0m']);
  assert.equal(r.outcome, 'incomplete');
});

// Hailo's optimization diagnostic tool's NormInspector (Hailo-Application-Code-Examples compilation/basic_optimization_
// diagnostic_tool/inspectors/norm_inspector.py): its other verdicts, in its own templates, on a two-input model's layers.
test("the diagnostic tool's `normalized twice` verdict is a normalization warning that says so, naming the layer", () => {
  const r = read([
    '[info] Running inspector module: NormInspector',
    '[error] Unexpected data distribution at stereonet/normalization1. (expected normalized data) mean: [0.0012 0.0009 -0.0021], std: [0.0041 0.0039 0.0040]',
    '[error] Mean or std are below threshold. Data might be normalized twice',
  ]);
  assert.deepEqual(codes(r), ['warning dfc/calibration-range']);
  assert.match(said(r), /stereonet\/normalization1/);
  assert.match(said(r), /normalized twice/);
});

test("the diagnostic tool's `appears to be normalized` finding where no layer normalizes is the same warning", () => {
  const r = read([
    '[error] The input data of stereonet/input_layer2 appears to be normalized, is it normalized twice? mean: [0.01 0.02 0.00], std: [1.01 0.98 1.02]',
  ]);
  assert.deepEqual(codes(r), ['warning dfc/calibration-range']);
  assert.match(said(r), /stereonet\/input_layer2/);
  assert.match(said(r), /normaliz/);
});

test("the diagnostic tool's `not normalized` verdict asks for a normalization layer", () => {
  const r = read([
    '[error] Unexpected data distribution at yolov5s/input_layer1. (expected normalized data) mean: [0.45 0.44 0.41], std: [0.27 0.26 0.28]',
    '[error] Unexected normalized distribution. Data might not be normalized correctly',
  ]);
  assert.deepEqual(codes(r), ['warning dfc/calibration-range']);
  assert.match(said(r), /yolov5s\/input_layer1/);
  assert.match(said(r), /normalization layer's mean and std/);
});

// A log's line template is learned from lines that share a head (logShape.ts). A message HailoRT repeats word for word on
// every line of an excerpt (a list of the same open failure, once per start) must not make its first words fields of the
// template: a logger's source column (`[file_utils.cpp:40] [read_binary_file]`) ends it within two fields. The line is
// dfc-corpus unseen17/08's (hailo-rpi5-examples, HailoRT 4.20), five starts of its application quoted as a list; unseen29/39
// showed the class.
test("a HailoRT message repeated on every line of a list is no part of the list's line template", () => {
  const line = (s: number) =>
    `[2025-02-05 14:0${s}:08.879] [1159${s}] [HailoRT] [error] [file_utils.cpp:40] [read_binary_file] CHECK failed - Error opening file /home/pinky/osehn/hailo-rpi5-examples/basic_pipelines/../resources/yolov6n.hef`;
  const lines = [1, 2, 3, 4, 5].map(line);
  const plain = codes(read(lines));
  assert.ok(plain.length > 0 && !plain.some((c) => c.includes('unrecognised')), plain.join(', '));
  assert.deepEqual(codes(read(lines.map((l) => `* ${l}`))), plain);
  assert.deepEqual(codes(read(lines.map((l, i) => `${i + 1}. ${l}`))), plain);
});

// An author's sentence that runs into a syslog or journald line (`It fails with May 03 14:10:27 host systemd[1]: …`): the
// date, host and program with its pid start the program's line as a tag would (normalise.ts MID_TAG), so systemd's report
// that the service died of a signal is that death, not a HailoRT status numbered by its `status=11`. The same line pasted
// plain is dfc/crashed (errors.ts RELAYED_DEATH).
test("a syslog line after an author's lead-in is the program's line: systemd's signal death is a crash", () => {
  const death = 'Dec 01 09:14:03 raspberrypi systemd[1]: detector.service: Main process exited, code=killed, status=6/ABRT';
  assert.deepEqual(codes(read([death])), ['error dfc/crashed']);
  assert.deepEqual(codes(read([`It fails with ${death}`])), ['error dfc/crashed']);
  assert.deepEqual(codes(read([`Same result after the reboot: ${death}`])), ['error dfc/crashed']);
});
