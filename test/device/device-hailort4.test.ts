// The Raspberry Pi majority (issue 19): a Hailo-8L / Hailo-8 behind the hailo_pci driver and
// HailoRT 4.x. The product's own build compiles the real shim against the fake libhailort built as
// 4.20.0 (and 4.18.0, 4.23.0: their drift), and `hailo-tools devices|run|chat` run as a user runs
// them. Expected values come from the fake's configuration (what the simulated device is) and from
// the rules read in HailoRT's 4.x sources (is_hef_compatible, validate_driver_version, the
// hailort.service client), quoted where they are asserted.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeviceClient } from '../../server/src/processes/device/client';
import { commandLineTrust } from '../../server/src/core/common/trust';
import { deviceSetup, fakeEnv, writeFacts, type DeviceSetup } from '../fakes/fakeHailort';
import { genaiSetup } from '../helpers/genaiFixtures';
import { buildHef } from '../helpers/hefBuilder';
import { h8lResourceSpec, H8L_RESOURCE_TEXT } from '../helpers/inlineHefs';
import { repoRoot } from '../helpers/shared';

let h4: DeviceSetup;
before(async () => {
  h4 = await deviceSetup('device-h4', '4.20.0');
});
after(() => h4?.cleanup());

function sysfs(setup: DeviceSetup, name: string, module: string | undefined, version?: string): string {
  const root = join(setup.dir, name);
  mkdirSync(join(root, 'sys', 'module'), { recursive: true });
  if (module) {
    mkdirSync(join(root, 'sys', 'module', module), { recursive: true });
    if (version) writeFileSync(join(root, 'sys', 'module', module, 'version'), `${version}\n`);
  }
  return root;
}

function cli(setup: DeviceSetup, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return spawnCli(setup.dir, args, { HAILO_TOOLS_SYSFS_ROOT: sysfs(setup, 'sys-ok', 'hailo_pci', setup.shim.hailortVersion), ...setup.cliEnv(env) });
}

function spawnCli(cwd: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), ...args], { env: { ...process.env, ...env }, cwd });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

const toolLines = (stderr: string) =>
  stderr
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('hailo-tools:'));

test('HailoRT 4.20 on a Hailo-8L: devices lists it (text and JSON), exit 0', async () => {
  const r = await cli(h4, ['devices'], { FAKE_HAILORT_ARCH: 'HAILO8L' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^HailoRT 4\.20\.0 .*the fake libhailort under test\//m);
  assert.match(r.stdout, /1 device:\n {2}0000:3c:00\.0 {2}HAILO8L {2}firmware 4\.20\.0 \(release\) {2}serial FAKE0000000001 {2}board Hailo-8L/);
  const json = JSON.parse((await cli(h4, ['devices', '--json'], { FAKE_HAILORT_ARCH: 'HAILO8L' })).stdout);
  assert.deepEqual(
    json.devices.map((d: { architecture: string; architectureId: number }) => [d.architecture, d.architectureId]),
    [['HAILO8L', 2]],
  );
  assert.deepEqual([json.driver, json.driverModule, json.driverVersion], ['loaded', 'hailo_pci', '4.20.0']);
});

test('HailoRT 4.20 on a Hailo-8L: run gives the same report as on a Hailo-10H (checks, statistics, latency, FPS by queue depth)', async () => {
  const r = await cli(h4, ['run', '--frames', '30', h4.hefs.hailo8lV1], { FAKE_HAILORT_ARCH: 'HAILO8L' });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /Device: 0000:3c:00\.0 HAILO8L, firmware 4\.20\.0 \(release\) — HailoRT 4\.20\.0/);
  assert.match(r.stdout, /in {3}efficientnet_lite0\/input_layer1 UINT8 NHWC\(224x224x3\) 150,528 B/);
  assert.match(r.stdout, /PASS {2}different inputs → different outputs/);
  assert.match(r.stdout, /PASS {2}same input twice → bit-identical/);
  assert.match(r.stdout, /PASS {2}undersized input refused — refused, status=2 \(HAILO_INVALID_ARGUMENT\); the model still runs afterwards/);
  assert.match(r.stdout, /Latency \(one frame at a time, 30 frames\): p50 [\d.]+ ms, p99 [\d.]+ ms/);
  assert.match(r.stdout, /FPS by queue depth:\n {2}depth .*\n {2}1 .*1\.00x\n {2}2 .*\n {2}4 .*\n {2}8 /);
  assert.match(r.stdout, /3 of 3 checks passed/);
  assert.doesNotMatch(r.stdout, /Note:/);
  const f = await cli(h4, ['run', '--json', '--frames', '10', '--format', 'float32', '--queue', '2', h4.hefs.hailo8lV1], { FAKE_HAILORT_ARCH: 'HAILO8L' });
  assert.equal(f.code, 0, f.stderr);
  const report = JSON.parse(f.stdout);
  assert.equal(report.outputs[0].type, 'FLOAT32');
  assert.equal(report.model.inputs[0].frameSize, 224 * 224 * 3 * 4);
  assert.equal(report.fps.queueDepth, 2);
});

test('HailoRT 4.x architecture rules: a Hailo-8 HEF is refused on a Hailo-8L in one sentence; a Hailo-8L HEF runs on a Hailo-8 with the note HailoRT logs', async () => {
  const refused = await cli(h4, ['run', '--frames', '5', h4.hefs.hailo8V1], { FAKE_HAILORT_ARCH: 'HAILO8L' });
  assert.equal(refused.code, 2, refused.stdout);
  assert.deepEqual(toolLines(refused.stderr), [
    'hailo-tools: classifier-hailo8-v1.hef was compiled for hailo8; HailoRT 4.20.0 runs only hailo8l HEFs on a HAILO8L: recompile it with the Dataflow Compiler (--hw-arch hailo8l).',
  ]);
  const slower = await cli(h4, ['run', '--frames', '5', h4.hefs.hailo8lV1], { FAKE_HAILORT_ARCH: 'HAILO8' });
  assert.equal(slower.code, 0, slower.stderr);
  assert.match(slower.stdout, /Note: this HEF was compiled for hailo8l and runs on the Hailo-8 at lower performance/);
});

test('driver 4.18.0 with HailoRT 4.20.0 (rpi5#72): devices exits 1 and run stops with the one sentence naming both versions', async () => {
  const env = { FAKE_HAILORT_ARCH: 'HAILO8L', FAKE_HAILORT_DRIVER_VERSION: '4.18.0', HAILO_TOOLS_SYSFS_ROOT: sysfs(h4, 'sys-418', 'hailo_pci', '4.18.0') };
  const sentence =
    'The Hailo driver (hailo_pci 4.18.0) and HailoRT (4.20.0) are different versions, and HailoRT opens a device only when they are equal: install the driver of HailoRT 4.20.0 (hailort-pcie-driver 4.20.0, or hailo-dkms on a Raspberry Pi) and reboot, or install HailoRT 4.18.0.';
  const devices = await cli(h4, ['devices'], env);
  assert.equal(devices.code, 1, devices.stdout);
  assert.match(devices.stdout, /0000:3c:00\.0 {2}\(HailoRT could not open it: HAILO_INVALID_DRIVER_VERSION\)/);
  assert.equal(toolLines(devices.stderr).length, 1, devices.stderr);
  assert.ok(devices.stderr.includes(`hailo-tools: ${sentence} [HAILO_INVALID_DRIVER_VERSION, status 76]`), devices.stderr);
  const run = await cli(h4, ['run', '--frames', '5', h4.hefs.hailo8lV1], env);
  assert.equal(run.code, 2);
  assert.equal(toolLines(run.stderr).length, 1, run.stderr);
  assert.ok(run.stderr.includes(sentence), run.stderr);
  assert.doesNotMatch(run.stderr, /architecture|recompile/i);
  assert.equal((run.stderr.match(/HAILO_INVALID_DRIVER_VERSION/g) ?? []).length, 1, 'the status is named once');
});

test('sharing a Hailo-8 between processes goes through hailort.service: stopped → one sentence, running → the run works', async () => {
  const stopped = await cli(h4, ['run', '--frames', '5', '--group-id', 'SHARED', h4.hefs.hailo8lV1], { FAKE_HAILORT_ARCH: 'HAILO8L' });
  assert.equal(stopped.code, 2);
  assert.equal(toolLines(stopped.stderr).length, 1, stopped.stderr);
  assert.match(stopped.stderr, /Sharing the device with other processes goes through hailort\.service on HailoRT 4\.x, and it is not running: start it/);
  const running = await cli(h4, ['run', '--frames', '5', '--group-id', 'SHARED', h4.hefs.hailo8lV1], {
    FAKE_HAILORT_ARCH: 'HAILO8L',
    FAKE_HAILORT_SERVICE: 'running',
  });
  assert.equal(running.code, 0, running.stderr);
  const busy = await cli(h4, ['run', '--frames', '5', h4.hefs.hailo8lV1], { FAKE_HAILORT_ARCH: 'HAILO8L', FAKE_HAILORT_FAULT: 'busy' });
  assert.equal(busy.code, 2);
  assert.match(busy.stderr, /The Hailo device is busy: another process holds it\..*\[HAILO_OUT_OF_PHYSICAL_DEVICES, status 74\]/);
});

test('HailoRT 4.x: a chat is refused in one sentence (GenAI is HailoRT 5.x on a Hailo-10H)', async () => {
  const r = await cli(h4, ['chat', h4.hefs.encoder, 'hello'], { FAKE_HAILORT_ARCH: 'HAILO8L' });
  assert.equal(r.code, 2, r.stdout);
  assert.deepEqual(toolLines(r.stderr), [
    'hailo-tools: Chatting with an LLM or VLM needs a Hailo-10H with HailoRT 5.x; HailoRT 4.20.0 runs the Hailo-8 family, which has no GenAI runtime.',
  ]);
});

test('a mistyped HEF path is said first, even with no driver loaded (4.20 scans with 64 then)', async () => {
  const missing = join(h4.dir, 'yolov8s_h8l.hef');
  const r = await cli(h4, ['run', missing], { FAKE_HAILORT_FAULT: 'driver-missing', HAILO_TOOLS_SYSFS_ROOT: sysfs(h4, 'sys-none', undefined) });
  assert.equal(r.code, 2);
  assert.deepEqual(toolLines(r.stderr), [`hailo-tools: The HEF was not read: cannot open '${missing}': no such file; check the path.`]);
  const noDriver = await cli(h4, ['devices'], { FAKE_HAILORT_FAULT: 'driver-missing', HAILO_TOOLS_SYSFS_ROOT: sysfs(h4, 'sys-none', undefined) });
  assert.equal(noDriver.code, 2);
  assert.match(noDriver.stderr, /The Hailo PCIe driver is not loaded: install the hailo_pci driver of HailoRT 4\.20\.0/);
});

test('HailoRT 4.18 (Bindings by value, no create_shared) and 4.23 (string-map resources) run the same path', async () => {
  const h418 = await deviceSetup('device-h418', '4.18.0');
  try {
    const r = await cli(h418, ['run', '--frames', '10', h418.hefs.hailo8lV1], { FAKE_HAILORT_ARCH: 'HAILO8L' });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /HailoRT 4\.18\.0/);
    assert.match(r.stdout, /3 of 3 checks passed/);
  } finally {
    h418.cleanup();
  }
  const h423 = await deviceSetup('device-h423', '4.23.0');
  try {
    // A V3 hailo8l HEF (4.21+ reads V3) embedding a resource: 4.23 returns it in get_external_resources()'s map of strings.
    const config = Buffer.from(H8L_RESOURCE_TEXT);
    const withResource = join(h423.dir, 'h8l-resource.hef');
    writeFileSync(withResource, await buildHef(h8lResourceSpec()));
    const facts = join(h423.dir, 'facts-resource.tsv');
    await writeFacts([withResource], facts);
    const c = new DeviceClient({
      trust: commandLineTrust('test'),
      workerPath: join(repoRoot, 'dist', 'deviceWorker.js'),
      shim: h423.shim,
      env: fakeEnv(facts, { FAKE_HAILORT_ARCH: 'HAILO8L' }),
    });
    try {
      assert.equal((await c.hello()).hailortVersion, '4.23.0');
      const opened = await c.open(withResource, { format: 'uint8', batch: 0, queue: 0, groupId: 'UNIQUE', timeoutMs: 2000 });
      assert.deepEqual(opened.resources, ['labels.json']);
      const got = await c.resource(opened.handle, 'labels.json');
      assert.deepEqual(Buffer.from(got!.base64, 'base64'), config);
      assert.equal(await c.resource(opened.handle, 'missing.json'), null);
      await c.close(opened.handle);
    } finally {
      c.dispose();
    }
  } finally {
    h423.cleanup();
  }
});

test('issue 24: a device whose Device::create answers 86 (HailoRT 5.2) gets the mismatch sentence in devices and run, never an architecture verdict', async () => {
  const h5 = await deviceSetup('device-h5-86', '5.2.0');
  try {
    const env = { FAKE_HAILORT_FAULT: 'driver-ioctl', HAILO_TOOLS_SYSFS_ROOT: sysfs(h5, 'sys-1x', 'hailo1x_pci', '5.1.1') };
    const sentence =
      'The Hailo driver (hailo1x_pci 5.1.1) and HailoRT (5.2.0) are different versions, and HailoRT opens a device only when they are equal: install the driver of HailoRT 5.2.0 (hailort-pcie-driver 5.2.0) and reboot, or install HailoRT 5.1.1.';
    const devices = await cli(h5, ['devices'], env);
    assert.equal(devices.code, 1, devices.stdout);
    assert.ok(devices.stderr.includes(`${sentence} [HAILO_DRIVER_INVALID_IOCTL, status 86]`), devices.stderr);
    const run = await cli(h5, ['run', h5.hefs.classifier], env);
    assert.equal(run.code, 2);
    assert.ok(run.stderr.includes(sentence), run.stderr);
    assert.doesNotMatch(run.stderr, /architecture|unknown|recompile/i);
    const g = await genaiSetup('device-86-chat');
    try {
      const chat = await spawnCli(g.dir, ['chat', g.hefs.llm, 'hello'], g.env(env));
      assert.equal(chat.code, 2, chat.stdout);
      assert.ok(chat.stderr.includes(sentence), chat.stderr);
      assert.doesNotMatch(chat.stderr, /architecture|unknown|recompile/i);
    } finally {
      g.cleanup();
    }
  } finally {
    h5.cleanup();
  }
});

test('one shim per library: the same libhailort found by the setting, HAILORT_ROOT and a symlinked prefix builds one shim', async () => {
  const { buildShim, findHailoRT } = await import('../../server/src/processes/device/nativeBuild');
  const { fakeHailortPrefix } = await import('../fakes/fakeHailort');
  const { symlinkSync } = await import('node:fs');
  const prefix = fakeHailortPrefix('4.20.0');
  const linked = join(h4.dir, 'opt-hailort');
  symlinkSync(prefix, linked);
  const bySetting = findHailoRT({ hailortRoot: prefix });
  const byEnv = findHailoRT({ env: { HAILORT_ROOT: linked }, prefixes: [] });
  assert.ok(!('error' in bySetting) && !('error' in byEnv));
  assert.notEqual(bySetting.foundBy, byEnv.foundBy);
  const cacheDir = join(h4.dir, 'shim-cache');
  const compiles: string[] = [];
  const first = await buildShim(commandLineTrust('test'), bySetting, { sourceDir: join(repoRoot, 'native'), cacheDir, log: (m) => compiles.push(m) });
  const second = await buildShim(commandLineTrust('test'), byEnv, { sourceDir: join(repoRoot, 'native'), cacheDir, log: (m) => compiles.push(m) });
  assert.ok(!('error' in first) && !('error' in second));
  assert.equal(second.shimPath, first.shimPath);
  assert.equal(compiles.length, 1, compiles.join('\n'));
});

test('doctor asks the devices through the shim: firmware 4.18.0 under HailoRT 4.20.0 (HAOS#4427), a device HailoRT cannot open (86)', async () => {
  const root = sysfs(h4, 'sys-doctor-fw', 'hailo_pci', '4.20.0');
  mkdirSync(join(root, 'usr', 'lib'), { recursive: true });
  writeFileSync(join(root, 'usr', 'lib', 'libhailort.so.4.20.0'), 'ELF');
  const fw = await spawnCli(h4.dir, ['doctor', '--json', '--root', root, h4.dir], h4.cliEnv({ FAKE_HAILORT_ARCH: 'HAILO8L', FAKE_HAILORT_FW: '4.18.0' }));
  assert.equal(fw.code, 1, fw.stderr);
  const report = JSON.parse(fw.stdout);
  assert.deepEqual(report.devices, { asked: true });
  const f = report.findings.find((x: { code: string }) => x.code === 'firmware-library-mismatch');
  assert.ok(f, fw.stdout);
  assert.match(f.sentence, /The HAILO8L at 0000:3c:00\.0 runs firmware 4\.18\.0 and libhailort is 4\.20\.0; .*\(status 16\)/);
  assert.match(f.fix, /hailofw 4\.20\.0/);
  assert.ok(report.components.some((c: { kind: string; version?: string }) => c.kind === 'device' && c.version === '4.18.0'));
  // The HEFs of the folder against the attached Hailo-8L: the Hailo-8 one does not run there.
  assert.ok(report.findings.some((x: { code: string; sentence: string }) => x.code === 'hef-device-arch' && x.sentence.startsWith('classifier-hailo8-v1.hef')));

  const h5 = await deviceSetup('device-h5-doctor', '5.2.0');
  try {
    const root5 = sysfs(h5, 'sys-doctor-86', 'hailo1x_pci', '5.1.1');
    mkdirSync(join(root5, 'usr', 'lib'), { recursive: true });
    writeFileSync(join(root5, 'usr', 'lib', 'libhailort.so.5.2.0'), 'ELF');
    const r = await spawnCli(h5.dir, ['doctor', '--json', '--root', root5, join(h5.dir, 'none')], h5.cliEnv({ FAKE_HAILORT_FAULT: 'driver-ioctl' }));
    const rep = JSON.parse(r.stdout);
    assert.deepEqual(rep.findings.map((x: { code: string }) => x.code).sort(), ['device-not-identified', 'driver-library-mismatch']);
    const dev = rep.findings.find((x: { code: string }) => x.code === 'device-not-identified');
    assert.match(
      dev.sentence,
      /^HailoRT could not open the device at 0000:3c:00\.0 \(HAILO_DRIVER_INVALID_IOCTL\): The Hailo driver \(hailo1x_pci 5\.1\.1\) and HailoRT \(5\.2\.0\)/,
    );
  } finally {
    h5.cleanup();
  }
});

test('HailoRT 4.20: the float reference and Compare Accuracy path (open, infer by name, the first frame kept) works on a Hailo-8L', async () => {
  const c = new DeviceClient({
    trust: commandLineTrust('test'),
    workerPath: join(repoRoot, 'dist', 'deviceWorker.js'),
    shim: h4.shim,
    env: fakeEnv(h4.facts, { FAKE_HAILORT_ARCH: 'HAILO8L', HAILO_TOOLS_SYSFS_ROOT: sysfs(h4, 'sys-client', 'hailo_pci', '4.20.0') }),
  });
  try {
    const report = await c.run({
      hef: h4.hefs.hailo8lV1,
      input: { kind: 'random' },
      frames: 10,
      format: 'float32',
      batch: 0,
      queue: 0,
      groupId: 'UNIQUE',
      timeoutMs: 2000,
      keepTensors: true,
    });
    assert.equal(Buffer.from(report.tensors!.inputs['efficientnet_lite0/input_layer1'], 'base64').length, 224 * 224 * 3 * 4);
    assert.equal(Buffer.from(report.tensors!.outputs['efficientnet_lite0/fc1'], 'base64').length, 1000 * 4);
    const opened = await c.open(h4.hefs.hailo8lV1, { format: 'uint8', batch: 0, queue: 0, groupId: 'UNIQUE', timeoutMs: 2000 });
    const frame = Buffer.alloc(224 * 224 * 3, 7).toString('base64');
    const a = await c.infer(opened.handle, { 'efficientnet_lite0/input_layer1': frame });
    const b = await c.infer(opened.handle, { 'efficientnet_lite0/input_layer1': frame });
    assert.equal(a.outputs['efficientnet_lite0/fc1'], b.outputs['efficientnet_lite0/fc1']);
    assert.deepEqual(opened.resources, [], 'HailoRT 4.20 reads no external resources');
    await c.close(opened.handle);
  } finally {
    c.dispose();
  }
});
