// LSP-level test harness: spawns the *bundled* server (dist/server.js --stdio) and talks to it
// over a real JSON-RPC connection, like an editor does. It listens to the server's log
// (`window/logMessage`): an error-level line is a handler exception (startServer's onError), and
// `stop()` fails the test on any — unless the test said it expects them (`expectErrors`).
// By default the client declares what VS Code declares for our features; `capabilities: {}` is an
// editor that declares nothing optional.
import { spawn, type ChildProcess } from 'node:child_process';
import { basename, join } from 'node:path';
import { pathToFileURL } from 'node:url';
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
  LogMessageNotification,
  MessageType,
  RegistrationRequest,
  ShutdownRequest,
  ExitNotification,
  WorkspaceFoldersRequest,
  type ClientCapabilities,
  type ProtocolConnection,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { repoRoot } from './shared';

/** What VS Code's client declares for the features this server uses. */
export const VSCODE_LIKE_CAPABILITIES: ClientCapabilities = {
  workspace: {
    configuration: true,
    workspaceFolders: true,
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
  },
};

export interface TestServerOptions {
  /** Settings answered to workspace/configuration (section `hailo`). Mutable via `server.settings`. */
  settings?: Record<string, unknown>;
  capabilities?: ClientCapabilities;
  initializationOptions?: unknown;
  /** Workspace folder paths (answered to workspace/workspaceFolders and sent in initialize). */
  folders?: string[];
  /** How to start it (script and arguments for node); default `dist/server.js --stdio`. */
  command?: string[];
  /** Extra environment for the server process (e.g. HAILO_LS_ARTIFICIAL_PANIC). */
  env?: Record<string, string>;
  /** Error-level log lines matching this are expected (the test checks them itself). */
  expectErrors?: RegExp;
}

export interface LogLine {
  type: MessageType;
  message: string;
}

export interface TestServer {
  connection: ProtocolConnection;
  process: ChildProcess;
  /** Settings answered to workspace/configuration (section `hailo`). Mutable. */
  settings: Record<string, unknown>;
  /** Every `window/logMessage` so far. */
  log: LogLine[];
  /** Requests the server sent us, by method (registrations, configuration…). */
  requests: { method: string; params: unknown }[];
  open(uri: string, languageId: string, text: string, version?: number): void;
  change(uri: string, text: string, version: number): void;
  close(uri: string): void;
  /** Resolves with the next publishDiagnostics for `uri` (optionally for a given version). */
  nextDiagnostics(uri: string, version?: number, timeoutMs?: number): Promise<PublishDiagnosticsParams>;
  /** The latest publication for `uri` that satisfies `accept` — one already received, or the next. */
  diagnostics(uri: string, accept?: (p: PublishDiagnosticsParams) => boolean, timeoutMs?: number): Promise<PublishDiagnosticsParams>;
  /** Shuts the server down; throws if it logged an unexpected error. */
  stop(): Promise<void>;
  stderr(): string;
}

const isUnexpectedError = (l: LogLine, expect?: RegExp) => l.type === MessageType.Error && !(expect && expect.test(l.message));

export async function startTestServer(o: TestServerOptions = {}): Promise<TestServer> {
  const capabilities = o.capabilities ?? VSCODE_LIKE_CAPABILITIES;
  const child = spawn(process.execPath, o.command ?? [join(repoRoot, 'dist', 'server.js'), '--stdio'], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...o.env },
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += d));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
  const waiters: { accept: (p: PublishDiagnosticsParams) => boolean; resolve: (p: PublishDiagnosticsParams) => void }[] = [];
  const latest = new Map<string, PublishDiagnosticsParams>();
  const folders = (o.folders ?? []).map((p) => ({ uri: pathToFileURL(p).toString(), name: basename(p) }));

  function wait(accept: (p: PublishDiagnosticsParams) => boolean, what: string, timeoutMs: number): Promise<PublishDiagnosticsParams> {
    return new Promise((resolve, reject) => {
      const waiter = {
        accept,
        resolve: (p: PublishDiagnosticsParams) => {
          clearTimeout(timer);
          resolve(p);
        },
      };
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1);
        const errors = server.log.filter((l) => l.type === MessageType.Error).map((l) => l.message);
        reject(new Error(`no ${what} within ${timeoutMs} ms${errors.length ? `; server errors: ${errors.join(' | ')}` : ''}`));
      }, timeoutMs);
      waiters.push(waiter);
    });
  }

  const server: TestServer = {
    connection,
    process: child,
    settings: o.settings ?? {},
    log: [],
    requests: [],
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
      return wait(
        (p) => p.uri === uri && (version === undefined || p.version === version),
        `diagnostics for ${uri}${version === undefined ? '' : ` v${version}`}`,
        timeoutMs,
      );
    },
    diagnostics(uri, accept = () => true, timeoutMs = 10000) {
      const have = latest.get(uri);
      if (have && accept(have)) return Promise.resolve(have);
      return wait((p) => p.uri === uri && accept(p), `matching diagnostics for ${uri}`, timeoutMs);
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
        /* the process is gone already: the exit wait below settles it */
      }
      const timer = setTimeout(() => child.kill(), 2000);
      await exited;
      clearTimeout(timer);
      connection.dispose();
      const errors = server.log.filter((l) => isUnexpectedError(l, o.expectErrors));
      if (errors.length) throw new Error(`the server logged ${errors.length} error(s) (a handler threw):\n${errors.map((l) => l.message).join('\n')}`);
    },
    stderr: () => stderr,
  };
  connection.onNotification(PublishDiagnosticsNotification.type, (p) => {
    latest.set(p.uri, p);
    for (let i = 0; i < waiters.length; i++) {
      if (!waiters[i].accept(p)) continue;
      waiters.splice(i, 1)[0].resolve(p);
      break;
    }
  });
  connection.onNotification(LogMessageNotification.type, (p) => server.log.push({ type: p.type, message: p.message }));
  // Answer only what was declared: a server that asks anyway gets the error a real editor sends.
  const w = capabilities.workspace;
  connection.onRequest(ConfigurationRequest.type, (p) => {
    server.requests.push({ method: ConfigurationRequest.method, params: p });
    if (!w?.configuration) throw new Error('workspace/configuration was not declared by this client');
    return p.items.map((it) => (it.section === 'hailo' ? server.settings : null));
  });
  connection.onRequest(RegistrationRequest.type, (p) => {
    server.requests.push({ method: RegistrationRequest.method, params: p });
    for (const r of p.registrations) {
      const dynamic =
        r.method === 'workspace/didChangeConfiguration'
          ? w?.didChangeConfiguration?.dynamicRegistration
          : r.method === 'workspace/didChangeWatchedFiles'
            ? w?.didChangeWatchedFiles?.dynamicRegistration
            : false;
      if (!dynamic) throw new Error(`${r.method}: dynamic registration was not declared by this client`);
    }
    return null;
  });
  connection.onRequest(WorkspaceFoldersRequest.type, () => {
    server.requests.push({ method: WorkspaceFoldersRequest.method, params: null });
    if (!w?.workspaceFolders) throw new Error('workspace/workspaceFolders was not declared by this client');
    return folders;
  });
  connection.listen();
  await connection.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    capabilities,
    initializationOptions: o.initializationOptions,
    workspaceFolders: folders.length ? folders : null,
  });
  void connection.sendNotification(InitializedNotification.type, {});
  return server;
}

/** `p`, or a failure naming `what` when the server has not answered within `ms` (a hostile file must not make it deaf). */
export async function answerWithin<T>(what: string, p: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
