// What the readonly custom editors (HEF inspector, calibration inspector, HAR view) share: a document that
// is just its URI, the webview's options (scripts on, only media/ readable), the page options on
// the one nonce CSP, the Copy-as-JSON reply and the registration. Each editor keeps only what it
// reads and renders.
import * as path from 'path';
import * as vscode from 'vscode';
import type { PageOptions } from './hef/render';
import { strictCsp } from './webviewCsp';

/** A readonly document: the editor reads the file itself each time it renders. */
export class ReadonlyFileDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {}
}

export interface EditorPanel {
  /** The file's base name, the page's title. */
  title: string;
  /** Fresh page options (a new nonce) for each render, with media/hef.css and media/`script`. */
  page(): PageOptions;
}

/** Sets the panel's webview options and answers its title and page options. */
export function preparePanel(context: vscode.ExtensionContext, panel: vscode.WebviewPanel, uri: vscode.Uri, script: string): EditorPanel {
  const media = vscode.Uri.joinPath(context.extensionUri, 'media');
  panel.webview.options = { enableScripts: true, localResourceRoots: [media] };
  return {
    title: path.posix.basename(uri.path),
    page: () => ({
      ...strictCsp(panel.webview),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, 'hef.css')).toString(),
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(media, script)).toString(),
    }),
  };
}

/** The page's Copy as JSON: the text to the clipboard, and a status line back to the page. */
export async function copyJsonToClipboard(panel: vscode.WebviewPanel, json: string): Promise<void> {
  await vscode.env.clipboard.writeText(json);
  void panel.webview.postMessage({ type: 'status', text: `Copied ${json.length.toLocaleString('en-US')} characters of JSON to the clipboard.` });
}

/** Registers a readonly editor (by default several editors per document; nothing kept while hidden). */
export function registerReadonlyEditor(
  viewType: string,
  provider: vscode.CustomReadonlyEditorProvider,
  options: { multipleEditorsPerDocument?: boolean } = {},
): vscode.Disposable {
  return vscode.window.registerCustomEditorProvider(viewType, provider, {
    supportsMultipleEditorsPerDocument: options.multipleEditorsPerDocument ?? true,
    webviewOptions: { retainContextWhenHidden: false },
  });
}
