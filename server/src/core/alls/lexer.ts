// Tokenizer for `.alls` model scripts (docs/research/alls-reference.md#grammar). Hand-written over char codes because the
// language server re-lexes multi-megabyte allocator dumps on every edit.
//
// Decisions forced by the corpus: `{...}` without `:` or newline is one raw GLOB token (character
// classes inside), NAME allows `/ - . $` and a leading digit (durations like `30m`), a lone `\r`
// counts as a line break (as in LSP's TextDocument), newlines are always emitted — the parser
// decides which ones end a statement.

import { FNV_OFFSET, FNV_PRIME } from './names';

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
function scanNumber(codes: Uint16Array, n: number, i: number): number {
  let j = i;
  let c = codes[j];
  if (c === CH_MINUS || c === CH_PLUS) c = codes[++j];
  let digits = 0;
  while (isDigit(c)) {
    digits++;
    c = codes[++j];
  }
  if (c === CH_DOT) {
    c = codes[++j];
    while (isDigit(c)) {
      digits++;
      c = codes[++j];
    }
  }
  if (digits === 0) return 0;
  if (c === 101 || c === 69) {
    // exponent only if digits follow; otherwise `1e` stays part of a name
    let k = j + 1;
    let d = codes[k];
    if (d === CH_MINUS || d === CH_PLUS) d = codes[++k];
    if (isDigit(d)) {
      while (isDigit(d)) d = codes[++k];
      j = k;
      c = d;
    }
  }
  if (j < n && isNameChar(c)) return 0;
  return j - i;
}

const LITTLE_ENDIAN = new Uint16Array(new Uint8Array([1, 0]).buffer)[0] === 1;

/**
 * Scripts up to this many characters reuse one buffer for their code units: a fresh 2 MB buffer
 * per megabyte of script costs ~1 ms to map and fault in (measured; ~0.6 ms of a 1 MB script's
 * parse + check), rewriting one in use ~0.07 ms. Larger scripts get their own, so that one huge
 * file does not keep its memory.
 */
const REUSED_UNITS_LIMIT = 4 * 1024 * 1024;
let reusedUnits: Buffer | undefined;

/**
 * The text's UTF-16 code units, then a 0 (a read one past the end sees it: not a digit, name or
 * line-break character, as charCodeAt's NaN). The lexer reads these instead of calling charCodeAt:
 * a typed-array read is cheaper, ~30% of tokenize on the 1 MB allocator dump. Node's Buffer copies
 * the units natively; elsewhere (or on a big-endian host) a plain loop does. Valid until the next
 * call: the lexer reads it only while scanning (synchronously).
 */
function codeUnits(text: string): Uint16Array {
  const n = text.length;
  if (typeof Buffer === 'function' && LITTLE_ENDIAN) {
    const size = 2 * (n + 1);
    let bytes: Buffer;
    if (n > REUSED_UNITS_LIMIT) bytes = Buffer.allocUnsafeSlow(size);
    else {
      if (!reusedUnits || reusedUnits.length < size) reusedUnits = Buffer.allocUnsafeSlow(Math.max(size, 64 * 1024));
      bytes = reusedUnits;
    }
    bytes.write(text, 'utf16le');
    const codes = new Uint16Array(bytes.buffer, bytes.byteOffset, n + 1);
    codes[n] = 0;
    return codes;
  }
  const codes = new Uint16Array(n + 1);
  for (let i = 0; i < n; i++) codes[i] = text.charCodeAt(i);
  return codes;
}

/**
 * Pushes the NAME starting at `start`, returns its end. Names are most of an allocator dump's text:
 * they are hashed here, in their only pass, for the parser's name table.
 */
function scanName(codes: Uint16Array, n: number, start: number, out: TokenBuffer): number {
  let hash = Math.imul(FNV_OFFSET ^ codes[start], FNV_PRIME);
  let j = start + 1;
  for (; j < n; j++) {
    const c = codes[j];
    if (!isNameChar(c)) break;
    hash = Math.imul(hash ^ c, FNV_PRIME);
  }
  out.pushName(start, j, hash);
  return j;
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
    /** NAME tokens: `hashName` of their text, computed while scanning (the parser interns names with it). */
    readonly hashes: Int32Array,
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
    const t: Token = {
      kind: k,
      start: this.start(i),
      end: this.end(i),
      text: k === Tok.Name || k === Tok.Number || k === Tok.String || k === Tok.Glob || k === Tok.Invalid ? this.text(i) : '',
    };
    if (this.unterminated(i)) t.unterminated = true;
    return t;
  }
}

/** Tokens as objects (for tests and tools). */
export function tokenList(text: string): Token[] {
  const ts = tokenize(text);
  return Array.from({ length: ts.length }, (_, i) => ts.token(i));
}

/** The lexer's growable output (a class, not a closure over reassigned arrays: those live in a context object and every access pays for it). */
class TokenBuffer {
  kinds: Uint8Array;
  starts: Int32Array;
  ends: Int32Array;
  hashes: Int32Array;
  count = 0;
  readonly unterminated = new Set<number>();

  constructor(capacity: number) {
    this.kinds = new Uint8Array(capacity);
    this.starts = new Int32Array(capacity);
    this.ends = new Int32Array(capacity);
    this.hashes = new Int32Array(capacity);
  }

  push(kind: Tok, start: number, end: number): void {
    if (this.count === this.kinds.length) this.grow();
    const i = this.count++;
    this.kinds[i] = kind;
    this.starts[i] = start;
    this.ends[i] = end;
  }

  pushName(start: number, end: number, hash: number): void {
    if (this.count === this.kinds.length) this.grow();
    const i = this.count++;
    this.kinds[i] = Tok.Name;
    this.starts[i] = start;
    this.ends[i] = end;
    this.hashes[i] = hash;
  }

  /** Tokens beyond this many abort the scan (tokenizeWithin). */
  max = Infinity;

  private grow(): void {
    if (this.kinds.length > this.max) throw OVER_TOKEN_LIMIT;
    const cap = Math.min(this.kinds.length * 2, this.max + 1);
    const kinds = new Uint8Array(cap);
    kinds.set(this.kinds);
    this.kinds = kinds;
    const starts = new Int32Array(cap);
    starts.set(this.starts);
    this.starts = starts;
    const ends = new Int32Array(cap);
    ends.set(this.ends);
    this.ends = ends;
    const hashes = new Int32Array(cap);
    hashes.set(this.hashes);
    this.hashes = hashes;
  }
}

/** Thrown by TokenBuffer.grow past its `max`; never escapes tokenizeWithin. */
const OVER_TOKEN_LIMIT = new Error('token limit');

/**
 * The tokens of `text`, or undefined when there are more than `max` (the scan stops there: a
 * hostile file never makes the arrays grow past the limit).
 */
export function tokenizeWithin(text: string, max: number): TokenStream | undefined {
  const out = new TokenBuffer(Math.min(max + 1, Math.max(64, (text.length >> 2) + 16)));
  out.max = max;
  try {
    scan(text, out);
  } catch (err) {
    if (err === OVER_TOKEN_LIMIT) return undefined;
    throw err;
  }
  if (out.count >= max) return undefined; // the Eof token still has to fit
  out.push(Tok.Eof, text.length, text.length);
  return new TokenStream(text, out.kinds, out.starts, out.ends, out.count, out.unterminated, out.hashes);
}

export function tokenize(text: string): TokenStream {
  const out = new TokenBuffer(Math.max(64, (text.length >> 2) + 16));
  scan(text, out);
  out.push(Tok.Eof, text.length, text.length);
  return new TokenStream(text, out.kinds, out.starts, out.ends, out.count, out.unterminated, out.hashes);
}

/**
 * The lexer's loop, alone in its function: V8 compiles a long first call's loop on the fly, and
 * calls that follow such a loop in the same function had no feedback yet — the compiled loop
 * then bailed out at the end of every later call (measured: +30% on every tokenize of the 1 MB script).
 */
function scan(text: string, out: TokenBuffer): void {
  const n = text.length;
  const codes = codeUnits(text);
  let i = 0;
  while (i < n) {
    const c = codes[i];
    if (isSpace(c)) {
      i++;
      continue;
    }
    const start = i;
    switch (c) {
      case CH_LF:
        out.push(Tok.Newline, start, i + 1);
        i++;
        continue;
      case CH_CR: {
        const end = codes[i + 1] === CH_LF ? i + 2 : i + 1;
        out.push(Tok.Newline, start, end);
        i = end;
        continue;
      }
      case CH_HASH: {
        let j = i + 1;
        while (j < n) {
          const d = codes[j];
          if (d === CH_LF || d === CH_CR) break;
          j++;
        }
        out.push(Tok.Comment, start, j);
        i = j;
        continue;
      }
      case CH_DQUOTE:
      case CH_SQUOTE: {
        let j = i + 1;
        let terminated = false;
        while (j < n) {
          const d = codes[j];
          if (d === c) {
            terminated = true;
            j++;
            break;
          }
          if (d === CH_LF || d === CH_CR) break;
          j++;
        }
        if (!terminated) out.unterminated.add(out.count);
        out.push(Tok.String, start, j);
        i = j;
        continue;
      }
      case CH_LBRACE: {
        // `{conv[0-9]*}` is one raw token; `{` followed by `:` or a newline before `}` opens a dict.
        let j = i + 1;
        let glob = false;
        while (j < n) {
          const d = codes[j];
          if (d === CH_RBRACE) {
            glob = true;
            break;
          }
          if (d === CH_LBRACE || d === CH_COLON || d === CH_LF || d === CH_CR) break;
          j++;
        }
        if (glob) {
          out.push(Tok.Glob, start, j + 1);
          i = j + 1;
        } else {
          out.push(Tok.LBrace, start, i + 1);
          i++;
        }
        continue;
      }
      case CH_RBRACE:
        out.push(Tok.RBrace, start, ++i);
        continue;
      case CH_LPAREN:
        out.push(Tok.LParen, start, ++i);
        continue;
      case CH_RPAREN:
        out.push(Tok.RParen, start, ++i);
        continue;
      case CH_LBRACKET:
        out.push(Tok.LBracket, start, ++i);
        continue;
      case CH_RBRACKET:
        out.push(Tok.RBracket, start, ++i);
        continue;
      case CH_COMMA:
        out.push(Tok.Comma, start, ++i);
        continue;
      case CH_EQUALS:
        out.push(Tok.Equals, start, ++i);
        continue;
      case CH_COLON:
        out.push(Tok.Colon, start, ++i);
        continue;
    }
    if (isDigit(c) || c === CH_MINUS || c === CH_PLUS || c === CH_DOT) {
      const len = scanNumber(codes, n, i);
      if (len > 0) {
        out.push(Tok.Number, start, i + len);
        i += len;
        continue;
      }
    }
    if (isNameStart(c)) {
      i = scanName(codes, n, i, out);
      continue;
    }
    let j = i + 1;
    while (j < n && !endsInvalidRun(codes[j])) j++;
    out.push(Tok.Invalid, start, j);
    i = j;
  }
}
