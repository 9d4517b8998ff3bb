// The DFC log reader: feed it console output as it arrives (`push`), get live events back, and a
// report at any time (`report`) or when the run ends (`end`). It reads the DFC's own output — the
// `hailo parser|optimize|compiler` CLI, `hailomz compile`, Python-API scripts; DFC 3.x and 5.x —
// so it explains logs of runs it never started. Pure: no I/O, no vscode.
import { LineSplitter, type LogLine } from './lines';
import { Margin, normalise } from './normalise';
import { ReaderState } from './state';
import type { DfcEvent, DfcExit, DfcLogContext, DfcReport } from './types';

export class DfcLogReader {
  private readonly splitter = new LineSplitter();
  private readonly margin = new Margin();
  private readonly state: ReaderState;
  private ended: DfcReport | undefined;

  constructor(context: DfcLogContext = {}) {
    this.state = new ReaderState(context);
  }

  /** Reads a chunk (split anywhere); returns what happened in the lines it completed. */
  push(chunk: string): DfcEvent[] {
    if (this.ended) throw new Error('DfcLogReader: push after end');
    return this.feed(this.splitter.push(chunk));
  }

  /** The run is over: reads the unterminated last line, decides the outcome, returns the report. */
  end(exit?: DfcExit): DfcReport {
    if (this.ended) return this.ended;
    this.feed(this.splitter.flush());
    this.ended = this.state.finish(exit).report;
    return this.ended;
  }

  /** What the log shows so far (stages still running are `running`, outcome `incomplete`). */
  report(): DfcReport {
    return this.ended ?? this.state.snapshot();
  }

  private feed(lines: LogLine[]): DfcEvent[] {
    const events: DfcEvent[] = [];
    // One normalisation step: foreign logger prefixes off, the level as the DFC writes it (normalise.ts).
    for (const line of lines) {
      // A pasted block's own indentation first (a notebook cell's), then the prefixes.
      const text = this.margin.take(line.text);
      const n = normalise(text);
      if (n !== null && n.text !== line.text) this.state.line({ ...line, text: n.text, relayedLevel: n.relayedLevel }, events);
      else this.state.line(text === line.text ? line : { ...line, text }, events);
    }
    return events;
  }
}

/** Reads a whole log at once. */
export function readDfcLog(text: string, context: DfcLogContext = {}, exit?: DfcExit): DfcReport {
  const r = new DfcLogReader(context);
  r.push(text);
  return r.end(exit);
}
