// Hailo: Explain DFC Log inside VS Code: a log's errors land on the .alls line (with the quick fix
// that edits it) and on the ONNX graph view's node lines. It only reads files, so the same
// scenarios pass in Restricted Mode (this suite runs in both instances).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, hailoExtension, workspaceFile, deadlineMs } from './host';

interface ExplainResult {
  report: { outcome: string; diagnostics: { code: string }[] };
  alls?: string;
  onnx?: string;
}

async function explain(...parts: string[]): Promise<ExplainResult> {
  await hailoExtension().activate();
  const r = await vscode.commands.executeCommand<ExplainResult>('hailo.explainDfcLog', workspaceFile(...parts), { quiet: true });
  assert.ok(r, 'the command returns its result');
  return r;
}

describe('Explain DFC Log', () => {
  it('a GPU out-of-memory error lands on the batch_size of the script line, and its quick fix edits it', async () => {
    const r = await explain('e2e-fixtures', 'dfc', 'gpu-oom', 'run.log');
    assert.equal(r.report.outcome, 'failed');
    const script = workspaceFile('e2e-fixtures', 'dfc', 'gpu-oom', 'model.alls');
    assert.equal(r.alls, script.fsPath, 'the only .alls beside the log is taken as its script');
    const diag = await eventually(
      () => vscode.languages.getDiagnostics(script).find((d) => d.code === 'dfc/gpu-memory'),
      deadlineMs(),
      'the dfc/gpu-memory diagnostic',
    );
    // `post_quantization_optimization(finetune, policy=enabled, batch_size=4, epochs=4)` is line 5; the 4 is at character 68.
    assert.deepEqual([diag.range.start.line, diag.range.start.character, diag.range.end.character], [4, 68, 69]);
    const doc = await vscode.workspace.openTextDocument(script);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', script, diag.range);
    const fix = actions?.find((a) => a.title === 'Change to 2');
    assert.ok(fix?.edit, `a quick fix that halves the batch: ${actions?.map((a) => a.title).join(', ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit));
    assert.match(doc.lineAt(4).text, /batch_size=2, epochs=4/);
    await vscode.commands.executeCommand('workbench.action.files.revert', script);
  });

  it('unsupported operators land on their nodes in the ONNX graph view, with the recommended end nodes as a fix', async () => {
    const r = await explain('e2e-fixtures', 'dfc', 'parse-unsupported-shuffle', 'run.log');
    assert.equal(r.report.outcome, 'failed');
    const model = workspaceFile('e2e-fixtures', 'dfc', 'parse-unsupported-shuffle', 'model.onnx');
    const viewUri = await vscode.commands.executeCommand<string>('hailo.openOnnxGraph', model);
    const view = await eventually(() => vscode.workspace.textDocuments.find((d) => d.uri.toString() === viewUri), deadlineMs(), 'the graph view');
    const diags = await eventually(
      () => {
        const ds = vscode.languages.getDiagnostics(view.uri).filter((d) => d.code === 'dfc/unsupported-shuffle');
        return ds.length === 3 ? ds : undefined;
      },
      deadlineMs(),
      'three node diagnostics on the graph view',
    );
    for (const d of diags) {
      const line = view.lineAt(d.range.start.line).text;
      const name = line.slice(d.range.start.character, d.range.end.character);
      assert.ok(line.startsWith(`  ${name} = Reshape(`), `on the node's line: ${line}`);
      assert.match(name, /^CCT_OCR_1\//);
    }
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', view.uri, diags[0].range);
    assert.ok(
      actions?.some((a) => a.title === "Use the parser's recommended end nodes (4)"),
      actions?.map((a) => a.title).join(', '),
    );
  });
});
