// `hailo-tools devices` and `hailo-tools run` as a user runs them (bin/hailo-tools.js in a child
// process), on the fake libhailort: output, JSON, exit codes 0/1/2 and one sentence per failure.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { deviceSetup, type DeviceSetup } from '../fakes/fakeHailort';
import { repoRoot } from '../helpers/shared';

let setup: DeviceSetup;
before(async () => {
  setup = await deviceSetup('device-cli');
});
after(() => setup?.cleanup());

function cli(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), ...args], { env: { ...process.env, ...env }, cwd: setup.dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

test('devices: lists the device (text and JSON), exit 0', async () => {
  const text = await cli(['devices'], setup.cliEnv());
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^HailoRT 5\.2\.0 .*the fake libhailort under test\//m);
  assert.match(text.stdout, /1 device:\n {2}0000:3c:00\.0 {2}HAILO10H {2}firmware 5\.2\.0 \(release\) {2}serial FAKE0000000001/);
  const json = await cli(['devices', '--json'], setup.cliEnv({ FAKE_HAILORT_DEVICES: '3' }));
  assert.equal(json.code, 0);
  assert.deepEqual(
    JSON.parse(json.stdout).devices.map((d: { id: string }) => d.id),
    ['0000:3c:00.0', '0000:3d:00.0', '0000:3e:00.0'],
  );
});

test('devices: none → exit 1 with the sentence; no driver → its own sentence', async () => {
  mkdirSync(join(setup.dir, 'with-driver', 'sys', 'module', 'hailo1x_pci'), { recursive: true });
  const none = await cli(['devices'], setup.cliEnv({ FAKE_HAILORT_FAULT: 'no-device', HAILO_TOOLS_SYSFS_ROOT: join(setup.dir, 'with-driver') }));
  assert.equal(none.code, 1);
  assert.match(none.stdout, /No Hailo device found\./);
  assert.match(none.stderr, /No Hailo device was found: check that the Hailo device is connected/);
  const noDriver = await cli(['devices'], setup.cliEnv({ FAKE_HAILORT_FAULT: 'driver-missing', HAILO_TOOLS_SYSFS_ROOT: join(setup.dir, 'no-driver') }));
  assert.equal(noDriver.code, 1);
  assert.match(noDriver.stderr, /The Hailo PCIe driver is not loaded: install the hailo1x_pci driver of HailoRT 5\.2\.0/);
});

test('devices: HailoRT missing → exit 2 and what to install', async () => {
  const r = await cli(['devices', '--hailort', join(setup.dir, 'no-hailort-here')], { HAILO_TOOLS_SHIM: '' });
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /HailoRT is not installed: .*Install the HailoRT of your device \(4\.x for Hailo-8\/8L: the "hailort" package, "hailo-all" on a Raspberry Pi; 5\.x for Hailo-10H: "hailort" or "h10-hailort" from Hailo's Developer Zone\)/,
  );
  assert.match(r.stderr, /hailo\.hailort\.path is set to '.*no-hailort-here' but it holds no include\/hailo\/hailort\.hpp/);
});

test('run: text report with statistics, the three checks, latency and FPS by queue depth; exit 0', async () => {
  const r = await cli(['run', '--frames', '30', setup.hefs.classifier], setup.cliEnv());
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /in {3}efficientnet_lite0\/input_layer1 UINT8 NHWC\(224x224x3\) 150,528 B/);
  assert.match(r.stdout, /efficientnet_lite0\/fc1 +\d+\.\d+ +\d+\.\d+ +\d+ +\d+ +\d+ +[0-9a-f]{16}/);
  assert.match(r.stdout, /PASS {2}different inputs → different outputs/);
  assert.match(r.stdout, /PASS {2}same input twice → bit-identical/);
  assert.match(r.stdout, /PASS {2}undersized input refused — refused, status=2/);
  assert.match(r.stdout, /Latency \(one frame at a time, 30 frames\): p50 [\d.]+ ms, p99 [\d.]+ ms/);
  assert.match(r.stdout, /FPS by queue depth:\n {2}depth .*\n {2}1 .*1\.00x\n {2}2 .*\n {2}4 .*\n {2}8 /);
  assert.match(r.stdout, /3 of 3 checks passed/);
});

test('run --json --format float32 --queue 2: one JSON document; a failed check exits 1', async () => {
  const r = await cli(['run', '--json', '--frames', '20', '--format', 'float32', '--queue', '2', setup.hefs.classifier], setup.cliEnv());
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout);
  assert.equal(report.model.format, 'float32');
  assert.equal(report.fps.queueDepth, 2);
  assert.equal(report.outputs[0].type, 'FLOAT32');
  const bad = await cli(['run', '--frames', '10', setup.hefs.classifier], setup.cliEnv({ FAKE_HAILORT_FAULT: 'constant-output' }));
  assert.equal(bad.code, 1);
  assert.match(bad.stdout, /FAIL {2}different inputs → different outputs — IDENTICAL OUTPUT/);
});

test('run: each failure is one sentence on stderr and exit 2', async () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [[setup.hefs.classifier], { FAKE_HAILORT_FAULT: 'busy' }, /The Hailo device is busy: .*--group-id.*\[HAILO_OUT_OF_PHYSICAL_DEVICES, status 74\]/],
    // The pre-run gate reads what HailoRT would answer (91, as the real libhailort 5.2.0 does for a flipped body byte).
    [
      [setup.hefs.corrupted],
      {},
      /classifier-corrupted\.hef was not opened: read before HailoRT, it is a file HailoRT 5\.2\.0 refuses with HAILO_HEF_FILE_CORRUPTED .*copy or compile it again\./,
    ],
    [[setup.hefs.crashes], {}, /classifier-no-buffer-indices\.hef was not opened: HailoRT 5\.2\.0 would crash on it \(.*no buffer_indices/],
    [
      [setup.hefs.hailo8],
      {},
      /classifier-hailo8\.hef was compiled for legacy hailo8 \(hw_arch 0\) \(runs on HAILO8\), but the device is a HAILO10H: recompile it with the Dataflow Compiler \(--hw-arch hailo10h\)\./,
    ],
    [[setup.hefs.classifier], { FAKE_HAILORT_FAULT: 'not-compatible' }, /not compatible with this device \(status 93\)/],
    [[setup.hefs.classifier], { FAKE_HAILORT_FAULT: 'not-supported' }, /does not support the HEF \(status 92\)/],
    [['--timeout', '200', setup.hefs.classifier], { FAKE_HAILORT_FAULT: 'timeout' }, /did not answer in time.*\[HAILO_TIMEOUT, status 4\]/],
    [[setup.hefs.classifier], { FAKE_HAILORT_FAULT: 'crash' }, /The device worker stopped unexpectedly.*killed by SIGABRT.*injected crash/],
    [['--input', 'nothing.png', setup.hefs.classifier], {}, /nothing\.png/],
    [[join(setup.dir, 'missing.hef')], {}, /The HEF was not read: cannot open '.*missing\.hef': no such file; check the path\./],
  ];
  for (const [args, env, sentence] of cases) {
    const r = await cli(['run', '--frames', '5', ...args], setup.cliEnv(env));
    assert.equal(r.code, 2, `${args.join(' ')} ${JSON.stringify(env)}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, sentence);
    assert.equal(
      r.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('hailo-tools:')).length,
      1,
      r.stderr,
    );
    // One sentence says its detail once (a crash refusal printed its reason twice).
    const repeated = [...r.stderr.matchAll(/(?=(.{60}))/gs)].map((m) => m[1]).find((s, i, all) => all.indexOf(s) !== i);
    assert.equal(repeated, undefined, r.stderr);
  }
});

test('run: usage errors exit 2', async () => {
  assert.equal((await cli(['run'])).code, 2);
  assert.equal((await cli(['run', '--format', 'int4', 'x.hef'])).code, 2);
  assert.equal((await cli(['run', '--frames', '0', 'x.hef'])).code, 2);
  assert.match((await cli(['run', '--help'])).stdout, /usage: hailo-tools run/);
});
