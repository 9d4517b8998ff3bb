// What is being written at the cursor: a command at the start of a statement, a context method,
// or an argument of a call (which slot, after which keyword, inside a list or a `{pattern}`).
// Works on the token stream, so it also understands statements that are half typed.
import type { Span } from './ast';
import type { AllsDocument } from './analysis';
import { Tok, type TokenStream } from './lexer';
import { isHardNewline } from './parser';

export type CursorContext =
  | { kind: 'none' }
  | { kind: 'statementStart'; prefix: Span; statementStart: number }
  | { kind: 'method'; object: string; prefix: Span; statementStart: number }
  | {
      kind: 'argument';
      /** Command name (method name for `ctx.m(`). */
      command: string;
      object?: string;
      /** Offset of the call's `(`. */
      open: number;
      /** Arguments before the cursor's (0 = the cursor is in the first argument). */
      argIndex: number;
      /** The first argument, when it is a bare name (the sub-command of some commands). */
      firstArgName?: string;
      /** The cursor is in the value of `keyword=`. */
      keyword?: string;
      /** The cursor is on the name of `keyword=` (being edited). */
      keywordAtCursor?: string;
      usedKeywords: Set<string>;
      /** Keyword arguments before the cursor's (for positional slot numbering). */
      keywordsBefore: number;
      inList: boolean;
      inPattern: boolean;
      prefix: Span;
      statementStart: number;
    };

/** Index of the last token starting before `offset`, or -1. */
export function tokenBefore(tokens: TokenStream, offset: number): number {
  let lo = 0;
  let hi = tokens.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tokens.start(mid) < offset) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

/** Index of the token containing `offset` (start ≤ offset < end, or touching its end). */
export function tokenAt(tokens: TokenStream, offset: number): number {
  const i = tokenBefore(tokens, offset + 1);
  if (i >= 0 && tokens.start(i) <= offset && offset <= tokens.end(i) && tokens.kind(i) !== Tok.Eof) return i;
  return -1;
}

export function cursorContext(doc: AllsDocument, offset: number): CursorContext {
  const ts = doc.script.tokens;
  if (ts.length === 0) return { kind: 'statementStart', prefix: { start: offset, end: offset }, statementStart: offset };
  const ti = tokenBefore(ts, offset);
  let prefix: Span = { start: offset, end: offset };
  let scanEnd = ti + 1;
  let inPatternToken = false;
  let keywordAtCursor: string | undefined;
  if (ti >= 0) {
    const kind = ts.kind(ti);
    const end = ts.end(ti);
    if (kind === Tok.Comment && offset <= end) return { kind: 'none' };
    if (kind === Tok.String && (offset < end || ts.unterminated(ti))) return { kind: 'none' };
    if ((kind === Tok.Name || kind === Tok.Number) && offset <= end) {
      prefix = { start: ts.start(ti), end: offset };
      scanEnd = ti;
      if (kind === Tok.Name && ts.kind(ti + 1) === Tok.Equals) keywordAtCursor = ts.text(ti);
    } else if (ts.start(ti + 1) === offset && ts.kind(ti + 1) === Tok.Name && ts.kind(ti + 2) === Tok.Equals) {
      // The cursor sits right before `keyword=`.
      keywordAtCursor = ts.text(ti + 1);
    } else if (kind === Tok.Glob && offset < end) {
      prefix = { start: ts.start(ti) + 1, end: offset };
      scanEnd = ti;
      inPatternToken = true;
    }
  }

  // Start scanning at the statement that begins at or before the cursor.
  const stmts = doc.script.statements;
  let lo = 0;
  let hi = stmts.length - 1;
  let from = 0;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (stmts[mid].firstToken < scanEnd) {
      from = stmts[mid].firstToken;
      lo = mid + 1;
    } else hi = mid - 1;
  }

  const stack: Tok[] = [];
  let statementStart = from < ts.length ? ts.start(from) : offset;
  let callName = -1; // token index of the called name
  let open = -1;
  let closed = false;
  let argIndex = 0;
  let keyword: string | undefined;
  let firstArgName: string | undefined;
  let keywordsBefore = 0;
  const usedKeywords = new Set<string>();
  const reset = (next: number) => {
    stack.length = 0;
    callName = -1;
    open = -1;
    closed = false;
    argIndex = 0;
    keyword = undefined;
    firstArgName = undefined;
    keywordsBefore = 0;
    usedKeywords.clear();
    statementStart = next < ts.length ? ts.start(next) : offset;
  };
  const inCall = () => stack.length === 1 && stack[0] === Tok.LParen;
  for (let i = from; i < scanEnd; i++) {
    const kind = ts.kind(i);
    switch (kind) {
      case Tok.Newline:
        if (stack.length === 0 || isHardNewline(ts, i)) reset(i + 1);
        break;
      case Tok.LParen:
        if (stack.length === 0 && i > 0 && ts.kind(i - 1) === Tok.Name) {
          callName = i - 1;
          open = ts.start(i);
          argIndex = 0;
          keyword = undefined;
          firstArgName = undefined;
          keywordsBefore = 0;
          usedKeywords.clear();
        }
        stack.push(kind);
        break;
      case Tok.LBracket:
      case Tok.LBrace:
        stack.push(kind);
        break;
      case Tok.RParen:
      case Tok.RBracket:
      case Tok.RBrace:
        stack.pop();
        if (stack.length === 0 && kind === Tok.RParen && callName >= 0) closed = true;
        break;
      case Tok.Comma:
        if (inCall()) {
          argIndex++;
          if (keyword) keywordsBefore++;
          keyword = undefined;
        }
        break;
      case Tok.Equals:
        if (inCall() && i > 0 && ts.kind(i - 1) === Tok.Name) {
          keyword = ts.text(i - 1);
          usedKeywords.add(keyword);
        }
        break;
      case Tok.Name:
        if (inCall() && argIndex === 0 && ts.kind(i + 1) !== Tok.Equals) firstArgName = ts.text(i);
        break;
      default:
        break;
    }
  }

  if (stack.length === 0) {
    if (closed || (callName >= 0 && open >= 0)) return { kind: 'none' };
    const text = doc.text.slice(prefix.start, prefix.end);
    const dot = text.lastIndexOf('.');
    if (dot > 0) return { kind: 'method', object: text.slice(0, dot), prefix: { start: prefix.start + dot + 1, end: prefix.end }, statementStart };
    return { kind: 'statementStart', prefix, statementStart };
  }
  if (callName < 0 || stack[0] !== Tok.LParen) return { kind: 'none' };
  const full = ts.text(callName);
  const dot = full.lastIndexOf('.');
  return {
    kind: 'argument',
    command: dot > 0 ? full.slice(dot + 1) : full,
    object: dot > 0 ? full.slice(0, dot) : undefined,
    open,
    argIndex,
    firstArgName,
    keyword,
    ...(keywordAtCursor ? { keywordAtCursor } : {}),
    usedKeywords,
    keywordsBefore,
    inList: stack[stack.length - 1] === Tok.LBracket,
    inPattern: inPatternToken || stack[stack.length - 1] === Tok.LBrace,
    prefix,
    statementStart,
  };
}
