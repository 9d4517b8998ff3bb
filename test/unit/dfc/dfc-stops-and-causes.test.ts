// The classes the ninth batch of users' logs (dfc-corpus unseen8/) showed the reader missing, tested on forms that
// batch does not contain: a run its user or a signal stopped (Python's KeyboardInterrupt, the shell's exit statuses
// 128+N), the cause a log's own words give beside a status or a failure (the OS's reason, the file, the component, the
// versions), the layer an allocator's message names, and the author's words before a quoted class read after a
// relay's prefix. Messages are the DFC's and HailoRT's own (core/common/dfcMessages.ts, test/fixtures/dfc/SOURCES.md);
// meanings are Python's and bash's documented ones (cited at each test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.node ?? ''} ${d.message}`).join(' | ');

test("the author's words before a quoted class are read after a logger's prefix: a `parser.py` column names no stage", () => {
  // A relay's Python logging column (`time - LEVEL - file.py:N - message`) names the file that logged, not the stage.
  const r = read(['2026-03-01 09:12:44,201 - ERROR - parser.py:214 - TensorShapeMismatchError: cannot build the tensor of node Add_17']);
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'unknown');
  // The author's own words after the prefix still say the stage.
  const r2 = read(['2026-03-01 09:12:44,201 - ERROR - parser.py:214 - the optimize step died with TensorShapeMismatchError: cannot build the tensor']);
  assert.equal(r2.failedStage, 'optimize');
});

// ---- a run its user or a signal stopped is no compiler bug -------------------------------------------------------
// Python raises KeyboardInterrupt when the user hits the interrupt key (Ctrl-C; https://docs.python.org/3/library/exceptions.html#KeyboardInterrupt).
// A shell reports a command a fatal signal N ended as 128+N (https://www.gnu.org/software/bash/manual/bash.html#Exit-Status):
// 130 SIGINT, 137 SIGKILL, 143 SIGTERM; bash prints strsignal's `Killed` / `Terminated` for a job a signal ended.
const compiling = [
  '[info] Loading model script commands to yolox_s from yolox_s.alls',
  '[info] Starting Hailo allocation and compilation flow',
  '[info] Finding the best partition to contexts...',
];
const codes = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => d.code);

test('a traceback that ends in KeyboardInterrupt during a compile is an interrupt, not a compiler bug', () => {
  const r = read([
    ...compiling,
    '[error] Compilation failed with unexpected crash',
    'Traceback (most recent call last):',
    '  File "/usr/local/lib/python3.10/dist-packages/hailo_sdk_client/tools/cmd_utils/main.py", line 111, in main',
    '    ret_val = client_command_runner.run()',
    '  File "/usr/local/lib/python3.10/dist-packages/hailo_sdk_client/sdk_backend/sdk_backend.py", line 1720, in compile',
    '    self._compile()',
    'KeyboardInterrupt',
  ]);
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'compile');
  assert.deepEqual(codes(r), ['dfc/interrupted']);
  assert.match(said(r), /interrupted during compile.*Ctrl-C/);
});

test("a logger's `builtins.KeyboardInterrupt` in an optimize says the optimize was interrupted", () => {
  const r = read(['[info] Starting Model Optimization', '[info] Starting Statistics Collector', 'ERROR:root:run failed: builtins.KeyboardInterrupt']);
  assert.deepEqual(codes(r), ['dfc/interrupted']);
  assert.match(said(r), /interrupted during optimize/);
});

test("the terminal's ^C echo and bash's `Terminated` end the run as killed by that signal, never as memory or a compiler bug", () => {
  const c = read([...compiling, '^C']);
  assert.equal(c.outcome, 'killed');
  assert.equal(c.failedStage, 'compile');
  assert.deepEqual(codes(c), ['dfc/interrupted']);
  assert.match(said(c), /SIGINT/);
  const t = read(['[info] Starting Model Optimization', './build.sh: line 12: 40711 Terminated              hailo optimize net.har']);
  assert.equal(t.outcome, 'killed');
  assert.deepEqual(codes(t), ['dfc/interrupted']);
  assert.match(said(t), /SIGTERM/);
  assert.doesNotMatch(said(t), /memory/);
});

test('exit statuses 130 and 143 (a caller or the log) read as SIGINT and SIGTERM; 137 stays the memory kill', () => {
  const text = `${compiling.join('\n')}\n[error] Failed to produce compiled graph\n`;
  const a = readDfcLog(text, { logPath: 'run.log' }, { code: 130 });
  assert.equal(a.outcome, 'killed');
  assert.deepEqual(codes(a), ['dfc/interrupted']);
  assert.match(said(a), /exit 130 = 128 \+ 2/);
  const b = readDfcLog(text, { logPath: 'run.log' }, { code: 143 });
  assert.deepEqual(codes(b), ['dfc/interrupted']);
  assert.match(said(b), /exit 143 = 128 \+ 15/);
  const jb = read(['[info] Starting Model Optimization', 'Process finished with exit code 130']);
  assert.equal(jb.outcome, 'killed');
  assert.deepEqual(codes(jb), ['dfc/interrupted']);
  const k = readDfcLog(text, { logPath: 'run.log' }, { code: 137 });
  assert.deepEqual(codes(k), ['dfc/memory-killed']);
});

test("an assertion the compiler printed before the user's Ctrl-C stays a compiler bug", () => {
  const r = read([...compiling, "compiler: ../src/allocator/agent.cpp:812: Assertion `cluster < 8' failed.", 'KeyboardInterrupt']);
  assert.ok(codes(r).includes('dfc/compiler-bug'), codes(r).join());
});

// ---- the layers an allocator's or the NMS config's message names ----------------------------------------------------
test("every layer the allocator's `L errors: Agent infeasible` lines name is in the one allocation diagnostic", () => {
  // The compiler's core log form (hailo_sdk.core.log: `[time] [default] [level] message`), layers of another model.
  const r = read([
    '[info] Starting Hailo allocation and compilation flow',
    '[2026-02-11 08:01:12.100] [default] [error] yolov5m/conv77 errors: Agent infeasible',
    '[2026-02-11 08:01:12.100] [default] [error] ew_add12 errors: Agent infeasible',
    '[2026-02-11 08:01:12.101] [default] [error] yolov5m/conv77 errors: Agent infeasible',
  ]);
  const alloc = r.diagnostics.filter((d) => d.code === 'dfc/allocation-failed');
  assert.equal(alloc.length, 1);
  assert.match(alloc[0].message, /layers yolov5m\/conv77, ew_add12 could not be placed/);
  assert.equal(r.failedStage, 'compile');
});

test("NMSConfigPostprocessException is the model script's NMS config, naming the head layer it quotes", () => {
  const r = read([
    '[info] Loading model script commands to yolov5m from yolov5m.alls',
    "ERROR:hailomz:NMSConfigPostprocessException: layer yolov5m/conv93 doesn't have one output layer",
  ]);
  const d = r.diagnostics.find((x) => x.code === 'dfc/model-script');
  assert.ok(d, r.diagnostics.map((x) => x.code).join());
  assert.match(d.message, /names yolov5m\/conv93 as a head layer.*nms_postprocess/);
});

// ---- the cause a log's own lines give beside a HailoRT failure -----------------------------------------------------
test("a HailoRT failure carries the OS's reason the lines around it give: the errno after it, strerror's words before it", () => {
  // Python's PermissionError after HailoRT's check: `[Errno 13] Permission denied` (errno 13 = EACCES, Linux errno-base.h).
  const a = read([
    '[HailoRT] [error] Failed opening file, path: /srv/models/scrfd.hef',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_OPEN_FILE_FAILURE(13)',
    "PermissionError: [Errno 13] Permission denied: '/srv/models/scrfd.hef'",
  ]);
  const d = a.diagnostics.find((x) => x.code === 'hailort/hef-rejected');
  assert.ok(d, a.diagnostics.map((x) => x.code).join());
  assert.match(d.message, /errno 13 \(EACCES, permission denied\)/);
  // strerror's words on the line before (`No such file or directory`, errno 2 = ENOENT).
  const b = read([
    'cp: cannot stat /models/a.hef: No such file or directory',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_OPEN_FILE_FAILURE(13)',
  ]);
  assert.match(b.diagnostics.find((x) => x.code === 'hailort/hef-rejected')!.message, /ENOENT/);
  // No reason on the lines around: nothing is added.
  const c = read(['[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_OPEN_FILE_FAILURE(13)']);
  assert.doesNotMatch(c.diagnostics[0].message, /OS's reason/);
});

test('a HailoRT failure in a log that names two HailoRT versions says they must be one version', () => {
  const r = read([
    '$ dpkg -l | grep hailo',
    'ii  hailort        4.21.0   arm64  HailoRT',
    'ii  hailort-pcie-driver  4.21.0   all  PCIe driver',
    'ImportError: libhailort.so.4.18.0: cannot open shared object file: No such file or directory',
    '[HailoRT] [error] CHECK failed - Failed to create vdevice. there are not enough free devices. requested: 1, found: 0',
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)',
  ]);
  const d = r.diagnostics.find((x) => x.code === 'hailort/out-of-physical-devices');
  assert.ok(d, r.diagnostics.map((x) => x.code).join());
  assert.match(d.message, /HailoRT versions 4\.18\.0 and 4\.21\.0: .*one version/);
  // One version named: nothing is said of versions.
  const one = read(['ii  hailort        4.21.0   arm64  HailoRT', '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)']);
  assert.doesNotMatch(one.diagnostics[0].message, /HailoRT versions/);
});

test("the PCIe driver's `Firmware file not found` (journalctl's form) is the device's missing firmware, with its path", () => {
  // hailort-drivers: request_firmware_direct failed → hailo_dev_warn(…"Firmware file not found (/lib/firmware/%s), please upload the firmware manually").
  const r = read([
    'Dec 06 10:00:01 cm5 kernel: hailo_pci 0001:01:00.0: Probing on: 1e60:45c4...',
    'Dec 06 10:00:01 cm5 kernel: hailo_pci 0001:01:00.0: Firmware file not found (/lib/firmware/hailo/hailo10h_fw.bin), please upload the firmware manually',
  ]);
  const d = r.diagnostics.find((x) => x.code === 'hailort/driver');
  assert.ok(d, r.diagnostics.map((x) => x.code).join());
  assert.equal(d.severity, 'warning');
  assert.match(d.message, /hailo10h_fw\.bin.*firmware/);
});

// ---- a later run that shows nothing but its start decides nothing --------------------------------------------------
test("a HailoRT log file whose next session shows only its start ends in the failed session's errors", () => {
  // HailoRT's local log file form (hailort_logger.cpp: no PID column; `[7731]` the writing thread), a failure, then the
  // next process's first line — another process, another thread (unseen15/65: thread 11233's run, then 15191's).
  let tid = 7731;
  const rt = (time: string, level: string, where: string, msg: string) => `[2026-04-02 ${time}.100] [${tid}] [HailoRT] [${level}] [${where}] ${msg}`;
  const session = () => [
    rt(
      '09:00:00',
      'info',
      'vdevice.cpp:535] [create',
      'Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false',
    ),
    rt('09:00:01', 'error', 'vdevice.cpp:123] [create', 'CHECK failed - Failed to create vdevice. there are not enough free devices. requested: 1, found: 0'),
    rt('09:00:01', 'error', 'vdevice.cpp:130] [create', 'CHECK_SUCCESS failed with status=HAILO_OUT_OF_PHYSICAL_DEVICES(74)'),
  ];
  const failed = session();
  tid = 7790;
  const r = read([
    ...failed,
    rt(
      '09:05:00',
      'info',
      'vdevice.cpp:535] [create',
      'Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false',
    ),
  ]);
  assert.equal(r.outcome, 'failed');
  const d = r.diagnostics.find((x) => x.code === 'hailort/out-of-physical-devices');
  assert.equal(d?.severity, 'error');
  assert.doesNotMatch(d.message, /earlier run/);
  // A next session that fails on its own decides, and the first one's errors stay an earlier run's.
  const again = read([...failed, ...session()]);
  assert.equal(again.outcome, 'failed');
  assert.ok(again.diagnostics.some((x) => x.severity === 'warning' && /earlier run/.test(x.message)));
});

test('a second VDevice the same HailoRT thread creates after a refusal is the same run: the refusal stands', () => {
  // unseen15/65's lines (HailoRT 4.20, thread 11233): the face detector's HEF cannot be opened, the same thread creates
  // another VDevice and loads the recognition model — one process going on, not a new run that decides.
  const t = (n: string, level: string, where: string, msg: string) => `[2026-07-02 15:19:54.${n}] [11233] [HailoRT] [${level}] [${where}] ${msg}`;
  const vdevice = 'Creating vdevice with params: device_count: 1, scheduling_algorithm: ROUND_ROBIN, multi_process_service: false';
  const lines = [
    t('486', 'info', 'vdevice.cpp:523] [create', vdevice),
    t('499', 'error', 'file_utils.cpp:40] [read_binary_file', 'CHECK failed - Error opening file /usr/local/hailo/resources/models/hailo8l/scrfd_2.hef'),
    t('499', 'error', 'hef.cpp:525] [parse_hef_file', 'CHECK_SUCCESS failed with status=HAILO_OPEN_FILE_FAILURE(13)'),
    t('499', 'error', 'vdevice.cpp:756] [create_infer_model', 'CHECK_SUCCESS failed with status=HAILO_OPEN_FILE_FAILURE(13)'),
    t('501', 'info', 'vdevice.cpp:523] [create', vdevice),
    t(
      '618',
      'info',
      'hef.cpp:1929] [get_network_group_and_network_name',
      'No name was given. Addressing all networks of default network_group: arcface_mobilefacenet',
    ),
  ];
  const r = read(lines);
  assert.equal(r.outcome, 'failed');
  const d = r.diagnostics.find((x) => x.code === 'hailort/hef-rejected');
  assert.equal(d?.severity, 'error');
  assert.match(d.message, /scrfd_2\.hef/);
  // Another thread's VDevice after it (another process) is a new run, which decides: the refusal is an earlier run's.
  const other = read([...lines.slice(0, 4), lines[4].replace('[11233]', '[15191]'), lines[5].replace('[11233]', '[15191]')]);
  assert.notEqual(other.outcome, 'failed');
});

test('UnsupportedMetaArchError (an NMS the NN core cannot run) is the model script, with engine=cpu as the way out', () => {
  const r = read([
    '[info] Loading model script commands to yolox_s from yolox_s.alls',
    'Traceback (most recent call last):',
    '  File "/usr/local/lib/python3.10/dist-packages/hailo_sdk_client/runner/client_runner.py", line 1154, in optimize',
    '    self._optimize(data)',
    'hailo_sdk_client.sdk_backend.sdk_backend_exceptions.UnsupportedMetaArchError: The specified meta architecture yolox cannot be run on chip',
  ]);
  const d = r.diagnostics.find((x) => x.code === 'dfc/model-script');
  assert.ok(d, r.diagnostics.map((x) => x.code).join());
  assert.match(d.message, /engine=cpu/);
});

// ---- an application's own words that it failed -------------------------------------------------------------------
test("an application's last words that it failed (no level tag) end its run as failed, quoted", () => {
  const r = read([
    '$ ./detect --input rtsp://10.0.0.7/stream1 --hef yolov8s.hef',
    'Loading yolov8s.hef',
    'Unable to open the RTSP stream rtsp://10.0.0.7/stream1',
  ]);
  assert.equal(r.outcome, 'failed');
  assert.match(said(r), /Unable to open the RTSP stream/);
  // The DFC's own console lines carry a level: a DFC run's untagged prose is no such failure.
  const dfc = read(['[info] Starting Model Optimization', 'Failed to find a GPU, using the CPU', '[info] Model Optimization is done']);
  assert.notEqual(dfc.outcome, 'failed');
});

test("HailoRT 5.3's name for status 81 (HAILO_RESOURCE_EXHAUSTED) is read, and a hailort.h limit named beside a failure is said", () => {
  // 81 was HAILO_OUT_OF_HOST_CMA_MEMORY in hailort.h 5.2.0; later releases return HAILO_RESOURCE_EXHAUSTED for the same ENOBUFS.
  const r = read([
    '[2026-05-01 10:00:00.000] [912] [HailoRT] [error] [infer_model.cpp:88] [configure] CHECK_SUCCESS failed with status=HAILO_RESOURCE_EXHAUSTED(81)',
    'note: we run 9 models at once; HAILO_MAX_STREAMS_COUNT (32) is exceeded by the ninth',
  ]);
  const d = r.diagnostics.find((x) => x.code.startsWith('hailort/'));
  assert.ok(d, r.diagnostics.map((x) => x.code).join());
  assert.match(d.message, /\(81\)/);
  assert.match(d.message, /HAILO_MAX_STREAMS_COUNT = 32: at most 32 streams count/);
});

// ---- the allocator's search: its per-try refusals are not the run's failure, but name the layer of its end -----------
// Real lines of the DFC 3.x compiler's hailo_sdk.core.log (spdlog: `[time] [default] [info] …`, a record's later lines untagged).
const core = (time: string, msg: string) => `[2026-01-15 01:${time}] [default] [info] ${msg}`;

test("an spdlog record's untagged lines keep its level: a partition try's `Validator failed … Agent infeasible` is no failure", () => {
  // unseen15/52: iteration #13 of a search that went on (the file ends `Successful Compilation` 11,700 lines later).
  const r = read([
    core('14:38.667', 'Finding the best partition to contexts...'),
    core('28:34.008', 'Partition iteration #13:'),
    'Fast Unikorn FPS: 249.661',
    'Contexts Info:',
    'stage1_okra_context_0 info - Status: FAILED, bottleneck fps: 741.6',
    'Partition failed on: Validator failed on node: concat2 with Agent infeasible',
  ]);
  assert.notEqual(r.outcome, 'failed');
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code),
    [],
  );
  // The same line at the error level (its own record) is the allocator's failure.
  const own = read([core('14:38.667', 'Finding the best partition to contexts...'), '[error] Validator failed on node: concat2 with Agent infeasible']);
  assert.ok(own.diagnostics.some((d) => d.code === 'dfc/allocation-failed' && d.severity === 'error'));
});

test("a search its user stopped names the layer the allocator's tries kept refusing, and reads the compile stage", () => {
  // unseen15/03's lines (the stage's markers dropped, as an excerpt quotes it).
  const r = read([
    core('49:29.538', 'Iteration failed on: Validator failed on node: concat11 with Agent infeasible'),
    core('49:34.461', 'Iteration failed on: Validator failed on node: concat11 with Agent infeasible'),
    core('53:37.144', 'Iteration failed on: Splitter timeout reached'),
    core('54:01.011', 'Interrupted by user, aborting...'),
  ]);
  assert.equal(r.failedStage, 'compile');
  const d = r.diagnostics.find((x) => x.code === 'dfc/interrupted');
  assert.ok(d, r.diagnostics.map((x) => x.code).join());
  assert.match(d.message, /refusing concat11 \(Agent infeasible, said 2 times\)/);
});

test("no valid partition: the diagnostic names the layers the allocator's tries refused (not its reasonless dummies)", () => {
  // unseen15/51's lines (DFC 3.x hailo_sdk.core.log of a YOLOv8 compile).
  const c = (time: string, msg: string) => `[2025-12-06 13:19:${time}] [default] [info] ${msg}`;
  const r = read([
    c('31.143', 'No successful assignment for concat17_dummy_68333, most common errors: '),
    c('31.143', 'No successful assignment for format_conversion1_dc, most common errors: Agent infeasible'),
    c('31.154', 'No successful assignment for concat17, most common errors: Agent infeasible'),
    c('34.669', '\x1b[1;41mMapping Failed (allocation time: 3s)\x1b[0m'),
    c('34.670', 'Builder fail with status 94: No valid partition found'),
    c('34.670', 'No valid partition found'),
  ]);
  assert.equal(r.outcome, 'failed');
  const d = r.diagnostics.find((x) => x.code === 'dfc/allocation-failed');
  assert.ok(d);
  assert.match(d.message, /refused .*concat17 \(Agent infeasible\)/);
  assert.match(d.message, /format_conversion1_dc \(Agent infeasible\)/);
  assert.doesNotMatch(d.message, /dummy/);
});

test('a HailoRT pipeline set up again after its release: the run went on, and a log cut there is incomplete', () => {
  // unseen15/08's lines (yolo26n released, arcface activated, the file cut mid-line); unseen14/08 switches per frame the same way.
  const h = (n: string, where: string, msg: string) => `[2026-04-27 21:14:57.${n}] [3504] [HailoRT] [info] [${where}] ${msg}`;
  const released = [
    h('027', 'queue_elements.cpp:46] [~BaseQueueElement', 'Queue element PushQEl2yolo26n/input_layer1 has 0 frames in his Queue on destruction'),
    h('028', 'core_op.cpp:186] [deactivate', 'Deactivating took 0.49589 ms'),
  ];
  const setUp = [
    h(
      '033',
      'core_op.cpp:156] [activate',
      'Activating arcface_mobilefacenet took 0.243278 milliseconds. Note that the function is asynchronous and thus the network is not fully activated yet.',
    ),
    h('033', 'vstream.cpp:754] [InputVStreamImpl', 'Creating arcface_mobilefacenet/input_layer1...'),
  ];
  assert.equal(read(released).outcome, 'success');
  assert.equal(readDfcLog(`${[...released, ...setUp].join('\n')}\n[2026-04-2`, { logPath: 'run.log' }).outcome, 'incomplete');
});

test("a long warning's quote keeps the message's own sentence at its end, not only its head", () => {
  // unseen15/11's line: onnxruntime's message puts its source path and C++ signature before what it says.
  const r = read([
    "2026-01-07 03:02:12,436 - WARNING - parser.py:314 - ONNX shape inference failed: [ONNXRuntimeError] : 6 : RUNTIME_EXCEPTION : Non-zero status code returned while running Reshape node. Name:'/model.10/m/m.0/attn/Reshape' Status Message: /onnxruntime_src/onnxruntime/core/providers/cpu/tensor/reshape_helper.h:45 onnxruntime::ReshapeHelper::ReshapeHelper(const onnxruntime::TensorShape&, onnxruntime::TensorShapeVector&, bool) input_shape_size == size was false. The input tensor cannot be reshaped to the requested shape. Input shape:{1,512,16,16}, requested shape:{1,4,128,400}",
  ]);
  const d = r.diagnostics.find((x) => x.code === 'dfc/unrecognised-warning');
  assert.ok(d, r.diagnostics.map((x) => x.code).join());
  assert.match(d.message, /\/model\.10\/m\/m\.0\/attn\/Reshape/);
  assert.match(d.message, /cannot be reshaped to the requested shape/);
});
