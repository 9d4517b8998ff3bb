// A JSON syntax error as one sentence that quotes nothing of the text: V8's own messages carry the
// bytes around the error (`Unexpected token 'x', "secret…" is not valid JSON`), and a file we read may
// be a private one a link pointed at (issue 29: a refusal, or a parse error, reveals no byte).

/** "unexpected token at line 3, column 7" / "unexpected end of the text": where, never what. */
export function jsonSyntaxWhere(text: string, err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const m = /position (\d+)/.exec(message);
  const kind = /end of (JSON|data)|Unterminated|unexpected end/i.test(message) ? 'unexpected end of the text' : 'a syntax error';
  if (!m) return kind;
  const pos = Math.min(Number(m[1]), text.length);
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < pos; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `${kind} at line ${line}, column ${pos - lineStart + 1}`;
}
