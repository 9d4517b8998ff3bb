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

// Character classes for ASCII (everything else is "other"): one table load per character.
const C_SPACE = 1;
const C_NAME_START = 2;
const C_NAME = 4;
const C_DIGIT = 8;
const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  const digit = c >= CH_0 && c <= CH_9;
  let k = 0;
  if (c === CH_SPACE || c === CH_TAB || c === CH_FF) k |= C_SPACE;
  if (letter || digit || c === CH_UNDERSCORE || c === CH_DOLLAR) k |= C_NAME_START | C_NAME;
  if (c === CH_MINUS || c === CH_SLASH || c === CH_DOT) k |= C_NAME;
  if (digit) k |= C_DIGIT;
  CLASS[c] = k;
}

function isDigit(c: number): boolean {
  return c < 128 && (CLASS[c] & C_DIGIT) !== 0;
}

/** First character of a NAME: `[A-Za-z_$0-9]`. */
export function isNameStart(c: number): boolean {
  return c < 128 && (CLASS[c] & C_NAME_START) !== 0;
}

/** Later characters of a NAME: `[A-Za-z0-9_\-/.$]` (layer names carry scopes, ranges, dots). */
export function isNameChar(c: number): boolean {
  return c < 128 && (CLASS[c] & C_NAME) !== 0;
}

function isSpace(c: number): boolean {
  return c < 128 && (CLASS[c] & C_SPACE) !== 0;
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

/**
 * The token stream as parallel typed arrays: a multi-megabyte allocator script has ~10⁵ tokens,
 * and objects for each would survive into the old generation and dominate GC time.
 */
export class TokenStream {
  constructor(
    readonly src: string,
    readonly kinds: Uint8Array,
    readonly starts: Int32Array,
    readonly ends: Int32Array,
    /** Number of tokens, the final Eof included. */
    readonly length: number,
    readonly unterminatedAt: Set<number>,
  ) {}

  /** Kind of token `i`; Eof past the end, so lookahead never falls off. */
  kind(i: number): Tok {
    return i < this.length && i >= 0 ? (this.kinds[i] as Tok) : Tok.Eof;
  }
  start(i: number): number {
    return i < this.length ? this.starts[i] : this.src.length;
  }
  end(i: number): number {
    return i < this.length ? this.ends[i] : this.src.length;
  }
  text(i: number): string {
    return i < this.length ? this.src.slice(this.starts[i], this.ends[i]) : '';
  }
  unterminated(i: number): boolean {
    return this.unterminatedAt.has(i);
  }
  /** One token as an object (error paths, cursor scans and tests; not the hot path). */
  token(i: number): Token {
    const k = this.kind(i);
    const t: Token = { kind: k, start: this.start(i), end: this.end(i), text: k === Tok.Name || k === Tok.Number || k === Tok.String || k === Tok.Glob || k === Tok.Invalid ? this.text(i) : '' };
    if (this.unterminated(i)) t.unterminated = true;
    return t;
  }
}

/** Tokens as objects (for tests and tools). */
export function tokenList(text: string): Token[] {
  const ts = tokenize(text);
  return Array.from({ length: ts.length }, (_, i) => ts.token(i));
}

export function tokenize(text: string): TokenStream {
  let cap = Math.max(64, (text.length >> 2) + 16);
  let kinds = new Uint8Array(cap);
  let starts = new Int32Array(cap);
  let ends = new Int32Array(cap);
  let count = 0;
  const unterminated = new Set<number>();
  const push = (kind: Tok, start: number, end: number) => {
    if (count === cap) {
      cap *= 2;
      const k2 = new Uint8Array(cap);
      k2.set(kinds);
      kinds = k2;
      const s2 = new Int32Array(cap);
      s2.set(starts);
      starts = s2;
      const e2 = new Int32Array(cap);
      e2.set(ends);
      ends = e2;
    }
    kinds[count] = kind;
    starts[count] = start;
    ends[count] = end;
    count++;
  };
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
        push(Tok.Newline, start, i + 1);
        i++;
        continue;
      case CH_CR: {
        const end = text.charCodeAt(i + 1) === CH_LF ? i + 2 : i + 1;
        push(Tok.Newline, start, end);
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
        push(Tok.Comment, start, j);
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
        if (!terminated) unterminated.add(count);
        push(Tok.String, start, j);
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
          push(Tok.Glob, start, j + 1);
          i = j + 1;
        } else {
          push(Tok.LBrace, start, i + 1);
          i++;
        }
        continue;
      }
      case CH_RBRACE:
        push(Tok.RBrace, start, ++i);
        continue;
      case CH_LPAREN:
        push(Tok.LParen, start, ++i);
        continue;
      case CH_RPAREN:
        push(Tok.RParen, start, ++i);
        continue;
      case CH_LBRACKET:
        push(Tok.LBracket, start, ++i);
        continue;
      case CH_RBRACKET:
        push(Tok.RBracket, start, ++i);
        continue;
      case CH_COMMA:
        push(Tok.Comma, start, ++i);
        continue;
      case CH_EQUALS:
        push(Tok.Equals, start, ++i);
        continue;
      case CH_COLON:
        push(Tok.Colon, start, ++i);
        continue;
    }
    if (isDigit(c) || c === CH_MINUS || c === CH_PLUS || c === CH_DOT) {
      const len = scanNumber(text, i);
      if (len > 0) {
        push(Tok.Number, start, i + len);
        i += len;
        continue;
      }
    }
    if (isNameStart(c)) {
      let j = i + 1;
      while (j < n && isNameChar(text.charCodeAt(j))) j++;
      push(Tok.Name, start, j);
      i = j;
      continue;
    }
    let j = i + 1;
    while (j < n && !endsInvalidRun(text.charCodeAt(j))) j++;
    push(Tok.Invalid, start, j);
    i = j;
  }
  push(Tok.Eof, n, n);
  return new TokenStream(text, kinds, starts, ends, count, unterminated);
}
