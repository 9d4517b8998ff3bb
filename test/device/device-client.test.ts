// The device path end to end on the fake libhailort: DeviceClient forks dist/deviceWorker.js,
// which loads the real shim (built by the product's own build step against the fake's headers)
// with koffi. Expected values come from the fake's configuration (what the simulated device is),
// from numpy (statistics), from the HEF's own bytes (resources), and from HailoRT's documented
// statuses (hailort5-api.md §1.8, §4).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, fork } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { DeviceClient, DeviceRequestError, type DeviceClientEvent } from '../../server/src/processes/device/client';
import { commandLineTrust } from '../../server/src/core/common/trust';
import type { RunOptions } from '../../server/src/core/device/protocol';
import { readHefFile, fileSource, readResource } from '../../server/src/core/hef';
import { deviceSetup, fakeEnv, type DeviceSetup } from '../fakes/fakeHailort';
import { repoRoot } from '../helpers/shared';

const WORKER = join(repoRoot, 'dist', 'deviceWorker.js');
let setup: DeviceSetup;
const clients: DeviceClient[] = [];

before(async () => {
  assert.ok(existsSync(WORKER), 'dist/deviceWorker.js is missing: run `npm run build` first');
  setup = await deviceSetup('device-client');
});
after(() => {
  for (const c of clients) c.dispose();
  setup?.cleanup();
});

function client(extra: Record<string, string> = {}, options: { events?: DeviceClientEvent[]; requestTimeoutMs?: number; hailortLogDir?: string } = {}) {
  const env = fakeEnv(setup.facts, { HAILO_TOOLS_SYSFS_ROOT: join(setup.dir, 'sysfs-with-driver'), ...extra });
  mkdirSync(join(setup.dir, 'sysfs-with-driver', 'sys', 'module', 'hailo1x_pci'), { recursive: true });
  const c = new DeviceClient({
    trust: commandLineTrust('test'),
    workerPath: WORKER,
    shim: setup.shim,
    env,
    requestTimeoutMs: options.requestTimeoutMs,
    hailortLogDir: options.hailortLogDir,
    onEvent: (e) => options.events?.push(e),
  });
  clients.push(c);
  return { c, env };
}

function runOptions(hef: string, extra: Partial<RunOptions> = {}): RunOptions {
  return { hef, input: { kind: 'random' }, frames: 40, format: 'uint8', batch: 0, queue: 0, groupId: 'UNIQUE', timeoutMs: 2000, ...extra };
}

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof DeviceRequestError, `expected a DeviceRequestError, got ${String(err)}`);
    return err.error;
  }
  assert.fail('expected the request to fail');
}

test('scan: the simulated device as configured (architecture, firmware), through the shim and koffi', async () => {
  const { c } = client({ FAKE_HAILORT_ARCH: 'HAILO15H', FAKE_HAILORT_FW: '5.1.1', FAKE_HAILORT_DEVICES: '2' });
  const scan = await c.scan();
  assert.equal(scan.runtime.fake, true);
  assert.equal(scan.runtime.hailortVersion, '5.2.0');
  assert.deepEqual(
    scan.devices.map((d) => [d.id, d.architecture, d.architectureId, d.firmware]),
    [
      ['0000:3c:00.0', 'HAILO15H', 3, '5.1.1 (release)'],
      ['0000:3d:00.0', 'HAILO15H', 3, '5.1.1 (release)'],
    ],
  );
  assert.equal(scan.driver, 'loaded');
});

test('run: the three checks pass, statistics equal numpy on the same output bytes, FPS by queue depth', async () => {
  const { c } = client();
  const r = await c.run(runOptions(setup.hefs.classifier, { keepTensors: true }));
  assert.deepEqual(
    r.checks.map((k) => [k.id, k.pass]),
    [
      ['different-inputs', true],
      ['same-input-twice', true],
      ['undersized-refused', true],
    ],
  );
  assert.match(r.checks[2].detail, /status=2 \(HAILO_INVALID_ARGUMENT\)/);
  assert.deepEqual(
    r.model.inputs.map((s) => [s.name, s.shape, s.type, s.order, s.frameSize]),
    [['efficientnet_lite0/input_layer1', [224, 224, 3], 'UINT8', 'NHWC', 150528]],
  );
  assert.deepEqual(
    r.model.outputs.map((s) => [s.name, s.shape, s.type, s.order, s.frameSize]),
    [['efficientnet_lite0/fc1', [1, 1, 1000], 'UINT8', 'NC', 1000]],
  );
  assert.equal(r.model.asyncQueueSize, 8);
  const out = r.tensors!.outputs['efficientnet_lite0/fc1'];
  const py = spawnSync(
    'python3',
    [
      '-c',
      'import sys,base64,hashlib,json,numpy as np\nb=base64.b64decode(sys.stdin.read())\na=np.frombuffer(b,dtype=np.uint8).astype(np.float64)\nprint(json.dumps([a.mean(),a.std(),a.min(),a.max(),int(a.argmax()),hashlib.sha256(b).hexdigest()[:16]]))',
    ],
    { input: out, encoding: 'utf8' },
  );
  assert.equal(py.status, 0, py.stderr);
  const [mean, std, min, max, argmax, sha] = JSON.parse(py.stdout);
  const s = r.outputs[0];
  assert.ok(Math.abs(s.mean - mean) < 1e-9 && Math.abs(s.std - std) < 1e-9, `${s.mean}/${s.std} vs numpy ${mean}/${std}`);
  assert.deepEqual([s.min, s.max, s.argmax, s.sha256], [min, max, argmax, sha]);
  assert.equal(
    s.histogram.counts.reduce((a, b) => a + b, 0),
    1000,
  );
  assert.deepEqual(
    r.fpsByQueue.map((p) => p.queueDepth),
    [1, 2, 4, 8],
  );
  // Not a timed test (figures live in bench/): only what holds under any load. The fake finishes a
  // frame no sooner than its 300 µs round trip, so no latency can be below it.
  for (const p of r.fpsByQueue) assert.ok(p.fps > 0 && Math.abs(p.fps * p.msPerFrame - 1000) < 1e-6 && p.frames === 40, JSON.stringify(p));
  assert.deepEqual(r.fps, r.fpsByQueue[3]);
  assert.ok(r.latency.p50Ms >= 0.3 && r.latency.p99Ms >= r.latency.p50Ms, JSON.stringify(r.latency));
  assert.equal(
    r.latency.histogram!.counts.reduce((a, b) => a + b, 0),
    r.latency.samples,
  );
});

test('run: float32 I/O changes frame sizes and gives de-quantised values', async () => {
  const { c } = client();
  const r = await c.run(runOptions(setup.hefs.classifier, { format: 'float32', keepTensors: true }));
  assert.deepEqual(
    [r.model.inputs[0].type, r.model.inputs[0].frameSize, r.model.outputs[0].type, r.model.outputs[0].frameSize],
    ['FLOAT32', 602112, 'FLOAT32', 4000],
  );
  // (q - zp) * scale with the HEF's zp 12, scale 0.0625, q in 0..255.
  assert.ok(r.outputs[0].min >= (0 - 12) * 0.0625 && r.outputs[0].max <= (255 - 12) * 0.0625, `${r.outputs[0].min}..${r.outputs[0].max}`);
  assert.ok(r.checks.every((k) => k.pass));
});

test('run: a device that ignores its input or is not deterministic fails the matching check', async () => {
  const constant = await client({ FAKE_HAILORT_FAULT: 'constant-output' }).c.run(runOptions(setup.hefs.classifier));
  assert.deepEqual(
    constant.checks.map((k) => k.pass),
    [false, true, true],
  );
  assert.match(constant.checks[0].detail, /IDENTICAL OUTPUT/);
  const noisy = await client({ FAKE_HAILORT_FAULT: 'nondeterministic' }).c.run(runOptions(setup.hefs.classifier));
  assert.deepEqual(
    noisy.checks.map((k) => k.pass),
    [true, false, true],
  );
});

test('run: an image input is resized to the input shape (a solid colour stays that colour)', async () => {
  const png = new PNG({ width: 5, height: 3 });
  for (let i = 0; i < 15; i++) png.data.set([200, 100, 50, 255], i * 4);
  const file = join(setup.dir, 'solid.png');
  writeFileSync(file, PNG.sync.write(png));
  const r = await client().c.run(runOptions(setup.hefs.classifier, { input: { kind: 'image', path: file }, keepTensors: true }));
  const bytes = Buffer.from(r.tensors!.inputs['efficientnet_lite0/input_layer1'], 'base64');
  assert.equal(bytes.length, 224 * 224 * 3);
  for (let i = 0; i < bytes.length; i += 3) assert.deepEqual([bytes[i], bytes[i + 1], bytes[i + 2]], [200, 100, 50]);
  assert.match(r.input.text, /solid\.png \(5x3\) resized bilinearly to 224x224, RGB/);
});

test('run: a .npy written by numpy feeds its frames (and a wrong-sized one is refused with a sentence)', async () => {
  const file = join(setup.dir, 'frames.npy');
  const py = spawnSync('python3', [
    '-c',
    `import numpy as np\nnp.save(${JSON.stringify(file)}, (np.arange(2*224*224*3) % 251).astype(np.uint8).reshape(2,224,224,3))`,
  ]);
  assert.equal(py.status, 0, String(py.stderr));
  const r = await client().c.run(runOptions(setup.hefs.classifier, { input: { kind: 'npy', path: file }, keepTensors: true }));
  const bytes = Buffer.from(r.tensors!.inputs['efficientnet_lite0/input_layer1'], 'base64');
  assert.deepEqual([...bytes.subarray(0, 3)], [0, 1, 2]);
  assert.equal(bytes[251], 0);
  assert.match(r.input.text, /frames\.npy, frames 0 and 1/);
  const bad = join(setup.dir, 'bad.npy');
  spawnSync('python3', ['-c', `import numpy as np\nnp.save(${JSON.stringify(bad)}, np.zeros((7,7), np.float32))`]);
  const e = await failure(client().c.run(runOptions(setup.hefs.classifier, { input: { kind: 'npy', path: bad } })));
  assert.equal(e.kind, 'bad-input');
  assert.match(
    e.message,
    /shape \(7, 7\) = 49 values, which is not a whole number of frames of input 'efficientnet_lite0\/input_layer1' \(224x224x3 = 150528 values\)/,
  );
});

test('failures: one DeviceError each, with HailoRT status where HailoRT said it', async () => {
  const driverDir = join(setup.dir, 'sysfs-with-driver');
  const cases: [string, Record<string, string>, string, string, number | null][] = [
    ['no device', { FAKE_HAILORT_FAULT: 'no-device', HAILO_TOOLS_SYSFS_ROOT: driverDir }, setup.hefs.classifier, 'no-device', 74],
    [
      'no driver',
      { FAKE_HAILORT_FAULT: 'driver-missing', HAILO_TOOLS_SYSFS_ROOT: join(setup.dir, 'empty-root') },
      setup.hefs.classifier,
      'driver-missing',
      null,
    ],
    ['busy (74 with a device listed)', { FAKE_HAILORT_FAULT: 'busy' }, setup.hefs.classifier, 'busy', 74],
    ['corrupted HEF', {}, setup.hefs.corrupted, 'hef-corrupted', 91],
    ['not supported', { FAKE_HAILORT_FAULT: 'not-supported' }, setup.hefs.classifier, 'hef-not-supported', 92],
    ['not compatible', { FAKE_HAILORT_FAULT: 'not-compatible' }, setup.hefs.classifier, 'hef-not-compatible', 93],
    ['architecture (our HEF reader, before HailoRT)', {}, setup.hefs.hailo8, 'arch-mismatch', null],
    ['timeout', { FAKE_HAILORT_FAULT: 'timeout' }, setup.hefs.classifier, 'timeout', 4],
  ];
  for (const [what, env, hef, kind, status] of cases) {
    const e = await failure(client(env).c.run(runOptions(hef, { timeoutMs: 300 })));
    assert.equal(e.kind, kind, `${what}: ${JSON.stringify(e)}`);
    assert.equal(e.status, status, what);
    assert.ok(e.sentence.length > 20 && !e.sentence.includes('undefined'), what);
  }
});

test('a HEF that crashes libhailort (no buffer_indices) is refused before the native open: the worker survives', async () => {
  const { c } = client({});
  const e = await failure(c.run(runOptions(setup.hefs.crashes)));
  assert.equal(e.kind, 'hef-unreadable', JSON.stringify(e));
  assert.equal(e.status, null);
  assert.match(e.sentence, /^classifier-no-buffer-indices\.hef was not opened: HailoRT 5\.2\.0 would crash on it \(.*has no buffer_indices/);
  assert.equal(c.restarts, 0, 'the worker was not lost');
  const r = await c.run(runOptions(setup.hefs.classifier));
  assert.ok(r.checks.every((k) => k.pass));
});

test('sharing: the same non-UNIQUE group id as the holder shares a busy device', async () => {
  const { c } = client({ FAKE_HAILORT_FAULT: 'busy', FAKE_HAILORT_HOLDER_GROUP: 'SHARED' });
  assert.equal((await failure(c.run(runOptions(setup.hefs.classifier)))).kind, 'busy');
  const r = await c.run(runOptions(setup.hefs.classifier, { groupId: 'SHARED' }));
  assert.ok(r.checks.every((k) => k.pass));
});

test('crash injection: the host survives, reports signal and last stderr line, and the next run works', async () => {
  const events: DeviceClientEvent[] = [];
  const { c, env } = client({ FAKE_HAILORT_FAULT: 'crash' }, { events });
  const e = await failure(c.run(runOptions(setup.hefs.classifier)));
  assert.equal(e.kind, 'worker-crashed');
  assert.match(e.message, /killed by SIGABRT/);
  assert.match(e.message, /injected crash \(FAKE_HAILORT_FAULT=crash\)/);
  assert.equal(c.restarts, 1);
  assert.ok(events.some((ev) => ev.type === 'crash'));
  env.FAKE_HAILORT_FAULT = '';
  const r = await c.run(runOptions(setup.hefs.classifier));
  assert.ok(r.checks.every((k) => k.pass));
  env.FAKE_HAILORT_FAULT = 'segv';
  c.stop();
  assert.match((await failure(c.run(runOptions(setup.hefs.classifier)))).message, /SIGSEGV/);
  env.FAKE_HAILORT_FAULT = '';
  assert.equal((await c.scan()).devices.length, 1);
  assert.equal(c.restarts, 2);
});

test('a worker stuck in native code is killed at the request timeout; the next request works', async () => {
  const { c, env } = client({ FAKE_HAILORT_FAULT: 'timeout' }, { requestTimeoutMs: 5000 });
  // HailoRT's own timeout (60 s) is longer than the client's: the client must not wait for it.
  const opened = await c.open(setup.hefs.classifier, { format: 'uint8', batch: 0, queue: 0, groupId: 'UNIQUE', timeoutMs: 60_000 });
  const t0 = Date.now();
  const e = await failure(c.infer(opened.handle, { 'efficientnet_lite0/input_layer1': Buffer.alloc(150528).toString('base64') }));
  assert.equal(e.kind, 'timeout');
  assert.ok(Date.now() - t0 < 20_000);
  env.FAKE_HAILORT_FAULT = '';
  assert.equal((await c.scan()).devices.length, 1);
});

test('open/infer/resource/close: the embedded hailo-config.json equals the bytes in the HEF; unknown names are null', async () => {
  const { c } = client();
  const opened = await c.open(setup.hefs.encoder, { format: 'uint8', batch: 0, queue: 0, groupId: 'UNIQUE', timeoutMs: 2000 });
  assert.deepEqual(opened.resources, ['hailo-config.json']);
  const got = await c.resource(opened.handle, 'hailo-config.json');
  const src = await fileSource(setup.hefs.encoder);
  const report = await readHefFile(setup.hefs.encoder);
  const expected = await readResource(src, report.externalResources, 'hailo-config.json');
  await src.close();
  assert.ok('bytes' in expected);
  assert.deepEqual(Buffer.from(got!.base64, 'base64'), Buffer.from(expected.bytes));
  assert.equal(await c.resource(opened.handle, 'missing.json'), null);
  const frame = await c.infer(opened.handle, { 'qwen3vl_vit/input_layer1': Buffer.alloc(512 * 512 * 3, 9).toString('base64') });
  assert.deepEqual(Object.keys(frame.outputs).sort(), [
    'qwen3vl_vit/deepstack_layer_1',
    'qwen3vl_vit/deepstack_layer_2',
    'qwen3vl_vit/deepstack_layer_3',
    'qwen3vl_vit/image_embeddings',
  ]);
  assert.equal(Buffer.from(frame.outputs['qwen3vl_vit/image_embeddings'], 'base64').length, 16 * 16 * 2560);
  const short = await failure(c.infer(opened.handle, { 'qwen3vl_vit/input_layer1': Buffer.alloc(100).toString('base64') }));
  assert.equal(short.kind, 'wrong-input-size');
  assert.match(short.message, /input is 100 bytes but one frame is 786432 bytes/);
  assert.equal(await c.close(opened.handle), null);
});

test('HailoRT 5.0 API (map-form resources, one architecture): the same shim source builds and reads the resource', async () => {
  const old = await deviceSetup('device-client-50', '5.0.1');
  try {
    const c = new DeviceClient({ trust: commandLineTrust('test'), workerPath: WORKER, shim: old.shim, env: fakeEnv(old.facts) });
    clients.push(c);
    assert.equal((await c.hello()).hailortVersion, '5.0.1');
    const opened = await c.open(old.hefs.encoder, { format: 'uint8', batch: 0, queue: 0, groupId: 'UNIQUE', timeoutMs: 2000 });
    const got = await c.resource(opened.handle, 'hailo-config.json');
    assert.match(Buffer.from(got!.base64, 'base64').toString('utf8'), /"patch_size": 16/);
    assert.equal(await c.resource(opened.handle, 'missing.json'), null);
  } finally {
    old.cleanup();
  }
});

test('HailoRT logging: hailort.log goes to the log folder given, never the current folder; none by default', async () => {
  const logs = join(setup.dir, 'logs');
  mkdirSync(logs, { recursive: true });
  const { c } = client({ FAKE_HAILORT_FAULT: 'not-supported' }, { hailortLogDir: logs });
  await failure(c.run(runOptions(setup.hefs.classifier)));
  assert.ok(readdirSync(logs).includes('hailort.log'));
  await failure(client({ FAKE_HAILORT_FAULT: 'not-supported' }).c.run(runOptions(setup.hefs.classifier)));
  assert.ok(!existsSync(join(process.cwd(), 'hailort.log')), 'hailort.log landed in the current folder');
});

test('the worker refuses to start without the trusted action its client passes', async () => {
  const child = fork(WORKER, [], {
    env: { ...process.env, HAILO_TOOLS_SHIM: setup.shim.shimPath, HAILO_TOOLS_TRUSTED_ACTION: '' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const code = await new Promise((done) => child.on('exit', done));
  assert.equal(code, 3);
  assert.match(stderr, /refusing to load native code without a TrustToken/);
});
