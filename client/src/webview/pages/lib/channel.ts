// The page side of a panel's typed channel (the host side is ../../channel.ts): `post` takes only
// the panel's `FromPage` messages, `onMessage` hands the host's `ToPage` messages to one handler
// (a switch over the union with `unhandled` in its default branch), and the page's saved state.
// Connecting also tells the host when this page has loaded (../../showPage.ts waits for it before it
// replaces the page).
import type { Message, PageLoaded } from '../../protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** VS Code hands the API out once per page. */
let api: VsCodeApi | undefined;

/**
 * This page's name for the host: its script's nonce, fresh for each page the host sets (read while
 * the script first runs, when `document.currentScript` is this script).
 */
const PAGE = (document.currentScript as HTMLScriptElement | null)?.nonce ?? '';

/**
 * Posts `loaded` once the window's `load` event fired (the document, its stylesheets and scripts are
 * in): VS Code's webview host finishes showing a page on that same event, so a page set after it
 * cannot be lost (showPage.ts says why).
 */
function announceLoaded(vscode: VsCodeApi): void {
  const loaded: PageLoaded = { type: 'loaded', page: PAGE };
  if (document.readyState === 'complete') vscode.postMessage(loaded);
  else window.addEventListener('load', () => vscode.postMessage(loaded), { once: true });
}

export interface PageChannel<ToPage extends Message, FromPage extends Message> {
  post(message: FromPage): void;
  onMessage(handle: (message: ToPage) => void): void;
  getState<S extends object>(): Partial<S>;
  setState(state: object): void;
}

export function connectHost<ToPage extends Message, FromPage extends Message>(): PageChannel<ToPage, FromPage> {
  if (!api) {
    api = acquireVsCodeApi();
    announceLoaded(api);
  }
  const vscode = api;
  return {
    post: (message) => vscode.postMessage(message),
    onMessage: (handle) =>
      window.addEventListener('message', (event: MessageEvent<unknown>) => {
        const m = event.data;
        // Only the host posts to the page; anything without a type is not one of its messages.
        if (typeof m === 'object' && m !== null && typeof (m as { type?: unknown }).type === 'string') handle(m as ToPage);
      }),
    getState: <S extends object>() => (vscode.getState() ?? {}) as Partial<S>,
    setState: (state) => vscode.setState(state),
  };
}
