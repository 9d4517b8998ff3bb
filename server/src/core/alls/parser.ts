// Recursive-descent parser for `.alls` (docs/research/alls-reference.md#grammar) with error recovery.
//
// One statement per logical line; inside brackets newlines are ignored. Recovery rules:
// - a newline inside brackets followed by a line that looks like a new statement (`name(`,
//   `a, b = name(`) ends the statement: the missing closer is reported at its opener
//   ("unclosed `(` opened here"), never at the next line (docs/research/alls-reference.md#grammar);
// - a closer that matches an outer opener closes the inner bracket with one error;
// - a missing comma between two values is reported once and parsing continues;
// - anything else unexpected is reported once and skipped to the end of the line.
import type {
  ArgNode,
  CallNode,
  DictEntry,
  DictNode,
  GlobNode,
  ListNode,
  MissingNode,
  NameNode,
  Script,
  StatementNode,
  SyntaxError,
  TargetNode,
  ValueNode,
} from './ast';
import { Tok, TOKEN_LABEL, tokenize, type Token, type TokenStream } from './lexer';
import { NameTable } from './names';
import {
  ArgNodeObject,
  CallNodeObject,
  DictEntryObject,
  DictNodeObject,
  GlobNodeObject,
  ListNodeObject,
  MissingNodeObject,
  NameNodeObject,
  NumberNodeObject,
  StatementNodeObject,
  StringNodeObject,
} from './nodes';
import { schemaWords } from './schema';
import { limit, limitMessage } from '../common/limits';

export const SYNTAX_CODES = {
  syntax: 'alls/syntax-error',
  unclosed: 'alls/unclosed-bracket',
  unmatched: 'alls/unmatched-bracket',
  extraCloser: 'alls/extra-closer',
  missingComma: 'alls/missing-comma',
  unterminated: 'alls/unterminated-string',
  invalidChar: 'alls/invalid-character',
  trailingComma: 'alls/trailing-comma',
  trailingComment: 'alls/trailing-comment',
  singleQuote: 'alls/single-quoted-string',
  nestedCall: 'alls/nested-call',
  limit: 'alls/limit',
} as const;

/** Read once: the parser runs per keystroke. */
const MAX_NESTING = limit('allsNesting');
const MAX_ELEMENTS = limit('allsArguments');
const MAX_ERRORS_PER_STATEMENT = limit('allsErrorsPerStatement');

const OPENER_TEXT: Partial<Record<Tok, string>> = { [Tok.LParen]: '(', [Tok.LBracket]: '[', [Tok.LBrace]: '{' };
const CLOSER_FOR: Partial<Record<Tok, Tok>> = { [Tok.LParen]: Tok.RParen, [Tok.LBracket]: Tok.RBracket, [Tok.LBrace]: Tok.RBrace };
const CH_DOT = 46;

/** What a bracket holds: call arguments `(…)`, list items `[…]`, dictionary entries `{…}`. */
type Element = ArgNode | ValueNode | DictEntry;

function canStartValue(k: Tok): boolean {
  return k === Tok.Name || k === Tok.Number || k === Tok.String || k === Tok.Glob || k === Tok.LBracket || k === Tok.LBrace;
}

function isCloser(k: Tok): boolean {
  return k === Tok.RParen || k === Tok.RBracket || k === Tok.RBrace;
}

export function describeToken(t: Token): string {
  switch (t.kind) {
    case Tok.Name:
    case Tok.Number:
      return `\`${t.text.length > 40 ? t.text.slice(0, 40) + '…' : t.text}\``;
    case Tok.Invalid:
      return describeInvalid(t.text);
    default:
      return TOKEN_LABEL[t.kind];
  }
}

function describeInvalid(text: string): string {
  const first = text.codePointAt(0) ?? 0;
  if (first === 0xfffd) return 'invalid character U+FFFD (the file is probably not valid UTF-8)';
  if (first < 32 || first === 127) return `control character U+${first.toString(16).toUpperCase().padStart(4, '0')}`;
  const shown = text.length > 20 ? text.slice(0, 20) + '…' : text;
  return `\`${shown}\``;
}

class Parser {
  private i = 0;
  /** Kinds of the brackets open around the current token, innermost last. */
  private readonly openers: Tok[] = [];
  /**
   * Elements of the open brackets, innermost last (`pending[0, pendingCount)`); a bracket takes its
   * own off the top when it closes, as an array of exactly their number (a growing array keeps
   * room for 17: ~10⁴ of those in an allocator dump is over 1 MB of the tree).
   */
  private readonly pending: Element[] = [];
  private pendingCount = 0;
  private readonly errors: SyntaxError[] = [];
  private readonly comments: { start: number; end: number }[] = [];
  private readonly trailingComments: { start: number; end: number }[] = [];
  private broken = false;
  /** An unterminated string swallowed the rest of the line (and its closers): don't pile on. */
  private swallowed = false;
  private readonly names = new NameTable(schemaWords());

  constructor(
    private readonly text: string,
    private readonly ts: TokenStream,
    /** The text is a window of a larger script and a new statement follows its end. */
    private readonly continues = false,
  ) {}

  /** The current token as an object (node creation and error paths only: it allocates). */
  private get tok(): Token {
    return this.ts.token(this.i);
  }

  /** Kind of the current token (hot path: no allocation). */
  private k(): Tok {
    return this.ts.kind(this.i);
  }

  /** Text of a NAME token, interned. */
  private name(j: number): string {
    return this.names.intern(this.text, this.ts.start(j), this.ts.end(j), this.ts.hashes[j]);
  }

  private span(j: number): { start: number; end: number } {
    return { start: this.ts.start(j), end: this.ts.end(j) };
  }

  private error(start: number, end: number, message: string, code: string = SYNTAX_CODES.syntax, related?: SyntaxError['related']): void {
    this.broken = true;
    if (this.statementErrors++ >= MAX_ERRORS_PER_STATEMENT) return; // counted, summed up at the end of the statement
    this.errors.push({ start, end: Math.max(end, start), code, message, severity: 'error', related });
  }

  private note(start: number, end: number, message: string, code: string, severity: 'warning' | 'info'): void {
    if (this.statementErrors++ >= MAX_ERRORS_PER_STATEMENT) return;
    this.errors.push({ start, end, code, message, severity });
  }

  /** Problems reported in the current statement (its first MAX_ERRORS_PER_STATEMENT are kept). */
  private statementErrors = 0;

  /** One line for the problems of a statement that were counted but not kept. */
  private summarizeDropped(stmt: StatementNode): void {
    const dropped = this.statementErrors - MAX_ERRORS_PER_STATEMENT;
    if (dropped <= 0) return;
    this.errors.push({
      start: stmt.start,
      end: stmt.end,
      code: SYNTAX_CODES.limit,
      severity: 'error',
      message: `${dropped.toLocaleString('en-US')} more syntax problem${dropped === 1 ? '' : 's'} in this statement ${dropped === 1 ? 'is' : 'are'} not listed (at most ${MAX_ERRORS_PER_STATEMENT} per statement are).`,
    });
  }

  parse(): Script {
    const statements: StatementNode[] = [];
    for (let kind = this.k(); kind !== Tok.Eof; kind = this.k()) {
      if (kind === Tok.Newline) {
        this.i++;
        continue;
      }
      if (kind === Tok.Comment) {
        this.comments.push(this.span(this.i));
        this.i++;
        continue;
      }
      const stmt = this.parseStatement();
      statements.push(stmt);
      this.finishLine(stmt);
      this.summarizeDropped(stmt);
    }
    return {
      text: this.text,
      tokens: this.ts,
      statements,
      comments: this.comments,
      trailingComments: this.trailingComments,
      errors: this.errors,
    };
  }

  // ---- statements -------------------------------------------------------------------------

  private parseStatement(): StatementNode {
    this.broken = false;
    this.swallowed = false;
    this.statementErrors = 0;
    const firstToken = this.i;
    const firstKind = this.k();
    const stmt: StatementNode = new StatementNodeObject(this.ts.start(firstToken), this.ts.end(firstToken), firstToken);
    if (firstKind === Tok.Name && this.ts.kind(this.i + 1) === Tok.LParen) {
      stmt.call = this.parseCall();
    } else if (firstKind === Tok.Name || firstKind === Tok.Glob || firstKind === Tok.LBrace) {
      this.parseTargets(stmt);
      if (this.k() === Tok.Equals) {
        stmt.assign = this.ts.start(this.i);
        this.i++;
        const c = this.tok;
        if (c.kind === Tok.Name && this.ts.kind(this.i + 1) === Tok.LParen) {
          stmt.call = this.parseCall();
        } else if (c.kind === Tok.Name) {
          // `x = cmd` without parentheses: keep the name so hover/completion still work.
          stmt.call = this.callWithoutParens(c.start, c.end);
          this.i++;
          this.error(c.end, c.end, `expected \`(\` after \`${c.text}\``);
          this.skipRestOfLine();
        } else {
          const at = c.kind === Tok.Newline || c.kind === Tok.Eof || c.kind === Tok.Comment ? stmt.assign : c.start;
          this.error(
            at,
            c.kind === Tok.Newline || c.kind === Tok.Eof || c.kind === Tok.Comment ? stmt.assign + 1 : c.end,
            `expected a command after \`=\`, found ${describeToken(c)}`,
          );
          this.skipRestOfLine();
        }
      } else if (!this.broken) {
        const t = this.tok;
        const only = stmt.targets.length === 1 && stmt.targets[0].kind === 'name' ? (stmt.targets[0] as NameNode) : undefined;
        if (only && (t.kind === Tok.Newline || t.kind === Tok.Eof || t.kind === Tok.Comment)) {
          // A bare name: most likely a command being typed.
          stmt.call = this.callWithoutParens(only.start, only.end);
          stmt.targets = [];
          this.error(only.end, only.end, `expected \`(\` after \`${only.text}\``);
        } else {
          this.error(t.start, t.end, `expected \`=\` after the assignment targets, found ${describeToken(t)}`);
        }
        this.skipRestOfLine();
      } else {
        this.skipRestOfLine();
      }
    } else {
      const first = this.tok;
      if (isCloser(first.kind)) this.error(first.start, first.end, `unmatched ${TOKEN_LABEL[first.kind]}`, SYNTAX_CODES.unmatched);
      else if (first.kind === Tok.Invalid) this.error(first.start, first.end, `unexpected ${describeToken(first)}`, SYNTAX_CODES.invalidChar);
      else this.error(first.start, first.end, `expected a command, found ${describeToken(first)}`);
      this.i++;
      this.skipRestOfLine();
    }
    stmt.endToken = Math.max(this.i, firstToken + 1);
    stmt.end = this.lastConsumedEnd(firstToken, stmt.endToken);
    stmt.broken = this.broken;
    return stmt;
  }

  /** End offset of the last non-newline, non-comment token in [from, to). */
  private lastConsumedEnd(from: number, to: number): number {
    for (let k = to - 1; k >= from; k--) {
      const kind = this.ts.kind(k);
      if (kind !== Tok.Newline && kind !== Tok.Comment && kind !== Tok.Eof) return this.ts.end(k);
    }
    return this.ts.end(from);
  }

  private parseTargets(stmt: StatementNode): void {
    for (;;) {
      const kind = this.k();
      let target: TargetNode | undefined;
      if (kind === Tok.Name) {
        target = new NameNodeObject(this.ts.start(this.i), this.ts.end(this.i), this.name(this.i));
        this.i++;
      } else if (kind === Tok.Glob) {
        target = this.globNode(this.tok);
        this.i++;
      } else if (kind === Tok.LBrace) {
        target = this.parseDict();
      } else {
        const t = this.tok;
        this.error(t.start, t.end, `expected an assignment target, found ${describeToken(t)}`);
        return;
      }
      stmt.targets.push(target);
      if (this.k() !== Tok.Comma) return;
      this.i++;
    }
  }

  /** True when the tokens from here to the end of the line are closers, then at most a comment. */
  private onlyClosersToEndOfLine(): boolean {
    let j = this.i;
    while (isCloser(this.ts.kind(j))) j++;
    const k = this.ts.kind(j);
    return k === Tok.Newline || k === Tok.Eof || (k === Tok.Comment && (this.ts.kind(j + 1) === Tok.Newline || this.ts.kind(j + 1) === Tok.Eof));
  }

  /** After a statement: a trailing comment, then end of line. Anything else is reported once. */
  private finishLine(stmt: StatementNode): void {
    if (this.k() === Tok.Comment) {
      this.comments.push(this.span(this.i));
      this.trailingComments.push(this.span(this.i));
      this.i++;
    }
    if (this.k() === Tok.Newline || this.k() === Tok.Eof) return;
    const t = this.tok;
    this.broken = stmt.broken;
    if (isCloser(t.kind) && !stmt.broken && this.onlyClosersToEndOfLine()) {
      // A complete statement followed only by closers: model zoo v2.8–v2.11 shipped exactly this
      // (`…]))` in generic/yolov5m_wo_spp_yuy2.alls, fixed in v2.12). No DFC message refusing it is
      // public, so it is a warning that says what we expect, and the statement is still checked.
      const first = this.i;
      while (isCloser(this.k())) this.i++;
      const end = this.ts.end(this.i - 1);
      this.note(
        this.ts.start(first),
        end,
        `extra ${TOKEN_LABEL[t.kind]} after a complete statement: the DFC parses whole scripts with pyparsing (parseAll=True), so it most likely stops here, although model zoo v2.8–v2.11 shipped this typo — remove it`,
        SYNTAX_CODES.extraCloser,
        'warning',
      );
      if (this.k() === Tok.Comment) {
        this.comments.push(this.span(this.i));
        this.trailingComments.push(this.span(this.i));
        this.i++;
      }
      return;
    }
    if (t.kind === Tok.RParen || t.kind === Tok.RBracket || t.kind === Tok.RBrace) {
      this.error(t.start, t.end, `unmatched ${TOKEN_LABEL[t.kind]}`, SYNTAX_CODES.unmatched);
    } else if (t.kind === Tok.Invalid && t.text.startsWith(';')) {
      this.error(t.start, t.end, '`;` is not part of the language: write one statement per line');
    } else if (t.kind === Tok.Invalid) {
      this.error(t.start, t.end, `unexpected ${describeToken(t)}`, SYNTAX_CODES.invalidChar);
    } else {
      this.error(t.start, t.end, `unexpected ${describeToken(t)} after the statement (one statement per line)`);
    }
    stmt.broken = true;
    this.i++;
    this.skipRestOfLine();
  }

  /** Skip to the end of the logical line (tracking brackets, stopping where a new statement starts). */
  private skipRestOfLine(): void {
    let depth = 0;
    for (;;) {
      const kind = this.k();
      if (kind === Tok.Eof) return;
      if (kind === Tok.Newline) {
        if (depth === 0 || this.isHardNewline(this.i)) return;
      } else if (kind === Tok.Comment) {
        this.comments.push(this.span(this.i));
      } else if (kind === Tok.LParen || kind === Tok.LBracket || kind === Tok.LBrace) {
        depth++;
      } else if (isCloser(kind)) {
        if (depth > 0) depth--;
      }
      this.i++;
    }
  }

  // ---- newlines inside brackets ---------------------------------------------------------------

  /**
   * Inside brackets: skip newlines and comments unless the next line starts a new statement.
   * Returns false at such a line or at end of file (the caller reports its opener as unclosed).
   */
  private skipSoftNewlines(): boolean {
    for (;;) {
      const kind = this.k();
      if (kind === Tok.Comment) {
        this.comments.push(this.span(this.i));
        this.i++;
      } else if (kind === Tok.Newline) {
        if (this.isHardNewline(this.i)) return false;
        this.i++;
      } else {
        return kind !== Tok.Eof;
      }
    }
  }

  /** A newline inside brackets that is followed by something that can only be a new statement. */
  private isHardNewline(i: number): boolean {
    return isHardNewline(this.ts, i);
  }

  // ---- calls and values ---------------------------------------------------------------------

  /** `hash`: the lexer's, when [start, end) is a whole NAME token. */
  private nameNode(start: number, end: number, hash?: number): NameNode {
    return new NameNodeObject(start, end, this.names.intern(this.text, start, end, hash));
  }

  /** Position of the dot in `ctx.place` (the last one, not the first character), or -1. */
  private methodDot(start: number, end: number): number {
    for (let j = end - 1; j > start; j--) if (this.text.charCodeAt(j) === CH_DOT) return j;
    return -1;
  }

  /** A call node; the name `ctx.place` of NAME [start, end) becomes the object `ctx` and the name `place`. */
  private callNode(start: number, end: number, hash: number | undefined, callEnd: number, open: number, close: number, args: ArgNode[]): CallNode {
    const dot = this.methodDot(start, end);
    if (dot < 0) return new CallNodeObject(start, callEnd, undefined, this.nameNode(start, end, hash), open, close, args);
    return new CallNodeObject(start, callEnd, this.nameNode(start, dot), this.nameNode(dot + 1, end), open, close, args);
  }

  /** `x = cmd` or a bare `cmd` (being typed). */
  private callWithoutParens(start: number, end: number): CallNode {
    return this.callNode(start, end, undefined, end, -1, -1, []);
  }

  /** At NAME `(`. */
  private parseCall(): CallNode {
    const ts = this.ts;
    const nameToken = this.i;
    const nameStart = ts.start(nameToken);
    const nameEnd = ts.end(nameToken);
    const open = this.i + 1;
    this.i += 2;
    const dot = this.methodDot(nameStart, nameEnd);
    if (dot === nameEnd - 1) {
      this.error(dot, nameEnd, `expected a method name after \`${this.text.slice(nameStart, nameEnd)}\``);
    }
    const mark = this.pendingCount;
    const close = this.parseDelimited(Tok.LParen, open, true);
    const args = this.takePending<ArgNode>(mark);
    const end = close >= 0 ? close + 1 : args.length ? args[args.length - 1].end : ts.end(open);
    return this.callNode(nameStart, nameEnd, ts.hashes[nameToken], end, ts.start(open), close, args);
  }

  private parseArg(): ArgNode {
    const ts = this.ts;
    const i = this.i;
    if (ts.kind(i) === Tok.Name && ts.kind(i + 1) === Tok.Equals) {
      const keyword = this.nameNode(ts.start(i), ts.end(i), ts.hashes[i]);
      const eqStart = ts.start(i + 1);
      const eqEnd = ts.end(i + 1);
      this.i += 2;
      let value: ValueNode;
      const ok = this.skipSoftNewlines();
      if (ok && canStartValue(this.k())) {
        value = this.parseValue();
      } else {
        value = new MissingNodeObject(eqEnd, eqEnd);
        // An invalid character here gets its own error from the argument loop.
        if (!ok || this.k() !== Tok.Invalid) this.error(eqStart, eqEnd, `expected a value after \`${keyword.text}=\``);
      }
      return new ArgNodeObject(keyword.start, Math.max(value.end, eqEnd), keyword, value);
    }
    const value = this.parseValue();
    return new ArgNodeObject(value.start, value.end, undefined, value);
  }

  private globNode(t: Token): GlobNode {
    return new GlobNodeObject(t.start, t.end, t.text, t.text.slice(1, -1).trim());
  }

  /** At a token that can start a value. */
  private parseValue(): ValueNode {
    const i = this.i;
    const kind = this.k();
    switch (kind) {
      case Tok.Name: {
        const start = this.ts.start(i);
        const end = this.ts.end(i);
        const text = this.name(i);
        this.i++;
        if (this.k() === Tok.LParen) {
          // Not in the language; skip the group so it is one error, not many.
          const open = this.i;
          this.i++;
          const close = this.parseDelimited(Tok.LParen, open, false);
          this.error(
            start,
            close >= 0 ? close + 1 : this.ts.end(open),
            `nested calls are not part of the language (\`${text}(...)\` inside an argument)`,
            SYNTAX_CODES.nestedCall,
          );
        }
        return new NameNodeObject(start, end, text);
      }
      case Tok.Number: {
        this.i++;
        const text = this.names.intern(this.text, this.ts.start(i), this.ts.end(i)); // `1`, `0.0`, … repeat thousands of times: share the string
        return new NumberNodeObject(this.ts.start(i), this.ts.end(i), text, Number(text));
      }
      case Tok.String: {
        const t = this.tok;
        this.i++;
        const quote = t.text[0] as '"' | "'";
        const terminated = !t.unterminated;
        if (!terminated) {
          this.error(t.start, t.end, `unterminated string: add the closing ${quote}`, SYNTAX_CODES.unterminated);
          this.swallowed = true;
        } else if (quote === "'")
          this.note(
            t.start,
            t.end,
            'single-quoted strings are not seen in Hailo\'s scripts; whether the DFC accepts them is unknown — prefer "…"',
            SYNTAX_CODES.singleQuote,
            'info',
          );
        return new StringNodeObject(t.start, t.end, t.text, t.text.slice(1, terminated ? -1 : undefined), quote, terminated);
      }
      case Tok.Glob: {
        const t = this.tok;
        this.i++;
        return this.globNode(t);
      }
      case Tok.LBracket:
        return this.parseList();
      case Tok.LBrace:
        return this.parseDict();
      default: {
        const t = this.tok;
        // Callers check canStartValue first; stay total anyway.
        const m: MissingNode = new MissingNodeObject(t.start, t.start);
        this.error(t.start, t.end, `expected a value, found ${describeToken(t)}`);
        if (t.kind !== Tok.Eof && t.kind !== Tok.Newline) this.i++;
        return m;
      }
    }
  }

  private parseValueOrSkip(): void {
    if (canStartValue(this.k())) this.parseValue();
    else this.i++;
  }

  private parseList(): ListNode {
    const open = this.i;
    this.i++;
    const mark = this.pendingCount;
    const close = this.parseDelimited(Tok.LBracket, open, true);
    const items = this.takePending<ValueNode>(mark);
    const start = this.ts.start(open);
    return new ListNodeObject(start, close >= 0 ? close + 1 : items.length ? items[items.length - 1].end : this.ts.end(open), items, close);
  }

  private parseDict(): DictNode {
    const open = this.i;
    this.i++;
    const mark = this.pendingCount;
    const close = this.parseDelimited(Tok.LBrace, open, true);
    const entries = this.takePending<DictEntry>(mark);
    const last = entries[entries.length - 1];
    const start = this.ts.start(open);
    return new DictNodeObject(start, close >= 0 ? close + 1 : last ? last.value.end : this.ts.end(open), entries, close);
  }

  private parseDictEntry(): DictEntry {
    const key = this.parseValue();
    let value: ValueNode;
    if (this.skipSoftNewlines() && this.k() === Tok.Colon) {
      const colon = this.i;
      this.i++;
      if (this.skipSoftNewlines() && canStartValue(this.k())) value = this.parseValue();
      else {
        const colonEnd = this.ts.end(colon);
        value = new MissingNodeObject(colonEnd, colonEnd);
        this.error(this.ts.start(colon), colonEnd, 'expected a value after `:`');
      }
    } else {
      value = new MissingNodeObject(key.end, key.end);
      this.error(key.start, key.end, 'expected `:` after a dictionary key');
    }
    return new DictEntryObject(key, value);
  }

  /** One element inside `openKind`'s brackets, added to `pending` (or skipped). */
  private parseElement(openKind: Tok, collect: boolean): void {
    if (!collect) {
      this.parseValueOrSkip();
      return;
    }
    const element = openKind === Tok.LParen ? this.parseArg() : openKind === Tok.LBracket ? this.parseValue() : this.parseDictEntry();
    this.pending[this.pendingCount++] = element; // after parsing it: nested brackets use the slots above
  }

  /** The elements pending since `mark`, taken off `pending`. `T`: what the bracket kind holds. */
  private takePending<T extends Element>(mark: number): T[] {
    const taken = this.pending.slice(mark, this.pendingCount) as T[];
    this.pendingCount = mark;
    return taken;
  }

  /**
   * Elements separated by commas up to the closer matching the opener at token `open` (the
   * current token is just past it), pushed on `pending`. Without `collect` (the arguments of a
   * nested call, already one error) the elements are skipped and nothing inside is reported.
   * Returns the closer's offset, or -1 when it is missing (reported at the opener).
   */
  private parseDelimited(openKind: Tok, open: number, collect: boolean): number {
    if (this.openers.length >= MAX_NESTING) {
      // Every walk of the tree recurses once per level: deeper brackets are skipped, not parsed.
      this.error(
        this.ts.start(open),
        this.ts.end(open),
        limitMessage('allsNesting', 'This bracket', `${this.openers.length + 1} levels of nesting`),
        SYNTAX_CODES.limit,
      );
      return this.skipToCloser(openKind);
    }
    this.openers.push(openKind);
    const close = this.parseElements(openKind, open, collect);
    this.openers.pop();
    return close;
  }

  /**
   * Skips, without building anything, to the closer of the bracket just opened (iteratively, at any
   * depth). Returns the closer's offset, or -1 where the statement or the file ends first, or at a
   * closer of an outer bracket (left for the outer bracket to take).
   */
  private skipToCloser(openKind: Tok): number {
    const closer = CLOSER_FOR[openKind]!;
    let depth = 0;
    for (;;) {
      const kind = this.k();
      if (kind === Tok.Eof) return -1;
      if (kind === Tok.Newline) {
        if (this.isHardNewline(this.i)) return -1;
      } else if (kind === Tok.Comment) {
        this.comments.push(this.span(this.i));
      } else if (kind === Tok.LParen || kind === Tok.LBracket || kind === Tok.LBrace) {
        depth++;
      } else if (isCloser(kind)) {
        if (depth === 0) {
          if (kind !== closer) return -1;
          return this.ts.start(this.i++);
        }
        depth--;
      }
      this.i++;
    }
  }

  private parseElements(openKind: Tok, open: number, collect: boolean): number {
    const ts = this.ts;
    const quiet = !collect;
    const closer = CLOSER_FOR[openKind]!;
    let lastComma = -1;
    let expectElement = true;
    let elements = 0;
    /** An unexpected token was just reported: the next gap gets no second error. */
    let skipped = false;
    for (;;) {
      if (!this.skipSoftNewlines()) {
        this.unclosed(openKind, open, quiet);
        return -1;
      }
      const kind = this.k();
      if (kind === closer) {
        if (lastComma >= 0 && expectElement)
          this.note(
            lastComma,
            lastComma + 1,
            "trailing comma: never seen in Hailo's scripts, and the DFC's parser may reject it",
            SYNTAX_CODES.trailingComma,
            'warning',
          );
        return ts.start(this.i++);
      }
      if (kind === Tok.Comma) {
        if (expectElement && !quiet) this.error(ts.start(this.i), ts.end(this.i), 'expected a value before `,`');
        lastComma = ts.start(this.i);
        expectElement = true;
        skipped = false;
        this.i++;
        continue;
      }
      if (canStartValue(kind) && !(kind === Tok.Name && openKind !== Tok.LParen && ts.kind(this.i + 1) === Tok.Equals)) {
        if (!expectElement && !quiet && !skipped) {
          const prevEnd = ts.end(this.i - 1);
          const t = this.tok;
          this.error(prevEnd, t.start > prevEnd ? t.start : t.end, `missing \`,\` before ${describeToken(t)}`, SYNTAX_CODES.missingComma);
        }
        if (++elements > MAX_ELEMENTS) {
          const t = this.tok;
          this.error(
            t.start,
            t.end,
            limitMessage(
              'allsArguments',
              `This ${openKind === Tok.LParen ? 'call' : openKind === Tok.LBracket ? 'list' : 'dictionary'}`,
              `more than ${MAX_ELEMENTS.toLocaleString('en-US')} items`,
            ),
            SYNTAX_CODES.limit,
          );
          return this.skipToCloser(openKind);
        }
        const before = this.i;
        const errorsBefore = this.statementErrors;
        this.parseElement(openKind, collect);
        if (this.i === before) this.i++; // never loop without progress
        expectElement = false;
        // An element that ended in an error (e.g. an unclosed list) already explained this spot.
        skipped = this.statementErrors > errorsBefore;
        continue;
      }
      const t = this.tok;
      if (isCloser(t.kind)) {
        if (this.openers.some((o) => CLOSER_FOR[o] === t.kind)) {
          // `cmd([a, b)`: the `)` closes the call; the `[` is the one left open.
          if (!quiet && !this.swallowed)
            this.error(ts.start(open), ts.end(open), `unclosed \`${OPENER_TEXT[openKind]}\` opened here`, SYNTAX_CODES.unclosed, [
              { start: t.start, end: t.end, message: `${TOKEN_LABEL[t.kind]} found here` },
            ]);
          return -1;
        }
        if (!quiet) this.error(t.start, t.end, `unmatched ${TOKEN_LABEL[t.kind]}`, SYNTAX_CODES.unmatched);
        skipped = true;
        this.i++;
        continue;
      }
      const openers = this.openers;
      if (
        openKind !== Tok.LParen &&
        t.kind === Tok.Name &&
        ts.kind(this.i + 1) === Tok.Equals &&
        openers.length > 1 &&
        openers[openers.length - 2] === Tok.LParen
      ) {
        // `cmd([a, b, key=v)`: a keyword argument inside a list means the list should have ended.
        if (!quiet)
          this.error(ts.start(open), ts.end(open), `unclosed \`${OPENER_TEXT[openKind]}\` opened here`, SYNTAX_CODES.unclosed, [
            { start: t.start, end: ts.end(this.i + 1), message: `keyword argument \`${t.text}=\` found here` },
          ]);
        return -1;
      }
      if (t.kind === Tok.Name && ts.kind(this.i + 1) === Tok.Equals) {
        // `name=` inside a nested list or a dictionary: parse the name as a value; `=` is then reported
        if (++elements > MAX_ELEMENTS) {
          this.error(
            t.start,
            t.end,
            limitMessage(
              'allsArguments',
              `This ${openKind === Tok.LBracket ? 'list' : 'dictionary'}`,
              `more than ${MAX_ELEMENTS.toLocaleString('en-US')} items`,
            ),
            SYNTAX_CODES.limit,
          );
          return this.skipToCloser(openKind);
        }
        this.parseElement(openKind, collect);
        expectElement = false;
        continue;
      }
      if (!canStartValue(t.kind)) {
        skipped = true;
        if (!quiet) {
          if (t.kind === Tok.Invalid) this.error(t.start, t.end, `unexpected ${describeToken(t)}`, SYNTAX_CODES.invalidChar);
          else this.error(t.start, t.end, `unexpected ${describeToken(t)}`);
        }
        this.i++;
        continue;
      }
    }
  }

  /** Reports the opener at token `open` as unclosed, at the end of the statement or the file. */
  private unclosed(openKind: Tok, open: number, quiet: boolean): void {
    if (quiet || this.swallowed) return;
    const next = this.tok;
    let j = this.i;
    while (this.ts.kind(j) === Tok.Newline || this.ts.kind(j) === Tok.Comment) j++;
    const related =
      this.ts.kind(j) === Tok.Eof && !this.continues
        ? [{ start: next.start, end: next.start, message: 'the file ends here' }]
        : [{ start: next.start, end: next.start, message: 'the statement ends here: the next line starts a new statement' }];
    this.error(this.ts.start(open), this.ts.end(open), `unclosed \`${OPENER_TEXT[openKind]}\` opened here`, SYNTAX_CODES.unclosed, related);
  }
}

/** Does the token at `j` start a statement (`name(`, `a, b = name(`, `{} = name(`, or end of file)? */
export function looksLikeStatementStart(ts: TokenStream, j: number): boolean {
  const kind = ts.kind(j);
  if (kind === Tok.Eof) return true;
  if (kind !== Tok.Name && kind !== Tok.Glob) return false;
  // `name(` never occurs inside a value: no nested calls in the language.
  if (kind === Tok.Name && ts.kind(j + 1) === Tok.LParen) return true;
  let k = j + 1;
  while (ts.kind(k) === Tok.Comma && (ts.kind(k + 1) === Tok.Name || ts.kind(k + 1) === Tok.Glob)) k += 2;
  return ts.kind(k) === Tok.Equals && ts.kind(k + 1) === Tok.Name && ts.kind(k + 2) === Tok.LParen;
}

/** A newline inside brackets that the parser treats as the end of the statement. */
export function isHardNewline(ts: TokenStream, i: number): boolean {
  let j = i;
  while (ts.kind(j) === Tok.Newline || ts.kind(j) === Tok.Comment) j++;
  return looksLikeStatementStart(ts, j);
}

export function parse(text: string): Script {
  return new Parser(text, tokenize(text)).parse();
}

/** Parse pre-made tokens; `continues`: the text is a window and another statement follows it. */
export function parseTokens(text: string, tokens: TokenStream, continues = false): Script {
  return new Parser(text, tokens, continues).parse();
}
