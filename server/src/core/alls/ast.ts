// Syntax tree of a `.alls` script (grammar: docs/research/alls-reference.md#grammar). Every node carries UTF-16 offsets
// into the document text (`start` inclusive, `end` exclusive); positions are computed only when a
// diagnostic or a feature needs them (see lineIndex.ts).

export interface Span {
  start: number;
  end: number;
}

export interface NameNode extends Span {
  kind: 'name';
  text: string;
}

export interface NumberNode extends Span {
  kind: 'number';
  text: string;
  value: number;
}

export interface StringNode extends Span {
  kind: 'string';
  /** Raw text including quotes. */
  text: string;
  /** Contents without quotes. */
  value: string;
  quote: '"' | "'";
  terminated: boolean;
}

/** `{conv*}` — a layer pattern; `{}` is the empty target set of `defuse_block`. */
export interface GlobNode extends Span {
  kind: 'glob';
  text: string;
  /** Contents between the braces, trimmed. */
  pattern: string;
}

export interface ListNode extends Span {
  kind: 'list';
  items: ValueNode[];
  /** Offset of the closing `]`, or -1 when it is missing. */
  close: number;
}

export interface DictEntry {
  key: ValueNode;
  value: ValueNode;
}

export interface DictNode extends Span {
  kind: 'dict';
  entries: DictEntry[];
  close: number;
}

/** Where a value was expected but none was written (keeps partial statements useful). */
export interface MissingNode extends Span {
  kind: 'missing';
}

export type ValueNode = NameNode | NumberNode | StringNode | GlobNode | ListNode | DictNode | MissingNode;

export interface ArgNode extends Span {
  /** `name=` of a keyword argument. */
  keyword?: NameNode;
  value: ValueNode;
}

export interface CallNode extends Span {
  /** `context_0` in `context_0.place(...)`. */
  object?: NameNode;
  name: NameNode;
  /** Offset of `(`, or -1 when the command name is not followed by one. */
  open: number;
  /** Offset of `)`, or -1 when it is missing. */
  close: number;
  args: ArgNode[];
}

export type TargetNode = NameNode | GlobNode | DictNode;

export interface StatementNode extends Span {
  targets: TargetNode[];
  /** Offset of the assignment `=`, or -1. */
  assign: number;
  call?: CallNode;
  /** The statement had a syntax error: checks that count arguments are skipped. */
  broken: boolean;
  /** Index of the statement's first token in `Script.tokens`. */
  firstToken: number;
  /** Index one past the statement's last token. */
  endToken: number;
}

export interface SyntaxError extends Span {
  code: string;
  message: string;
  severity: 'error' | 'warning' | 'info';
  related?: { start: number; end: number; message: string }[];
}

export interface Script {
  text: string;
  /** The token stream (completion and signature help read it around the cursor). */
  tokens: import('./lexer').TokenStream;
  statements: StatementNode[];
  comments: Span[];
  /** Comments that follow code on the same line (unseen in Hailo's scripts). */
  trailingComments: Span[];
  errors: SyntaxError[];
}
