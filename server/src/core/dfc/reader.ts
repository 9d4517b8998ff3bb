// The DFC log reader: feed it console output as it arrives (`push`), get live events back, and a
// report at any time (`report`) or when the run ends (`end`). It reads the DFC's own output — the
// `hailo parser|optimize|compiler` CLI, `hailomz compile`, Python-API scripts; DFC 3.x and 5.x —
// so it explains logs of runs it never started. Pure: no I/O, no vscode.
import { pushAll } from '../common/arrays';
import { LineSplitter, type LogLine } from './lines';
import { QuoteForms, Unwrap, type Decided } from './forms';
import { isFatalSignalLine } from './errors';
import { LogShape } from './logShape';
import { Margin, mayHoldPrompt, normalise, SHELL_PROMPT } from './normalise';
import { classifyMarker, withoutLevel } from './markers';
import { ReaderState } from './state';
import { allocatorIteration, iterationHeadKey } from './routes';
import type { DfcEvent, DfcExit, DfcLogContext, DfcReport } from './types';

export class DfcLogReader {
  private readonly splitter = new LineSplitter();
  private readonly margin = new Margin();
  /** The forms the log is quoted in (HTML, a notebook's JSON, typography), undone first (forms.ts). */
  private readonly forms = new QuoteForms();
  /** An author's hard wrap joined (forms.ts); null for a live console, whose lines are never held. */
  private readonly unwrap: Unwrap | null;
  /** The log's own line template, learned from its lines (logShape.ts). */
  private readonly shape: LogShape<LogLine>;
  private readonly state: ReaderState;
  /** A Markdown code span an author's prose opened and wrapped: its lines so far (normalised). */
  private span: LogLine[] = [];
  private ended: DfcReport | undefined;

  constructor(context: DfcLogContext = {}) {
    this.state = new ReaderState(context);
    // A live console's lines are read as they come: none waits for the lines after it (types.ts `live`).
    this.shape = new LogShape<LogLine>({ hold: !context.live });
    this.unwrap = context.live ? null : new Unwrap();
  }

  /** Reads a chunk (split anywhere); returns what happened in the lines it completed. */
  push(chunk: string): DfcEvent[] {
    if (this.ended) throw new Error('DfcLogReader: push after end');
    const events: DfcEvent[] = [];
    this.splitter.each(chunk, (raw) => this.take(raw, events));
    return events;
  }

  /** The run is over: reads the unterminated last line, decides the outcome, returns the report. */
  end(exit?: DfcExit): DfcReport {
    return this.finish(exit).report;
  }

  /**
   * `end`, plus the events of every line read only now — the unterminated last line, lines a
   * template or a code span held back, errors held for their cause lines — so a live consumer
   * (the compile session's stage lines) misses none of them.
   */
  finish(exit?: DfcExit): { report: DfcReport; events: DfcEvent[] } {
    if (this.ended) return { report: this.ended, events: [] };
    const events = this.feed(this.splitter.flush());
    for (const d of this.shape.flush()) this.decided(d, events);
    this.unwrap?.flush(this.readOne, events);
    for (const held of this.span.splice(0)) this.state.line(held, events);
    const done = this.state.finish(exit);
    pushAll(events, done.events);
    this.ended = done.report;
    return { report: this.ended, events };
  }

  /** What the log shows so far (stages still running are `running`, outcome `incomplete`). */
  report(): DfcReport {
    return this.ended ?? this.state.snapshot();
  }

  private feed(lines: LogLine[]): DfcEvent[] {
    const events: DfcEvent[] = [];
    for (const raw of lines) this.take(raw, events);
    return events;
  }

  /** One line split off the stream. */
  private take(raw: LogLine, events: DfcEvent[]): void {
    // The empty line of a doubled carriage return (`\r\r\n`, lines.ts endCRs): the editor counts it, the log never wrote it.
    if (raw.doubled) return;
    // The allocator's iteration line: the forms and the margin only note it, its template head is known (routes.ts).
    const it = raw.raw === raw.text ? allocatorIteration(raw.text) : null;
    if (it) {
      this.forms.plain();
      this.margin.atMargin();
      this.shape.each(raw, raw.text, this.decided, events, iterationHeadKey(it));
      return;
    }
    // One normalisation step: foreign logger prefixes off, the level as the DFC writes it (normalise.ts).
    // A pasted block's own indentation first (a notebook cell's), then the log's own template, then the listed prefixes.
    const text = this.forms.take(raw.text);
    const line = this.forms.aside ? { ...raw, text, aside: true } : text === raw.text ? raw : { ...raw, text };
    this.shape.each(line, this.margin.take(line.text), this.decided, events);
  }

  /** A line the log's template decided: to the hard-wrap step, or read at once (a live console is never hard-wrapped). */
  private readonly decided = (d: Decided, events: DfcEvent[]): void => {
    if (this.unwrap) this.unwrap.push(d, this.readOne, events);
    else this.readOne(d, events);
  };

  /** A line as the steps before left it: normalised, a table row's cells, a code span's lines, then read. */
  private readonly readOne = ({ item: line, text, cut }: Decided, events: DfcEvent[]): void => {
    // Asked again where it leaves the hard-wrap step (a line joined to it goes on past the allocator's words), at the
    // margin, with no template cut and no escape in its raw text, and with no code span open: read as progress (routes.ts).
    const it = cut === null && text === line.text && line.raw === text && this.span.length === 0 ? allocatorIteration(text) : null;
    if (it) {
      this.state.allocatorIteration(line, it, events);
      return;
    }
    let n = cut ? normalise(cut.rest, cut) : normalise(text);
    // A table's cell quoting a line in a code span (normalise.ts took the span out of the row): GFM escapes a pipe in a cell
    // as `\|`, inside a span too, so the line's own pipes (docker compose's `name  | `, a shell's `| grep`) are read unescaped.
    if (n !== null && n.text.includes('\\|') && !TABLE_ROW.test(n.text)) {
      const row = cut ? cut.rest : text;
      if (TABLE_ROW.test(row)) {
        const u = row.replace(ESCAPED_PIPE, '|');
        n = (cut ? normalise(u, cut) : normalise(u)) ?? n;
      }
    }
    const read =
      n !== null && n.text !== line.text
        ? {
            ...line,
            text: n.text,
            relayedLevel: n.relayedLevel,
            said: n.said,
            ...(cut ? { templated: true } : {}),
            ...(EMPTIED.test(n.text) ? { written: cut ? cut.rest : text } : {}),
          }
        : text === line.text
          ? line
          : { ...line, text };
    // Most lines are no table row and open no span: read at once, without the arrays of either step.
    if (read.text.length < 5 || !TABLE_ROW.test(read.text)) this.spanned(read, events);
    else for (const c of tableCells(read)) this.spanned(c, events);
  };

  private spanned(l: LogLine, events: DfcEvent[]): void {
    if (this.span.length === 0 && (l.overwritten || backticks(l.text) % 2 === 0)) this.state.line(l, events);
    else for (const s of this.spans(l)) this.state.line(s, events);
  }

  /**
   * Prose that quotes a message in a Markdown code span wraps it like any sentence (`…compilation hit
   * \`Memory units` / `capacity exceeded (…)\` on a single node`, dfc-corpus unseen4/20): a line whose
   * backticks leave a span open is held until a line within SPAN_LINES closes it, and the span's lines
   * are read as one line at the first one's place. A span nobody closes (the compiler's own
   * `Assertion \`x' failed`) releases its lines as they were.
   */
  private spans(l: LogLine): LogLine[] {
    const ticks = backticks(l.text);
    if (this.span.length === 0) {
      if (ticks % 2 === 1 && !l.overwritten && OPENS_SPAN.test(l.text)) {
        this.span.push(l);
        return [];
      }
      return [l];
    }
    // A shell's prompt is no prose: a span still open there was none (the compiler's `Assertion \`x' failed`), and the
    // command after it is another run's, which no quote of the run before joins (state.ts beginRun).
    if (mayHoldPrompt(l.text) && SHELL_PROMPT.test(withoutLevel(l.text).trim())) return [...this.span.splice(0), l];
    this.span.push(l);
    if (ticks % 2 === 1) {
      const [first, ...rest] = this.span.splice(0);
      const unrelayed = (r: LogLine) => (r.relayedLevel ? r.text.replace(/^\[\w+\] /, '') : r.text);
      // A line of a quote's own columns (`15:04:08.840] [4626] [HailoRT] [error] [file.cpp:34]`) that normalise.ts emptied is
      // the quoted line's text: inside the span it is read as written, less a quoted block's marks.
      const inside = (r: LogLine) => (r.written !== undefined && !r.relayedLevel ? r.written.replace(BLOCK_MARKS, '') : unrelayed(r));
      const text = [unrelayed(first).trimEnd(), ...rest.map((r) => inside(r).trim())].join(' ');
      // The joined line is read as the author wrote it: the span's backticks go as normalise.ts takes them off a line —
      // behind a relay's level too (its tag is no DFC line's own), which the joined line then keeps.
      const n = normalise(text);
      const read = n?.text ?? text;
      const tag = first.relayedLevel ? (/^\[\w+\] /.exec(first.text)?.[0] ?? '') : '';
      const joined = tag && !/^\[\w+\] /.test(read) ? `${tag}${read}` : read;
      // The author's words around the span are the joined line's as written (`said`), as a line's own are.
      return [{ ...first, text: joined, length: first.length, ...(n?.said !== undefined ? { said: n.said } : {}) }];
    }
    if (this.span.length < SPAN_LINES) return [];
    return this.span.splice(0);
  }
}

/**
 * A Markdown table row that quotes a log's lines in its cells (`| 2 | \`[HailoRT] [error] …\` | same as before |`,
 * docs/research/dfc-unseen-misses.md): each cell of several words is read as a line of its own, at the row's place,
 * after the row's single-word cells (`| IndexError |`, a class alone in a results table's cell, errors.ts) kept as a row.
 * The DFC's own utilisation table (`| Cluster | … |`, `| cluster_0 | … |`, `| Total | … |`) stays whole.
 */
function tableCells(l: LogLine): LogLine[] {
  const t = l.text;
  if (t.length < 5 || !TABLE_ROW.test(t)) return [l];
  const cells = t
    .trim()
    .slice(1, -1)
    .split(/(?<!\\)\|/)
    .map((c) => c.trim().replace(/\\\|/g, '|'));
  // A cell is a line of its own when it has several words, or is one the shell prints alone: a signal's name in its locale,
  // the `Killed` of SIGKILL or the `Terminated` of SIGTERM (markers.ts `killed`; a table of attempts, `| 1 | Killed |`).
  const isLine = (c: string) => /\S\s+\S/.test(c) || isFatalSignalLine(c) || classifyMarker(c)?.kind === 'killed';
  if (cells.length < 2 || DFC_TABLE.test(cells[0]) || !cells.some(isLine)) return [l];
  const out: LogLine[] = [];
  const short = cells.filter((c) => !isLine(c));
  if (short.length) out.push({ ...l, text: `| ${short.join(' | ')} |` });
  // Cells stand side by side: an empty line between them, so no cell reads as the one before going on (a message's next line).
  for (const c of cells) if (isLine(c)) out.push({ ...l, text: '' }, { ...l, text: normalise(c)?.text ?? c, said: c });
  return out;
}
const TABLE_ROW = /^\s*\|.*\|\s*$/;
const ESCAPED_PIPE = /\\\|/g;
/** The first cell of the DFC's own utilisation table's rows (markers.ts classifySummaryLine). */
const DFC_TABLE = /^(?:cluster(?:_\d+)?|total)$/i;

/** A line normalise.ts left nothing of but a level tag. */
const EMPTIED = /^\s*(?:\[\w+\]\s*)?$/;
/** A quoted block's marks before a line (`> > `, `# `, `// `). */
const BLOCK_MARKS = /^\s{0,8}(?:(?:>|#{1,3}|\/\/) ?|-- ){1,8}/;

/** A code span is opened by a backtick before a word or a quoted class (`` `Memory ``, `` `AccelerasInitializationError: ``). */
const OPENS_SPAN = /(?:^|[\s(\[:,;])`[^`\s][^`]*$/;
/** A wrapped span is closed within this many lines (prose wraps at 60–100 columns; a message with its logger's prefix is a few lines). */
const SPAN_LINES = 8;

function backticks(s: string): number {
  let n = 0;
  for (let i = s.indexOf('`'); i >= 0; i = s.indexOf('`', i + 1)) n++;
  return n;
}

/** Reads a whole log at once. */
export function readDfcLog(text: string, context: DfcLogContext = {}, exit?: DfcExit): DfcReport {
  const r = new DfcLogReader(context);
  r.push(text);
  return r.end(exit);
}
