// The forms a log is quoted in, undone before anything reads a line (issue 30;
// docs/research/dfc-unseen-misses.md, class B: a known message in a form the reader did not recognise).
// Users report a log the way their medium writes it: a forum page scraped as HTML (`&lt;`, `&quot;`,
// `&#39;`), a committed notebook's JSON (`"text": ["[info] …\n", …]`, ANSI colours as `\u001b[…m`), a
// word processor's typography (curly quotes, non-breaking spaces), a nested Markdown blockquote whose
// empty lines are bare marks. These are encodings of the line, not words around it: each is undone
// here, once, so the prefixes (normalise.ts), the log's template (logShape.ts), the markers and the
// catalogue see the line as the tool printed it. test/unit/dfc/dfc-quote-forms.test.ts quotes every
// read corpus log in forms drawn from a seed and requires the same reading.
//
// Linear: one test of the characters each form needs first (most lines have none), then one pass.

import { stripAnsi, type LogLine } from './lines';
import type { ShapeCut } from './logShape';
import { startsWithPrefix } from './normalise';
import { dpkgPackageStep, endsRun } from './markers';
import { KERNEL_FRAME } from './kernelSplat';

/** The five entities an HTML serializer writes for text, and the spaces and quotes a forum adds. */
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'", nbsp: ' ', '#39': "'", '#34': '"', '#x27': "'", '#x22': '"' };
/** An entity: named (the ones above), decimal or hexadecimal, bounded. */
const ENTITY = /&(#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z]{2,8});/g;
/** A line an HTML page was scraped from holds an entity of markup (`&lt;`, `&gt;`, `&amp;`, `&quot;`, `&#39;`). */
const HTML_TELL = /&(?:lt|gt|amp|quot|apos|#39|#x27|#34);/;

/** Typographic quotes and spaces a forum or word processor puts for ASCII ones. */
const TYPOGRAPHY = /[\u00a0\u2007\u202f\u2009\u200a\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u2032\u2033]/g;
const PLAIN: Record<string, string> = {
  '\u00a0': ' ',
  '\u2007': ' ',
  '\u202f': ' ',
  '\u2009': ' ',
  '\u200a': ' ',
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u2033': '"',
};

/**
 * A JSON string as a notebook writes each line of a cell's output (nbformat's `"text": [...]`): the
 * string, an optional comma, nothing else. Bounded by the line (MAX_LINE): one pass, no nesting.
 */
const JSON_STRING = /^(\s*)"((?:[^"\\]|\\["\\/bfnrtu])*)"\s*(?:,\s*)?$/;
/** A shell's prompt and the command typed at it: a line of its own, whatever follows (`user@host:~ $ `, `(venv) $ `, `# `). */
const PROMPT = /^(?:\([\w.-]{1,80}\)\s+)?(?:[\w.-]{1,80}@[\w.-]{1,80}:\S{0,200}?\s?[$#]|[$#]) /;
/** What starts a log's line of its own: a date, a time, a level tag or word, indentation. */
const NEW_LINE =
  /^(?:\s|\[?\d{4}-\d{2}-\d{2}|\[?\d{1,2}:\d{2}:\d{2}|\[(?:info|warning|warn|error|debug|critical|fatal|trace)\]|(?:INFO|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL)\b)/;

/** A line that ends with an exception's class and its colon: its message was wrapped to the next line. */
const CLASS_ENDS = /[A-Za-z](?:Error|Exception|Failure):$/;
const TABLE_LINE = /^\s*(?:\[\w+\] ?)?[|+].*[|+]\s*$/;
/** JSON's own lines in a notebook: brackets and braces, a key with a scalar value or an opening bracket. */
const NOTEBOOK_SYNTAX = /^\s*(?:[[\]{},]{1,4}|"[\w-]{1,40}": (?:"[^"\\]{0,80}"|-?\d{1,20}|null|true|false|\[|\{|\[\]|\{\}),?)\s*$/;
/** A Markdown fence, opening or closing, and its indentation. */
const FENCE = /^([ \t]{0,12})(?:```|~~~)/;
/** A notebook's key for a list of output lines (`"text": [`, `"traceback": [`, nbformat 4). */
const JSON_LIST = /^\s*"(?:text|traceback|data|source|text\/plain)": \[\s*$/;
/** The string ends with its line's own `\n`: a line of a multi-line output, unambiguously a notebook's. */
const ENDS_NEWLINE = /\\n"\s*(?:,\s*)?$/;

/** Empty lines of a quoted block: nothing but its marks (`>`, `> >`, `#`, `//`, `--`). */
const BARE_MARKS = /^\s*(?:(?:> ?)+|#+|\/\/|--)\s*$/;
/** A quote's or comment's mark at a line's start (`-- ` takes its space: `--hw-arch` is an option). */
const MARK = /^(?:>|#{1,6}|\/\/) ?|^-- /;
/** Another mark follows, with its space: the last mark is normalise.ts's (`> `, `# `: one space is the mark's own). */
const NEXT_MARK = /^(?:>|#{1,6}|\/\/|--)(?: |>|$)/;

export class QuoteForms {
  /** Inside a notebook's JSON list of output lines (a line ending in `\n",` was one). */
  private inJson = false;
  /** Decoded a notebook's list of lines: its closing `]` goes too. */
  private inList = false;
  /** The log is a notebook's JSON (a list of output lines was seen): its structure lines go. */
  private notebook = false;
  /** Inside a fenced block: the indentation its opening fence had (null: outside one). */
  private fence: string | null = null;
  /**
   * After an indented fenced block closed: its list item's indentation, which the item's next lines still carry (a second
   * block, its prose), until a line that says something stands left of it (null: none).
   */
  private item: string | null = null;
  /** A fenced block closed and none is open: the lines now are the author's words after the paste, until a log's own line. */
  private closed = false;
  /**
   * The line just taken is the quoting's or its author's, not the run's: a fence, or a line after a fenced paste closed and
   * before another opens (`Any help is appreciated.` under the block). State.ts reads such a line as it reads any, but it
   * does not show the run going on (a session the log ended on, dfc-corpus unseen13/10; docker's image loaded, unseen25/23).
   */
  aside = false;

  /** The line as it was printed, its quoting undone; the same string when it has none. */
  take(text: string): string {
    let t = text;
    this.aside = this.closed;
    // A notebook's own structure around its outputs (`],`, `}`, `"output_type": "stream",`) is no line of them.
    if (this.notebook && NOTEBOOK_SYNTAX.test(t)) {
      this.inList = this.inJson = false;
      return '';
    }
    if (t.includes('"')) t = this.json(t);
    else this.inJson = this.inList = false;
    // A fenced block indented with its list item (`   \`\`\`log`): the item's indentation is the block's, not its lines'.
    if (t.includes('```') || t.includes('~~~')) {
      const f = FENCE.exec(t);
      if (f) {
        this.item = this.fence === null ? null : this.fence || null;
        this.closed = this.fence !== null;
        this.fence = this.fence === null ? f[1] : null;
        this.aside = true;
        // At the margin: an indented fence would read as the line before it going on.
        return t.slice(f[1].length);
      }
    }
    if (this.fence && t.startsWith(this.fence)) t = t.slice(this.fence.length);
    else if (this.item !== null) {
      // A list item's block closed inside the item: its next lines are the item's still, at its indentation.
      if (t.startsWith(this.item)) t = t.slice(this.item.length);
      else if (t.trim() !== '') this.item = null;
    }
    // A page scraped from a page that escaped it once already (`&amp;quot;`) is undone twice.
    for (let k = 0; k < 2 && t.includes('&') && HTML_TELL.test(t); k++) t = t.replace(ENTITY, (m: string, e: string) => entity(e) ?? m);
    if (TYPOGRAPHY.test(t)) t = t.replace(TYPOGRAPHY, (c) => PLAIN[c] ?? c);
    TYPOGRAPHY.lastIndex = 0;
    if (t.length > 0 && (t[0] === '>' || t.trimStart()[0] === '>' || t.includes('#') || t.includes('/') || t.includes('-'))) {
      if (BARE_MARKS.test(t)) return '';
      // Marks of quotes inside quotes, of any kinds (`> > `, `>> `, a comment of a quote `-- >> `): all but the last go here.
      for (let k = 0; k < 8; k++) {
        const m = MARK.exec(t);
        if (!m || !NEXT_MARK.test(t.slice(m[0].length))) break;
        t = t.slice(m[0].length);
      }
      // An empty line of marks of two kinds (`# //`, a commented-out quote's): the last mark alone is as empty.
      if (t !== text && BARE_MARKS.test(t)) return '';
    }
    // A log's own line after the paste (a shell's prompt, a record led by its date, time, level or indentation: another run
    // pasted unfenced, dfc-corpus unseen27/38 then the next command) ends the author's words: the lines from it are the run's.
    if (this.closed && (PROMPT.test(t) || NEW_LINE.test(t))) this.closed = this.aside = false;
    return t;
  }

  /**
   * What `take` does with a line that holds none of the characters a form needs and starts with a letter (routes.ts: the
   * allocator's iteration line): no `"` (no notebook string: a JSON list it was inside is over), no fence, no `&`, no
   * typography, no mark at its start (a notebook's structure line starts with a bracket, a brace or a `"` key) — the line
   * is returned as it is; only the notebook's list ends, a list item's indentation (the line stands at the margin), and the
   * author's words after a paste (the line is the run's).
   */
  plain(): void {
    this.inJson = this.inList = false;
    // The allocator's iteration line is the run's own: after a paste's fence, the run goes on unfenced.
    this.aside = this.closed = false;
    this.item = null;
  }

  private json(t: string): string {
    // nbformat's list of a cell's lines opens with its key: every string after it is one of them.
    if (JSON_LIST.test(t)) {
      this.inJson = this.inList = this.notebook = true;
      return '';
    }
    const m = JSON_STRING.exec(t);
    if (!m || !(this.inJson || ENDS_NEWLINE.test(t))) {
      this.inJson = this.inList = false;
      return t;
    }
    let s: string;
    try {
      s = JSON.parse(`"${m[2]}"`) as string;
    } catch {
      this.inJson = this.inList = false;
      return t;
    }
    this.inJson = s.endsWith('\n');
    this.inList = true;
    // The string's own line end, and the colours its \u001b escapes were (lines.ts strips the raw ones).
    return stripAnsi(s.replace(/\r?\n$/, ''));
  }
}

function entity(e: string): string | null {
  const named = NAMED[e];
  if (named !== undefined) return named;
  if (e[0] !== '#') return null;
  const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : null;
}

/**
 * An author's hard wrap (an editor's fill at 60–100 columns, dfc-corpus unseen4/21): a paragraph's line was
 * broken because its next word would not fit, so a line continues the one before when that one is long
 * (FILL_MIN…FILL_MAX columns), adding the next line's first word would pass the paragraph's widest line so far
 * (the fill's width), and the next line starts no line of its own — no indentation, no tag, prefix or bracket,
 * no capitalised word (a sentence, a class, a tool's message), no `name:` (an exception's dotted class) — but goes
 * on in lower case, a number, a parenthesis, a quote or a path. A path broken after its `/` is joined without a space. One line is held
 * until the next one says; a live console (types.ts `live`) is never held, and never hard-wrapped.
 */
export class Unwrap {
  private held: Decided | null = null;
  /** The held line's last physical line's length (the one the fill broke). */
  private heldLast = 0;
  /** The widest line of the paragraph so far (a blank line ends a paragraph). */
  private width = 0;

  /** Takes a line; hands `out` the lines now decided, in order, with `ctx` (a held line waits for the next one). */
  push<C>(d: Decided, out: (d: Decided, ctx: C) => void, ctx: C): void {
    const h = this.held;
    this.held = null;
    const t = content(d);
    const len = t.trimEnd().length;
    // The fill counted the line as the author's file holds it: its logger's prefix and escapes too.
    const phys = d.item.raw.trimEnd().length;
    // A line that is only its logger's prefix (`[time] [default] [info]`): its message went to the next line.
    if (len === 0 && d.item.text.trim() !== '' && !d.item.overwritten) {
      if (h) out(h, ctx);
      if (!this.hold(d, 0)) out(d, ctx);
      return;
    }
    if (len === 0) {
      this.width = 0;
      if (h) out(h, ctx);
      return out(d, ctx);
    }
    // A line of one word may pass the fill's width (a path); the width is what the fill's breakable lines show.
    // The line itself counts first: a fill's lines are all within its width, so a next line longer than what
    // would have fitted on the one before shows that one was not broken for want of room (lines of code, of a log).
    // A table's row or border is never filled (an editor's fill leaves tables alone): it does not show the width.
    if (SEVERAL_WORDS.test(d.item.raw) && !TABLE_LINE.test(t)) this.width = Math.max(this.width, phys);
    if (h && this.continues(d.item, t, content(h))) {
      const j = joined(h, d);
      if (!this.hold(j, phys)) out(j, ctx);
      return;
    }
    if (h) out(h, ctx);
    if (!this.hold(d, phys)) out(d, ctx);
  }

  flush<C>(out: (d: Decided, ctx: C) => void, ctx: C): void {
    const h = this.held;
    this.held = null;
    if (h) out(h, ctx);
  }

  /** Holds a line that may go on in the next one; false when it cannot (then it is decided at once). */
  private hold(d: Decided, last: number): boolean {
    const c = content(d);
    if (!d.item.overwritten && last <= FILL_MAX && c.length < HELD_MAX && !openSpan(c) && !PROMPT.test(c)) {
      this.held = d;
      this.heldLast = last;
      return true;
    }
    return false;
  }

  private continues(l: LogLine, line: string, held: string): boolean {
    // A blockquote's lines (`> …`, a note quoting a paragraph, dfc-corpus unseen25/74 under the wrappers test's quote mark): the fill
    // wrapped the text inside the marks, so two lines of one quote's depth are read without them.
    const [tm, hm] = [quoteMarks(line), quoteMarks(held)];
    if (tm.depth !== hm.depth) return false;
    const [t, heldText] = [line.slice(tm.length), held.slice(hm.length)];
    const indented = LEADING_SPACE.test(heldText);
    // After a bare prefix, any line that is no line of its own is its message.
    // (A column of the prefix may have gone with it: HailoRT's `[file.cpp:N] [function]`.)
    if (this.heldLast === 0) return !l.overwritten && !OWN_LINE.test(t) && !NEW_LINE.test(t) && !openSpan(t);
    // A frame's function (`in <module>`) goes on an indented line only: elsewhere `<scope>/name` may be an author's own line.
    // An exception's class that ends its line (`…AccelerasValueError:`) has its message on the next, capitalised or not.
    const goesOn = GOES_ON.test(t) || (indented && t[0] === '<') || (CLASS_ENDS.test(heldText) && CAPITAL.test(t));
    // A kernel stack frame (`hailo_vdma_ioctl+0xcc/0x260 [hailo_pci]`, kernelSplat.ts) is a line of its own, as a call trace prints it.
    // A shell's prompt with the next command typed at it (PROMPT) is a line of its own too, though it starts in lower case
    // (`bash: hailortlci: command not found` / `user@pi:~ $ hailortcli …`): no fill broke a line before it.
    if (
      l.overwritten ||
      !goesOn ||
      OWN_LINE.test(t) ||
      RULE.test(t) ||
      KERNEL_FRAME.test(t.trim()) ||
      startsWithPrefix(t) ||
      openSpan(t) ||
      endsRun(t) ||
      PROMPT.test(t) ||
      // dpkg's progress line about a package (`Setting up x (1.0) ...`, any locale: markers.ts dpkgPackageStep) is a line of
      // its own, whatever its maintainer script prints under it (`build-essential/stable,now 12.9 arm64 [installed]`).
      ((heldText.endsWith('...') || heldText.endsWith('\u2026')) && dpkgPackageStep(heldText) !== null)
    )
      return false;
    const first = FIRST_WORD.exec(t.slice(0, 400))![0];
    // Lines that begin alike are lines of a list, of code or of a log, each its own (`"model_a",  # …` twice).
    if (heldText.trimStart().startsWith(first)) return false;
    const word = first.length;
    // A short line was broken only before a word that would not fit beside it (a path after `File`), or half a fill of 50 or more.
    const filled = this.heldLast >= FILL_MIN || word >= FILL_MIN || (this.width >= FILL_MIN && 2 * this.heldLast >= this.width);
    return filled && this.heldLast + 1 + word > this.width;
  }
}

/** A code span the line leaves open (an odd number of backticks): the prose's wrapped span is reader.ts's to join. */
function openSpan(t: string): boolean {
  let n = 0;
  for (let i = t.indexOf('`'); i >= 0; i = t.indexOf('`', i + 1)) n++;
  return n % 2 === 1;
}

/** A line as the log's template left it (logShape.ts): the relayed rest when a prefix was cut. */
export interface Decided {
  item: LogLine;
  text: string;
  cut: ShapeCut | null;
}

function content(d: Decided): string {
  return d.cut ? d.cut.rest : d.text;
}

/** The held line with the next one after it: a space between, none after a path's `/`. */
function joined(h: Decided, d: Decided): Decided {
  const a = content(h).trimEnd();
  const sep = a === '' || a.endsWith('/') ? '' : ' ';
  // The next line of a blockquote goes on without its marks (the held line keeps its own).
  const next = (x: string) => x.slice(quoteMarks(x).length);
  const rest = `${a}${sep}${next(content(d))}`;
  const item = { ...h.item, raw: `${h.item.raw.trimEnd()}${sep}${d.item.raw}`, text: `${h.item.text.trimEnd()}${sep}${next(d.item.text)}` };
  return h.cut ? { item, text: h.text, cut: { ...h.cut, rest } } : { item, text: rest, cut: null };
}

/** A Markdown blockquote's marks opening a line (`> `, `> > `): their depth and length; none is depth 0. */
const QUOTE_MARKS = /^(?:> ?){1,8}/;
function quoteMarks(t: string): { depth: number; length: number } {
  if (t[0] !== '>') return { depth: 0, length: 0 };
  const m = QUOTE_MARKS.exec(t)![0];
  let depth = 0;
  for (const c of m) if (c === '>') depth++;
  return { depth, length: m.length };
}

/** Unwrap's small patterns, made once (a regular expression literal in a function is a new RegExp object at every call). */
const SEVERAL_WORDS = /\S\s+\S/;
const LEADING_SPACE = /^\s/;
const CAPITAL = /^[A-Z]/;
const FIRST_WORD = /^\S*/;

const FILL_MIN = 50;
const FILL_MAX = 120;
/** A joined line stops growing here (a paragraph is a few lines). */
const HELD_MAX = 4096;
/** How a continuation starts: lower case, a digit, an opening parenthesis or quote, a path, an identifier with `_`. */
// A list (`['/model.23/Mul', …]`), never a tag (`[info]`); a digit only as a number the clause goes on with (`00:00:00.12)`): a line that starts with a date, a time or a pid is a logger's.
/** A rule drawn across the text (`------`, `=====`, `****`: a separator a program or Markdown prints): a line of its own. */
const RULE = /^([-=_*~#])\1{2,}\s*$/;
const GOES_ON = /^(?:[a-z(/.'"~-]|\[['"[\d-]|\d[\d:.,]{0,30}\)|[A-Z][A-Z0-9]*_\w)/;
/**
 * A line of its own that starts in lower case: an exception's dotted class (`hailo_sdk_common….XError: …`), a program's
 * `name: error:` or `/bin/bash: x:` (argparse's `hailo parser onnx: error:`), a shell's prompt (`(venv) user@host:~/dir$ `).
 */
const OWN_LINE =
  /^[\w.~-][\w.~/-]{0,199}:(?:\s|$)|^[\w.~/ -]{1,120}: (?:error|warning|fatal|note):|^(?:\([\w.-]{1,80}\)\s+)?[\w.-]{1,80}@[\w.-]{1,80}:\S{0,200}[$#] /;
