// What the render tests of our webview pages share: the page options a host passes (the one nonce
// CSP on a webview source, as client/src/webview/csp.ts writes it), the hostile name, and the check
// that a page holds only the elements its renderer writes and exactly our one script.
import assert from 'node:assert/strict';

export const WEBVIEW_CSP =
  "default-src 'none'; style-src https://webview.test; img-src https://webview.test; font-src https://webview.test; script-src 'nonce-n0nce+/='";
export const cspMeta = (policy: string) => `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
export const EVIL = '<img src=x onerror=alert(1)>';

/** Page options with media/`style` and media/`script` on the webview source. */
export function testPage(style: string, script: string): { nonce: string; cspMeta: string; styleUri: string; scriptUri: string } {
  return { nonce: 'n0nce+/=', cspMeta: cspMeta(WEBVIEW_CSP), styleUri: `https://webview.test/${style}`, scriptUri: `https://webview.test/${script}` };
}

/** The elements of every page's frame: the document, its head (CSP meta, stylesheet, title), the body and our one script. */
export const PAGE_FRAME = ['html', 'head', 'meta', 'link', 'title', 'body', 'script'] as const;

/** The hostile name (EVIL) never appears raw, nothing injected a script, and the name is shown escaped. */
export function assertPayloadEscaped(html: string): void {
  assert.ok(!html.includes(EVIL), 'the raw payload never appears');
  assert.ok(!html.includes('<script>alert(2)'), 'no injected script element');
  assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'), 'the payload is shown, escaped');
}

/** Every element name that opens in `html`, in order. */
export const tagsIn = (html: string) => [...html.matchAll(/<([a-zA-Z][a-zA-Z0-9-]*)/g)].map((m) => m[1].toLowerCase());

/** Only `allowed` elements (a raw `<` from a file would open another one), and one `<script>`. */
export function assertOnlyElements(html: string, allowed: readonly string[]): void {
  const set = new Set(allowed);
  for (const t of tagsIn(html.replace(/^<!DOCTYPE html>/, ''))) assert.ok(set.has(t), `unexpected element <${t}>`);
  assert.equal(tagsIn(html).filter((t) => t === 'script').length, 1, 'exactly our one script');
}

/** The page's CSP is the one we passed, its one script carries the nonce, and nothing is styled inline. */
export function assertNoncePage(html: string, script: string): void {
  assert.equal(/http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1], WEBVIEW_CSP);
  assert.ok(html.includes(`<script nonce="n0nce+/=" src="https://webview.test/${script}"></script>`), `our ${script} with the nonce`);
  assert.ok(!/\sstyle=/.test(html) && !/<style/.test(html), 'no inline styles');
}
