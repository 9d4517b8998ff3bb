// NMS configs in VS Code (e2e-fixtures/nms/custom: a 1-class YOLOv8n compiled with the zoo's
// 80-class config): our finding on the config's "classes" line with its quick fix, VS Code's own
// JSON language validating the file with the schema package.json contributes (jsonValidation), and
// the summary on the script's nms_postprocess line. Reading only: runs in Restricted Mode too.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, openInEditor, waitForDiagnostics, workspaceFile, deadlineMs } from './host';

const codeOf = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);

describe('NMS configs', () => {
  it('the config: classes against the HAR on its line, with a quick fix', async () => {
    const uri = workspaceFile('e2e-fixtures', 'nms', 'custom', 'custom_nms_config.json');
    const editor = await openInEditor(uri);
    const diags = await waitForDiagnostics(uri, (d) => d.some((x) => codeOf(x) === 'nms/classes'), deadlineMs(2));
    const d = diags.find((x) => codeOf(x) === 'nms/classes')!;
    assert.equal(editor.document.getText(d.range), '80');
    assert.match(d.message, /custom\.har has 1 channel/);
    const actions = await eventually(
      async () => {
        const all = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, d.range);
        return all?.some((a) => a.title === 'Set classes to 1') ? all : undefined;
      },
      deadlineMs(),
      'the quick fix',
    );
    assert.ok(actions.some((a) => a.title === 'Set classes to 1'));
  });

  it("VS Code's JSON language validates a *_nms_config.json with the contributed schema", async () => {
    // A new file (the fixtures stay as they are): the custom config with a misspelt key.
    const source = await vscode.workspace.fs.readFile(workspaceFile('e2e-fixtures', 'nms', 'custom', 'custom_nms_config.json'));
    const text = new TextDecoder().decode(source).replace('"nms_scores_th"', '"nms_score_th"');
    const uri = workspaceFile('e2e-fixtures', 'nms', 'schema-check', 'misspelt_nms_config.json');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
    try {
      await openInEditor(uri);
      const diags = await waitForDiagnostics(uri, (list) => list.some((x) => /nms_score_th/.test(x.message)), deadlineMs());
      const schema = diags.find((x) => /nms_score_th/.test(x.message))!;
      assert.match(schema.message, /not allowed/);
      assert.notEqual(schema.source, 'hailo-nms', "the JSON language's own diagnostic");
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(uri, '..'), { recursive: true });
    }
  });

  it("the script's nms_postprocess line sums up the config's findings", async () => {
    const uri = workspaceFile('e2e-fixtures', 'nms', 'custom', 'custom.alls');
    await openInEditor(uri);
    const summary = (x: vscode.Diagnostic) =>
      codeOf(x) === 'nms/config-mismatch' && /custom_nms_config\.json has 1 problem: line 9: classes is 80/.test(x.message);
    const diags = await waitForDiagnostics(uri, (d) => d.some(summary), deadlineMs()).catch((err: unknown) => {
      throw new Error(`${(err as Error).message}; last: ${JSON.stringify(vscode.languages.getDiagnostics(uri).map((x) => [codeOf(x), x.message]))}`);
    });
    assert.equal(diags.find(summary)!.range.start.line, 1);
  });
});
