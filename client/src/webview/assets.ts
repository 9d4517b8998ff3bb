// Where a page's files come from: its stylesheet from media/, its script (and the stylesheet the
// script bundles, uPlot's) from dist/webview/, built by esbuild.mjs from pages/<script>.ts. A
// webview may read those two folders and nothing else.
import * as vscode from 'vscode';
import { strictCsp } from './csp';
import type { ChartPageOptions, PageScript } from './html';

export type { PageScript } from './html';

/** The webview's `localResourceRoots`. */
export function pageRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'media'), vscode.Uri.joinPath(extensionUri, 'dist', 'webview')];
}

/** Fresh page options (a new nonce) for one render of a page: media/`style` and its script. */
export function pageOptions(webview: vscode.Webview, extensionUri: vscode.Uri, style: string, script: PageScript): ChartPageOptions {
  const at = (...p: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...p)).toString();
  return {
    ...strictCsp(webview),
    styleUri: at('media', style),
    scriptUri: at('dist', 'webview', `${script}.js`),
    chartStyleUri: at('dist', 'webview', `${script}.css`),
  };
}
