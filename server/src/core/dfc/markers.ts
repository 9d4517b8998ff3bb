// Patterns for the DFC's non-error console lines: the CLI header, stage markers, progress (tqdm,
// Keras epochs, allocation iterations), the success endings of DFC 3.x and 5.x and the resource
// summary. The public lines each pattern was written from are in test/fixtures/dfc/SOURCES.md;
// docs/dfc-log.md says which are composed from docs/research/dfc-flow.md#console-format rather than seen.
import type { SavedKind, StageName } from './types';
import { pushAll } from '../common/arrays';

/** `[info] ` / `[warning] ` / `[error] ` prefix (colour already stripped). `[Info]` occurs too. */
const LEVEL = /^\s*\[(info|warning|error|debug|critical)\]\s?/i;

export type Level = 'info' | 'warning' | 'error' | 'debug' | 'critical';

// Every reader of a line asks its level and its words without it (state.ts, errors.ts, explain.ts, several times a
// line): the last line's answers are kept, so each line's tag is read once.
let levelOf: string | null = null;
let levelIs: Level | null = null;
let strippedOf: string | null = null;
let stripped = '';

export function level(text: string): Level | null {
  if (text !== levelOf) {
    const m = LEVEL.exec(text);
    levelIs = m ? (m[1].toLowerCase() as Level) : null;
    levelOf = text;
  }
  return levelIs;
}

export function withoutLevel(text: string): string {
  if (text !== strippedOf) {
    stripped = text.replace(LEVEL, '');
    strippedOf = text;
  }
  return stripped;
}

/**
 * Durations as the DFC prints them: `00:00:12.34` (completion time), `4m 25s`, `26m 8s 215ms`,
 * `5s`, `1:02:03`, `02:14`. Null when not a duration.
 */
export function parseDuration(s: string): number | null {
  const t = s.trim();
  let m = /^(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)$/.exec(t);
  if (m) return round(Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]));
  m = /^(\d+):(\d{1,2}(?:\.\d+)?)$/.exec(t);
  if (m) return round(Number(m[1]) * 60 + Number(m[2]));
  m = /^(?:(\d+)\s*h\s*)?(?:(\d+)\s*m(?!s)\s*)?(?:(\d+(?:\.\d+)?)\s*s\s*)?(?:(\d+)\s*ms)?$/.exec(t);
  if (m && (m[1] || m[2] || m[3] || m[4])) return round(Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0) + Number(m[4] ?? 0) / 1000);
  return null;
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}

const ARCHES = ['hailo8l', 'hailo8r', 'hailo8', 'hailo10h', 'hailo15h', 'hailo15m', 'hailo15l'];

export function normaliseArch(s: string): string | null {
  const a = s.toLowerCase().replace(/['",`]/g, '');
  return ARCHES.includes(a) ? a : null;
}

export interface HeaderFacts {
  dfcVersion?: string;
  /** `null`: the header says HailoRT is not installed. */
  hailortVersion?: string | null;
  hwArch?: string;
}

/** `[info] Hailo DFC Version: 3.29.0`, `[info] HailoRT Version: 4.19.0 | Not Installed`, the hw arch. */
export function classifyHeader(text: string): HeaderFacts | null {
  const t = withoutLevel(text);
  let m = /^\s*Hailo DFC Version:\s*v?(\d+\.\d+(?:\.\d+)?\S*)/i.exec(t);
  if (m) return { dfcVersion: m[1] };
  m = /^\s*HailoRT Version:\s*(.+?)\s*$/i.exec(t);
  if (m) return { hailortVersion: /^\d/.test(m[1]) ? m[1] : null };
  m = /--hw-arch[ =]+(\S+)/.exec(t) ?? /\bhw_arch\s*=\s*['"]?(\w+)/.exec(t) ?? /Initializing the (\w+) runner/.exec(t);
  if (m) {
    const arch = normaliseArch(m[1]);
    if (arch) return { hwArch: arch };
  }
  return null;
}

/** What a `Running \`hailo …\`` / `hailomz …` command line says the run will do. */
export interface RunCommand {
  /** The first stage the command runs (`hailo optimize X.har` starts at optimize), null when it depends on its input. */
  firstStage: StageName | null;
  /** The last stage the command runs (a `hailo parser` run ends after parsing). */
  lastStage: StageName;
  endNodes: string[];
  startNodes: string[];
  modelScript?: string;
  net?: string;
}

function flagList(words: string[], flag: string): string[] {
  const i = words.indexOf(flag);
  if (i < 0) return [];
  const out: string[] = [];
  for (let j = i + 1; j < words.length && !words[j].startsWith('--'); j++) pushAll(out, words[j].split(',').filter(Boolean));
  return out;
}

/** `[info] Running \`hailo parser onnx m.onnx --hw-arch hailo8l\``, or a shell line running `hailomz compile …`. */
export function classifyCommand(text: string): RunCommand | null {
  const t = withoutLevel(text).trim();
  let cmd: string | undefined;
  // Behind a foreign prefix (the DFC's log file, `… - INFO - main.py:109 - Running \`hailo …\``) normalise.ts has taken
  // the backticks off as an author's code span.
  let m = /^Running `(.*)`\s*$/.exec(t) ?? /^Running ((?:hailomz|hailo) \S.*)$/.exec(t);
  if (m) cmd = m[1].trimEnd();
  else if ((m = /(?:^|[$>#]\s*)((?:hailomz|hailo) (?:parser|optimize|compiler|compile|parse|eval)\b.*)$/.exec(t))) cmd = m[1];
  if (!cmd) return null;
  const words = cmd.split(/\s+/);
  const verb = words[0] === 'hailomz' ? `mz-${words[1]}` : words[1];
  const last: Record<string, StageName> = {
    parser: 'parse',
    optimize: 'optimize',
    compiler: 'compile',
    'mz-parse': 'parse',
    'mz-optimize': 'optimize',
    'mz-compile': 'compile',
  };
  const lastStage = last[verb];
  if (!lastStage) return null;
  const ms = flagList(words, '--model-script')[0];
  const net = flagList(words, '--net-name')[0];
  // `hailo optimize|compiler` take a HAR; `hailomz` parses first unless given `--har` (then a
  // `hailomz compile --har` may start at optimize or compile, depending on the HAR).
  const fromHar = words.includes('--har') || words.some((w) => w.startsWith('--har='));
  const first: Record<string, StageName | null> = {
    parser: 'parse',
    optimize: 'optimize',
    compiler: 'compile',
    'mz-parse': 'parse',
    'mz-optimize': fromHar ? 'optimize' : 'parse',
    'mz-compile': fromHar ? null : 'parse',
  };
  return {
    firstStage: first[verb] ?? null,
    lastStage,
    endNodes: flagList(words, '--end-node-names'),
    startNodes: flagList(words, '--start-node-names'),
    modelScript: ms,
    net,
  };
}

export type Marker =
  | { kind: 'start'; stage: StageName; network?: string }
  /**
   * `from`: the line's words from the clause that tells the end on, when clauses come before it (an author's line telling its
   * attempts in order, `greedy+0.8 → PrePostAgent infeasible. greedy+0.9 → SUCCESS. x.hef (9.1 MB) generated`: state.ts).
   */
  | { kind: 'end'; stage: StageName; seconds: number | null; network?: string; dfc5?: boolean; file?: Saved; from?: string }
  /** DFC 3: `Successful Mapping (allocation time: …)`; DFC 5: `<net> Successful Partition and Allocation (duration: …)`. */
  | { kind: 'allocated'; seconds: number | null; network?: string }
  /** A line only one stage prints (an optimization algorithm, partitioning, the ONNX restore) — that stage is running. */
  | { kind: 'stageLine'; stage: StageName }
  /** A signal ended the run (the shell's words): SIGKILL unless it says which. */
  | { kind: 'killed'; signal?: 'SIGINT' | 'SIGTERM' }
  /** The log prints how the run ended (an IDE's, compose's or CI's line): the exit status the caller would give. */
  | { kind: 'exited'; code: number }
  /** `Loading model script commands to NET from PATH`. */
  | { kind: 'script'; network: string; path: string }
  /** The parser's retry on an onnxsim-simplified model: two errors of one run may be one fault. */
  | { kind: 'retry' }
  /** `According to recommendations, retrying parsing with end node names: [...]` — the outputs change. */
  | { kind: 'retryEndNodes'; nodes: string[] }
  /** The `hailo parser` question on stdin: `Would you like to parse again with the recommendation? (y/n)`. */
  | { kind: 'prompt' }
  /** The profiler wrote its report (`hailomz profile`, `hailo profiler`): the run ended, whatever stage its estimate ran. */
  | { kind: 'profiled' }
  /**
   * A tool printed its complete answer (hailortcli's `> Inference result:`, `run`'s progress at 100%, benchmark's
   * `FPS (hw_only) =`, identify's `Device Architecture:`, `hailomz info`'s card): that run ended.
   */
  | { kind: 'inferred' }
  /** docker's last line of `load` or `pull` (MARKER.dockerImage): an answer that a later step takes back. */
  | { kind: 'imageReady' }
  /**
   * HailoRT destroyed an inference pipeline (`[~BaseQueueElement] Queue element X has N frames in his Queue on
   * destruction`, queue_elements.cpp, at info) or deactivated a network group the application activated itself
   * (`[deactivate] Deactivating took N ms`, core_op.cpp CoreOp::deactivate and ~VdmaConfigActivatedCoreOp, v4.20.0): the
   * application released what it ran — its run ended, not cut. HailoRT logs nothing else at the end of a run, and nothing per
   * frame (docs/dfc-log.md, "HailoRT's own log").
   */
  | { kind: 'released' }
  /**
   * HailoRT sets a pipeline up (`[activate] Activating NET took 0.22 milliseconds`, core_op.cpp; `[InputVStreamImpl]
   * Creating NET/input_layer1...`, vstream.cpp): after a release, the application went on — an application that
   * switches its networks per frame releases one and activates the other (dfc-corpus unseen15/08).
   */
  | { kind: 'rebuilt' }
  /**
   * The PCIe driver's probe ended with the device's node (`hailo 0000:01:00.0: Probing: Added board 1e60-2864, /dev/hailo0`,
   * hailort-drivers linux/pcie/src/pcie.c hailo_pcie_probe's last line before `return 0`): the probe's steps all passed.
   */
  | { kind: 'probed' }
  /** The stage's output was written (`Saved HAR to: x.har` — `hailo parser`/`hailo optimize` end so): the running stage ended. */
  | { kind: 'saved'; file?: Saved; echo?: boolean }
  /** Any program's own word that what it did succeeded (`Inference was successful!`, `… configured successfully`), never an error line. */
  | { kind: 'succeeded' }
  /**
   * A test harness's verdict on the case it ran (HARNESS_PASSED): a benchmark sweep's `PASS  hailo10h / yolo11n-seg.pt`, pytest's
   * `tests/test_x.py::test_compile PASSED`. The harness says it once the case's run has ended well: the run's end.
   */
  | { kind: 'passed' }
  /**
   * A program's first line of a run in a log file several runs are appended to: the compiler's `Ran from command: "…"`
   * (hailo_sdk.core.log), HailoRT's `Creating vdevice with params: …` (hailort.log, vdevice.cpp `create`).
   */
  | { kind: 'runStart'; tool: 'dfc' | 'hailort' };

/** Names of the DFC's optimization algorithms as its `Starting X` / `X skipped` / `X is done` lines print them. */
const OPTIMIZATION_ALGORITHM =
  /(?:Mixed Precision|Layer ?Norm|create_layer_norm|Statistics Collector|Stats Collector|zp_comp|Equaliz|Matmul ?Decompos|MatmulDecompose|Bias Correction|Ada ?[Rr]ound|Fine[- ]?[Tt]un|Finetune|Quantization-Aware|Layer Noise Analysis|Smart Softmax|Activation Clipping|Dead Channels|Quantization Param)/;

/** optimizeLine's patterns, made once (a regular expression literal in a function is a new RegExp object at every call). */
const OPTIMIZE_LINE = {
  algorithmDone: /^Model Optimization Algorithm .+ is done\b/,
  starting: /^Starting (.+?)\s*$/,
  skippedOrDone: /^(.+?) (?:skipped|is done \(completion time)/,
  own: /^(?:Using default optimization level of \d|Reducing optimization level to \d|Reducing compression level to \d|Model received quantization params from the hn|Using dataset with \d+ entries for (?:calibration|finetune)|Found model with \d+ input channels, using|activation fitting started for|No shifts available for layer|Reducing output bits of|Assigning 4bit weights|Dataset is larger than expected size|Training cut by the user|Output layers signal-to-noise ratio|Running model optimization with zero level)/,
};

/** Lines only the optimize stage prints (public logs: test/fixtures/dfc/SOURCES.md, cases `real-*`). */
function optimizeLine(t: string): boolean {
  if (OPTIMIZE_LINE.algorithmDone.test(t)) return true;
  let m = OPTIMIZE_LINE.starting.exec(t);
  if (m) return OPTIMIZATION_ALGORITHM.test(m[1]);
  m = OPTIMIZE_LINE.skippedOrDone.exec(t);
  if (m) return OPTIMIZATION_ALGORITHM.test(m[1]);
  return OPTIMIZE_LINE.own.test(t);
}

/** parseLine's patterns, made once (a regular expression literal in a function is a new RegExp object at every call). */
const PARSE_LINE = {
  own: /^(?:Restored ONNX model|Extracted ONNXRuntime meta-data|Start nodes mapped from original model|End nodes mapped from original model|Parsing failed with recommendations|NMS structure of .+ was detected)/,
};

/** Lines only the parse stage prints. */
function parseLine(t: string): boolean {
  return PARSE_LINE.own.test(t);
}

/** compileLine's patterns, made once (a regular expression literal in a function is a new RegExp object at every call). */
const COMPILE_LINE = {
  own: /^(?:To achieve optimal performance, set the compiler_optimization_level|Trying to compile the network in a single context|Single context flow failed|Using (?:Single|Multi)-context flow|Finding the best partition to contexts|Found valid partition to \d+ contexts|Searching for a better partition|Partition to contexts finished|Partitioner finished|Applying selected partition|Running resources allocation \(mapping\) flow|Solving the allocation|Resources optimization (?:params|guidelines)|Validating layers feasibility|Layers feasibility validated|Starting Hailo context-partitioner flow|Successful Context-Partition|Building optimization options for network layers|Successfully built optimization options|Loading network parameters|Compiling kernels of|Bandwidth of (?:model inputs|DDR buffers|inter context tensors)|Building HEF|Iteration #\d{1,6} - (?:Contexts: \d{1,4}|\d{1,4} contexts)\b)/,
};

/**
 * Lines only the compile stage prints (partitioning, mapping, kernels) — the partitioner's search among them, each try as
 * `Iteration #43 - Contexts: 2` (DFC 3.30, dfc-corpus unseen18/14) or `Iteration #2 - 2 contexts,` (unseen7/27).
 */
function compileLine(t: string): boolean {
  // The compiler's advice at the start of every compile whose script leaves compiler_optimization_level below max
  // (hailo_tools_runner.py, right before `Loading network parameters` on the console: test/fixtures/dfc/success-dfc3-hailomz):
  // in the DFC's own log file (hailo_sdk.client.log), where the allocator's lines are not written, the compile's only line.
  return COMPILE_LINE.own.test(t);
}

const EXIT_STATUS =
  /^(?:Process finished with exit code (\d+)\b|[\w.-]+ exited with code (\d+)$|Command exited with non-zero status (\d+)$|Error: Process completed with exit code (\d+)\.?$|make(?:\[\d+\])?: \*\*\* \[[^\]]*\] Error (\d+))/;

/**
 * A clause saying a HEF or a HAR was written, in an author's or a wrapper's words, past tense only: `HEF compiled
 * successfully: N bytes` (a compile sweep's line, dfc-corpus unseen2/21), `Saved the HAR`, `x.hef written`, `the HAR was saved
 * normally`. The tools' own lines are MARKER's (`HEF file written to`, `Saved HAR to: …`). One rule for both kinds, read clause
 * by clause (fileDoneIn): a negation or a condition in another clause of the line (`Not blocking — the HAR was saved
 * normally.`, dfc-corpus unseen22/41) is not this one's, and one in this clause (`fails if the HEF was written twice`) vetoes
 * it. The verb ends the clause or goes on with an adverb, a place or the file: a participle that describes the file (`HEF was
 * compiled assuming clock rate of 400 MHz`, HailoRT's warning in dfc-corpus unseen7/15; `A HEF compiled for one arch is
 * rejected`, unseen5/06) says nothing of this run.
 */
function fileDoneWords(word: 'HEF' | 'HAR'): { done: RegExp; file: RegExp } {
  const ext = word.toLowerCase();
  const verbs = 'compiled|written|saved|generated|created|exported';
  const wrote = 'compiled|saved|wrote|exported|generated|created';
  const after = `(?= *$|[^\\w\\s]| +(?:\\w+ly|to|as|at|into|in|under|on|OK)\\b| +[\\d'"\`/~.]| +\\S+\\.${ext}\\b)`;
  const path = `['"\`]?([^\\s'"\`()]+\\.${ext})\\b`;
  return {
    done: new RegExp(
      "^(?!.*\\b(?:no|not|never|failed|fails|unable|cannot|can't|couldn't|error|if|unless|whether|when)\\b)(?:" +
        `(?:[\\w-]+ ){0,3}${word}(?: file)?(?: was| has been)?(?: successfully)? (?:${verbs})\\b${after}` +
        `|(?:Successfully )?(?:${wrote}):? (?:the )?(?:[\\w-]+ )?(?:${word}\\b|\\S+\\.${ext}\\b)` +
        `|\\S+\\.${ext} (?:was |has been )?(?:successfully )?(?:${verbs})\\b)`,
      'i',
    ),
    // The file named beside the verb (`Generated: best.hef (9.3MB)`, dfc-corpus unseen5/13; `Saved the HAR to x.har`;
    // `x_quantized.har written`), never a sentence's example (`with a standard name (for example \`x_hailo8.hef\`)`, unseen5/05).
    file: new RegExp(
      `\\b(?:${wrote}|written)(?: (?:the )?(?:[\\w-]+ )?${word}(?: file)?)?(?: (?:to|as|at|into|in))?:? ${path}` +
        `|(?:^|[\\s'"\`])([^\\s'"\`()]+\\.${ext})['"\`]? (?:was |has been )?(?:successfully )?(?:${verbs})\\b`,
      'i',
    ),
  };
}
const FILE_DONE = { hef: fileDoneWords('HEF'), har: fileDoneWords('HAR') };
/** Where a line's clauses end: a sentence's end, a semicolon, a dash between words. */
const CLAUSE_END = /[.;!?](?:\s+|$)|\s[\u2014\u2013-]\s/;
/** … and a Markdown table's cell boundary, where a relay's level kept the row whole (reader.ts splits a bare row into its cells). */
const CLAUSE_ENDS = new RegExp(`${CLAUSE_END.source}|\\s\\|\\s`, 'g');

/** The line's clauses (CLAUSE_END, a table's cells) with where each begins in it. */
function clausesOf(t: string): { text: string; at: number }[] {
  const out: { text: string; at: number }[] = [];
  let at = 0;
  CLAUSE_ENDS.lastIndex = 0;
  for (let m = CLAUSE_ENDS.exec(t); m; m = CLAUSE_ENDS.exec(t)) {
    out.push({ text: t.slice(at, m.index), at });
    at = m.index + m[0].length;
  }
  out.push({ text: t.slice(at), at });
  return out;
}

/**
 * The clause of the line that says a file of this kind was written (FILE_DONE), with the file it names if any; null when
 * none does (the caller skips a tool's warning and error lines: saysProblem).
 */
function fileDoneIn(kind: 'hef' | 'har', t: string): { file?: string; at: number } | null {
  for (const c of clausesOf(t)) {
    const clause = c.text.trim();
    if (!FILE_DONE[kind].done.test(clause)) continue;
    const f = FILE_DONE[kind].file.exec(clause);
    const file = f?.[1] ?? f?.[2];
    return file ? { file, at: c.at } : { at: c.at };
  }
  return null;
}

/**
 * A line whose level reports a problem (error, critical, warning; a relay's `info` is none): never a tool's word that it
 * wrote a file (`HEF was compiled assuming …`, HailoRT's warning), an author's rate or an author's verdict that it works.
 */
export function saysProblem(text: string): boolean {
  const lv = level(text);
  return lv === 'error' || lv === 'critical' || lv === 'warning';
}

/**
 * A record of the HEF: its path, with at most a label before it (one word and its colon, in any language: `출력:`), and its size
 * right after it (`HEF \`x.hef\`, 1,601,536 bytes, 16m 9s`, a port's table of attempts, dfc-corpus unseen24/42; `출력: \`x.hef\`
 * (7.3MB) ✓`, library file id 42778402369; `\`x.hef\` is 241,664 bytes`, library file id 70898832909): only a file that
 * exists has a size, so the compile wrote it — a wrapper's or an author's measure of its output (`ls -l`'s, `du`'s,
 * `os.path.getsize`). The clause is the record alone: an author's sentence with a verb in the present (`The slices compile to
 * \`x.hef\` (36,864 bytes)`, unseen21/09, what a variant of the graph does beside the failure the notes are about) is an account,
 * past-tense words are fileDoneIn's. Read clause by clause: a negation, a condition or a failure in the clause vetoes it, and a
 * limit (`at most`, `max`, `<`) is no measure.
 */
const HEF_SIZED =
  /^(?:(?:(?:the |output |compiled )?(?:HEF|hef|File|file|Output|output)(?: file)? ?:?|[^\s:`'"]{1,24} ?:) ?)?['"`]?([^\s'"`()]+\.hef)['"`]?(?:,|:| -| \(| is|\s)\s*(?:~|about |approx\.? )?\d[\d,.]{0,14}\s?(?:bytes|B|[KMG]i?B|kB)\b/;
const NOT_SIZED = /\b(?:no|not|never|fail\w*|error\w*|unable|cannot|can't|couldn't|if|unless|whether|max(?:imum)?|limit\w*|at most|exceed\w*|over|under)\b|</i;

/**
 * The same record where it stands inside an author's clause (HEF_SIZED_WITHIN): the path and its size alone in a parenthesis
 * (`Both compiled in a single context: K in 1m 17s (\`x_k_proj.hef\`, 3,067,904 bytes) and V …`, dfc-corpus unseen27/07), or
 * the HEF noun saying which file it is, its size right after (`The HEF is \`x_attn_core.hef\` (65,536 bytes)`, unseen21/08;
 * unseen27/05). What the clause says of a file to come (`would`, `will`, `expected`) or of what a graph does in the present
 * (`The slices compile to \`x.hef\` (36,864 bytes)`, unseen21/09 — its size stands outside any such record anyway) is no
 * file written; NOT_SIZED's words veto it as they do the record.
 */
const NOT_DONE_YET = /\b(?:would|will|should|could|can|may|might|expect\w*|compiles? to|builds? to)\b/i;

function hefSizedIn(t: string): { file: string; at: number } | null {
  if (!t.includes('.hef')) return null;
  for (const c of clausesOf(t)) {
    const m = HEF_SIZED.exec(c.text.trim());
    if (m && !NOT_SIZED.test(c.text)) return { file: m[1], at: c.at };
    const w = HEF_SIZED_WITHIN.exec(c.text.trim());
    if (w && !NOT_SIZED.test(c.text) && !NOT_DONE_YET.test(c.text)) return { file: w[1] ?? w[2], at: c.at };
  }
  return null;
}

/**
 * The HEF measured without its path, by the noun: a sentence that says its size (`The HEF is 3,211,264 bytes`, `Both HEFs are
 * about 3 MB`), or the noun as a record's own clause with each HEF's size in the clauses right after it (`Single-context HEFs. K:
 * 3,067,904 bytes, 1m 17s, … V: 3,211,264 bytes, …`, a port's table of attempts, dfc-corpus unseen26/40; its rows with a path are
 * hefSizedIn's): a size is a file's on disk, so the compile wrote it. Not the key and its value (`HEF size: 3200 bytes`): a
 * program that runs a HEF prints its input's size so (`Using HEF: …` then `HEF size: N bytes`, a C++ application, library file
 * id 53622024085). At most two words before the noun (`Single-context HEFs`, `the compiled HEF`); the words up to the size say no
 * negation, condition or limit (NOT_SIZED: `no HEF is over 4 MB`) — what a clause says after the size (`max abs 0.193`, an
 * accuracy) is no limit on it.
 */
const HEF_NOUN = /^(?:[\w-]{1,24} ){0,2}HEFs?\b/;
const SIZE = /(?:~|about |approx\.? )?\d[\d,.]{0,14}\s?(?:bytes|B|[KMG]i?B|kB)\b/;
const HEF_PATH = `['"\`]?([^\\s'"\`()]+\\.hef)['"\`]?`;
const HEF_SIZED_WITHIN = new RegExp(
  `\\(${HEF_PATH}(?:,|:)\\s*${SIZE.source}|^(?:[\\w-]{1,24} ){0,2}HEF(?: file)? (?:is|was) ${HEF_PATH}(?: \\(|, )${SIZE.source}`,
);
const HEF_MEASURED = new RegExp(`${HEF_NOUN.source}(?: files?)? (?:is|was|are|were) ${SIZE.source}`);
const HEF_RECORD = new RegExp(`${HEF_NOUN.source}$`);
const SIZE_RECORD = new RegExp(`^(?:[^\\s:]{1,24} ?: ?)?${SIZE.source}`);

/** The words from a later clause that tells a stage's end on (the end marker's `from`); nothing when it is the line's first. */
function toldFrom(t: string, at: number): { from?: string } {
  return at > 0 ? { from: t.slice(at) } : {};
}

function hefMeasuredIn(t: string): { at: number } | null {
  if (!t.includes('HEF')) return null;
  const clauses = clausesOf(t).map((c) => ({ text: c.text.trim(), at: c.at }));
  const c = clauses.find(({ text }, i) => {
    const m = HEF_MEASURED.exec(text);
    if (m && !NOT_SIZED.test(m[0])) return true;
    const next = i + 1 < clauses.length && HEF_RECORD.test(text) && !NOT_SIZED.test(text) ? SIZE_RECORD.exec(clauses[i + 1].text) : null;
    return next !== null && !NOT_SIZED.test(next[0]);
  });
  return c ? { at: c.at } : null;
}

/**
 * A harness's verdict that a case passed, the line's first word in capitals as harnesses print it (a sweep's `PASS  hailo8 /
 * yolov8n-seg.pt`, dfc-corpus unseen2/21 and unseen23/67; Go's `--- PASS: TestX (0.01s)` and `PASS`; TAP's `ok`-less `[PASS]`), or
 * pytest's verbose `path::test PASSED` (its `-v` report line, `_pytest/terminal.py`), or a results list's case name and its verdict
 * last, after a dash, a colon or dots (`v8_segmentation_n_hailo10h.hef — PASS`, a release's notes, dfc-corpus unseen24/78): never a
 * word of a sentence (`pass` in prose, a `PASS_THROUGH` name).
 */
const HARNESS_PASSED =
  /^(?:--- )?(?:\[PASS(?:ED)?\]|PASS(?:ED)?(?![\w-]))(?::?\s+\S|\s*$)|^\S+::\S+ PASSED(?![\w-])|^[\w./-]{1,200}(?: [\w./-]{1,200}){0,3}(?: (?:\u2014|\u2013|--?|\.{2,})|:) PASS(?:ED)?\s*$/;

/**
 * A program's own word that something succeeded; the words of a failure or a negation veto it (NOT_SUCCEEDED), and so do a
 * question's and a wish's (`How can I install … to complete the installation successfully?`, an author asking for the way,
 * dfc-corpus unseen26/43; `I want it to compile successfully`): what someone asks for or wants has not happened.
 */
const SUCCEEDED = /\b(?:successful(?:ly)?|succeeded)\b/i;
const NOT_SUCCEEDED =
  /\b(?:not|no|never|without|fail\w*|error\w*|cannot|can't|couldn't|unable|if|until|whether|check|how|want\w*|wish\w*|hop(?:e|es|ing)|trying|try)\b|\?/i;
/**
 * An author's verdict that what failed works now (`I was able to correct my issues by reverting my HAILO driver …`, a
 * Frigate issue's author after the fix, dfc-corpus unseen26/69; `it works now`, `I fixed it by …`, `problem solved`): the
 * run they tell of ended well — a warning quoted after it stays a warning, an error after it still fails it (state.ts).
 * A parenthesis is the author's aside, not the clause (`(if Google ever sees this page...)`); a contrast (`works now, but
 * …`, `still`) or NOT_SUCCEEDED's negations, conditions and questions veto it.
 */
const AUTHOR_CURED = new RegExp(
  [
    '(?:works|working|runs|running) (?:fine |again |properly )?now',
    'now (?:it )?(?:works|runs)',
    'worked (?:fine |again )?for (?:me|us)',
    '(?:was|were) (?:finally )?able to (?:correct|fix|solve|resolve)',
    '(?:I|we) (?:finally )?(?:fixed|solved|resolved|corrected) (?:it|this|that)',
    '(?:fixed|solved|resolved|corrected) (?:the|my|our|this|that) (?:problem|issue|error)s?',
    '(?:problem|issue)s? (?:is |are |was |were |got |has been |have been )?(?:solved|resolved|fixed)',
  ]
    .map((x) => `\\b${x}\\b`)
    .join('|'),
  'i',
);
const NOT_CURED = /\b(?:but|still|except|however|yet)\b/i;

/** An author's verdict that what failed works now (AUTHOR_CURED), in their clause without its asides. */
export function authorCured(t: string): boolean {
  if (!AUTHOR_CURED.test(t)) return false;
  const clause = t.replace(/\([^()]*\)/g, ' ');
  return AUTHOR_CURED.test(clause) && !NOT_SUCCEEDED.test(clause) && !NOT_CURED.test(clause);
}

/**
 * The same word in Chinese, Japanese or Korean as its clause's predicate, the line's last word (`✅ パイプライン作成成功`, a
 * Japanese author's checklist of a fixed run, dfc-corpus unseen25/46; `安装成功。`, `成功しました`, `컴파일 성공`): 成功 and
 * 성공 are nouns as well, so only at the end — never a heading's noun (`成功指標`, `成功の証拠`), an adverb before its verb
 * (`成功加载`) or a clause that says when (`成功时会看到`). A negation, failure or condition in the line (`未成功`, `失敗`,
 * `しない`, `如果`, `場合`, `실패`, `않`) vetoes it, as NOT_SUCCEEDED does the English words.
 */
const CJK_SUCCEEDED = /(?:成功(?:しました|した|です|しています|了)?|성공(?:했습니다|했다|하였습니다|했어요|함)?)[。.!！]{0,3}\s*$/u;
const CJK_NOT_SUCCEEDED = /失敗|失败|未|不|没|沒|無|无|ない|ません|如果|若|時|时|場合|なら|실패|못|않|면|\?|？/u;
/**
 * A program's own word, as its line's last, that it is ready (`Hailo Python ready`, `Server is ready.`, `Device ready!`): what it
 * set up worked. Not a wait or a wish (`Waiting for the device to be ready`, `Press enter when ready`), nor a negation (NOT_SUCCEEDED).
 */
const READY = /(?:^|[\s:>-])(?:ready|READY|Ready)[.!]{0,3}\s*$/;
const NOT_READY = /\b(?:wait\w*|when|to be|get(?:ting)?|almost|once)\b/i;

/**
 * An author's mark of success before a line they quote (`✅ Model Optimization is done`, `→ Saved HAR to: …`,
 * dfc-corpus unseen5/13): the line after it is the tool's. Failure marks (❌, ⚠) are kept, so no success pattern matches past them.
 */
const SUCCESS_MARK = /^(?:[\u2705\u2714\u2713\u2611\u2192\u279c\u27a1\u25b6\u2022]\ufe0f?\s*|\u{1f7e2}\s*){1,3}/u;

/** `Hailo: export success ✅ 912.4s, saved as 'yolo11n_hailo_model' (9.8 MB)`: the prefix is the exporter's format name. */
const EXPORT_SAVED = /^(?:[\w .+-]{1,40}: )?export success\b[^,\n]{0,40}, saved as \S/;

/** A file or folder a line says the run wrote, as the line names it (never resolved, never read). */
export interface Saved {
  kind: SavedKind;
  path: string;
}

/**
 * The path as printed: the rest of the line up to its first `.har`/`.hef` that ends a word — a path may hold spaces, and
 * a line an author's words or a program's were joined to (an author's hard wrap, forms.ts) goes on after it.
 */
function saved(kind: SavedKind, path: string): Saved {
  const ext = kind === 'har' ? HAR_PATH_END.exec(path) : kind === 'hef' ? HEF_PATH_END.exec(path) : null;
  return { kind, path: (ext ? ext[1] : path).trimEnd() };
}
const HAR_PATH_END = /^(.*?\.har)(?=\s|$)/i;
const HEF_PATH_END = /^(.*?\.hef)(?=\s|$)/i;

/**
 * What an Ultralytics exporter wrote, by its name (ultralytics/engine/exporter.py: `export_onnx` writes `x.onnx`; formats
 * whose output is a folder name it `x_<format>_model` — `export_hailo`'s is the folder holding the HEF).
 */
function exportKind(f: string): SavedKind {
  const ext = /\.(\w{1,12})$/.exec(f)?.[1]?.toLowerCase();
  if (ext === 'hef' || ext === 'har' || ext === 'onnx') return ext;
  return /_model\/?$/.test(f) ? 'directory' : 'file';
}

/** The model zoo's `hailomz info` card: `operations: 6.44G`, `parameters: 5.05M` (a unit, unlike the YAML's bare numbers). */
const MZ_INFO_CARD = /^(?:operations|parameters):\s+\d+(?:\.\d+)?[KMGT]$/;

const PIPELINE_SETUP = /\bActivating \S{1,200} took [\d.]+ milliseconds\b|\bCreating [\w.-]{1,200}\/[\w./-]{1,200}\.\.\.\s*$/;

/** classifyMarker's patterns, made once: a regular expression literal in a function is a new RegExp object at every call (~30 a line). */
const MARKER = {
  // The framework is named in one to three words: `ONNX`, `Tensorflow`, `TensorFlow 2.x` (a Keras SavedModel's parse,
  // dfc-corpus unseen11/51, unseen17/83).
  translationStarted: /^Translation started on (?:[\w.+-]+ ){1,3}model (\S+)/,
  translationCompleted: /^Translation completed on (?:[\w.+-]+ ){1,3}model (\S+)(?: \(completion time: ([^)]+)\))?/,
  optimizationStarted: /^Starting Model Optimization\b/,
  optimizationDone: /^Model Optimization is done(?: \((?:completion time(?: is)?:?|duration:) ([^)]+)\))?/,
  compileFlowStarted: /^Starting Hailo allocation and compilation flow\b/,
  compilingNetwork: /^Compiling network\b/,
  mapped: /^(?:(\S+) )?Successful Mapping \(allocation time: ([^)]+)\)/,
  partitioned: /^(?:(\S+) )?Successful Partition and Allocation \(duration: ([^)]+)\)/,
  compiled: /^(?:(\S+) )?Successful Compilation \((compilation time|duration): ([^)]+)\)/,
  scriptLoaded: /^Loading model script commands to (\S+) from (.+?)\s*$/,
  retryEndNodes: /^According to recommendations, retrying parsing with end node names: \[(.*)\]/,
  retrySimplified: /^(?:Simplified ONNX model for a parsing retry attempt|Attempting to retry parsing on a simplified model)/,
  parsePrompt: /Would you like to parse again with the recommendation\?/,
  killed: /^(?:Killed|\S+: line \d+: +\d+ +Killed\b.*|\[\d+\][+-]? +Killed\b.*|zsh: killed\b.*)\s*$/,
  oomKilled:
    /^(?:(?:(?:Memory cgroup )?Out of memory: )?Killed process \d+ \([^)]{1,64}\) total-vm:|(?:Memory cgroup )?Out of memory: Killed process (?:\d+|\.{3}|\u2026|<\w{1,8}>|[A-Z]{1,4}) \([^)]{1,64}\)(?: total-vm:|\s*$))/i,
  terminated: /^(?:Terminated|\S+: line \d+: +\d+ +Terminated\b.*|\[\d+\][+-]? +Terminated\b.*|zsh: terminated\b.*)\s*$/,
  interrupted: /^(?:zsh: interrupt\b.*|\^C\s*)$/,
  hefWritten: /^HEF file written to:? (\S.*)$/,
  hefSaved: /^Saved HEF to:? (\S.*)$/i,
  compilationComplete: /^Compilation complete\s*$/,
  profiled: /^(?:Profiler report generated in|Saved Profiler HTML Report to:?) \S|^Number of Contexts {2,}\d+\s*$/,
  ranFrom: /^Ran from command: \S/,
  vdevice: /^Creating vdevice with params\b/,
  inferred:
    /^(?:>\s*)?Inference result:|^FPS\s+\(hw_only\)\s+=|^Device Architecture:\s+\S|^Firmware Version:\s+\d+\.\d+\.\d+ \((?:release|develop|debug),(?:app|core)\b[^)]{0,80}\)|^\[-\] Device: \S|^HEF Compatible for: \S|^Network group name: \S+, (?:Single Context|Multi Context)|^\S+: FPS: \d/,
  networkDone: /^Network \S+: 100% \| \d/,
  /**
   * `run2`'s timer track at 100% with nothing left (hailortcli/run2/timer_live_track.cpp: `[{:=>{}}{:{}}] {:>3}% {}`, a bar
   * 20 wide, then the time left as `HH:MM:SS`): the whole `--time-to-run` went by with its networks running — the live
   * printer's last frame, its `NAME: fps: N` tracks below (network_live_track.cpp). A frame cut before its end shows less.
   */
  run2Done: /^\[={19}>\] 100% 00:00:00\s*$/,
  /**
   * A program's closing tally of what it went through, counts only (`Summary: compared=6, skipped=0`, a notebook's FP-vs-quantized
   * emulator comparison, dfc-corpus unseen25/08; a CI job's `Summary: passed=89 failed=0 skipped=0`): printed once its loop has
   * ended. A count of failures above zero is no good end (TALLY_FAILED: such scripts exit 1 then).
   */
  /**
   * A check's closing inventory, `key=value` only: hailo-apps' scripts/check_installed_packages.sh prints, after all its checks,
   * `SUMMARY: hailo_arch=hailo10h hailo_pci=5.1.1 hailort=5.1.1 pyhailort=5.1.1 tappas-core=5.1.0 tappas-python=5.1.0` (its
   * to_check's last line, whatever the checks found). A component it did not find is `-1` or `unknown` there (INVENTORY_ABSENT):
   * no good end; a check it failed says so in its own `[ERROR]` line before, which fails the run as any error before an answer does.
   */
  inventory: /^(?:SUMMARY|Summary): (?:[A-Za-z][\w-]{0,30}=[\w.+~-]{1,40}(?: +|\s*$)){2,16}$/,
  tally: /^Summary: (?:[A-Za-z][\w-]{0,30} ?[=:] ?\d{1,9}(?:, ?| {1,4}|\.?\s*$)){1,12}$/,
  /**
   * docker's answer to its image commands, their last line once the image is there: `docker load`'s `Loaded image: NAME:TAG` (or
   * `Loaded image ID: sha256:…`, docker/cli image/load.go relaying the daemon's stream; the AI Software Suite's run script loads
   * its image so on first launch, dfc-corpus unseen25/23), `docker pull`'s `Status: Downloaded newer image for NAME` and `Status:
   * Image is up to date for NAME` (docker/cli's pull stream, its final status).
   */
  dockerImage: /^(?:Loaded image(?: ID)?: \S+|Status: (?:Downloaded newer image|Image is up to date) for \S+)\s*$/,
  /**
   * GStreamer's command-line tools' own ends: gst-launch-1.0's `Got EOS from element "pipeline0".` (tools/gst-launch.c, at the
   * pipeline's end of stream — every buffer went through; an error prints `ERROR: from element …` instead) and gst-inspect-1.0's
   * count closing a plugin's details (`  3 features:` / `  +-- 3 elements`, tools/gst-inspect.c print_plugin_features): the
   * plugin loaded and was listed whole.
   */
  gstreamerDone: /^Got EOS from element "[^"\s]{1,80}"\.?\s*$|^\+-- \d+ elements?\s*$/,
  /**
   * The Hailo AI Software Suite container's welcome, which its shell prints once it is up inside the container (`Welcome to Hailo
   * AI Software Suite Container`, then its command list and the `(hailo_virtualenv) hailo@…$` prompt; `docker run` of the suite
   * image, its hailo_ai_sw_suite_docker_run.sh or `--resume`): the container started, which is what that command was run for.
   * Its line's start only: a prompt right after it may be read as the same line's continuation.
   */
  containerWelcome: /^Welcome to Hailo [\w .-]{1,60}? Container\b/,
  /**
   * A benchmark's throughput over its timed run (`Throughput: 91.5 inferences/sec`, `Throughput: 30.2 fps`): the count of what
   * ran divided by the run's time, printed once it ended — unlike a live `FPS: 12.36` each second.
   */
  throughput:
    /^(?:Avg |Average |Mean |Overall |Total )?[Tt]hroughput: \d[\d,]*(?:\.\d+)? ?(?:inferences|inference|frames|images|samples|fps|FPS)(?:\/s(?:ec)?| per second)?\s*$/,
  /**
   * A benchmark's summary of its timed runs, a mean with its spread (`Hailo emulated latency: 37971.8 +/- 1116.0 ms`, a notebook's
   * emulator run, dfc-corpus unseen23/08; IPython's `%timeit`: `37.9 ms ± 1.12 ms per loop (mean ± std. dev. of 7 runs, 10 loops
   * each)`): a statistic over every run, printed once they have all ended — unlike a live `FPS: 12.36` each second.
   */
  measured:
    /^(?:[A-Za-z][\w ()/.-]{0,60}: )?\d+(?:\.\d+)?(?: ?(?:ms|s|us|µs|ns|fps|FPS))? ?(?:\+\/-|±) ?\d+(?:\.\d+)?(?: ?(?:ms|s|us|µs|ns|fps|FPS))?(?: per loop \(mean ± std\. dev\. of \d+ runs?, \d+ loops? each\))?\s*$/,
  /**
   * A command whose answer is its version or its help, which it prints whole and exits 0: `hailo --version`'s `Hailo
   * Dataflow Compiler v3.29.0` (dfc-corpus unseen18/44), `hailortcli --version`'s `HailoRT-CLI version 4.18.0` (unseen5/20),
   * and any argparse program's help — argparse's own entry for its `-h` option (`-h, --help  show this help message and
   * exit`, Lib/argparse.py's default help, printed by print_help before it exits 0; dfc-corpus unseen18/17).
   */
  toldItself: /^(?:Hailo Dataflow Compiler v\d+\.\d+\S*|HailoRT-CLI version \d+\.\d+\S*|-h, --help\s+show this help message and exit)\s*$/,
  released:
    /\bQueue element \S+ has \d+ frames in his Queue on destruction\b|^\s*(?:\[deactivate\]\s*|\[~VdmaConfigActivated\w+\]\s*)?Deactivating took [\d.]+ ms\s*$/,
  probed: /\bProbing: Added board [0-9a-f]{1,4}-[0-9a-f]{1,4}, \/dev\/[\w-]{1,40}\s*$/,
  harSaved: /^Saved HAR to:? (\S.*)$/,
  exportSavedAs: /, saved as '([^']{1,4096})'/,
};

/**
 * A Python format string's replacement field (`{valid_net_name}`, `{milestone!s}`, `{x:.2f}`): printed output has the
 * value in its place, so a line that still shows one is the source that prints it — IPython's traceback quotes the
 * frames' code around each call (`288 self._logger.info(f"Translation completed on ONNX model {valid_net_name} …")`,
 * dfc-corpus unseen18/18, a parse that failed), and a marker in it says nothing of the run.
 */
const FORMAT_FIELD = /\{[A-Za-z_][\w.]{0,60}(?:\[[^\]{}]{0,40}\])?(?:![rsa])?(?::[^{}]{0,20})?\}/;

/**
 * dpkg's progress line about one package, in any locale: its message catalogue moves the words around the package and
 * keeps `%s (%s) ...` — the package's name, its version in parentheses, three dots at the line's end (src/main/archives.c
 * `Unpacking %s (%s) ...`, src/main/configure.c `Setting up %s (%s) ...`; zh_CN `正在解压 %s (%s) ...` / `正在设置 %s (%s) ...`,
 * de `Entpacken von %s (%s) ...` / `%s (%s) wird eingerichtet ...`, ja `%s (%s) を設定しています ...`). An upgrade's unpack adds the
 * old version (`Unpacking x (2) over (1) ...`). Returns `name (version)`, or null.
 */
const DPKG_PACKAGE_STEP =
  /(?:^|[\s\u3000-\u9fff])([a-z0-9][a-z0-9+.-]{1,80}) \((\d[\w.+~:-]{0,60})\)(?: \S{1,20} \(\d[\w.+~:-]{0,60}\))?(?: [^()]{0,60})? ?(?:\.\.\.|\u2026)\s*$/;
export function dpkgPackageStep(text: string): string | null {
  const t = withoutLevel(text).trim();
  if (t.length > 240 || !(t.endsWith('...') || t.endsWith('\u2026'))) return null;
  const m = DPKG_PACKAGE_STEP.exec(t);
  return m ? `${m[1]} (${m[2]})` : null;
}

export function classifyMarker(text: string): Marker | null {
  const t = withoutLevel(text).trim().replace(SUCCESS_MARK, '');
  if (t.includes('{') && FORMAT_FIELD.test(t)) return null;
  let m: RegExpExecArray | null;
  if ((m = MARKER.translationStarted.exec(t))) return { kind: 'start', stage: 'parse', network: m[1] };
  if ((m = MARKER.translationCompleted.exec(t))) return { kind: 'end', stage: 'parse', seconds: m[2] ? parseDuration(m[2]) : null, network: m[1] };
  if (MARKER.optimizationStarted.test(t)) return { kind: 'start', stage: 'optimize' };
  if ((m = MARKER.optimizationDone.exec(t))) return { kind: 'end', stage: 'optimize', seconds: m[1] ? parseDuration(m[1]) : null };
  if (MARKER.compileFlowStarted.test(t) || MARKER.compilingNetwork.test(t)) return { kind: 'start', stage: 'compile' };
  if ((m = MARKER.mapped.exec(t))) return { kind: 'allocated', seconds: parseDuration(m[2]), network: m[1] };
  if ((m = MARKER.partitioned.exec(t))) return { kind: 'allocated', seconds: parseDuration(m[2]), network: m[1] };
  if ((m = MARKER.compiled.exec(t))) return { kind: 'end', stage: 'compile', seconds: parseDuration(m[3]), network: m[1], dfc5: m[2] === 'duration' };
  if ((m = MARKER.scriptLoaded.exec(t))) return { kind: 'script', network: m[1], path: m[2] };
  if ((m = MARKER.retryEndNodes.exec(t))) return { kind: 'retryEndNodes', nodes: quotedNames(m[1]) };
  if (MARKER.retrySimplified.test(t)) return { kind: 'retry' };
  if (MARKER.parsePrompt.test(t)) return { kind: 'prompt' };
  // SIGKILL as the shell reports it: bash's `Killed` (alone or as a job line), zsh's `zsh: killed     cmd`.
  if (MARKER.killed.test(t)) return { kind: 'killed' };
  // The kernel's OOM killer, as dmesg or journald relays it (mm/oom_kill.c `__oom_kill_process`: `%s: Killed process %d (%s)
  // total-vm:…`, the message `Out of memory` or `Memory cgroup out of memory` — a container's limit; kernels before 4.19
  // print no message): it sent SIGKILL.
  if (MARKER.oomKilled.test(t)) return { kind: 'killed' };
  // SIGTERM the same way (`kill`, `timeout`, `docker stop`, a CI job cancelled): bash's `Terminated` (strsignal(15)),
  // its job line, zsh's `zsh: terminated  cmd`; SIGINT as zsh reports it (`zsh: interrupt  cmd`). bash reports no
  // SIGINT: its trace is the terminal's `^C` echo, which the reader takes as the user's interrupt where it starts a line.
  if (MARKER.terminated.test(t)) return { kind: 'killed', signal: 'SIGTERM' };
  if (MARKER.interrupted.test(t)) return { kind: 'killed', signal: 'SIGINT' };
  // The run's exit status as the program around it prints it: JetBrains' `Process finished with exit code N`,
  // docker compose's `name exited with code N`, GNU time's `Command exited with non-zero status N`, GitHub
  // Actions' `Error: Process completed with exit code N.`, make's `make: *** [target] Error N`.
  if ((t.includes('exit') || t.includes('Error')) && (m = EXIT_STATUS.exec(t))) return { kind: 'exited', code: Number(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5]) };
  // The model zoo's last line of a compile: the HEF exists, so the compile ended (hailomz, test/fixtures/dfc/SOURCES.md; dfc-corpus tune2/01, tune2/08).
  if ((m = MARKER.hefWritten.exec(t))) return { kind: 'end', stage: 'compile', seconds: null, file: saved('hef', m[1]) };
  // Any wrapper's own word that the HEF exists ends the compile the same way (FILE_DONE). `hailo
  // compiler`'s `Saved HEF to: PATH` (compiler_cli.py, fixture success-dfc3-cli) names it whole.
  if ((t.includes('HEF') || t.includes('hef')) && !saysProblem(text)) {
    const done = fileDoneIn('hef', t);
    const to = done ? (MARKER.hefSaved.exec(t)?.[1] ?? done.file) : undefined;
    if (done) return { kind: 'end', stage: 'compile', seconds: null, ...(to ? { file: saved('hef', to) } : {}), ...toldFrom(t, done.at) };
    // A HEF named with its size (`HEF x.hef, 1,601,536 bytes`): a file measured on disk, so written (hefSizedIn).
    const sized = hefSizedIn(t);
    if (sized) return { kind: 'end', stage: 'compile', seconds: null, file: saved('hef', sized.file), ...toldFrom(t, sized.at) };
    // The HEF measured by its noun, no path (hefMeasuredIn).
    const measured = hefMeasuredIn(t);
    if (measured) return { kind: 'end', stage: 'compile', seconds: null, ...toldFrom(t, measured.at) };
  }
  // `hailo compiler`'s own end (compiler_cli.py, before its `Saved HEF to:`; dfc-corpus unseen7/28).
  if (MARKER.compilationComplete.test(t)) return { kind: 'end', stage: 'compile', seconds: null };
  // The profiler's report: hailomz's `Profiler report generated in …`, the `hailo profiler` CLI's `Saved Profiler HTML Report to: …`,
  // and the report itself, printed whole before either (one info record): its Performance Summary's `Number of Contexts  N`
  // row, there in every mode (Pre Placement, Compiled) — a console or notes cut before the file's line still holds the
  // profiler's answer (dfc-corpus unseen22/43; heldout/36, unseen7/08 print both).
  if (MARKER.profiled.test(t)) return { kind: 'profiled' };
  if (MARKER.ranFrom.test(t)) return { kind: 'runStart', tool: 'dfc' };
  if (MARKER.vdevice.test(t)) return { kind: 'runStart', tool: 'hailort' };
  // hailortcli's answers (4.22.0): `run` (infer_stats_printer.cpp), `benchmark`'s summary, `fw-control identify`.
  // Also (5.2.0): `scan`'s `[-] Device: ID` (scan_command.cpp), `parse-hef`'s `HEF Compatible for: ARCH` and
  // `Network group name: NAME, Single Context` (hef.cpp's get_description), `run2`'s summary `NET: FPS: N` (run2_command.cpp).
  if (
    MARKER.inferred.test(t) ||
    // `run`'s progress line at 100% (inference_progress.cpp: `Network NAME: 100% | N/M | FPS: …`): every frame went through.
    MARKER.networkDone.test(t) ||
    // `run2`'s timer track at 100%, nothing left: its time to run went by (the networks' fps below it).
    MARKER.run2Done.test(t) ||
    // A program's closing tally (counts only, none of them failures above zero): its loop ended.
    (t.startsWith('Summary: ') && MARKER.tally.test(t) && !TALLY_FAILED.test(t)) ||
    // An author's report of the frame rate their run reached, a prose line of theirs (no level): frames went through.
    ((t.includes('fps') || t.includes('FPS') || t.includes('frames')) && !saysProblem(text) && authorRate(t)) ||
    // A check's closing inventory (key=value only), every component found and no failures counted: its checks ran.
    ((t.startsWith('SUMMARY: ') || t.startsWith('Summary: ')) && MARKER.inventory.test(t) && !INVENTORY_ABSENT.test(t) && !TALLY_FAILED.test(t)) ||
    // A benchmark's mean and spread over its timed runs: its report once they all ran.
    ((t.includes('+/-') || t.includes('±')) && MARKER.measured.test(t)) ||
    MZ_INFO_CARD.test(t) ||
    MARKER.toldItself.test(t) ||
    ((t.startsWith('Got EOS') || t.startsWith('+--')) && MARKER.gstreamerDone.test(t)) ||
    (t.includes('hroughput') && MARKER.throughput.test(t)) ||
    (t.startsWith('Welcome to Hailo') && MARKER.containerWelcome.test(t))
  )
    return { kind: 'inferred' };
  // docker's last line of `load` or `pull`: the image is there — the run's end only if no step follows it (a start script
  // goes on to run the image it loaded: `Running Hailo AI SW suite Docker image...`).
  if ((t.startsWith('Loaded image') || t.startsWith('Status: ')) && MARKER.dockerImage.test(t)) return { kind: 'imageReady' };
  if ((t.includes('Activating ') || t.includes('Creating ')) && PIPELINE_SETUP.test(t)) return { kind: 'rebuilt' };
  if ((t.includes('on destruction') || t.includes('Deactivating took')) && MARKER.released.test(t) && level(text) !== 'error') return { kind: 'released' };
  if (t.includes('Added board') && MARKER.probed.test(t)) return { kind: 'probed' };
  // The DFC CLI's last line of a parse or an optimize: its HAR is written (dfc-corpus unseen3/13).
  if ((m = MARKER.harSaved.exec(t))) return { kind: 'saved', file: saved('har', m[1]) };
  // Anyone's past-tense word that the HAR exists, as the HEF's ends a compile (FILE_DONE): the step that wrote it ended.
  if ((t.includes('HAR') || t.includes('.har')) && !saysProblem(text)) {
    const done = fileDoneIn('har', t);
    // `echo`: words about a file, which repeat what the DFC's own line already said of it (state.ts noteSaved).
    if (done) return { kind: 'saved', echo: true, ...(done.file ? { file: saved('har', done.file) } : {}) };
  }
  // An exporter's own verdict that it wrote what it made: Ultralytics' try_export (ultralytics/engine/exporter.py, every
  // format: `{prefix} export success ✅ {t}s, saved as '{f}' ({mb} MB)` — `Hailo:`'s f is the directory holding the HEF).
  if (t.includes('export success') && EXPORT_SAVED.test(t)) {
    const f = MARKER.exportSavedAs.exec(t)?.[1];
    return { kind: 'saved', ...(f ? { file: saved(exportKind(f), f) } : {}) };
  }
  if (t.includes('PASS') && HARNESS_PASSED.test(t)) return { kind: 'passed' };
  if (compileLine(t)) return { kind: 'stageLine', stage: 'compile' };
  if (optimizeLine(t)) return { kind: 'stageLine', stage: 'optimize' };
  if (parseLine(t)) return { kind: 'stageLine', stage: 'parse' };
  const lv = level(text);
  const englishSucceeded = ((SUCCEEDED.test(t) || (READY.test(t) && !NOT_READY.test(t))) && !NOT_SUCCEEDED.test(t)) || authorCured(t);
  if (lv !== 'error' && lv !== 'critical' && lv !== 'warning' && (englishSucceeded || (CJK_SUCCEEDED.test(t) && !CJK_NOT_SUCCEEDED.test(t))))
    return { kind: 'succeeded' };
  return null;
}

/**
 * The last frame of the DFC emulator's inference bar (ClientRunner.infer in an `infer_context`: tqdm's `Inference` bar counting
 * `entries`, the unit its `Calibration` bar counts in), once it counted an entry: `Inference: 8entries [00:31,  3.97s/entries]`
 * when the dataset has no length (dfc-corpus unseen27/02, a notebook cell's output), `Inference: 100%|███| 8/8 [00:31<00:00,
 * 3.97s/entries]` when it has one. The bar stops at the loop's end, as it would where the run died: only a line of the program's
 * own output after it (state.ts) shows that infer returned.
 */
const EMULATOR_BAR =
  /^Inference: (?:(\d{1,9})entries \[(?:\d{1,3}:)?\d{2}:\d{2}, +\d+(?:\.\d+)?(?:s\/entries|entries\/s)\]|100%\|[^|]{0,400}\| ?(\d{1,9})\/\2 \[[\d:]{4,12}<00:00, +\d+(?:\.\d+)?(?:s\/entries|entries\/s)\])\s*$/;

export function emulatorInferenceEnded(text: string): boolean {
  if (!text.startsWith('Inference: ')) return false;
  const m = EMULATOR_BAR.exec(text);
  return m !== null && Number(m[1] ?? m[2]) > 0;
}

/** A tally's count of failures above zero (`failed=2`, `errors: 1`). */
/**
 * An author's report of the frame rate their run reached, in their own sentence (`I got approximately 30fps in my testing.`, a
 * Raspberry Pi 5 tracking tutorial's run, dfc-corpus unseen27/03; `we reached ~25 FPS on the Hailo-8L`, `yolov8s runs at 60 fps`):
 * a rate is measured over frames that went through, so the run they tell of ran — as a benchmark's `Throughput: N fps` over its
 * timed run is its answer. Their subject and verb, then the number: a live counter (`FPS: 12.36`) is no sentence. A sentence that
 * measures it against something else (`only`, `instead of`, `expected`, `but`), asks, wishes or supposes says no such end
 * (AUTHOR_RATE_NOT), nor does a negation or a failure word in it (NOT_SUCCEEDED).
 */
const AUTHOR_RATE =
  /(?:\b(?:I|we|it|this|that|the (?:app|application|demo|pipeline|model|tracker|detector|script)) (?:(?:finally|then|now|consistently) )?(?:got|get|gets|reached|reach|reaches|achieved|achieve|achieves|measured|saw|see|is running at|was running at)|\b[\w.-]{2,40} (?:runs|ran) at)(?: (?:a stable|a steady|an average of|on average|around|about|approximately|approx\.?|roughly|nearly|almost|over|more than|up to|consistently))* ?~?\d{1,4}(?:\.\d{1,2})?(?:[-\u2013~]\d{1,4})? ?(?:fps|FPS|frames per second|frames\/s)\b/;
const AUTHOR_RATE_NOT =
  /\b(?:only|just|instead|expected|expect\w*|but|however|drops?|dropped|slow\w*|target\w*|want\w*|should|would|could|might|hope\w*|if|when|until)\b|\?/i;

/** An author's report of the frame rate their run reached (AUTHOR_RATE), in their sentence, nothing in it taking it back. */
export function authorRate(t: string): boolean {
  if (!AUTHOR_RATE.test(t)) return false;
  const sentence = t.split(/(?<=[.!?])\s+/).find((x) => AUTHOR_RATE.test(x)) ?? t;
  return !AUTHOR_RATE_NOT.test(sentence) && !NOT_SUCCEEDED.test(sentence);
}

/** A component an inventory did not find (`hailort=-1`, `pyhailort=unknown`, `tappas-core=missing`). */
const INVENTORY_ABSENT = /=(?:-1|unknown|missing|none|not[-_]?found|n\/a)(?=\s|$)/i;
const TALLY_FAILED = /(?<![a-z])(?:fail(?:ed|ures?)?|errors?|incorrect|mismatch(?:es|ed)?|crash(?:es|ed)?)\s?[=:]\s?0*[1-9]/i;

const RUN_END_WORD = /[Kk]illed|[Tt]erminated|interrupt|\^C|exit|Error \d/;

/**
 * The shell's, a relay's or the kernel's word that the run ended (`zsh: killed     hailo …`, `dfc-1 exited with code 137`,
 * `Out of memory: Killed process …`: the `killed`/`exited` markers): a line of its own, never the rest of a message or a
 * filled line before it (errors.ts, forms.ts).
 */
export function endsRun(text: string): boolean {
  // Every killed/exited marker has one of these words: most lines are past this test at once.
  if (!RUN_END_WORD.test(text)) return false;
  const m = classifyMarker(text);
  return m !== null && (m.kind === 'killed' || m.kind === 'exited');
}

/** `'a', "b"` → [a, b]. */
export function quotedNames(s: string): string[] {
  const out: string[] = [];
  const re = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) out.push(m[1] ?? m[2]);
  return out;
}

export interface Progress {
  label: string;
  done: number;
  total: number | null;
}

/** classifyProgress's patterns, made once (a regular expression literal in a function is a new RegExp object at every call). */
const PROGRESS = {
  tqdm: /^\s*(?:\[\w+\]\s*)?(.*?):?\s*(\d+)%\|[^|]*\|\s*(\d+)(?:\/(\d+|\?))?/,
  epoch: /^\s*Epoch (\d+)\/(\d+)\s*$/,
  step: /^\s*(\d+)\/(\d+) (?:\[[=>.]*\]|[━─]+)/,
  iteration: /^\s*(?:\[\w+\]\s*)?Context:(\d+)\/(\d+) Iteration (\d+)/,
  starting: /^Starting ((?!Model Optimization|Hailo allocation)[A-Z][\w -]*?)\s*$/,
};

/**
 * tqdm: `Calibration: 100%|██████████| 64/64 [00:18<00:00, 3.54entries/s]`; Keras epochs
 * `Epoch 1/4` and steps `500/500 [=====] - 233s …`; allocation `Context:0/3 Iteration 4: …`;
 * optimization algorithms `Starting Statistics Collector` (done 0, total unknown).
 */
export function classifyProgress(text: string): Progress | null {
  let m = PROGRESS.tqdm.exec(text);
  if (m) return { label: m[1].trim() || 'progress', done: Number(m[3]), total: m[4] && m[4] !== '?' ? Number(m[4]) : null };
  m = PROGRESS.epoch.exec(text);
  if (m) return { label: 'Epoch', done: Number(m[1]), total: Number(m[2]) };
  // Keras 2 `500/500 [=====]`, Keras 3 `1024/1024 ━━━━━━━━━━━━━━━━━━━━ 203s 115ms/step` (test/fixtures/dfc/SOURCES.md).
  m = PROGRESS.step.exec(text);
  if (m) return { label: 'Step', done: Number(m[1]), total: Number(m[2]) };
  m = PROGRESS.iteration.exec(text);
  if (m) return iterationProgress(m);
  const t = withoutLevel(text).trim();
  m = PROGRESS.starting.exec(t);
  if (m) return { label: m[1], done: 0, total: null };
  return null;
}

/** The allocator's `Context:N/M Iteration K` as progress (groups 1–3: N, M, K). */
export function iterationProgress(m: RegExpExecArray): Progress {
  return { label: iterationLabel(m[1], m[2]), done: Number(m[3]), total: null };
}

/** Each context's label, made once (a compile has a few contexts, each tried many times); bounded. */
const ITERATION_LABELS = new Map<string, Map<string, string>>();

function iterationLabel(n: string, of: string): string {
  let byTotal = ITERATION_LABELS.get(of);
  if (!byTotal) {
    byTotal = new Map();
    if (ITERATION_LABELS.size < 64) ITERATION_LABELS.set(of, byTotal);
  }
  let label = byTotal.get(n);
  if (label === undefined) {
    label = `Allocation, context ${Number(n) + 1} of ${Number(of) + 1}, iteration`;
    if (byTotal.size < 256) byTotal.set(n, label);
  }
  return label;
}

/**
 * The allocator's line at each try of its search, untagged, with nothing after its own words (`Context:0/3 Iteration 4:
 * Trying parallel mapping...  `, padded with spaces; also `Trying parallel splits...`, `Mapping prepost...` — the phrases
 * test/fixtures and the corpus show): most lines of a compile's log after the grid rows. Its groups are classifyProgress's
 * for it (N, M, K). routes.ts reads such a line by the mechanisms it can concern only.
 */
export const ALLOCATOR_ITERATION =
  /^Context:(\d{1,4})\/(\d{1,4}) Iteration (\d{1,6}): (?:Trying parallel mapping|Trying parallel splits|Mapping prepost)\.\.\. *$/;

/** Contexts and utilisation as the compile stage prints them. */
export type SummaryFact =
  | { kind: 'header'; columns: ('control' | 'compute' | 'memory' | null)[] }
  | { kind: 'total'; values: (number | null)[] }
  | { kind: 'context'; index: number }
  /** `<net>_context_N utilization:` — the table that follows is that context's. */
  | { kind: 'contextTable'; index: number }
  | { kind: 'singleContext' }
  | { kind: 'contexts'; count: number };

/** classifySummaryLine's patterns, made once (a regular expression literal in a function is a new RegExp object at every call). */
const SUMMARY = {
  clusterCell: /^cluster$/i,
  control: /control/i,
  compute: /compute/i,
  memory: /memory/i,
  totalCell: /^total$/i,
  percent: /^\d+(?:[.,]\d+)?%$/,
  compilingContext: /^Compiling (?:kernels of )?(?:\S*_)?context_(\d+)\.\.\./,
  contextTable: /^\S*?context_(\d+) utilization:\s*$/,
  singleContext: /^Using Single-context flow/,
  partitionApplied: /^Applying selected partition to (\d+) contexts/,
};

/**
 * `| Cluster | Control Utilization | Compute Utilization | Memory Utilization |`, the `| Total | …`
 * row, `Compiling kernels of NET_context_N...` / `Compiling context_N...`, `Using Single-context flow`,
 * `Applying selected partition to N contexts...`.
 */
export function classifySummaryLine(text: string): SummaryFact | null {
  const t = withoutLevel(text).trim();
  let m: RegExpExecArray | null;
  if (t.startsWith('|')) {
    const cells = t
      .split('|')
      .slice(1, -1)
      .map((c) => c.trim());
    if (cells.length < 2) return null;
    if (SUMMARY.clusterCell.test(cells[0])) {
      return {
        kind: 'header',
        columns: cells
          .slice(1)
          .map((c) => (SUMMARY.control.test(c) ? 'control' : SUMMARY.compute.test(c) ? 'compute' : SUMMARY.memory.test(c) ? 'memory' : null)),
      };
    }
    if (SUMMARY.totalCell.test(cells[0])) {
      // `60,9%` where the machine's locale writes a decimal comma (test/fixtures/dfc/SOURCES.md, case real-efficientnet-multicontext).
      return { kind: 'total', values: cells.slice(1).map((c) => (SUMMARY.percent.test(c) ? Number(c.slice(0, -1).replace(',', '.')) : null)) };
    }
    return null;
  }
  if ((m = SUMMARY.compilingContext.exec(t))) return { kind: 'context', index: Number(m[1]) };
  if ((m = SUMMARY.contextTable.exec(t))) return { kind: 'contextTable', index: Number(m[1]) };
  if (SUMMARY.singleContext.test(t)) return { kind: 'singleContext' };
  if ((m = SUMMARY.partitionApplied.exec(t))) return { kind: 'contexts', count: Number(m[1]) };
  return null;
}
