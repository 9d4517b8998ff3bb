// The reader's state machine: one call per log line. Stage, header, progress and summary lines
// are recognised here (markers.ts has the patterns); error lines and Python tracebacks go to the
// error classifier (errors.ts), which turns them into diagnostics placed by locate.ts.
import type { LogLine } from './lines';
import { classifyHeader, classifyMarker, classifyProgress, classifySummaryLine, parseDuration } from './markers';
import { ErrorCollector } from './errors';
import {
  STAGES,
  type CompileSummary,
  type DfcDiagnostic,
  type DfcEvent,
  type DfcExit,
  type DfcLogContext,
  type DfcReport,
  type FailedStage,
  type Outcome,
  type StageName,
  type StageStatus,
} from './types';

interface StageState {
  status: StageStatus;
  seconds: number | null;
  startLine: number | null;
}

export class ReaderState {
  readonly ctx: Required<Pick<DfcLogContext, 'logPath'>> & DfcLogContext;
  private stages = new Map<StageName, StageState>(STAGES.map((s) => [s, { status: 'not-reached', seconds: null, startLine: null }]));
  private current: StageName | null = null;
  dfcVersion: string | null = null;
  hailortVersion: string | null = null;
  hwArch: string | null = null;
  network: string | null = null;
  summary: CompileSummary = {
    contexts: null,
    controlUtilization: null,
    computeUtilization: null,
    memoryUtilization: null,
    compilationSeconds: null,
    allocationSeconds: null,
  };
  recommendedEndNodes: string[] = [];
  private readonly errors: ErrorCollector;
  /** `docker` when docker refused before the DFC ran. */
  private dockerFailed = false;
  private killedLine: number | null = null;
  private lastLine = 0;

  constructor(context: DfcLogContext) {
    this.ctx = { ...context, logPath: context.logPath ?? 'log' };
    this.errors = new ErrorCollector(this);
  }

  get currentStage(): StageName | null {
    return this.current;
  }

  line(l: LogLine, events: DfcEvent[]): void {
    this.lastLine = l.no;
    const text = l.text;
    if (l.overwritten || text.includes('%|')) {
      const p = classifyProgress(text);
      if (p) {
        events.push({ kind: 'progress', stage: this.current, label: p.label, done: p.done, total: p.total, logLine: l.no });
        if (l.overwritten) return;
      }
    }
    const h = classifyHeader(text);
    if (h) {
      if (h.dfcVersion) this.dfcVersion = h.dfcVersion;
      if (h.hailortVersion) this.hailortVersion = h.hailortVersion;
      if (h.hwArch) this.hwArch = h.hwArch;
      if (h.network && !this.network) this.network = h.network;
      events.push({ kind: 'header', dfcVersion: this.dfcVersion, hailortVersion: this.hailortVersion, hwArch: this.hwArch, logLine: l.no });
    }
    const m = classifyMarker(text);
    if (m) {
      if ('network' in m && m.network && !this.network) this.network = m.network;
      if (m.kind === 'start') this.start(m.stage, l.no, events);
      else if (m.kind === 'end') this.finishStage(m.stage, 'ok', m.seconds, l.no, events);
      else if (m.kind === 'allocation') {
        this.start('compile', l.no, events);
        this.summary.allocationSeconds = m.seconds;
      } else if (m.kind === 'killed') this.killedLine = l.no;
    }
    const s = classifySummaryLine(text);
    if (s) Object.assign(this.summary, Object.fromEntries(Object.entries(s).filter(([, v]) => v !== null && v !== undefined)));
    if (/^\s*\[?warning\]?/i.test(text) || /^\s*\[warning\]/.test(text)) {
      const w = text.replace(/^\s*\[warning\]\s*/i, '');
      events.push({ kind: 'warning', text: w, logLine: l.no });
    }
    for (const d of this.errors.line(l)) events.push({ kind: 'diagnostic', diagnostic: d });
    if (/^docker: /.test(text) || /Cannot connect to the Docker daemon|permission denied while trying to connect to the Docker daemon/.test(text)) {
      if (!STAGES.some((st) => this.stages.get(st)!.status !== 'not-reached')) this.dockerFailed = true;
    }
  }

  start(stage: StageName, lineNo: number, events: DfcEvent[]): void {
    const idx = STAGES.indexOf(stage);
    // An earlier stage still running when a later one starts has finished (its end line is not always printed).
    for (let i = 0; i < idx; i++) {
      const st = this.stages.get(STAGES[i])!;
      if (st.status === 'running') this.finishStage(STAGES[i], 'ok', null, lineNo, events);
    }
    const s = this.stages.get(stage)!;
    if (s.status === 'running') return;
    s.status = 'running';
    s.startLine = lineNo;
    this.current = stage;
    events.push({ kind: 'stageStarted', stage, logLine: lineNo });
  }

  finishStage(stage: StageName, status: 'ok' | 'failed', seconds: number | null, lineNo: number, events: DfcEvent[]): void {
    const s = this.stages.get(stage)!;
    if (s.status === 'not-reached') this.start(stage, lineNo, events);
    if (s.status !== 'running') return;
    s.status = status;
    if (seconds !== null) s.seconds = seconds;
    if (this.current === stage) this.current = null;
    events.push({ kind: 'stageFinished', stage, status, seconds: s.seconds, logLine: lineNo });
  }

  /** The stage an error belongs to: the running one, else the first not finished. */
  stageForError(): StageName {
    if (this.current) return this.current;
    let last: StageName = 'parse';
    for (const st of STAGES) {
      const s = this.stages.get(st)!;
      if (s.status === 'ok') continue;
      return st;
    }
    return last;
  }

  snapshot(): DfcReport {
    return this.build('incomplete', null, this.errors.diagnostics());
  }

  finish(exit?: DfcExit): DfcReport {
    const diagnostics = this.errors.finish(exit, this.lastLine);
    const events: DfcEvent[] = [];
    const errorStage = this.errors.failedStage();
    let outcome: Outcome;
    let failed: FailedStage = null;
    const signal = exit?.signal ?? null;
    const killed = exit?.cancelled || exit?.code === 137 || signal === 'SIGKILL' || signal === 'SIGTERM' || this.killedLine !== null;
    if (this.dockerFailed || exit?.code === 125) {
      outcome = 'failed';
      failed = 'docker';
    } else if (errorStage) {
      outcome = 'failed';
      failed = errorStage;
      this.finishStage(errorStage, 'failed', null, this.lastLine, events);
    } else if (killed) {
      outcome = 'killed';
      failed = this.current ?? this.stageForError();
      this.finishStage(failed, 'failed', null, this.lastLine, events);
    } else if (exit && exit.code !== null && exit.code !== 0) {
      outcome = 'failed';
      failed = this.current ?? this.stageForError();
      this.finishStage(failed, 'failed', null, this.lastLine, events);
    } else if (this.stages.get('compile')!.status === 'ok' || (exit?.code === 0 && !this.current)) {
      outcome = 'success';
    } else {
      outcome = 'incomplete';
    }
    return this.build(outcome, failed, diagnostics);
  }

  private build(outcome: Outcome, failedStage: FailedStage, diagnostics: DfcDiagnostic[]): DfcReport {
    return {
      outcome,
      failedStage,
      stages: STAGES.map((name) => {
        const s = this.stages.get(name)!;
        return { name, status: s.status, seconds: s.seconds };
      }),
      dfcVersion: this.dfcVersion,
      hailortVersion: this.hailortVersion,
      hwArch: this.hwArch,
      network: this.network,
      summary: { ...this.summary },
      recommendedEndNodes: [...this.recommendedEndNodes],
      diagnostics,
    };
  }
}

export { parseDuration };
