// The ONNX graph view in VS Code: a read-only virtual text document (`hailo-onnx:` + the model's
// path, language `onnx-graph`) whose text the language server renders; hover, diagnostics, outline
// and producer/consumer navigation then come over LSP like for any language. Opening a `.onnx` from
// the explorer goes through a tiny custom editor that hands over to that document.
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { GRAPH_LANGUAGE_ID, GRAPH_SCHEME, GRAPH_SUFFIX, OnnxGraphTextRequest } from '@hailo/api';
import { strictCsp } from '../webview/csp';
import { messagePage } from '../webview/html';
import { showPage } from '../webview/showPage';

export const ONNX_GRAPH_VIEW_TYPE = 'hailo.onnxGraph';
export const OPEN_ONNX_GRAPH_COMMAND = 'hailo.openOnnxGraph';

/** The graph-view URI of a model file (`hailo-onnx:<path>.graph`). */
export function graphUri(model: vscode.Uri): vscode.Uri {
  return model.with({ scheme: GRAPH_SCHEME, path: model.path + GRAPH_SUFFIX });
}

/** The model file a graph-view URI shows. */
export function modelUri(view: vscode.Uri): vscode.Uri {
  return view.with({ scheme: 'file', path: view.path.endsWith(GRAPH_SUFFIX) ? view.path.slice(0, -GRAPH_SUFFIX.length) : view.path });
}

class GraphTextProvider implements vscode.TextDocumentContentProvider {
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly client: LanguageClient,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  async provideTextDocumentContent(uri: vscode.Uri): Promise<string> {
    const started = Date.now();
    try {
      const r = await this.client.sendRequest(OnnxGraphTextRequest, { uri: uri.toString() });
      this.log.info(`ONNX graph view ${uri.fsPath}: ${r.ok ? 'rendered' : 'not readable'} in ${Date.now() - started} ms`);
      return r.text;
    } catch (err) {
      this.log.error(`ONNX graph view ${uri.fsPath}: ${(err as Error).message}`);
      return `# ONNX graph view: the Hailo language server did not answer (${(err as Error).message})\n`;
    }
  }

  refresh(model: vscode.Uri): void {
    this.changed.fire(graphUri(model));
  }
}

/** Opens the graph view of a model; returns the view's URI (handy for tests driving the command). */
export async function openGraphView(model: vscode.Uri, column?: vscode.ViewColumn): Promise<vscode.Uri> {
  const uri = graphUri(model);
  let doc = await vscode.workspace.openTextDocument(uri);
  // `*.onnx.graph` maps to onnx-graph in package.json; enforce it in case another extension claims the name
  if (doc.languageId !== GRAPH_LANGUAGE_ID) doc = await vscode.languages.setTextDocumentLanguage(doc, GRAPH_LANGUAGE_ID);
  await vscode.window.showTextDocument(doc, { viewColumn: column, preview: false });
  return uri;
}

/** A `.onnx` opened from the explorer: hand over to the text graph view and close this tab. */
class OnnxHandOffEditor implements vscode.CustomReadonlyEditorProvider<vscode.CustomDocument> {
  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly extensionUri: vscode.Uri,
  ) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  async resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): Promise<void> {
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    panel.webview.options = { enableScripts: false, localResourceRoots: [media] };
    // The one page shell and CSP (client/src/webview/html.ts), without a script.
    const page = { ...strictCsp(panel.webview), styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'hef.css')).toString(), scriptUri: '' };
    void showPage(panel, messagePage('ONNX graph view', 'Opening the ONNX graph view…', page, 'onnx-handoff'), this.log, 'onnx hand-off');
    try {
      await openGraphView(document.uri, panel.viewColumn);
    } catch (err) {
      this.log.error(`ONNX graph view for ${document.uri.fsPath}: ${(err as Error).message}`);
    }
    panel.dispose();
  }
}

async function pickModel(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg.scheme === GRAPH_SCHEME ? modelUri(arg) : arg;
  if (typeof arg === 'string' && arg) return arg.includes(':') && !/^[a-zA-Z]:[\\/]/.test(arg) ? vscode.Uri.parse(arg) : vscode.Uri.file(arg);
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === GRAPH_SCHEME) return modelUri(active);
  if (active?.path.endsWith('.onnx')) return active;
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'ONNX models': ['onnx'] }, openLabel: 'Open graph view' });
  return picked?.[0];
}

export function registerOnnxGraph(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, client: LanguageClient): void {
  const provider = new GraphTextProvider(client, log);
  const watcher = vscode.workspace.createFileSystemWatcher('**/*.onnx', true, false, true);
  watcher.onDidChange((uri) => provider.refresh(uri));
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(GRAPH_SCHEME, provider),
    watcher,
    vscode.window.registerCustomEditorProvider(ONNX_GRAPH_VIEW_TYPE, new OnnxHandOffEditor(log, context.extensionUri), {
      supportsMultipleEditorsPerDocument: true,
    }),
    vscode.commands.registerCommand(OPEN_ONNX_GRAPH_COMMAND, async (arg?: unknown) => {
      const model = await pickModel(arg);
      return model ? (await openGraphView(model)).toString() : undefined;
    }),
  );
}
