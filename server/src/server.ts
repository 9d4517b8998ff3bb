// Language server entry point (bundled to dist/server.js). All logic lives in lsp/startServer.
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './lsp/startServer';

const connection = createConnection(ProposedFeatures.all);
// A bug in one handler must never take the server down with it.
process.on('uncaughtException', (err) => connection.console.error(`uncaught: ${err?.stack ?? err}`));
process.on('unhandledRejection', (err) => connection.console.error(`unhandled rejection: ${(err as Error)?.stack ?? err}`));
startServer(connection);
