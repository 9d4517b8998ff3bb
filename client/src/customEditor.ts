// What the readonly custom editors (HEF inspector, calibration inspector, HAR view) share: a document that
// is just its URI, the webview's options (scripts on, only media/ and dist/webview/ readable), the
// page options on the one nonce CSP (client/src/webview/), the Copy-as-JSON text and the
// registration. Each editor keeps only what it reads, renders and answers.
import * as path from 'path';
import * as vscode from 'vscode';
import { pageOptions, pageRoots, type PageScript } from './webview/assets';
import type { PageOptions } from './webview/html';

/** A readonly document: the editor reads the file itself each time it renders. */
export class ReadonlyFileDocument implements vscode.CustomDocument {
  constructor(readonly uri: vscode.Uri) {}
  dispose(): void {}
}

export interface EditorPanel {
  /** The file's base name, the page's title. */
  title: string;
  /** Fresh page options (a new nonce) for each render, with media/hef.css and the page's script. */
  page(): PageOptions;
}

/** Sets the panel's webview options and answers its title and page options. */
export function preparePanel(context: vscode.ExtensionContext, panel: vscode.WebviewPanel, uri: vscode.Uri, script: PageScript): EditorPanel {
  panel.webview.options = { enableScripts: true, localResourceRoots: pageRoots(context.extensionUri) };
  return {
    title: path.posix.basename(uri.path),
    page: () => pageOptions(panel.webview, context.extensionUri, 'hef.css', script),
  };
}

/** The page's Copy as JSON: the text to the clipboard; answers the status line for the page. */
export async function copyJsonToClipboard(json: string): Promise<string> {
  await vscode.env.clipboard.writeText(json);
  return `Copied ${json.length.toLocaleString('en-US')} characters of JSON to the clipboard.`;
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
