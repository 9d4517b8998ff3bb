// Warnings a program's own logger emits that no catalogue entry knows (pyhailort's `Given input data dtype (uint8) is
// different than inferred dtype (float32)…` once a frame, `Calls to \`activate()\` when working with scheduler are
// deprecated!`, a library's deprecations): each distinct message is kept once, with how often it repeated and where it
// came from, so a run with no error still says what it was warned of — in the program's words, at low confidence,
// never as a failure. Bounded: a flood of one message is one entry, and past MAX_TRACKED distinct messages the rest
// are only counted. Pure: no I/O.

/** Distinct warnings said, at most (the rest are counted in the last one's words). */
export const MAX_SAID = 5;
/** Distinct warnings tracked with their counts, at most (a flood of varying messages is counted, not kept). */
const MAX_TRACKED = 64;
/** A warning's words are quoted up to this many characters. */
const MAX_WORDS = 240;
/** What a clipped quote keeps of a message's head and of its end (at most). */
const HEAD_WORDS = 180;
const TAIL_WORDS = 120;

/**
 * A long message quoted by its head and its end: a library's message puts its own sentence last, after a source path
 * and a signature (onnxruntime's `Status Message: /onnxruntime_src/…/reshape_helper.h:45 onnxruntime::ReshapeHelper::…
 * The input tensor cannot be reshaped to the requested shape. Input shape:{1,512,16,16}, …`, dfc-corpus unseen15/11) —
 * a prefix alone would quote the path and lose what it says. Both parts end and start at a word; the end at a sentence
 * when one starts in it.
 */
export function clipWords(words: string): string {
  if (words.length <= MAX_WORDS) return words;
  const head = headOf(words);
  const window = words.slice(words.length - TAIL_WORDS);
  const sentence = /[.!?;]\s+(?=[A-Z])/.exec(window);
  const space = window.indexOf(' ');
  const tail = sentence ? window.slice(sentence.index + sentence[0].length) : space >= 0 ? window.slice(space + 1) : window;
  return `${head} … ${tail}`;
}

/** A clipped message's head, to its last whole word. */
function headOf(words: string): string {
  const h = words.slice(0, HEAD_WORDS);
  const space = h.lastIndexOf(' ');
  return (space > HEAD_WORDS / 2 ? h.slice(0, space) : h).trimEnd();
}
/** Names said per warning, at most. */
const MAX_NAMES = 6;

export interface UnknownWarning {
  /** The message as the program wrote it the first time (clipped). */
  words: string;
  /** Log lines of its first and last occurrence. */
  firstLine: number;
  lastLine: number;
  /** The first line's length as written (the diagnostic spans it). */
  firstLength: number;
  count: number;
  /** A repeat said it in other numbers (`Reducing output bits of …fc16 by 6.0 bits` after `…fc14 by 5.0 bits`). */
  varied: boolean;
  /** The logger's source column the line carried (`pyhailort.py:1031`, HailoRT's `[vdevice.cpp:229]`), when it had one. */
  source: string | null;
  /** What the message names: code spans, calls, class and API names, types in parentheses, quoted values. */
  names: string[];
}

/**
 * One message, whatever its numbers: a warning repeated per frame or per call varies in its counters, times and
 * addresses, not in what it says.
 */
function keyOf(words: string): string {
  return words.replace(/0x[0-9a-f]+/gi, '#').replace(/\d+(?:[.,]\d+)*/g, '#');
}

/**
 * A logger's source column before the message: Python logging's `%(filename)s:%(lineno)d`, HailoRT's `[file.cpp:N]`, glog's
 * `path/file.cc:N]` and Python warnings' `/path/file.py:N:` or `D:\\path\\file.py:N:` (their directories dropped: the file names the code).
 */
const SOURCE_COLUMN = /(?:^|[\s[(])(?:[\w.~:-]*[/\\])*([A-Za-z_][\w.-]{0,80}\.(?:py|pyx|cpp|cc|cxx|c|hpp|h|rs|go|js|ts)):(\d{1,6})\b/;

export class UnknownWarnings {
  private readonly byKey = new Map<string, UnknownWarning>();
  /** Lines of warnings past MAX_TRACKED distinct messages: counted only. */
  private untrackedLines = 0;
  /** A clipped message's head as the log said it: a repeat that starts otherwise varied. */
  private readonly heads = new Map<string, string>();

  /** `raw`: the line as the log wrote it (its logger's columns included), for the source column. */
  add(words: string, lineNo: number, raw: string): void {
    const key = keyOf(words);
    const known = this.byKey.get(key);
    if (known) {
      known.count++;
      known.lastLine = lineNo;
      if (!known.varied && !words.startsWith(this.heads.get(key) ?? known.words)) known.varied = true;
      return;
    }
    if (this.byKey.size >= MAX_TRACKED) {
      this.untrackedLines++;
      return;
    }
    const at = raw.indexOf(words.slice(0, 8));
    const src = SOURCE_COLUMN.exec(at > 0 ? raw.slice(0, at) : '');
    const clipped = clipWords(words);
    if (clipped !== words) this.heads.set(key, headOf(words));
    this.byKey.set(key, {
      words: clipped,
      firstLine: lineNo,
      lastLine: lineNo,
      firstLength: Math.min(raw.length, 1 << 16),
      count: 1,
      varied: false,
      source: src ? `${src[1]}:${src[2]}` : null,
      names: namesIn(clipped),
    });
  }

  /** Whether `words` is a warning already kept (a flood's later lines need no catalogue look-up). */
  has(words: string): boolean {
    return this.byKey.has(keyOf(words));
  }

  /** The warnings to say, in the order they first appeared, and what the rest amount to. */
  said(skip: (w: UnknownWarning) => boolean = () => false): { said: UnknownWarning[]; moreLines: number } {
    const all = [...this.byKey.values()].filter((w) => !skip(w));
    return { said: all.slice(0, MAX_SAID), moreLines: all.slice(MAX_SAID).reduce((n, w) => n + w.count, 0) + this.untrackedLines };
  }

  get size(): number {
    return this.byKey.size;
  }
}

/**
 * What a warning names, by the forms messages name things in: a code span (`` `activate()` ``), a call (`activate()`),
 * a quoted value (`'NHWC'`), a type or value alone in parentheses (`(uint8)`), an API or class name in CamelCase
 * (`HailoHWObject`, `VDevice/Device`), a snake_case or dotted identifier (`output_format_type`, `hailo_platform.pyhailort`),
 * a path of a network's layer (`yolox_tiny/yolox_nms_postprocess`), an upper-case constant (`HAILO_FORMAT_TYPE_UINT8`).
 */
export function namesIn(words: string): string[] {
  const out: string[] = [];
  const add = (n: string) => {
    const x = n.replace(/[.,:;]+$/, '');
    if (x.length >= 2 && x.length <= 120 && !out.includes(x) && out.length < MAX_NAMES) out.push(x);
  };
  for (const m of words.matchAll(/`([^`]{1,120})`/g)) add(m[1]);
  // A Python warning's category (`DeprecationWarning: …`) says what kind of warning it is, not what it names.
  const plain = words.replace(/^[A-Z]\w{0,60}Warning: /, '').replace(/`[^`]*`/g, ' ');
  for (const m of plain.matchAll(/(?<![\w.])'([^'\s]{1,80})'|"([^"\s]{1,80})"/g)) add(m[1] ?? m[2]);
  for (const m of plain.matchAll(/\(([A-Za-z_][\w.]{0,40})\)/g)) add(m[1]);
  const TOKEN =
    /(?<![\w./])(?:[A-Za-z_]\w*\(\)|[A-Za-z_][\w-]*(?:\/[A-Za-z_][\w-]*)+|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\b|[A-Z][a-z0-9]+[A-Z]\w*|[A-Z]{2,}[a-z]\w*|[a-z][a-z0-9]*_\w+|[A-Z][A-Z0-9]*_[A-Z0-9_]+)(?![\w/])/g;
  for (const m of plain.matchAll(TOKEN)) add(m[0]);
  return out;
}
