// The compile runner (server/src/processes/compile) against the fake docker CLI (test/fakes/docker), which
// runs the real driver script (driver/hailo_compile.py) under python3 with a fake hailo_sdk_client.
// Expected docker calls and messages come from docker's CLI reference and its own error texts;
// the fake records every argv it receives, so the tests check what would reach a real docker.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCompile, type CompileRun, type DockerSettings, type RunnerEnv } from '../../../server/src/processes/compile/runner';
import { bindMount, IN_CONTAINER, LABEL } from '../../../server/src/processes/compile/dockerArgs';
import { findLeftovers, removeContainers } from '../../../server/src/processes/compile/leftovers';
import { trustedLauncher } from '../../../server/src/processes/compile/launcher';
import { commandLineTrust } from '../../../server/src/core/common/trust';

const spawnLauncher = trustedLauncher(commandLineTrust('compile tests'));
import type { CompileInputs } from '../../../server/src/processes/compile/inputs';
import { DRIVER_DIR, FAKE_DOCKER, fakeDocker, scenario, type FakeDocker, NEEDS_PYTHON } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';

const TINY = join(repoRoot, 'examples', 'model', 'tinycnn.onnx');

function workspace(folderName = 'model'): { dir: string; model: string; cleanup(): void } {
  const root = mkdtempSync(join(tmpdir(), 'hailo-compile-'));
  const dir = join(root, folderName);
  mkdirSync(dir, { recursive: true });
  const model = join(dir, 'tinycnn.onnx');
  copyFileSync(TINY, model);
  return { dir, model, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const settings = (over: Partial<DockerSettings> = {}): DockerSettings => ({ dockerPath: FAKE_DOCKER, gpus: 'none', extraRunArgs: [], ...over });

async function compile(fd: FakeDocker, inputs: CompileInputs, over: Partial<DockerSettings> = {}, env: Partial<RunnerEnv> = {}) {
  process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
  let output = '';
  const run = await runCompile(inputs, settings(over), {
    launch: spawnLauncher,
    driverDir: DRIVER_DIR,
    onOutput: (t) => (output += t),
    ...env,
  });
  return { run, output };
}

const runArgv = (fd: FakeDocker) => fd.argv().find((a) => a[0] === 'run' || (a[0] === '--context' && a[2] === 'run'));
const outputsOf = (dir: string) => readdirSync(dir).filter((n) => /\.(har|hef)$/.test(n) || n.startsWith('.hailo-compile'));

function assertNoContainers(fd: FakeDocker, run: CompileRun) {
  assert.deepEqual(fd.containers(), [], 'no container is left behind');
  if (run.container) assert.equal(run.container.removed, true);
}

test(
  'success: parse → optimize → compile in a labelled container; outputs moved into the model folder; container removed',
  { skip: NEEDS_PYTHON },
  async () => {
    const fd = fakeDocker();
    const ws = workspace();
    try {
      const { run, output } = await compile(fd, { model: ws.model, hwArch: 'hailo10h', endNodes: ['/conv2/Conv'] });
      assert.equal(run.status, 'finished', JSON.stringify(run));
      assert.equal(run.exit?.code, 0);
      assert.deepEqual(run.outputs, {
        har: join(ws.dir, 'tinycnn.har'),
        optimizedHar: join(ws.dir, 'tinycnn_optimized.har'),
        hef: join(ws.dir, 'tinycnn.hef'),
      });
      assert.deepEqual(outputsOf(ws.dir).sort(), ['tinycnn.har', 'tinycnn.hef', 'tinycnn_optimized.har']);
      // The DFC's console passed through untouched (the replayed log's lines, in order).
      assert.match(output, /Translation completed on ONNX model tinycnn[\s\S]*Model Optimization is done[\s\S]*tinycnn Successful Compilation/);
      const argv = runArgv(fd)!;
      assert.ok(argv, 'docker run was called');
      const name = run.container!.name;
      assert.match(name, /^hailo-compile-tinycnn-[0-9a-f]{8}$/);
      assert.deepEqual(argv.slice(argv.indexOf('--name'), argv.indexOf('--name') + 2), ['--name', name]);
      assert.ok(argv.includes(`${LABEL}=1`));
      assert.deepEqual(argv.slice(argv.indexOf('--pull'), argv.indexOf('--pull') + 2), ['--pull', 'never']);
      assert.ok(argv.includes(bindMount(ws.dir, IN_CONTAINER.input(0), true)), 'model folder mounted read-only');
      assert.ok(argv.includes(bindMount(join(ws.dir, `.${name}`), IN_CONTAINER.out, false)), 'staging folder mounted read-write');
      assert.ok(!argv.includes('--gpus'));
      assert.deepEqual(fd.argv().at(-1), ['rm', '--force', name]);
      assertNoContainers(fd, run);
      // The driver called the DFC Python API with container paths and the node names given.
      const calls = fd.calls();
      assert.deepEqual(
        calls.map((c) => c.method),
        ['ClientRunner', 'translate_onnx_model', 'save_har', 'optimize', 'save_har', 'compile'],
      );
      assert.deepEqual(calls[1].args, [`${IN_CONTAINER.input(0)}/tinycnn.onnx`, 'tinycnn']);
      assert.deepEqual(calls[1].kwargs.end_node_names, ['/conv2/Conv']);
      assert.equal(calls[1].kwargs.start_node_names, null);
      assert.equal(run.manifest?.calibration?.source, 'random');
    } finally {
      ws.cleanup();
      fd.cleanup();
    }
  },
);

test('a model script, calibration set and hailo-config.json beside the model reach the DFC API', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker();
  const ws = workspace();
  const other = mkdtempSync(join(tmpdir(), 'hailo-calib-'));
  try {
    writeFileSync(join(ws.dir, 'tinycnn.alls'), 'normalization1 = normalization([0, 0, 0], [255, 255, 255])\n');
    writeFileSync(join(ws.dir, 'hailo-config.json'), '{"patch_size": 16}\n');
    const calib = join(other, 'calib.npy');
    // A real .npy (NumPy format 1.0): float32, shape (4, 8, 8, 3), zeros.
    const header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 8, 8, 3), }";
    const pad = 64 - ((10 + header.length + 1) % 64);
    const h = Buffer.from(header + ' '.repeat(pad) + '\n', 'latin1');
    const pre = Buffer.from([0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59, 1, 0, h.length & 0xff, h.length >> 8]);
    writeFileSync(calib, Buffer.concat([pre, h, Buffer.alloc(4 * 8 * 8 * 3 * 4)]));
    const { run } = await compile(fd, { model: ws.model, hwArch: 'hailo10h', modelScript: join(ws.dir, 'tinycnn.alls'), calibration: calib });
    assert.equal(run.status, 'finished', JSON.stringify(run));
    const calls = fd.calls();
    const by = (m: string) => calls.find((c) => c.method === m)!;
    assert.deepEqual(by('add_external_file').args, ['hailo-config.json', `${IN_CONTAINER.input(0)}/hailo-config.json`]);
    assert.deepEqual(by('load_model_script').args, [`${IN_CONTAINER.input(0)}/tinycnn.alls`]);
    assert.deepEqual(by('optimize').args, [{ ndarray: [4, 8, 8, 3], dtype: 'float32' }]);
    // The calibration set's own folder is a second read-only mount.
    assert.ok(runArgv(fd)!.includes(bindMount(other, IN_CONTAINER.input(1), true)));
    assert.deepEqual(run.manifest?.hailoConfig, { requested: true, embedded: true, method: 'add_external_file' });
    assert.equal(run.manifest?.calibration?.source, 'file');
  } finally {
    ws.cleanup();
    rmSync(other, { recursive: true, force: true });
    fd.cleanup();
  }
});

test('paths with spaces, quotes, commas and $() reach docker as one argv entry each; nothing runs them', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker();
  const hostile = `we ird "q" $(touch PWNED) 'x', y`;
  const ws = workspace(hostile);
  try {
    const model = join(ws.dir, 'my model $(touch PWNED2).onnx');
    copyFileSync(ws.model, model);
    const { run } = await compile(fd, { model, hwArch: 'hailo10h' });
    assert.equal(run.status, 'finished', JSON.stringify(run));
    const argv = runArgv(fd)!;
    // One entry, CSV-quoted as docker's --mount parser (Go encoding/csv) requires; the fake parses
    // it the same way and only ran because the source it read back exists.
    const mount = bindMount(ws.dir, IN_CONTAINER.input(0), true);
    assert.ok(argv.includes(mount), mount);
    assert.match(mount, /^type=bind,"source=[^]*""q""[^]*",target=/);
    // Driver options as `--name=value` (a name starting with '-' stays a value for argparse).
    assert.ok(argv.includes(`--model=${IN_CONTAINER.input(0)}/my model $(touch PWNED2).onnx`));
    assert.ok(argv.includes('--net=my model $(touch PWNED2)'), 'network name = the model base name, verbatim');
    assert.equal(fd.calls()[1].args[0], `${IN_CONTAINER.input(0)}/my model $(touch PWNED2).onnx`);
    assert.ok(existsSync(join(ws.dir, 'my model $(touch PWNED2).hef')));
    for (const where of [ws.dir, join(ws.dir, '..'), repoRoot, process.cwd()]) {
      assert.equal(existsSync(join(where, 'PWNED')) || existsSync(join(where, 'PWNED2')), false, `no shell ran in ${where}`);
    }
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test('cancel mid-stage: the container is killed and removed, no partial output, the previous HEF is kept', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker({ scenario: scenario('slow-calibration') });
  const ws = workspace();
  try {
    writeFileSync(join(ws.dir, 'tinycnn.hef'), 'previous good HEF');
    const controller = new AbortController();
    let sawCalibration = false;
    const { run } = await compile(
      fd,
      { model: ws.model, hwArch: 'hailo10h' },
      {},
      {
        signal: controller.signal,
        onOutput: (t) => {
          if (!sawCalibration && /Calibration:\s+\d+%/.test(t)) {
            sawCalibration = true;
            controller.abort();
          }
        },
      },
    );
    assert.ok(sawCalibration, 'the optimize stage was running');
    assert.equal(run.status, 'cancelled');
    assertNoContainers(fd, run);
    const name = run.container!.name;
    // `docker rm --force` while the container ran (the cancel), and once more on the way out;
    // the DFC never got to compile (16 s of calibration were left when it was killed).
    assert.equal(fd.argv().filter((a) => a[0] === 'rm' && a.includes(name)).length, 2);
    assert.ok(!fd.calls().some((c) => c.method === 'compile'));
    // Parse had finished, but a cancelled run moves nothing, and the staging folder is gone.
    assert.deepEqual(outputsOf(ws.dir), ['tinycnn.hef']);
    assert.equal(readFileSync(join(ws.dir, 'tinycnn.hef'), 'utf8'), 'previous good HEF');
    assert.equal(run.outputs.hef, null);
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test('a DFC failure in optimize: the parsed HAR is delivered, nothing after it, the previous HEF is kept', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker({ scenario: scenario('fail-optimize') });
  const ws = workspace();
  try {
    writeFileSync(join(ws.dir, 'tinycnn.hef'), 'previous good HEF');
    const { run, output } = await compile(fd, { model: ws.model, hwArch: 'hailo10h' });
    assert.equal(run.status, 'finished');
    assert.equal(run.exit?.code, 1);
    assert.equal(run.problem, undefined, 'a DFC failure is not a docker problem');
    // Python's own traceback of the DFC's exception, passed through.
    assert.match(output, /Traceback \(most recent call last\):[\s\S]*AttributeError: 'function' object has no attribute 'set_wraparound_loss'/);
    assert.deepEqual(run.outputs, { har: join(ws.dir, 'tinycnn.har'), optimizedHar: null, hef: null });
    assert.deepEqual(outputsOf(ws.dir).sort(), ['tinycnn.har', 'tinycnn.hef']);
    assert.equal(readFileSync(join(ws.dir, 'tinycnn.hef'), 'utf8'), 'previous good HEF');
    assertNoContainers(fd, run);
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test('exit 137 (out of memory) points at the memory limit setting; nothing is delivered', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker({ scenario: scenario('oom-optimize') });
  const ws = workspace();
  try {
    const { run } = await compile(fd, { model: ws.model, hwArch: 'hailo10h' }, { memoryLimit: '30g' });
    assert.equal(run.exit?.code, 137);
    assert.equal(run.exit?.oomKilled, true);
    assert.equal(run.problem?.kind, 'out-of-memory');
    assert.equal(run.problem?.setting, 'hailo.dfc.memoryLimit');
    assert.match(run.problem!.message, /exit 137, out of memory.*30g.*hailo\.dfc\.memoryLimit.*--memory/);
    assert.ok(runArgv(fd)!.join(' ').includes('--memory 30g'));
    assert.deepEqual(run.outputs, { har: null, optimizedHar: null, hef: null });
    assert.deepEqual(outputsOf(ws.dir), []);
    assertNoContainers(fd, run);
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test('two compiles of the same model at once do not collide (names, staging, outputs)', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker({ scenario: scenario('quick-calibration') });
  const ws = workspace();
  try {
    const [a, b] = await Promise.all([compile(fd, { model: ws.model, hwArch: 'hailo10h' }), compile(fd, { model: ws.model, hwArch: 'hailo10h' })]);
    assert.equal(a.run.status, 'finished', JSON.stringify(a.run));
    assert.equal(b.run.status, 'finished', JSON.stringify(b.run));
    assert.notEqual(a.run.container!.name, b.run.container!.name);
    assert.equal(a.run.exit?.code, 0);
    assert.equal(b.run.exit?.code, 0);
    assert.deepEqual(outputsOf(ws.dir).sort(), ['tinycnn.har', 'tinycnn.hef', 'tinycnn_optimized.har']);
    assert.deepEqual(readFileSync(join(ws.dir, 'tinycnn.hef')), readFileSync(join(repoRoot, 'examples', 'qwen3vl-vision-encoder-no-config.hef')));
    assert.deepEqual(fd.containers(), []);
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test('remote docker context: inputs in and outputs out by docker cp only, never a bind mount', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker({ contexts: { default: 'unix:///var/run/docker.sock', 'gpu-box': 'ssh://dev@gpu-box' } });
  const root = mkdtempSync(join(tmpdir(), 'hailo-remote-'));
  try {
    // An ONNX with external data: the data file must travel with it.
    for (const f of ['ext.onnx', 'ext.onnx.data']) copyFileSync(join(repoRoot, 'test', 'fixtures', 'onnx', f), join(root, f));
    writeFileSync(join(root, 'hailo-config.json'), '{"patch_size": 16}\n');
    writeFileSync(join(root, 'ext.hef'), 'previous good HEF');
    const { run } = await compile(fd, { model: join(root, 'ext.onnx'), hwArch: 'hailo10h' }, { context: 'gpu-box' });
    assert.equal(run.status, 'finished', JSON.stringify(run));
    assert.equal(run.container?.transfer, 'copy');
    const argv = fd.argv();
    assert.ok(
      argv.every((a) => a[0] === '--context' && a[1] === 'gpu-box'),
      'every call names the context',
    );
    const calls = argv.map((a) => a.slice(2));
    assert.ok(!calls.some((a) => a.includes('--mount') || a.includes('-v') || a.includes('--volume')), 'no bind mount');
    assert.ok(!calls.some((a) => a[0] === 'run'), 'no docker run (create + cp + start)');
    const name = run.container!.name;
    const order = calls.map((a) => a.slice(0, 2).join(' ')).filter((s) => /^(create|cp|start|rm) /.test(s));
    assert.deepEqual(order, ['create --name', 'cp -', `start --attach`, `cp ${name}:${IN_CONTAINER.out}`, 'rm --force']);
    assert.deepEqual(
      calls.find((a) => a[0] === 'cp' && a[1] === '-'),
      ['cp', '-', `${name}:/tmp`],
    );
    // What arrived in the container: the model, its external data, the config, the driver.
    const seen = fd.calls();
    assert.equal(seen[1].args[0], `${IN_CONTAINER.input(0)}/ext.onnx`);
    assert.deepEqual(seen.find((c) => c.method === 'add_external_file')?.args, ['hailo-config.json', `${IN_CONTAINER.input(0)}/hailo-config.json`]);
    assert.ok(readFileSync(join(root, 'ext.hef')).length > 1000, 'the new HEF replaced the old one');
    assert.ok(existsSync(join(root, 'ext_optimized.har')));
    assert.deepEqual(fd.containers(), []);
  } finally {
    rmSync(root, { recursive: true, force: true });
    fd.cleanup();
  }
});

test('remote context failure: a failed run still copies out the finished stages, atomically', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker({ scenario: scenario('fail-optimize'), contexts: { default: 'unix:///var/run/docker.sock', far: 'tcp://10.0.0.9:2376' } });
  const ws = workspace();
  try {
    writeFileSync(join(ws.dir, 'tinycnn.hef'), 'previous good HEF');
    const { run } = await compile(fd, { model: ws.model, hwArch: 'hailo10h' }, { context: 'far' });
    assert.equal(run.exit?.code, 1);
    assert.deepEqual(run.outputs, { har: join(ws.dir, 'tinycnn.har'), optimizedHar: null, hef: null });
    assert.equal(readFileSync(join(ws.dir, 'tinycnn.hef'), 'utf8'), 'previous good HEF');
    assert.deepEqual(outputsOf(ws.dir).sort(), ['tinycnn.har', 'tinycnn.hef']);
    assert.deepEqual(fd.containers(), []);
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test('GPUs: auto asks docker for an NVIDIA runtime; all without one is refused with the fixing setting', { skip: NEEDS_PYTHON }, async () => {
  const ws = workspace();
  const fd = fakeDocker({ runtimes: ['runc', 'nvidia'] });
  try {
    const auto = await compile(fd, { model: ws.model, hwArch: 'hailo10h' }, { gpus: 'auto' });
    assert.equal(auto.run.container?.gpus, true);
    assert.ok(runArgv(fd)!.join(' ').includes('--gpus all'));
    fd.configure({ runtimes: ['runc'] });
    const noRuntime = await compile(fd, { model: ws.model, hwArch: 'hailo10h' }, { gpus: 'auto' });
    assert.equal(noRuntime.run.container?.gpus, false);
    const refused = await compile(fd, { model: ws.model, hwArch: 'hailo10h' }, { gpus: 'all' });
    assert.equal(refused.run.status, 'docker-failed');
    assert.equal(refused.run.problem?.kind, 'no-gpu-runtime');
    assert.match(refused.run.problem!.message, /NVIDIA Container Toolkit.*hailo\.dfc\.gpus.*--gpus none/);
    // docker created the container before refusing to start it: it must not stay behind.
    assert.deepEqual(fd.containers(), []);
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test("docker's own failures: one sentence each, with the setting or command that fixes it", { skip: NEEDS_PYTHON }, async () => {
  const ws = workspace();
  const fd = fakeDocker();
  try {
    const cases: [Parameters<FakeDocker['configure']>[0], Partial<DockerSettings>, string, RegExp][] = [
      [{}, { dockerPath: join(ws.dir, 'no-such-docker') }, 'docker-missing', /^Docker was not found .*hailo\.dfc\.dockerPath \(CLI: --docker PATH\)/],
      [{ daemon: 'down' }, {}, 'daemon-down', /^The docker daemon is not reachable: start Docker/],
      [{ daemon: 'permission' }, {}, 'permission-denied', /^Permission denied on the docker daemon's socket: .*usermod -aG docker/],
      [{ images: [] }, {}, 'image-missing', /^Docker image 'hailo_ai_sw_suite_2026-04:1' is not loaded: .*docker load.*hailo\.dfc\.image \(CLI: --image\)/],
      [{}, { image: 'hailo_ai_sw_suite_2099-01:1' }, 'image-missing', /'hailo_ai_sw_suite_2099-01:1' is not loaded/],
      [{}, { context: 'nope' }, 'context-missing', /^Docker context 'nope' does not exist: .*hailo\.dfc\.dockerContext \(CLI: --context\)/],
    ];
    for (const [config, over, kind, message] of cases) {
      fd.configure(config);
      const { run } = await compile(fd, { model: ws.model, hwArch: 'hailo10h' }, over);
      assert.equal(run.status, 'docker-failed', `${kind}: ${JSON.stringify(run)}`);
      assert.equal(run.problem?.kind, kind);
      assert.match(run.problem!.message, message);
      assert.equal(run.problem!.message.split(/[.:] [A-Z]/).length >= 1, true);
      assert.ok(!fd.argv().some((a) => a.includes('run')), `${kind}: no container was started`);
      assert.deepEqual(outputsOf(ws.dir), []);
      rmSync(join(fd.dir, 'argv.jsonl'), { force: true });
    }
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

// The DFC lines split (../shared/docs/hailo-users-2026.md §2: "3.34 rejects hailo10h (\"Please use Dataflow
// Compiler v5.x\"), 5.4 rejects hailo8/hailo8l"): the image's line is known from its name or labels
// before docker runs anything, and a target it cannot build is refused in one sentence.
test(
  'an image whose DFC line cannot build the target is refused before any container runs, naming the image, its DFC and the line to use',
  { skip: NEEDS_PYTHON },
  async () => {
    const ws = workspace();
    const fd = fakeDocker();
    try {
      const images = ['hailo_ai_sw_suite_2026-08:1', 'hailo8_ai_sw_suite_2026-07:1', 'my-dfc:latest', 'iacaelectronique/hailo-compiler:5.2.0'];
      fd.configure({ images, imageLabels: { 'my-dfc:latest': { 'com.hailo.dfc.version': '3.34.0' } } });
      const cases: [string, string, RegExp][] = [
        [
          'hailo_ai_sw_suite_2026-08:1',
          'hailo8l',
          /^The image 'hailo_ai_sw_suite_2026-08:1' carries Dataflow Compiler 5\.4\.0 \(the suite hailo_ai_sw_suite_2026-08\), which builds only Hailo-10H\/15 and refuses hailo8l: use a Dataflow Compiler 3\.x image/,
        ],
        [
          'hailo8_ai_sw_suite_2026-07:1',
          'hailo10h',
          /^The image 'hailo8_ai_sw_suite_2026-07:1' carries Dataflow Compiler 3\.34\.0 \(the suite hailo8_ai_sw_suite_2026-07\), which builds only Hailo-8\/8L\/8R and refuses hailo10h: use a Dataflow Compiler 5\.x image/,
        ],
        ['my-dfc:latest', 'hailo10h', /^The image 'my-dfc:latest' carries Dataflow Compiler 3\.34\.0 \(its label com\.hailo\.dfc\.version=3\.34\.0\)/],
        [
          'iacaelectronique/hailo-compiler:5.2.0',
          'hailo8',
          /carries Dataflow Compiler 5\.2\.0 \(its tag 5\.2\.0\), which builds only Hailo-10H\/15 and refuses hailo8/,
        ],
      ];
      for (const [image, hwArch, message] of cases) {
        const { run } = await compile(fd, { model: ws.model, hwArch }, { image });
        assert.equal(run.status, 'docker-failed', `${image}: ${JSON.stringify(run)}`);
        assert.equal(run.problem?.kind, 'image-wrong-line');
        assert.equal(run.problem?.setting, 'hailo.dfc.image');
        assert.match(run.problem!.message, message);
        assert.ok(!fd.argv().some((a) => a.includes('run') || a.includes('create')), `${image}: no container was started`);
        assert.deepEqual(outputsOf(ws.dir), []);
        rmSync(join(fd.dir, 'argv.jsonl'), { force: true });
      }
      // The right line builds: the same 3.34 image for hailo8l runs its stages.
      const ok = await compile(fd, { model: ws.model, hwArch: 'hailo8l' }, { image: 'hailo8_ai_sw_suite_2026-07:1' });
      assert.equal(ok.run.status, 'finished', JSON.stringify(ok.run));
      // No setting: the picker prefers the image of the target's line (hailo8_ for hailo8l).
      rmSync(join(fd.dir, 'argv.jsonl'), { force: true });
      const picked = await compile(fd, { model: ws.model, hwArch: 'hailo8l' });
      assert.equal(picked.run.status, 'finished', JSON.stringify(picked.run));
      assert.equal(picked.run.container?.image, 'hailo8_ai_sw_suite_2026-07:1');
    } finally {
      ws.cleanup();
      fd.cleanup();
    }
  },
);

test('name clash: exit 125 is docker refusing, not a DFC failure; the other container is left alone', { skip: NEEDS_PYTHON }, async () => {
  const ws = workspace();
  const fd = fakeDocker();
  try {
    process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
    const { capture } = await import('../../../server/src/processes/compile/process');
    const made = await capture(spawnLauncher, FAKE_DOCKER, ['create', '--name', 'hailo-compile-tinycnn-cafe0001', 'hailo_ai_sw_suite_2026-04:1', 'python3']);
    assert.equal(made.code, 0, made.stderr);
    const { run } = await compile(fd, { model: ws.model, hwArch: 'hailo10h' }, {}, { nameSuffix: 'cafe0001' });
    assert.equal(run.status, 'docker-failed');
    assert.equal(run.exit?.code, 125);
    assert.equal(run.problem?.kind, 'name-clash');
    assert.equal(
      run.problem?.message,
      "A container named 'hailo-compile-tinycnn-cafe0001' already exists: remove it with 'docker rm -f hailo-compile-tinycnn-cafe0001' (or Hailo: Remove Leftover Compile Containers) and compile again.",
    );
    assert.equal(fd.calls().length, 0, 'the DFC never ran');
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test('leftover containers: found by label when their owner is gone, removed with their staging folder', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker();
  const out = mkdtempSync(join(tmpdir(), 'hailo-leftover-'));
  try {
    process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
    const { capture } = await import('../../../server/src/processes/compile/process');
    const { hostname } = await import('node:os');
    const mk = (name: string, owner: string, labelled = true, staging = '') =>
      capture(spawnLauncher, FAKE_DOCKER, [
        'create',
        '--name',
        name,
        ...(labelled ? ['--label', `${LABEL}=1`] : []),
        '--label',
        `dev.hailo-tools.owner=${owner}`,
        '--label',
        `dev.hailo-tools.staging=${staging}`,
        '--label',
        'dev.hailo-tools.model=/m/a b.onnx',
        'hailo_ai_sw_suite_2026-04:1',
        'python3',
      ]);
    const staging = join(out, '.hailo-compile-dead-1');
    mkdirSync(staging);
    writeFileSync(join(staging, 'tinycnn.har'), 'half');
    await mk('hailo-compile-dead-1', `${hostname()}:999999`, true, staging);
    await mk('hailo-compile-dead-2', `${hostname()}:999998`, true, out); // a label naming another folder: never deleted
    await mk('live-owner', `${hostname()}:${process.ppid}`);
    await mk('other-host', 'elsewhere:1');
    await mk('not-ours', `${hostname()}:999999`, false);
    const target = { dockerPath: FAKE_DOCKER };
    const { leftovers, problem } = await findLeftovers(spawnLauncher, target);
    assert.equal(problem, undefined);
    assert.deepEqual(
      leftovers.map((c) => [c.name, c.state, c.staging, c.model]),
      [
        ['hailo-compile-dead-1', 'created', staging, '/m/a b.onnx'],
        ['hailo-compile-dead-2', 'created', out, '/m/a b.onnx'],
      ],
    );
    assert.deepEqual(await removeContainers(spawnLauncher, target, leftovers), []);
    assert.deepEqual(fd.containers().sort(), ['live-owner', 'not-ours', 'other-host']);
    assert.equal(existsSync(staging), false, 'the staging folder went with its container');
    assert.equal(existsSync(out), true, 'a label cannot make it delete anything else');
    fd.configure({ daemon: 'down' });
    const down = await findLeftovers(spawnLauncher, target);
    assert.equal(down.problem?.kind, 'daemon-down');
  } finally {
    rmSync(out, { recursive: true, force: true });
    fd.cleanup();
  }
});

test('bad inputs: one sentence, before docker is touched', { skip: NEEDS_PYTHON }, async () => {
  const fd = fakeDocker();
  const ws = workspace();
  try {
    writeFileSync(join(ws.dir, 'notes.txt'), 'x');
    const cases: [CompileInputs, RegExp][] = [
      [{ model: join(ws.dir, 'missing.onnx'), hwArch: 'hailo10h' }, /^The model '.*missing\.onnx' does not exist\.$/],
      [{ model: join(ws.dir, 'notes.txt'), hwArch: 'hailo10h' }, /^The model must be an \.onnx or a \.har file, not 'notes\.txt'\.$/],
      [{ model: ws.model, hwArch: 'hailo10h', modelScript: join(ws.dir, 'nope.alls') }, /^The model script '.*nope\.alls' does not exist\.$/],
      [{ model: ws.model, hwArch: 'hailo10h', calibration: join(ws.dir, 'notes.txt') }, /^The calibration set must be a NumPy \.npy/],
      [{ model: ws.model, hwArch: 'hailo10h; rm -rf /' }, /is not a hardware architecture name/],
      [{ model: ws.model, hwArch: 'hailo10h', outDir: join(ws.dir, 'notes.txt') }, /^The output folder '.*notes\.txt' is a file\.$/],
    ];
    for (const [inputs, message] of cases) {
      const { run } = await compile(fd, inputs);
      assert.equal(run.status, 'input-error');
      assert.match(run.inputError ?? '', message);
    }
    assert.deepEqual(fd.argv(), []);
  } finally {
    ws.cleanup();
    fd.cleanup();
  }
});

test(
  'a container killed or removed from outside the compile: one sentence saying so (not the memory limit), outcome killed, nothing delivered',
  { skip: NEEDS_PYTHON },
  async () => {
    const { compileModel } = await import('../../../server/src/processes/compile/session');
    const { capture } = await import('../../../server/src/processes/compile/process');
    for (const [how, args, message] of [
      [
        'killed',
        ['kill'],
        /^Docker container 'hailo-compile-tinycnn-[0-9a-f]+' was killed from outside this compile \(exit 137 with no out-of-memory kill recorded by docker: 'docker kill', 'docker stop', 'docker rm -f'/,
      ],
      ['removed', ['rm', '--force'], /^Docker container 'hailo-compile-tinycnn-[0-9a-f]+' was removed from outside this compile while it ran/],
    ] as const) {
      const fd = fakeDocker({ scenario: scenario('slow-calibration') });
      const ws = workspace();
      try {
        process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
        writeFileSync(join(ws.dir, 'tinycnn.hef'), 'previous good HEF');
        let killing: Promise<unknown> | undefined;
        const outcome = await compileModel(
          { model: ws.model, hwArch: 'hailo10h' },
          settings(),
          { launch: spawnLauncher, driverDir: DRIVER_DIR },
          {
            onOutput: (t) => {
              // Someone else's `docker kill` / `docker rm -f` while calibration runs.
              if (!killing && /Calibration:\s+\d+%/.test(t)) killing = capture(spawnLauncher, FAKE_DOCKER, [...args, fd.containers()[0]!]);
            },
          },
        );
        assert.ok(killing, `${how}: the optimize stage was running`);
        assert.equal((await killing) && outcome.run.problem?.kind, 'killed-outside', `${how}: ${JSON.stringify(outcome.run.problem)}`);
        assert.match(outcome.run.problem!.message, message);
        const report = outcome.report!;
        assert.equal(report.outcome, 'killed');
        const codes = report.diagnostics.map((d) => d.code);
        assert.ok(!codes.includes('dfc/memory-killed'), `${how}: no memory-limit advice when docker says it was not out of memory (${codes.join(', ')})`);
        assert.equal(report.diagnostics.filter((d) => d.code === 'dfc/docker').length, 1);
        assert.deepEqual(
          outputsOf(ws.dir).filter((n) => n !== 'tinycnn.dfc.log'),
          ['tinycnn.hef'],
        );
        assert.equal(readFileSync(join(ws.dir, 'tinycnn.hef'), 'utf8'), 'previous good HEF');
        assertNoContainers(fd, outcome.run);
      } finally {
        ws.cleanup();
        fd.cleanup();
      }
    }
  },
);
