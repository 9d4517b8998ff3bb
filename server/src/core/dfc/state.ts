// The reader's state machine: one call per log line. Stage, header, progress and summary lines
// are recognised here (markers.ts has the patterns); error lines and Python tracebacks go to the
// error collector (errors.ts), whose explanations (explain.ts) place each diagnostic.
import { failureIn, windowClosedIn } from './failureWords';
import { matchDfcMessage } from '../common/dfcMessages';
import type { LogLine } from './lines';
import {
  classifyCommand,
  authorCured,
  classifyHeader,
  classifyMarker,
  dpkgPackageStep,
  classifyProgress,
  classifySummaryLine,
  emulatorInferenceEnded,
  iterationProgress,
  level,
  saysProblem,
  withoutLevel,
  type Progress,
  type RunCommand,
} from './markers';
import { ErrorCollector } from './errors';
import {
  STAGES,
  stoppedByCaller,
  type CompileSummary,
  type ContextUtilization,
  type DfcDiagnostic,
  type DfcEvent,
  type DfcExit,
  type DfcLogContext,
  type DfcReport,
  type FailedStage,
  type Outcome,
  type ReaderView,
  type SavedFile,
  type StageName,
  type StageStatus,
} from './types';
import { pushAll } from '../common/arrays';
import { commandClue, harStageIn, weighStage, type StageClue } from './stageEvidence';
import { mayHoldPrompt, SHELL_PROMPT } from './normalise';
import { KERNEL_DEVICE_LINE } from './kernelSplat';

const MAY_PROGRESS = /%\||Epoch |\d \[|\d ━|Context:|Starting /;
const MAY_HEADER = /Version|hw[_-]arch|runner/;
/**
 * Exit statuses that mean a signal ended the program: a shell reports a command a fatal signal N ended as 128+N
 * (bash(1), EXIT STATUS) — 130 SIGINT (Ctrl-C), 137 SIGKILL (the OOM killer, `kill -9`), 143 SIGTERM (`kill`,
 * `docker stop`, `timeout`). Python ends on an uncaught KeyboardInterrupt the same way (exit 130).
 */
const SIGNAL_EXITS: ReadonlySet<number> = new Set([130, 137, 143]);
/**
 * The lines every HailoRT session opens with before it does anything (vdevice.cpp's `Creating vdevice`, device.cpp's
 * `OS Version`, control.cpp's firmware version, `VDevice Infos`): a session that shows only these did nothing yet.
 */
const SESSION_OPENING = /Creating vdevice|OS Version:|firmware_version is|VDevice Infos/;
/** A HailoRT log line's thread, level, source file and line, and function: `[time] [tid] [HailoRT] [error] [vdevice.cpp:535] [create]`. */
const HAILORT_FRAME = /\[\d{4}-\d\d-\d\d[\sT][\d:.]{1,20}\]\s?\[(\d{1,10})\]\s?\[HailoRT\]\s?\[(\w{1,10})\]\s?\[([\w.-]{1,80}):(\d{1,6})\]\s?\[(\w{1,80})\]/;
/** HailoRT's log template, its thread (`[2026-07-02 15:19:54.486] [11233] [HailoRT] [info] …`, hailort.log). */
const HAILORT_THREAD = /\[\d{4}-\d\d-\d\d[\sT][\d:.]{1,20}\]\s?\[(\d{1,10})\]\s?\[HailoRT\]/;
/**
 * HailoRT's log template, its time stamp: `[%Y-%m-%d %X.%e]` before the `[tid]` of a local hailort.log or the `[pid] [tid]`
 * of the main one (hailort_logger.cpp, HailoRT 4.20 and 5.x).
 */
const HAILORT_STAMP = /\[(\d{4}-\d\d-\d\d)[\sT](\d\d:\d\d:\d\d(?:\.\d{1,9})?)\]\s?(?:\[\d{1,10}\]\s?){1,2}\[HailoRT\]/;
/** A HailoRT line's time stamp in ms (as written, read as UTC), null for a line without HailoRT's template. */
function hailortStamp(raw: string): number | null {
  const m = raw.includes('[HailoRT]') ? HAILORT_STAMP.exec(raw) : null;
  const t = m ? Date.parse(`${m[1]}T${m[2]}Z`) : NaN;
  return Number.isNaN(t) ? null : t;
}
/**
 * The DFC's first-run system check (hailo_sdk_client's requirements check, run at its first import or command): its
 * opening line, then a line per unmet row — `[Error]` for a Required row, `[Warning]`/`[Info]` for a Recommended one —
 * then its table (`Component  Requirement  Found`), then, only when a Required row failed, `System requirements check
 * failed (see table above for details). Continue? [Y/n]` (dfc-corpus tune2/25, fixture system-requirements). Its rows are
 * reported before the table, so the table's header is its verdict: with no `[Error]` before it, the check passed and the
 * DFC goes on with what it was started for (dfc-corpus unseen18/36: a notebook cell's whole output, the import done).
 */
const SYSTEM_CHECK_START = /First time Hailo Dataflow Compiler is being used\. Checking system requirements/;
const SYSTEM_CHECK_TABLE = /^Component\s+Requirement\s+Found\s*$/;
/** dpkg's configure line in its own (English) words (src/main/configure.c `Setting up %s (%s) ...`). */
const DPKG_SETTING_UP = /^Setting up [a-z0-9][a-z0-9+.-]{1,80} \(\d/;
// A cheap gate before classifyMarker: every marker line contains one of these words.
const MAY_MARKER =
  /help message|Compiler v|CLI version|Translation|HEF|\.hef|HAR|\.har|Profiler report|Inference result|hw_only|Device Architecture|Firmware Version|Device: |HEF Compatible|Network group name|FPS: |Optimization|Successful|Compiling|compile|context|[Pp]artition|allocation|Resources optimization|Validating|feasibility|Loading|retry|Killed|killed|Terminated|terminated|interrupt|\^C|exit|Error \d|Starting|skipped|is done|optimization level|compression level|quantization params|Using dataset|input channels|activation fitting|No shifts|output bits|4bit|Dataset is larger|Training cut|signal-to-noise|zero level|Restored ONNX|Extracted ONNXRuntime|nodes mapped|Parsing failed|NMS structure|Bandwidth|Building|recommendation|single context|Saved HAR|uccess|succeeded|ready|READY|Ready|Added board|% \| |operations|parameters|Compilation|Profiler|Number of Contexts|Ran from|vdevice|on destruction|Activating |Creating |PASS|\+\/-|±|Got EOS|\+-- \d|hroughput: |Welcome to Hailo|100% 00:|成功|성공|Loaded image|Status: |Summary: |SUMMARY: |fps|FPS|frames per second|frames\/s| now|able to|ixed |olved|orrected|orked for|Deactivating took|Iteration #/;
/** A row or header of the allocator's grid: ` worker0  V  X  *  …`, `          cluster_0  cluster_1 … prepost`. */
const GRID_LINE = /^ {1,12}(?:worker\d+ |cluster_\d+ {2})/;
/** A line that loads or writes a HAR (`ClientRunner(har=…)`, `load_har(…)`, `Saved HAR to: …`): the state its name says was reached. */
const HAR_MOVES = /ClientRunner\([^)]{0,400}\bhar\s*=|\.load_har\(|Saved HAR to/;
/** A command's input HAR (`hailomz compile --har x_optimized.har`, `hailo compiler x_optimized.har`). */
const COMMAND_HAR = /(?:--har[= ]{1,4}|\bhailo (?:optimize|compiler|profiler) {1,8})(\S{1,300}?\.har)\b/;
/**
 * Progress labels only the optimize stage shows (calibration, fine-tuning, layer noise analysis — its bar also as
 * `Full Quant Analysis (W/ SNR model)`, dfc-corpus unseen7/31).
 */
const OPTIMIZE_PROGRESS = /^(?:Calibration|Full Quant Analysis(?: \([^)]{1,40}\))?|Epoch|Step)$/;
/** The saved files a report keeps (a log appending many runs' saves keeps the last ones: a bound on what a log can make us hold). */
const MAX_SAVED = 32;

interface StageState {
  status: StageStatus;
  seconds: number | null;
}

/**
 * What one run of the log showed (a log often holds several: a command run again at the shell's prompt after a failure,
 * a log file every run appends to, a notebook's cells run again — beginRun). A fresh one at each run, so a fact added
 * here is the run's own by default: its stages, command, summary, ending, saved files and end nodes.
 */
class StateRun {
  readonly stages = new Map<StageName, StageState>(STAGES.map((s) => [s, { status: 'not-reached', seconds: null }]));
  current: StageName | null = null;
  /** The `hailo …`/`hailomz …` command line, when the log shows it. */
  command: RunCommand | null = null;
  lastStage: StageName = 'compile';
  readonly summary: CompileSummary = emptySummary();
  maxContext = -1;
  /** The context whose utilisation table is being printed (`<net>_context_N utilization:`). */
  tableContext: number | null = null;
  tableColumns: ('control' | 'compute' | 'memory' | null)[] = [];
  killedLine: number | null = null;
  /** The signal a `killed` line names (SIGKILL when it names none). */
  killedBy: 'SIGINT' | 'SIGTERM' | null = null;
  /** The exit status the log itself prints (`Process finished with exit code 1`), used when the caller gives none. */
  exitInLog: number | null = null;
  /** The `hailo parser (y/n)` question's line, when the log shows it. */
  promptLine: number | null = null;
  /** The answer typed to that question (`n` declines the recommendation), when the log shows it. */
  promptAnswer: 'y' | 'n' | null = null;
  /** A tool printed its complete answer (hailortcli's, markers.ts `inferred`; the profiler's report) — that run ended. */
  answered = false;
  /** The line of the DFC emulator's inference bar at its last frame (markers.ts emulatorInferenceEnded), until a line after it. */
  emulatorBar: number | null = null;
  /** The packages dpkg's progress lines named so far (markers.ts dpkgPackageStep): the second line of one is its configure. */
  readonly dpkgSteps = new Set<string>();
  /**
   * The DFC's first-run system check (SYSTEM_CHECK_START): 'checking' from its first line, 'refused' at a row it reports as
   * an error (`[Error] …`, a Required row unmet), 'passed' at its table's header with none.
   */
  systemCheck: 'checking' | 'refused' | 'passed' | null = null;
  /** `answered` stands only on a pipeline released ('released'), which a pipeline set up again takes back ('rebuilt'). */
  answeredByRelease = false;
  /** `answered` stands only on docker's image line ('imageReady'), which any later line that says something takes back. */
  answeredByImage = false;
  /**
   * A model script was loaded after the run's last stage finished (`Loading model script commands to …`, which
   * comes before an optimize or a compile): the run went on to a next step that nothing shows finished.
   */
  nextStepLine: number | null = null;
  /** The latest stage whose output the run loaded or wrote (a HAR's name: `x_optimized.har`), stageEvidence.ts. */
  harDone: StageName | null = null;
  /** What the run says it saved (markers.ts `file`), each path once, in the order it last wrote it; at most MAX_SAVED. */
  saved: SavedFile[] = [];
  /** The end nodes the parser recommended (`recommend`): a run that follows its advice is told nothing of them. */
  recommendedEndNodes: string[] = [];
  /** End node names on the `hailo parser`/`hailomz` command line. */
  commandEndNodes: string[] = [];
  /** The model script the DFC loaded (`Loading model script commands to NET from PATH`). */
  scriptPathFromLog: string | null = null;
  /** The last progress bar's label. */
  lastProgressLabel: string | null = null;
  /** The last progress line (label, done, total), for saying where a run stopped. */
  lastProgress: { label: string; done: number; total: number | null } | null = null;
  /** `According to recommendations, retrying parsing with end node names: [...]`: the outputs changed. */
  retriedEndNodes: { nodes: string[]; line: number } | null = null;
  /**
   * The thread that opened the HailoRT session read now (its log's `[tid]` field), when its template shows one: a session
   * the same thread opens is the same process going on — never one of an earlier run.
   */
  sessionThread: string | null = null;
  /**
   * The HailoRT call a thread's error chain last unwound through (hailortGotPast): its thread, source file, function and
   * the source line it failed at, the log lines the chain spans, and whether the thread has printed an info line since.
   */
  hailortChain: { thread: string; file: string; fn: string; at: number; from: number; to: number; closed: boolean } | null = null;
  /** The DFC version the run's own banner printed (applicationRun; the report says the log's, ReaderState.dfcVersion). */
  dfcVersion: string | null = null;
  /** Whether the run showed more than its opening (runBegun). */
  runShown = false;
  /**
   * A HailoRT session its own log file recorded (`[time] [tid] [HailoRT] …`, hailort.log: every step at info level, flushed)
   * that no teardown closed since (the `released` marker): a file that stops there stopped while the process ran (openEnd).
   */
  sessionOpen = false;
  /**
   * The Hailo PCIe driver's probe of a device (`hailo 0000:01:00.0: Probing on: 1e60:2864...`) that has not ended: it ends
   * with `Probing: Added board 1e60-2864, /dev/hailo0` (the `probed` marker), after the firmware's load answered
   * (`Firmware was loaded successfully`, hailort-drivers' hailo_load_firmware: the probe's last step that can fail).
   */
  probeOpen = false;
  /** A `hailo`/`hailomz` command the CLI says it runs (`Running \`hailo profiler x.har\``) that no stage reads: its end is its answer. */
  cliRunning = false;
  /** The last line a program wrote (HailoRT's, the kernel's, a marker, a bar, a banner, a command): what the run last said. */
  lastProgram: { no: number; text: string } | null = null;
  /** The last line of an author's words after the run's last record that tells a failure (`every subsequent call failing to parse`). */
  failureToldAfter = 0;
  /** The line of the last progress bar or step count read (`lastProgress`). */
  lastProgressLine: number | null = null;
  /** The latest time a HailoRT line of the run was stamped with (ms, read as UTC; null before one). */
  latestStamp: number | null = null;
  /** For a run a HailoRT session opening began: the latest stamp of the run before it (showsAfterEarlier). */
  earlierEnded: number | null = null;

  /** `runBegun`: the line where the run began after an earlier one (beginRun); 0 for the log's first run. */
  constructor(readonly runBegun = 0) {}
}

/** A Markdown code block's fence (an output block's end): no line of the program's. */
const OUTPUT_FENCE = /^(?:`{3,}|~{3,})[\w+-]{0,20}$/;
const NOT_BLANK = /\S/;
/** The DFC CLI's line for a subcommand it runs (`Running \`hailo profiler x.har\``; a flag, `hailo -h`, is no command). */
const CLI_RUNNING = /^Running `?(?:hailomz|hailo) [a-z]/;
/** The Hailo PCIe driver's answer that the device's firmware loaded (hailort-drivers, `hailo_load_firmware`). */
const FIRMWARE_LOADED = /: Firmware was loaded successfully\s*$/;
/** What a record says once its writer's prefixes are off: printk's time, a device's `hailo 0000:01:00.0: `, HailoRT's frame. */
const RECORD_PREFIX =
  /^(?:\s*\[ {0,12}\d{1,10}\.\d{1,9}\] )?(?:[\w-]{1,32} [0-9a-f]{4}:[0-9a-f]{2}:[0-9a-f]{2}\.[0-7]: )?(?:\[[^\]]{1,40}\]\s?(?:\[\d{1,10}\]\s?){1,2})?(?:\[HailoRT\]\s?)?(?:\[\w{1,10}\]\s?)?(?:\[[\w.-]{1,80}:\d{1,6}\]\s?\[\w{1,80}\]\s?)?/;
/** A record of HailoRT's log file (`[2025-03-27 11:10:07.265] [2435] [HailoRT] …`; since 4.21 its pid and tid: `[…] [4212] [4230] [HailoRT] …`). */
const HAILORT_RECORD = /\[\d{4}-\d\d-\d\d[\sT][\d:.]{1,20}\]\s?(?:\[\d{1,10}\]\s?){1,2}\[HailoRT\]/;
/**
 * A record that opens a step, as programs word one: a participle first (`Initializing Hailo device as PCIe`, `Writing file
 * hailo/hailo8_board_cfg.bin`, `Searching for a better partition...`, `Running command 'benchmark' with 'hailortcli'`) —
 * not a noun or a preposition that ends in -ing (`Nothing to migrate`, `Warning`, `During …`), nor a label (the driver's
 * `Probing: Added board 1e60-2864, /dev/hailo0`).
 */
const OPENS_STEP = /^(?!(?:[A-Za-z][a-z]*thing|[Ss]tring|[Ww]arning|[Dd]uring|[Pp]ending)\b)[A-Za-z][a-z]{2,}ing\b(?!:)/;
/** A record that says the step it names ended (`Configuring HEF took 18.48 ms`, `Loading … done`). */
const STEP_ENDED = /\b(?:took|done|complete[ds]?|finished|succeeded|successful(?:ly)?|ready|loaded|created)\b/i;
/**
 * An author's words after the log's last record that tell a failure in any inflection or a result that did not come (`every
 * subsequent call failing to parse`, `The character device /dev/hailo0 is not created`, `it doesn't work`).
 */
const FAILURE_TOLD =
  /\bfail(?:s|ed|ing|ures?)?\b|\bnot (?:be )?(?:created|found|detected|loaded|ready|successful(?:ly)?|work(?:s|ing)?|started|recogni[sz]ed)\b|\b(?:doesn't|does not|didn't|did not|won't|cannot|can't) (?:work|start|load|run|detect|find)\b|\bno longer works?\b/i;
/**
 * A line that introduces what follows it: a step's `…`/`...` (`Creating yolov8s/conv63...`, dpkg's `Unpacking x (1.0) ...`),
 * a colon (`Inference result:`, `Call trace:`), a CLI's usage line (its refusal or its help comes under it).
 */
const INTRODUCES = /(?:\.{3}|\u2026|:)\s*$|^usage: /;
/** A record that asks (`Continue? [Y/n]`, the parser's `(y/n)`): the answer decides what the run does. */
const ASKS = /(?:\?|\[[Yy]\/[Nn]\]|\([yY]\/[nN]\))\s*$/;

export class ReaderState implements ReaderView {
  readonly ctx: DfcLogContext & { logPath: string };
  dfcVersion: string | null = null;
  hailortVersion: string | null = null;
  hwArch: string | null = null;
  network: string | null = null;
  /** Programs the log showed run (at a shell prompt, in an argument parser's usage): a prompt running one again is a retry. */
  private readonly programs = new Set<string>();
  private readonly errors: ErrorCollector;
  private lastLine = 0;
  /**
   * The run being read (StateRun). Per log, besides: the caller's context, the header's versions and architecture and the
   * network as the report says them (what the whole paste is about: the installation a terminal runs, a banner printed
   * once), and the programs the log showed run (what makes a prompt's command a retry).
   */
  private run = new StateRun();
  /**
   * The end nodes the parser last recommended, as the report says them: the log's advice about its model, which the DFC's
   * own retry with them (a run of its own, dfc-corpus unseen8/25) follows. The explanations ask the run's (StateRun).
   */
  private recommended: string[] = [];
  /** The last line that is neither blank nor a Markdown fence, ANSI escapes off: where the excerpt stops. */
  private lastWrittenNo = 0;
  private lastWrittenText: string | null = null;

  constructor(context: DfcLogContext) {
    this.ctx = { ...context, logPath: context.logPath ?? 'log' };
    this.errors = new ErrorCollector(this);
  }

  // What the run being read showed, as the explainer asks it (ReaderView).
  get commandEndNodes(): string[] {
    return this.run.commandEndNodes;
  }
  get recommendedEndNodes(): string[] {
    return this.run.recommendedEndNodes;
  }
  get scriptPathFromLog(): string | null {
    return this.run.scriptPathFromLog;
  }
  get lastProgressLabel(): string | null {
    return this.run.lastProgressLabel;
  }
  get lastProgress(): { label: string; done: number; total: number | null } | null {
    return this.run.lastProgress;
  }
  get killedLine(): number | null {
    return this.run.killedLine;
  }
  get killedBy(): 'SIGINT' | 'SIGTERM' | null {
    return this.run.killedBy;
  }
  get promptLine(): number | null {
    return this.run.promptLine;
  }
  get answered(): boolean {
    return this.run.answered;
  }
  get promptAnswer(): 'y' | 'n' | null {
    return this.run.promptAnswer;
  }

  get currentStage(): StageName | null {
    return this.run.current;
  }

  recommend(nodes: string[]): void {
    if (!nodes.length) return;
    this.run.recommendedEndNodes = this.recommended = [...new Set(nodes)];
    this.errors?.recommendation(this.run.recommendedEndNodes);
  }

  line(l: LogLine, events: DfcEvent[]): void {
    this.seen(l);
    const text = l.text;
    // A line that says something after docker's image line: the script went on past it (its own marker may answer again);
    // the author's words after the pasted block (forms.ts `aside`) are not the script's.
    if (this.run.answeredByImage && !l.aside && /\p{L}/u.test(text)) this.run.answered = this.run.answeredByImage = false;
    if (this.run.promptLine === l.no - 1 && this.run.promptAnswer === null) {
      const a = /^\s*(y|yes|n|no)\s*$/i.exec(withoutLevel(text));
      if (a) this.run.promptAnswer = a[1][0].toLowerCase() as 'y' | 'n';
    }
    // The DFC emulator's inference bar at its last frame, then a line of the program's own output (a notebook cell printing
    // the result's shape, dfc-corpus unseen27/02): ClientRunner.infer returned, the run's answer. A blank line or the output
    // block's fence shows nothing yet; an error after it still fails the run (finish), a `Killed` kills it.
    if (this.run.emulatorBar !== null && !l.overwritten) {
      const t = withoutLevel(text).trim();
      if (t && !OUTPUT_FENCE.test(t)) {
        this.run.emulatorBar = null;
        if (!emulatorInferenceEnded(t) && this.run.current === null) {
          this.run.answered = true;
          this.errors.answered(l.no);
        }
      }
    }
    if (!l.overwritten && text.includes('Inference: ') && emulatorInferenceEnded(withoutLevel(text).trim())) this.run.emulatorBar = l.no;
    // The allocator's worker × cluster grids are most lines of a compile and carry nothing but
    // progress already reported by their `Context:N/M Iteration` line: only the traceback tracker sees them.
    if (GRID_LINE.test(text)) {
      const held = this.errors.release();
      if (held) this.errorsOf(held, events);
      for (const d of this.errors.line(l, true)) events.push({ kind: 'diagnostic', diagnostic: d });
      return;
    }
    // A message wrapped over lines is read once, whole, at its first line (errors.ts).
    // (Asked only while a line is held: join does nothing else, and most lines need no closure.)
    if (this.errors.holding() && this.errors.join(l, (held: LogLine) => this.errorsOf(held, events)).continued) return;
    // Cheap substring gates first: most lines of a compile are allocation grids and info lines.
    const p = MAY_PROGRESS.test(text) ? classifyProgress(text) : null;
    if (p) {
      this.progress(p, l, events);
      if (l.overwritten) return; // a redrawn frame carries nothing else
    }
    const h = MAY_HEADER.test(text) ? classifyHeader(text) : null;
    if (h) {
      // The DFC's banner after an error line: it started after all (its first-run check's `[Error]` lines came before).
      if (h.dfcVersion) this.errors.answered();
      if (h.dfcVersion) this.dfcVersion = this.run.dfcVersion = h.dfcVersion;
      if (h.hailortVersion !== undefined) this.hailortVersion = h.hailortVersion;
      if (h.hwArch) this.hwArch = h.hwArch;
      events.push({ kind: 'header', dfcVersion: this.dfcVersion, hailortVersion: this.hailortVersion, hwArch: this.hwArch, logLine: l.no });
    }
    if (text.includes('system requirements') && SYSTEM_CHECK_START.test(text)) this.run.systemCheck = 'checking';
    else if (this.run.systemCheck === 'checking') {
      if (level(text) === 'error' || text.includes('check failed')) this.run.systemCheck = 'refused';
      else if (text.includes('Requirement') && SYSTEM_CHECK_TABLE.test(withoutLevel(text).trim())) {
        this.run.systemCheck = 'passed';
        this.run.lastProgram = { no: l.no, text };
        // The check is all the log shows of a run that names no stage to run: it passed, and the DFC went on.
        if (this.run.command === null && STAGES.every((x) => this.run.stages.get(x)!.status === 'not-reached')) this.run.answered = true;
      }
    }
    // A shell prompt running a program the log already showed run, after that run ended in an error: a retry, another
    // run, which decides (beginRun). Another program at the prompt (`apt list`, `uname -a`) only inspects.
    const said = mayHoldPrompt(text) || text.includes('usage: ') ? withoutLevel(text).trim() : '';
    const prompt = said ? SHELL_PROMPT.exec(said) : null;
    const program = prompt ? prompt[1] : said.startsWith('usage: ') ? (/^usage: ([\w.-]+)/.exec(said)?.[1] ?? null) : null;
    // A program typed again with its typo corrected, after the shell refused the misspelt one as not found (`souce` then
    // `source`, dfc-corpus unseen24/82), is the same retry: the refused command ran nothing (mistyped).
    if (prompt && (this.programs.has(prompt[1]) || mistyped(this.errors.refusedLast(), prompt[1])) && (this.errors.endsInError() || this.errors.hasErrors())) {
      if (this.run.current) this.finishStage(this.run.current, 'failed', null, l.no, events);
      const earlier: DfcDiagnostic[] = [];
      // A retry that shows nothing after its command (a paste that ends at the prompt) decides nothing (finish).
      this.beginRun(earlier);
      for (const d of earlier) events.push({ kind: 'diagnostic', diagnostic: d });
    }
    if (program && this.programs.size < 64) this.programs.add(program);
    const c = text.includes('hailo') ? classifyCommand(text) : null;
    if (c) {
      // The CLI's own `Running \`hailo …\`` after a run the log already showed: a log file the DFC appends every run
      // to (hailo_sdk.client.log opens each `hailo` command with its banner, dfc-corpus unseen7/28). A command line
      // an author writes after the output (the fix they ran) is no such banner; a prompt's retry is read above.
      if (this.ranAnything() && withoutLevel(text).trimStart().startsWith('Running ')) this.beginRun();
      this.run.command = c;
      this.run.lastStage = c.lastStage;
      const input = COMMAND_HAR.exec(text);
      const st = input ? harStageIn(input[1]) : null;
      if (st) this.run.harDone = st;
      if (c.endNodes.length) this.run.commandEndNodes = c.endNodes;
      if (c.net && !this.network) this.network = c.net;
    }
    if (text.includes('.har') && HAR_MOVES.test(text)) this.run.harDone = harStageIn(text) ?? this.run.harDone;
    const m = MAY_MARKER.test(text) ? classifyMarker(text) : null;
    if (m) {
      if (
        m.kind === 'start' ||
        m.kind === 'end' ||
        m.kind === 'allocated' ||
        m.kind === 'stageLine' ||
        m.kind === 'profiled' ||
        (m.kind === 'saved' && this.run.current)
      )
        this.errors.progressed();
      if ('network' in m && m.network && !this.network) this.network = m.network;
      if ((m.kind === 'saved' || m.kind === 'end') && m.file && !(m.kind === 'saved' && m.echo && this.savedAlready(m.file)))
        this.noteSaved({ ...m.file, logLine: l.no });
      switch (m.kind) {
        case 'start': {
          // A stage that already finished, or one before a stage that already started, starts again: another run
          // of the same log (a log file appends every run; a notebook's cells run again) — that run decides.
          const st = this.run.stages.get(m.stage)!.status;
          const later = STAGES.slice(STAGES.indexOf(m.stage) + 1).some((x) => this.run.stages.get(x)!.status !== 'not-reached');
          if (st === 'ok' || st === 'failed' || later) this.beginRun();
          this.start(m.stage, l.no, events);
          break;
        }
        case 'runStart': {
          // HailoRT's session start inside a DFC stage (the SDK running inference on a device) is no new run; nor is a
          // second VDevice the same thread creates (`[11233] [HailoRT] … Creating vdevice`): one process going on with
          // another model after its first was refused is one run, whose refusal stands (dfc-corpus unseen15/65).
          const thread = m.tool === 'hailort' ? (HAILORT_THREAD.exec(l.raw)?.[1] ?? null) : null;
          const sameProcess = thread !== null && thread === this.run.sessionThread;
          this.run.sessionThread = thread;
          if (this.ranAnything() && (m.tool === 'dfc' || this.run.current === null) && !sameProcess) {
            // What the session after this run shows is weighed against the time this run ended (showsAfterEarlier).
            const ended = this.run.latestStamp;
            this.beginRun();
            this.run.earlierEnded = ended;
            this.run.latestStamp = hailortStamp(l.raw);
          }
          break;
        }
        case 'end':
          if (m.stage === 'compile' && m.seconds !== null) this.run.summary.compilationSeconds = m.seconds;
          // DFC 5's `Successful Compilation (duration: …)` times the whole flow, allocation included;
          // DFC 3 prints allocation and compilation times apart (test/fixtures/dfc/SOURCES.md).
          this.finishStage(m.stage, 'ok', m.stage === 'compile' && !m.dfc5 ? this.compileSeconds() : m.seconds, l.no, events);
          break;
        case 'allocated':
          this.start('compile', l.no, events);
          this.run.summary.allocationSeconds = m.seconds;
          break;
        case 'stageLine':
          this.start(m.stage, l.no, events);
          break;
        case 'retryEndNodes':
          this.run.retriedEndNodes = { nodes: m.nodes, line: l.no };
          this.recommend(m.nodes);
          this.errors.endNodesRetried(l, m.nodes);
          break;
        case 'prompt': {
          // Only `hailo parser` asks it (parser_cli.py, after the parse failed with recommendations): the parse is running.
          this.start('parse', l.no, events);
          this.run.promptLine = l.no;
          const a = /\(y\/n\)\s*([yn])\w*\s*$/i.exec(text);
          if (a) this.run.promptAnswer = a[1].toLowerCase() as 'y' | 'n';
          break;
        }
        case 'script':
          // `… from string`: the Python API's load_model_script(text) — no file to point at.
          if (m.path !== 'string') this.run.scriptPathFromLog = m.path;
          if (this.run.current === null && (this.run.answered || STAGES.some((x) => this.run.stages.get(x)!.status === 'ok'))) this.run.nextStepLine = l.no;
          break;
        case 'retry':
          this.errors.noteRetry();
          break;
        case 'killed':
          this.run.killedLine = l.no;
          this.run.killedBy = m.signal ?? null;
          break;
        case 'exited':
          this.run.exitInLog = m.code;
          break;
        case 'imageReady':
          this.run.answered = this.run.answeredByImage = true;
          this.errors.answered();
          break;
        case 'inferred':
          this.run.answered = true;
          this.run.answeredByRelease = false;
          this.errors.answered(l.no);
          break;
        case 'released':
          this.run.sessionOpen = false;
          // The application tore its HailoRT pipeline down: its run ended (an error before it still fails it: finish).
          if (this.applicationRun() && !this.run.answered) this.run.answered = this.run.answeredByRelease = true;
          break;
        case 'rebuilt':
          // A pipeline set up again after the release: the run went on, and where the log stops is no end it showed.
          if (this.run.answeredByRelease) this.run.answered = this.run.answeredByRelease = false;
          break;
        case 'saved':
          // The step after a model script was loaded saved what it made: it ended.
          this.run.nextStepLine = null;
          if (this.run.current) this.finishStage(this.run.current, 'ok', null, l.no, events);
          // An excerpt that shows no stage but the HAR written (`hailo parser`'s and `hailo optimize`'s last line, a
          // script's save_har): an artefact written is positive evidence the step that wrote it ended (stageEvidence.ts).
          else this.run.answered = true;
          break;
        case 'probed':
          // The driver's probe finished: a kernel log's answer (an error before it still fails it: finish).
          if (this.applicationRun()) this.run.answered = true;
          break;
        case 'succeeded':
          // An application's run (no DFC stage) that says it succeeded has ended: an error after it still fails it (finish).
          // HailoRT's own lines are steps inside the library (`Default Internal buffer planner executed successfully`,
          // hailort.log, dfc-corpus unseen7/05), never the application's word that its run succeeded; so are a kernel
          // driver's lines about its device (`hailo 0000:01:00.0: File hailo/hailo8_fw.bin written successfully`): steps
          // of its probe, which ends with the device's node ('probed').
          if (this.applicationRun() && !l.raw.includes('[HailoRT]') && !KERNEL_DEVICE_LINE.test(withoutLevel(text))) this.run.answered = true;
          // Any program's word that it succeeded gets past a failure that only its words told (errors.ts succeeded).
          if (!l.raw.includes('[HailoRT]')) this.errors.succeeded();
          break;
        case 'passed':
          // A harness's verdict that its case passed (markers.ts HARNESS_PASSED): the run it wraps ended well, whatever stage
          // the excerpt last showed running (an abridged compile's `Found valid partition …` then the sweep's `PASS`, unseen23/67).
          this.answeredAt(l.no, events);
          this.errors.succeeded();
          break;
        case 'profiled':
          // The profiler's estimate runs the partitioner (`Starting Hailo context-partitioner flow`) and ends with its report;
          // a profile of a compiled HAR runs no stage at all (dfc-corpus unseen7/08): the report is the run's answer.
          this.answeredAt(l.no, events);
          break;
      }
    }
    // dpkg unpacks a package, then configures it (`Unpacking x (1.0) ...`, then `Setting up x (1.0) ...`): the same `name
    // (version) ...` said a second time, in any locale (markers.ts dpkgPackageStep), is the configure its unpack got to — the
    // install's last step; its maintainer script's failure after it (`dpkg: error processing package x (--configure):`) still
    // fails the run (finish). English's own word says it without the unpack before it (an excerpt of apt's output).
    if (text.includes(' (') && (text.includes('...') || text.includes('\u2026'))) {
      const step = dpkgPackageStep(text);
      if (step) this.run.lastProgram = { no: l.no, text };
      if (step && (this.run.dpkgSteps.has(step) || DPKG_SETTING_UP.test(withoutLevel(text).trimStart()))) {
        if (this.applicationRun()) this.run.answered = true;
      } else if (step && this.run.dpkgSteps.size < 64) this.run.dpkgSteps.add(step);
    }
    // An author's verdict that it works now, in the sentence around a line they quote (`I was able to correct my issues by …
    // using docker "image: …"`, dfc-corpus unseen26/69: normalise.ts read the quote as the line, the verdict is the sentence's).
    if (l.said !== undefined && l.said !== text && !l.raw.includes('[HailoRT]') && !saysProblem(text) && authorCured(l.said) && this.applicationRun()) {
      this.run.answered = true;
      this.errors.succeeded();
    }
    // The user closed a live display pipeline's window (failureWords.ts windowClosedIn): the application's run ended there.
    if (windowClosedIn(text) && this.applicationRun()) this.run.answered = true;
    const s = text.includes('|') || text.includes('ontext') ? classifySummaryLine(text) : null;
    if (s) this.summaryFact(s);
    // The utilization table's Total row is the compiler's record that it placed the network (printed once the allocation
    // succeeded): a program's record, whatever else an excerpt dropped (a notebook's expected output written as comments,
    // dfc-corpus unseen29/36) — with nothing open after it and no failure, the run's end (openEnd).
    if (s?.kind === 'total' && s.values.some((v) => v !== null)) this.run.lastProgram = { no: l.no, text };
    if (level(text) === 'warning') events.push({ kind: 'warning', text: withoutLevel(text).trim(), logLine: l.no });
    if (!this.errors.hold(l)) this.errorsOf(l, events);
    if (m?.kind === 'end' && m.from !== undefined && (level(text) === null || l.relayedLevel === true) && !failureTold(m.from))
      this.errors.gotPastInLine(l.no, m.stage, m.from);
    if (l.raw.includes('[HailoRT]')) this.hailortGotPast(l);
    // A program's record: HailoRT's, a kernel driver's about its device, a marker, a bar, a banner, a command. (A level alone makes
    // none: a logger's template gives every line one, an author's prose included — dfc-logger-shapes; nor does a time, which a
    // relay puts before every line — dfc-wrappers' kernel-time.)
    // (KERNEL_DEVICE_LINE needs a `: ` and the address's `.`; HAILORT_RECORD the `[HailoRT]` tag: cheap gates first.)
    const device = text.includes(': ') && text.includes('.') && KERNEL_DEVICE_LINE.test(withoutLevel(text));
    const hailort = l.raw.includes('[HailoRT]');
    if (m || p || h || c || device || hailort) this.run.lastProgram = { no: l.no, text };
    if (!c && text.includes('Running ') && CLI_RUNNING.test(withoutLevel(text).trim())) this.run.cliRunning = true;
    // HailoRT's log file records its session's set-up (the teardown closes it: the `released` marker).
    if (hailort && m?.kind !== 'released' && HAILORT_RECORD.test(l.raw)) this.run.sessionOpen = true;
    if (device && text.includes('Probing on: ')) this.run.probeOpen = true;
    else if (m?.kind === 'probed' || (text.includes('Firmware was loaded') && FIRMWARE_LOADED.test(text))) this.run.probeOpen = false;
  }

  /**
   * HailoRT logs every failed check on the way out of a call (`[error] [vdevice.cpp:535] [create] CHECK_SUCCESS failed
   * with status=…`), each frame naming its source line and function; the chain's last frame is the call that returned
   * the error to the application. When the same thread later logs an info line of that same function in that same file
   * from further down it (`[info] [vdevice.cpp:651] [create] VDevice Infos: …`), the application called it again and
   * this time the call went past where it had failed — a retry with other parameters (a VDevice without the absent
   * multi-process service, dfc-corpus unseen19/72): the refusal was got past. A later call of another function (a
   * second VDevice after a HEF that would not open, unseen15/65) is not the refused call succeeding, and its refusal stands.
   */
  private hailortGotPast(l: LogLine): void {
    const m = HAILORT_FRAME.exec(l.raw);
    if (!m) return;
    const [, thread, lvl, file, at, fn] = m;
    const c = this.run.hailortChain;
    if (lvl === 'error' || lvl === 'critical') {
      if (c && !c.closed && c.thread === thread) Object.assign(c, { file, fn, at: Number(at), to: l.no });
      else this.run.hailortChain = { thread, file, fn, at: Number(at), from: l.no, to: l.no, closed: false };
      return;
    }
    if (!c || c.thread !== thread || lvl !== 'info') return;
    if (c.file === file && c.fn === fn && Number(at) > c.at) {
      this.errors.gotPastCall(c.from, c.to, `${file} ${fn}`, l.no);
      this.run.hailortChain = null;
    } else c.closed = true;
  }

  /** The last line read; anything after a run's start but the lines every HailoRT session opens with: the run showed something. */
  private seen(l: LogLine): void {
    this.lastLine = l.no;
    // Kept as read, trimmed only when openEnd asks (a line's trim and an object a line were the bench's cost).
    const t = l.text;
    if (NOT_BLANK.test(t) && !((t.includes('```') || t.includes('~~~')) && OUTPUT_FENCE.test(t.trim()))) {
      this.lastWrittenNo = l.no;
      this.lastWrittenText = t;
    }
    // (A line that is a record after all is the last record: `failureToldAfter` is then no later than it. A program's warning or
    // error the reader read as no failure — TensorFlow's `failed call to cuInit` — is its own remark, not an author's telling.)
    const lv = level(l.text);
    if (this.run.lastProgram !== null && (lv === null || lv === 'info') && FAILURE_TOLD.test(l.said ?? t)) this.run.failureToldAfter = l.no;
    const stamp = hailortStamp(l.raw);
    if (stamp !== null && (this.run.latestStamp === null || stamp > this.run.latestStamp)) this.run.latestStamp = stamp;
    // A fence, and the author's words after the paste (forms.ts `aside`), show nothing of the run.
    if (
      this.run.runBegun &&
      !this.run.runShown &&
      l.no > this.run.runBegun &&
      !l.aside &&
      l.text.trim() &&
      !SESSION_OPENING.test(l.text) &&
      this.showsAfterEarlier(stamp)
    )
      this.run.runShown = true;
  }

  /**
   * Whether a line (stamped `t`, null for a line without HailoRT's template) shows the run after the run before it ended. For
   * a run a HailoRT session opening began after a stamped run, only its own lines stamped at or after that run's end do:
   * one stamped before was written late, out of time order, and shows nothing that happened after it; an unstamped line
   * (an author's words after the pasted file, a fence) is none of the session's. HailoRT's log file is written through a
   * buffered stream, flushed at a warning or an error, every 5 s and at exit (hailort_logger.cpp: flush_on, flush_every); a
   * copy of that buffer — a process forked while lines were in it, another process appending to the same file — reaches
   * the file when that copy is flushed, after lines stamped later. So a file shows, after a pipeline that died, its own
   * session's `Creating vdevice` and HEF again, stamped seconds before the failure (dfc-corpus unseen28/04:
   * akryhlmann/PeopleCounter's hailort.1.log holds that process's opening twice, identical, the second copy after the
   * failure, at each of its three timeouts): a session that shows nothing else decides nothing, and the failure is the
   * log's last word (finish).
   */
  private showsAfterEarlier(t: number | null): boolean {
    return this.run.earlierEnded === null || (t !== null && t >= this.run.earlierEnded);
  }

  private progress(p: Progress, l: LogLine, events: DfcEvent[]): void {
    this.run.lastProgressLabel = p.label;
    this.run.lastProgress = p;
    this.run.lastProgressLine = l.no;
    this.run.lastProgram = { no: l.no, text: l.text };
    // An optimize bar after a later stage was reached is the earlier stage's output relayed out of order (a notebook
    // printing a subprocess's stdout, then its stderr, where tqdm writes: dfc-corpus unseen17/02), not a start of it.
    if (OPTIMIZE_PROGRESS.test(p.label)) {
      if (this.run.stages.get('compile')!.status === 'not-reached') this.start('optimize', l.no, events);
    } else if (p.label.startsWith('Allocation, context')) this.start('compile', l.no, events);
    events.push({ kind: 'progress', stage: this.run.current, label: p.label, done: p.done, total: p.total, logLine: l.no });
  }

  /**
   * The allocator's iteration line (markers.ts ALLOCATOR_ITERATION, `m` its match; routes.ts says why each step it skips
   * cannot react to it): `line` reads its progress and nothing else of it, and the error collector takes it as a line
   * that says nothing — when the collector is at rest. Else `line` reads it (the collector may join it to a held line,
   * or read it as a traceback's line).
   */
  allocatorIteration(l: LogLine, m: RegExpExecArray, events: DfcEvent[]): void {
    if (!this.errors.atRest()) return this.line(l, events);
    this.seen(l);
    this.progress(iterationProgress(m), l, events);
    if (l.overwritten) return;
    this.errors.plainLine(l);
  }

  /** The run's answer at line `no` (a profiler's report, a harness's verdict): the stage running ended there, and the run with it. */
  private answeredAt(no: number, events: DfcEvent[]): void {
    if (this.run.current) this.finishStage(this.run.current, 'ok', null, no, events);
    this.run.nextStepLine = null;
    this.run.answered = true;
  }

  /**
   * A file the run already saved, by its name: a wrapper's or author's words after the DFC's `Saved HAR to: /content/x.har`
   * (`HAR file saved as: x.har`, `Initial HAR saved: /content/x.har (9.7 MB)`) tell the same file, not another.
   */
  private savedAlready(f: { kind: string; path: string }): boolean {
    const name = f.path.slice(f.path.lastIndexOf('/') + 1);
    return this.run.saved.some((x) => x.kind === f.kind && (x.path === f.path || x.path.endsWith(`/${name}`)));
  }

  /** A path written again moves to the end with its new line (hailomz rewrites one HAR after each stage). */
  private noteSaved(f: SavedFile): void {
    // Longer than Linux's PATH_MAX (4096, include/uapi/linux/limits.h): no path a program could have written.
    if (f.path.length > 4096 || !f.path) return;
    const list = this.run.saved.filter((x) => x.path !== f.path || x.kind !== f.kind);
    if (list.length >= MAX_SAVED) list.shift();
    list.push(f);
    this.run.saved = list;
  }

  private errorsOf(l: LogLine, events: DfcEvent[]): void {
    for (const d of this.errors.line(l)) events.push({ kind: 'diagnostic', diagnostic: d });
  }

  private summaryFact(s: NonNullable<ReturnType<typeof classifySummaryLine>>): void {
    switch (s.kind) {
      case 'header':
        this.run.tableColumns = s.columns;
        break;
      case 'total': {
        const cols = this.run.tableColumns.length ? this.run.tableColumns : (['control', 'compute', 'memory'] as const);
        const row: ContextUtilization = { context: this.run.tableContext ?? 0, control: null, compute: null, memory: null };
        cols.forEach((col, i) => {
          if (col) row[col] = s.values[i] ?? null;
        });
        if (this.run.tableContext === null) {
          [this.run.summary.controlUtilization, this.run.summary.computeUtilization, this.run.summary.memoryUtilization] = [
            row.control,
            row.compute,
            row.memory,
          ];
          break;
        }
        const list = this.run.summary.contextUtilization.filter((x) => x.context !== row.context);
        list.push(row);
        list.sort((a, b) => a.context - b.context);
        this.run.summary.contextUtilization = list;
        this.run.tableContext = null;
        this.run.maxContext = Math.max(this.run.maxContext, row.context);
        this.run.summary.contexts = Math.max(this.run.summary.contexts ?? 0, this.run.maxContext + 1);
        break;
      }
      case 'contextTable':
        this.run.tableContext = s.index;
        break;
      case 'context':
        this.run.maxContext = Math.max(this.run.maxContext, s.index);
        this.run.summary.contexts = this.run.maxContext + 1;
        break;
      case 'singleContext':
        if (this.run.maxContext < 0) this.run.summary.contexts = 1;
        break;
      case 'contexts':
        if (this.run.maxContext < 0) this.run.summary.contexts = s.count;
        break;
    }
  }

  /** Allocation + compilation, as the DFC prints them (null when neither is printed). */
  private compileSeconds(): number | null {
    const a = this.run.summary.allocationSeconds;
    const b = this.run.summary.compilationSeconds;
    if (a === null && b === null) return null;
    return Math.round(((a ?? 0) + (b ?? 0)) * 1000) / 1000;
  }

  private start(stage: StageName, lineNo: number, events: DfcEvent[]): void {
    const idx = STAGES.indexOf(stage);
    // An earlier stage still running when a later one starts has finished (its end line is not always printed).
    for (let i = 0; i < idx; i++) {
      const st = this.run.stages.get(STAGES[i])!;
      if (st.status === 'running') this.finishStage(STAGES[i], 'ok', null, lineNo, events);
    }
    const s = this.run.stages.get(stage)!;
    if (s.status !== 'not-reached') return;
    this.run.nextStepLine = null;
    s.status = 'running';
    this.run.current = stage;
    events.push({ kind: 'stageStarted', stage, logLine: lineNo });
  }

  private finishStage(stage: StageName, status: 'ok' | 'failed', seconds: number | null, lineNo: number, events: DfcEvent[]): void {
    const s = this.run.stages.get(stage)!;
    if (s.status === 'not-reached') this.start(stage, lineNo, events);
    if (s.status !== 'running') return;
    s.status = status;
    if (seconds !== null) s.seconds = seconds;
    if (this.run.current === stage) this.run.current = null;
    if (status === 'ok') this.errors.recovered(stage);
    events.push({ kind: 'stageFinished', stage, status, seconds: s.seconds, logLine: lineNo });
  }

  /**
   * With no command line to say which stages the run meant to do, the stages that ran tell: a log
   * whose every started stage finished (a notebook's `runner.optimize(…)` ending in `Model
   * Optimization is done`, `hailomz profile` ending in `Profiler report generated`) and that shows
   * no error ran to its end — parse-only, optimize-only or a whole compile alike.
   */
  /**
   * The log is an application's run, not a DFC flow: no `hailo`/`hailomz` command, no DFC version
   * header and no DFC stage ran (a pyhailort or GenAI program, hailortcli). Such a log ends where the program died: an
   * error line at error level that nothing got past is its failure, whatever tool printed it.
   */
  applicationRun(): boolean {
    return this.run.command === null && this.run.dfcVersion === null && STAGES.every((s) => this.run.stages.get(s)!.status === 'not-reached');
  }

  /** The log already shows a run: a stage reached, an error, a tool's answer. */
  private ranAnything(): boolean {
    return this.run.answered || this.errors.hasErrors() || this.errors.endsInError() || STAGES.some((x) => this.run.stages.get(x)!.status !== 'not-reached');
  }

  /**
   * Another run begins in the same log (several runs appended to one log file, a command run again): what the
   * earlier run showed — its stages, command, summary, ending — is its own, and the new run decides the outcome.
   * Its errors stay, as warnings that say an earlier run failed (errors.ts newRun, which gets `earlier`'s).
   * The earlier run's stage that was running did not finish (a failed run in a log file just stops): nothing is said of it.
   */
  private beginRun(earlier?: DfcDiagnostic[]): void {
    this.run = new StateRun(this.lastLine);
    this.errors.newRun(earlier);
  }

  /**
   * What the run opened and never closed, when it shows no failure (issue 30: `incomplete` needs evidence of its own): a stage
   * started and not ended; a model script loaded for a next step; the command's last stage not reached, or a CLI subcommand
   * without its answer; HailoRT's log file in a session no teardown closed; a driver's probe not ended; the first-run check
   * with no table yet, or refused; the log's last line a kernel report's, cut inside its brackets, or introducing what it does
   * not show (`…`, a colon, a usage line); the last record a bar, a question or prompt, or a step it opens (`Writing file …`)
   * with nothing after it; an author's words after the last record telling a failure; a command typed with nothing after it.
   * Null when nothing is open: a run that shows a program's records and no failure is then a `success` (finish).
   */
  openEnd(): string | null {
    const r = this.run;
    if (r.current !== null) return `the ${r.current} stage started and did not end`;
    if (r.nextStepLine !== null) return 'a model script was loaded for a step the log does not show';
    if (r.command !== null && r.stages.get(r.lastStage)!.status !== 'ok') return `the command's ${r.lastStage} stage never ended`;
    if (r.sessionOpen) return "HailoRT's log file shows a session no teardown closed";
    if (r.probeOpen) return "the driver's probe of the device did not end";
    if (r.cliRunning) return "the CLI's command shows no answer";
    if (r.systemCheck === 'checking') return "the first-run system check's table never came";
    // A Required row unmet: the check asks whether to go on (`Continue? [Y/n]`), and what the DFC then did is its own run.
    if (r.systemCheck === 'refused') return 'the first-run system check refused, and asked whether to go on';
    const last = r.lastProgram;
    const w = this.lastWrittenText === null ? null : { no: this.lastWrittenNo, text: this.lastWrittenText.trim() };
    if (w !== null && this.errors.endsInSplat(w.no)) return 'the log stops at a kernel report: what followed it is not shown';
    if (w !== null && (count(w.text, '[') > count(w.text, ']') || count(w.text, '(') > count(w.text, ')'))) return 'the last line is cut inside its brackets';
    if (w !== null && INTRODUCES.test(withoutLevel(w.text).trim().replace(RECORD_PREFIX, '').trim()))
      return 'the last line introduces what the log does not show';
    if (last === null) return null;
    const said = withoutLevel(last.text).trim().replace(RECORD_PREFIX, '').trim();
    if (!said) return 'the last record is cut before its message';
    if (r.failureToldAfter > last.no) return "the author's words after the last record tell a failure";
    // A bar is the program's way through a step: what it did once through is the line after it (the emulator's bar at 100 %).
    if (r.lastProgressLine === last.no) return 'the last record is a progress bar';
    // What a record opens or hands over to is written after it when it came (hailortcli's `Inference result:` then its figures).
    const nothingAfter = w === null || w.no <= last.no;
    if (nothingAfter && ASKS.test(said)) return 'the last record asks, and no answer follows';
    if (nothingAfter && OPENS_STEP.test(said) && !STEP_ENDED.test(said) && level(last.text) !== 'warning') return 'the last record opens a step';
    if (w !== null && w.no > last.no && SHELL_PROMPT.test(w.text)) return 'a command was typed and nothing after it shows';
    return null;
  }

  private ranToItsEnd(): boolean {
    if (this.run.command || this.run.current !== null || this.run.nextStepLine !== null || this.errors.hasErrors()) return false;
    return STAGES.some((s) => this.run.stages.get(s)!.status === 'ok');
  }

  /**
   * The stage an error belongs to, weighed from every kind of evidence the log shows (stageEvidence.ts: the running
   * stage, the error's catalogue entry, frames, class or module, a ClientRunner call, the command narrowed by what was
   * done, the author's words); else `unknown` — a log excerpt without any of these says nothing about the stage, and
   * nothing is guessed.
   */
  stageForError(evidence?: StageName | null, catalogue?: StageName | null): StageName | 'unknown' {
    return this.stageClue(evidence, catalogue)?.stage ?? 'unknown';
  }

  /**
   * The clue that decides an error's stage and why (stageEvidence.ts weighs them): `evidence` is what the error itself
   * shows (its frames, call, class or module), `catalogue` the stage of the catalogue entry that explained it.
   */
  stageClue(evidence?: StageName | null, catalogue?: StageName | null): StageClue | null {
    const own = this.errors.stageClues();
    const clues: (StageClue | null)[] = [
      this.run.current ? { stage: this.run.current, kind: 'running', reason: `the ${this.run.current} stage was running` } : null,
      catalogue ? { stage: catalogue, kind: 'catalogue', reason: `the catalogue's ${catalogue} message` } : null,
      ...own,
      // The error's own stage, when the collector's clues do not already say it (with their words).
      evidence && !own.some((c) => c.kind === 'error' && c.stage === evidence)
        ? { stage: evidence, kind: 'error', reason: 'what the error itself shows (its frames, call, class or module)' }
        : null,
      commandClue(this.run.command, this.doneStage()),
    ];
    return weighStage(clues);
  }

  /**
   * The stage a run that did not succeed stopped in, one rule for a failed and a killed run (issue 30): the stage its first
   * standing error was placed in (each error is weighed as it comes, stageForError; `unknown` when nothing placed it), else
   * the weighing of everything the log shows at its end — never the running stage alone, which a later stage's own
   * evidence beats (stageEvidence.ts).
   */
  stoppedStage(): StageName | 'unknown' {
    const e = this.errors.failedStage();
    return e && e !== 'docker' ? e : this.stageForError();
  }

  /** The latest stage the log shows done: one that finished, or whose output the run loaded or wrote. */
  private doneStage(): StageName | null {
    let done = this.run.harDone;
    for (const s of STAGES) if (this.run.stages.get(s)!.status === 'ok' && (done === null || STAGES.indexOf(s) > STAGES.indexOf(done))) done = s;
    return done;
  }

  snapshot(): DfcReport {
    return this.build('incomplete', null, this.errors.diagnostics());
  }

  finish(given?: DfcExit): { report: DfcReport; events: DfcEvent[] } {
    const exit: DfcExit | undefined = given ?? (this.run.exitInLog !== null ? { code: this.run.exitInLog } : undefined);
    const events: DfcEvent[] = [];
    const held = this.errors.release();
    if (held) this.errorsOf(held, events);
    // A run after a failed one that shows nothing but its start: the failed run is the log's last word.
    if (
      !given &&
      this.run.runBegun &&
      !this.run.runShown &&
      this.run.exitInLog === null &&
      this.run.killedLine === null &&
      !this.ranAnything() &&
      this.run.command === null
    )
      this.errors.reinstateEarlierRun();
    const added = this.errors.settle(exit, this.lastLine);
    const errorStage = this.errors.failedStage();
    const killed =
      stoppedByCaller(exit) !== null ||
      (exit?.code !== undefined && exit.code !== null && SIGNAL_EXITS.has(exit.code)) ||
      exit?.signal === 'SIGKILL' ||
      exit?.signal === 'SIGTERM' ||
      exit?.signal === 'SIGINT' ||
      this.run.killedLine !== null;
    let outcome: Outcome;
    let failed: FailedStage = null;
    if (errorStage === 'docker' || exit?.code === 125) {
      outcome = 'failed';
      failed = 'docker';
    } else if (killed) {
      outcome = 'killed';
      failed = this.stoppedStage();
    } else if (errorStage) {
      outcome = 'failed';
      failed = this.stoppedStage();
    } else if (
      (exit && exit.code !== null && exit.code !== 0) ||
      (!exit && (this.errors.endsInException() || (this.errors.endsInError() && (this.applicationRun() || this.run.current === null))))
    ) {
      outcome = 'failed';
      // The running stage weighed with the failure's own evidence and what else the log shows (stageEvidence.ts).
      failed = this.stoppedStage();
    } else if (
      this.run.stages.get(this.run.lastStage)!.status === 'ok' ||
      (exit?.code === 0 && this.run.current === null) ||
      this.ranToItsEnd() ||
      (this.run.answered && this.run.current === null && this.run.nextStepLine === null && !this.errors.hasErrors()) ||
      // A program's records, no failure and nothing left open: the run's end (openEnd), whatever kind of end it has.
      (this.run.lastProgram !== null && !this.errors.hasErrors() && !this.errors.endsInError() && this.openEnd() === null)
    ) {
      outcome = 'success';
    } else {
      outcome = 'incomplete';
    }
    if (outcome === 'failed' && failed !== 'docker') pushAll(added, this.errors.unexplainedIfNone(exit));
    this.errors.sayAuthorSettings();
    pushAll(added, this.errors.sayOtherWarnings());
    pushAll(added, this.errors.saySplats());
    if (failed && failed !== 'docker' && failed !== 'unknown') this.finishStage(failed, 'failed', null, this.lastLine, events);
    for (const d of added) events.push({ kind: 'diagnostic', diagnostic: d });
    return { report: this.build(outcome, failed, this.errors.diagnostics()), events };
  }

  /**
   * The summary as reported: a multi-context compile's overall figures are the mean of its
   * contexts' `Total` rows — only when the log shows a table for every context (an excerpt that
   * elides some tables has no overall figure, rather than a mean of the ones it kept).
   */
  private summaryReport(): CompileSummary {
    const list = this.run.summary.contextUtilization.map((x) => ({ ...x }));
    const out: CompileSummary = { ...this.run.summary, contextUtilization: list };
    if (list.length) {
      const complete = this.run.summary.contexts === null || list.length >= this.run.summary.contexts;
      out.controlUtilization = complete ? mean(list.map((x) => x.control)) : null;
      out.computeUtilization = complete ? mean(list.map((x) => x.compute)) : null;
      out.memoryUtilization = complete ? mean(list.map((x) => x.memory)) : null;
    }
    return out;
  }

  private build(outcome: Outcome, failedStage: FailedStage, diagnostics: DfcDiagnostic[]): DfcReport {
    return {
      outcome,
      failedStage,
      stages: STAGES.map((name) => {
        const s = this.run.stages.get(name)!;
        return { name, status: s.status, seconds: s.seconds };
      }),
      dfcVersion: this.dfcVersion,
      hailortVersion: this.hailortVersion,
      hwArch: this.hwArch,
      network: this.network,
      summary: this.summaryReport(),
      recommendedEndNodes: [...this.recommended],
      diagnostics,
      saved: this.run.saved.map((x) => ({ ...x })),
    };
  }
}

/**
 * Whether `typed` is the program the shell refused (`refused`, not found) with its spelling corrected: another name at most two
 * edits away — a letter left out, added, changed or two swapped (`souce` → `source`, `hailortlci` → `hailortcli`). Another
 * program (`apt` after `hailortcli: command not found`) is a different step, such as installing what was missing.
 */
function mistyped(refused: string | null, typed: string): boolean {
  if (refused === null || refused === typed || Math.min(refused.length, typed.length) < 4) return false;
  const a = refused.toLowerCase();
  const b = typed.toLowerCase();
  if (Math.abs(a.length - b.length) > 2) return false;
  // Optimal string alignment distance (Damerau–Levenshtein without repeated edits of one substring).
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.length][b.length] <= 2;
}

/**
 * Whether words tell a failure: a catalogued error's message or any program's failure words (failureWords.ts). An author's line
 * whose words from its stage's end on tell none ended well there, whatever its earlier clauses tell (ErrorCollector.gotPastInLine).
 */
function failureTold(words: string): boolean {
  return matchDfcMessage(words)?.message.severity === 'error' || failureIn(words) !== null;
}

/** How many times `ch` occurs in `s`. */
function count(s: string, ch: string): number {
  let n = 0;
  for (let i = s.indexOf(ch); i >= 0; i = s.indexOf(ch, i + 1)) n++;
  return n;
}

/** Mean of the known values to one decimal, halves up (null when none is known). */
function mean(values: (number | null)[]): number | null {
  const known = values.filter((v): v is number => v !== null);
  if (!known.length) return null;
  // The tables print one decimal: sum in tenths (integers) so 26.95 rounds to 27.0, not 26.9.
  const tenths = known.reduce((a, b) => a + Math.round(b * 10), 0);
  return Math.round(tenths / known.length) / 10;
}

/** A compile summary before the log has said anything of it (a new run starts from one too). */
function emptySummary(): CompileSummary {
  return {
    contexts: null,
    controlUtilization: null,
    computeUtilization: null,
    memoryUtilization: null,
    compilationSeconds: null,
    allocationSeconds: null,
    contextUtilization: [],
  };
}
