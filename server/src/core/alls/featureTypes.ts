// Editor-neutral results of the `.alls` editor features (the LSP adapter maps them to LSP types).
import type { Range } from '../common/types';

export type CompletionKind = 'command' | 'method' | 'subcommand' | 'keyword' | 'value' | 'layer' | 'name' | 'context';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail?: string;
  /** Markdown. */
  documentation?: string;
  /** Text to insert when it differs from the label (e.g. `epochs=`). */
  insertText?: string;
  /** The text this entry replaces (the word being typed). */
  range: Range;
  sortText?: string;
  deprecated?: boolean;
}

export interface HoverInfo {
  /** Markdown. */
  markdown: string;
  range: Range;
}

export interface SignatureParameter {
  /** [start, end) offsets into the signature label. */
  label: [number, number];
  documentation?: string;
}

export interface SignatureEntry {
  label: string;
  documentation?: string;
  parameters: SignatureParameter[];
}

export interface SignatureHelpInfo {
  signatures: SignatureEntry[];
  activeSignature: number;
  activeParameter: number;
}

export type SymbolKindName = 'stage' | 'command' | 'definition';

export interface SymbolInfo {
  name: string;
  detail?: string;
  kind: SymbolKindName;
  range: Range;
  selectionRange: Range;
  children?: SymbolInfo[];
}

export interface FoldingInfo {
  startLine: number;
  endLine: number;
  kind?: 'comment' | 'region';
}

/** A location in this document (`uri` undefined) or in another file (a model's ONNX view). */
export interface LocationInfo {
  uri?: string;
  range: Range;
}

export type SemanticTokenType =
  'function' | 'method' | 'parameter' | 'enumMember' | 'number' | 'string' | 'variable' | 'property' | 'comment' | 'operator' | 'keyword';
export type SemanticTokenModifier = 'declaration' | 'defaultLibrary' | 'deprecated';

export interface SemanticTokenInfo {
  line: number;
  character: number;
  length: number;
  type: SemanticTokenType;
  modifiers: SemanticTokenModifier[];
}
