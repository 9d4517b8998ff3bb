// LSP-level test harness: spawns the *bundled* server (dist/server.js --stdio) and talks to it
// over a real JSON-RPC connection, like an editor does.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  InitializeRequest,
  InitializedNotification,
  DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification,
  DidCloseTextDocumentNotification,
  PublishDiagnosticsNotification,
  ConfigurationRequest,
  ShutdownRequest,
  ExitNotification,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { repoRoot } from './shared';

export interface TestServer {
  connection: ProtocolConnection;
  process: ChildProcess;
  /** Settings answered to workspace/configuration (section `hailo`). Mutable. */
  settings: Record<string, unknown>;
  open(uri: string, languageId: string, text: string, version?: number): void;
  change(uri: string, text: string, version: number): void;
  close(uri: string): void;
  /** Resolves with the next publishDiagnostics for `uri` (optionally for a given version). */
  nextDiagnostics(uri: string, version?: number, timeoutMs?: number): Promise<PublishDiagnosticsParams>;
  stop(): Promise<void>;
  stderr(): string;
}

export async function startTestServer(settings: Record<string, unknown> = {}): Promise<TestServer> {
  const child = spawn(process.execPath, [join(repoRoot, 'dist', 'server.js'), '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const waiters: { uri: string; version?: number; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  const server: TestServer = {
    connection,
    process: child,
    settings,
    open(uri, languageId, text, version = 1) {
      void connection.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId, version, text } });
    },
    change(uri, text, version) {
      void connection.sendNotification(DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version },
        contentChanges: [{ text }],
      });
    },
    close(uri) {
      void connection.sendNotification(DidCloseTextDocumentNotification.type, { textDocument: { uri } });
    },
    nextDiagnostics(uri, version, timeoutMs = 10000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no diagnostics for ${uri} within ${timeoutMs} ms`)), timeoutMs);
        waiters.push({
          uri,
          version,
          resolve: (p) => {
            clearTimeout(timer);
            resolve(p);
          },
        });
      });
    },
    async stop() {
      const exited = new Promise<void>((resolve) => {
        if (child.exitCode !== null) resolve();
        else child.once('exit', () => resolve());
      });
      try {
        await connection.sendRequest(ShutdownRequest.type);
        await connection.sendNotification(ExitNotification.type);
      } catch {
        /* already gone */
      }
      const timer = setTimeout(() => child.kill(), 2000);
      await exited;
      clearTimeout(timer);
      connection.dispose();
    },
    stderr: () => stderr,
  };
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    const i = waiters.findIndex((w) => w.uri === p.uri && (w.version === undefined || w.version === p.version));
    if (i >= 0) waiters.splice(i, 1)[0].resolve(p);
  });
  connection.onRequest(ConfigurationRequest.type, (p) => p.items.map((it) => (it.section === 'hailo' ? server.settings : null)));
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities: { workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: true } } },
    workspaceFolders: null,
  });
  void connection.sendNotification(InitializedNotification.type, {});
  return server;
}
