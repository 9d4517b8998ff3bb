// The classes the twentieth batch of users' logs (dfc-corpus unseen19/ 43, 44, 71, 73) showed the reader missing, tested on
// lines that batch does not contain: a terminal's escapes beyond CSI and OSC (lines.ts: ECMA-35's syntax, ESC,
// intermediates 0x20–0x2F, a final 0x30–0x7E — xterm's DECSC/DECRC `ESC 7`/`ESC 8` around apt's progress bar, the
// charset designation `ESC ( B` that ncurses' xterm entry puts in `sgr0`, `\E(B\E[m`), and a package manager's failure
// heading whose reason is on the indented line after it (failureWords.ts, errors.ts `opens`): dpkg's
// `dpkg: error processing archive|package X (--action):` and its one-space-indented reason (dpkg src/main/errors.c
// print_error_perpackage; `trying to overwrite '%s', which is also in package %s %s`, src/main/archives.c;
// `dependency problems - leaving unconfigured`, src/main/packages.c), apt's `The following packages have unmet
// dependencies:` and its ` pkg : Depends: X but … ` lines (apt-private/private-output.cc ShowBroken). Then HailoRT's
// EFAULT ioctl line (the catalogue), and an application's log record quoting an SDK's own `[ERROR]` over several lines
// (errors.ts: the innermost level, a template's record continued by lines without it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { stripAnsi } from '../../../server/src/core/dfc/lines';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.node ?? ''} ${d.message}`).join(' | ');

test('ECMA-35 escapes go whole: a private Fp escape (ESC 7, ESC 8) and an nF designation (ESC ( B) leave nothing of themselves', () => {
  // xterm's ctlseqs: ESC 7 Save Cursor (DECSC), ESC 8 Restore Cursor (DECRC), ESC ( B Designate G0 Character Set USASCII.
  assert.equal(stripAnsi('\x1b7\x1b[0;24r\x1b8\x1b[1A\x1b[JUnpacking hailort (4.20.0) ...'), 'Unpacking hailort (4.20.0) ...');
  assert.equal(stripAnsi('\x1b(B\x1b[mE: Unable to locate package hailo-all\x1b(B\x1b[m'), 'E: Unable to locate package hailo-all');
  assert.equal(stripAnsi('\x1bcReset'), 'Reset'); // ESC c (RIS), an Fs escape
});

test("apt's error line behind tput's sgr0 or its progress bar's cursor save/restore is read: the run failed with its words", () => {
  for (const line of [
    '\x1b(B\x1b[m\x1b[1;31mE: \x1b(B\x1b[mUnable to locate package hailo-all\x1b(B\x1b[m',
    '\x1b7\x1b[0;24r\x1b8\x1b[1A\x1b[J\x1b[1;31mE: \x1b[0mCould not get lock /var/lib/dpkg/lock-frontend. It is held by process 2311 (unattended-upgr)\x1b[0m',
  ]) {
    const r = read(['Reading package lists... Done', 'Building dependency tree... Done', line]);
    assert.equal(r.outcome, 'failed', line);
    assert.match(said(r), /Unable to locate package hailo-all|Could not get lock \/var\/lib\/dpkg\/lock-frontend/);
  }
});

test("dpkg's `error processing archive X (--install):` is a failure, and its indented reason is said with it: the package whose file it would overwrite", () => {
  const r = read([
    '(Reading database ... 112310 files and directories currently installed.)',
    'Preparing to unpack hailort_4.20.0_arm64.deb ...',
    'Unpacking hailort (4.20.0) ...',
    'dpkg: error processing archive hailort_4.20.0_arm64.deb (--install):',
    " trying to overwrite '/usr/bin/hailortcli', which is also in package hailort-tools 4.18.0",
    'Errors were encountered while processing:',
    ' hailort_4.20.0_arm64.deb',
  ]);
  assert.equal(r.outcome, 'failed');
  assert.match(said(r), /which is also in package hailort-tools 4\.18\.0/);
});

test("dpkg's `error processing package X (--configure):` says its reason from the next line, before apt's `E: Sub-process …`", () => {
  const r = read([
    'Setting up hailo-tappas-core (3.29.1) ...',
    'dpkg: error processing package hailo-tappas-core (--configure):',
    ' dependency problems - leaving unconfigured',
    'Errors were encountered while processing:',
    ' hailo-tappas-core',
    'E: Sub-process /usr/bin/dpkg returned an error code (1)',
  ]);
  assert.equal(r.outcome, 'failed');
  assert.match(said(r), /hailo-tappas-core \(--configure\): dependency problems - leaving unconfigured/);
});

test("apt's `The following packages have unmet dependencies:` names the package apt would not install, with apt's last `E:` line", () => {
  // The form apt prints when the broken state is an earlier run's (`You might want to run 'apt --fix-broken install'`); after
  // apt's `Some packages could not be installed.` preamble the diagnostic says that first line and the last, not this one.
  const r = read([
    'Reading package lists... Done',
    'Building dependency tree... Done',
    'Reading state information... Done',
    "You might want to run 'apt --fix-broken install' to correct these.",
    'The following packages have unmet dependencies:',
    ' python3-hailort : Depends: hailort (= 4.20.0) but 4.18.0 is to be installed',
    "E: Unmet dependencies. Try 'apt --fix-broken install' with no packages (or specify a solution).",
  ]);
  assert.equal(r.outcome, 'failed');
  assert.match(said(r), /Depends: hailort \(= 4\.20\.0\) but 4\.18\.0 is to be installed/);
});

test('a heading whose words are no failure is not joined to what follows it (no failure made of an ordinary list)', () => {
  const r = read(['The following NEW packages will be installed:', '  hailo-all hailofw hailort', 'Setting up hailort (4.20.0) ...']);
  assert.notEqual(r.outcome, 'failed');
});

// HailoRT's convert_errno_to_hailo_status (libhailort/src/vdma/driver/os/posix/linux/driver_os_specific.cpp) logs the
// errno the PCIe driver answered an ioctl with, and returns a status for it: EFAULT is `Ioctl X failed due to invalid
// address` and HAILO_INVALID_OPERATION, a status that says nothing of the driver. Another ioctl than the batch's
// (HAILO_VDMA_BUFFER_SYNC: hailo_ioctl_common.h), another caller chain.
test("HailoRT's `Ioctl X failed due to invalid address` is the driver refusing the memory it was handed — hailort/driver, saying so — not a generic refusal", () => {
  const r = read([
    '[2026-03-02 10:14:07.512] [4471] [HailoRT] [info] [vdevice.cpp:523] [configure] Configuring HEF on VDevice',
    '[2026-03-02 10:14:09.020] [4471] [HailoRT] [error] [driver_os_specific.cpp:150] [convert_errno_to_hailo_status] Ioctl HAILO_VDMA_BUFFER_SYNC failed due to invalid address',
    '[2026-03-02 10:14:09.020] [4471] [HailoRT] [error] [hailort_driver.cpp:612] [vdma_buffer_sync] CHECK_SUCCESS failed with status=HAILO_INVALID_OPERATION(6)',
    '[2026-03-02 10:14:09.021] [4471] [HailoRT] [error] [mapped_buffer.cpp:98] [synchronize] CHECK_SUCCESS failed with status=HAILO_INVALID_OPERATION(6)',
  ]);
  assert.equal(r.outcome, 'failed');
  const d = r.diagnostics.filter((x) => x.severity === 'error');
  assert.deepEqual(
    d.map((x) => x.code),
    ['hailort/driver'],
  );
  assert.match(d[0].message, /HAILO_VDMA_BUFFER_SYNC failed due to invalid address/);
  assert.match(d[0].message, /EFAULT/);
});

// An application's Python logging record (`%(asctime)s [%(levelname)s] %(message)s`, logShape.ts learns it) around an
// inference SDK's exception whose text has lines of its own and a level of its own — DeGirum's core prints its errors as
// `[ERROR]<category>`, the message, then `<file>.cpp: <line> [<function>]` (the form of dfc-corpus unseen19/73; here
// another category, message and source file). Python's logging prints a message with newlines as they are: the lines
// after the record without its template are its message.
const appLog = (level: string, tail: string[]) => [
  '2026-05-11 09:02:10,101 [INFO] Starting parking camera service',
  '2026-05-11 09:02:10,102 [INFO] Loading model plate_detector--640x640_quant_hailort_hailo8l_1',
  '2026-05-11 09:02:10,950 [INFO] Model loaded',
  '2026-05-11 09:02:10,951 [INFO] Opening camera /dev/video0',
  '2026-05-11 09:02:11,020 [INFO] Processing frame 1',
  `2026-05-11 09:02:11,133 [${level}] Plate detection error: Failed to perform model 'plate_detector--640x640_quant_hailort_hailo8l_1' inference: [ERROR]Operation failed`,
  "Timeout 10000 ms waiting for inference result of model 'plate_detector--640x640_quant_hailort_hailo8l_1'",
  'dg_core_runtime.cpp: 412 [DG::CoreRuntimeAsync::wait]',
  '',
  ...tail,
];

test("a relayed WARNING that quotes the SDK's own `[ERROR]` is an error: a later `… completed` does not get past it", () => {
  const r = read(appLog('WARNING', ['2026-05-11 09:02:11,134 [INFO]   Plates detected: 0', '2026-05-11 09:02:11,134 [INFO] Frame processing completed']));
  assert.equal(r.outcome, 'failed');
  assert.match(said(r), /Failed to perform model 'plate_detector--640x640_quant_hailort_hailo8l_1' inference/);
});

test("a record's message goes on in the lines after it without the log's template: a later error's diagnostic says the whole first failure", () => {
  const r = read(
    appLog('ERROR', [
      '2026-05-11 09:02:11,134 [INFO]   Plates detected: 0',
      '2026-05-11 09:02:11,135 [INFO] Frame processing completed',
      '2026-05-11 09:02:12,300 [ERROR] Error during shutdown: camera already released',
    ]),
  );
  assert.equal(r.outcome, 'failed');
  assert.match(said(r), /Timeout 10000 ms waiting for inference result/);
});

test('a line without the template that is a record of its own (a glog line, a bracket, a fence) does not continue the one before', () => {
  const r = read([
    '2026-05-11 09:02:10,101 [INFO] Starting parking camera service',
    '2026-05-11 09:02:10,102 [INFO] Loading model plate_detector',
    '2026-05-11 09:02:10,950 [INFO] Model loaded',
    '2026-05-11 09:02:10,951 [INFO] Opening camera /dev/video0',
    '2026-05-11 09:02:11,133 [WARNING] Frame rate lower than requested',
    // glog's own record (abseil-cpp absl/log/internal/log_format.cc: `E0511 09:02:11.200000  1234 file.cc:N] `), a program's other output.
    'E0511 09:02:11.200000    1234 camera_source.cc:88] Camera /dev/video0 could not be opened',
  ]);
  assert.doesNotMatch(said(r), /requested E0511|requested Camera/);
});
