// The page side of a panel's typed channel (the host side is ../../channel.ts): `post` takes only
// the panel's `FromPage` messages, `onMessage` hands the host's `ToPage` messages to one handler
// (a switch over the union with `unhandled` in its default branch), and the page's saved state.
import type { Message } from '../../protocol';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

/** VS Code hands the API out once per page. */
let api: VsCodeApi | undefined;

export interface PageChannel<ToPage extends Message, FromPage extends Message> {
  post(message: FromPage): void;
  onMessage(handle: (message: ToPage) => void): void;
  getState<S extends object>(): Partial<S>;
  setState(state: object): void;
}

export function connectHost<ToPage extends Message, FromPage extends Message>(): PageChannel<ToPage, FromPage> {
  const vscode = (api ??= acquireVsCodeApi());
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
