// Four classes of what users paste that the set-aside half unseen/ showed the reader missed
// (docs/dfc-log.md "Scores"), each tested on message text of its own public source — HailoRT's
// (https://github.com/hailo-ai/hailort, the tag named), the kernel's errno list — not the corpus logs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constants } from 'node:os';
import { getSystemErrorName } from 'node:util';
import { readDfcLog } from '../../../server/src/core/dfc';
import { ERRNOS, errnoIn } from '../../../server/src/core/common/errno';

test("outcome: an application's run (no DFC stage) that ends in a HailoRT error line failed, whatever the catalogue knows of it", () => {
  // llm.cpp (v5.2.0): CHECK(!llm_params.hef().empty(), HAILO_INVALID_OPERATION, "Failed to create LLM. HEF was not set.")
  const r = readDfcLog('[HailoRT] [info] Creating VDevice\n[HailoRT] [error] CHECK failed - Failed to create LLM. HEF was not set.\n');
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'unknown');
  // HailoRT's failure (its CHECK returns a status, unseen here), not an unknown error of the DFC's (dfc-corpus unseen9/27).
  assert.equal(r.diagnostics[0]?.code, 'hailort/status');
  // Said as HailoRT's check, not as the DFC's error; the check's own words are quoted.
  assert.match(r.diagnostics[0].message, /^HailoRT failed a check this reader does not know: Failed to create LLM\. HEF was not set/);
  // inference_pipeline.cpp (v4.20.0), a spdlog line with its timestamp and pid.
  const ts = readDfcLog(
    '[2025-03-02 10:11:12.345] [4242] [HailoRT] [error] [inference_pipeline.cpp:274] [infer] CHECK failed - Memory size of vstream net/input_layer1 does not match the frame count! (Expected 1566720, got 0)\n',
  );
  assert.equal(ts.outcome, 'failed');
  assert.match(ts.diagnostics[0]?.message ?? '', /frame count/);
});

test("outcome: an application's log of warnings only is no failure; an error the run got past (its answer printed) ends nothing", () => {
  // device_internal.cpp (4.22.0) logs this at warning level: the HEF runs, slower.
  const w = readDfcLog('[HailoRT] [warning] HEF was compiled for Hailo8L device, while the device itself is Hailo8. This will result in lower performance.\n');
  assert.notEqual(w.outcome, 'failed');
  // hailortcli printed its result after the error line: the run ended with its answer.
  const answered = readDfcLog(
    '$ hailortcli run m.hef\n[HailoRT] [error] CHECK failed - Failed to create LLM. HEF was not set.\nRunning streaming inference (m.hef):\n> Inference result:\n Network group: m\n    Frames count: 317\n    FPS: 63.33\n',
  );
  assert.notEqual(answered.outcome, 'failed');
});

test('outcome: a DFC flow is not an application run — an unknown [error] line in a running stage leaves a cut log incomplete', () => {
  const r = readDfcLog('[info] Starting Model Optimization\n[error] CHECK failed - Failed to create LLM. HEF was not set.\n');
  assert.equal(r.outcome, 'incomplete');
});

test(
  "errno: the table is Linux's (names and values as this machine's libc and libuv know them)",
  { skip: process.platform !== 'linux' && 'errno values are Linux ones' },
  () => {
    const libc = constants.errno as Record<string, number>;
    assert.ok(ERRNOS.length >= 30, 'errno-base.h (1–34) and the network ones HailoRT meets');
    let checked = 0;
    for (const e of ERRNOS) {
      // Node exports the errno constants it knows (every one here but ENOTBLK).
      if (libc[e.name] !== undefined) {
        checked++;
        assert.equal(libc[e.name], e.value, `${e.name} is ${e.value} in os.constants.errno`);
      }
      // libuv names the errors it maps (most of them; not ENOEXEC, ECHILD …): the same name, or Linux's
      // alias of the same number (libuv says ENOTSUP for 95, which Linux defines as EOPNOTSUPP).
      const uv = getSystemErrorName(-e.value);
      if (!uv.startsWith('Unknown')) assert.ok(uv === e.name || libc[uv] === e.value, `libuv names -${e.value} ${uv}, the table ${e.name}`);
    }
    assert.ok(checked >= ERRNOS.length - 1, `${checked} of ${ERRNOS.length} checked against os.constants.errno`);
    // The forms a log prints an errno in: HailoRT's `errno: N`, `with errno: N`, Python's `[Errno N]`.
    assert.equal(errnoIn('Failed to continous buffer buffer with errno: 12')?.name, 'ENOMEM');
    assert.equal(errnoIn('Failed opening file: /dev/hailo0, with errno: 13')?.name, 'EACCES');
    assert.equal(errnoIn("OSError: [Errno 28] No space left on device: '/tmp/x.har'")?.name, 'ENOSPC');
    assert.equal(errnoIn('ioctl failed with errno = -16')?.name, 'EBUSY');
    assert.equal(errnoIn('exit status 12'), undefined);
  },
);

test("errno: HailoRT's errno under a driver status says what it is — ENOMEM is the host's memory, not the driver", () => {
  // hailort_driver.cpp (v4.20.0): LOGGER__ERROR("Failed to continous buffer buffer with errno: {}", errno), then the callers' status.
  const r = readDfcLog(
    '[HailoRT] [error] Failed to continous buffer buffer with errno: 12\n[HailoRT] [error] CHECK_EXPECTED failed with status=HAILO_DRIVER_FAIL(36)\n',
  );
  assert.equal(r.outcome, 'failed');
  assert.equal(r.diagnostics.length, 1);
  assert.equal(r.diagnostics[0].code, 'hailort/driver');
  assert.match(r.diagnostics[0].message, /errno 12 \(ENOMEM, out of memory\)/);
  assert.match(r.diagnostics[0].message, /not a driver fault: the host could not allocate the memory/i);
  assert.doesNotMatch(r.diagnostics[0].message, /read the driver's log/);
  // Another errno, another meaning: EBUSY is the device held by another process.
  const busy = readDfcLog(
    '[HailoRT] [error] Failed to continous buffer buffer with errno: 16\n[HailoRT] [error] CHECK_EXPECTED failed with status=HAILO_DRIVER_FAIL(36)\n',
  );
  assert.match(busy.diagnostics[0]?.message ?? '', /EBUSY, device or resource busy\).*another process holds the device/i);
});

test('allocation: a mapping that fails to reach the required FPS names the target the script or the log set', () => {
  const log = 'Mapping Failed\nCompilation failed: Failed to reach required FPS on the following layers: conv41, conv42\n';
  // The model zoo sets the target as performance_param(fps=330) (hailo_model_zoo cfg/alls/lprnet.alls).
  const script = 'normalization1 = normalization([0.0], [255.0])\nperformance_param(fps=330)\n';
  const r = readDfcLog(log, { allsPath: 's.alls', allsText: script });
  const d = r.diagnostics.find((x) => x.code === 'dfc/allocation-failed');
  assert.ok(d, JSON.stringify(r.diagnostics));
  assert.match(d.message, /The DFC names the cause \(the required FPS\): the target here is 330 FPS \(performance_param\(fps=330\) in the model script\)/);
  assert.equal(d.path, 's.alls');
  assert.equal(d.line, 2);
  // Without a script, the target a hailomz log echoes; without either, the cause and its advice still.
  const echoed = readDfcLog(`[info] Loading model script commands: performance_param(fps=60)\n${log}`);
  assert.match(echoed.diagnostics[0]?.message ?? '', /60 FPS \(performance_param\(fps=60\) in the log\)/);
  const bare = readDfcLog(log);
  assert.match(bare.diagnostics[0]?.message ?? '', /the required FPS\): the allocator could not give these layers the resources.*lower the fps target/);
});

test("hailort: HAILO_INVALID_HEF on a GenAI create is the HEF's release, not a damaged file — other INVALID_HEFs stay rejected HEFs", () => {
  // vlm.cpp (v5.2.0): LOGGER__ERROR("Failed to create VLM with status {}. Check device logs for more details.", …);
  // hef.cpp's validate_hef_version (STRICT_RUNTIME_VERSIONING) answers HAILO_INVALID_HEF for another DFC major.minor.
  const r = readDfcLog('[HailoRT] [error] Failed to create VLM with status HAILO_INVALID_HEF(26). Check device logs for more details.\n');
  assert.equal(r.outcome, 'failed');
  assert.equal(r.diagnostics[0]?.code, 'hailort/version-mismatch');
  assert.match(r.diagnostics[0].message, /HAILO_INVALID_HEF\(26\)/);
  assert.match(r.diagnostics[0].message, /major\.minor version than the installed HailoRT.*HEF for the installed HailoRT release/);
  const other = readDfcLog('[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INVALID_HEF(26)\n');
  assert.equal(other.diagnostics[0]?.code, 'hailort/hef-rejected');
  // A GenAI create that failed with another status is that status's family.
  const busy = readDfcLog('[HailoRT] [error] Failed to create LLM with status HAILO_OUT_OF_PHYSICAL_DEVICES(74). Check device logs for more details.\n');
  assert.equal(busy.diagnostics[0]?.code, 'hailort/out-of-physical-devices');
});
