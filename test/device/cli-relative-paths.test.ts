// The commands that cross into the device worker take relative paths as a user types them:
// `hailo-tools run` and `hailo-tools chat` run from the folder holding the files (a child process
// whose cwd is that folder) and name them relatively; the worker itself runs in another folder
// (HailoRT's log folder, or the temp folder). And the boundary: DeviceClient resolves a relative HEF
// or input against the caller's folder before the request crosses. On the fake libhailort; the
// expected figures are the fixture's (the image's pixels, the checks the run always makes).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { PNG } from 'pngjs';
import { DeviceClient } from '../../server/src/processes/device/client';
import { commandLineTrust } from '../../server/src/core/common/trust';
import { deviceSetup, fakeEnv, type DeviceSetup } from '../fakes/fakeHailort';
import { genaiSetup, type GenAiSetup } from '../helpers/genaiFixtures';
import { repoRoot } from '../helpers/shared';

let device: DeviceSetup;
let genai: GenAiSetup;
let elsewhere: string;
before(async () => {
  device = await deviceSetup('cli-relative-device');
  genai = await genaiSetup('cli-relative-genai');
  elsewhere = mkdtempSync(join(tmpdir(), 'hailo-worker-elsewhere-'));
  for (const dir of [device.dir, genai.dir]) {
    mkdirSync(join(dir, 'sysfs', 'sys', 'module', 'hailo1x_pci'), { recursive: true });
    mkdirSync(join(dir, 'images'), { recursive: true });
  }
});
after(() => {
  device?.cleanup();
  genai?.cleanup();
  rmSync(elsewhere, { recursive: true, force: true });
});

function png(file: string, width: number, height: number, rgb: [number, number, number]): void {
  const image = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) image.data.set([...rgb, 255], i * 4);
  writeFileSync(file, PNG.sync.write(image));
}

function cli(cwd: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), ...args], {
      cwd,
      env: { ...process.env, ...env, HAILO_TOOLS_SYSFS_ROOT: join(cwd, 'sysfs') },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

test('run: a relative HEF and a relative input image', async () => {
  png(join(device.dir, 'images', 'grey.png'), 40, 30, [128, 128, 128]);
  const hef = basename(device.hefs.classifier);
  const r = await cli(device.dir, ['run', '--json', '--frames', '10', '--input', 'images/grey.png', hef], device.cliEnv());
  assert.equal(r.code, 0, r.stderr);
  const report = JSON.parse(r.stdout) as { hef: string; input: { text?: string }; checks: { id: string; pass: boolean }[] };
  assert.equal(report.hef, device.hefs.classifier);
  assert.match(JSON.stringify(report.input), /grey\.png/);
  assert.deepEqual(
    report.checks.map((c) => `${c.id}:${c.pass}`),
    ['different-inputs:true', 'same-input-twice:true', 'undersized-refused:true'],
  );
});

test('chat: a relative VLM HEF and a relative --image', async () => {
  png(join(genai.dir, 'images', 'blue.png'), 33, 20, [10, 20, 250]);
  const r = await cli(genai.dir, ['chat', '--image', 'images/blue.png', basename(genai.hefs.vlm), 'describe'], genai.env());
  assert.equal(r.code, 0, r.stderr);
  // The fake VLM describes each frame by its per-channel means (fake_genai.cpp): the image's colour.
  assert.match(r.stdout, /^You said: describe\. Image 1 means 10\.0\/20\.0\/250\.0/);
});

test('DeviceClient: a relative HEF and input are resolved against the caller folder, not the worker folder', async () => {
  const c = new DeviceClient({
    trust: commandLineTrust('test'),
    shim: device.shim,
    workerPath: join(repoRoot, 'dist', 'deviceWorker.js'),
    hailortLogDir: elsewhere,
    env: { ...fakeEnv(device.facts), HAILO_TOOLS_SYSFS_ROOT: join(device.dir, 'sysfs') },
  });
  const cwd = process.cwd();
  try {
    png(join(device.dir, 'images', 'white.png'), 8, 8, [255, 255, 255]);
    process.chdir(device.dir);
    const report = await c.run({
      hef: basename(device.hefs.classifier),
      input: { kind: 'image', path: 'images/white.png' },
      frames: 5,
      format: 'uint8',
      batch: 0,
      queue: 0,
      groupId: 'UNIQUE',
      timeoutMs: 5000,
    });
    assert.equal(report.hef, device.hefs.classifier);
    assert.ok(report.checks.every((x) => x.pass));
  } finally {
    process.chdir(cwd);
    c.dispose();
  }
});
