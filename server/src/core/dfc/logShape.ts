// A log's own line prefix, read from the log itself (issue 30; docs/research/dfc-unseen-misses.md,
// class B: each fresh batch of users' logs brought a logger format no list in normalise.ts had, such
// as the DFC's own log file's `date - LEVEL - file.py:N - ` column). Instead of a list, the reader
// infers the template a log repeats at the start of its lines: the head of each line is read as
// typed fields — a timestamp in any style, a level word or letter, a pid or thread, a `file.py:N`
// column, a logger or host name — with the separators between them. Where several lines share the
// same fields and separators, and the values vary as a logger's do (names constant, levels and
// times whatever they are), that leading structure is the relay's: it is cut from every line that
// has it and its level handed to normalise.ts as a relay's level; lines without it (a traceback's
// frames, continuation lines) are left as they are.
//
// Conservative where evidence is thin: a template needs MIN_SUPPORT lines, two fields (or a dated
// timestamp), one of them a logger's (time, level, `file:line`); every field after the first must
// stand on nearly every line the fields before it stand on (a message's first word does not), and
// a name field takes few values. The DFC's own `[info] ` tag ends a template only when something
// shows it is a relay's (a blank or indented line behind it, or another level after it).
//
// Cost: each line's head (HEAD characters at most) is read by sticky, bounded patterns — no pattern
// can backtrack over a long line — and a line is held back at most LOOKAHEAD lines.

import { levelOfWord, type LogLevel } from './levels';

/** What a field is. */
type Kind = 'time' | 'level' | 'file' | 'hex' | 'num' | 'name';

interface Field {
  kind: Kind;
  value: string;
  /** Opening brackets right before the value. */
  open: string;
  /** Start of the opening brackets, end of the value, end of the separator after it. */
  start: number;
  end: number;
  gapEnd: number;
  /** The separator after the value (closing brackets included, the next field's openers not). */
  gap: string;
}

/** The head of a line, as fields; null when it does not start with one. */
interface Head {
  fields: Field[];
  /** Each depth's key: the fields' kinds and separators (spaces squeezed) up to it. */
  keys: string[];
  /** Each depth's stem: the key without its last separator. */
  stems: string[];
}

/** A cut: where the relay's prefix ends, and the level it carried. */
export interface ShapeCut {
  rest: string;
  level: ShapeLevel | null;
  /** The level is in the DFC's own tag form and nothing shows a relay wrote it: the line's own level. */
  own: boolean;
}

export type ShapeLevel = LogLevel;

const MIN_SUPPORT = 4;
/** How many fields after a `file:line` column a template may hold (confirmed). */
const MAX_AFTER_FILE = 2;
const LOOKAHEAD = 16;
const MAX_FIELDS = 16;
const HEAD = 320;
const MAX_KEYS = 4096;
const MAX_CHILDREN = 64;
/** Heads kept by key (LogShape.push's `headKey`): a bound on what a log can make us hold. */
const MAX_KEYED_HEADS = 64;
/** A field after the first is the relay's when it stands on this share of the lines its parent stands on. */
const PRESENCE = 0.8;

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const ZONE = '(?: ?(?:Z|[+-]\\d{2}:?\\d{2}|UTC|GMT))?';
const FRACTION = '(?:[.,]\\d{1,9})?';
const CLOCK = `\\d{1,2}:\\d{2}(?::\\d{2})?${FRACTION}`;
/** A syslog-style time (`Dec  6 12:34:56`); `mayStartAt` knows it begins with the month's capital. */
const MONTH_FIELD = new RegExp(`${MONTH} [ \\d]\\d(?: \\d{4})? ${CLOCK}(?![\\w])`, 'y');
/** A `file.py:N` column; `mayStartAt` knows it is a run of name characters holding a dot and ending at its colon. */
const FILE_FIELD = /[\w.-]{1,80}\.(?:py|pyx|cpp|cc|cxx|c|h|hpp|go|rs|js|ts|java|rb|kt|swift):\d{1,6}(?::[\w<>.]{1,60})?(?![\w.])/y;
/** One value per kind, in the order tried; each anchored where it is tried (sticky) and bounded. */
const FIELD_RES: [Kind, RegExp][] = [
  ['time', new RegExp(`\\d{4}[-/.]\\d{2}[-/.]\\d{2}(?:[T ]${CLOCK}${ZONE})?(?![\\w])`, 'y')],
  ['time', new RegExp(`\\d{2}[-/.]\\d{2}[-/.]\\d{4}(?: ${CLOCK}${ZONE})?(?![\\w])`, 'y')],
  ['time', MONTH_FIELD],
  ['time', new RegExp(`${CLOCK}${ZONE}(?![\\w])`, 'y')],
  ['time', /\d{9,10}\.\d{1,9}(?![\w.])/y],
  ['file', FILE_FIELD],
  ['hex', /0x[0-9a-fA-F]{1,16}(?![\w.])/y],
  // A warning level a logger qualifies (Python logging's custom level names: the DFC's own `DEPRECATION_WARNING`, dfc-corpus unseen14/10).
  ['level', /(?:[A-Z]{2,24}_(?=warn))?(?:info|information|warning|warn|error|err|debug|critical|crit|fatal|trace|notice|verbose)(?![\w.])/iy],
  ['level', /[IWEDFCTV](?![\w.])/y],
  ['num', /(?:(?:pid|tid|thread)[=:])?\d{1,10}(?::\d{1,10})?(?![\w.])/y],
  ['name', /[A-Za-z_][\w-]{0,60}(?:\.[\w-]{1,60}){0,8}(?:\[\d{1,10}\])?(?![\w.])/y],
];
/** Separators: spaces, tabs, bars, colons, brackets; a dash only before a space (`--hw-arch` is a message's, ` - ` a logger's). */
const GAP = /(?:[ \t|:[\]()<>]|-(?![^ \t])){0,24}/y;

/** The DFC's own line: its tag, then a word. */
const OWN_LINE = /^\[(?:info|warning|error|debug|critical)\] [A-Za-z_]/;

/** The DFC's own tag as it prints it: `[info] `. */
function canonical(f: Field): boolean {
  return f.kind === 'level' && f.open === '[' && f.gap.startsWith(']') && CANONICAL_LEVELS.has(f.value);
}
const CANONICAL_LEVELS = new Set(['info', 'warning', 'error', 'debug', 'critical']);

/** Inside brackets, a name is whatever the brackets hold (HailoRT's `[~BaseQueueElement]`, `[operator()]`). */
const BRACKETED_NAME = /[^\]\s]{1,60}(?=\])/y;

/** The kinds a field may be by its first character (fewer patterns tried on each line). */
const FROM_DIGIT = FIELD_RES.filter((_, i) => [0, 1, 3, 4, 5, 6, 9].includes(i));
const FROM_LETTER = FIELD_RES.filter((_, i) => [2, 5, 7, 8, 9, 10].includes(i));

/**
 * Whether a pattern can match at `at` by what stands there, read with a few character tests (the two patterns that
 * cost most where they fail: the month must begin with its capital, and the `file.py:N` column is a run of name
 * characters that holds a dot and ends at its colon — 86 characters at most). Only says "cannot": the pattern decides.
 */
function mayStartAt(re: RegExp, s: string, at: number, c: number): boolean {
  if (re === MONTH_FIELD) return c === 74 || c === 70 || c === 77 || c === 65 || c === 83 || c === 79 || c === 78 || c === 68; // J F M A S O N D
  if (re !== FILE_FIELD) return true;
  let e = at;
  let dot = false;
  for (; e < s.length && e - at <= 90; e++) {
    const d = s.charCodeAt(e);
    if (d === 46) dot = true;
    else if (!(d === 45 || d === 95 || (d >= 48 && d <= 57) || (d >= 65 && d <= 90) || (d >= 97 && d <= 122))) break;
  }
  return dot && s.charCodeAt(e) === 58;
}

function fieldAt(s: string, at: number, bracketed: boolean): { kind: Kind; value: string } | null {
  const c = s.charCodeAt(at);
  const tried = c >= 48 && c <= 57 ? FROM_DIGIT : FROM_LETTER;
  for (const [kind, re] of tried) {
    if (!mayStartAt(re, s, at, c)) continue;
    re.lastIndex = at;
    const m = re.exec(s);
    if (m && m[0].length > 0 && (!bracketed || s[at + m[0].length] === ']' || kind !== 'name')) return { kind, value: m[0] };
  }
  if (!bracketed) return null;
  BRACKETED_NAME.lastIndex = at;
  const m = BRACKETED_NAME.exec(s);
  return m ? { kind: 'name', value: m[0] } : null;
}

/** A field can start here: a word, a number, a bracket (never indentation: an indented line is a relayed line's own). */
const FIELD_START = /^[\w[(<]/;

/** How many names before a space the head ends with. */
function words(fields: Field[]): number {
  let n = 0;
  for (let i = fields.length - 1; i >= 0 && fields[i].kind === 'name' && onlySpaces(fields[i].gap); i--) n++;
  return n;
}

function onlySpaces(s: string): boolean {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== 32) return false;
  return true;
}

/** How many of `s`'s characters before `end` are brackets that open a field (`[`, `(`, `<`), at most `max`. */
function openersBefore(s: string, end: number, max: number): number {
  let n = 0;
  while (n < max && n < end && isOpener(s.charCodeAt(end - 1 - n))) n++;
  return n;
}
function isOpener(c: number): boolean {
  return c === 91 || c === 40 || c === 60;
}

/** The spaces at the end of a separator. */
function trailingSpaces(s: string): number {
  let n = 0;
  while (n < s.length && s.charCodeAt(s.length - 1 - n) === 32) n++;
  return n;
}

/** The fields a line starts with (no indentation before the first: an indented line is a relayed line's own). */
function readHead(text: string): Head | null {
  const s = text.length > HEAD ? text.slice(0, HEAD) : text;
  if (!FIELD_START.test(s)) return null;
  const fields: Field[] = [];
  let at = 0;
  let open = '';
  while (open.length < 2 && isOpener(s.charCodeAt(open.length))) open = s.slice(0, open.length + 1);
  while (fields.length < MAX_FIELDS) {
    const start = at;
    const f = fieldAt(s, at + open.length, open.endsWith('['));
    if (!f) break;
    const end = at + open.length + f.value.length;
    GAP.lastIndex = end;
    const gapAll = GAP.exec(s)![0];
    const next = gapAll.slice(gapAll.length - openersBefore(gapAll, gapAll.length, gapAll.length));
    const gap = gapAll.slice(0, gapAll.length - next.length);
    fields.push({ kind: f.kind, value: f.value, open, start, end, gapEnd: end + gap.length, gap });
    // Fields are separated: two values glued together are one word of a message.
    if (gapAll.length === 0) break;
    // Three words in a row are a sentence (a host and a logger's name are two at most): the message has begun.
    if (words(fields) >= 3) break;
    at = end + gap.length;
    open = next;
  }
  if (fields.length === 0) return null;
  const keys: string[] = [];
  const stems: string[] = [];
  let key = '';
  for (const f of fields) {
    const stem = `${key}${f.open}${f.kind}`;
    stems.push(stem);
    key = `${stem}${f.gap === ' ' || !f.gap.includes('  ') ? f.gap : f.gap.replace(/ +/g, ' ')}\u0001`;
    keys.push(key);
  }
  return { fields, keys, stems };
}

/** What the lines whose heads share a stem (the fields up to one, its separator left out) showed. */
interface StemStats {
  n: number;
  depth: number;
  /** The key of the fields before it (their separators included), and that key's stem. */
  parentKey: string;
  parentStem: string;
  last: Kind;
  /** The last field's opening brackets. */
  open: string;
  /** The last field's values (names: a logger's take few). */
  values: Set<string>;
  /** The separator's characters after it (spaces squeezed), how often each (a message may begin with a separator's characters: the usual one wins). */
  cores: Map<string, number>;
  /** Per separator, how many of its lines go on with a table row's end (`… |`): a bar it ends with may be each row's. */
  rows: Map<string, number>;
  /**
   * Per separator, the fewest spaces after its characters on a line that goes on: the format's own
   * (more are a message's indentation — a traceback's frames, which may be most of a log).
   */
  trails: Map<string, number>;
  /** The fewest columns the field and its separator take on a line that goes on (a padded level column ends there). */
  width: number;
  /** The last field is the DFC's own tag form, and some line shows it is a relay's. */
  canonical: boolean;
  relayTag: boolean;
  /** A logger's field (time, level, `file:line`) is among the fields; a dated time is. */
  strong: boolean;
  datedTime: boolean;
}

/**
 * The separator's characters after a field: the usual ones, unless a shorter separator they begin
 * with (spaces alone included) stands on MIN_SUPPORT lines too — then the longer one is that separator
 * followed by messages that begin with a separator's characters (the allocator's `| conv1 | 4 |` table rows, which may be
 * most of a compiler's log file behind a relay's `name: `), and the template's separator is the shorter.
 */
/** What a separator core adds after a shorter one when the difference is a Markdown list item's bullet. */
const BULLET_TAIL = /^ ?[-*+\u2022]$/;

function separatorCore({ cores, rows, last, values }: { cores: Map<string, number>; rows: Map<string, number>; last: Kind; values: Set<string> }): string {
  const usual = mode(cores) ?? '';
  let core = usual;
  // A shorter core the usual one starts with is the relay's where it stands on enough lines — or on any line, where what the
  // usual adds is a list item's bullet (`- `, `* `, `• `): notes relayed line by line, most of them a Markdown list
  // (dfc-corpus unseen24/78), show the bullet after the separator on most lines; the heading and a wrapped item's
  // continuation show the separator alone — the bullet is the message's.
  for (const [c, n] of cores) if (c.length < core.length && usual.startsWith(c) && (n >= MIN_SUPPORT || BULLET_TAIL.test(usual.slice(c.length)))) core = c;
  // Every line of the usual separator is a table row (`… - | \`HAILO_X\` | 설명 |`, a Markdown table behind a relay,
  // dfc-corpus unseen18/23) and some line shows the separator without its last bar: that bar opens each row.
  if (core === usual && usual.endsWith('|') && rows.get(usual) === cores.get(usual)) {
    const shorter = usual.slice(0, -1).replace(/ +$/, '');
    // A name before a plain space is the relay's only as one constant name (a logger's, a host's), not the rows' own first cells.
    if (cores.has(shorter) && (shorter !== '' || last !== 'name' || values.size === 1)) core = shorter;
  }
  return core;
}

function bump<K>(m: Map<K, number>, k: K): void {
  if (m.size < 32 || m.has(k)) m.set(k, (m.get(k) ?? 0) + 1);
}

function mode<K>(m: Map<K, number>): K | undefined {
  let best: K | undefined;
  let n = -1;
  for (const [k, c] of m) if (c > n) [best, n] = [k, c];
  return best;
}

type Decided<T> = { item: T; text: string; cut: ShapeCut | null };

/**
 * Learns a log's line template as lines arrive and cuts it off them. Lines that start with a field
 * wait (LOOKAHEAD lines at most) so that the lines after them count too; the others pass at once
 * when nothing waits before them (the DFC's own `[info] …` lines are never held).
 */
export class LogShape<T> {
  private readonly stems = new Map<string, StemStats>();
  private readonly keys = new Map<string, number>();
  /** The stems that follow each key. */
  private readonly children = new Map<string, StemStats[]>();
  private readonly queue: { item: T; text: string; head: Head | null }[] = [];
  /** Some template starting with the DFC's own tag form was confirmed. */
  private tagFirst = false;
  /** Whether a line may wait for the lines after it (false for a live console: types.ts `live`). */
  private readonly hold: boolean;

  constructor(options: { hold?: boolean } = {}) {
    this.hold = options.hold ?? true;
  }

  /** Heads read for a `headKey` (push). */
  private readonly heads = new Map<string, Head | null>();

  /**
   * Takes a line; returns the lines now decided, in order, each with its cut (null: left as it is). `headKey`: the
   * caller knows the head's reading ends within the line's first characters and that they are `headKey` (routes.ts:
   * the allocator's `Context:N`, whose number is followed by `/`, which no field or separator takes) — lines with the
   * same key have the same head, read once (a head is never changed once read).
   */
  push(item: T, text: string, headKey?: string): Decided<T>[] {
    const out: Decided<T>[] = [];
    this.each(item, text, (d, o) => o.push(d), out, headKey);
    return out;
  }

  /** `push`, each decided line handed to `out` with `ctx` as it is decided (no array a line: the reader's way). */
  each<C>(item: T, text: string, out: (d: Decided<T>, ctx: C) => void, ctx: C, headKey?: string): void {
    // The DFC's own line (`[info] Translation started …`) is read only once a template begins with its tag form.
    const head = !this.tagFirst && OWN_LINE.test(text) ? null : headKey === undefined ? readHead(text) : this.keyedHead(text, headKey);
    if (head) this.count(text, head);
    const hold = this.hold && (head !== null && this.queue.length === 0 ? this.candidate(head) : head !== null);
    if (!hold && this.queue.length === 0) return out({ item, text, cut: head ? this.cut(text, head) : null }, ctx);
    this.queue.push({ item, text, head });
    while (this.queue.length > LOOKAHEAD || (this.queue.length > 0 && this.queue[0].head === null)) out(this.release(), ctx);
  }

  private keyedHead(text: string, key: string): Head | null {
    let head = this.heads.get(key);
    if (head === undefined) {
      head = readHead(text);
      if (this.heads.size < MAX_KEYED_HEADS) this.heads.set(key, head);
    }
    return head;
  }

  /** The log ended: every held line, decided on all the log showed. */
  flush(): Decided<T>[] {
    const out: Decided<T>[] = [];
    while (this.queue.length > 0) out.push(this.release());
    return out;
  }

  private release(): Decided<T> {
    const { item, text, head } = this.queue.shift()!;
    return { item, text, cut: head ? this.cut(text, head) : null };
  }

  /**
   * A line that may carry a template waits for the lines after it: a logger's field (a time, a level
   * word other than the DFC's own tag, `file:line`) among its first fields. The DFC's own lines
   * (`[info] Translation started …`, `Calibration:  50%|…`) pass at once, so live events stay live.
   */
  private candidate(head: Head): boolean {
    const [a, b] = head.fields;
    if (canonical(a) && a.gap === '] ' && (b === undefined || b.kind === 'name')) return this.tagFirst;
    return head.fields.slice(0, 4).some((f) => f.kind === 'time' || f.kind === 'file' || (f.kind === 'level' && !canonical(f)));
  }

  private count(text: string, head: Head): void {
    let strong = false;
    let dated = false;
    for (let i = 0; i < head.fields.length; i++) {
      const f = head.fields[i];
      const stem = head.stems[i];
      let st = this.stems.get(stem);
      if (!st) {
        if (this.stems.size >= MAX_KEYS) continue;
        st = {
          n: 0,
          depth: i + 1,
          parentKey: i > 0 ? head.keys[i - 1] : '',
          parentStem: i > 0 ? head.stems[i - 1] : '',
          last: f.kind,
          open: f.open,
          values: new Set(),
          cores: new Map(),
          rows: new Map(),
          trails: new Map(),
          width: Infinity,
          canonical: canonical(f),
          relayTag: false,
          strong: false,
          datedTime: false,
        };
        this.stems.set(stem, st);
        const siblings = this.children.get(st.parentKey);
        // Bounded: a hostile log's thousands of heads after one key cost a bounded look each.
        if (siblings) {
          if (siblings.length < MAX_CHILDREN) siblings.push(st);
        } else this.children.set(st.parentKey, [st]);
      }
      st.n++;
      if (this.keys.size < MAX_KEYS || this.keys.has(head.keys[i])) this.keys.set(head.keys[i], (this.keys.get(head.keys[i]) ?? 0) + 1);
      if (st.values.size < 16) st.values.add(f.value);
      const core = f.kind === 'level' ? paddedCore(gapCore(f.gap)) : gapCore(f.gap);
      bump(st.cores, core);
      if (core.endsWith('|') && /\|\s*$/.test(text) && text.length > f.gapEnd) bump(st.rows, core);
      if (text.length > f.gapEnd) {
        st.width = Math.min(st.width, f.value.length + f.gap.length);
        if (core !== '') st.trails.set(core, Math.min(st.trails.get(core) ?? Infinity, trailingSpaces(f.gap)));
      }
      if (st.canonical) {
        const after = text.slice(f.end + 2);
        if (after.trim() === '' || /^\s/.test(after) || head.fields[i + 1]?.kind === 'level') st.relayTag = true;
      }
      if (f.kind === 'time' || f.kind === 'file' || (f.kind === 'level' && !canonical(f))) strong = true;
      if (f.kind === 'time' && (/\d{4}/.test(f.value.slice(0, 10)) || /^[A-Z]/.test(f.value) || /^\d{9}/.test(f.value))) dated = true;
      if (strong) st.strong = true;
      if (dated) st.datedTime = true;
    }
  }

  /** A stem is a template when the lines that have it show a logger's prefix (see the head of the file). */
  private confirmed(stem: string): boolean {
    const st = this.stems.get(stem);
    if (!st || st.n < MIN_SUPPORT) return false;
    if (!st.strong && !(st.canonical && st.relayTag)) return false;
    if (st.depth === 1 && !st.datedTime) return false;
    if (st.canonical && !st.relayTag) return false;
    // The last field, a name before a space, could be a message's first word: only one constant name, on nearly every line, that is not a capitalised word.
    // A name before a space ends a template only as a logger's or host's name — one, on nearly every
    // line, spelt as an identifier (`compile_model`, `gpu-box-01`, `app.worker`, Python's `root`) —
    // and not where the word after it is constant too: a repeated phrase (`Thread in element …`) is a message's.
    if (st.last === 'name' && separatorCore(st) === '') {
      const [v] = st.values;
      if (st.values.size !== 1 || !(/[._\d-]/.test(v) || v === 'root') || st.n < 0.95 * (this.keys.get(st.parentKey) ?? 0)) return false;
      if (this.phraseGoesOn(st)) return false;
    }
    for (let k: StemStats | undefined = st; k && k.depth > 1; k = this.stems.get(k.parentStem)) {
      // A logger writes the source location at or near its prefix's end (HailoRT's `[file.cpp:40] [function] `, the DFC's
      // `- file.py:N - `): at most two fields after it are the prefix's. Lines that repeat one message word for word would
      // take its first words for fields too (`… [read_binary_file] CHECK failed - Error opening file`, dfc-corpus unseen29/39
      // quoted five times in a list).
      if (k.last === 'file' && st.depth - k.depth > MAX_AFTER_FILE) return false;
      const parentN = this.keys.get(k.parentKey) ?? 0;
      if (k.n < PRESENCE * parentN) return false;
      // A logger's or host's name takes few values; a bracketed column on nearly every line (HailoRT's
      // `[function]`) is the logger's whatever it holds.
      if (k.last === 'name' && k.values.size > 3 && !(k.open === '[' && k.n >= 0.9 * parentN)) return false;
    }
    if (st.depth === 1 && st.last === 'name') return false;
    return true;
  }

  /** The field after a name is one word on nearly every line: the name begins a phrase. */
  private phraseGoesOn(st: StemStats): boolean {
    const key = `${st.parentKey}${st.open}${st.last}${separatorCore(st) === '' ? ' ' : ''}\u0001`;
    const n = this.keys.get(key) ?? 0;
    return (this.children.get(key) ?? []).some((next) => next.last === 'name' && next.n >= PRESENCE * n && next.values.size <= 3);
  }

  private cut(text: string, head: Head): ShapeCut | null {
    for (let d = head.fields.length; d >= 1; d--) {
      const stem = head.stems[d - 1];
      if (!this.confirmed(stem)) continue;
      const st = this.stems.get(stem)!;
      // The last separator is matched on the text: a message may begin with a separator's characters
      // (`| cluster_0 |`, `--hw-arch`), which the head's reading took into the separator.
      const core = separatorCore(st);
      let end = separatorEnd(text, head.fields[d - 1], core, ownSpaces(st.trails.get(core) ?? 0), st.width, st.last === 'level');
      // A level padded after its brackets (`<info>  `, `<error> `): the column ends where the longest level's separator does.
      const last = head.fields[d - 1];
      if (end >= 0 && core !== '' && st.last === 'level' && Number.isFinite(st.width))
        end = Math.max(end, Math.min(last.gapEnd, last.end + st.width - last.value.length));
      if (end < 0) continue;
      if (canonical(head.fields[0])) this.tagFirst = true;
      // The innermost level is the line's (a relay logs everything at INFO). In the DFC's own tag form
      // (HailoRT's `[info]` inside its prefix) it is the line's own, unless some line shows it is a relay's.
      let level: ShapeLevel | null = null;
      let own = false;
      head.fields.slice(0, d).forEach((f, i) => {
        const said = f.kind === 'level' ? levelOfWord(f.value) : null;
        if (!said) return;
        level = said;
        own = canonical(f) && !this.stems.get(head.stems[i])?.relayTag;
      });
      return { rest: text.slice(end), level, own };
    }
    return null;
  }
}

/**
 * The spaces a separator puts after its characters, from the fewest any line had: 0 or 1 as they
 * are; more when every line is indented (a pasted traceback): indentation comes in steps of two
 * (Python's frames and code lines), so the separator's own is what is left over.
 */
function ownSpaces(fewest: number): number {
  return fewest <= 1 ? fewest : fewest % 2;
}

/** A separator's characters without the spaces around them, inner runs of spaces squeezed ('' for spaces only). */
function gapCore(gap: string): string {
  if (gap === ' ' || gap === '') return '';
  if (gap.charCodeAt(0) !== 32 && gap.charCodeAt(gap.length - 1) !== 32 && !gap.includes('  ')) return gap;
  return gap.replace(/^ +| +$/g, '').replace(/ +/g, ' ');
}

/**
 * A level column padded after its brackets (`<Info>   : `, `<Warning>: ` — `%-9s` of `<Warning>` leaves no
 * padding): the spaces between a closing bracket and the separator's next character are the column's, not the
 * separator's, so the lines of every level show one separator (separatorEnd takes the padding back).
 */
function paddedCore(core: string): string {
  return core.replace(/([\])>]) (?=\S)/g, '$1');
}

/**
 * Where the template's separator ends on this line, or -1: padding, the separator's characters (a
 * run of spaces for a space), then as many spaces as the format puts there — more are the relayed
 * line's own indentation. A separator of spaces only ends at the format's column (a padded level).
 */
function separatorEnd(text: string, last: Field, core: string, trail: number, width: number, padded: boolean): number {
  let i = last.end;
  if (core === '') {
    let s = 0;
    while (text[i + s] === ' ') s++;
    if (s === 0) return i === text.length ? i : -1;
    // Every line may be indented (a pasted traceback): a level column wider than Python's and Rich's
    // `%(levelname)-8s ` by a step of indentation ends at their column.
    const column = padded && width > 9 && (width - 9) % 2 === 0 ? 9 : width;
    const own = Number.isFinite(column) ? column - last.value.length : 1;
    // A level is padded to its column; other fields take one space, or two (s6's `time  message`).
    return i + Math.min(s, Math.max(1, padded ? own : own <= 2 ? own : 1 + ((own - 1) % 2)));
  }
  while (text[i] === ' ') i++;
  for (let k = 0; k < core.length; k++) {
    const c = core[k];
    if (c === ' ') {
      if (text[i] !== ' ') return -1;
      while (text[i] === ' ') i++;
    } else if (text[i++] !== c) return -1;
    // A level padded after its brackets: the padding before the next character, none where the widest level fills the column.
    else if (padded && (c === ']' || c === '>' || c === ')') && k + 1 < core.length && core[k + 1] !== ' ') while (text[i] === ' ') i++;
  }
  let n = 0;
  while (n < trail && text[i] === ' ') [i, n] = [i + 1, n + 1];
  return n === trail || i === text.length ? i : -1;
}
