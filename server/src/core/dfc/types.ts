// What the DFC log reader produces. `DfcReport` is exactly the `--json` document of
// `hailo-tools dfc-log` (issue 8); `hailo-tools compile` extends it (`CompileReport` adds
// `outputs` and `container`) without changing any field here. Positions are 1-based, like
// every JSON document the CLI prints. Pure types: no I/O, no vscode.

export type StageName = 'parse' | 'optimize' | 'compile';
/** `running`: started, and the log shows no end (a snapshot mid-run, or a log that just stops). */
export type StageStatus = 'ok' | 'failed' | 'not-reached' | 'running';
export type Outcome = 'success' | 'failed' | 'killed' | 'incomplete';
/**
 * `docker`: docker itself refused (exit 125, daemon/permission/image errors) before the DFC ran.
 * `unknown`: the run failed, but neither a stage line, the error, its traceback nor the command
 * says in which stage (a log excerpt with no marker) — never guessed.
 */
export type FailedStage = StageName | 'docker' | 'unknown' | null;
export type DfcSeverity = 'error' | 'warning' | 'info';
/** How sure the explanation is, from its evidence (docs/dfc-log.md lists the evidence per code). */
export type Confidence = 'high' | 'medium' | 'low';

export const STAGES: readonly StageName[] = ['parse', 'optimize', 'compile'];

export interface StageReport {
  name: StageName;
  status: StageStatus;
  /** From the DFC's own timing lines when it prints them, else null. */
  seconds: number | null;
}

/** One context's `Total` row (`<net>_context_N utilization:` table), percent. */
export interface ContextUtilization {
  /** 0-based, as the DFC names it (`context_0`). */
  context: number;
  control: number | null;
  compute: number | null;
  memory: number | null;
}

/** The resource summary a successful compile prints. Every field null when the log lacks it. */
export interface CompileSummary {
  /** Number of contexts of the compiled network (`... contexts` / context lines). */
  contexts: number | null;
  /**
   * Overall utilisation, percent: a single-context network's `Total` row; for a multi-context
   * network the mean of its contexts' `Total` rows (the DFC prints no network-wide figure; the
   * contexts run one after another on the same device).
   */
  controlUtilization: number | null;
  computeUtilization: number | null;
  memoryUtilization: number | null;
  /** `Successful Compilation (compilation time: …)` / `(duration: …)`, seconds. */
  compilationSeconds: number | null;
  /** `Successful Mapping (allocation time: …)` / `Successful Partition and Allocation (duration: …)`, seconds. */
  allocationSeconds: number | null;
  /** Per-context `Total` rows of a multi-context compile, in context order (empty for one table). */
  contextUtilization: ContextUtilization[];
}

/** Machine-applicable fixes a client can offer as code actions. */
export type DfcFix =
  /** Re-run with these end nodes (the parser's recommendation). */
  | { kind: 'endNodes'; nodes: string[] }
  /** Replace a node/tensor name the user passed with this node name. */
  | { kind: 'replaceName'; from: string; to: string }
  /** Change a script argument on the diagnostic's line, e.g. batch_size=8 → 1. */
  | { kind: 'scriptEdit'; line: number; column: number; endColumn: number; newText: string }
  /** A setting to change (e.g. the container's memory limit). */
  | { kind: 'setting'; key: string };

export interface DfcDiagnostic {
  /** The file the diagnostic is about: the `.alls` script, the ONNX model, or the log itself. */
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: DfcSeverity;
  /** Stable code, `dfc/...` (docs/dfc-log.md). */
  code: string;
  /** Explanation and fix, one paragraph. */
  message: string;
  /** Set when the diagnostic is on an ONNX node (then `path` is the model). */
  node?: string;
  /** 1-based line in the log where the evidence is (always set). */
  logLine: number;
  confidence: Confidence;
  fix?: DfcFix;
  /** Log lines to quote in a bug report (internal assertions, unknown tracebacks). */
  excerpt?: string[];
}

/** What a saved file is, by the line that says it was written: a HAR, a HEF, an ONNX model, a folder (an exporter's), another file. */
export type SavedKind = 'har' | 'hef' | 'onnx' | 'directory' | 'file';

/**
 * A file or folder the run says it wrote (`Saved HAR to: …`, `Saved HEF to: …`, hailomz's `HEF file written to …`,
 * Ultralytics' `export success …, saved as '…'`): the path exactly as the log prints it — relative to wherever the run
 * ran, often inside its container — never resolved, opened or checked.
 */
export interface SavedFile {
  kind: SavedKind;
  path: string;
  /** 1-based line of the log that says it (the last one, when the run wrote the same path again). */
  logLine: number;
}

export interface DfcReport {
  outcome: Outcome;
  failedStage: FailedStage;
  stages: StageReport[];
  dfcVersion: string | null;
  hailortVersion: string | null;
  hwArch: string | null;
  /** The network name when the log shows it. */
  network: string | null;
  summary: CompileSummary;
  recommendedEndNodes: string[];
  diagnostics: DfcDiagnostic[];
  /** What the run says it saved, in the order it last wrote each (empty when the log says nothing of it). */
  saved: SavedFile[];
}

/** How the process ended, when the caller knows (the runner does; a log file alone does not). */
export interface DfcExit {
  code: number | null;
  signal?: string | null;
  /** The user cancelled the run (the reader reports `killed`, with no memory diagnosis). */
  cancelled?: boolean;
  /**
   * The caller stopped the run itself — the user's cancel or its own deadline — so a 137/143 is its stop, not the
   * memory limit's or anyone else's (`cancelled` is `stoppedBy: 'user'`). Only the caller knows: a log cannot say it.
   */
  stoppedBy?: 'user' | 'timeout';
}

/** Who stopped the run, when its caller says it stopped it itself. */
export function stoppedByCaller(exit: DfcExit | undefined): 'user' | 'timeout' | null {
  return exit?.stoppedBy ?? (exit?.cancelled ? 'user' : null);
}

/** Events `push` returns while reading, for live progress. */
export type DfcEvent =
  | { kind: 'header'; dfcVersion: string | null; hailortVersion: string | null; hwArch: string | null; logLine: number }
  | { kind: 'stageStarted'; stage: StageName; logLine: number }
  | { kind: 'stageFinished'; stage: StageName; status: 'ok' | 'failed'; seconds: number | null; logLine: number }
  /** A tqdm bar or an allocation step: `label` as printed (e.g. `Calibration`, `Epoch 1/4`). */
  | { kind: 'progress'; stage: StageName | null; label: string; done: number; total: number | null; logLine: number }
  | { kind: 'warning'; text: string; logLine: number }
  | { kind: 'diagnostic'; diagnostic: DfcDiagnostic };

/** A 1-based range (end column exclusive), as every JSON document of the CLI prints them. */
export interface Place {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

/** What the model graph offers the reader: node names, and which node produces a tensor. */
export interface OnnxNodeIndex {
  hasNode(name: string): boolean;
  /** The name of the node whose output is `tensor` ('' for an unnamed node), or undefined. */
  producerOf(tensor: string): string | undefined;
  /** Op type of a node, for messages. */
  opOf?(name: string): string | undefined;
  /**
   * Where a node is shown (the CLI and VS Code use the node's name on its line of the ONNX graph
   * view, `hailo-onnx:<model>.onnx.graph`); line 1 column 1 when absent.
   */
  placeOf?(name: string): Place | undefined;
}

/** Everything the reader may know besides the log. All optional: a log alone is explained too. */
export interface DfcLogContext {
  /** Path printed for diagnostics on the log (default `log`). */
  logPath?: string;
  /** The model script, for diagnostics on its lines (path for the report; text to locate commands). */
  allsPath?: string;
  allsText?: string;
  /** The ONNX model, for diagnostics on its nodes. */
  onnxPath?: string;
  onnx?: OnnxNodeIndex;
  /**
   * The console of a run being watched as it prints (the compile session): no line waits for the
   * lines after it, so a stage's event comes with its line — a relay's template is then learned from
   * the lines before only (logShape.ts). A pasted or saved log is read whole and may look ahead.
   */
  live?: boolean;
}

/** A kind of evidence of the stage a failure belongs to (stageEvidence.ts weighs them). */
export type StageClueKind = 'running' | 'catalogue' | 'error' | 'ran' | 'call' | 'command' | 'said';

/** One piece of evidence: the stage it points at and the reason, in words a report can give. */
export interface StageClue {
  stage: StageName;
  kind: StageClueKind;
  reason: string;
}

/**
 * What the error collector (errors.ts) and its explainer (explain.ts) read of the reader's state,
 * and the two things they ask of it; `ReaderState` (state.ts) is the one implementation.
 */
export interface ReaderView {
  readonly ctx: DfcLogContext & { logPath: string };
  readonly currentStage: StageName | null;
  readonly commandEndNodes: string[];
  readonly recommendedEndNodes: string[];
  /** The model script the DFC loaded (`Loading model script commands to NET from PATH`). */
  readonly scriptPathFromLog: string | null;
  readonly lastProgressLabel: string | null;
  readonly lastProgress: { label: string; done: number; total: number | null } | null;
  readonly killedLine: number | null;
  /** The signal the `killed` line names: null for SIGKILL (`Killed`). */
  readonly killedBy: 'SIGINT' | 'SIGTERM' | null;
  readonly promptLine: number | null;
  /** What the user answered the parser's `(y/n)` question, when the log shows it. */
  readonly promptAnswer: 'y' | 'n' | null;
  /** The DFC recommended these end nodes: record them (once each). */
  recommend(nodes: string[]): void;
  /** The stage an error belongs to (state.ts says how it decides). */
  stageForError(evidence?: StageName | null, catalogue?: StageName | null): StageName | 'unknown';
  /** The same, with the evidence that decided it (stageEvidence.ts), null when the log shows none. */
  stageClue(evidence?: StageName | null, catalogue?: StageName | null): StageClue | null;
  /**
   * The stage a run that did not succeed stopped in — failed or killed alike: where its standing errors place it, else the
   * weighing of everything the log shows (state.ts says how).
   */
  stoppedStage(): StageName | 'unknown';
  /** No DFC command, version header or stage so far: an application's run (pyhailort, GenAI, hailortcli). */
  applicationRun(): boolean;
  /** The run printed its answer or said it succeeded (a tool's result, an application's word that it worked). */
  readonly answered: boolean;
}
