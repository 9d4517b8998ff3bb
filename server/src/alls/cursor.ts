// What is being written at the cursor: a command at the start of a statement, a context method,
// or an argument of a call (which slot, after which keyword, inside a list or a `{pattern}`).
// Works on the token stream, so it also understands statements that are half typed.
import type { Span } from './ast';
import type { AllsDocument } from './analysis';
import { Tok, type Token } from './lexer';
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
export function tokenBefore(tokens: Token[], offset: number): number {
  let lo = 0;
  let hi = tokens.length - 1;
  let ans = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].start < offset) {
      ans = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return ans;
}

/** Index of the token containing `offset` (start ≤ offset < end, or touching its end). */
export function tokenAt(tokens: Token[], offset: number): number {
  const i = tokenBefore(tokens, offset + 1);
  if (i >= 0 && tokens[i].start <= offset && offset <= tokens[i].end && tokens[i].kind !== Tok.Eof) return i;
  return -1;
}

export function cursorContext(doc: AllsDocument, offset: number): CursorContext {
  const tokens = doc.script.tokens;
  if (tokens.length === 0) return { kind: 'statementStart', prefix: { start: offset, end: offset }, statementStart: offset };
  const ti = tokenBefore(tokens, offset);
  let prefix: Span = { start: offset, end: offset };
  let scanEnd = ti + 1;
  let inPatternToken = false;
  let keywordAtCursor: string | undefined;
  if (ti >= 0) {
    const t = tokens[ti];
    if (t.kind === Tok.Comment && offset <= t.end) return { kind: 'none' };
    if (t.kind === Tok.String && (offset < t.end || t.unterminated)) return { kind: 'none' };
    if ((t.kind === Tok.Name || t.kind === Tok.Number) && offset <= t.end) {
      prefix = { start: t.start, end: offset };
      scanEnd = ti;
      if (t.kind === Tok.Name && tokens[ti + 1].kind === Tok.Equals) keywordAtCursor = t.text;
    } else if (tokens[ti + 1]?.start === offset && tokens[ti + 1].kind === Tok.Name && tokens[ti + 2]?.kind === Tok.Equals) {
      // The cursor sits right before `keyword=`.
      keywordAtCursor = tokens[ti + 1].text;
    } else if (t.kind === Tok.Glob && offset < t.end) {
      prefix = { start: t.start + 1, end: offset };
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
  let statementStart = from < tokens.length ? tokens[from].start : offset;
  let callName: Token | undefined;
  let open = -1;
  let closed = false;
  let argIndex = 0;
  let keyword: string | undefined;
  let firstArgName: string | undefined;
  let keywordsBefore = 0;
  const usedKeywords = new Set<string>();
  const reset = (next: number) => {
    stack.length = 0;
    callName = undefined;
    open = -1;
    closed = false;
    argIndex = 0;
    keyword = undefined;
    firstArgName = undefined;
    keywordsBefore = 0;
    usedKeywords.clear();
    statementStart = next < tokens.length ? tokens[next].start : offset;
  };
  for (let i = from; i < scanEnd; i++) {
    const t = tokens[i];
    switch (t.kind) {
      case Tok.Newline:
        if (stack.length === 0 || isHardNewline(tokens, i)) reset(i + 1);
        break;
      case Tok.LParen:
        if (stack.length === 0 && i > 0 && tokens[i - 1].kind === Tok.Name) {
          callName = tokens[i - 1];
          open = t.start;
          argIndex = 0;
          keyword = undefined;
          firstArgName = undefined;
          keywordsBefore = 0;
          usedKeywords.clear();
        }
        stack.push(t.kind);
        break;
      case Tok.LBracket:
      case Tok.LBrace:
        stack.push(t.kind);
        break;
      case Tok.RParen:
      case Tok.RBracket:
      case Tok.RBrace:
        stack.pop();
        if (stack.length === 0 && t.kind === Tok.RParen && callName) closed = true;
        break;
      case Tok.Comma:
        if (stack.length === 1 && stack[0] === Tok.LParen) {
          argIndex++;
          if (keyword) keywordsBefore++;
          keyword = undefined;
        }
        break;
      case Tok.Equals:
        if (stack.length === 1 && stack[0] === Tok.LParen && i > 0 && tokens[i - 1].kind === Tok.Name) {
          keyword = tokens[i - 1].text;
          usedKeywords.add(keyword);
        }
        break;
      case Tok.Name:
        if (stack.length === 1 && stack[0] === Tok.LParen && argIndex === 0 && tokens[i + 1].kind !== Tok.Equals) firstArgName = t.text;
        break;
      default:
        break;
    }
  }

  if (stack.length === 0) {
    if (closed) return { kind: 'none' };
    if (callName && open >= 0) return { kind: 'none' };
    const text = doc.text.slice(prefix.start, prefix.end);
    const dot = text.lastIndexOf('.');
    if (dot > 0) return { kind: 'method', object: text.slice(0, dot), prefix: { start: prefix.start + dot + 1, end: prefix.end }, statementStart };
    return { kind: 'statementStart', prefix, statementStart };
  }
  if (!callName || stack[0] !== Tok.LParen) return { kind: 'none' };
  const full = callName.text;
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
