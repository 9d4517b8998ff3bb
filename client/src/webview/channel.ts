// The host side of a panel's typed channel: `post` takes only the panel's `ToPage` messages, and
// every message from the page is parsed against its `FromPage` schema (protocol.ts) before the
// handler sees it — an unknown or malformed one is dropped with one line in the log, never thrown.
// The page side is pages/lib/channel.ts.
import type * as vscode from 'vscode';
import { isPageLoaded, parseMessage, type Message, type Schema } from './protocol';

export interface HostChannel<ToPage extends Message> extends vscode.Disposable {
  post(message: ToPage): void;
}

/** Where the channel says what it dropped (a LogOutputChannel, or a test's list). */
export interface ChannelLog {
  warn(line: string): void;
  error(line: string): void;
}

/**
 * What a panel's webview receives, as a plain function of the raw message: parsed, then handed
 * over (a handler's rejection is logged, not left unhandled). Exported for the tests.
 */
export function receiver<FromPage extends Message>(
  name: string,
  schema: Schema<FromPage>,
  log: ChannelLog,
  handle: (message: FromPage) => unknown,
): (raw: unknown) => void {
  return (raw) => {
    // The page's `loaded` is the kit's (showPage.ts listens for it), not the panel's.
    if (isPageLoaded(raw)) return;
    const parsed = parseMessage(schema, raw);
    if (!parsed.ok) {
      log.warn(`${name}: ignored a message from the page: ${parsed.why}`);
      return;
    }
    Promise.resolve()
      .then(() => handle(parsed.message))
      .catch((err: unknown) => log.error(`${name}: ${(err as Error)?.stack ?? String(err)}`));
  };
}

export function connectPage<ToPage extends Message, FromPage extends Message>(
  webview: vscode.Webview,
  name: string,
  schema: Schema<FromPage>,
  log: ChannelLog,
  handle: (message: FromPage) => unknown,
): HostChannel<ToPage> {
  const sub = webview.onDidReceiveMessage(receiver(name, schema, log, handle));
  return {
    post: (message) => void webview.postMessage(message),
    dispose: () => sub.dispose(),
  };
}
