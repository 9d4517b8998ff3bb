// Every string that comes from a file (a HAR layer name, an ONNX node or tensor name, a HEF stream
// name, a path in a cloned folder) is escaped for the place it goes. One function per sink:
// - oneLine: text that must stay on its line (the ONNX graph view, CLI lines);
// - mdCode / mdCell / mdText: markdown (hover, completion docs) — no live link, image, autolink,
//   HTML or command: URI can come out of a name, and a newline cannot leave a code span;
// - terminalText: what the CLI prints, so that a name cannot drive the terminal (ESC sequences).
// HTML for webviews has its own escaper next to each renderer (client/src/*/render.ts).

/** C0 controls, DEL, C1 controls, line/paragraph separators, bidi overrides and isolates. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visible(c: string): string {
  switch (c) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
  }
  const code = c.charCodeAt(0);
  return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** `a\nb` → `a\\nb`: line breaks, tabs and every other control character as a visible escape. */
export function oneLine(s: string): string {
  return s.replace(CONTROL, visible);
}

/** Markdown inline code for any string: one line, and a backtick inside cannot close it. */
export function mdCode(s: string): string {
  const text = oneLine(s);
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space on each side when both are there: pad when the text touches a backtick.
  const pad = text.startsWith('`') || text.endsWith('`') || (text.startsWith(' ') && text.endsWith(' ') && text.trim() !== '') ? ' ' : '';
  return `${fence}${pad}${text || ' '}${pad}${fence}`;
}

/** mdCode for a table cell: a `|` would end the cell even inside a code span (GFM), so it is escaped. */
export function mdCell(s: string): string {
  return mdCode(s).replace(/\|/g, '\\|');
}

/**
 * Plain markdown text from a file, on one line: the characters that make emphasis, code, links,
 * images, HTML, entities and table cells are escaped, and so are the `://`, `www.` and `@` that
 * start GFM's autolinks; a line-start marker (`#`, `-`, `1.`) cannot start a block either.
 */
export function mdText(s: string): string {
  return oneLine(s)
    .replace(/[\\`*_{}[\]()<>!|~&@]/g, '\\$&')
    .replace(/:\/\//g, '\\:/\\/')
    .replace(/\b(www)\./gi, '$1\\.')
    .replace(/^(\s*)([#+=-]|\d+[.)])/, (_m, space: string, mark: string) => `${space}${mark.replace(/[#+=.)-]/g, '\\$&')}`);
}

/** One character as a `\\u001b`-style escape: readable, and valid inside a JSON string. */
const uEscape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * A report printed as lines, one record per line: a line break, CR or other control character that
 * a file put inside a record (a file name, a network or member name, a note from a cloned result) is
 * shown escaped, so a cloned folder cannot forge a line of the report (issue 29, audit finding A3-4).
 * Tabs stay. Every CLI report built as a list of lines ends here rather than at `join('\n')`.
 */
export function reportLines(lines: readonly string[]): string {
  const shown = (c: string) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : uEscape(c));
  // the same `\u001b` form terminalText gives the rest of the output, and \n / \r as they are written
  return lines.map((l) => l.replace(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029]/g, shown)).join('\n') + '\n';
}

/**
 * What the CLI prints: control characters other than newline and tab (ESC starts terminal control
 * sequences; CR and backspace overwrite what was printed), DEL, C1 controls (U+009B is a one-byte
 * CSI on some terminals) and bidi overrides become `\u001b`-style escapes — readable, and valid
 * inside JSON strings, where JSON.stringify leaves DEL, C1 and bidi characters raw.
 */
export function terminalText(s: string): string {
  return s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, uEscape);
}

/**
 * What terminalStream lets through or escapes, in one pass: an SGR sequence (colours, bold: it only
 * styles text), or one control character other than newline, carriage return and tab (DEL, C1 and
 * bidi included).
 */
const STREAM_TOKEN = /\x1b\[[0-9;]{0,32}m|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function escapeStream(s: string): string {
  return s.replace(STREAM_TOKEN, (t) => (t.length > 1 ? t : uEscape(t)));
}

/**
 * A program's console (the DFC in its container) on its way to a terminal, chunk by chunk: colours
 * (SGR) and line ends, carriage returns (progress bars) and tabs pass; every other control
 * character — the ESC of OSC-52 or of cursor moves, C1, bidi overrides — becomes a `\u001b`-style
 * escape. A colour split between chunks is held back until it is whole.
 */
export class TerminalStreamEscaper {
  private held = '';

  push(chunk: string): string {
    let s = this.held + chunk;
    this.held = '';
    const tail = s.lastIndexOf('\x1b');
    if (tail >= 0 && s.length - tail <= 34 && /^\x1b(\[[0-9;]*)?$/.test(s.slice(tail))) {
      this.held = s.slice(tail);
      s = s.slice(0, tail);
    }
    return escapeStream(s);
  }

  /** Whatever is held back (the end of the stream). */
  flush(): string {
    const rest = escapeStream(this.held);
    this.held = '';
    return rest;
  }
}
