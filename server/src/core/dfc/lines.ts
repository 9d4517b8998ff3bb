// Streaming line splitter for console output: chunks may split anywhere — inside a line, between
// `\r` and `\n`, inside an ANSI escape. Lines end at `\n`, `\r\n` or a lone `\r` (a tqdm frame),
// numbered the way LSP and VS Code count them, so a log-line diagnostic lands on the line the
// editor shows. Memory is bounded: a line longer than MAX_LINE keeps its head only.

export const MAX_LINE = 64 * 1024;

export interface LogLine {
  /** 1-based line number (LSP counting: `\n`, `\r\n` and a lone `\r` each end a line). */
  no: number;
  /** The text as it was, without its terminator (control bytes included, truncated at MAX_LINE). */
  raw: string;
  /** The text without ANSI escapes and other control characters (tabs kept). */
  text: string;
  /** `\r`: a frame a terminal would overwrite (progress bars). */
  overwritten: boolean;
  /** A fence or the author's words after a fenced paste closed (forms.ts QuoteForms.aside): read, but not the run's output. */
  aside?: boolean;
  /** The empty line a doubled carriage return makes (`\r\r\n`, LineSplitter.endCRs): counted, never read. */
  doubled?: boolean;
  /** Length of the raw line in UTF-16 units before any truncation. */
  length: number;
  /** The log's own template (logShape.ts) was cut from it: a record of the log's logger. */
  templated?: boolean;
  /** Its level tag is a relay's (normalise.ts), not the line's own. */
  relayedLevel?: boolean;
  /** The line once a relay's prefixes went, Markdown kept (normalise.ts `said`); absent when there was nothing to take. */
  said?: string;
  /** The line before normalise.ts read it (after the log's template, logShape.ts), when normalise.ts left nothing of it but a level. */
  written?: string;
}

// CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`), and every other escape by ECMA-35's syntax: ESC, intermediate
// bytes 0x20–0x2F, one final byte 0x30–0x7E — the Fe two-byte escapes, the private Fp ones (`ESC 7`/`ESC 8`, DECSC
// and DECRC: apt's progress bar saves and restores the cursor around every line it prints) and the nF designations
// (`ESC ( B`, which `tput sgr0` prints before `ESC [ m` on xterm).
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]?/g;
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/g;
/** CONTROL as a test: most lines have none, and a test costs less than a replacement that finds nothing. */
const HAS_CONTROL = /[\x00-\x08\x0b-\x1f\x7f]/;

/**
 * SGR colour codes whose ESC byte was lost on the way (a web page's or a Markdown file's copy of a coloured console keeps
 * the rest: `[[32minfo[0m] Hailo DFC Version: 3.29.0`, the DFC's coloured level, dfc-corpus unseen27/01; libcamera's
 * `[1;32m INFO[1;37mCamera[1;34mcamera_manager.cpp:325[0mlibcamera v0.3.2+27-7330f29b`, unseen27/03; a Python logger's
 * `[[32mINFO[0m]`, library file id 62168001476): taken off as the escapes they were, only on a line that holds a colour set
 * (`[32m`, `[1;34m`) and, later, its reset (`[0m`, or `[m` where no word goes on from it) — a pair nothing but a colour makes.
 * The bare `[m` of a word (`[multi_io_elements.cpp:135]`) stays, and so does a code behind its ESC written as an escape
 * (`\u001b[32m` in a notebook's JSON, `\033[0m` in source): forms.ts decodes those.
 */
const LOST_SGR_PAIR = /(?<!\\(?:u001[bB]|x1[bB]|033|e))\[\d{1,3}(?:;\d{1,3}){0,4}m.*?(?<!\\(?:u001[bB]|x1[bB]|033|e))\[(?:0?m(?![A-Za-z])|0m)/;
const LOST_SGR = /(?<!\\(?:u001[bB]|x1[bB]|033|e))\[(?:\d{1,3}(?:;\d{1,3}){0,4})?m/g;
const LOST_RESET_WORD = /^\[m[A-Za-z]/;

function stripLostSgr(s: string): string {
  // The pair ends in a reset, `[0m` or `[m`: a line without one (nearly every line) runs no pattern.
  if ((!s.includes('[0m') && !s.includes('[m')) || !LOST_SGR_PAIR.test(s)) return s;
  return s.replace(LOST_SGR, (code, at: number) => (code === '[m' && LOST_RESET_WORD.test(s.slice(at, at + 3)) ? code : ''));
}

export function stripAnsi(s: string): string {
  if (s.includes('\x1b')) return stripLostSgr(s.replace(ANSI, '').replace(CONTROL, ''));
  return stripLostSgr(HAS_CONTROL.test(s) ? s.replace(CONTROL, '') : s);
}

export class LineSplitter {
  private partial = '';
  private partialLength = 0;
  /** Carriage returns that ended the last chunk: a line feed after them makes a line end of them, anything else frames. */
  private pendingCRs = 0;
  private next = 1;

  /** Complete lines in this chunk; the unterminated rest waits for the next chunk or `flush`. */
  push(chunk: string): LogLine[] {
    const out: LogLine[] = [];
    this.each(chunk, (l) => out.push(l));
    return out;
  }

  /**
   * `push`, each line handed on as it is split: a chunk's lines are not all alive at once (a 64 KiB chunk is
   * hundreds of lines, which a collection in their midst would keep — bench/dfc.bench.ts's memory figure).
   */
  each(chunk: string, out: (l: LogLine) => void): void {
    let i = 0;
    const n = chunk.length;
    if (this.pendingCRs > 0) {
      // The `\r`s that ended the last chunk, and any that open this one: what follows them decides.
      while (i < n && chunk.charCodeAt(i) === 13) i++;
      if (i === n) {
        this.pendingCRs += n;
        return;
      }
      const crs = this.pendingCRs + i;
      this.pendingCRs = 0;
      const lf = chunk.charCodeAt(i) === 10;
      this.endCRs(out, crs, lf);
      if (lf) i++;
    }
    // Native indexOf finds the terminators; the scan keeps the nearer of the next \n and \r.
    let nl = chunk.indexOf('\n', i);
    let cr = chunk.indexOf('\r', i);
    while (i < n) {
      if (nl >= 0 && nl < i) nl = chunk.indexOf('\n', i);
      if (cr >= 0 && cr < i) cr = chunk.indexOf('\r', i);
      const j = nl < 0 ? (cr < 0 ? n : cr) : cr < 0 ? nl : Math.min(nl, cr);
      this.append(chunk, i, j);
      if (j >= n) break;
      if (j === nl) {
        this.emit(out, false);
        i = j + 1;
        continue;
      }
      let k = j + 1;
      while (k < n && chunk.charCodeAt(k) === 13) k++;
      if (k === n) {
        this.pendingCRs = k - j; // `\r` at the end of a chunk: `\r\n` or a frame, decided by the next chunk
        i = n;
      } else {
        const lf = chunk.charCodeAt(k) === 10;
        this.endCRs(out, k - j, lf);
        i = lf ? k + 1 : k;
      }
    }
  }

  /**
   * A run of `crs` carriage returns ending the line, then a line feed (`lf`) or more of the line. `\r\n` ends a line; a
   * lone `\r` ends a frame a terminal overwrites (tqdm). `\r\r\n` is a CRLF file's line end converted once more (Python
   * writing `\r\n` to a text-mode file on Windows, a CRLF log pasted through an editor that adds its own): a terminal
   * shows the line as it is, so it is no frame, and the empty line its extra `\r` makes (an editor counts it: LSP) is
   * `doubled`, no line of the log's.
   */
  private endCRs(out: (l: LogLine) => void, crs: number, lf: boolean): void {
    this.emit(out, !lf);
    for (let c = 1; c < crs; c++) this.emit(out, !lf, lf);
  }

  /** The last line when the stream ends without a terminator. */
  flush(): LogLine[] {
    const out: LogLine[] = [];
    const add = (l: LogLine) => out.push(l);
    if (this.pendingCRs > 0) {
      for (let c = 0; c < this.pendingCRs; c++) this.emit(add, true);
      this.pendingCRs = 0;
    } else if (this.partialLength > 0) this.emit(add, false);
    return out;
  }

  /** Line number the next line will get (1-based). */
  get nextLineNumber(): number {
    return this.next;
  }

  private append(s: string, from: number, to: number): void {
    if (to <= from) return;
    const room = MAX_LINE - this.partial.length;
    if (room > 0) this.partial += s.slice(from, Math.min(to, from + room));
    this.partialLength += to - from;
  }

  private emit(out: (l: LogLine) => void, overwritten: boolean, doubled = false): void {
    const raw = this.partial;
    const l: LogLine = { no: this.next++, raw, text: stripAnsi(raw), overwritten, length: this.partialLength };
    if (doubled) l.doubled = true;
    out(l);
    this.partial = '';
    this.partialLength = 0;
  }
}
