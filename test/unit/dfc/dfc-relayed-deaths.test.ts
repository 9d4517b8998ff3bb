// A C++ program's death by an uncaught exception, relayed by whatever started it (issue 30, the thirteenth batch:
// dfc-corpus unseen12/58, a ROS 2 node's `terminate called after throwing an instance of 'std::invalid_argument'` behind
// launch's `[component_container-1] ` prefix, read as incomplete). The class: libstdc++'s terminate lines and the death a
// relay reports — ROS 2 launch's and roslaunch's `process has died [pid N, exit code -6, cmd '…']` (a negative code is
// the signal, Python's subprocess: https://docs.python.org/3/library/subprocess.html#subprocess.Popen.returncode),
// systemd's `unit.service: Main process exited, code=dumped, status=6/ABRT` — are one `dfc/crashed` with what() and the
// names it carries, as the shell's `Aborted (core dumped)` already was (errors.ts runEnd; dfc-run-ends.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

function read(lines: string[]) {
  return readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
}
const crashes = (r: ReturnType<typeof read>) => r.diagnostics.filter((d) => d.code === 'dfc/crashed');

test("relayed deaths: unseen12/58 — a ROS 2 node's uncaught exception behind launch's [name-N] prefix is the run's failure, with what() and its names", () => {
  const r = read([
    'I was able to build the package successfully, but when I tried to run it, the following error occurred and I haven’t been able to resolve it:',
    '',
    '[component_container-1] [INFO] [1744087229.889081215] [yolo_ros_hailort_cpp]: model loaded  ',
    "[component_container-1] terminate called after throwing an instance of 'std::invalid_argument'  ",
    '[component_container-1]   what():  Output tensor yolox_tiny/yolox_nms_postprocess is not an NMS type',
  ]);
  assert.equal(r.outcome, 'failed');
  const [c] = crashes(r);
  assert.ok(c, JSON.stringify(r.diagnostics));
  assert.equal(c.logLine, 4);
  assert.match(c.message, /std::invalid_argument \(what\(\): Output tensor yolox_tiny\/yolox_nms_postprocess is not an NMS type\)/);
  assert.match(c.message, /Its what\(\) names yolox_tiny\/yolox_nms_postprocess/);
});

test("relayed deaths: launch's own `process has died [… exit code -6 …]` joins the death it reports — one diagnostic, aborted", () => {
  // launch/actions/execute_local.py logs `process started with pid [N]` and, at a non-zero exit, `process has died [pid N, exit code C, cmd '…'].`
  const r = read([
    '[INFO] [launch]: Default logging verbosity is set to INFO',
    '[INFO] [hailo_detector-1]: process started with pid [48211]',
    '[hailo_detector-1] [INFO] [1733481000.120000000] [hailo_detector]: configuring yolov8s.hef',
    "[hailo_detector-1] terminate called after throwing an instance of 'std::runtime_error'",
    '[hailo_detector-1]   what():  Failed to create VDevice',
    '[camera_node-2] [INFO] [1733481000.150000000] [camera]: publishing /image_raw at 30 fps',
    '[camera_node-2] [INFO] [1733481000.183000000] [camera]: publishing /image_raw at 30 fps',
    '[camera_node-2] [INFO] [1733481000.216000000] [camera]: publishing /image_raw at 30 fps',
    "[ERROR] [hailo_detector-1]: process has died [pid 48211, exit code -6, cmd '/home/pi/ws/install/hailo_detector/lib/hailo_detector/hailo_detector --ros-args'].",
  ]);
  assert.equal(r.outcome, 'failed');
  const cs = crashes(r);
  assert.equal(cs.length, 1, JSON.stringify(r.diagnostics.map((d) => `${d.code}@${d.logLine}`)));
  assert.match(cs[0].message, /std::runtime_error \(what\(\): Failed to create VDevice\), and was aborted/);
  assert.ok(!r.diagnostics.some((d) => d.code === 'dfc/unrecognised-error'), "launch's line is the same death, not another error");
});

test('relayed deaths: a signal launch or systemd reports alone is the death — a segfault by its number, an abort by its name', () => {
  const seg = read([
    '[INFO] [hailo_node-1]: process started with pid [5678]',
    '[hailo_node-1] [INFO] [1733481100.000000000] [hailo_node]: inference started',
    "[ERROR] [hailo_node-1]: process has died [pid 5678, exit code -11, cmd '/opt/ros/jazzy/lib/hailo_node/hailo_node'].",
  ]);
  assert.equal(seg.outcome, 'failed');
  assert.match(crashes(seg)[0]?.message ?? '', /Segmentation fault/);
  // systemd's service.c: `Main process exited, code=dumped, status=6/ABRT`, behind journald's `Mon DD HH:MM:SS host ident[pid]: `.
  const unit = read([
    "Dec 06 10:00:01 pi5 hailo-detect[812]: terminate called after throwing an instance of 'std::out_of_range'",
    'Dec 06 10:00:01 pi5 hailo-detect[812]:   what():  vector::_M_range_check: __n (which is 3) >= this->size() (which is 3)',
    'Dec 06 10:00:01 pi5 systemd[1]: hailo-detect.service: Main process exited, code=dumped, status=6/ABRT',
    "Dec 06 10:00:01 pi5 systemd[1]: hailo-detect.service: Failed with result 'core-dump'.",
  ]);
  assert.equal(unit.outcome, 'failed');
  const us = crashes(unit);
  assert.equal(us.length, 1, JSON.stringify(unit.diagnostics.map((d) => `${d.code}@${d.logLine}`)));
  assert.match(us[0].message, /std::out_of_range .*, and was aborted/);
});

test('relayed deaths: what is no native death — an exit status, SIGKILL, launch naming a process behind its colon', () => {
  // A non-zero exit is the program's own end, not a signal: no dfc/crashed (the error line stays the run's failure).
  const exit1 = read(["[ERROR] [hailo_node-1]: process has died [pid 5678, exit code 1, cmd '/opt/ros/jazzy/lib/hailo_node/hailo_node']."]);
  assert.equal(crashes(exit1).length, 0);
  const killed = read(["[ERROR] [hailo_node-1]: process has died [pid 5678, exit code -9, cmd 'hailo_node']."]);
  assert.equal(crashes(killed).length, 0);
  // `[name-1]: ` is launch's logger naming the process, not a relayed line: `process started` is no failure.
  const started = read(['[INFO] [hailo_node-1]: process started with pid [5678]']);
  assert.notEqual(started.outcome, 'failed');
  assert.equal(started.diagnostics.length, 0);
});
