// Language server entry point (bundled to dist/server.js; `hailo-tools lsp` loads the same file).
// All logic lives in lsp/startServer. Any LSP client can start it: VS Code over IPC, other
// editors with `--stdio` (README, "Other editors").
import { createConnection, ProposedFeatures, StreamMessageWriter, type Connection, type ResponseMessage } from 'vscode-languageserver/node';
import { SafeStdioReader } from './lsp/stdioReader';
import { startServer } from './lsp/startServer';

export const SERVER_USAGE = 'usage: hailo-tools lsp --stdio   (or: node dist/server.js --stdio | --node-ipc | --socket=PORT | --pipe=NAME)\n';

/** The transport vscode-languageserver will pick from these arguments, or undefined. */
export function transportOf(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--stdio' || a === '--node-ipc') return a.slice(2);
    if ((a === '--socket' || a === '--pipe') && argv[i + 1]) return a.slice(2);
    if (/^--(socket|pipe)=./.test(a)) return a.slice(2, a.indexOf('='));
  }
  return undefined;
}

/**
 * `--stdio` with our frame reader (lsp/stdioReader.ts): a malformed frame is answered with a
 * JSON-RPC error or ends the connection with one log line — never a server that reads on deaf.
 * What the library does for its own stdio transport is done here too: stdin's end exits the
 * process (0 after a shutdown request, else 1), and console output goes to the client's log, never
 * onto stdout between frames.
 */
function stdioConnection(): Connection {
  let shutdown = false;
  const writer = new StreamMessageWriter(process.stdout);
  const reader = new SafeStdioReader(process.stdin, {
    onBadMessage: (code, message) => {
      const response: ResponseMessage = { jsonrpc: '2.0', id: null, error: { code, message } };
      void writer.write(response);
    },
    onFatal: () => process.exit(1),
    onMessage: (m) => {
      if ((m as { method?: unknown }).method === 'shutdown') shutdown = true;
    },
  });
  reader.onClose(() => process.exit(shutdown ? 0 : 1));
  const connection = createConnection(ProposedFeatures.all, reader, writer);
  const log = (...a: unknown[]) => connection.console.log(a.map(String).join(' '));
  console.log = log;
  console.info = log;
  console.debug = log;
  console.warn = (...a: unknown[]) => connection.console.warn(a.map(String).join(' '));
  console.error = (...a: unknown[]) => connection.console.error(a.map(String).join(' '));
  return connection;
}

function main(): void {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(SERVER_USAGE);
    return;
  }
  if (!transportOf(args)) {
    // Without a transport createConnection throws, and node prints the bundle's minified line.
    process.stderr.write(`hailo language server: no transport given. ${SERVER_USAGE}`);
    process.exitCode = 2;
    return;
  }
  const connection = args.includes('--stdio') ? stdioConnection() : createConnection(ProposedFeatures.all);
  // A bug in one handler must never take the server down with it; it is still an error in the log.
  process.on('uncaughtException', (err) => connection.console.error(`uncaught: ${err?.stack ?? err}`));
  process.on('unhandledRejection', (err) => connection.console.error(`unhandled rejection: ${(err as Error)?.stack ?? err}`));
  // EPIPE on stdout: the editor went away; exit quietly instead of looping on write errors.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
  });
  startServer(connection, { artificialPanic: process.env.HAILO_LS_ARTIFICIAL_PANIC || undefined });
}

main();
