// A sweep on the fake docker (test/fakes/docker) with several hosts: a local one two compiles
// wide, a slow remote one, one whose daemon never answers and one that goes away in the middle
// of a compile. The real driver runs every variant against the fake DFC, which fails optimize on
// a16_w4 as DFC 5.3.0 does and replays the real hailomz log (2 contexts, its utilisation table)
// for compression_level=1. Then: nothing finished runs twice, cancel keeps finished variants and
// leaves no container, a variant goes to the host that has its image, a script the .alls rules
// refuse never reaches docker, and the accuracy column equals numbers known by construction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { FileRoots } from '../../../server/src/core/common/confined';
import { readPlan } from '../../../server/src/core/sweep/plan';
import { runSweep, type SweepEnv } from '../../../server/src/processes/sweep/run';
import { OnnxModelCache } from '../../../server/src/core/onnx/modelCache';
import { allFinished, type SweepDocument, type SweepRow } from '../../../server/src/core/sweep/table';
import { readResult } from '../../../server/src/core/sweep/results';
import { trustedLauncher } from '../../../server/src/processes/compile/launcher';
import { commandLineTrust } from '../../../server/src/core/common/trust';
import { locateOnnxRuntime, runOnnxInWorker } from '../../../server/src/processes/accuracy/ortProcess';
import { writeNpyFloat32 } from '../../../server/src/core/calib/npyRead';
import { DRIVER_DIR, FAKE_DOCKER, fakeDocker, scenario, NEEDS_PYTHON, type FakeDocker } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';
import { seededPixels, tinycnnFloatLogits, writeReplayedLogits } from '../../helpers/tinycnnOracle';

const trust = commandLineTrust('sweep tests');
const launch = trustedLauncher(trust);
const MODEL = join(repoRoot, 'examples', 'model');

function workspace(plan: Record<string, unknown>): { dir: string; planPath: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-sweep-'));
  for (const f of ['tinycnn_hailo_model.har', 'tinycnn.onnx', 'tinycnn.alls', 'tinycnn_calib.npy']) copyFileSync(join(MODEL, f), join(dir, f));
  const planPath = join(dir, 'tiny.sweep.json');
  writeFileSync(
    planPath,
    JSON.stringify({ model: 'tinycnn_hailo_model.har', alls: 'tinycnn.alls', calibration: 'tinycnn_calib.npy', hwArch: 'hailo10h', ...plan }, null, 1),
  );
  return { dir, planPath, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

const env = (over: Partial<SweepEnv> = {}): SweepEnv => ({ launch, driverDir: DRIVER_DIR, dockerPath: FAKE_DOCKER, extraRunArgs: [], ...over });

/** `docker [--context X] run|create …` calls, as the context they went to. */
function compilesBy(fd: FakeDocker): string[] {
  return fd
    .argv()
    .map((a) => (a[0] === '--context' ? { ctx: a[1], cmd: a[2] } : { ctx: '', cmd: a[0] }))
    .filter((c) => c.cmd === 'run' || c.cmd === 'create')
    .map((c) => c.ctx);
}

/** Containers the fake still holds, by the context they live on. */
function containersOn(fd: FakeDocker): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const name of fd.containers()) {
    const rec = JSON.parse(readFileSync(join(fd.dir, 'containers', `${name}.json`), 'utf8')) as { context: string };
    (out[rec.context] ??= []).push(name);
  }
  return out;
}

/** At no moment did a context run more compiles than its width (from the rows' start/end times). */
function assertWidths(doc: SweepDocument) {
  for (const c of doc.contexts) {
    const spans = doc.rows.filter((r) => r.dockerContext === c.name && r.startedAt && r.endedAt).map((r) => [Date.parse(r.startedAt!), Date.parse(r.endedAt!)]);
    for (const [s] of spans) {
      const at = spans.filter(([a, b]) => a <= s && s < b).length;
      assert.ok(at <= c.width, `context ${c.name} ran ${at} compiles at once (width ${c.width})`);
    }
  }
}

const byLabel = (doc: SweepDocument) => new Map(doc.rows.map((r) => [r.label, r]));

test(
  'four hosts: a slow one, one that never answers, one that goes away mid-compile; every variant ends, the lost one in one sentence, the rest elsewhere',
  { skip: NEEDS_PYTHON, timeout: 240_000 },
  async () => {
    const fd = fakeDocker({
      scenario: scenario('sweep'),
      contexts: { default: 'unix:///var/run/docker.sock', slow: 'ssh://ci@slow-box', broken: 'ssh://ci@broken-box', flaky: 'ssh://ci@flaky-box:2222' },
      contextOverrides: { slow: { scenario: scenario('sweep-slow') }, broken: { daemon: 'down' }, flaky: { vanishAfterMs: 600 } },
    });
    process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
    const ws = workspace({
      axes: { optimization_level: [0, 1], compression_level: [0, 1], precision_mode: { layers: ['conv1'], values: [null, 'a16_w4'] } },
      contexts: [{ name: 'default', width: 2 }, 'slow', 'broken', 'flaky'],
    });
    try {
      const plan = readPlan(ws.planPath);
      const progress: string[] = [];
      const doc = await runSweep(plan, env(), { onProgress: (l) => progress.push(l) });
      assert.equal(doc.rows.length, 8);
      const ctx = new Map(doc.contexts.map((c) => [c.name, c]));
      // The host that never answered: down from the start, with docker's own ssh error; nothing ran there.
      assert.equal(ctx.get('broken')!.state, 'down');
      assert.match(ctx.get('broken')!.message!, /context 'broken'/);
      assert.ok(!compilesBy(fd).includes('broken'));
      // The host that went away: the one variant running there is lost, in one sentence naming it.
      assert.deepEqual(fd.gone(), ['flaky']);
      assert.equal(ctx.get('flaky')!.state, 'down');
      const lost = doc.rows.filter((r) => r.state === 'lost');
      assert.equal(lost.length, 1, JSON.stringify(doc.rows.map((r) => [r.label, r.state, r.dockerContext, r.message])));
      assert.equal(lost[0].dockerContext, 'flaky');
      assert.match(
        lost[0].message!,
        /^The docker host went away while this variant ran on 'flaky': the docker host of context 'flaky' cannot be reached \(ssh: connect to host flaky-box port 2222: No route to host\): check that the host is up .*; the variant did not finish and runs again when the sweep is started again\./,
      );
      assert.equal(lost[0].finished, false);
      assert.equal(compilesBy(fd).filter((c) => c === 'flaky').length, 1, 'nothing more was sent to the host once it was gone');
      // The rest ran on the default (local) and slow hosts, within their widths.
      const others = doc.rows.filter((r) => r.state !== 'lost');
      assert.ok(others.every((r) => r.dockerContext === 'default' || r.dockerContext === 'slow'));
      assert.ok(
        others.some((r) => r.dockerContext === 'slow'),
        'the slow host took its share',
      );
      assertWidths(doc);
      // Outcomes are the DFC's (the fake's byScript rules read the derived script the container got).
      for (const r of others) {
        const a16w4 = r.values.precision_mode === 'a16_w4';
        assert.equal(r.state, a16w4 ? 'failed' : 'done', `${r.label}: ${r.message}`);
        assert.equal(r.finished, true, 'a DFC failure is a finished result');
        if (a16w4) {
          assert.equal(r.failedStage, 'optimize');
          assert.match(r.message!, /set_wraparound_loss/);
          assert.ok(
            r.notes.some((n) => /alls\/dfc-known-fault/.test(n)),
            'the .alls rules warned about it before it ran',
          );
          assert.equal(r.files.hef, null);
        } else {
          assert.ok(r.files.hef && existsSync(r.files.hef));
          assert.equal(r.hefBytes, readFileSync(r.files.hef).length);
          if (r.values.compression_level === '1') {
            // from the real hailomz log (test/fixtures/dfc SOURCES, case A): 2 contexts, 59.4 / 55.9 / 33.5 %
            assert.equal(r.contexts, 2);
            assert.deepEqual(r.utilization, { control: 59.4, compute: 55.9, memory: 33.5 });
          } else assert.equal(r.contexts, null);
        }
        const alls = readFileSync(r.files.alls!, 'utf8');
        assert.ok(
          alls.includes(`model_optimization_flavor(optimization_level=${r.values.optimization_level}, compression_level=${r.values.compression_level})`),
          alls,
        );
        assert.ok(alls.includes(`quantization_param(conv1, precision_mode=${a16w4 ? 'a16_w4' : 'a16_w16'})`));
        assert.equal(readResult(FileRoots.of([dirname(r.files.folder)]), r.files.folder)!.key, r.key);
        assert.ok(existsSync(r.files.log!));
      }
      // No container is left on a host that can still be asked; the gone host may keep its one.
      const left = containersOn(fd);
      assert.deepEqual(
        Object.keys(left).filter((k) => k !== 'flaky'),
        [],
      );
      assert.ok(!allFinished(doc));
      assert.ok(progress.some((l) => /^context 'flaky': went away: /.test(l)));
      assert.ok(existsSync(join(plan.out, 'sweep.json')) && existsSync(join(plan.out, 'sweep.csv')));
      assert.equal(JSON.parse(readFileSync(join(plan.out, 'sweep.json'), 'utf8')).rows.length, 8);

      // Run again once the host is back: the finished seven are not run again; the lost one is, and the
      // container the vanished run left on flaky is removed first.
      fd.revive('flaky');
      fd.configure({
        scenario: scenario('sweep'),
        contexts: { default: 'unix:///var/run/docker.sock', slow: 'ssh://ci@slow-box', broken: 'ssh://ci@broken-box', flaky: 'ssh://ci@flaky-box:2222' },
        contextOverrides: { broken: { daemon: 'down' } },
      });
      const before = compilesBy(fd).length;
      const progress2: string[] = [];
      const again = await runSweep(plan, env(), { onProgress: (l) => progress2.push(l) });
      assert.equal(compilesBy(fd).length - before, 1, 'only the lost variant ran');
      const rows2 = byLabel(again);
      const rerun = rows2.get(lost[0].label)!;
      assert.equal(rerun.state, lost[0].values.precision_mode === 'a16_w4' ? 'failed' : 'done', rerun.message ?? '');
      assert.equal(rerun.finished, true);
      for (const r of others) {
        const r2 = rows2.get(r.label)!;
        assert.equal(r2.state, 'reused', r.label);
        assert.equal(r2.key, r.key);
        assert.equal(r2.files.hef, r.files.hef);
      }
      assert.ok(
        progress2.some((l) => /^context 'flaky': removed 1 container an earlier run of this sweep left/.test(l)),
        progress2.join('\n'),
      );
      assert.deepEqual(containersOn(fd), {});
      assert.ok(allFinished(again));
    } finally {
      fd.cleanup();
      ws.cleanup();
    }
  },
);

test(
  'cancel: waiting variants never start, the running one loses its container, finished ones stay and are not run again',
  { skip: NEEDS_PYTHON, timeout: 120_000 },
  async () => {
    const fd = fakeDocker({ scenario: scenario('sweep-slow') });
    process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
    const ws = workspace({ axes: { optimization_level: [0, 1, 2, 3] } });
    try {
      const plan = readPlan(ws.planPath);
      const controller = new AbortController();
      let done = 0;
      // Cancel once one variant is done and the next one's DFC is optimizing (its container runs).
      const doc = await runSweep(plan, env({ signal: controller.signal }), {
        onRow: (r: SweepRow) => {
          if (r.state === 'done') done++;
          if (done >= 1 && r.state === 'running' && r.stage?.startsWith('optimize')) controller.abort();
        },
      });
      const states = doc.rows.map((r) => r.state);
      assert.equal(states.filter((s) => s === 'done').length, 1, JSON.stringify(states));
      assert.ok(states.filter((s) => s === 'cancelled').length === 3, JSON.stringify(states));
      const running = doc.rows.filter((r) => r.state === 'cancelled' && r.startedAt);
      assert.equal(running.length, 1, 'one was running when the cancel came');
      assert.match(running[0].message!, /container was removed/);
      assert.equal(readResult(FileRoots.of([dirname(running[0].files.folder)]), running[0].files.folder)!.finished, false);
      assert.deepEqual(fd.containers(), [], 'no container left');
      assert.ok(!readdirSync(running[0].files.folder).some((n) => n.startsWith('.hailo-compile-') || /\.(hef|har)$/.test(n)), 'nothing half-delivered');
      assert.equal(compilesBy(fd).length, 2);
      // Started again: the finished one is reused, the three others run.
      fd.configure({ scenario: scenario('sweep') });
      const again = await runSweep(plan, env());
      assert.deepEqual(again.rows.map((r) => r.state).sort(), ['done', 'done', 'done', 'reused']);
      assert.equal(compilesBy(fd).length, 5);
    } finally {
      fd.cleanup();
      ws.cleanup();
    }
  },
);

test(
  'images: a variant runs only on a host that has its DFC image; a host without it is skipped for that image, not failed',
  { skip: NEEDS_PYTHON, timeout: 120_000 },
  async () => {
    const h8 = 'hailo8_ai_sw_suite_2025-10:1';
    const h10 = 'hailo_ai_sw_suite_2026-04:1';
    const fd = fakeDocker({
      scenario: scenario('sweep'),
      contexts: { default: 'unix:///var/run/docker.sock', box8: 'ssh://ci@box8' },
      contextOverrides: { default: { images: [h10] }, box8: { images: [h8] } },
    });
    process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
    // box8 first in the plan with width 2, so the pool offers it the hailo10h variant first.
    const ws = workspace({ images: [h10, h8], hwArch: ['hailo10h'], contexts: [{ name: 'box8', width: 2 }, 'default'] });
    try {
      const doc = await runSweep(readPlan(ws.planPath), env());
      const rows = byLabel(doc);
      assert.equal(rows.get(`image=${h10}`)!.state, 'done', rows.get(`image=${h10}`)!.message ?? '');
      assert.equal(rows.get(`image=${h10}`)!.dockerContext, 'default');
      assert.equal(rows.get(`image=${h8}`)!.dockerContext, 'box8');
      assert.equal(rows.get(`image=${h8}`)!.image, h8);
      assert.ok(
        doc.contexts.every((c) => c.state === 'up'),
        'a missing image does not take the host out',
      );
      assert.deepEqual(fd.containers(), []);
    } finally {
      fd.cleanup();
      ws.cleanup();
    }
  },
);

test('a derived script the .alls rules refuse is not run: the row says why; --dry-run touches no docker', { skip: NEEDS_PYTHON, timeout: 60_000 }, async () => {
  const fd = fakeDocker({ scenario: scenario('sweep') });
  process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
  const ws = workspace({ axes: { optimization_level: [0, 7] } });
  try {
    const plan = readPlan(ws.planPath);
    const dry = await runSweep(plan, env({ dryRun: true }));
    assert.deepEqual(fd.argv(), [], 'a dry run asks docker nothing');
    assert.ok(!existsSync(plan.out), 'and writes nothing');
    assert.deepEqual(
      dry.rows.map((r) => r.state),
      ['waiting', 'invalid'],
    );
    assert.match(
      dry.rows[1].message!,
      /^The derived script is refused by the \.alls rules \(line \d+: `optimization_level` must be 0–4.*found 7\.\); nothing was run\./,
    );
    const doc = await runSweep(plan, env());
    assert.deepEqual(
      doc.rows.map((r) => r.state),
      ['done', 'invalid'],
    );
    assert.equal(compilesBy(fd).length, 1);
    assert.ok(!allFinished(doc));
  } finally {
    fd.cleanup();
    ws.cleanup();
  }
});

test(
  'accuracy column: the emulator context against the float ONNX on the same inputs, per variant (figures known by construction)',
  { skip: NEEDS_PYTHON, timeout: 180_000 },
  async () => {
    if (!existsSync(join(repoRoot, 'dist', 'ortWorker.js'))) throw new Error('run `npm run build` first (dist/ortWorker.js)');
    const N = 3;
    const x = seededPixels(N, 11);
    const logits = await tinycnnFloatLogits(x);
    const fd = fakeDocker();
    process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
    const ws = workspace({
      onnx: 'tinycnn.onnx',
      axes: { precision_mode: { layers: ['conv1'], values: ['a16_w16', 'a8_w8'] } },
      accuracy: { inputs: 'inputs.npy', context: 'quantized' },
    });
    try {
      writeNpyFloat32(join(ws.dir, 'inputs.npy'), [N, 64, 64, 3], x);
      const replay = (name: string, f: (v: number) => number) => {
        writeReplayedLogits(join(ws.dir, name), logits, f);
        return name;
      };
      // a16_w16: the float logits exactly; a8_w8: every logit 5 % too large — relative error 0.05, cosine 1.
      writeFileSync(
        join(ws.dir, 'scenario.json'),
        JSON.stringify({
          log: join(repoRoot, 'test', 'fixtures', 'compile', 'logs', 'success-dfc5.log'),
          emulate: { SDK_QUANTIZED: { outputs: [replay('same.npy', (v) => v)] } },
          byScript: [
            {
              match: '\\nquantization_param\\(conv1, precision_mode=a8_w8\\)',
              emulate: { SDK_QUANTIZED: { outputs: [replay('plus5.npy', (v) => v * 1.05)] } },
            },
          ],
        }),
      );
      fd.configure({ scenario: join(ws.dir, 'scenario.json') });
      const ortPkg = locateOnnxRuntime(undefined, [repoRoot]);
      assert.ok('packageDir' in ortPkg);
      const infer = (onnx: string) => async (feeds: Record<string, { dims: number[]; data: Float32Array }>) =>
        (await runOnnxInWorker(trust, { ortPackage: ortPkg.packageDir, onnx, feeds }, { workerPath: join(repoRoot, 'dist', 'ortWorker.js') })).outputs;
      const plan = readPlan(ws.planPath);
      const onnxCache = new OnnxModelCache();
      const doc = await runSweep(plan, env({ infer, onnxCache }));
      // The float ONNX is parsed once for the sweep: the accuracy key and each variant's table ask the one cache.
      assert.equal(onnxCache.parses, 1);
      assert.ok(onnxCache.reads >= 3, `the ONNX was asked for ${onnxCache.reads} times`);
      const rows = byLabel(doc);
      const same = rows.get('precision_mode=a16_w16')!.accuracy!;
      const plus5 = rows.get('precision_mode=a8_w8')!.accuracy!;
      assert.equal(same.status, 'ok', same.message);
      assert.equal(plus5.status, 'ok', plus5.message);
      assert.equal(same.context, 'quantized');
      assert.ok(same.relativeError! < 1e-6, `a16_w16 ${same.relativeError}`);
      assert.ok(Math.abs(plus5.relativeError! - 0.05) < 1e-5, `a8_w8 ${plus5.relativeError}`);
      assert.ok(Math.abs(plus5.cosine! - 1) < 1e-6);
      assert.match(plus5.inputs, new RegExp(`${N} entries of .*inputs\\.npy`));
      // The emulator got the variant's own optimized HAR, from the variant's folder.
      const infers = fd
        .calls()
        .filter((c) => c.method === 'ClientRunner' && typeof c.kwargs.har === 'string' && /_optimized\.har$/.test(c.kwargs.har as string));
      assert.equal(infers.length, 2);
      assert.deepEqual(fd.containers(), []);
      assert.ok(!readdirSync(rows.get('precision_mode=a8_w8')!.files.folder).includes('.sweep-accuracy'), 'the accuracy work folder is removed');
      // Started again with the same accuracy settings: nothing compiles, nothing is measured again.
      const before = fd.argv().length;
      const again = await runSweep(plan, env({ infer }));
      assert.ok(again.rows.every((r) => r.state === 'reused'));
      assert.equal(byLabel(again).get('precision_mode=a8_w8')!.accuracy!.relativeError, plus5.relativeError);
      assert.ok(
        !fd
          .argv()
          .slice(before)
          .some((a) => a.includes('run') || a.includes('create')),
        'no container started',
      );
    } finally {
      fd.cleanup();
      ws.cleanup();
    }
  },
);

/** docker calls that created an emulator container: the context each went to and its argv. */
function emulatorCreates(fd: FakeDocker): { ctx: string; args: string[] }[] {
  return fd
    .argv()
    .map((a) => (a[0] === '--context' ? { ctx: a[1], args: a.slice(2) } : { ctx: '', args: a }))
    .filter((c) => (c.args[0] === 'create' || c.args[0] === 'run') && c.args.some((a) => a.endsWith('/hailo_emulate.py')));
}

test(
  'accuracy on remote hosts only (ssh://, tcp://): the emulator runs on the context that compiled the variant, files in and out by docker cp; a cancel mid-emulation leaves no container and the next start measures again without compiling',
  { skip: NEEDS_PYTHON, timeout: 240_000 },
  async () => {
    if (!existsSync(join(repoRoot, 'dist', 'ortWorker.js'))) throw new Error('run `npm run build` first (dist/ortWorker.js)');
    const N = 3;
    const x = seededPixels(N, 23);
    const logits = await tinycnnFloatLogits(x);
    // No local docker at all: both hosts remote, docker's current context one of them.
    const remoteOnly = { contexts: { gpu: 'ssh://ci@gpu-box', cpu: 'tcp://cpu-box:2376' }, currentContext: 'gpu' };
    const fd = fakeDocker(remoteOnly);
    process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
    const ws = workspace({
      onnx: 'tinycnn.onnx',
      axes: { precision_mode: { layers: ['conv1'], values: ['a16_w16', 'a8_w8'] } },
      contexts: ['gpu', 'cpu'],
      accuracy: { inputs: 'inputs.npy', context: 'quantized' },
    });
    const ortPkg = locateOnnxRuntime(undefined, [repoRoot]);
    assert.ok('packageDir' in ortPkg);
    const infer = (onnx: string) => async (feeds: Record<string, { dims: number[]; data: Float32Array }>) =>
      (await runOnnxInWorker(trust, { ortPackage: ortPkg.packageDir, onnx, feeds }, { workerPath: join(repoRoot, 'dist', 'ortWorker.js') })).outputs;
    try {
      writeNpyFloat32(join(ws.dir, 'inputs.npy'), [N, 64, 64, 3], x);
      const replay = (name: string, f: (v: number) => number) => {
        writeReplayedLogits(join(ws.dir, name), logits, f);
        return name;
      };
      // a16_w16: the float logits exactly; a8_w8: every logit 3 % too large — relative error 0.03.
      const scenarioOf = (extra: Record<string, unknown>) =>
        JSON.stringify({
          log: join(repoRoot, 'test', 'fixtures', 'compile', 'logs', 'success-dfc5.log'),
          emulate: { SDK_QUANTIZED: { outputs: [replay('same.npy', (v) => v)] } },
          byScript: [
            {
              match: '\\nquantization_param\\(conv1, precision_mode=a8_w8\\)',
              emulate: { SDK_QUANTIZED: { outputs: [replay('plus3.npy', (v) => v * 1.03)] } },
            },
          ],
          ...extra,
        });
      writeFileSync(join(ws.dir, 'scenario.json'), scenarioOf({}));
      fd.configure({ ...remoteOnly, scenario: join(ws.dir, 'scenario.json') });
      const plan = readPlan(ws.planPath);
      const doc = await runSweep(plan, env({ infer }));
      const rows = byLabel(doc);
      const same = rows.get('precision_mode=a16_w16')!;
      const plus3 = rows.get('precision_mode=a8_w8')!;
      for (const r of [same, plus3]) {
        assert.equal(r.state, 'done', r.message ?? '');
        assert.equal(r.accuracy!.status, 'ok', r.accuracy!.message);
      }
      assert.ok(same.accuracy!.relativeError! < 1e-6, `a16_w16 ${same.accuracy!.relativeError}`);
      assert.ok(Math.abs(plus3.accuracy!.relativeError! - 0.03) < 1e-5, `a8_w8 ${plus3.accuracy!.relativeError}`);
      // Each emulator container was created on the context that compiled its variant, with no bind
      // mount (the remote daemon cannot see our paths), and its files went in by `docker cp -`.
      const creates = emulatorCreates(fd);
      assert.deepEqual(creates.map((c) => c.ctx).sort(), [same.dockerContext, plus3.dockerContext].sort());
      for (const c of creates) {
        assert.equal(c.args[0], 'create');
        assert.ok(!c.args.includes('--mount'), `no bind mount: ${c.args.join(' ')}`);
        const name = c.args[c.args.indexOf('--name') + 1];
        const calls = fd.argv().filter((a) => a[0] === '--context' && a[1] === c.ctx);
        assert.ok(
          calls.some((a) => a[2] === 'cp' && a[3] === '-' && a[4] === `${name}:/tmp`),
          `inputs copied into ${name}`,
        );
        assert.ok(
          calls.some((a) => a[2] === 'cp' && a[3] === `${name}:/tmp/hailo-tools/out` && a[4] === '-'),
          `outputs copied out of ${name}`,
        );
        assert.ok(
          calls.some((a) => a[2] === 'rm' && a[3] === '--force' && a[4] === name),
          `${name} removed`,
        );
      }
      assert.deepEqual(fd.containers(), [], 'no container left');
      for (const r of [same, plus3]) assert.ok(!readdirSync(r.files.folder).includes('.sweep-accuracy'), 'the accuracy work folder is removed');

      // A new accuracy setting (count instead of the .npy) on a slow emulator, cancelled while the
      // emulator container runs: the compiles stay (reused), the container goes, no figure is kept.
      writeFileSync(join(ws.dir, 'scenario.json'), scenarioOf({ delay: { at: 'infer', ms: 30_000 } }));
      writeFileSync(
        ws.planPath,
        JSON.stringify({ ...JSON.parse(readFileSync(ws.planPath, 'utf8')), accuracy: { inputs: 'inputs.npy', context: 'quantized', seed: 5 } }),
      );
      const plan2 = readPlan(ws.planPath);
      const controller = new AbortController();
      const before = emulatorCreates(fd).length;
      const compilesBefore = compilesBy(fd).length;
      const watch = setInterval(() => {
        const running = fd.containers().filter((n) => n.includes('emulate'));
        if (running.length && fd.calls().filter((c) => c.method === 'infer').length > 2) controller.abort();
      }, 50);
      let cancelled: SweepDocument;
      try {
        cancelled = await runSweep(plan2, env({ infer, signal: controller.signal }));
      } finally {
        clearInterval(watch);
      }
      assert.ok(controller.signal.aborted, 'the cancel came while an emulator ran');
      assert.ok(emulatorCreates(fd).length > before);
      assert.equal(
        compilesBy(fd).length - compilesBefore,
        emulatorCreates(fd).length - before,
        'only emulator containers were created: nothing compiled again',
      );
      assert.deepEqual(fd.containers(), [], 'the emulator container was removed on cancel');
      assert.ok(cancelled.rows.every((r) => r.state === 'reused'));
      const unmeasured = cancelled.rows.filter((r) => r.accuracy?.status !== 'ok');
      assert.ok(unmeasured.length >= 1, 'the cancel stopped a measurement');
      for (const r of unmeasured) {
        assert.equal(r.accuracy!.key, '', `${r.label}: an interrupted measurement keeps no key`);
        assert.equal(readResult(FileRoots.of([dirname(r.files.folder)]), r.files.folder)!.accuracy?.key ?? '', '');
      }
      // Started again (emulator fast again): still nothing compiles, the figures come back.
      writeFileSync(join(ws.dir, 'scenario.json'), scenarioOf({}));
      const again = await runSweep(plan2, env({ infer }));
      assert.equal(compilesBy(fd).length - compilesBefore, emulatorCreates(fd).length - before, 'nothing compiled');
      assert.ok(
        again.rows.every((r) => r.state === 'reused' && r.accuracy?.status === 'ok'),
        JSON.stringify(again.rows.map((r) => r.accuracy)),
      );
      assert.ok(Math.abs(byLabel(again).get('precision_mode=a8_w8')!.accuracy!.relativeError! - 0.03) < 1e-5);
      assert.deepEqual(fd.containers(), []);
    } finally {
      fd.cleanup();
      ws.cleanup();
    }
  },
);
