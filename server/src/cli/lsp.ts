// `hailo-tools lsp --stdio` — the language server for any LSP client (Neovim, Helix, Emacs…):
// loads the bundled server (dist/server.js, beside dist/cli.js), which reads the transport from
// the process arguments like `node dist/server.js --stdio` does.
import { FileRoots } from '../core/common/confined';
import { join } from 'node:path';
import { EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { parseCommand, usageError } from './args';

const USAGE = `usage: hailo-tools lsp --stdio

Run the Hailo language server (.alls diagnostics, hover, completion…; ONNX graph views; HEF checks)
for an editor that starts it and talks LSP on stdin/stdout. Other transports: --node-ipc,
--socket=PORT, --pipe=NAME. Settings: workspace/configuration (section "hailo") or
initializationOptions {"hailo": {"hwArch": "hailo8", …}}.
`;

/**
 * What vscode-languageserver reads from the process arguments (its node main: the transport, and
 * the client's process id, which VS Code-style clients pass to a server they start).
 */
const OPTIONS = {
  stdio: { type: 'boolean' },
  'node-ipc': { type: 'boolean' },
  socket: { type: 'string' },
  pipe: { type: 'string' },
  clientProcessId: { type: 'string' },
} as const;

export async function runLsp(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('lsp', USAGE, OPTIONS, args, io, { positionals: false });
  if (typeof parsed === 'number') return parsed;
  const v = parsed.values;
  if (!v.stdio && !v['node-ipc'] && v.socket === undefined && v.pipe === undefined) return usageError(io, 'lsp', USAGE, 'no transport given (e.g. --stdio)');
  const server = join(__dirname, 'server.js');
  if (!FileRoots.named(server).isFile(server)) {
    io.err(`hailo-tools lsp: ${server} is missing; run \`npm run build\`\n`);
    return EXIT_USAGE;
  }
  // The server module starts on load and keeps the process alive until the client says `exit`.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a sibling bundle, loaded at run time, not bundled twice
  require(server);
  return EXIT_OK;
}
