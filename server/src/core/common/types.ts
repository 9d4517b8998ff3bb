// Editor-neutral types shared by every analysis core (alls, onnx, hef) and the CLI.
// Positions are 0-based, like LSP; the CLI converts to 1-based for humans and JSON.

export interface Position {
  line: number;
  character: number;
}

export interface Range {
  start: Position;
  end: Position;
}

export type Severity = 'error' | 'warning' | 'info' | 'hint';

/** A text edit inside the analysed document (used by quick fixes). */
export interface TextEdit {
  range: Range;
  newText: string;
}

export interface Fix {
  title: string;
  edits: TextEdit[];
  /** The fix the editor should offer first. */
  preferred?: boolean;
}

export interface Diagnostic {
  range: Range;
  severity: Severity;
  /** Stable code, e.g. `alls/unknown-command`. Never reuse a code for another meaning. */
  code: string;
  message: string;
  /** Secondary locations (e.g. "opened here"). */
  related?: { range: Range; message: string }[];
  fixes?: Fix[];
  /** Marks code that is legal but superseded. */
  tags?: ('unnecessary' | 'deprecated')[];
}

export const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2, hint: 3 };
