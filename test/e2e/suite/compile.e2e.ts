// Hailo: Compile Model and the `hailo` task inside VS Code, against the fake docker CLI
// (test/fakes/docker, named by the user settings; its state folder in HAILO_FAKE_DOCKER_STATE),
// which runs the real driver script with a fake DFC replaying a scenario's log. In Restricted Mode
// nothing may run: the fake records every call, so "nothing" is checked, not assumed.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import * as vscode from 'vscode';
import { eventually, expectUntrusted, hailoExtension, waitForDiagnostics, waitForEvent, workspaceFile, deadlineMs } from './host';

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
  saved?: { kind: string; path: string; logLine: number }[];
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
const calls = (): { method: string }[] =>
  existsSync(join(state, 'calls.jsonl'))
    ? readFileSync(join(state, 'calls.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l))
        .slice(callsBefore)
    : [];
let callsBefore = 0;
const running = () => containers().some((n) => JSON.parse(readFileSync(join(state, 'containers', n), 'utf8')).state === 'running');

// One compile runs the real driver script under python3 (numpy, the fake DFC) through the fake
// docker: 10–20 s on this 2-core machine under load (suite/index.ts gives each test 180 s).
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
    // What the run's own log says it saved: the DFC prints `Saved HAR to: <path>` as each stage's HAR is written (the
    // fake's save_har prints it as the DFC does; the driver writes under `.partial.` names until the stage ends).
    assert.deepEqual(
      r.saved?.map((f) => [f.kind, basename(f.path)]),
      [
        ['har', '.partial.tinycnn.har'],
        ['har', '.partial.tinycnn_optimized.har'],
      ],
    );
    // The command resolves after the runner's cleanup (it awaits `docker rm`): no wait needed, or wanted.
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

  it("unsupported operators land on their nodes in the graph view, with the shared view's fix and the compile's own (compile again with the recommended end nodes)", async () => {
    const dir = workspaceFile('e2e-fixtures', 'dfc', 'parse-unsupported-shuffle');
    scenario({ log: join(dir.fsPath, 'run.log'), failAt: 'translate_onnx_model' });
    const model = vscode.Uri.joinPath(dir, 'model.onnx');
    const r = await vscode.commands.executeCommand<Result>('hailo.compileModel', model, { calibration: 'random', outDir: join(dir.fsPath, 'compiled') });
    assert.equal(r.outcome, 'failed', JSON.stringify(r));
    assert.equal(r.failedStage, 'parse');
    const viewUri = await vscode.commands.executeCommand<string>('hailo.openOnnxGraph', model);
    const view = await eventually(() => vscode.workspace.textDocuments.find((d) => d.uri.toString() === viewUri), deadlineMs(), 'the graph view');
    // test/fixtures/dfc/parse-unsupported-shuffle/expected.json: three Reshape nodes, four recommended end nodes.
    const diags = await eventually(
      () => {
        const ds = vscode.languages.getDiagnostics(view.uri).filter((d) => d.source === 'Hailo DFC' && d.code === 'dfc/unsupported-shuffle');
        return ds.length === 3 ? ds : undefined;
      },
      deadlineMs(),
      "three of the compile's node diagnostics on the graph view",
    );
    for (const d of diags) assert.ok(view.lineAt(d.range.start.line).text.includes(' = Reshape('), view.lineAt(d.range.start.line).text);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', view.uri, diags[0].range);
    const titles = (actions ?? []).map((a) => a.title);
    assert.ok(titles.includes("Use the parser's recommended end nodes (4)"), titles.join(' | '));
    const again = (actions ?? []).find((a) => a.title.startsWith('Compile again with end nodes '));
    assert.ok(again, titles.join(' | '));
    assert.equal(again.command?.command, 'hailo.compileWithEndNodes');
    assert.deepEqual(again.command?.arguments?.[0], model.fsPath);
    assert.equal((again.command?.arguments?.[1] as string[]).length, 4);
    assert.deepEqual(containers(), []);
  });

  it('a tasks.json `hailo` task (Tasks: Run Task) compiles, its problem matcher reads the report; terminating it stops and removes the container and keeps the previous HEF', async function () {
    // Two compiles, each waited for by its own condition below (the deadlines add up to this).
    this.timeout(deadlineMs(14));
    const label = 'e2e: compile tinycnn';
    const tasks = await vscode.tasks.fetchTasks({ type: 'hailo' });
    assert.ok(
      tasks.some((t) => t.name === label),
      `tasks.json's task is offered (${tasks.map((t) => t.name).join(', ')})`,
    );
    const runTask = () => vscode.commands.executeCommand('workbench.action.tasks.runTask', label);
    const endOf = (what: string) => waitForEvent(vscode.tasks.onDidEndTaskProcess, (e) => e.execution.task.name === label, deadlineMs(4), what);

    scenario({ log: log('compile/logs/success-dfc5.log') });
    const hef = join(folder().fsPath, 'tinycnn.hef');
    const ended = endOf('the compile task to end');
    await runTask();
    assert.equal((await ended).exitCode, 0);
    const before = statSync(hef).mtimeMs;
    // The $hailo-dfc problem matcher read the report's lines from the task's terminal: the
    // random-calibration warning lands on the model (the run itself publishes only ONNX-node ones).
    const model = vscode.Uri.joinPath(folder(), 'tinycnn.onnx');
    const matched = await waitForDiagnostics(model, (ds) => ds.some((d) => d.code === 'compile/random-calibration'), deadlineMs());
    assert.equal(matched.find((d) => d.code === 'compile/random-calibration')?.severity, vscode.DiagnosticSeverity.Warning);

    scenario({ log: log('compile/logs/success-dfc5.log'), progress: { at: 'optimize', entries: 64, intervalMs: 500 } });
    callsBefore = existsSync(join(state, 'calls.jsonl')) ? readFileSync(join(state, 'calls.jsonl'), 'utf8').split('\n').filter(Boolean).length : 0;
    const stopped = endOf('the cancelled task to end');
    await runTask();
    await eventually(() => (running() ? true : undefined), deadlineMs(2), 'the compile container to run');
    const execution = vscode.tasks.taskExecutions.find((e) => e.task.name === label);
    assert.ok(execution, 'the task is running');
    execution.terminate();
    const end = await stopped;
    assert.notEqual(end.exitCode, 0, 'a terminated compile does not end as a success');
    assert.ok(!calls().some((c) => c.method === 'compile'), 'the DFC was stopped before compile');
    await eventually(() => (containers().length === 0 ? true : undefined), deadlineMs(), 'the container to be removed');
    assert.equal(statSync(hef).mtimeMs, before, 'the previous HEF is untouched');
    // The terminal closed at once; the runner finishes its cleanup (container, then staging) after.
    await eventually(
      () => (readdirSync(folder().fsPath).some((n) => n.startsWith('.hailo-compile-')) ? undefined : true),
      deadlineMs(),
      'the staging folder to be removed',
    );
  });
});
