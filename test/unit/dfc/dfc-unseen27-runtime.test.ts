// The classes the twenty-eighth batch's runtime, install and driver logs (dfc-corpus unseen27/ 03, 35, 40, 45, 47, 49) showed
// the reader missing, tested on lines that batch does not contain: `hailortcli fw-control identify`'s firmware line as its
// answer (markers.ts inferred), docker's client refusal naming the daemon by its API (docker 29's wording, dfcMessages.ts
// `docker`), dpkg's configure line in any locale (markers.ts dpkgPackageStep, state.ts), a check's closing key=value
// inventory (markers.ts inventory: hailo-apps' scripts/check_installed_packages.sh) and an author's report of the frame rate
// their run reached (markers.ts authorRate).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';

const read = (lines: string[]) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' });
const said = (r: ReturnType<typeof read>) => r.diagnostics.map((d) => `${d.code} ${d.message}`).join(' | ');

test("fw-control identify's firmware line is its answer, as its architecture line is; a reply cut before it is not", () => {
  // hailortcli 4.20.0's identify on a Hailo-8 (dfc-corpus unseen24/10's reply), cut after the firmware line.
  const head = ['$ hailortcli fw-control identify', 'Executing on device: 0000:01:00.0', 'Identifying board', 'Control Protocol Version: 2'];
  const r = read([...head, 'Firmware Version: 4.20.0 (release,app,extended context switch buffer)']);
  assert.equal(r.outcome, 'success', said(r));
  assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 0, said(r));
  const cut = read(head);
  assert.notEqual(cut.outcome, 'success', said(cut));
});

test("docker's client refusal names the daemon by its API since docker 29: the run failed in docker, before the DFC", () => {
  // A compose user's note (`docker compose up`), and docker 29's wording of a daemon it cannot reach (`docker ps`).
  const denied = read([
    "unable to get image 'prom/prometheus:latest': permission denied while trying to connect to the docker API at unix:///var/run/docker.sock",
  ]);
  assert.equal(denied.outcome, 'failed', said(denied));
  assert.equal(denied.failedStage, 'docker', said(denied));
  assert.match(said(denied), /dfc\/docker .*'docker' group/);
  const down = read([
    '$ sudo docker ps',
    'failed to connect to the docker API at unix:///var/run/docker.sock; check if the path is correct and if the daemon is running: dial unix /var/run/docker.sock: connect: no such file or directory',
  ]);
  assert.equal(down.failedStage, 'docker', said(down));
  assert.match(said(down), /daemon is not running/);
});

test("dpkg's configure line in another locale ends the install; its unpack alone does not, and a failed maintainer script still fails it", () => {
  // dpkg's German catalogue (po/de.po): `Entpacken von %s (%s) ...`, `%s (%s) wird eingerichtet ...` — the words around the package move.
  const unpack = ['$ sudo dpkg -i hailort_4.20.0_arm64.deb', 'Vormals nicht ausgewähltes Paket hailort wird gewählt.', 'Entpacken von hailort (4.20.0) ...'];
  const done = read([...unpack, 'hailort (4.20.0) wird eingerichtet ...']);
  assert.equal(done.outcome, 'success', said(done));
  const half = read(unpack);
  assert.notEqual(half.outcome, 'success', said(half));
  // An upgrade's unpack names the old version too (src/main/archives.c); its configure is the same package and version.
  const upgraded = read(['Unpacking hailort-pcie-driver (4.20.0) over (4.19.0) ...', 'Setting up hailort-pcie-driver (4.20.0) ...']);
  assert.equal(upgraded.outcome, 'success', said(upgraded));
  // What the maintainer script prints under it (hailort-pcie-driver's postinst lists build-essential with apt) is no line an
  // author's hard wrap cut from dpkg's (forms.ts): a long word in lower case after a short line.
  const listed = read([
    'Preparing to unpack hailort-pcie-driver_4.20.0_all.deb ...',
    'Unpacking hailort-pcie-driver (4.20.0) ...',
    'Setting up hailort-pcie-driver (4.20.0) ...',
    'build-essential/jammy,now 12.9ubuntu3 amd64 [installed,automatic]',
  ]);
  assert.equal(listed.outcome, 'success', said(listed));
  // The maintainer script's failure after the configure line (dpkg src/main/errors.c print_error_perpackage).
  const failed = read([
    ...unpack,
    'hailort (4.20.0) wird eingerichtet ...',
    'dpkg: error processing package hailort (--configure):',
    ' installed hailort package post-installation script subprocess returned error exit status 1',
  ]);
  assert.equal(failed.outcome, 'failed', said(failed));
});

test("a check's closing inventory, every component found, is its end; one it did not find is none", () => {
  // hailo-apps' scripts/check_installed_packages.sh's last line (to_check), on a Hailo-8 machine with HailoRT 4.23.0.
  const head = ['Kernel Module Check:', '[OK]   hailo_pci module loaded and installed, version: 4.23.0', '', '================================'];
  const r = read([...head, 'SUMMARY: hailo_arch=hailo8 hailo_pci=4.23.0 hailort=4.23.0 pyhailort=4.23.0 tappas-core=5.1.0 tappas-python=5.1.0']);
  assert.equal(r.outcome, 'success', said(r));
  // The script prints `-1` for a component it did not find (check_hailort_py's `pyhailort=$pyhailort_version`).
  const missing = read([...head, 'SUMMARY: hailo_arch=hailo8 hailo_pci=4.23.0 hailort=4.23.0 pyhailort=-1 tappas-core=-1 tappas-python=-1']);
  assert.notEqual(missing.outcome, 'success', said(missing));
});

test("an author's report of the frame rate their run reached ends it; a rate they complain of or ask for does not", () => {
  // A Darknet user's blog note (YOLO v3 tiny on a Raspberry Pi 3), and a Hailo-8L maintainer's answer (YOLO26l).
  for (const line of ['With NNPACK + Yolo v3 tiny version, I got about 1FPS.', 'Yolo26l runs at 17.9fps on the hailo-8l.']) {
    const r = read(['$ python3 detect.py --input rpi', line]);
    assert.equal(r.outcome, 'success', `${line}: ${said(r)}`);
  }
  // hailo-rpi5-examples issue 129: the detection example slower than rpicam-hello; and a question.
  for (const line of [
    'But when I run the rpi5-examples detection.py script with --input rpi --show-fps I get only 8fps for some reason.',
    'How do I get 30 fps on the Hailo-8L?',
  ]) {
    const r = read(['$ python3 detect.py --input rpi', line]);
    assert.notEqual(r.outcome, 'success', `${line}: ${said(r)}`);
  }
});

test("a program's error line cut before its sentence's end goes on in an author's hanging indent; a source excerpt or a prompt does not", () => {
  // apt's `E: The repository '…' does not have a Release file.` (apt-pkg/acquire-item.cc), wrapped by a guide with a hanging indent.
  const r = read(['$ sudo apt update', "E: The repository 'http://ppa.launchpad.net/deadsnakes/ppa/ubuntu noble Release'", '   does not have a Release file.']);
  assert.equal(r.outcome, 'failed', said(r));
  assert.match(said(r), /noble Release' does not have a Release file/);
  // gcc's source excerpt under its error is the compiler's, not the sentence's rest (hailort-drivers PR 52's build, kernel 6.18).
  const gcc = read([
    "../vdma/monitor.c:53:5: error: implicit declaration of function 'del_timer_sync' [-Wimplicit-function-declaration]",
    '   53 |     del_timer_sync(&monitor->timer);',
    '      |     ^~~~~~~~~~~~~~',
  ]);
  assert.match(said(gcc), /del_timer_sync/);
  assert.doesNotMatch(said(gcc), /53 \|/);
  // argparse's refusal, then the user's retry at the margin: the retry is its own run (dfc-corpus unseen4/27's shape).
  const retry = read([
    '$ hailomz eval yolox_tiny --date-count 100',
    'usage: hailomz [-h] {parse,optimize,compile,profile,eval,info} ...',
    'hailomz: error: unrecognized arguments: --date-count 100',
    '$ hailomz --version',
    'Hailo Dataflow Compiler v3.29.0',
  ]);
  assert.doesNotMatch(said(retry), /100 \$ hailomz/);
});

test("an author's words describing what something can't do, after the program's exception, explain it: the exception stays the run's", () => {
  // CPython's PermissionError (errno 13) on a calibration folder, then the author's account of why, as a relative clause.
  const exc = "PermissionError: [Errno 13] Permission denied: '/data/calib/images'";
  const r = read([exc, 'The job runs as UID 1000, a user that cannot read the NFS share mounted by root.']);
  assert.equal(r.outcome, 'failed', said(r));
  assert.match(said(r), /\/data\/calib\/images/);
  // A step told as failing on its own after it is a failure of its own, said as before (one failure per run: the later one).
  const later = read([exc, 'After the chmod, the compile failed while allocating the model on the device.']);
  assert.match(said(later), /failed while allocating/);
});

test('a question why the author sees or gets a failure presupposes it; a question whether says nothing', () => {
  // The quoting test's sentence around a line (quoteForms.ts, `Any idea why I'm seeing …?`) and a forum's question.
  for (const line of [
    "Any idea why I'm seeing warmup run 1 failed with Inference failed: too many indices for array?",
    'Does anyone know why I get detection.py failed to open the camera /dev/video0?',
  ]) {
    const r = read([line]);
    assert.equal(r.outcome, 'failed', `${line}: ${said(r)}`);
  }
  const whether = read(['Does detection.py fail to open the camera when no camera is connected?']);
  assert.notEqual(whether.outcome, 'failed', said(whether));
});
