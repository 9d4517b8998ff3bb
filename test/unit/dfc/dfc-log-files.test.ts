// The classes the eighth batch of users' logs (dfc-corpus unseen7/) showed the reader missing: the log files the
// DFC and HailoRT write themselves, which users commit by accident — the DFC's hailo_sdk.client.log (Python
// logging's `time - LEVEL - file.py:N - message`, with the DFC's own IMPORTANT level) and hailo_sdk.core.log (the
// compiler's `[time] [default] [level] message`), HailoRT's hailort.log (hailort_logger.cpp: the main file's
// `[time] [PID] [TID] [HailoRT] [level] [file:line] [function] message`, the local file's without the PID). Such a
// file holds what a finished stage writes there and nothing of the console's (the allocator's lines go to the
// core log, a failed run's traceback nowhere: it just stops), appends every run, and logs at info what the console
// would not show. The lines here are written for these tests — other models, stages, releases and runs than the
// batch's — in those files' real forms; the messages are the DFC's and HailoRT's own (test/fixtures/dfc/SOURCES.md,
// core/common/dfcMessages.ts). The file and line columns of the DFC's lines are illustrative: the reader skips them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { normaliseLine } from '../../../server/src/core/dfc/normalise';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const stages = (r: ReturnType<typeof read>) => Object.fromEntries(r.stages.map((s) => [s.name, s.status]));
const errors = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code);

/** A line of hailo_sdk.client.log. */
const client = (time: string, level: string, where: string, message: string) =>
  `2025-11-03 ${time},${String(time.length * 7).padStart(3, '0')} - ${level} - ${where} - ${message}`;
/** A line of hailo_sdk.core.log (the compiler's spdlog file). */
const core = (time: string, level: string, message: string) => `[2025-11-04 ${time}.512] [default] [${level}] ${message}`;
/** A line of HailoRT's main log file (~/.hailo/hailort/hailort.log): PID, then TID. */
const rt = (time: string, pid: number, tid: number, level: string, where: string, message: string) =>
  `[2025-11-05 ${time}.100] [${pid}] [${tid}] [HailoRT] [${level}] [${where}] ${message}`;

test("the DFC's log file line form: time, level (IMPORTANT too), the caller's file:line, then the console's own words", () => {
  assert.equal(normaliseLine(client('10:00:01', 'IMPORTANT', 'sdk_backend.py:1133', 'Starting Model Optimization')), '[info] Starting Model Optimization');
  assert.equal(
    normaliseLine(
      client(
        '10:00:02',
        'WARNING',
        'mo_config.py:168',
        "Reducing optimization level to 0 (the accuracy won't be optimized and compression won't be used) because there's no available GPU",
      ),
    ),
    "[warning] Reducing optimization level to 0 (the accuracy won't be optimized and compression won't be used) because there's no available GPU",
  );
  assert.equal(
    normaliseLine(client('10:00:03', 'INFO', 'parser.py:288', 'Translation completed on ONNX model resnet50 (completion time: 00:00:00.80)')),
    '[info] Translation completed on ONNX model resnet50 (completion time: 00:00:00.80)',
  );
  // A `hailo parser` run as the file records it (the CLI's banner, then the parser's lines): it ended after parsing.
  const r = read([
    client('14:02:11', 'INFO', 'main.py:34', 'Current Time: 14:02:11, 11/03/25'),
    client('14:02:12', 'INFO', 'main.py:55', 'Hailo DFC Version: 3.31.0'),
    client('14:02:12', 'INFO', 'main.py:60', 'HailoRT Version: 4.21.0'),
    client('14:02:12', 'INFO', 'main.py:109', 'Running `hailo parser onnx resnet50.onnx --hw-arch hailo8`'),
    client('14:02:14', 'INFO', 'parser.py:158', 'Translation started on ONNX model resnet50'),
    client('14:02:14', 'INFO', 'parser.py:193', 'Restored ONNX model resnet50 (completion time: 00:00:00.20)'),
    client('14:02:15', 'INFO', 'parser.py:367', "End nodes mapped from original model: '/fc/Gemm'."),
    client('14:02:15', 'INFO', 'parser.py:288', 'Translation completed on ONNX model resnet50 (completion time: 00:00:00.80)'),
    client('14:02:15', 'INFO', 'client_runner.py:1881', 'Saved HAR to: /work/resnet50.har'),
  ]);
  assert.equal(r.outcome, 'success');
  assert.deepEqual(r.stages[0], { name: 'parse', status: 'ok', seconds: 0.8 });
  assert.equal(r.dfcVersion, '3.31.0');
  assert.equal(r.hwArch, 'hailo8');
  // An optimize whose error the DFC logged at ERROR: read as the console's `[error]` line (a stage's error, the run failed).
  const failed = read([
    client('15:00:00', 'INFO', 'main.py:109', 'Running `hailo compiler yolov8s.har --hw-arch hailo8l`'),
    client('15:00:02', 'INFO', 'compiler_cli.py:81', 'Compiling network'),
    client(
      '15:00:02',
      'ERROR',
      'sdk_backend.py:1210',
      'Model requires quantized weights in order to run on HW, but none were given. Did you forget to quantize?',
    ),
  ]);
  assert.equal(failed.outcome, 'failed');
  assert.equal(failed.failedStage, 'compile');
  assert.deepEqual(errors(failed), ['dfc/not-quantized']);
});

test("what a stage writes to the DFC's log file: a compile is its advice line and the HAR or HEF it saves", () => {
  // The Python API's compile of a quantized HAR: the allocator's lines go to the core log, the client log has the
  // compiler's advice (hailo_tools_runner.py) and the compiled HAR saved after it.
  const compile = [
    client('16:00:00', 'INFO', 'client_runner.py:501', 'Loading model script commands to yolov8s from /work/yolov8s.alls'),
    client(
      '16:00:01',
      'INFO',
      'hailo_tools_runner.py:510',
      'To achieve optimal performance, set the compiler_optimization_level to "max" by adding performance_param(compiler_optimization_level=max) to the model script. Note that this may increase compilation time.',
    ),
  ];
  const done = read([...compile, client('16:21:40', 'INFO', 'client_runner.py:1881', 'Saved HAR to: /work/yolov8s_compiled.har')]);
  assert.equal(done.outcome, 'success');
  assert.deepEqual(stages(done), { parse: 'not-reached', optimize: 'not-reached', compile: 'ok' });
  // The same compile that just stops (a failed or interrupted run writes nothing more to the file): no success invented.
  const stopped = read(compile);
  assert.equal(stopped.outcome, 'incomplete');
  assert.equal(stages(stopped).compile, 'running');
  // `hailo compiler`'s own end (compiler_cli.py): `Compilation complete` ends the compile even when the excerpt stops before `Saved HEF to:`.
  const cli = [
    client('17:00:00', 'INFO', 'main.py:109', 'Running `hailo compiler yolov8s_optimized.har --hw-arch hailo15h`'),
    client('17:00:02', 'INFO', 'compiler_cli.py:81', 'Compiling network'),
  ];
  assert.equal(read([...cli, client('17:09:40', 'INFO', 'compiler_cli.py:86', 'Compilation complete')]).outcome, 'success');
  assert.equal(read(cli).outcome, 'incomplete');
});

test('a run whose last stage finished but that loaded a model script for its next step, then stops, is not a success', () => {
  // The console's form too: `Loading model script commands` comes before an optimize or a compile (test/fixtures/dfc/success-dfc3-hailomz).
  const optimized = [
    '[info] Starting Model Optimization',
    '[info] Using dataset with 64 entries for calibration',
    '[info] Model Optimization is done',
    '[info] Saved HAR to: /work/mobilenet_v2_optimized.har',
  ];
  assert.equal(read(optimized).outcome, 'success');
  const stops = read([...optimized, '[info] Loading model script commands to mobilenet_v2 from /work/compile.alls']);
  assert.equal(stops.outcome, 'incomplete');
  // The step after it that ends (a compile's HAR saved) ends the run.
  assert.equal(
    read([...optimized, '[info] Loading model script commands to mobilenet_v2 from /work/compile.alls', '[info] Saved HAR to: /work/mobilenet_v2_compiled.har'])
      .outcome,
    'success',
  );
});

test("the `hailo profiler` CLI's report ends a profile, whatever stage ran (none, for a compiled HAR)", () => {
  const profile = [
    client('18:00:00', 'INFO', 'main.py:55', 'Hailo DFC Version: 3.30.0'),
    client('18:00:00', 'INFO', 'main.py:109', 'Running `hailo profiler resnet_v1_50_compiled.har`'),
    client('18:00:03', 'INFO', 'client_runner.py:1474', 'Running profile for resnet_v1_50 in state compiled_model'),
  ];
  const done = read([...profile, client('18:00:05', 'INFO', 'profiler.py:71', 'Saved Profiler HTML Report to: /work/resnet_v1_50_compiled_model.html')]);
  assert.equal(done.outcome, 'success');
  assert.deepEqual(errors(done), []);
  assert.equal(read(profile).outcome, 'incomplete');
});

test('several runs appended to one log file: the last run decides, an earlier failure stays as a warning', () => {
  // A whole flow, then a second model's translation that stops (a failed parse writes no traceback to the file).
  const first = [
    '[info] Translation started on ONNX model yolov5s',
    '[info] Translation completed on ONNX model yolov5s (completion time: 00:00:01.10)',
    '[info] Starting Model Optimization',
    '[info] Model Optimization is done',
    '[info] Starting Hailo allocation and compilation flow',
    '[info] Successful Mapping (allocation time: 1m 5s)',
    '[info] Successful Compilation (compilation time: 4s)',
  ];
  assert.equal(read(first).outcome, 'success');
  const second = read([...first, '[info] Translation started on ONNX model yolov5m', '[info] Restored ONNX model yolov5m (completion time: 00:00:00.09)']);
  assert.equal(second.outcome, 'incomplete');
  assert.deepEqual(stages(second), { parse: 'running', optimize: 'not-reached', compile: 'not-reached' });
  // Two `hailo` commands in the client log: a compile of an unoptimized HAR refused, then the optimize the user ran next.
  const retried = read([
    client('19:00:00', 'INFO', 'main.py:109', 'Running `hailo compiler yolov5s.har --hw-arch hailo8`'),
    client('19:00:02', 'INFO', 'compiler_cli.py:81', 'Compiling network'),
    client(
      '19:00:02',
      'ERROR',
      'sdk_backend.py:1210',
      'Model requires quantized weights in order to run on HW, but none were given. Did you forget to quantize?',
    ),
    client('19:03:00', 'INFO', 'main.py:34', 'Current Time: 19:03:00, 11/03/25'),
    client('19:03:00', 'INFO', 'main.py:109', 'Running `hailo optimize yolov5s.har --calib-set-path calib.npy`'),
    client('19:03:05', 'IMPORTANT', 'sdk_backend.py:1133', 'Starting Model Optimization'),
    client('19:05:05', 'IMPORTANT', 'sdk_backend.py:1145', 'Model Optimization is done'),
    client('19:05:06', 'INFO', 'client_runner.py:1881', 'Saved HAR to: /work/yolov5s_optimized.har'),
  ]);
  assert.equal(retried.outcome, 'success');
  assert.deepEqual(errors(retried), []);
  assert.ok(retried.diagnostics.some((d) => d.code === 'dfc/not-quantized' && d.severity === 'warning' && /earlier run/.test(d.message)));
  // The same refusal, then the CLI run again on the optimized HAR, which stops while compiling: the second run decides —
  // it is not over (before: the first run's error failed it), and its compile is not the first one's recovering.
  const again = read([
    client('20:00:00', 'INFO', 'main.py:109', 'Running `hailo compiler yolov5s.har --hw-arch hailo8`'),
    client('20:00:02', 'INFO', 'compiler_cli.py:81', 'Compiling network'),
    client(
      '20:00:02',
      'ERROR',
      'sdk_backend.py:1210',
      'Model requires quantized weights in order to run on HW, but none were given. Did you forget to quantize?',
    ),
    client('20:10:00', 'INFO', 'main.py:109', 'Running `hailo compiler yolov5s_optimized.har --hw-arch hailo8`'),
    client('20:10:02', 'INFO', 'compiler_cli.py:81', 'Compiling network'),
  ]);
  assert.equal(again.outcome, 'incomplete');
  assert.deepEqual(errors(again), []);
  // A command line an author writes after the output (the fix they ran next) is no banner of another run: the failure stands.
  const noted = read([
    '[info] Starting Hailo allocation and compilation flow',
    '[error] Mapping Failed (allocation time: 2s)',
    '$ hailomz compile yolov8n --hw-arch hailo8l --performance',
  ]);
  assert.equal(noted.outcome, 'failed');
  assert.deepEqual(errors(noted), ['dfc/allocation-failed']);
  // HailoRT opening a device inside a DFC stage (the SDK's inference on a device) is no new run: the parse before it stays.
  const onDevice = read([
    '[info] Translation started on ONNX model yolov8n',
    '[info] Translation completed on ONNX model yolov8n',
    '[info] Starting Model Optimization',
    '[HailoRT] [info] Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false',
    '[info] Model Optimization is done',
  ]);
  assert.deepEqual(stages(onDevice), { parse: 'ok', optimize: 'ok', compile: 'not-reached' });
  // The compiler's own log: each compile opens with the command that ran it; a failed one, then one that succeeds.
  const compiles = read([
    core('09:00:00', 'info', 'Ran from command: "/usr/bin/hailo compiler yolov5s_optimized.har"'),
    core('09:00:01', 'info', 'Starting Hailo allocation and compilation flow'),
    core('09:02:10', 'error', 'Mapping Failed (allocation time: 2m 9s)'),
    'No successful assignments: concat17 errors:',
    '\tAgent infeasible',
    core('09:30:00', 'info', 'Ran from command: "/usr/bin/hailo compiler yolov5s_optimized.har --hw-arch hailo8"'),
    core('09:30:01', 'info', 'Starting Hailo allocation and compilation flow'),
    core('09:31:40', 'info', 'Successful Mapping (allocation time: 1m 39s)'),
    core('09:31:44', 'info', 'Successful Compilation (compilation time: 4s)'),
  ]);
  assert.equal(compiles.outcome, 'success');
  assert.deepEqual(errors(compiles), []);
  assert.ok(compiles.diagnostics.some((d) => d.code === 'dfc/allocation-failed' && /earlier run/.test(d.message)));
  // HailoRT's main log file: a process refused the device, a later one opens it and configures its HEF (info only).
  const refused = [
    rt(
      '08:00:00',
      4100,
      4100,
      'info',
      'vdevice.cpp:523',
      '[create] Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false',
    ),
    rt(
      '08:00:00',
      4100,
      4100,
      'error',
      'vdevice.cpp:820',
      '[create_devices] CHECK failed - Failed to create vdevice. there are not enough free devices. requested: 1, found: 0',
    ),
    rt('08:00:00', 4100, 4100, 'error', 'vdevice.cpp:631', '[create] CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)'),
  ];
  const later = [
    rt(
      '08:05:00',
      4212,
      4212,
      'info',
      'vdevice.cpp:523',
      '[create] Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false',
    ),
    rt(
      '08:05:00',
      4212,
      4212,
      'info',
      'device.cpp:49',
      '[Device] OS Version: Linux 6.6.31+rpt-rpi-2712 #1 SMP PREEMPT Debian 1:6.6.31-1+rpt1 (2024-05-29) aarch64',
    ),
    rt('08:05:01', 4212, 4230, 'info', 'device_internal.cpp:57', '[configure] Configuring HEF took 10.5 milliseconds'),
  ];
  const then = read([...refused, ...later]);
  assert.notEqual(then.outcome, 'failed');
  assert.equal(then.outcome, 'incomplete', 'the later process shows no answer: nothing says it succeeded');
  assert.ok(then.diagnostics.some((d) => d.code === 'hailort/out-of-physical-devices' && d.severity === 'warning'));
  // The other order: the last process is the one refused.
  const last = read([...later, ...refused]);
  assert.equal(last.outcome, 'failed');
  assert.deepEqual(errors(last), ['hailort/out-of-physical-devices']);
});

test('an info line that names a resource is no failure; the same message at error level, or bare, is', () => {
  // The compiler logs each failed attempt of its search at info and goes on (hailo_sdk.core.log).
  const search = [
    core('11:00:00', 'info', 'Starting Hailo allocation and compilation flow'),
    core('11:00:05', 'info', 'Using Multi-context flow'),
    core('11:00:05', 'info', 'Finding the best partition to contexts...'),
    core('11:00:40', 'info', 'Iteration failed on: Automri finished with too many resources on context_1'),
    core('11:00:52', 'info', 'Iteration failed on: Automri finished with too many resources on context_2'),
  ];
  const searching = read(search);
  assert.equal(searching.outcome, 'incomplete');
  assert.deepEqual(errors(searching), []);
  const found = read([
    ...search,
    core('11:02:10', 'info', 'Found valid partition to 3 contexts'),
    core('11:09:31', 'info', 'Successful Mapping (allocation time: 9m 31s)'),
    core('11:09:35', 'info', 'Building HEF...'),
    core('11:09:40', 'info', 'Successful Compilation (compilation time: 9s)'),
  ]);
  assert.equal(found.outcome, 'success');
  assert.deepEqual(found.diagnostics, []);
  // The console prints the same search at `[info] ` (its own level): no failure either.
  assert.deepEqual(
    errors(read(['[info] Finding the best partition to contexts...', '[info] Iteration failed on: Automri finished with too many resources on context_0'])),
    [],
  );
  // The compile's failure is an error line: then it failed, in compile.
  const failed = read([...search, core('11:40:00', 'error', 'Mapping Failed (allocation time: 40m 0s)')]);
  assert.equal(failed.outcome, 'failed');
  assert.equal(failed.failedStage, 'compile');
  assert.deepEqual(errors(failed), ['dfc/allocation-failed']);
  // A bare line (no level: the allocator's report the console prints on its own, test/fixtures/dfc/partition-failed) still says it.
  assert.deepEqual(
    errors(read(['[info] Finding the best partition to contexts...', 'Automri finished with too many resources on context_3 with 12/20 failures.'])),
    ['dfc/allocation-failed'],
  );
});

test("HailoRT's own info lines are the library's steps, not the application's word that its run succeeded", () => {
  // hailort.log holds only HailoRT's lines (its file level is info, hailort_logger.hpp): a process that configured its
  // model and stops there says nothing of how the application's run ended. HailoRT does log a run's end — its pipeline's
  // shutdown and queues' destruction, a network group's deactivation (v4.20.0 source lines: dfc-unseen26-runtime.test.ts,
  // docs/dfc-log.md) — so a log without them was cut or its process killed.
  const configured = [
    rt(
      '12:00:00',
      5100,
      5100,
      'info',
      'vdevice.cpp:523',
      '[create] Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false',
    ),
    rt('12:00:01', 5100, 5120, 'info', 'internal_buffer_manager.cpp:212', '[print_execution_results] Default Internal buffer planner executed successfully'),
    rt('12:00:01', 5100, 5120, 'info', 'device_internal.cpp:57', '[configure] Configuring HEF took 9.8 milliseconds'),
  ];
  const r = read(configured);
  assert.equal(r.outcome, 'incomplete');
  assert.deepEqual(r.diagnostics, []);
  // The application's own word (its console, not HailoRT's) still ends its run (docs/dfc-log.md, "What ran").
  assert.equal(read([...configured, 'Inference was successful!']).outcome, 'success');
});

// The tenth batch's classes (dfc-corpus unseen9/): the DFC's first-run check log, HailoRT's side threads, the core log's failures.

test("the DFC's system check log: every row's wording — a package not found, RAM below the recommendation, a library too old", () => {
  // .install_logs/hailo_installation_log_<time>.log holds the check alone: one line per unmet row of its table
  // (Component / Requirement / Found), [Error] for a required row, [Warning] for a recommended one.
  const r = read([
    '[Error] Requirement libgraphviz-dev not found.',
    '[Error] See full log: /home/u/proj/.install_logs/hailo_installation_log_2025.03.02T09:11:40.log',
    '[Warning] It is recommended to have 32 GB of RAM, while this system has only 12 GB.',
    '[Warning] CUDA version should be 12.5 or higher, found 11.8',
  ]);
  const d = r.diagnostics.filter((x) => x.code === 'dfc/system-requirements');
  assert.equal(d.length, 1);
  assert.match(
    d[0].message,
    /Requirement libgraphviz-dev not found.*32 GB of RAM, while this system has only 12 GB.*CUDA version should be 12\.5 or higher, found 11\.8/,
  );
  // Recommendations alone are a warning: the check runs on.
  const w = read([
    '[Warning] It is recommended to have 32 GB of RAM, while this system has only 24 GB.',
    '[Warning] GPU-Driver version should be 555 or higher, found 535',
  ]);
  assert.deepEqual(
    w.diagnostics.map((x) => [x.code, x.severity]),
    [['dfc/system-requirements', 'warning']],
  );
  assert.match(w.diagnostics[0].message, /24 GB.*GPU-Driver version should be 555/);
});

test("the compiler's verdict ends the run at whatever level its core log writes it, and the exception after it names the layer", () => {
  // DFC 3.33's hailo_sdk.core.log writes the search's end at info, in red (ANSI kept in the file): `Mapping Failed`,
  // then the compiler's exception. The search's attempts at info before it stay quiet.
  const search = [
    core('08:00:00', 'info', 'Finding the best partition to contexts...'),
    core('08:00:09', 'info', 'Iteration failed on: Automri finished with too many resources on context_1 with 3/18 failures.'),
  ];
  const r = read([
    ...search,
    core('08:20:31', 'info', '\x1b[1;41mMapping Failed (allocation time: 20m 31s)\x1b[0m'),
    core('08:20:31', 'info', 'Compilation failed with exception: Unsupported kernel shape 7x1 for layer conv_block4/dw2'),
  ]);
  assert.deepEqual([r.outcome, r.failedStage], ['failed', 'compile']);
  assert.deepEqual(errors(r), ['dfc/allocation-failed']);
  assert.match(r.diagnostics[0].message, /Unsupported kernel shape 7x1 for layer conv_block4\/dw2/);
  // Without its verdict, an exception's words at info far from any are not taken for one.
  assert.deepEqual(errors(read(search)), []);
});

test("HailoRT's monitor thread failing is a warning about the monitor, and a pipeline torn down ends the application's run", () => {
  // monitor_handler.cpp's dump_state and write_utilization_to_file log their failure and return; the monitor thread
  // loops on (https://github.com/hailo-ai/hailort). The lines here: another TID, another file, another errno.
  const run = [
    rt(
      '09:00:00',
      7100,
      7100,
      'info',
      'vdevice.cpp:523',
      '[create] Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false',
    ),
    rt('09:00:01', 7100, 7100, 'info', 'device_internal.cpp:57', '[configure] Configuring HEF took 12.5 milliseconds'),
    rt('09:00:02', 7100, 7100, 'info', 'vstream.cpp:754', '[InputVStreamImpl] Creating resnet_v1_50/input_layer1...'),
    rt(
      '09:01:02',
      7100,
      7104,
      'error',
      'monitor_handler.cpp:112',
      '[write_utilization_to_file] Failed to open and lock file /tmp/hmon_files/nnc_utilization, with status: HAILO_OPEN_FILE_FAILURE(13)',
    ),
  ];
  const torn = rt(
    '09:05:00',
    7100,
    7100,
    'info',
    'queue_elements.cpp:46',
    '[~BaseQueueElement] Queue element PushQEl1resnet_v1_50/input_layer1 has 2 frames in his Queue on destruction',
  );
  const r = read([...run, torn]);
  assert.deepEqual(errors(r), []);
  assert.equal(r.diagnostics[0]?.severity, 'warning');
  assert.match(r.diagnostics[0].message, /monitor/);
  assert.equal(r.outcome, 'success');
  // Without the teardown the run stops where the file stops: nothing says how it ended.
  assert.equal(read(run).outcome, 'incomplete');
  // The same status from the run's own thread is the run's failure.
  const own = rt(
    '09:01:02',
    7100,
    7100,
    'error',
    'hef.cpp:1410',
    '[create] Failed to open file /models/resnet_v1_50.hef, with status: HAILO_OPEN_FILE_FAILURE(13)',
  );
  assert.equal(read([...run.slice(0, 3), own, torn]).outcome, 'failed');
});
