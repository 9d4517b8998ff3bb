// The one Content-Security-Policy of our webviews: nothing by default; styles, images and fonts
// from the extension's own roots only; scripts only by this page's fresh nonce. Every page is built
// on it (html.ts pageShell checks the tag again before it renders), and its script is the page's
// bundle in dist/webview/ (pages/<page>.ts, built by esbuild.mjs) — never inline, never a CDN.
import { randomBytes } from 'crypto';
import type * as vscode from 'vscode';

export interface StrictCsp {
  nonce: string;
  cspMeta: string;
}

export function strictCsp(webview: vscode.Webview): StrictCsp {
  const nonce = randomBytes(18).toString('base64');
  const src = webview.cspSource;
  return {
    nonce,
    cspMeta: `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${src}; img-src ${src}; font-src ${src}; script-src 'nonce-${nonce}'">`,
  };
}
