// `hailo-tools sweep`: progress on stderr, the table (or --json, the document it also writes to
// <out>/sweep.json) on stdout; exit 0 when every variant has its result, 2 for usage and plans it
// cannot use, 130 when interrupted. A CLI killed with SIGKILL mid-sweep (no cleanup ran) is
// resumed by running it again: finished variants are not run again, the container the killed run
// left is removed first, and the sweep ends with every variant done.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../../server/src/cli/main';
import { runSweepCommand } from '../../../server/src/cli/sweep';
import { DRIVER_DIR, FAKE_DOCKER, fakeDocker, scenario, NEEDS_PYTHON, type FakeDocker } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';

const MODEL = join(repoRoot, 'examples', 'model');
const CLI = join(repoRoot, 'bin', 'hailo-tools.js');

function workspace(plan: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-sweep-cli-'));
  for (const f of ['tinycnn_hailo_model.har', 'tinycnn.alls', 'tinycnn_calib.npy']) copyFileSync(join(MODEL, f), join(dir, f));
  const planPath = join(dir, 'tiny.sweep.json');
  writeFileSync(
    planPath,
    JSON.stringify({ model: 'tinycnn_hailo_model.har', alls: 'tinycnn.alls', calibration: 'tinycnn_calib.npy', hwArch: 'hailo10h', ...plan }),
  );
  return { dir, planPath, out: join(dir, 'tiny.sweep'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function cli(args: string[], deps: Parameters<typeof runSweepCommand>[2] = {}) {
  const io = captureIO();
  const code = args[0] === 'sweep' ? await main(args, io) : await runSweepCommand(args, io, { driverDir: DRIVER_DIR, ...deps });
  return { code, out: io.outText, err: io.errText };
}

const compiles = (fd: FakeDocker) => fd.argv().filter((a) => a[0] === 'run' || a[0] === 'create').length;

async function until(what: string, ok: () => boolean, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('usage and plans it cannot use: exit 2 with one sentence', async () => {
  const none = await cli(['sweep']);
  assert.equal(none.code, 2);
  assert.match(none.err, /expected one PLAN/);
  const ws = workspace({ hwArch: 'hailo9' });
  try {
    const bad = await cli(['sweep', ws.planPath]);
    assert.equal(bad.code, 2);
    assert.match(bad.err, /^hailo-tools sweep: tiny\.sweep\.json: 'hwArch' must be one of .*, not "hailo9"\.\n$/);
    const json = await cli(['sweep', '--json', join(ws.dir, 'missing.sweep.json')]);
    assert.equal(json.code, 2);
    assert.match(JSON.parse(json.out).error, /does not exist/);
    assert.equal((await cli(['sweep', '--bogus', ws.planPath])).code, 2);
    assert.match((await cli(['sweep', '--help'])).out, /^usage: hailo-tools sweep/);
  } finally {
    ws.cleanup();
  }
});

test(
  '--json: progress streams on stderr; stdout is the document <out>/sweep.json holds; exit 0 when every variant has its result',
  { skip: NEEDS_PYTHON, timeout: 120_000 },
  async () => {
    const fd = fakeDocker({ scenario: scenario('sweep') });
    process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
    const ws = workspace({ axes: { precision_mode: { layers: ['conv1'], values: [null, 'a16_w4'] } } });
    try {
      const r = await cli(['--json', '--docker', FAKE_DOCKER, ws.planPath]);
      assert.equal(r.code, 0, r.err);
      const doc = JSON.parse(r.out);
      assert.deepEqual(doc, JSON.parse(readFileSync(join(ws.out, 'sweep.json'), 'utf8')));
      assert.deepEqual(
        doc.rows.map((x: { state: string; failedStage: string | null }) => `${x.state}/${x.failedStage}`),
        ['done/null', 'failed/optimize'],
        'a DFC failure is a result: exit 0',
      );
      // docker's read-only answers are asked once per context for the whole sweep, not per variant:
      // `docker version` by the start-up probe, once for both compiles, and once more after the a16_w4
      // failure (is the host still there?); `docker info` and `image ls` once.
      const asked = (cmd: string) => fd.argv().filter((a) => a[0] === cmd).length;
      assert.equal(asked('version'), 3);
      assert.equal(asked('info'), 1);
      assert.equal(fd.argv().filter((a) => a[0] === 'image' && a[1] === 'ls').length, 1);
      const lines = r.err.trim().split('\n');
      assert.match(lines[0], /^hailo-tools sweep: sweep tiny: 2 variants on 1 docker context$/);
      assert.ok(lines.some((l) => /^hailo-tools sweep: precision_mode=base: started on docker's current context$/.test(l)));
      assert.ok(lines.some((l) => /^hailo-tools sweep: precision_mode=base: done in [\d.]+ s, HEF [\d.]+ KB$/.test(l)));
      assert.ok(lines.some((l) => /^hailo-tools sweep: precision_mode=a16_w4: FAILED at optimize: .*set_wraparound_loss/.test(l)));
      // The text table: one line per variant.
      const text = await cli(['--docker', FAKE_DOCKER, ws.planPath]);
      assert.equal(text.code, 0);
      assert.match(text.out, /^sweep tiny: 2 variants, 2 reused\n/);
      assert.match(text.out, /\nprecision_mode=a16_w4 +reused +optimize /);
      assert.match(readFileSync(join(ws.out, 'sweep.csv'), 'utf8'), /^variant,precision_mode,state,/);
    } finally {
      fd.cleanup();
      ws.cleanup();
    }
  },
);

test('Ctrl+C: exit 130, the running compile loses its container, the finished variant is kept', { skip: NEEDS_PYTHON, timeout: 120_000 }, async () => {
  const fd = fakeDocker({ scenario: scenario('sweep-slow') });
  process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
  const ws = workspace({ axes: { optimization_level: [0, 1, 2] } });
  try {
    let stop: (() => void) | undefined;
    let stopped = false;
    let err = '';
    let out = '';
    const io = {
      out: (t: string) => (out += t),
      err: (t: string) => {
        err += t;
        // the second variant started after the first is done
        if (!stopped && /done in/.test(err) && (err.match(/started on/g) ?? []).length === 2) {
          stopped = true;
          stop?.();
        }
      },
    };
    const code = await runSweepCommand(['--docker', FAKE_DOCKER, ws.planPath], io, {
      driverDir: DRIVER_DIR,
      onInterrupt: (s) => {
        stop = s;
        return () => undefined;
      },
    });
    assert.equal(code, 130, err);
    assert.match(err, /interrupted: stopping the running compiles and removing their containers/);
    assert.match(out, /1 done, 2 cancelled/);
    assert.deepEqual(fd.containers(), []);
    const kept = readdirSync(ws.out).filter((n) => existsSync(join(ws.out, n, 'tinycnn_hailo_model.hef')));
    assert.equal(kept.length, 1);
  } finally {
    fd.cleanup();
    ws.cleanup();
  }
});

test(
  'a CLI killed mid-sweep (SIGKILL: no cleanup) resumes: the leftover container is removed, finished variants are not run again',
  { skip: NEEDS_PYTHON, timeout: 180_000 },
  async () => {
    const fd = fakeDocker({ scenario: scenario('sweep-slow') });
    const ws = workspace({ axes: { optimization_level: [0, 1, 2] } });
    const env = { ...process.env, HAILO_FAKE_DOCKER_STATE: fd.dir };
    try {
      const child = spawn(process.execPath, [CLI, 'sweep', '--docker', FAKE_DOCKER, ws.planPath], { env, stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
      child.stdout.resume();
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
      // Kill it once one variant is finished and the next one's container runs.
      const results = () => (existsSync(ws.out) ? readdirSync(ws.out).filter((n) => existsSync(join(ws.out, n, 'sweep-result.json'))).length : 0);
      const running = () =>
        fd.containers().some((n) => {
          try {
            return JSON.parse(readFileSync(join(fd.dir, 'containers', `${n}.json`), 'utf8')).state === 'running';
          } catch {
            return false;
          }
        });
      await until('one finished variant and a running container', () => results() === 1 && running());
      child.kill('SIGKILL');
      assert.equal((await exited).signal, 'SIGKILL', err);
      assert.equal(fd.containers().length, 1, 'the killed CLI left its container');
      const before = compiles(fd);
      assert.equal(before, 2);

      const again = await new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const c = spawn(process.execPath, [CLI, 'sweep', '--json', '--docker', FAKE_DOCKER, ws.planPath], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        let e = '';
        c.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
        c.stderr.setEncoding('utf8').on('data', (d: string) => (e += d));
        c.on('close', (code) => resolve({ code, out, err: e }));
      });
      assert.equal(again.code, 0, again.err);
      assert.match(again.err, /docker's current context: removed 1 container an earlier run of this sweep left/);
      assert.match(again.err, /3 variants on 1 docker context, 1 finished earlier \(not run again\)/);
      const doc = JSON.parse(again.out);
      assert.deepEqual(doc.rows.map((r: { state: string }) => r.state).sort(), ['done', 'done', 'reused']);
      assert.equal(compiles(fd) - before, 2, 'only the two unfinished variants ran');
      assert.deepEqual(fd.containers(), []);
      assert.ok(
        readdirSync(ws.out, { withFileTypes: true }).every(
          (d) => !d.isDirectory() || !readdirSync(join(ws.out, d.name)).some((f) => f.startsWith('.hailo-compile-')),
        ),
        'the killed run’s staging folder went with its container',
      );
    } finally {
      fd.cleanup();
      ws.cleanup();
    }
  },
);
