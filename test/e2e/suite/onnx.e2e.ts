// The ONNX graph view inside VS Code (see docs/onnx-preflight.md "Driving the view from e2e
// tests"): the command opens a model as a read-only graph document, a node hovers with its op,
// and an .alls layer goes to its ONNX source node. Reading only: works in Restricted Mode too.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { eventually, hailoExtension, openInEditor, workspaceFile, deadlineMs } from './host';

const NODE_LINE = /^ {2}(\S.*?) = (\w+)\(/;

function hoverText(hovers: vscode.Hover[] | undefined): string {
  return (hovers ?? [])
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

async function openGraph(model: vscode.Uri): Promise<vscode.TextDocument> {
  await hailoExtension().activate();
  const viewUri = await vscode.commands.executeCommand<string>('hailo.openOnnxGraph', model);
  assert.ok(viewUri, 'the command returns the view URI');
  const doc = await eventually(() => vscode.workspace.textDocuments.find((d) => d.uri.toString() === viewUri), deadlineMs(), `the graph document ${viewUri}`);
  return doc;
}

describe('ONNX graph view', () => {
  it('Hailo: Open ONNX Graph View shows the model as a read-only graph document', async () => {
    const doc = await openGraph(workspaceFile('e2e-fixtures', 'onnx', 'cnn.onnx'));
    assert.equal(doc.languageId, 'onnx-graph');
    assert.equal(doc.uri.scheme, 'hailo-onnx');
    assert.match(doc.lineAt(0).text, /ONNX graph view/);
    const nodes = doc
      .getText()
      .split('\n')
      .filter((l) => NODE_LINE.test(l));
    assert.ok(nodes.length >= 3, `a line per node, got ${nodes.length}`);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), doc.uri.toString(), 'the view is the active editor');
  });

  it('hovering a node shows its op', async () => {
    const doc = await openGraph(workspaceFile('e2e-fixtures', 'onnx', 'cnn.onnx'));
    const lineNo = doc
      .getText()
      .split('\n')
      .findIndex((l) => NODE_LINE.test(l));
    const [, , op] = NODE_LINE.exec(doc.lineAt(lineNo).text)!;
    const text = await eventually(
      async () => {
        const t = hoverText(await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(lineNo, 4)));
        return t.includes(op) ? t : undefined;
      },
      deadlineMs(),
      'a node hover',
    );
    assert.ok(text.length > op.length + 10, `the hover explains the node: ${text}`);
  });

  it('go to definition from an .alls layer lands on its ONNX node', async () => {
    const script = workspaceFile('e2e-fixtures', 'har', 'tinycnn.alls');
    const editor = await openInEditor(script);
    const lineNo = editor.document
      .getText()
      .split('\n')
      .findIndex((l) => /\bconv1\b/.test(l));
    assert.ok(lineNo >= 0, 'tinycnn.alls mentions conv1');
    const pos = new vscode.Position(lineNo, editor.document.lineAt(lineNo).text.search(/\bconv1\b/) + 1);
    const target = await eventually(
      async () => {
        const defs = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', script, pos);
        const d = defs?.find((x) => ('uri' in x ? x.uri : x.targetUri).scheme === 'hailo-onnx');
        return d ? ('uri' in d ? d : { uri: d.targetUri, range: d.targetRange }) : undefined;
      },
      deadlineMs(),
      'a definition in the ONNX graph view',
    );
    const graph = await vscode.workspace.openTextDocument(target.uri);
    assert.match(graph.lineAt(target.range.start.line).text, /conv1.* = Conv\(/);
  });
});
