// The one interface every language feature set implements (yaml-language-server style).
// Implementations adapt a pure analysis core (server/src/<domain>) to LSP types; they hold no
// connection state, so tests can call them directly and startServer can route to them.
import type {
  CodeAction,
  CodeActionContext,
  CompletionItem,
  Definition,
  Diagnostic,
  DocumentSymbol,
  FoldingRange,
  Hover,
  LocationLink,
  Position,
  Range,
  SemanticTokens,
  SignatureHelp,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { HailoSettings } from '../core/common/settings';
import type { ModelLayerIndex } from '../core/common/modelLayers';
import type { Budget } from '../core/common/budget';
import type { CalibArray } from '../core/calib/inspect';

export interface ServiceContext {
  settings: HailoSettings;
  /**
   * For features that run on every edit or scroll (semantic tokens, folding, symbols): expires
   * after LIMITS.lspFeatureBudgetMs or when the client cancels; they return what they have by then.
   */
  budget?: Budget;
  /** The parsed model the document refers to (e.g. a `.har` beside an `.alls`), if known. */
  modelLayers(): Promise<ModelLayerIndex | undefined>;
  /** The same for another file (the script that names an NMS config), with that file's settings. */
  modelLayersFor?(uri: string): Promise<ModelLayerIndex | undefined>;
  /** The calibration set beside the document (a `.npy`/`.npz` beside an `.alls`), measured, if any. */
  calibration?(): Promise<CalibrationInfo | undefined>;
}

/** A calibration set found for a document: measured (`array`) or why it could not be (`error`). */
export interface CalibrationInfo {
  path: string;
  /** Relative to the document's folder, for messages. */
  name: string;
  array?: CalibArray;
  error?: string;
}

/** Finds and measures the calibration set for a document; registered through `ServerHost`. */
export type CalibrationProvider = (uri: string, settings: HailoSettings) => Promise<CalibrationInfo | undefined>;

/** Finds the parsed model for a document; registered by a service through `ServerHost`. */
export type ModelLayerProvider = (uri: string, settings: HailoSettings) => Promise<ModelLayerIndex | undefined>;

export interface LanguageService {
  /** Language ids (as sent in didOpen) this service answers for. */
  readonly languageIds: readonly string[];
  /** File name endings it also takes when an editor sent another language id (`.alls`). */
  readonly fileExtensions?: readonly string[];
  validate?(doc: TextDocument, ctx: ServiceContext): Diagnostic[] | Promise<Diagnostic[]>;
  hover?(doc: TextDocument, pos: Position, ctx: ServiceContext): Hover | null | Promise<Hover | null>;
  completion?(doc: TextDocument, pos: Position, ctx: ServiceContext): CompletionItem[] | Promise<CompletionItem[]>;
  signatureHelp?(doc: TextDocument, pos: Position, ctx: ServiceContext): SignatureHelp | null;
  definition?(doc: TextDocument, pos: Position, ctx: ServiceContext): Definition | LocationLink[] | null | Promise<Definition | LocationLink[] | null>;
  references?(doc: TextDocument, pos: Position, ctx: ServiceContext): { uri: string; range: Range }[] | null;
  documentSymbols?(doc: TextDocument, ctx: ServiceContext): DocumentSymbol[];
  foldingRanges?(doc: TextDocument, ctx: ServiceContext): FoldingRange[];
  semanticTokens?(doc: TextDocument, ctx: ServiceContext): SemanticTokens;
  codeActions?(doc: TextDocument, range: Range, context: CodeActionContext, ctx: ServiceContext): CodeAction[];
}

/** Semantic token legend shared by all services (the server advertises exactly one legend). */
export const SEMANTIC_TOKEN_TYPES = [
  'function', // command
  'method', // sub-command / feature
  'parameter', // keyword argument
  'enumMember', // enum value
  'number',
  'string',
  'variable', // target / name defined in the script
  'property', // layer name
  'comment',
  'operator',
  'keyword',
] as const;
export const SEMANTIC_TOKEN_MODIFIERS = ['declaration', 'defaultLibrary', 'deprecated'] as const;

/** What a service may use to add its own requests/notifications (e.g. HEF facts, ONNX views). */
export interface ServerHost {
  readonly connection: import('vscode-languageserver/node').Connection;
  readonly documents: import('vscode-languageserver/node').TextDocuments<TextDocument>;
  /** Settings for a resource (lsp/settings.ts: cached; refreshed on didChangeConfiguration). */
  settingsFor(uri: string): Promise<HailoSettings>;
  /** Workspace folder URIs: asked from clients that support it, else from initialize's folders / rootUri. */
  workspaceFolders(): Promise<string[]>;
  /** Called after `hailo.*` settings changed (open documents are re-validated anyway). */
  onSettingsChanged(listener: () => void): void;
  /** Re-run diagnostics for every open document (e.g. after an index a service depends on changed). */
  revalidateAll(): void;
  /**
   * Ask the client to watch files matching `globPattern` and call `handler` with the changes.
   * LSP allows one didChangeWatchedFiles handler per connection; this fans it out to services.
   */
  watchFiles(globPattern: string, handler: (changes: import('vscode-languageserver/node').FileEvent[]) => void): void;
  /** Install the provider behind `ServiceContext.modelLayers` (one per server). */
  setModelLayerProvider(provider: ModelLayerProvider): void;
  /** Install the provider behind `ServiceContext.calibration` (one per server). */
  setCalibrationProvider?(provider: CalibrationProvider): void;
  log(message: string): void;
  /** Report an exception (a bug, not bad input): error-level log, see ServerOptions.onError. */
  onError(err: unknown, where: string): void;
}

export interface AttachableService extends LanguageService {
  /** Called once after initialize; register extra handlers here. */
  attach?(host: ServerHost): void;
}
