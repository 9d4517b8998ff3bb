// The one way a panel's page is set: eslint forbids `….html =` anywhere else in client/src.
//
// Why a page waits: VS Code's webview host (src/vs/workbench/contrib/webview/browser/pre/index.html;
// as code-server 4.100.3 ships it, lib/vscode/out/vs/workbench/contrib/webview/browser/pre/index.html,
// `hookupOnLoadHandlers` and `onLoad`) writes each new page into a hidden frame and shows it on the
// frame's `load` event or after 200 ms, whichever comes first, through one `loadTimeout` that all
// pages share. A page shown by the 200 ms timer whose own `load` comes after the next page was
// written clears the next page's timer, and the next page's `load` then finds no timer: the next
// page stays hidden for good and the old one stays on screen — what the chat panel's loading page
// did once in CI (code-server 4.100.3). So a page is never replaced before its `load`:
// - the first page of a panel is set at once;
// - a later page is set once the page showing has said it loaded (pages/lib/channel.ts posts
//   `loaded` on its window's `load` event, naming itself by its script's nonce);
// - it waits at most PAGE_LOAD_WAIT_MS from when the page showing was set (a page that never says
//   it loaded: a hidden editor has no frame to load, a page without a script), then it is set
//   anyway with one line in the log — never a silent hang;
// - of the pages waiting, only the newest is set (each earlier one's promise resolves then too);
// - nothing is set once the panel is disposed.
// And a page is set only on the one CSP: its meta is checked again here (html.ts checkedCsp).
import type * as vscode from 'vscode';
import { checkedCsp } from './html';
import { isPageLoaded } from './protocol';

/** How long a later page waits, at most, for the page showing to say it loaded. */
export const PAGE_LOAD_WAIT_MS = 10_000;

/** What showPage needs of a panel (a vscode.WebviewPanel; the tests' stand-in). */
export interface PagePanel {
  readonly webview: { html: string; readonly onDidReceiveMessage: vscode.Event<unknown> };
  readonly onDidDispose: vscode.Event<void>;
}

/** Where the one line goes when a page is set without its predecessor's `loaded`. */
export interface PageLog {
  warn(line: string): void;
}

interface PanelPages {
  /** The page showing: its nonce (undefined before the first page). */
  showing?: string;
  setAt: number;
  loaded: boolean;
  /** The newest page waiting, and every caller waiting for a page to be set. */
  next?: { html: string; name: string; log: PageLog; done: (() => void)[] };
  timer?: ReturnType<typeof setTimeout>;
  disposed: boolean;
}

const panels = new WeakMap<PagePanel, PanelPages>();

/** A page's name: the nonce its CSP allows scripts by (every page is html.ts's pageShell). */
export function pageNonce(html: string): string {
  return /script-src 'nonce-([^']+)'/.exec(cspOf(html))?.[1] ?? '';
}

/** The page's Content-Security-Policy `<meta>` (pageShell writes it first in the head; a file's text is escaped). */
function cspOf(html: string): string {
  return /<meta http-equiv="Content-Security-Policy" content="[^"<>]*">/.exec(html)?.[0] ?? '';
}

function put(panel: PagePanel, state: PanelPages, html: string): void {
  panel.webview.html = html;
  state.showing = pageNonce(html);
  state.setAt = Date.now();
  state.loaded = false;
}

function release(panel: PagePanel, state: PanelPages): void {
  clearTimeout(state.timer);
  state.timer = undefined;
  const next = state.next;
  state.next = undefined;
  if (next && !state.disposed) put(panel, state, next.html);
  next?.done.forEach((d) => d());
}

function watch(panel: PagePanel): PanelPages {
  const state: PanelPages = { setAt: 0, loaded: false, disposed: false };
  const messages = panel.webview.onDidReceiveMessage((raw) => {
    if (!isPageLoaded(raw) || raw.page !== state.showing || state.disposed) return;
    state.loaded = true;
    if (state.next) release(panel, state);
  });
  const disposed = panel.onDidDispose(() => {
    state.disposed = true;
    release(panel, state);
    messages.dispose();
    disposed.dispose();
  });
  panels.set(panel, state);
  return state;
}

/**
 * Sets the panel's page (`html`, from html.ts's pageShell) — at once, or once the page showing has
 * loaded (see above). Resolves when this page is set, or when a newer one was set in its place, or
 * the panel was disposed. `name` says which panel in the log line.
 */
export function showPage(panel: PagePanel, html: string, log: PageLog, name: string, waitMs = PAGE_LOAD_WAIT_MS): Promise<void> {
  // Throws (as pageShell does) on a page without the one strict CSP: none is set, none waits.
  checkedCsp({ nonce: pageNonce(html), cspMeta: cspOf(html), styleUri: '', scriptUri: '' });
  const state = panels.get(panel) ?? watch(panel);
  if (state.disposed) return Promise.resolve();
  if (state.showing === undefined || state.loaded) {
    put(panel, state, html);
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    state.next = { html, name, log, done: [...(state.next?.done ?? []), resolve] };
    if (state.timer) return;
    const left = Math.max(0, state.setAt + waitMs - Date.now());
    state.timer = setTimeout(() => {
      const next = state.next;
      if (!next) return;
      next.log.warn(
        `${next.name}: the page set ${Date.now() - state.setAt} ms ago has not said it loaded (a hidden editor, or a page without the kit's script); setting the next page anyway`,
      );
      release(panel, state);
    }, left);
  });
}
