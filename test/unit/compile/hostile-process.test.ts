// Issue 18, processes and argv: a docker CLI that never answers hung `compile` forever (Ctrl+C
// and SIGTERM printed "still stopping"), and an image name starting with `-` reached `docker image
// inspect` and `docker run` as a flag. The hanging docker (test/fakes/hangingDocker.ts) is the
// worst kind: it ignores SIGTERM and leaves a grandchild holding its stdout and stderr open (so
// waiting for the pipes to close never ends). Every wait below is bounded by the test's own deadline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { commandLineTrust } from '../../../server/src/core/common/trust';
import { trustedLauncher } from '../../../server/src/processes/compile/launcher';
import { capture } from '../../../server/src/processes/compile/process';
import { contextProblem, imageProblem } from '../../../server/src/processes/compile/dockerErrors';
import { runCompileCommand } from '../../../server/src/cli/compile';
import { FAKE_DOCKER, fakeDocker, NEEDS_PYTHON } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';
import { captureIO } from '../../fakes/cliIO';
import { hangingDocker } from '../../fakes/hangingDocker';

const TINY = join(repoRoot, 'examples', 'model', 'tinycnn.onnx');

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, ok: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`${what} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A hang is a failure of the test, not a frozen runner. */
const BOUNDED = { timeout: 60_000 };

test('a hung docker that ignores SIGTERM is stopped at its deadline, with its grandchild, and the call returns', BOUNDED, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-hang-'));
  try {
    const docker = hangingDocker(dir);
    const started = Date.now();
    const r = await capture(trustedLauncher(commandLineTrust('test')), docker.path, ['version'], { timeoutMs: 4000 });
    const took = Date.now() - started;
    assert.equal(r.timedOut, true);
    assert.ok(took < 15_000, `returned after ${took} ms`);
    const [child, grandchild] = docker.pids();
    assert.ok(child > 0 && grandchild > 0, 'the hang was set up (both pids recorded) before the deadline');
    await until('the docker and its grandchild are gone', () => !alive(child) && !alive(grandchild), 5000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a cancel stops a hung docker call at once (it waited for its own deadline, or forever)', BOUNDED, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-hang-'));
  try {
    const docker = hangingDocker(dir);
    const controller = new AbortController();
    const call = capture(trustedLauncher(commandLineTrust('test')), docker.path, ['version'], { timeoutMs: 600_000, signal: controller.signal });
    await until('the hanging docker started its grandchild', () => docker.pids().length === 2, 20_000);
    const started = Date.now();
    controller.abort();
    const r = await call;
    assert.ok(Date.now() - started < 10_000);
    assert.notEqual(r.code, 0);
    const [child, grandchild] = docker.pids();
    await until('the docker and its grandchild are gone', () => !alive(child) && !alive(grandchild), 5000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('compile with a docker that never answers: Ctrl+C ends it in seconds with exit 130', BOUNDED, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-hang-'));
  try {
    const docker = hangingDocker(dir);
    copyFileSync(TINY, join(dir, 'tinycnn.onnx'));
    const io = captureIO();
    const started = Date.now();
    const code = await runCompileCommand(['--docker', docker.path, join(dir, 'tinycnn.onnx')], io, {
      onInterrupt: (stop) => {
        // Ctrl+C once `docker version` hangs (the docker and its grandchild are up).
        const t = setInterval(() => {
          if (docker.pids().length === 2) {
            clearInterval(t);
            stop();
          }
        }, 50);
        return () => clearInterval(t);
      },
    });
    assert.equal(code, 130, io.errText);
    assert.ok(Date.now() - started < 25_000, `took ${Date.now() - started} ms`);
    assert.doesNotMatch(io.errText, /still stopping/);
    const [child, grandchild] = docker.pids();
    await until('the docker and its grandchild are gone', () => !alive(child) && !alive(grandchild), 5000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('image and context names are docker references, never flags', () => {
  for (const ok of [
    'hailo_ai_sw_suite_2026-04:1',
    'registry.example.com:5000/hailo/dfc:3.33.0',
    'dfc@sha256:' + 'a'.repeat(64),
    'sha256:' + 'b'.repeat(64),
    'localhost/x',
  ]) {
    assert.equal(imageProblem(ok), undefined, ok);
  }
  for (const bad of ['--privileged', '-v', '-', 'Upper:1', 'a b', 'x;rm -rf', '']) {
    assert.match(imageProblem(bad)?.message ?? '', /is not a docker image reference .*set hailo\.dfc\.image \(CLI: --image\)/, bad);
  }
  assert.equal(contextProblem('gpu-box'), undefined);
  assert.equal(contextProblem(undefined), undefined);
  assert.match(contextProblem('-H=tcp://evil:2375')?.message ?? '', /is not a docker context name/);
});

test(
  'compile --image starting with "-": refused before docker sees it; a node name starting with "-" reaches the DFC as a value',
  { skip: NEEDS_PYTHON },
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hailo-argv-'));
    const fd = fakeDocker();
    try {
      copyFileSync(TINY, join(dir, 'tinycnn.onnx'));
      process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
      const io = captureIO();
      const code = await runCompileCommand(['--json', '--docker', FAKE_DOCKER, '--image', '--privileged', join(dir, 'tinycnn.onnx')], io);
      assert.equal(code, 1, io.errText);
      const j = JSON.parse(io.outText);
      assert.equal(j.failedStage, 'docker');
      assert.ok(j.diagnostics.some((d: { message: string }) => /'--privileged' is not a docker image reference/.test(d.message)));
      assert.ok(!fd.argv().some((a) => a.includes('--privileged')), JSON.stringify(fd.argv()));
      const ctx = await runCompileCommand(['--docker', FAKE_DOCKER, '--context', '-H=tcp://evil:2375', join(dir, 'tinycnn.onnx')], io);
      assert.equal(ctx, 1);
      assert.ok(!fd.argv().some((a) => a.some((x) => x.startsWith('-H'))));
      // An end node named like an option: one value for the driver's argparse, not an option. On our
      // command line a value that is one of compile's own options is a missing value (cli/args.ts:
      // `--hw-arch --json` must not eat `--json`), so it is given in the `--opt=value` form.
      const nodes = await runCompileCommand(['--json', '--docker', FAKE_DOCKER, '--end-nodes=--help', join(dir, 'tinycnn.onnx')], {
        out: (t) => void (io.outText = t),
        err: () => undefined,
      });
      const translate = fd.calls().find((c) => c.method === 'translate_onnx_model');
      assert.ok(translate, `the parse ran (exit ${nodes}): ${io.outText.slice(0, 400)}`);
      assert.deepEqual(translate.kwargs.end_node_names, ['--help']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      fd.cleanup();
    }
  },
);
