// Wires a connection to the language services: document sync, settings, debounced validation,
// request routing by language id, and one error path (`onError`) for every handler exception.
// Handlers stay thin: they find the service for a document and call it. The server uses only
// what the client declared in `initialize` (pull configuration, dynamic registration), so any
// LSP client gets diagnostics.
import { setOpenedFolders, setSkippedPathNote } from '../core/alls/nodeHost';
import { localPathOf } from './uri';
import {
  type CancellationToken,
  CodeActionKind,
  Connection,
  DiagnosticSeverity,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  ErrorCodes,
  LSPErrorCodes,
  type FileEvent,
  ResponseError,
  TextDocuments,
  TextDocumentSyncKind,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { timeBudget } from '../core/common/budget';
import { limit, limitMessage } from '../core/common/limits';
import { createServices } from './services';
import { SettingsStore } from './settings';
import {
  SEMANTIC_TOKEN_MODIFIERS,
  SEMANTIC_TOKEN_TYPES,
  type AttachableService,
  type CalibrationProvider,
  type ModelLayerProvider,
  type ServerHost,
  type ServiceContext,
} from './service';

export interface ServerOptions {
  /** Delay between the last edit and re-validation (ms). didOpen validates at once. */
  debounceMs?: number;
  services?: AttachableService[];
  /**
   * Called with every exception a handler throws (prisma-style). Default: an error-level log
   * message (`window/logMessage` type Error) — the LSP test harness fails a test on any such line.
   */
  onError?: (err: unknown, where: string) => void;
  /**
   * Test hook ("artificial panic"): validation throws for documents containing this text. Set
   * from HAILO_LS_ARTIFICIAL_PANIC by server.ts; never on in normal use.
   */
  artificialPanic?: string;
}

/** Code of the one diagnostic published when validating a document throws. */
export const INTERNAL_ERROR_CODE = 'hailo/internal-error';

/** Documents larger than this are skipped politely instead of analysed (LIMITS.documentChars). */
export const MAX_DOCUMENT_CHARS = limit('documentChars');

/** Local paths of workspace-folder URIs (a folder on another host is not one we read). */
function foldersOf(uris: readonly string[]): string[] {
  return uris.map(localPathOf).filter((p): p is string => p !== undefined);
}

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const debounceMs = options.debounceMs ?? 150;
  const services = options.services ?? createServices();
  const documents = new TextDocuments(TextDocument);
  const pending = new Map<string, NodeJS.Timeout>();
  const versions = new Map<string, number>();
  const log = (message: string) => connection.console.log(message);
  const onError = options.onError ?? ((err: unknown, where: string) => connection.console.error(`${where} failed: ${(err as Error)?.stack ?? String(err)}`));
  const settings = new SettingsStore(connection, log);
  /** What the client declared it can do (dynamic registration of the notifications we want). */
  let canRegisterConfiguration = false;
  let canRegisterWatchers = false;
  let canAskFolders = false;
  let initialFolders: string[] = [];

  function panicIfAsked(doc: TextDocument): void {
    if (options.artificialPanic && doc.getText().includes(options.artificialPanic)) throw new Error('artificial panic (test hook)');
  }

  function serviceFor(doc: TextDocument | undefined): AttachableService | undefined {
    if (!doc) return undefined;
    const path = doc.uri.replace(/[?#].*$/, '').toLowerCase();
    // By language id; else by file name, for editors that send their own id (`plaintext`, …).
    return services.find((s) => s.languageIds.includes(doc.languageId)) ?? services.find((s) => s.fileExtensions?.some((e) => path.endsWith(e)));
  }

  let modelLayerProvider: ModelLayerProvider | undefined;
  let calibrationProvider: CalibrationProvider | undefined;

  async function context(uri: string): Promise<ServiceContext> {
    const current = await settings.get(uri);
    return {
      settings: current,
      modelLayers: async () => {
        if (!modelLayerProvider) return undefined;
        try {
          return await modelLayerProvider(uri, current);
        } catch (err) {
          onError(err, `model layers for ${uri}`);
          return undefined;
        }
      },
      modelLayersFor: async (other) => {
        if (!modelLayerProvider) return undefined;
        try {
          return await modelLayerProvider(other, await settings.get(other));
        } catch (err) {
          onError(err, `model layers for ${other}`);
          return undefined;
        }
      },
      calibration: async () => {
        if (!calibrationProvider) return undefined;
        try {
          return await calibrationProvider(uri, current);
        } catch (err) {
          onError(err, `calibration set for ${uri}`);
          return undefined;
        }
      },
    };
  }

  async function validate(doc: TextDocument): Promise<void> {
    const service = serviceFor(doc);
    if (!service?.validate) return;
    const version = doc.version;
    versions.set(doc.uri, version);
    if (doc.getText().length > MAX_DOCUMENT_CHARS) {
      await connection.sendDiagnostics({
        uri: doc.uri,
        version,
        diagnostics: [
          {
            range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
            severity: 3,
            source: 'hailo',
            code: 'hailo/too-large',
            message: limitMessage('documentChars', 'This file', doc.getText().length),
          },
        ],
      });
      return;
    }
    let diagnostics;
    try {
      panicIfAsked(doc);
      diagnostics = await service.validate(doc, await context(doc.uri));
    } catch (err) {
      onError(err, `validate ${doc.uri}`);
      // Never leave the previous version's problems on screen as if they were current, and never
      // let a crash look like a clean file: one diagnostic says what happened.
      diagnostics = [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          severity: DiagnosticSeverity.Error,
          source: 'hailo',
          code: INTERNAL_ERROR_CODE,
          message: `Internal error while checking this file: ${(err as Error)?.message ?? String(err)}. Nothing else was checked; the log (Hailo: Show Log) has the details.`,
        },
      ];
    }
    // Drop results for a version that was superseded while we were working.
    if (versions.get(doc.uri) !== version || !documents.get(doc.uri)) return;
    await connection.sendDiagnostics({ uri: doc.uri, version, diagnostics });
  }

  function schedule(doc: TextDocument, delay: number): void {
    const old = pending.get(doc.uri);
    if (old) clearTimeout(old);
    if (delay <= 0) {
      pending.delete(doc.uri);
      void validate(doc);
      return;
    }
    pending.set(
      doc.uri,
      setTimeout(() => {
        pending.delete(doc.uri);
        const current = documents.get(doc.uri);
        if (current) void validate(current);
      }, delay),
    );
  }

  function revalidateAll(): void {
    for (const doc of documents.all()) schedule(doc, 0);
  }

  /**
   * Route a positional request to the document's service. No service or nothing found gives
   * `fallback`; an exception goes to onError and the client gets an error response, not an
   * empty answer that would look like "nothing here".
   */
  function route<T>(
    uri: string,
    name: string,
    fallback: T,
    token: CancellationToken,
    run: (service: AttachableService, doc: TextDocument, ctx: ServiceContext) => T | Promise<T> | undefined,
    budgeted = false,
  ): Promise<T | ResponseError<void>> {
    // A request the client cancelled (often while it waited behind a slow one) is answered as
    // cancelled without running; `budgeted` features get LIMITS.lspFeatureBudgetMs.
    const cancelled = () => new ResponseError<void>(LSPErrorCodes.RequestCancelled, `${name} cancelled`);
    if (token.isCancellationRequested) return Promise.resolve(cancelled());
    const doc = documents.get(uri);
    const service = serviceFor(doc);
    if (!doc || !service || doc.getText().length > MAX_DOCUMENT_CHARS) return Promise.resolve(fallback);
    return context(uri)
      .then((ctx): T | Promise<T> | undefined | ResponseError<void> => {
        if (token.isCancellationRequested) return cancelled();
        panicIfAsked(doc);
        if (!budgeted) return run(service, doc, ctx);
        const budget = timeBudget(limit('lspFeatureBudgetMs'), () => token.isCancellationRequested);
        const result = run(service, doc, { ...ctx, budget });
        if (budget.expired()) log(`${name} ${uri}: stopped after the ${budget.ms} ms budget (or a cancel); the answer covers the start of the document`);
        return result;
      })
      .then((r) => (r === undefined || r === null ? fallback : r))
      .catch((err: unknown) => {
        onError(err, `${name} ${uri}`);
        throw new ResponseError(ErrorCodes.InternalError, `hailo: ${name} failed: ${(err as Error)?.message ?? String(err)}`);
      });
  }

  connection.onInitialize((params): InitializeResult => {
    settings.initialize(params);
    const workspace = params.capabilities.workspace;
    canRegisterConfiguration = !!workspace?.configuration && !!workspace.didChangeConfiguration?.dynamicRegistration;
    canRegisterWatchers = !!workspace?.didChangeWatchedFiles?.dynamicRegistration;
    canAskFolders = !!workspace?.workspaceFolders;
    initialFolders = params.workspaceFolders?.map((f) => f.uri) ?? (params.rootUri ? [params.rootUri] : []);
    setOpenedFolders(foldersOf(initialFolders));
    setSkippedPathNote((sentence) => log(sentence)); // a path a file names, not read because it leads outside
    return {
      capabilities: {
        textDocumentSync: TextDocumentSyncKind.Incremental,
        hoverProvider: true,
        completionProvider: { triggerCharacters: ['(', ',', '=', '.', ' ', '{'], resolveProvider: false },
        signatureHelpProvider: { triggerCharacters: ['(', ','], retriggerCharacters: ['='] },
        definitionProvider: true,
        referencesProvider: true,
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix] },
        semanticTokensProvider: {
          legend: { tokenTypes: [...SEMANTIC_TOKEN_TYPES], tokenModifiers: [...SEMANTIC_TOKEN_MODIFIERS] },
          full: true,
        },
      },
      serverInfo: { name: 'hailo-language-server', version: '0.1.0' },
    };
  });

  connection.onInitialized(() => {
    if (canRegisterConfiguration) {
      connection.client
        .register(DidChangeConfigurationNotification.type, { section: 'hailo' })
        .catch((err: unknown) => log(`settings: the client refused the didChangeConfiguration registration: ${(err as Error)?.message ?? err}`));
    }
    const host: ServerHost = {
      connection,
      documents,
      settingsFor: (uri) => settings.get(uri),
      onSettingsChanged: (listener) => settings.onDidChange(listener),
      workspaceFolders: async () => {
        if (!canAskFolders) return initialFolders;
        try {
          const folders = (await connection.workspace.getWorkspaceFolders())?.map((f) => f.uri) ?? initialFolders;
          setOpenedFolders(foldersOf(folders)); // the paths a file may name stay inside these (alls/nodeHost.ts)
          return folders;
        } catch (err) {
          log(`workspace/workspaceFolders failed (${(err as Error)?.message ?? err}); using the folders sent in initialize`);
          return initialFolders;
        }
      },
      revalidateAll,
      log,
      onError,
      watchFiles: (globPattern, handler) => {
        fileWatchers.push(handler);
        if (!canRegisterWatchers) {
          log(`the client cannot watch files for us: ${globPattern} is checked at start and when settings change only`);
          return;
        }
        connection.client
          .register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern }] })
          .catch((err: unknown) => log(`the client refused to watch ${globPattern}: ${(err as Error)?.message ?? err}`));
      },
      setModelLayerProvider: (p) => {
        modelLayerProvider = p;
        revalidateAll();
      },
      setCalibrationProvider: (p) => {
        calibrationProvider = p;
        revalidateAll();
      },
    };
    for (const s of services) {
      try {
        s.attach?.(host);
      } catch (err) {
        onError(err, 'attach');
      }
    }
  });

  const fileWatchers: ((changes: FileEvent[]) => void)[] = [];
  connection.onDidChangeWatchedFiles((params) => {
    for (const handler of fileWatchers) {
      try {
        handler(params.changes);
      } catch (err) {
        onError(err, 'watched-file handler');
      }
    }
  });

  connection.onDidChangeConfiguration((change) => {
    settings.changed(change.settings);
    revalidateAll();
  });

  documents.onDidOpen((e) => schedule(e.document, 0));
  documents.onDidChangeContent((e) => {
    // didOpen also fires a content change; the open handler already validated that version.
    if (versions.get(e.document.uri) === e.document.version) return;
    schedule(e.document, debounceMs);
  });
  documents.onDidClose((e) => {
    const t = pending.get(e.document.uri);
    if (t) clearTimeout(t);
    pending.delete(e.document.uri);
    versions.delete(e.document.uri);
    settings.forget(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onHover((p, t) => route(p.textDocument.uri, 'hover', null, t, (s, d, c) => s.hover?.(d, p.position, c)));
  connection.onCompletion((p, t) => route(p.textDocument.uri, 'completion', [], t, (s, d, c) => s.completion?.(d, p.position, c)));
  connection.onSignatureHelp((p, t) => route(p.textDocument.uri, 'signatureHelp', null, t, (s, d, c) => s.signatureHelp?.(d, p.position, c)));
  connection.onDefinition((p, t) => route(p.textDocument.uri, 'definition', null, t, (s, d, c) => s.definition?.(d, p.position, c)));
  connection.onReferences((p, t) => route(p.textDocument.uri, 'references', null, t, (s, d, c) => s.references?.(d, p.position, c)));
  connection.onDocumentSymbol((p, t) => route(p.textDocument.uri, 'documentSymbol', [], t, (s, d, c) => s.documentSymbols?.(d, c), true));
  connection.onFoldingRanges((p, t) => route(p.textDocument.uri, 'foldingRange', [], t, (s, d, c) => s.foldingRanges?.(d, c), true));
  connection.onCodeAction((p, t) => route(p.textDocument.uri, 'codeAction', [], t, (s, d, c) => s.codeActions?.(d, p.range, p.context, c)));
  connection.languages.semanticTokens.on((p, t) => route(p.textDocument.uri, 'semanticTokens', { data: [] }, t, (s, d, c) => s.semanticTokens?.(d, c), true));

  documents.listen(connection);
  connection.listen();
}
