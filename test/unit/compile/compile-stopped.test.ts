// Our own stop is not a memory kill: when the compile flow stops a run itself (its user's cancel, its deadline),
// docker's `rm --force` kills the container with SIGKILL — exit 137, the status the memory limit leaves too
// (https://docs.docker.com/reference/cli/docker/container/rm/; the fake docker does the same). The flow knows it
// stopped the run and says so to the log reader: the report says who stopped it, in the stage it stopped in, and
// never `dfc/memory-killed`. A pasted log with a bare 137 keeps the memory diagnosis (dfc-reader.test.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileModel } from '../../../server/src/processes/compile/session';
import { trustedLauncher } from '../../../server/src/processes/compile/launcher';
import { commandLineTrust } from '../../../server/src/core/common/trust';
import { DRIVER_DIR, FAKE_DOCKER, fakeDocker, scenario, NEEDS_PYTHON } from '../../fakes/fakeDocker';
import { repoRoot } from '../../helpers/shared';

const TINY = join(repoRoot, 'examples', 'model', 'tinycnn.onnx');

async function stoppedCompile(how: { cancelAtCalibration: true } | { deadlineMs: number }) {
  const fd = fakeDocker({ scenario: scenario('slow-calibration') });
  const dir = mkdtempSync(join(tmpdir(), 'hailo-compile-stopped-'));
  try {
    copyFileSync(TINY, join(dir, 'tinycnn.onnx'));
    process.env.HAILO_FAKE_DOCKER_STATE = fd.dir;
    const controller = new AbortController();
    let console = '';
    const outcome = await compileModel(
      { model: join(dir, 'tinycnn.onnx'), hwArch: 'hailo10h', folders: [dir] },
      { dockerPath: FAKE_DOCKER, gpus: 'none', extraRunArgs: [] },
      {
        launch: trustedLauncher(commandLineTrust('compile tests')),
        driverDir: DRIVER_DIR,
        signal: controller.signal,
        ...('deadlineMs' in how ? { runDeadlineMs: how.deadlineMs } : {}),
      },
      {
        onOutput: (t) => {
          console += t;
          if ('cancelAtCalibration' in how && /Calibration:\s+\d+%/.test(console) && !controller.signal.aborted) controller.abort();
        },
      },
    );
    assert.deepEqual(fd.containers(), [], 'the container is removed');
    return { outcome, report: outcome.report!, console, exit: outcome.run.exit };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    fd.cleanup();
  }
}

test('a cancelled compile is read as stopped by its user in its stage, not as a memory kill', { skip: NEEDS_PYTHON }, async () => {
  const { outcome, report, exit } = await stoppedCompile({ cancelAtCalibration: true });
  assert.equal(outcome.cancelled, true);
  // The exit the stop left, when the docker client saw it, is SIGKILL's — what a memory kill leaves too.
  if (exit) assert.ok(exit.code === 137 || exit.signal !== null, JSON.stringify(exit));
  assert.deepEqual([report.outcome, report.failedStage], ['killed', 'optimize']);
  assert.ok(!report.diagnostics.some((d) => d.code === 'dfc/memory-killed'), JSON.stringify(report.diagnostics));
  const stopped = report.diagnostics.filter((d) => d.code === 'dfc/stopped');
  assert.equal(stopped.length, 1, JSON.stringify(report.diagnostics));
  assert.equal(stopped[0].severity, 'info');
  assert.match(stopped[0].message, /^The run was stopped by its user \(a cancel\) during optimize/);
});

test('a compile stopped at its deadline is read as stopped at the time limit in its stage, not as a memory kill', { skip: NEEDS_PYTHON }, async () => {
  // 64 calibration entries at 250 ms (slow-calibration.json): the deadline falls inside the optimize stage.
  const { outcome, report, console, exit } = await stoppedCompile({ deadlineMs: 8000 });
  assert.equal(outcome.run.stoppedAtDeadline, true);
  // The docker client is stopped with the container: its own SIGTERM, or the container's 137 if that came first.
  assert.ok(exit && (exit.code === 137 || exit.signal !== null), JSON.stringify(exit));
  assert.equal(report.outcome, 'killed');
  assert.ok(!report.diagnostics.some((d) => d.code === 'dfc/memory-killed' || d.code === 'dfc/docker'), JSON.stringify(report.diagnostics));
  const stopped = report.diagnostics.filter((d) => d.code === 'dfc/stopped');
  assert.equal(stopped.length, 1, JSON.stringify(report.diagnostics));
  assert.equal(stopped[0].severity, 'error');
  // The stage the console had reached (on a loaded machine the deadline may come before the optimize starts).
  const stage = /Starting Model Optimization/.test(console) ? 'optimize' : /Translation started/.test(console) ? 'parse' : 'unknown';
  assert.equal(report.failedStage, stage, console);
  assert.match(stopped[0].message, new RegExp(`^The run was stopped at the tool's time limit${stage === 'unknown' ? '' : ` during ${stage}`}`));
  assert.ok(
    report.notes.some((n) => /the longest a compile may run/.test(n)),
    report.notes.join('\n'),
  );
});
