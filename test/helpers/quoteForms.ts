// How people quote a log when they report it (issue 30, docs/research/dfc-unseen-misses.md class B:
// a known message in a form the reader did not recognise — 57 % of all first-scoring misses, and each
// fresh batch brought its own form). A seeded PRNG (core/common/prng.ts) composes quotings of the
// kinds the fresh batches brought — Markdown blockquotes (nested), comment marks, list items, table
// cells, a sentence around the line (English or another language around an English message), a code
// span the prose wraps, an author's hard wrap, a call chain condensed with arrows, HTML escapes as a
// forum page is scraped, a committed notebook's JSON `"text": [...]` with ANSI escapes, smart quotes,
// non-breaking spaces, tabs, CRLF — and applies them to every read corpus log and to test/fixtures/dfc/.
// The forms follow how people write (Markdown, forums, Jupyter's nbformat), not the reader's patterns.
//
// Two families, and what each must keep (test/unit/dfc/dfc-quote-forms.test.ts):
// - a *block* form quotes the whole log: the reading — outcome, failed stage, codes with severity,
//   nodes named — must equal the plain log's;
// - an *excerpt* form quotes only the key lines (each diagnostic's line; for a log without one, its
//   last line that says something), one by one, in sentences, cells, items or a condensed chain: the
//   stage markers and the rest are not quoted, so the outcome and stage are not required; the codes
//   with severity and the nodes named must equal those of the same lines pasted plain, and a quoting
//   never makes a failure of lines that plain are none.
import { prng } from '../../server/src/core/common/prng';
import { readDfcLog } from '../../server/src/core/dfc';
import { reading, shapeLogs, type Reading, type ShapeLog } from './loggerShapes';

type Rand = () => number;
const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

export type Family = 'block' | 'excerpt';

export interface QuoteForm {
  label: string;
  family: Family;
  /** The quoted text, from the lines it quotes. */
  apply: (lines: string[]) => string;
}

// ---- block forms: the whole log ----

/** A Markdown blockquote, nested 1–3 deep (`> > `); an empty line is the bare marks, as editors write it. */
function blockquote(r: Rand): QuoteForm {
  const depth = 1 + Math.floor(r() * 3);
  const mark = Array.from({ length: depth }, () => '>').join(pick(r, [' ', '']));
  return { label: `blockquote×${depth}`, family: 'block', apply: (ls) => ls.map((l) => (l ? `${mark} ${l}` : mark)).join('\n') };
}

/** A commented-out block in a script: `# `, `// `, `-- `; an empty line is the bare mark. */
function commentBlock(r: Rand): QuoteForm {
  const mark = pick(r, ['#', '//', '--']);
  return { label: `comment-block ${mark}`, family: 'block', apply: (ls) => ls.map((l) => (l ? `${mark} ${l}` : mark)).join('\n') };
}

/** A fenced code block inside a list item or after a sentence in some language (the fence's lines indented with the item). */
function fenced(r: Rand): QuoteForm {
  const intro = pick(r, INTROS);
  const lang = pick(r, ['', 'text', 'log', 'console', 'shell', 'python']);
  const inItem = r() < 0.4;
  const ind = inItem ? '   ' : '';
  return {
    label: `fenced ${lang || '(none)'}${inItem ? ' in list item' : ''} after "${intro.slice(0, 12)}"`,
    family: 'block',
    apply: (ls) =>
      [inItem ? `1. ${intro}` : intro, '', `${ind}\`\`\`${lang}`, ...ls.map((l) => (l ? ind + l : l)), `${ind}\`\`\``, '', pick(r, OUTROS)].join('\n'),
  };
}

/** HTML-escaped, as a forum page is scraped (`&lt;`, `&gt;`, `&amp;`, `&quot;`, `&#39;` or `&#x27;`). */
function htmlEscaped(r: Rand): QuoteForm {
  const apos = pick(r, ['&#39;', '&#x27;', '&apos;', "'"]);
  const quot = pick(r, ['&quot;', '&#34;', '"']);
  return {
    label: `html ${apos} ${quot}`,
    family: 'block',
    apply: (ls) => ls.map((l) => l.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, quot).replace(/'/g, apos)).join('\n'),
  };
}

/** JSON string escapes (RFC 8259): the five a serializer must write, and control characters as \u00XX. */
function jsonString(s: string): string {
  return JSON.stringify(s);
}

/**
 * A committed notebook's cell output (nbformat 4: `"outputs": [{"name": "stdout", "output_type": "stream",
 * "text": ["…\n", …]}]`, one JSON string per line, indented as Jupyter writes the file), the DFC's level tags in
 * the ANSI colours its console prints, escaped as `\u001b[…m`.
 */
function notebookJson(r: Rand): QuoteForm {
  const colour = r() < 0.6;
  const name = pick(r, ['stdout', 'stderr']);
  const paint = (l: string) => {
    if (!colour) return l;
    const m = /^\[(error|warning|info)\]/.exec(l);
    if (!m) return l;
    const c = m[1] === 'error' ? '\x1b[31m' : m[1] === 'warning' ? '\x1b[33m' : '\x1b[32m';
    return `${c}${m[0]}\x1b[0m${l.slice(m[0].length)}`;
  };
  return {
    label: `ipynb ${name}${colour ? ' ansi' : ''}`,
    family: 'block',
    apply: (ls) =>
      [
        '   "outputs": [',
        '    {',
        `     "name": "${name}",`,
        '     "output_type": "stream",',
        '     "text": [',
        ...ls.map((l, i) => `      ${jsonString(i < ls.length - 1 ? `${paint(l)}\n` : paint(l))}${i < ls.length - 1 ? ',' : ''}`),
        '     ]',
        '    }',
        '   ],',
      ].join('\n'),
  };
}

/** Typography a forum or a word processor adds: curly quotes, non-breaking spaces (all, or only the indentation). */
function typography(r: Rand): QuoteForm {
  const quotes = r() < 0.7;
  const nbsp = pick(r, ['none', 'indent', 'all'] as const);
  const space = pick(r, ['\u00a0', '\u202f']);
  const curl = (l: string) =>
    l
      .replace(/"([^"]*)"/g, '\u201c$1\u201d')
      .replace(/(^|[\s([{=:,])'/g, '$1\u2018')
      .replace(/'/g, '\u2019');
  const spaces = (l: string) => (nbsp === 'all' ? l.replace(/ /g, space) : nbsp === 'indent' ? l.replace(/^ +/, (s) => space.repeat(s.length)) : l);
  return {
    label: `typography${quotes ? ' curly' : ''} nbsp:${nbsp}${nbsp === 'none' ? '' : space === '\u00a0' ? ' U+00A0' : ' U+202F'}`,
    family: 'block',
    apply: (ls) => ls.map((l) => spaces(quotes ? curl(l) : l)).join('\n'),
  };
}

/** Line ends and indentation as another editor saves them: CRLF, indentation as tabs (two or four columns a tab). */
function whitespace(r: Rand): QuoteForm {
  const crlf = r() < 0.5;
  const width = pick(r, [0, 2, 4]);
  const tabs = (l: string) => (width ? l.replace(/^ +/, (s) => '\t'.repeat(Math.floor(s.length / width)) + ' '.repeat(s.length % width)) : l);
  return {
    label: `whitespace${crlf ? ' crlf' : ''}${width ? ` tabs/${width}` : ''}`,
    family: 'block',
    apply: (ls) => ls.map(tabs).join(crlf ? '\r\n' : '\n'),
  };
}

/**
 * An author's hard wrap at 60–100 columns, as an editor's fill does: a line longer than the width breaks
 * at its last space before the width — never inside a word; a path with no space is broken after a `/`
 * when the author's editor does that (some do).
 */
function hardWrap(r: Rand): QuoteForm {
  const width = 60 + Math.floor(r() * 41);
  const paths = r() < 0.4;
  return { label: `hard-wrap ${width}${paths ? ' paths' : ''}`, family: 'block', apply: (ls) => ls.flatMap((l) => wrapLine(l, width, paths)).join('\n') };
}

function wrapLine(l: string, width: number, paths: boolean): string[] {
  // A table's row or border is not filled (Markdown's and Org's fill leave tables alone).
  if (/^\s*(?:\[[^\]]*\]\s*)*[|+]/.test(l) && /[|+]\s*$/.test(l)) return [l];
  const out: string[] = [];
  let rest = l;
  while (rest.length > width) {
    let cut = rest.lastIndexOf(' ', width);
    // Not inside the line's own indentation.
    const lead = rest.length - rest.trimStart().length;
    if (cut <= lead) cut = -1;
    if (cut < 0 && paths) {
      const slash = rest.lastIndexOf('/', width - 1);
      if (slash > lead) {
        out.push(rest.slice(0, slash + 1));
        rest = rest.slice(slash + 1);
        continue;
      }
    }
    // A word longer than the width stands on its own line, as a fill leaves it; the words after it go on.
    if (cut < 0) cut = rest.indexOf(' ', width);
    if (cut <= lead) break;
    out.push(rest.slice(0, cut));
    rest = rest.slice(cut + 1);
  }
  out.push(rest);
  return out;
}

// ---- excerpt forms: the key lines, each quoted on its own ----

/** A line that is already an author's sentence (Markdown spans or emphasis in it): quoted as it stands, not put in another sentence. */
const authored = (l: string) => /`[^`]+`|\*\*\S/.test(l);

/** A code span, as an author writes one; a line holding a backtick itself is quoted bare (a span cannot hold it without doubling). */
const span = (x: string) => (x.includes('`') ? x : `\`${x}\``);

/** Sentences around a quoted line, in English and in the languages users wrote around English messages. */
const SENTENCES: readonly ((x: string) => string)[] = [
  (x) => `I get ${span(x)} when I run it.`,
  (x) => `It fails with ${x}`,
  (x) => `It fails with ${span(x)}.`,
  (x) => `The tool says "${x}" and stops.`,
  (x) => `After a few minutes it prints ${span(x)} and exits.`,
  (x) => `Any idea why I'm seeing ${span(x)}?`,
  (x) => `Same result as before: ${x}`,
  (x) => `実行すると ${span(x)} というエラーが出ます。`,
  (x) => `运行时报错：${span(x)}`,
  (x) => `실행하면 ${span(x)} 오류가 발생합니다.`,
  (x) => `Ao executar, recebo o erro ${span(x)}.`,
  (x) => `Beim Ausführen erscheint ${span(x)}.`,
  (x) => `Al ejecutarlo obtengo ${span(x)}.`,
  (x) => `При запуске получаю ошибку ${span(x)}.`,
];

/** The same languages' words before a pasted block. */
const INTROS = [
  'Here is the output:',
  'Full log below.',
  '実行結果は以下の通りです：',
  '运行输出如下：',
  '실행 결과는 다음과 같습니다:',
  'Saída do comando:',
  'Die Ausgabe:',
  'La salida completa:',
  'Вывод команды:',
];
const OUTROS = [
  'Thanks in advance.',
  'Any help is appreciated.',
  'よろしくお願いします。',
  '谢谢！',
  '감사합니다.',
  'Obrigado!',
  'Danke!',
  '¡Gracias!',
  'Спасибо.',
];

/** A key line in a sentence, one paragraph each. */
function prose(r: Rand): QuoteForm {
  const k = Math.floor(r() * SENTENCES.length);
  return { label: `prose #${k}`, family: 'excerpt', apply: (ls) => ls.map((l) => (authored(l) ? l : SENTENCES[k](l.trim()))).join('\n\n') };
}

/** A sentence quoting the line in a code span, hard-wrapped by the author at 60–80 columns (the span broken with it). */
function wrappedSpan(r: Rand): QuoteForm {
  const width = 60 + Math.floor(r() * 21);
  const before = pick(r, [
    'On the second attempt the run stopped and the console showed',
    'Running the same command again gives',
    'This time it got further but then',
  ]);
  const after = pick(r, ['and nothing after it.', 'which I do not understand.', 'so I gave up on this model for now.']);
  return {
    label: `wrapped-span ${width}`,
    family: 'excerpt',
    apply: (ls) => ls.map((l) => (authored(l) ? l : wrapLine(`${before} ${span(l.trim())} ${after}`, width, false).join('\n'))).join('\n\n'),
  };
}

/** A Markdown table with the message in one cell (in backticks or not; a pipe in it escaped, as GFM requires). */
function tableRow(r: Rand): QuoteForm {
  const ticks = r() < 0.5;
  const cells = pick(r, [
    ['Attempt', 'Result'],
    ['#', 'Message', 'Notes'],
    ['Modelo', 'Erro', 'Mudança'],
    ['モデル', 'エラー'],
  ]);
  const col = cells.length === 2 ? 1 : 1;
  return {
    label: `table ${cells.length} columns${ticks ? ' ticks' : ''}`,
    family: 'excerpt',
    apply: (ls) =>
      [
        `| ${cells.join(' | ')} |`,
        `|${cells.map(() => '---').join('|')}|`,
        ...ls.map((l, i) => {
          const x = l.trim().replace(/\|/g, '\\|');
          const row = cells.map((_, c) => (c === col ? (ticks ? span(x) : x) : c === 0 ? `${i + 1}` : 'same as before'));
          return `| ${row.join(' | ')} |`;
        }),
      ].join('\n'),
  };
}

/** A bullet or numbered list item per line (`- `, `* `, `1. `, `2) `), in backticks or not. */
function listItem(r: Rand): QuoteForm {
  const style = pick(r, ['-', '*', '1.', '1)'] as const);
  const ticks = r() < 0.4;
  const mark = (i: number) => (style === '1.' ? `${i + 1}.` : style === '1)' ? `${i + 1})` : style);
  return {
    label: `list ${style}${ticks ? ' ticks' : ''}`,
    family: 'excerpt',
    apply: (ls) => ls.map((l, i) => `${mark(i)} ${ticks ? span(l.trim()) : l.trim()}`).join('\n'),
  };
}

/** A comment after a line of code, as a script keeps the error it hit (`x = f()  # Error: …`). */
function trailingComment(r: Rand): QuoteForm {
  const [code, mark] = pick(r, [
    ['result = run(args)', '#'],
    ['auto status = infer(frame);', '//'],
    ['    "model_v2_final",', '#'],
  ] as const);
  return { label: `trailing ${mark}`, family: 'excerpt', apply: (ls) => ls.map((l) => `${code}  ${mark} ${l.trim()}`).join('\n') };
}

/** A draw of one form of a family. */
const BLOCK_FORMS = [blockquote, commentBlock, fenced, htmlEscaped, notebookJson, typography, whitespace, hardWrap];
const EXCERPT_FORMS = [prose, wrappedSpan, tableRow, listItem, trailingComment];

/** One form drawn from a seed: a block form, or an excerpt form, nested inside a block form some of the time. */
export function quoteForm(seed: number, family: Family): QuoteForm {
  const r = prng(seed);
  if (family === 'block') {
    const a = pick(r, BLOCK_FORMS)(r);
    // Forms inside forms: a scraped forum post's blockquote, a notebook's output with curly quotes.
    if (r() < 0.3) {
      const b = pick(
        r,
        BLOCK_FORMS.filter((f) => f !== hardWrap && f !== notebookJson && f !== fenced),
      )(r);
      return { label: `${b.label} ∘ ${a.label}`, family, apply: (ls) => a.apply(b.apply(ls).split('\n')) };
    }
    return a;
  }
  const e = pick(r, EXCERPT_FORMS)(r);
  if (r() < 0.3) {
    const outer = pick(r, [htmlEscaped, blockquote, typography])(r);
    return { label: `${e.label} in ${outer.label}`, family, apply: (ls) => outer.apply(e.apply(ls).split('\n')) };
  }
  return e;
}

/**
 * A call chain condensed by its author from a traceback (dfc-corpus unseen4/11's form): the frames'
 * functions and the exception line, joined by `→` or `->` on one line or stepped over lines. Null for a
 * log with no traceback. The frames' paths are gone, so only codes and nodes are required of it.
 */
export function condensedChain(seed: number, lines: string[]): { label: string; text: string; plain: string } | null {
  const r = prng(seed);
  let start = -1;
  for (let i = lines.length - 1; i >= 0; i--)
    if (/^\s*Traceback \(most recent call last\)/.test(lines[i])) {
      start = i;
      break;
    }
  if (start < 0) return null;
  const fns: string[] = [];
  let end = -1;
  for (let i = start + 1; i < lines.length; i++) {
    const f = /^\s*File "[^"]*", line \d+, in (\S+)/.exec(lines[i]);
    if (f) fns.push(f[1]);
    else if (/^[A-Za-z_][\w.]*(?:Error|Exception|Failure|Exit|Interrupt)?:(?: |$)/.test(lines[i]) && !/^\s/.test(lines[i])) {
      end = i;
      break;
    }
  }
  if (end < 0 || fns.length === 0) return null;
  const arrow = pick(r, ['→', '->', '=>']);
  const stepped = r() < 0.5;
  const chain = [...fns.slice(-4), lines[end].trim()];
  const text = stepped ? chain.map((c, i) => `${'  '.repeat(i)}${i ? `${arrow} ` : ''}${c}`).join('\n') : chain.join(` ${arrow} `);
  return { label: `chain ${arrow}${stepped ? ' stepped' : ''}`, text, plain: lines.slice(start, end + 1).join('\n') };
}

/** The lines a report would quote: each diagnostic's line (as the plain log is read), else the last line that says something. */
export function keyLines(log: ShapeLog): string[] {
  const r = readDfcLog(`${log.lines.join('\n')}\n`, { logPath: 'run.log' });
  const nos = [...new Set(r.diagnostics.map((d) => d.logLine))].filter((n) => n >= 1 && n <= log.lines.length).sort((a, b) => a - b);
  // A report quotes a message, not a traceback's frame or code line (indented): those are left out.
  const said = (n: number) => /^\S/.test(log.lines[n - 1]);
  // A traceback's header is not what a report quotes: its exception line is (the next line at the margin).
  const quoted = (n: number) => {
    if (!/^Traceback \(most recent call last\)/.test(log.lines[n - 1])) return n;
    for (let k = n; k < log.lines.length; k++) if (/^\S/.test(log.lines[k])) return k + 1;
    return -1;
  };
  const picked = [...new Set(nos.map(quoted))]
    .filter((n) => n > 0 && said(n) && !/^Traceback \(most recent call last\)/.test(log.lines[n - 1]))
    .map((n) => log.lines[n - 1]);
  if (picked.length) return picked.slice(0, 6);
  const last = [...log.lines].reverse().find((l) => /^\S/.test(l) && !/^Traceback \(most recent call last\)/.test(l));
  return last ? [last] : [];
}

export interface FormPair {
  log: string;
  form: string;
  family: Family | 'chain';
  /** The reading of the plain text and of the quoted one, on the fields the family requires. */
  plain: Reading;
  quoted: Reading;
}

/** The fields an excerpt must keep: codes with severity and nodes; and no failure where plain there is none. */
function excerptView(x: Reading): { codes: string[]; nodes: string[]; failed: boolean } {
  return { codes: x.codes, nodes: x.nodes, failed: x.outcome === 'failed' };
}

export interface FormRun {
  pairs: number;
  differ: string[];
  /** Pairs per family, and how many of them differ. */
  byFamily: Record<string, { pairs: number; differ: number }>;
}

/**
 * Every log through `perLog` block forms and `perLog` excerpt forms drawn from `seed` (and one condensed
 * chain where the log has a traceback): the pairs whose reading changed on the fields their family requires.
 */
export function runForms(logs: ShapeLog[], seed: number, perLog: number): FormRun {
  const differ: string[] = [];
  const byFamily: Record<string, { pairs: number; differ: number }> = {};
  let pairs = 0;
  const count = (family: string, same: boolean, msg: () => string) => {
    pairs++;
    const f = (byFamily[family] ??= { pairs: 0, differ: 0 });
    f.pairs++;
    if (!same) {
      f.differ++;
      differ.push(msg());
    }
  };
  logs.forEach((log) => {
    // Each log's draws depend on its name, not its place in the list: adding a half changes no other log's forms.
    const n = nameHash(log.name);
    const plain = reading(`${log.lines.join('\n')}\n`);
    const keys = keyLines(log);
    const plainKeys = keys.length ? excerptView(reading(`${keys.join('\n')}\n`)) : null;
    for (let k = 0; k < perLog; k++) {
      const s = (seed * 1_000_003 + n + k * 131) >>> 0;
      const block = quoteForm(s, 'block');
      const quoted = reading(`${block.apply(log.lines)}\n`);
      count(
        'block',
        JSON.stringify(quoted) === JSON.stringify(plain),
        () => `${log.name} [block ${s}: ${block.label}]: ${JSON.stringify(quoted)} ≠ ${JSON.stringify(plain)}`,
      );
      if (!plainKeys) continue;
      const ex = quoteForm(s ^ 0x5bd1e995, 'excerpt');
      const got = excerptView(reading(`${ex.apply(keys)}\n`));
      const same =
        JSON.stringify(got.codes) === JSON.stringify(plainKeys.codes) &&
        JSON.stringify(got.nodes) === JSON.stringify(plainKeys.nodes) &&
        (plainKeys.failed || !got.failed);
      count('excerpt', same, () => `${log.name} [excerpt ${s}: ${ex.label}]: ${JSON.stringify(got)} ≠ ${JSON.stringify(plainKeys)}`);
    }
    const chain = condensedChain((seed * 7919 + n) >>> 0, log.lines);
    if (chain) {
      const a = excerptView(reading(`${chain.plain}\n`));
      const b = excerptView(reading(`${chain.text}\n`));
      const same = JSON.stringify(a.codes) === JSON.stringify(b.codes) && JSON.stringify(a.nodes) === JSON.stringify(b.nodes) && (a.failed || !b.failed);
      count('chain', same, () => `${log.name} [${chain.label}]: ${JSON.stringify(b)} ≠ ${JSON.stringify(a)}`);
    }
  });
  return { pairs, differ, byFamily };
}

/** FNV-1a of a log's name: its draws, whatever else the list holds. */
function nameHash(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export { shapeLogs };
