// Re-analysis after an edit without re-parsing the whole script: only a window of statements
// around the change is parsed again; statements after it keep their nodes, shifted in place.
// A full parse of a 1 MB allocator dump allocates ~250k nodes — the GC, not the parser, is what
// makes that slow — so an edit touches only what changed. When the window's edges could depend on
// the edit (a statement left open next to it), it falls back to a full analysis.
// Tests compare the result with `analyze(newText)` on thousands of random edits.
import type { DictNode, ListNode, Script, StatementNode, SyntaxError, TargetNode, ValueNode } from './ast';
import { analyze, defineTargets, documentLimit, resolveStatement, type AllsDocument, type NameDefinition, type ResolvedStatement } from './analysis';
import { LineIndex } from './lineIndex';
import { TokenStream, tokenize } from './lexer';
import { looksLikeStatementStart, parseTokens } from './parser';

function shiftValue(v: ValueNode | TargetNode, d: number): void {
  v.start += d;
  v.end += d;
  if (v.kind === 'list') {
    const l = v as ListNode;
    if (l.close >= 0) l.close += d;
    for (const x of l.items) shiftValue(x, d);
  } else if (v.kind === 'dict') {
    const m = v as DictNode;
    if (m.close >= 0) m.close += d;
    for (const e of m.entries) {
      shiftValue(e.key, d);
      shiftValue(e.value, d);
    }
  }
}

function shiftStatement(st: StatementNode, d: number, tokenDelta: number): void {
  st.firstToken += tokenDelta;
  st.endToken += tokenDelta;
  if (d === 0) return;
  st.start += d;
  st.end += d;
  if (st.assign >= 0) st.assign += d;
  for (const t of st.targets) shiftValue(t, d);
  const c = st.call;
  if (!c) return;
  c.start += d;
  c.end += d;
  if (c.open >= 0) c.open += d;
  if (c.close >= 0) c.close += d;
  if (c.object) {
    c.object.start += d;
    c.object.end += d;
  }
  c.name.start += d;
  c.name.end += d;
  for (const a of c.args) {
    a.start += d;
    a.end += d;
    if (a.keyword) {
      a.keyword.start += d;
      a.keyword.end += d;
    }
    shiftValue(a.value, d);
  }
}

function shiftSpan<T extends { start: number; end: number }>(x: T, d: number): T {
  return { ...x, start: x.start + d, end: x.end + d };
}

function shiftError(e: SyntaxError, d: number): SyntaxError {
  const out = shiftSpan(e, d);
  if (e.related) out.related = e.related.map((r) => shiftSpan(r, d));
  return out;
}

/** Tokens [0, a) of `before`, then `window` (without its Eof) shifted by `at`, then `after` from `b` shifted by `d`. */
function spliceTokens(text: string, old: TokenStream, a: number, win: TokenStream, at: number, b: number, d: number): TokenStream {
  const winCount = win.length - 1; // drop the window's Eof
  const tailCount = old.length - b; // includes the old Eof
  const n = a + winCount + tailCount;
  const kinds = new Uint8Array(n);
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  const hashes = new Int32Array(n); // hashes of names: independent of where they are
  kinds.set(old.kinds.subarray(0, a));
  starts.set(old.starts.subarray(0, a));
  ends.set(old.ends.subarray(0, a));
  hashes.set(old.hashes.subarray(0, a));
  kinds.set(win.kinds.subarray(0, winCount), a);
  hashes.set(win.hashes.subarray(0, winCount), a);
  for (let i = 0; i < winCount; i++) {
    starts[a + i] = win.starts[i] + at;
    ends[a + i] = win.ends[i] + at;
  }
  const o = a + winCount;
  kinds.set(old.kinds.subarray(b, old.length), o);
  hashes.set(old.hashes.subarray(b, old.length), o);
  for (let i = 0; i < tailCount; i++) {
    starts[o + i] = old.starts[b + i] + d;
    ends[o + i] = old.ends[b + i] + d;
  }
  const unterminated = new Set<number>();
  for (const i of old.unterminatedAt) if (i < a) unterminated.add(i);
  for (const i of win.unterminatedAt) if (i < winCount) unterminated.add(a + i);
  for (const i of old.unterminatedAt) if (i >= b) unterminated.add(o + (i - b));
  return new TokenStream(text, kinds, starts, ends, n, unterminated, hashes);
}

/** Statements kept on each side of the window, besides the ones the edit touches. */
const SLACK = 1;

/**
 * The analysis of `text`, reusing `prev` (the analysis of the previous version). `prev` must not be
 * used afterwards: its nodes after the edit are shifted in place.
 */
export function reanalyze(prev: AllsDocument, text: string): AllsDocument {
  const old = prev.text;
  if (old === text) return prev;
  if (prev.binary || prev.skipped || text.indexOf('\0') >= 0 || prev.statements.length < 4) return analyze(text);
  // A paste that makes the file cross a size limit: analyze() says so (counting lines is cheap).
  if (text.length > old.length + 4096 && documentLimit(text)) return analyze(text);
  // The changed region: common prefix / suffix.
  const max = Math.min(old.length, text.length);
  // Compare in native 4 KB chunks first, then character by character inside the differing chunk.
  const CHUNK = 4096;
  let p = 0;
  while (p + CHUNK <= max && old.substring(p, p + CHUNK) === text.substring(p, p + CHUNK)) p += CHUNK;
  while (p < max && old.charCodeAt(p) === text.charCodeAt(p)) p++;
  let s = 0;
  while (s + CHUNK <= max - p && old.substring(old.length - s - CHUNK, old.length - s) === text.substring(text.length - s - CHUNK, text.length - s)) s += CHUNK;
  while (s < max - p && old.charCodeAt(old.length - 1 - s) === text.charCodeAt(text.length - 1 - s)) s++;
  const d = text.length - old.length;
  const oldEnd = old.length - s; // first unchanged offset after the edit, in the old text

  const stmts = prev.script.statements;
  const n = stmts.length;
  // k: last statement starting at or before the edit; a: the first statement of the window.
  let lo = 0;
  let hi = n - 1;
  let k = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (stmts[mid].start <= p) {
      k = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  let a = Math.max(0, k - SLACK);
  // The statement before the window must have ended on its own (no look-ahead into the window).
  while (a > 0 && (stmts[a - 1].broken || stmts[a - 1].call?.close === -1)) a--;
  // j: first statement starting at or after the edit's end; b: first statement after the window.
  lo = Math.max(0, k);
  hi = n - 1;
  let j = n;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (stmts[mid].start >= oldEnd) {
      j = mid;
      hi = mid - 1;
    } else lo = mid + 1;
  }
  const b = Math.min(n, j + SLACK);
  if (b - a > n / 2) return analyze(text); // a big edit: a full parse is as cheap
  const oldTokens = prev.script.tokens;
  // The line after the window must start a statement, so the window's last statement ends the same way.
  if (b < n && !looksLikeStatementStart(oldTokens, stmts[b].firstToken)) return analyze(text);

  const winStart = a === 0 ? 0 : stmts[a].start;
  const oldWinEnd = b < n ? stmts[b].start : old.length;
  const newWinEnd = oldWinEnd + d;
  if (newWinEnd < winStart || oldWinEnd < p) return analyze(text);
  const slice = text.slice(winStart, newWinEnd);
  const winTokens = tokenize(slice);
  const win = parseTokens(slice, winTokens, b < n);

  const aTok = a === 0 ? 0 : stmts[a].firstToken;
  const bTok = b < n ? stmts[b].firstToken : oldTokens.length - 1;
  const tokens = spliceTokens(text, oldTokens, aTok, winTokens, winStart, bTok, d);
  const tokenDelta = aTok + (winTokens.length - 1) - bTok;

  for (const st of win.statements) shiftStatement(st, winStart, aTok);
  for (let i = b; i < n; i++) shiftStatement(stmts[i], d, tokenDelta);
  const statements = [...stmts.slice(0, a), ...win.statements, ...stmts.slice(b)];

  const before = (x: { end: number }) => x.end <= winStart;
  // When the window runs to the end of the file, nothing of the old text is after it: an error at
  // the very end (`pre` at EOF: "expected `(`") would otherwise be kept *and* found again.
  const afterOld = (x: { start: number }) => b < n && x.start >= oldWinEnd;
  const comments = [
    ...prev.script.comments.filter(before),
    ...win.comments.map((c) => shiftSpan(c, winStart)),
    ...prev.script.comments.filter(afterOld).map((c) => shiftSpan(c, d)),
  ];
  const trailingComments = [
    ...prev.script.trailingComments.filter(before),
    ...win.trailingComments.map((c) => shiftSpan(c, winStart)),
    ...prev.script.trailingComments.filter(afterOld).map((c) => shiftSpan(c, d)),
  ];
  const errors = [
    ...prev.script.errors.filter((e) => e.start < winStart),
    ...win.errors.map((e) => shiftError(e, winStart)),
    ...prev.script.errors.filter(afterOld).map((e) => shiftError(e, d)),
  ];
  const script: Script = { text, tokens, statements, comments, trailingComments, errors };

  const resolved: ResolvedStatement[] = new Array(statements.length);
  const definitions = new Map<string, NameDefinition[]>();
  for (let i = 0; i < statements.length; i++) {
    let st: ResolvedStatement;
    if (i < a) st = prev.statements[i];
    else if (i < a + win.statements.length) st = resolveStatement(statements[i], i);
    else {
      st = prev.statements[i - a - win.statements.length + b];
      st.index = i;
    }
    resolved[i] = st;
    defineTargets(st, definitions);
  }
  const lines = new LineIndex(text);
  if (documentLimit(text, tokens.length, lines.lineCount)) return analyze(text);
  return { text, script, lines, statements: resolved, definitions, binary: false };
}
