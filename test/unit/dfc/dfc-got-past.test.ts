// The classes the fourteenth batch of users' logs (dfc-corpus unseen13/) showed the reader missing, each tested on the
// batch's own lines and on lines from outside it (cited at each test):
// - a failure a later line shows was got past: the same program run again at a shell's prompt — any shell's prompt
//   (Raspberry Pi OS's `user@host:~ $ `, Fedora's, zsh's), whose command quotes its arguments, not a log's line — and
//   the program's own word that it is ready; a retry that shows nothing after its command decides nothing;
// - a driver's line its own source logs as a warning and goes on past (the PCIe driver's `Failed to write file` of an
//   optional file), and the driver's probe ending with the device's node — its steps' own `successfully` are no end;
// - the names a HailoRT failure's later lines carry (the element, stream or edge a caller or another check names).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { SHELL_PROMPT } from '../../../server/src/core/dfc/normalise';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.node ?? ''} ${d.message}`).join(' | ');
const errors = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.severity === 'error');

// ---- a failure a later line shows was got past ----------------------------------------------------------------------

test('the same program run again at a Raspberry Pi OS prompt after a fix, and ready: the retry decides (dfc-corpus unseen13/52)', () => {
  // A user's notes (library file id 53819538557): the import fails, a venv and the wheel, the same import prints its ready line.
  const r = read([
    '```',
    `rza@rp5-pios:~ $ python -c 'import hailo_platform; print("Hailo Python ready")'`,
    "ModuleNotFoundError: No module named 'hailo_platform'",
    '',
    'rza@rp5-pios:~ $ python3 -m venv hailo_env --system-site-packages',
    'rza@rp5-pios:~ $ source hailo_env/bin/activate',
    '',
    '(hailo_env) rza@rp5-pios:~ $ cd Downloads/',
    '(hailo_env) rza@rp5-pios:~/Downloads $ pip install ~/Downloads/hailort-4.23.0-cp311-cp311-linux_aarch64.whl',
    '',
    `(hailo_env) rza@rp5-pios:~/Downloads $ python -c 'import hailo_platform; print("Hailo Python ready")'`,
    'Hailo Python ready',
    '```',
  ]);
  assert.equal(r.outcome, 'success', said(r));
  assert.equal(errors(r).length, 0, said(r));
  assert.match(said(r), /An earlier run in this log failed[^|]*No module named 'hailo_platform'/);
});

test("a retry of the same command at another user's prompt that answers gets past the failure at the first prompt", () => {
  // The failure: a Raspberry Pi 5 robot's README (dfc-corpus unseen3/11, library file id 53957780495). The retry and its
  // answer: another user's session on hailo-ai/hailo-rpi5-examples#98 (Kletternaut's comment of 2025-02-02), at a
  // virtualenv's Raspberry Pi OS prompt — two real pastes, one after the other, as a user would show a fix.
  const failure = [
    'kida-01@kida01:~ $ hailortcli fw-control identify',
    "[HailoRT] [error] Can't find hailort driver class. Can happen if the driver is not installed, if the kernel was updated or on some driver failure (then read driver dmesg log)",
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_DRIVER_NOT_INSTALLED(64) - Failed listing hailo devices',
    '[HailoRT CLI] [error] CHECK_SUCCESS failed with status=HAILO_DRIVER_NOT_INSTALLED(64)',
  ];
  const retry = [
    '(venv_hailo_rpi5_examples) user@rpi5-8Gb:~/hailo-apps-infra $ hailortcli fw-control identify',
    'Executing on device: 0000:03:00.0',
    'Identifying board',
    'Control Protocol Version: 2',
    'Firmware Version: 4.20.0 (release,app,extended context switch buffer)',
    'Logger Version: 0',
    'Board Name: Hailo-8',
    'Device Architecture: HAILO8L',
  ];
  assert.equal(read(failure).outcome, 'failed');
  const r = read([...failure, ...retry]);
  assert.equal(r.outcome, 'success', said(r));
  assert.ok(
    r.diagnostics.some((d) => d.code === 'hailort/driver' && d.severity === 'warning'),
    said(r),
  );
});

test("a retry that shows nothing after its command leaves the failure the log's last word (dfc-corpus unseen3/27's end)", () => {
  // A terminal paste (library file id 61406964218): configure fails, then the same heredoc command echoed twice at the prompt.
  const r = read([
    'Opening Hailo device...',
    'Traceback (most recent call last):',
    '  File "/usr/lib/python3/dist-packages/hailo_platform/pyhailort/pyhailort.py", line 157, in _raise_indicative_status_exception',
    '    raise self.create_exception_from_status(error_code) from libhailort_exception',
    'hailo_platform.pyhailort.pyhailort.HailoRTException: libhailort failed with error: 7 (HAILO_NOT_IMPLEMENTED)',
    "(venv_hailo_apps) mikeybrotha@tradingbot:~/jarvis-edge-ai $ python3 - <<'PY'",
    "(venv_hailo_apps) mikeybrotha@tradingbot:~/jarvis-edge-ai $ python3 - <<'PY'",
  ]);
  assert.equal(r.outcome, 'failed', said(r));
  assert.ok(errors(r).length > 0, said(r));
});

test('a command at a prompt quotes its arguments: the words it would print are not a line it printed', () => {
  // unseen13/52's command alone: its print("Hailo Python ready") is an argument, not the program's answer.
  const r = read([`rza@rp5-pios:~ $ python -c 'import hailo_platform; print("Hailo Python ready")'`]);
  assert.notEqual(r.outcome, 'success', said(r));
  // The same words in an author's sentence are still a quoted line (normalise.ts doubleQuoted).
  const quoted = read(['The import printed "Hailo Python ready" and the board worked.']);
  assert.equal(quoted.outcome, 'success', said(quoted));
});

test("a program's own word that it is ready ends its run in success; a wait, a wish or a negation does not", () => {
  assert.equal(read(['Hailo Python ready']).outcome, 'success');
  assert.equal(read(['Server is ready.']).outcome, 'success');
  // rpicam's Hailo post-processing stage (dfc-corpus unseen12's rpicam notes quote it): a negation.
  assert.equal(read(['HailoRT not ready!']).outcome, 'incomplete');
  assert.equal(read(['Waiting for the device to be ready']).outcome, 'incomplete');
  assert.equal(read(['Press enter when ready']).outcome, 'incomplete');
  // HailoRT's own function names hold the word inside an identifier (`wait_for_async_ready`, dfc-corpus unseen13/16).
  assert.equal(read(['[HailoRT] [info] [infer_model.cpp:100] [wait_for_async_ready] starting']).outcome, 'incomplete');
});

test("any shell's prompt names the program it runs (bash's, Raspberry Pi OS's, Fedora's, zsh's, root's, a venv's, a bare $)", () => {
  const forms: [string, string | null][] = [
    ['user@host:~/hailo$ hailortcli scan', 'hailortcli'], // Debian's PS1 `\u@\h:\w\$ `
    ['pi@raspberrypi:~ $ hailortcli scan', 'hailortcli'], // Raspberry Pi OS's `\u@\h:\w \$ `
    ['(venv_hailo_rpi5_examples) user@rpi5-8Gb:~/hailo-apps-infra $ hailortcli fw-control identify', 'hailortcli'], // hailo-rpi5-examples#98
    ['[user@fedora hailo]$ hailortcli scan', 'hailortcli'], // Fedora's `[\u@\h \W]\$ `
    ['user@mac ~ % hailortcli scan', 'hailortcli'], // zsh's default `%n@%m %1~ %# `
    ['root@box:/# hailortcli scan', 'hailortcli'],
    ['$ sudo /usr/bin/hailortcli scan', 'hailortcli'],
    ['frigate@frigate:~ $ sudo apt install -y \\', 'apt'], // theNetworkChuck/frigate-nvr-guide#3
    ['mail me at user@example.com today', null],
    ['Total: 100% done', null],
  ];
  for (const [line, program] of forms) assert.equal(SHELL_PROMPT.exec(line)?.[1] ?? null, program, line);
});

// ---- a driver's warning it goes on past, and the probe's end ---------------------------------------------------------

test('the PCIe driver failing to write an optional file goes on: a warning, and an excerpt cut there is incomplete (dfc-corpus unseen13/58)', () => {
  // blakeblackshear/frigate PR #17805 (a user's `dmesg | grep hailo`, driver 4.20.1), cut where the stored comment stops.
  // hailort-drivers v4.20.1 common/pcie_common.c: pr_warn("Failed to write file %s"), and return only if the file is mandatory
  // — hailo8_board_cfg.bin is not; the next line is its `File … written successfully`.
  const r = read([
    '➜  ~ dmesg |grep hailo',
    '[    5.104590] hailo: Init module. driver version 4.20.1',
    '[    5.110551] hailo 0000:01:00.0: Probing on: 1e60:2864...',
    '[    5.148402] hailo 0000:01:00.0: Disabling ASPM L0s ',
    '[    5.148411] hailo 0000:01:00.0: Successfully disabled ASPM L0s ',
    '[    5.148486] hailo 0000:01:00.0: Writing file hailo/hailo8_fw.bin',
    '[    5.201944] hailo 0000:01:00.0: File hailo/hailo8_fw.bin written successfully',
    '[    5.211695] hailo 0000:01:00.0: Writing file hailo/hailo8_board_cfg.bin',
    '[    5.241197] Failed to write file hailo/hailo8_board_cfg.bin',
  ]);
  assert.equal(r.outcome, 'incomplete', said(r));
  assert.equal(errors(r).length, 0, said(r));
  assert.ok(
    r.diagnostics.some((d) => d.code === 'hailort/driver' && d.severity === 'warning' && /hailo8_board_cfg\.bin/.test(d.message)),
    said(r),
  );
});

test("the driver's probe ends with the device's node; its steps' own 'successfully' are no end (home-assistant/operating-system#3663)", () => {
  // A user's `dmesg | grep hailo` with driver 4.17.0 on a Raspberry Pi 5 (the description): no firmware file, and
  // the probe goes on to add /dev/hailo0 (linux/pcie/src/pcie.c hailo_pcie_probe's last line before `return 0`).
  const probe = [
    '➜  ~ dmesg | grep hailo',
    '[    1.428301] hailo: Init module. driver version 4.17.0',
    '[    1.428437] hailo 0000:04:00.0: Probing on: 1e60:2864...',
    '[    1.428520] hailo 0000:04:00.0: Disabling ASPM L0s ',
    '[    1.428524] hailo 0000:04:00.0: Successfully disabled ASPM L0s ',
    '[    1.428669] hailo 0000:04:00.0: Firmware file not found (/lib/firmware/hailo/hailo8_fw.bin), please upload the firmware manually ',
    '[    1.440794] hailo 0000:04:00.0: Probing: Added board 1e60-2864, /dev/hailo0',
  ];
  const whole = read(probe);
  assert.equal(whole.outcome, 'success', said(whole));
  assert.ok(
    whole.diagnostics.some((d) => d.code === 'hailort/driver' && d.severity === 'warning'),
    said(whole),
  );
  // The device's line is a record of its own, never the rest of the warning before it.
  assert.doesNotMatch(said(whole), /Added board/);
  // Cut right after a step's `Successfully disabled ASPM L0s`: the probe had not ended.
  assert.equal(read(probe.slice(0, 5)).outcome, 'incomplete');
});

test("a mandatory firmware file the driver could not write stops the probe: the driver's error, in its own words", () => {
  // hailort-drivers common/pcie_common.c since v4.21.0 (pr_err, mandatory files only) and linux/pcie/src/pcie.c v4.20.1
  // (load_nnc_firmware after the batch failed): the format strings, filled as the kernel prints them.
  for (const line of [
    '[    5.2] Failed with error -2 to write file hailo/hailo8_fw.bin',
    '[    5.2] hailo 0000:01:00.0: Failed writing NNC firmware files. err -2',
  ]) {
    const r = read(['[    5.1] hailo 0000:01:00.0: Writing file hailo/hailo8_fw.bin', line]);
    assert.equal(r.outcome, 'failed', `${line}: ${said(r)}`);
    assert.ok(
      errors(r).some((d) => d.code === 'hailort/driver'),
      `${line}: ${said(r)}`,
    );
  }
});

// ---- the names a HailoRT failure's later lines carry -----------------------------------------------------------------

test("a caller's words after the status name the element and stream that failed (dfc-corpus unseen13/54)", () => {
  // hailo-ai/Hailo-Application-Code-Examples#143: the C++ vstream example's write of yolov8m's input times out.
  const r = read([
    '-I- Started write thread: yolov8m/input_layer1 (640, 640, 3)',
    '[HailoRT] [error] CHECK failed - Got HAILO_TIMEOUT while waiting for descriptors in write_buffer (channel_id=0:2)',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_TIMEOUT(4)',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_TIMEOUT(4) - HwWriteElement3_yolov8m/input_layer1 (H2D) failed with status=HAILO_TIMEOUT(4)',
    '[HailoRT] [error] CHECK failed - Got HAILO_TIMEOUT while waiting for descriptors in write_buffer (channel_id=0:2)',
  ]);
  const timeouts = errors(r).filter((d) => d.code === 'hailort/timeout');
  assert.equal(timeouts.length, 1, said(r));
  assert.match(timeouts[0].message, /HwWriteElement3_yolov8m\/input_layer1 \(H2D\) failed/);
});

test("each stream's check of one HailoRT failure is named in it (dfc-corpus tune2/12's D2H timeouts)", () => {
  // A Korean YOLOP experiment log on a Raspberry Pi 5 with a Hailo (dfc-corpus tune2/12, library file id 53183565746): one
  // timeout, each output stream's check of it on a line of its own.
  const r = read([
    '[INFO] 🚀 FINAL RPi+Hailo Benchmark Started (Dual Latency Mode)',
    '[HailoRT] [error] CHECK failed - UserBuffQEl2model/conv72 (D2H) failed with status=HAILO_TIMEOUT(4) (timeout=10000ms)',
    '[HailoRT] [error] CHECK failed - UserBuffQEl1model/conv65 (D2H) failed with status=HAILO_TIMEOUT(4) (timeout=10000ms)',
    '[HailoRT] [error] CHECK failed - UserBuffQEl3model/ne_activation_activation1 (D2H) failed with status=HAILO_TIMEOUT(4) (timeout=10000ms)',
    '[HailoRT] [error] CHECK failed - UserBuffQEl3model/conv57 (D2H) failed with status=HAILO_TIMEOUT(4) (timeout=10000ms)',
  ]);
  const timeouts = errors(r).filter((d) => d.code === 'hailort/timeout');
  assert.equal(timeouts.length, 1, said(r));
  for (const stream of ['model/conv72', 'model/conv65', 'model/ne_activation_activation1', 'model/conv57'])
    assert.ok(timeouts[0].message.includes(stream), `${stream}: ${said(r)}`);
});
