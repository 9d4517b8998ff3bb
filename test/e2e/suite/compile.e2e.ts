// Hailo: Compile Model and the `hailo` task inside VS Code, against the fake docker CLI
// (test/fakes/docker, named by the user settings; its state folder in HAILO_FAKE_DOCKER_STATE),
// which runs the real driver script with a fake DFC replaying a scenario's log. In Restricted Mode
// nothing may run: the fake records every call, so "nothing" is checked, not assumed.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { eventually, expectUntrusted, hailoExtension, waitForDiagnostics, waitForEvent, workspaceFile } from './host';

const state = process.env.HAILO_FAKE_DOCKER_STATE ?? '';
const repo = process.env.HAILO_E2E_REPO ?? '';
const folder = () => workspaceFile('e2e-fixtures', 'compile');

interface Result {
  ran: boolean;
  reason?: string;
  cancelled?: boolean;
  outcome?: string;
  failedStage?: string | null;
  outputs?: { har: string | null; optimizedHar: string | null; hef: string | null };
  hef?: { intact: boolean } | null;
  container?: string | null;
}

/** Points the fake DFC at a scenario (written here, so it can name the repo's fixtures). */
function scenario(s: Record<string, unknown>): void {
  const file = join(state, 'e2e-scenario.json');
  writeFileSync(file, JSON.stringify(s));
  writeFileSync(join(state, 'config.json'), JSON.stringify({ scenario: file }));
}
const log = (name: string) => join(repo, 'test', 'fixtures', name);
const argv = (): string[][] =>
  existsSync(join(state, 'argv.jsonl'))
    ? readFileSync(join(state, 'argv.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
    : [];
const containers = () => readdirSync(join(state, 'containers')).filter((n) => n.endsWith('.json'));
const running = () => containers().some((n) => JSON.parse(readFileSync(join(state, 'containers', n), 'utf8')).state === 'running');

describe('Hailo: Compile Model (fake docker)', () => {
  before(async () => {
    await hailoExtension().activate();
  });

  if (expectUntrusted) {
    it('runs nothing in Restricted Mode: refused, and docker is never called', async () => {
      const r = await vscode.commands.executeCommand<Result>('hailo.compileModel', vscode.Uri.joinPath(folder(), 'tinycnn.onnx'), { calibration: 'random' });
      assert.deepEqual(r, { ran: false, reason: 'untrusted' });
      assert.deepEqual(argv(), [], 'the fake docker recorded no call at all in this window');
      assert.ok(!existsSync(join(folder().fsPath, 'tinycnn.hef')));
    });
    return;
  }

  it('compiles the model: outputs beside it, the HEF checked, the container removed', async () => {
    scenario({ log: log('compile/logs/success-dfc5.log') });
    const r = await vscode.commands.executeCommand<Result>('hailo.compileModel', vscode.Uri.joinPath(folder(), 'tinycnn.onnx'), { calibration: 'random' });
    assert.equal(r.ran, true);
    assert.equal(r.outcome, 'success', JSON.stringify(r));
    const dir = folder().fsPath;
    assert.deepEqual(r.outputs, { har: join(dir, 'tinycnn.har'), optimizedHar: join(dir, 'tinycnn_optimized.har'), hef: join(dir, 'tinycnn.hef') });
    assert.equal(r.hef?.intact, true);
    assert.deepEqual(containers(), []);
    const run = argv().find((a) => a[0] === 'run');
    assert.ok(run, 'docker run');
    // The folder's .vscode/settings.json asked for --privileged; machine scope ignores it.
    assert.ok(!run.includes('--privileged'));
    assert.ok(run.includes('--pull') && run.includes('never'));
  });

  it('a model-script error lands on its .alls line, from the DFC log the run printed', async () => {
    scenario({ log: log('dfc/model-script-syntax/run.log'), failAt: 'load_model_script' });
    const alls = vscode.Uri.joinPath(folder(), 'tinycnn.alls');
    const r = await vscode.commands.executeCommand<Result>('hailo.compileModel', alls, { calibration: 'random', outDir: join(folder().fsPath, 'failed') });
    assert.equal(r.outcome, 'failed');
    assert.equal(r.failedStage, 'optimize');
    // test/fixtures/dfc/model-script-syntax/expected.json: line 3, columns 67–77 (1-based).
    const diagnostics = await waitForDiagnostics(alls, (ds) => ds.some((d) => d.source === 'Hailo DFC'));
    const d = diagnostics.find((x) => x.source === 'Hailo DFC')!;
    assert.equal(d.code, 'dfc/model-script-syntax');
    assert.deepEqual([d.range.start.line, d.range.start.character, d.range.end.character], [2, 66, 76]);
    assert.equal(d.severity, vscode.DiagnosticSeverity.Error);
    assert.match(d.message, /Expected '\)', found 'batch_size'/);
    assert.deepEqual(containers(), []);
  });

  it('a tasks.json `hailo` task compiles; terminating it stops and removes the container and keeps the previous HEF', async () => {
    const tasks = await vscode.tasks.fetchTasks({ type: 'hailo' });
    const task = tasks.find((t) => t.name === 'e2e: compile tinycnn');
    assert.ok(task, `tasks.json's task is offered (${tasks.map((t) => t.name).join(', ')})`);
    assert.deepEqual(task.problemMatchers, ['$hailo-dfc']);

    scenario({ log: log('compile/logs/success-dfc5.log') });
    const hef = join(folder().fsPath, 'tinycnn.hef');
    const ended = waitForEvent(vscode.tasks.onDidEndTaskProcess, (e) => e.execution.task.name === task.name, 120_000, 'the compile task to end');
    await vscode.tasks.executeTask(task);
    assert.equal((await ended).exitCode, 0);
    const before = statSync(hef).mtimeMs;

    scenario({ log: log('compile/logs/success-dfc5.log'), progress: { at: 'optimize', entries: 64, intervalMs: 500 } });
    const stopped = waitForEvent(vscode.tasks.onDidEndTaskProcess, (e) => e.execution.task.name === task.name, 120_000, 'the cancelled task to end');
    const execution = await vscode.tasks.executeTask(task);
    await eventually(() => (running() ? true : undefined), 60_000, 'the compile container to run');
    execution.terminate();
    const end = await stopped;
    assert.equal(end.exitCode, 130);
    await eventually(() => (containers().length === 0 ? true : undefined), 30_000, 'the container to be removed');
    assert.equal(statSync(hef).mtimeMs, before, 'the previous HEF is untouched');
    assert.ok(!readdirSync(folder().fsPath).some((n) => n.startsWith('.hailo-compile-')), 'no staging folder is left');
  });
});
