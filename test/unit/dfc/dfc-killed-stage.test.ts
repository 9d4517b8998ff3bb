// A killed run's stage comes from the same weighing as a failed run's (server/src/core/dfc/state.ts `finish`,
// stageEvidence.ts; issue 30): a later stage's evidence beats the stage the log last showed running, the running stage
// beats an earlier one, an error the run printed before the kill places it as it places a failure, and nothing is a
// default. Expected stages are what each log shows: the DFC's own lines (test/fixtures/dfc/SOURCES.md — killed-line,
// real-killed-137, real-finetune-traceback, allocation-failed, interrupted), the order of its stages
// (/work/shared/docs/dfc-flow.md: a stage starts only after the one before ended), the shells' and the kernel's words
// for a signal (bash(1) EXIT STATUS: 128+N; mm/oom_kill.c `__oom_kill_process`), never the reader's output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog, type DfcExit, type DfcReport } from '../../../server/src/core/dfc';

const read = (lines: string[], exit?: DfcExit) => readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' }, exit);
const stopped = (r: DfcReport) => r.diagnostics.find((d) => d.code === 'dfc/memory-killed' || d.code === 'dfc/interrupted');

// The optimize stage's calibration as hailomz prints it (fixture killed-line; real-killed-137).
const calibrating = [
  '[info] Translation completed on ONNX model yolov8m (completion time: 00:00:01.41)',
  '[info] Starting Model Optimization',
  '[info] Starting Statistics Collector',
  '[info] Using dataset with 64 entries for calibration',
];
// The compile's own frames as a Ctrl-C during compilation leaves them (dfc-stops-and-causes.test.ts; fixture interrupted).
const compileFrames = [
  'Traceback (most recent call last):',
  '  File "/usr/local/lib/python3.10/dist-packages/hailo_sdk_client/tools/cmd_utils/main.py", line 111, in main',
  '    ret_val = client_command_runner.run()',
  '  File "/usr/local/lib/python3.10/dist-packages/hailo_sdk_client/sdk_backend/sdk_backend.py", line 1720, in compile',
  '    self._compile()',
  'KeyboardInterrupt',
];
// The allocator's failure lines (fixture allocation-failed, SOURCES.md): the compile stage's own messages.
const allocatorErrors = ['[error] Mapping Failed', '[error] No successful assignments: concat21 errors: Agent infeasible'];

test('killed: a later stage’s evidence beats the stage the excerpt last showed running, as for a failed run', () => {
  // The author elided the optimize's end and the compile's start; the traceback the Ctrl-C left runs the compile.
  const r = read([...calibrating, '...', '^C', ...compileFrames]);
  assert.deepEqual([r.outcome, r.failedStage], ['killed', 'compile']);
  assert.match(stopped(r)?.message ?? '', /interrupted during compile/);
  // The allocator's own error lines, then the kernel's SIGKILL (exit 137): the compile was running.
  for (const exit of [{ code: 137 }, { code: null, cancelled: true }] as DfcExit[]) {
    const k = read([...calibrating, '...', ...allocatorErrors], exit);
    assert.deepEqual([k.outcome, k.failedStage], ['killed', 'compile'], JSON.stringify(exit));
  }
  // The kill's diagnostic says the stage the report says, and stays an error (no stage it names finished).
  const line = stopped(read([...calibrating, '...', ...allocatorErrors, 'Killed']));
  assert.match(line?.message ?? '', /^The DFC was killed \(SIGKILL\) during compile/);
  assert.equal(line?.severity, 'error');
  // The same lines ending in a failure read the same stage: one rule.
  assert.equal(read([...calibrating, '...', ...allocatorErrors], { code: 1 }).failedStage, 'compile');
});

test('killed: the running stage beats an earlier stage’s evidence', () => {
  // A parser class raised inside the optimizer (dfc-corpus unseen4/19's form) before the kill: still the optimize.
  const r = read([...calibrating, 'UnsupportedModelError: Unexpected input_shapes at normalization layer mul_and_add71'], { code: 137 });
  assert.deepEqual([r.outcome, r.failedStage], ['killed', 'optimize']);
  assert.match(stopped(r)?.message ?? '', /during optimize/);
});

test('killed: an excerpt of the errors the run printed before the kill places the kill where they place a failure', () => {
  // Only the allocator's lines and the terminal's ^C: nothing runs, the messages are the compile's.
  const r = read([...allocatorErrors, '^C']);
  assert.deepEqual([r.outcome, r.failedStage], ['killed', 'compile']);
  assert.equal(read(allocatorErrors).failedStage, 'compile');
});

test('killed: between stages the command says what ran next, and without it nothing is guessed', () => {
  const optimized = ['[info] Starting Model Optimization', '[info] Model Optimization is done (completion time is 00:12:34.56)'];
  // hailomz compile runs parse, optimize and compile (hailo_model_zoo main_driver.py): after the optimize, the compile.
  const mz = read(['$ hailomz compile yolov8m --hw-arch hailo8', ...optimized, 'Killed']);
  assert.deepEqual([mz.outcome, mz.failedStage], ['killed', 'compile']);
  // No command, no next stage's line: the log does not say what the run was doing.
  const bare = read([...optimized, 'Killed']);
  assert.deepEqual([bare.outcome, bare.failedStage], ['killed', 'unknown']);
  assert.match(stopped(bare)?.message ?? '', /^The DFC was killed \(SIGKILL\): that is how/);
});

test('killed: an excerpt with only the traceback a Ctrl-C left reads its frames’ stage', () => {
  // real-finetune-traceback's frames (the optimizer's fine-tuning), ended by the user's Ctrl-C.
  const r = read([
    '^C',
    'Traceback (most recent call last):',
    '  File "/local/workspace/hailo_virtualenv/lib/python3.8/site-packages/hailo_model_optimization/flows/optimization_flow.py", line 265, in _finetune',
    '    algo.run()',
    '  File "/local/workspace/hailo_virtualenv/lib/python3.8/site-packages/hailo_model_optimization/algorithms/finetune/qft.py", line 358, in run_qft',
    '    self._model.fit(',
    'KeyboardInterrupt',
  ]);
  assert.deepEqual([r.outcome, r.failedStage], ['killed', 'optimize']);
  assert.match(stopped(r)?.message ?? '', /interrupted during optimize/);
});

test("killed: the kernel's OOM killer during optimize's calibration is a SIGKILL in the optimize stage", () => {
  const calib = [...calibrating, 'Calibration:   6%|▋         | 64/1024 [00:58<14:33,  1.10entries/s]'];
  // mm/oom_kill.c __oom_kill_process: `%s: Killed process %d (%s) total-vm:%lukB, anon-rss:…`, its message
  // `Out of memory` (the host) or `Memory cgroup out of memory` (a container's limit), as dmesg and journald show it.
  for (const oom of [
    '[ 8123.456789] Out of memory: Killed process 4242 (hailo) total-vm:41234567kB, anon-rss:31234567kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:65432kB oom_score_adj:0',
    'Dec 06 09:12:33 gpu-box kernel: Memory cgroup out of memory: Killed process 4242 (python3) total-vm:41234567kB, anon-rss:31234567kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:65432kB oom_score_adj:0',
  ]) {
    const r = read([...calib, oom]);
    assert.deepEqual([r.outcome, r.failedStage], ['killed', 'optimize'], oom);
    assert.equal(stopped(r)?.code, 'dfc/memory-killed', oom);
  }
  // The kernel's choice of a victim is not yet its kill (`Kill process N (x) score S or sacrifice child`, older kernels).
  assert.equal(read([...calib, 'Out of memory: Kill process 4242 (hailo) score 912 or sacrifice child']).outcome, 'incomplete');
});

test('killed: docker stop (exit 137 as docker compose reports it) during the compile', () => {
  // `docker stop` sends SIGTERM, then SIGKILL after its grace period (docs.docker.com, docker container stop); a DFC run
  // as the container's PID 1 does not handle SIGTERM, so it ends by the SIGKILL: compose prints `NAME exited with code 137`.
  const r = read([
    'dfc-1  | [info] Starting Hailo allocation and compilation flow',
    'dfc-1  | [info] Finding the best partition to contexts...',
    'dfc-1 exited with code 137',
  ]);
  assert.deepEqual([r.outcome, r.failedStage], ['killed', 'compile']);
});

test("killed: the shell's or a relay's word that the run ended is a line of its own, never the rest of the message before it", () => {
  // Python prints a message's own line breaks unindented and in lower case (errors.ts), like zsh's and compose's lines.
  for (const end of ['zsh: killed     hailo compiler yolov11n_optimized.har', 'dfc-1 exited with code 137']) {
    const r = read([...allocatorErrors, end]);
    assert.deepEqual([r.outcome, r.failedStage], ['killed', 'compile'], end);
    assert.ok(
      r.diagnostics.every((d) => !d.message.includes(end)),
      end,
    );
  }
});

test("killed: the layer noise analysis's bar in its SNR form is the optimize stage's own line", () => {
  // dfc-corpus unseen7/31 (a notebook's optimize cell, DFC 3.x): the analysis bar names its model in parentheses.
  const bar = 'Full Quant Analysis (W/ SNR model): 100%|██████████| 4/4 [00:49<00:00, 12.32s/iterations]';
  assert.equal(read([bar]).stages[1].status, 'running');
  const r = read([bar, './run.sh: line 12: 40711 Terminated              python3 optimize.py']);
  assert.deepEqual([r.outcome, r.failedStage], ['killed', 'optimize']);
});
