// Tokenizer for `.alls` model scripts (reference §1.1). Hand-written over char codes because the
// language server re-lexes multi-megabyte allocator dumps on every edit.
//
// Decisions forced by the corpus: `{...}` without `:` or newline is one raw GLOB token (character
// classes inside), NAME allows `/ - . $` and a leading digit (durations like `30m`), a lone `\r`
// counts as a line break (as in LSP's TextDocument), newlines are always emitted — the parser
// decides which ones end a statement.

export enum Tok {
  Name,
  Number,
  String,
  Glob,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Equals,
  Colon,
  Newline,
  Comment,
  /** A run of characters the language has no use for (`;`, `@`, U+FFFD from bad UTF-8, ...). */
  Invalid,
  Eof,
}

export interface Token {
  kind: Tok;
  start: number;
  end: number;
  /** Source text of NAME / NUMBER / STRING / GLOB / INVALID tokens. */
  text: string;
  /** STRING only: the closing quote is missing (the string ran to the end of the line). */
  unterminated?: boolean;
}

export const TOKEN_LABEL: Record<Tok, string> = {
  [Tok.Name]: 'name',
  [Tok.Number]: 'number',
  [Tok.String]: 'string',
  [Tok.Glob]: 'layer pattern',
  [Tok.LParen]: '`(`',
  [Tok.RParen]: '`)`',
  [Tok.LBracket]: '`[`',
  [Tok.RBracket]: '`]`',
  [Tok.LBrace]: '`{`',
  [Tok.RBrace]: '`}`',
  [Tok.Comma]: '`,`',
  [Tok.Equals]: '`=`',
  [Tok.Colon]: '`:`',
  [Tok.Newline]: 'end of line',
  [Tok.Comment]: 'comment',
  [Tok.Invalid]: 'invalid character',
  [Tok.Eof]: 'end of file',
};

const CH_TAB = 9;
const CH_LF = 10;
const CH_FF = 12;
const CH_CR = 13;
const CH_SPACE = 32;
const CH_DQUOTE = 34;
const CH_HASH = 35;
const CH_DOLLAR = 36;
const CH_SQUOTE = 39;
const CH_LPAREN = 40;
const CH_RPAREN = 41;
const CH_PLUS = 43;
const CH_COMMA = 44;
const CH_MINUS = 45;
const CH_DOT = 46;
const CH_SLASH = 47;
const CH_0 = 48;
const CH_9 = 57;
const CH_COLON = 58;
const CH_EQUALS = 61;
const CH_LBRACKET = 91;
const CH_RBRACKET = 93;
const CH_UNDERSCORE = 95;
const CH_LBRACE = 123;
const CH_RBRACE = 125;

function isDigit(c: number): boolean {
  return c >= CH_0 && c <= CH_9;
}

function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** First character of a NAME: `[A-Za-z_$0-9]`. */
export function isNameStart(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === CH_UNDERSCORE || c === CH_DOLLAR;
}

/** Later characters of a NAME: `[A-Za-z0-9_\-/.$]` (layer names carry scopes, ranges, dots). */
export function isNameChar(c: number): boolean {
  return isLetter(c) || isDigit(c) || c === CH_UNDERSCORE || c === CH_MINUS || c === CH_SLASH || c === CH_DOT || c === CH_DOLLAR;
}

function isSpace(c: number): boolean {
  return c === CH_SPACE || c === CH_TAB || c === CH_FF;
}

/** Characters that end an invalid run (so `;x` reports `;` and still lexes `x`). */
function endsInvalidRun(c: number): boolean {
  return (
    isSpace(c) ||
    c === CH_LF ||
    c === CH_CR ||
    isNameStart(c) ||
    c === CH_LPAREN ||
    c === CH_RPAREN ||
    c === CH_LBRACKET ||
    c === CH_RBRACKET ||
    c === CH_LBRACE ||
    c === CH_RBRACE ||
    c === CH_COMMA ||
    c === CH_EQUALS ||
    c === CH_COLON ||
    c === CH_HASH ||
    c === CH_DQUOTE ||
    c === CH_SQUOTE
  );
}

/**
 * Length of a NUMBER at `i` (`[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?`), or 0 when the text there
 * is not a number or continues as a name (`30m`, `1.6gf_fpn/conv63`).
 */
function scanNumber(text: string, i: number): number {
  const n = text.length;
  let j = i;
  let c = text.charCodeAt(j);
  if (c === CH_MINUS || c === CH_PLUS) c = text.charCodeAt(++j);
  let digits = 0;
  while (isDigit(c)) {
    digits++;
    c = text.charCodeAt(++j);
  }
  if (c === CH_DOT) {
    c = text.charCodeAt(++j);
    while (isDigit(c)) {
      digits++;
      c = text.charCodeAt(++j);
    }
  }
  if (digits === 0) return 0;
  if (c === 101 || c === 69) {
    // exponent only if digits follow; otherwise `1e` stays part of a name
    let k = j + 1;
    let d = text.charCodeAt(k);
    if (d === CH_MINUS || d === CH_PLUS) d = text.charCodeAt(++k);
    if (isDigit(d)) {
      while (isDigit(d)) d = text.charCodeAt(++k);
      j = k;
      c = d;
    }
  }
  if (j < n && isNameChar(c)) return 0;
  return j - i;
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    switch (c) {
      case CH_LF:
        tokens.push({ kind: Tok.Newline, start, end: i + 1, text: '' });
        i++;
        continue;
      case CH_CR: {
        const end = text.charCodeAt(i + 1) === CH_LF ? i + 2 : i + 1;
        tokens.push({ kind: Tok.Newline, start, end, text: '' });
        i = end;
        continue;
      }
      case CH_HASH: {
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === CH_LF || d === CH_CR) break;
          j++;
        }
        tokens.push({ kind: Tok.Comment, start, end: j, text: '' });
        i = j;
        continue;
      }
      case CH_DQUOTE:
      case CH_SQUOTE: {
        let j = i + 1;
        let terminated = false;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === c) {
            terminated = true;
            j++;
            break;
          }
          if (d === CH_LF || d === CH_CR) break;
          j++;
        }
        const tok: Token = { kind: Tok.String, start, end: j, text: text.slice(start, j) };
        if (!terminated) tok.unterminated = true;
        tokens.push(tok);
        i = j;
        continue;
      }
      case CH_LBRACE: {
        // `{conv[0-9]*}` is one raw token; `{` followed by `:` or a newline before `}` opens a dict.
        let j = i + 1;
        let glob = false;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === CH_RBRACE) {
            glob = true;
            break;
          }
          if (d === CH_LBRACE || d === CH_COLON || d === CH_LF || d === CH_CR) break;
          j++;
        }
        if (glob) {
          tokens.push({ kind: Tok.Glob, start, end: j + 1, text: text.slice(start, j + 1) });
          i = j + 1;
        } else {
          tokens.push({ kind: Tok.LBrace, start, end: i + 1, text: '' });
          i++;
        }
        continue;
      }
      case CH_RBRACE:
        tokens.push({ kind: Tok.RBrace, start, end: ++i, text: '' });
        continue;
      case CH_LPAREN:
        tokens.push({ kind: Tok.LParen, start, end: ++i, text: '' });
        continue;
      case CH_RPAREN:
        tokens.push({ kind: Tok.RParen, start, end: ++i, text: '' });
        continue;
      case CH_LBRACKET:
        tokens.push({ kind: Tok.LBracket, start, end: ++i, text: '' });
        continue;
      case CH_RBRACKET:
        tokens.push({ kind: Tok.RBracket, start, end: ++i, text: '' });
        continue;
      case CH_COMMA:
        tokens.push({ kind: Tok.Comma, start, end: ++i, text: '' });
        continue;
      case CH_EQUALS:
        tokens.push({ kind: Tok.Equals, start, end: ++i, text: '' });
        continue;
      case CH_COLON:
        tokens.push({ kind: Tok.Colon, start, end: ++i, text: '' });
        continue;
    }
    if (isDigit(c) || c === CH_MINUS || c === CH_PLUS || c === CH_DOT) {
      const len = scanNumber(text, i);
      if (len > 0) {
        tokens.push({ kind: Tok.Number, start, end: i + len, text: text.slice(start, i + len) });
        i += len;
        continue;
      }
    }
    if (isNameStart(c)) {
      let j = i + 1;
      while (j < n && isNameChar(text.charCodeAt(j))) j++;
      tokens.push({ kind: Tok.Name, start, end: j, text: text.slice(start, j) });
      i = j;
      continue;
    }
    let j = i + 1;
    while (j < n && !endsInvalidRun(text.charCodeAt(j))) j++;
    tokens.push({ kind: Tok.Invalid, start, end: j, text: text.slice(start, j) });
    i = j;
  }
  tokens.push({ kind: Tok.Eof, start: n, end: n, text: '' });
  return tokens;
}
