// The one page shell of every webview (HEF, calibration and HAR inspectors, device results,
// accuracy, sweep, chat, the ONNX hand-off): a page is rendered and escaped in the extension host,
// under the one nonce CSP (csp.ts) that `checkedCsp` checks again before anything is rendered, and
// loads at most one script — its bundled page (pages/, by nonce). Pure (no vscode import), so the
// renderers are unit-tested directly.

/** The page scripts, one per panel: pages/<name>.ts → dist/webview/<name>.js, its messages in protocols/<name>.ts. */
export const PAGE_SCRIPTS = ['hef', 'calib', 'har', 'deviceResults', 'accuracy', 'sweep', 'chat'] as const;
export type PageScript = (typeof PAGE_SCRIPTS)[number];

export interface PageOptions {
  nonce: string;
  /**
   * The page's Content-Security-Policy `<meta>` tag, written by the host that knows
   * `webview.cspSource` (csp.ts strictCsp). It must start from `default-src 'none'` and allow
   * scripts only by this page's nonce (checked here, before anything is rendered).
   */
  cspMeta: string;
  styleUri: string;
  scriptUri: string;
}

/** A page whose script brings a stylesheet of its own (uPlot's, bundled beside the script). */
export interface ChartPageOptions extends PageOptions {
  chartStyleUri: string;
}

export function checkedCsp(o: PageOptions): string {
  const m = /^<meta http-equiv="Content-Security-Policy" content="([^"<>]*)">$/.exec(o.cspMeta);
  const policy = m?.[1] ?? '';
  if (!m || !/^default-src 'none'(;|$)/.test(policy) || !policy.includes(`script-src 'nonce-${o.nonce}'`) || /unsafe-/.test(policy)) {
    throw new Error(`refusing to render a webview page with a weak Content-Security-Policy: ${o.cspMeta}`);
  }
  return o.cspMeta;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/** Escapes text for element content and double- or single-quoted attribute values. */
export function esc(value: unknown): string {
  return String(value ?? '').replace(/[&<>"'`]/g, (c) => ESCAPES[c]);
}

export interface Shell {
  /** The document's title (text; escaped here). */
  title: string;
  /** The body's markup, already escaped by the renderer. */
  body: string;
  /** Attributes of `<body>` (values escaped here), e.g. its `data-testid`. */
  bodyAttrs?: Record<string, string | number>;
  /** Stylesheets in cascade order (default: the page's `styleUri`). */
  styles?: string[];
  /** Whether the page loads its script (`scriptUri`, by nonce); default true. */
  script?: boolean;
  /** Keep VS Code's own context menu items (cut/copy/paste) off the page. */
  noDefaultContextMenu?: boolean;
}

/** The whole document around a page's body: the checked CSP, its stylesheets, its one script by nonce. */
export function pageShell(o: PageOptions, s: Shell): string {
  const attrs = Object.entries(s.bodyAttrs ?? {}).map(([k, v]) => ` ${k}="${esc(v)}"`);
  if (s.noDefaultContextMenu) attrs.push(` data-vscode-context="${esc('{"preventDefaultContextMenuItems": true}')}"`);
  const styles = (s.styles ?? [o.styleUri]).map((u) => `<link rel="stylesheet" href="${esc(u)}">`).join('');
  const script = s.script === false ? '' : `\n<script nonce="${esc(o.nonce)}" src="${esc(o.scriptUri)}"></script>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
${checkedCsp(o)}
<meta name="viewport" content="width=device-width, initial-scale=1">
${styles}
<title>${esc(s.title)}</title>
</head>
<body${attrs.join('')}>
${s.body}${script}
</body>
</html>`;
}

/**
 * Every page's one-message form (running…, why it cannot be shown). It loads its panel's script (by
 * nonce, when it has one) only so the page says when it has loaded (pages/lib/channel.ts): the next
 * page waits for that (showPage.ts); the script finds none of its elements here and does nothing else.
 */
export function messagePage(title: string, message: string, o: PageOptions, testId: string): string {
  return pageShell(o, { title, bodyAttrs: { 'data-testid': testId }, body: `<h1>${esc(title)}</h1><p>${esc(message)}</p>`, script: o.scriptUri !== '' });
}
