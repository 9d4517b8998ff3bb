// Offset ⇄ position conversion with LSP's line-break rules (`\n`, `\r\n` and a lone `\r`).
import type { Position, Range } from '../common/types';

export class LineIndex {
  /** Offset where each line starts. */
  readonly lineStarts: number[];

  constructor(readonly text: string) {
    const starts = [0];
    if (text.indexOf('\r') < 0) {
      // The common case: indexOf runs in native code.
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    } else {
      const n = text.length;
      for (let i = 0; i < n; i++) {
        const c = text.charCodeAt(i);
        if (c === 10) starts.push(i + 1);
        else if (c === 13) {
          if (text.charCodeAt(i + 1) === 10) i++;
          starts.push(i + 1);
        }
      }
    }
    this.lineStarts = starts;
  }

  get lineCount(): number {
    return this.lineStarts.length;
  }

  positionAt(offset: number): Position {
    const o = Math.max(0, Math.min(offset, this.text.length));
    const starts = this.lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= o) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo, character: o - starts[lo] };
  }

  offsetAt(pos: Position): number {
    if (pos.line < 0) return 0;
    if (pos.line >= this.lineStarts.length) return this.text.length;
    const start = this.lineStarts[pos.line];
    const end = this.lineEnd(pos.line);
    return Math.max(start, Math.min(start + Math.max(0, pos.character), end));
  }

  /** Offset of the end of `line`'s content (before its line break). */
  lineEnd(line: number): number {
    const starts = this.lineStarts;
    if (line + 1 >= starts.length) return this.text.length;
    let end = starts[line + 1] - 1; // the (last) line-break character
    if (this.text.charCodeAt(end) === 10 && end > starts[line] && this.text.charCodeAt(end - 1) === 13) end--;
    return end;
  }

  range(start: number, end: number): Range {
    return { start: this.positionAt(start), end: this.positionAt(end) };
  }
}
