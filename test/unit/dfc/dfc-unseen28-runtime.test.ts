// The classes the twenty-ninth batch's HailoRT log (dfc-corpus unseen28/04) showed the reader missing, tested on lines that
// batch does not contain: a HailoRT log file's lines written out of time order — a session after a failed run whose lines
// are stamped before that run ended was written late, shows nothing after it and decides nothing (state.ts writtenLate) —
// and the shell's prompt back after the failure, which is never the failure message's continuation (errors.ts continues).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'hailort.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.severity} ${d.code} ${d.message}`).join(' | ');

// akryhlmann/PeopleCounter's hailort.1.log (b73d81d0), lines 4364–4386: the run of 2025-07-04 08:44 (HailoRT 4.20, Raspberry
// Pi 5) from its InferModel's configure to its pipeline's death — another run of the file than unseen28/04's (2025-07-03 21:50).
const RUN = [
  '[2025-07-04 08:44:03.103] [2122] [HailoRT] [info] [internal_buffer_manager.cpp:204] [print_execution_results] Planned internal buffer memory: CMA memory 0, user memory 5737984. memory to edge layer usage factor is 0.82343864',
  '[2025-07-04 08:44:03.103] [2122] [HailoRT] [info] [internal_buffer_manager.cpp:212] [print_execution_results] Default Internal buffer planner executed successfully',
  '[2025-07-04 08:44:03.146] [2122] [HailoRT] [info] [device_internal.cpp:57] [configure] Configuring HEF took 57.937479 milliseconds',
  '[2025-07-04 08:44:03.147] [2122] [HailoRT] [info] [vdevice.cpp:749] [configure] Configuring HEF on VDevice took 60.425356 milliseconds',
  "[2025-07-04 08:44:03.147] [2122] [HailoRT] [info] [infer_model.cpp:436] [configure] Configuring network group 'yolov8s' with params: batch size: 2, power mode: PERFORMANCE, latency: NONE",
  '[2025-07-04 08:44:03.151] [2122] [HailoRT] [info] [multi_io_elements.cpp:756] [create] Created (AsyncHwEl)',
  '[2025-07-04 08:44:03.151] [2122] [HailoRT] [info] [queue_elements.cpp:450] [create] Created (EntryPushQEl0yolov8s/input_layer1 | timeout: 10s)',
  '[2025-07-04 08:44:03.151] [2122] [HailoRT] [info] [filter_elements.cpp:101] [create] Created (PreInferEl0yolov8s/input_layer1 | Reorder - src_order: RGB4, src_shape: (640, 640, 3), dst_order: NHCW, dst_shape: (640, 640, 3))',
  '[2025-07-04 08:44:03.152] [2122] [HailoRT] [info] [queue_elements.cpp:450] [create] Created (PushQEl0yolov8s/input_layer1 | timeout: 10s)',
  '[2025-07-04 08:44:03.152] [2122] [HailoRT] [info] [multi_io_elements.cpp:135] [create] Created (NmsPPMuxEl0YOLOV8-Post-Process | Op YOLOV8, Name: YOLOV8-Post-Process, Score threshold: 0.300, IoU threshold: 0.45, Classes: 80, Cross classes: false, NMS results order: BY_CLASS, Max bboxes per class: 100, Image height: 640, Image width: 640)',
  '[2025-07-04 08:44:03.152] [2122] [HailoRT] [info] [queue_elements.cpp:942] [create] Created (MultiPushQEl0YOLOV8-Post-Process | timeout: 10s)',
  '[2025-07-04 08:44:03.152] [2122] [HailoRT] [info] [edge_elements.cpp:187] [create] Created (LastAsyncEl0NmsPPMuxEl0YOLOV8-Post-Process)',
  '[2025-07-04 08:44:03.152] [2122] [HailoRT] [info] [pipeline.cpp:891] [print_deep_description] EntryPushQEl0yolov8s/input_layer1 | inputs: user | outputs: PreInferEl0yolov8s/input_layer1(running in thread_id: 2145)',
  '[2025-07-04 08:44:03.153] [2122] [HailoRT] [info] [pipeline.cpp:891] [print_deep_description] PreInferEl0yolov8s/input_layer1 | inputs: EntryPushQEl0yolov8s/input_layer1[0] | outputs: PushQEl0yolov8s/input_layer1',
  '[2025-07-04 08:44:03.153] [2122] [HailoRT] [info] [pipeline.cpp:891] [print_deep_description] PushQEl0yolov8s/input_layer1 | inputs: PreInferEl0yolov8s/input_layer1[0] | outputs: AsyncHwEl(running in thread_id: 2146)',
  '[2025-07-04 08:44:03.153] [2122] [HailoRT] [info] [pipeline.cpp:891] [print_deep_description] AsyncHwEl | inputs: PushQEl0yolov8s/input_layer1[0] | outputs: MultiPushQEl0YOLOV8-Post-Process MultiPushQEl0YOLOV8-Post-Process MultiPushQEl0YOLOV8-Post-Process MultiPushQEl0YOLOV8-Post-Process MultiPushQEl0YOLOV8-Post-Process MultiPushQEl0YOLOV8-Post-Process',
  '[2025-07-04 08:44:03.153] [2122] [HailoRT] [info] [pipeline.cpp:891] [print_deep_description] MultiPushQEl0YOLOV8-Post-Process | inputs: AsyncHwEl[0] AsyncHwEl[1] AsyncHwEl[2] AsyncHwEl[3] AsyncHwEl[4] AsyncHwEl[5] | outputs: NmsPPMuxEl0YOLOV8-Post-Process(running in thread_id: 2147)',
  '[2025-07-04 08:44:03.153] [2122] [HailoRT] [info] [pipeline.cpp:891] [print_deep_description] NmsPPMuxEl0YOLOV8-Post-Process | inputs: MultiPushQEl0YOLOV8-Post-Process[0] | outputs: LastAsyncEl0NmsPPMuxEl0YOLOV8-Post-Process',
  '[2025-07-04 08:44:03.153] [2122] [HailoRT] [info] [pipeline.cpp:891] [print_deep_description] LastAsyncEl0NmsPPMuxEl0YOLOV8-Post-Process | inputs: NmsPPMuxEl0YOLOV8-Post-Process[0] | outputs: user',
  '[2025-07-04 08:44:03.156] [2122] [HailoRT] [info] [hef.cpp:1929] [get_network_group_and_network_name] No name was given. Addressing all networks of default network_group: yolov8s',
  '[2025-07-04 08:44:13.487] [2146] [HailoRT] [warning] [pipeline.cpp:441] [acquire_buffer] Failed to acquire buffer because the buffer pool is empty. This could be caused by uneven reading and writing speeds, with a short user-defined timeout. (timeout=10000ms)',
  '[2025-07-04 08:44:13.487] [2146] [HailoRT] [error] [pipeline_internal.cpp:26] [handle_non_recoverable_async_error] Non-recoverable Async Infer Pipeline error. status error code: HAILO_TIMEOUT(4)',
  '[2025-07-04 08:44:13.487] [2146] [HailoRT] [error] [async_infer_runner.cpp:88] [shutdown] Shutting down the pipeline with status HAILO_TIMEOUT(4)',
];
// Lines 4387–4392, as the file has them right after: the same process's session opening (thread 2085), stamped 08:44:02,
// eleven seconds before the failure — the file holds these six lines twice, identical, at 4358–4363 too.
const LATE = [
  '[2025-07-04 08:44:02.571] [2085] [HailoRT] [info] [vdevice.cpp:523] [create] Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false',
  '[2025-07-04 08:44:02.586] [2085] [HailoRT] [info] [device.cpp:49] [Device] OS Version: Linux 6.12.25+rpt-rpi-2712 #1 SMP PREEMPT Debian 1:6.12.25-1+rpt1 (2025-04-30) aarch64',
  '[2025-07-04 08:44:02.588] [2085] [HailoRT] [info] [control.cpp:108] [control__parse_identify_results] firmware_version is: 4.20.0',
  '[2025-07-04 08:44:02.591] [2085] [HailoRT] [info] [vdevice.cpp:651] [create] VDevice Infos: 0001:01:00.0',
  '[2025-07-04 08:44:02.936] [2085] [HailoRT] [info] [hef.cpp:1929] [get_network_group_and_network_name] No name was given. Addressing all networks of default network_group: yolov8s',
  '[2025-07-04 08:44:02.936] [2085] [HailoRT] [info] [hef.cpp:1929] [get_network_group_and_network_name] No name was given. Addressing all networks of default network_group: yolov8s',
];
// Lines 4412–4417: the file's next session, stamped 10:19, an hour and a half after the failure.
const NEXT = [
  '[2025-07-04 10:19:45.956] [2471] [HailoRT] [info] [vdevice.cpp:523] [create] Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false',
  '[2025-07-04 10:19:45.968] [2471] [HailoRT] [info] [device.cpp:49] [Device] OS Version: Linux 6.12.25+rpt-rpi-2712 #1 SMP PREEMPT Debian 1:6.12.25-1+rpt1 (2025-04-30) aarch64',
  '[2025-07-04 10:19:45.969] [2471] [HailoRT] [info] [control.cpp:108] [control__parse_identify_results] firmware_version is: 4.20.0',
  '[2025-07-04 10:19:45.969] [2471] [HailoRT] [info] [vdevice.cpp:651] [create] VDevice Infos: 0001:01:00.0',
  '[2025-07-04 10:19:46.061] [2471] [HailoRT] [info] [hef.cpp:1929] [get_network_group_and_network_name] No name was given. Addressing all networks of default network_group: yolov8s',
  '[2025-07-04 10:19:46.062] [2471] [HailoRT] [info] [hef.cpp:1929] [get_network_group_and_network_name] No name was given. Addressing all networks of default network_group: yolov8s',
];

test("a session's opening written after a pipeline's death but stamped before it shows nothing after it: the death is the log's end", () => {
  const r = read([...RUN, ...LATE]);
  assert.equal(r.outcome, 'failed', said(r));
  const timeout = r.diagnostics.find((d) => d.code === 'hailort/timeout');
  assert.ok(timeout, said(r));
  assert.equal(timeout.severity, 'error', said(r));
  // The author's own words after the pasted file are none of that session's lines either.
  const thanked = read([...RUN, ...LATE, '', 'Any help is appreciated.']);
  assert.equal(thanked.outcome, 'failed', said(thanked));
  // HailoRT's main log file writes the process id before the thread id (hailort_logger.cpp HAILORT_MAIN_FILE_LOGGER_PATTERN,
  // `[%Y-%m-%d %X.%e] [%P] [%t] [%n]`): the same lines in that template read the same.
  const main = read([...RUN, ...LATE].map((l) => l.replace(/^(\[[^\]]+\]) \[(\d+)\]/, (_, t: string, tid: string) => `${t} [2085] [${tid}]`)));
  assert.equal(main.outcome, 'failed', said(main));
});

test('a session opened after the death, stamped after it, is a later run and decides the outcome', () => {
  const r = read([...RUN, ...NEXT]);
  assert.notEqual(r.outcome, 'failed', said(r));
  assert.match(said(r), /warning hailort\/timeout An earlier run in this log failed/);
});

test('a run the user started again at the prompt keeps its own clock: an older log pasted after a newer one keeps its sessions', () => {
  // The same file's lines 1519–1538, two weeks before RUN (2025-06-19): a process refused the device (HAILO_OUT_OF_PHYSICAL_DEVICES),
  // then a new session (low pids again: the Pi had rebooted) configured yolov8s — the later session decides, alone or after
  // RUN at the prompt.
  const older = [
    '[2025-06-19 10:57:52.367] [4548] [HailoRT] [info] [control.cpp:108] [control__parse_identify_results] firmware_version is: 4.20.0',
    '[2025-06-19 10:57:52.418] [4544] [HailoRT] [info] [vdevice.cpp:523] [create] Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false',
    '[2025-06-19 10:57:52.419] [4544] [HailoRT] [info] [device.cpp:49] [Device] OS Version: Linux 6.12.25+rpt-rpi-2712 #1 SMP PREEMPT Debian 1:6.12.25-1+rpt1 (2025-04-30) aarch64',
    '[2025-06-19 10:57:52.420] [4544] [HailoRT] [info] [control.cpp:108] [control__parse_identify_results] firmware_version is: 4.20.0',
    '[2025-06-19 10:57:52.444] [4544] [HailoRT] [error] [vdevice.cpp:820] [create_devices] CHECK failed - Failed to create vdevice. there are not enough free devices. requested: 1, found: 0',
    '[2025-06-19 10:57:52.444] [4544] [HailoRT] [error] [vdevice.cpp:631] [create] CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)',
    '[2025-06-19 10:57:52.444] [4544] [HailoRT] [error] [shared_resource_manager.hpp:81] [register_resource] CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)',
    '[2025-06-19 10:57:52.444] [4544] [HailoRT] [error] [vdevice.cpp:132] [create] CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)',
    '[2025-06-19 10:57:52.444] [4544] [HailoRT] [error] [vdevice.cpp:554] [create] CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)',
    '[2025-06-19 10:59:01.071] [1915] [HailoRT] [info] [device.cpp:49] [Device] OS Version: Linux 6.12.25+rpt-rpi-2712 #1 SMP PREEMPT Debian 1:6.12.25-1+rpt1 (2025-04-30) aarch64',
    '[2025-06-19 10:59:01.072] [1915] [HailoRT] [info] [control.cpp:108] [control__parse_identify_results] firmware_version is: 4.20.0',
    '[2025-06-19 10:59:01.073] [1915] [HailoRT] [info] [control.cpp:108] [control__parse_identify_results] firmware_version is: 4.20.0',
    '[2025-06-19 10:59:07.228] [1932] [HailoRT] [info] [device.cpp:49] [Device] OS Version: Linux 6.12.25+rpt-rpi-2712 #1 SMP PREEMPT Debian 1:6.12.25-1+rpt1 (2025-04-30) aarch64',
    '[2025-06-19 10:59:07.229] [1932] [HailoRT] [info] [control.cpp:108] [control__parse_identify_results] firmware_version is: 4.20.0',
    '[2025-06-19 10:59:07.230] [1932] [HailoRT] [info] [control.cpp:108] [control__parse_identify_results] firmware_version is: 4.20.0',
    '[2025-06-19 10:59:07.595] [1928] [HailoRT] [info] [vdevice.cpp:523] [create] Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false',
    '[2025-06-19 10:59:07.610] [1928] [HailoRT] [info] [device.cpp:49] [Device] OS Version: Linux 6.12.25+rpt-rpi-2712 #1 SMP PREEMPT Debian 1:6.12.25-1+rpt1 (2025-04-30) aarch64',
    '[2025-06-19 10:59:07.611] [1928] [HailoRT] [info] [control.cpp:108] [control__parse_identify_results] firmware_version is: 4.20.0',
    '[2025-06-19 10:59:07.614] [1928] [HailoRT] [info] [vdevice.cpp:651] [create] VDevice Infos: 0001:01:00.0',
    '[2025-06-19 10:59:07.939] [1928] [HailoRT] [info] [hef.cpp:1929] [get_network_group_and_network_name] No name was given. Addressing all networks of default network_group: yolov8s',
  ];
  const prompt = 'pi@raspberrypi:~/PeopleCounter $ python3 counter.py';
  const alone = read([prompt, ...older]);
  const after = read([prompt, ...RUN, prompt, ...older]);
  assert.notEqual(alone.outcome, 'failed', said(alone));
  assert.equal(after.outcome, alone.outcome, said(after));
  assert.match(said(after), /warning hailort\/out-of-physical-devices An earlier run in this log failed/);
});

test("HailoRT's other words for a pipeline's death — another element, another status — end the log the same behind the late copy", () => {
  // What HailoRT 4.20 logs when an InferModel pipeline dies (libhailort/src/net_flow/pipeline, tag v4.20.0): a queue element's
  // thread failing (queue_elements.cpp:79), the element's non-recoverable error (pipeline_internal.cpp:26), the shutdown with
  // that status (async_infer_runner.cpp:88) and its terminate failing (:99, critical); statuses from hailort.h. Each as the
  // death's last line in RUN's place, RUN's own session opening written after it.
  const at = '[2025-07-04 08:44:13.487] [2146] [HailoRT]';
  const deaths = [
    `${at} [error] [queue_elements.cpp:79] [operator()] Queue element PushQEl0yolov8s/input_layer1 run in thread function failed! status = HAILO_INTERNAL_FAILURE(8)`,
    `${at} [error] [pipeline_internal.cpp:26] [handle_non_recoverable_async_error] Non-recoverable Async Infer Pipeline error. status error code: HAILO_OUT_OF_HOST_MEMORY(3)`,
    `${at} [error] [async_infer_runner.cpp:88] [shutdown] Shutting down the pipeline with status HAILO_INVALID_OPERATION(6)`,
    `${at} [critical] [async_infer_runner.cpp:99] [shutdown] Executing pipeline terminate failed with status HAILO_TIMEOUT(4)`,
  ];
  const before = RUN.slice(0, -3);
  for (const death of deaths) {
    const r = read([...before, death, ...LATE]);
    assert.equal(r.outcome, 'failed', `${death}: ${said(r)}`);
    assert.ok(
      r.diagnostics.some((d) => d.severity === 'error' && d.logLine === before.length + 1),
      `${death}: ${said(r)}`,
    );
  }
});

test("the shell's prompt back after a pipeline's death is the terminal's, never the death message's words", () => {
  // Raspberry Pi OS's default prompt (`user@host:~/dir $ `) right after the death's last line, which ends in its status's
  // `)` — as unseen3/11's `kida-01@kida01:~ $ uname -r` follows HailoRT's `…HAILO_DRIVER_NOT_INSTALLED(64)`.
  const prompt = 'pi@raspberrypi:~/PeopleCounter $ python3 counter.py';
  const r = read([prompt, ...RUN, prompt]);
  const quoted = r.diagnostics.flatMap((d) => [d.message, ...(d.excerpt ?? [])]).join('\n');
  assert.doesNotMatch(quoted, /raspberrypi/, said(r));
  // The program run again at that prompt is a retry (state.ts): it decides, and the death is an earlier run's.
  const retried = read([
    prompt,
    ...RUN,
    prompt,
    'Traceback (most recent call last):',
    '  File "/home/pi/PeopleCounter/counter.py", line 3, in <module>',
    'KeyboardInterrupt',
  ]);
  assert.match(said(retried), /warning hailort\/timeout An earlier run in this log failed/);
});
