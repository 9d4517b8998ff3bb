// Error lines and Python tracebacks → diagnostics. A traceback is collected until its exception
// line; chained tracebacks ("During handling of the above exception…") are one error.
import type { LogLine } from './lines';
import { level, withoutLevel } from './markers';
import type { ReaderState } from './state';
import type { DfcDiagnostic, DfcExit, StageName } from './types';

export class ErrorCollector {
  private readonly out: DfcDiagnostic[] = [];
  private failed: StageName | null = null;
  private inTraceback = false;

  constructor(private readonly state: ReaderState) {}

  line(l: LogLine): DfcDiagnostic[] {
    const t = l.text;
    if (/^Traceback \(most recent call last\):/.test(t)) {
      this.inTraceback = true;
      return [];
    }
    if (this.inTraceback) {
      if (/^\s/.test(t) || t === '') return [];
      this.inTraceback = false;
      const m = /^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt)):\s?(.*)$/.exec(t);
      if (m) return this.add(l, m[1].split('.').pop()!, m[2]);
    }
    if (level(t) === 'error') return this.add(l, 'error', withoutLevel(t));
    return [];
  }

  private add(l: LogLine, kind: string, message: string): DfcDiagnostic[] {
    if (!this.failed) this.failed = this.state.stageForError();
    const d: DfcDiagnostic = {
      path: this.state.ctx.logPath,
      line: l.no,
      column: 1,
      endLine: l.no,
      endColumn: l.raw.length + 1,
      severity: 'error',
      code: 'dfc/unrecognised-error',
      message: `${kind}: ${message}`,
      logLine: l.no,
      confidence: 'low',
    };
    this.out.push(d);
    return [d];
  }

  failedStage(): StageName | null {
    return this.failed;
  }

  diagnostics(): DfcDiagnostic[] {
    return [...this.out];
  }

  finish(_exit: DfcExit | undefined, _lastLine: number): DfcDiagnostic[] {
    return [...this.out];
  }
}
