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

import { stripAnsi } from './lines';

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
/** The string ends with its line's own `\n`: a line of a multi-line output, unambiguously a notebook's. */
const ENDS_NEWLINE = /\\n"\s*(?:,\s*)?$/;

/** Empty lines of a quoted block: nothing but its marks (`>`, `> >`, `#`, `//`, `--`). */
const BARE_MARKS = /^\s*(?:(?:> ?)+|#+|\/\/|--)\s*$/;
/** Nested blockquote marks (`> > `, `>> `): all but the last go here, the last is normalise.ts's `> `. */
const NESTED_QUOTE = /^(?:> ?){1,8}(?=> )/;

export class QuoteForms {
  /** Inside a notebook's JSON list of output lines (a line ending in `\n",` was one). */
  private inJson = false;

  /** The line as it was printed, its quoting undone; the same string when it has none. */
  take(text: string): string {
    let t = text;
    if (t.includes('"')) t = this.json(t);
    else this.inJson = false;
    if (t.includes('&') && HTML_TELL.test(t)) t = t.replace(ENTITY, (m: string, e: string) => entity(e) ?? m);
    if (TYPOGRAPHY.test(t)) t = t.replace(TYPOGRAPHY, (c) => PLAIN[c] ?? c);
    TYPOGRAPHY.lastIndex = 0;
    if (t.length > 0 && (t[0] === '>' || t.trimStart()[0] === '>' || t.includes('#') || t.includes('/') || t.includes('-'))) {
      if (BARE_MARKS.test(t)) return '';
      if (t[0] === '>') t = t.replace(NESTED_QUOTE, '');
    }
    return t;
  }

  private json(t: string): string {
    const m = JSON_STRING.exec(t);
    if (!m || !(this.inJson || ENDS_NEWLINE.test(t))) {
      this.inJson = false;
      return t;
    }
    let s: string;
    try {
      s = JSON.parse(`"${m[2]}"`) as string;
    } catch {
      this.inJson = false;
      return t;
    }
    this.inJson = s.endsWith('\n');
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
