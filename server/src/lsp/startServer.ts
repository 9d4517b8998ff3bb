// Wires a connection to the language services: document sync, settings, debounced validation,
// request routing by language id, and a guard that turns any exception into a log line.
// Handlers stay thin: they find the service for a document and call it.
import {
  CodeActionKind,
  Connection,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  type FileEvent,
  TextDocuments,
  TextDocumentSyncKind,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { resolveSettings, type HailoSettings } from '../common/settings';
import { createServices } from './services';
import {
  SEMANTIC_TOKEN_MODIFIERS,
  SEMANTIC_TOKEN_TYPES,
  type AttachableService,
  type ModelLayerProvider,
  type ServerHost,
  type ServiceContext,
} from './service';

export interface ServerOptions {
  /** Delay between the last edit and re-validation (ms). didOpen validates at once. */
  debounceMs?: number;
  services?: AttachableService[];
}

/** Documents larger than this are skipped politely instead of analysed. */
export const MAX_DOCUMENT_CHARS = 16 * 1024 * 1024;

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const debounceMs = options.debounceMs ?? 150;
  const services = options.services ?? createServices();
  const documents = new TextDocuments(TextDocument);
  const settingsCache = new Map<string, Promise<HailoSettings>>();
  const pending = new Map<string, NodeJS.Timeout>();
  const versions = new Map<string, number>();
  let canPullConfiguration = false;
  /** Settings pushed by didChangeConfiguration, for clients that cannot be asked. */
  let globalSettings: unknown = undefined;

  const log = (message: string) => connection.console.log(message);

  function serviceFor(doc: TextDocument | undefined): AttachableService | undefined {
    if (!doc) return undefined;
    return services.find((s) => s.languageIds.includes(doc.languageId));
  }

  function settingsFor(uri: string): Promise<HailoSettings> {
    if (!canPullConfiguration) return Promise.resolve(resolveSettings(globalSettings));
    let p = settingsCache.get(uri);
    if (!p) {
      p = connection.workspace
        .getConfiguration({ scopeUri: uri, section: 'hailo' })
        .then(resolveSettings, () => resolveSettings(undefined));
      settingsCache.set(uri, p);
    }
    return p;
  }

  let modelLayerProvider: ModelLayerProvider | undefined;

  async function context(uri: string): Promise<ServiceContext> {
    const settings = await settingsFor(uri);
    return {
      settings,
      modelLayers: async () => {
        if (!modelLayerProvider) return undefined;
        try {
          return await modelLayerProvider(uri, settings);
        } catch (err) {
          log(`model layers for ${uri} failed: ${(err as Error)?.stack ?? err}`);
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
            message: `File not analysed: ${doc.getText().length} characters exceeds the ${MAX_DOCUMENT_CHARS}-character limit.`,
          },
        ],
      });
      return;
    }
    try {
      const diagnostics = await service.validate(doc, await context(doc.uri));
      // Drop results for a version that was superseded while we were working.
      if (versions.get(doc.uri) !== version || !documents.get(doc.uri)) return;
      await connection.sendDiagnostics({ uri: doc.uri, version, diagnostics });
    } catch (err) {
      log(`validate ${doc.uri} failed: ${(err as Error)?.stack ?? err}`);
    }
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

  /** Route a positional request to the document's service; any exception becomes `fallback`. */
  function route<T>(
    uri: string,
    name: string,
    fallback: T,
    run: (service: AttachableService, doc: TextDocument, ctx: ServiceContext) => T | Promise<T> | undefined,
  ): Promise<T> {
    const doc = documents.get(uri);
    const service = serviceFor(doc);
    if (!doc || !service || doc.getText().length > MAX_DOCUMENT_CHARS) return Promise.resolve(fallback);
    return context(uri)
      .then((ctx) => run(service, doc, ctx))
      .then((r) => (r === undefined || r === null ? fallback : r))
      .catch((err) => {
        log(`${name} ${uri} failed: ${(err as Error)?.stack ?? err}`);
        return fallback;
      });
  }

  connection.onInitialize((params): InitializeResult => {
    canPullConfiguration = !!params.capabilities.workspace?.configuration;
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
    if (canPullConfiguration) {
      void connection.client.register(DidChangeConfigurationNotification.type, { section: 'hailo' }).catch(() => undefined);
    }
    const host: ServerHost = {
      connection,
      documents,
      settingsFor,
      revalidateAll,
      log,
      watchFiles: (globPattern, handler) => {
        fileWatchers.push(handler);
        void connection.client.register(DidChangeWatchedFilesNotification.type, { watchers: [{ globPattern }] }).catch(() => undefined);
      },
      setModelLayerProvider: (p) => {
        modelLayerProvider = p;
        revalidateAll();
      },
    };
    for (const s of services) {
      try {
        s.attach?.(host);
      } catch (err) {
        log(`attach failed: ${(err as Error)?.stack ?? err}`);
      }
    }
  });

  const fileWatchers: ((changes: FileEvent[]) => void)[] = [];
  connection.onDidChangeWatchedFiles((params) => {
    for (const handler of fileWatchers) {
      try {
        handler(params.changes);
      } catch (err) {
        log(`watched-file handler failed: ${(err as Error)?.stack ?? err}`);
      }
    }
  });

  connection.onDidChangeConfiguration((change) => {
    settingsCache.clear();
    globalSettings = (change.settings as { hailo?: unknown } | undefined)?.hailo;
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
    settingsCache.delete(e.document.uri);
    void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  connection.onHover((p) => route(p.textDocument.uri, 'hover', null, (s, d, c) => s.hover?.(d, p.position, c)));
  connection.onCompletion((p) => route(p.textDocument.uri, 'completion', [], (s, d, c) => s.completion?.(d, p.position, c)));
  connection.onSignatureHelp((p) => route(p.textDocument.uri, 'signatureHelp', null, (s, d, c) => s.signatureHelp?.(d, p.position, c)));
  connection.onDefinition((p) => route(p.textDocument.uri, 'definition', null, (s, d, c) => s.definition?.(d, p.position, c)));
  connection.onReferences((p) => route(p.textDocument.uri, 'references', null, (s, d, c) => s.references?.(d, p.position, c)));
  connection.onDocumentSymbol((p) => route(p.textDocument.uri, 'documentSymbol', [], (s, d, c) => s.documentSymbols?.(d, c)));
  connection.onFoldingRanges((p) => route(p.textDocument.uri, 'foldingRange', [], (s, d, c) => s.foldingRanges?.(d, c)));
  connection.onCodeAction((p) => route(p.textDocument.uri, 'codeAction', [], (s, d, c) => s.codeActions?.(d, p.range, p.context, c)));
  connection.languages.semanticTokens.on((p) =>
    route(p.textDocument.uri, 'semanticTokens', { data: [] }, (s, d, c) => s.semanticTokens?.(d, c)),
  );

  documents.listen(connection);
  connection.listen();
}
