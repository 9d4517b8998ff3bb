// The one Content-Security-Policy of our webviews: nothing by default; styles, images and fonts
// from the extension's own roots only; scripts only by this page's fresh nonce. Every page
// (HEF inspector, calibration inspector, device results, accuracy table, chat) is built on it, and
// the renderers check the tag again before they render (hef/render.ts checkedCsp).
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
