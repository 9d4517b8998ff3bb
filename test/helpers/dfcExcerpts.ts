// Excerpts of DFC logs cut the way authors quote them (docs/research/dfc-unseen-misses.md: fresh logs are excerpts —
// the failure and a few frames, a command, a file name, not the stage markers), for the generative test of the
// reader's stage inference (test/unit/dfc/dfc-excerpt-stages.test.ts, server/src/core/dfc/stageEvidence.ts).
// From every read corpus log and reader fixture whose expectation names the stage a run failed in, a seeded PRNG
// derives excerpts — the stage markers before the failure dropped, only the traceback's last frames and its
// exception kept, only the command and the error, the head or the tail cut — and the excerpt must read the same
// failed stage whenever it still holds evidence of that stage (`evidenceIn`, stated below, independently of the reader).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { prng } from '../../server/src/core/common/prng';
import { matchDfcMessage } from '../../server/src/core/common/dfcMessages';
import { readDfcLog, type DfcExit, type DfcReport, type StageName } from '../../server/src/core/dfc';
import { corpusCases, READ_PARTS } from './dfcCorpus';
import { repoRoot } from './shared';

type Rand = () => number;
const STAGE_ORDER: readonly StageName[] = ['parse', 'optimize', 'compile'];

export interface StagedLog {
  name: string;
  lines: string[];
  /** The stage the log's own expectation (expect.json / expected.json, written from the log and its thread) says the run failed in. */
  stage: StageName;
}

/** Every read corpus log and reader fixture whose expectation names a DFC stage as the one the run failed in. */
export function stagedLogs(): StagedLog[] {
  const out: StagedLog[] = [];
  const add = (dir: string, file: string, pick: (j: unknown) => unknown) => {
    const stage = pick(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    if (stage !== 'parse' && stage !== 'optimize' && stage !== 'compile') return;
    const lines = readFileSync(join(dir, 'run.log'), 'utf8').replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
    out.push({ name: dir.split('/').slice(-2).join('/'), lines, stage });
  };
  for (const dir of READ_PARTS.flatMap((p) => corpusCases(p))) add(dir, 'expect.json', (j) => (j as { expect: { failedStage?: string } }).expect.failedStage);
  const fixtures = join(repoRoot, 'test', 'fixtures', 'dfc');
  for (const d of readdirSync(fixtures, { withFileTypes: true }).filter((x) => x.isDirectory()))
    add(join(fixtures, d.name), 'expected.json', (j) => (j as { failedStage?: string }).failedStage);
  return out;
}

// ---- evidence of a stage: what counts -------------------------------------------------------------------
// A line counts as evidence that a stage ran when it is one of these, each a fact of the DFC's own output or API
// (/work/shared/docs/dfc-flow.md §3.2, §7.2, §7.3; test/fixtures/dfc/SOURCES.md). The test asserts an excerpt's
// failed stage only when its evidence names the expected stage and no later one.

/** A traceback frame: the DFC module it runs in, or the ClientRunner method (`File "…/client_runner.py", line N, in optimize`). */
const FRAME = /^\s*File "([^"]*)", line \d+, in (\S+)/;
function frameStage(path: string, fn: string): StageName | null {
  if (/hailo_model_optimization[\\/]|[\\/]acceleras[\\/]/.test(path)) return 'optimize';
  if (/[\\/]onnx_translator[\\/]/.test(path)) return 'parse';
  if (/[\\/](?:sdk_backend[\\/]parser|model_translator)[\\/]|parser_cli\.py$/.test(path)) return 'parse';
  if (/[\\/](?:allocator|hailo_tools[\\/]build)[\\/]|compiler_cli\.py$/.test(path)) return 'compile';
  // The model script is the optimize stage's input (`hailo optimize --model-script`, dfc-flow.md §7.2).
  if (/script_parser[\\/]/.test(path)) return 'optimize';
  if (/hailo_sdk_client[\\/]|[\\/]client_runner\.py$/.test(path)) {
    if (/^(?:translate_(?:onnx|tf)_model|_parse_onnx_model_to_hn|parse_model_to_hn)$/.test(fn)) return 'parse';
    if (/^(?:optimize|optimize_full_precision|full_quantization|load_model_script)$/.test(fn)) return 'optimize';
    if (/^_?compile$/.test(fn)) return 'compile';
  }
  // The model zoo's steps (hailo_model_zoo/main_driver.py, core/main_utils.py).
  if (/hailo_model_zoo[\\/]/.test(path)) {
    if (/^(?:parse_model|_ensure_parsed)$/.test(fn)) return 'parse';
    if (/^(?:optimize_model|_ensure_optimized)$/.test(fn)) return 'optimize';
    if (/^(?:compile_model|_ensure_compiled)$/.test(fn)) return 'compile';
  }
  return null;
}

/** The Python API call a line shows (`runner.optimize(calib)`, `hef = runner.compile()`). */
const CALL = /\b\w*[Rr]unner\w*\.(translate_onnx_model|translate_tf_model|optimize_full_precision|optimize|compile)\(/;
/**
 * A command that runs one stage only: `hailo parser|optimize|compiler`, `hailomz parse`, `hailomz optimize --har`, and
 * `hailomz compile --har` given the optimizer's output (`x_optimized.har`, `x_quantized.har`: dfc-flow.md §7.2).
 */
const ONE_STAGE_COMMAND =
  /\bhailo (parser|optimize|compiler)\b|\bhailomz (parse)\b|\bhailomz (optimize)\b(?=.*--har\b)|\bhailomz (compile)\b(?=.*--har[= ]+\S*[._-](?:optimi[sz]ed|quanti[sz]ed)(?:[._-]model)?\.har\b)/;
/** An exception class of one stage's own framework (the optimizer's Acceleras, the allocator's). */
const CLASS = /\b(Acceleras[A-Z]\w*|BackendAllocator\w*|hailo_model_optimization\.[\w.]*[A-Z]\w*)\b/;
/** A line only a running stage prints (its start, an optimization algorithm, partitioning) — a finished stage's end is no failure there. */
const STAGE_LINE: readonly (readonly [RegExp, StageName])[] = [
  [/Translation started|Restored ONNX model|Start nodes mapped|End nodes mapped|Parsing failed with recommendations/, 'parse'],
  [
    /Starting Model Optimization|Using dataset with \d+ entries|Model Optimization Algorithm|Starting (?:Mixed Precision|Stats? Collector|Statistics Collector|Bias Correction|Fine ?[Tt]une|Quantization-Aware|Layer Noise Analysis|Equaliz)|Calibration: +\d+%|^\s*Epoch \d+\/\d+|Full Quant Analysis/,
    'optimize',
  ],
  [
    /Starting Hailo allocation|Compiling network|Loading network parameters|Starting Hailo context-partitioner|Finding the best partition|Trying to compile the network in a single context|Single context flow failed|Context:\d+\/\d+ Iteration|Building HEF|Validating layers feasibility/,
    'compile',
  ],
];

/** A line without its colours and its DFC level tag, for the catalogue. */
const plain = (line: string) => line.replace(/\x1b\[[0-9;]*m/g, '').replace(/^\s*\[\w+\]\s*/, '');

export type EvidenceKind = 'catalogue' | 'frame' | 'call' | 'command' | 'class' | 'stage-line';

export interface Evidence {
  stage: StageName;
  kind: EvidenceKind;
}

/** The evidence of a stage the lines hold (see above). */
export function evidenceIn(lines: readonly string[]): Evidence[] {
  const out: Evidence[] = [];
  // ClientRunner calls outside a traceback (an author's script) that name several stages say none: the whole script shows.
  const scriptCalls = new Set<string>();
  lines.forEach((line, k) => {
    const c = CALL.exec(line);
    if (c && !(k > 0 && FRAME.test(lines[k - 1]))) scriptCalls.add(c[1].startsWith('translate') ? 'parse' : c[1] === 'compile' ? 'compile' : 'optimize');
  });
  for (const [at, line] of lines.entries()) {
    const f = FRAME.exec(line);
    const fs = f ? frameStage(f[1], f[2]) : null;
    if (fs) out.push({ stage: fs, kind: 'frame' });
    const c = CALL.exec(line);
    if (c && (scriptCalls.size === 1 || (at > 0 && FRAME.test(lines[at - 1]))))
      out.push({ stage: c[1].startsWith('translate') ? 'parse' : c[1] === 'compile' ? 'compile' : 'optimize', kind: 'call' });
    const k = ONE_STAGE_COMMAND.exec(line);
    if (k) {
      const verb = k[1] ?? k[2] ?? k[3] ?? k[4];
      out.push({ stage: verb === 'parser' || verb === 'parse' ? 'parse' : verb === 'optimize' ? 'optimize' : 'compile', kind: 'command' });
    }
    const cl = CLASS.exec(line);
    if (cl) out.push({ stage: /^BackendAllocator/.test(cl[1]) ? 'compile' : 'optimize', kind: 'class' });
    for (const [re, stage] of STAGE_LINE) if (re.test(line)) out.push({ stage, kind: 'stage-line' });
    const m = line.length >= 8 && line.length < 4000 ? matchDfcMessage(plain(line)) : null;
    const ms = m?.message.stage;
    if (m?.message.code && (ms === 'parse' || ms === 'optimize' || ms === 'compile') && m.message.severity === 'error')
      out.push({ stage: ms, kind: 'catalogue' });
  }
  return out;
}

/** Whether the evidence names `stage` and no later stage (an earlier one's marks are a run that got that far). */
export function evidences(ev: readonly Evidence[], stage: StageName): boolean {
  const at = STAGE_ORDER.indexOf(stage);
  return ev.some((e) => e.stage === stage) && !ev.some((e) => STAGE_ORDER.indexOf(e.stage) > at);
}

// ---- how authors quote a log ------------------------------------------------------------------------------
interface Row {
  i: number;
  text: string;
}

/** Lines of a stage's markers and progress: what an excerpt drops first (the author quotes the failure, not the run). */
const MARKER =
  /Translation (?:started|completed)|Restored ONNX|Extracted ONNXRuntime|nodes mapped|Starting Model Optimization|Model Optimization (?:is done|Algorithm)|Starting [A-Z]|[A-Z][\w -]* (?:skipped|is done)|Using dataset with|Using default optimization level|Calibration:|Epoch \d|\d+\/\d+ (?:\[|━)|Starting Hailo|Compiling network|Successful (?:Mapping|Partition|Compilation)|[Pp]artition|Context:\d|Loading network parameters|Building HEF|Compiling (?:kernels|context)|Saved HAR|HEF file written|Loading model script commands|single context|Validating layers|feasibility/;
/** A command or an API call line (what an author keeps with the error). */
const COMMAND =
  /\bhailomz? [a-z]|Running `|ClientRunner\(|\.(?:translate_onnx_model|translate_tf_model|optimize|optimize_full_precision|compile|load_model_script|load_har|save_har)\(|^\s*\S*[$#] \S/;
/** An exception line (`[error] pkg.SomeError: message`): its class, then the message an excerpt may replace. */
const UNCATALOGUED = /^(\s*(?:\[\w+\]\s*)?(?:[A-Za-z_][\w]*\.)*)([A-Z]\w*(?:Error|Exception)):\s*\S/;
/** Messages no catalogue entry has (an author's paraphrase, a release's new wording). */
const MASKS = ['unexpected value 7 in step 3', 'could not complete the requested operation (code 12)', 'internal state is inconsistent'];
const FRAME_LINE = /^\s*File "[^"]*", line \d+, in \S+/;

/** The error line and the message lines after it (Python's unindented continuation, indented cause lines). */
function errorBlock(rows: Row[], at: number): Row[] {
  const out = [rows[at]];
  for (let k = at + 1; k < rows.length && out.length < 5; k++) {
    const t = rows[k].text;
    if (!t.trim() || !/^(?:\s|[a-z]|\[\[)/.test(t) || FRAME_LINE.test(t)) break;
    out.push(rows[k]);
  }
  return out;
}

export interface Excerpt {
  label: string;
  lines: string[];
}

const pick = <T>(r: Rand, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

function lastIndexWhere<T>(xs: readonly T[], ok: (x: T) => boolean): number {
  for (let k = xs.length - 1; k >= 0; k--) if (ok(xs[k])) return k;
  return -1;
}

/** One excerpt of the log as an author would quote it, or null when the drawn cut does not apply to this log. */
export function excerptOf(lines: readonly string[], errorLine: number, r: Rand): Excerpt | null {
  let rows: Row[] = lines.map((text, i) => ({ i, text }));
  const errAt = () => rows.findIndex((x) => x.i === errorLine);
  const labels: string[] = [];
  // Half the time the error's message is one nobody catalogued (the class kept): its stage must come from what else the excerpt shows.
  if (r() < 0.5) {
    const e0 = errAt();
    const m = UNCATALOGUED.exec(rows[e0].text);
    if (m) {
      const block = errorBlock(rows, e0).length;
      rows = [...rows.slice(0, e0), { i: errorLine, text: `${m[1]}${m[2]}: ${pick(r, MASKS)}` }, ...rows.slice(e0 + block)];
      labels.push('uncatalogued');
    }
  }
  const op = pick(r, ['drop-markers', 'last-frames', 'command-and-error', 'cut-head', 'cut-tail', 'errors-only', 'cut-in-traceback'] as const);
  const e = errAt();
  switch (op) {
    case 'drop-markers': {
      const kept = rows.filter((x, k) => k >= e || !MARKER.test(x.text));
      if (kept.length === rows.length) return null;
      rows = kept;
      labels.push('drop-markers');
      break;
    }
    case 'last-frames': {
      // The traceback the error line ends: its frame lines before it, back to its header.
      const frames: number[] = [];
      for (let k = e - 1; k >= 0 && e - k < 400; k--) {
        const t = rows[k].text;
        if (/Traceback \(most recent call last\)/.test(t)) break;
        if (FRAME_LINE.test(t)) frames.unshift(k);
      }
      if (!frames.length) return null;
      const n = 1 + Math.floor(r() * Math.min(3, frames.length));
      const from = frames[frames.length - n];
      const header = r() < 0.5 ? [{ i: -1, text: 'Traceback (most recent call last):' }] : [];
      rows = [...header, ...rows.slice(from, e), ...errorBlock(rows, e)];
      labels.push(`last-${n}-frames${header.length ? '+header' : ''}`);
      break;
    }
    case 'command-and-error': {
      const cmds = rows.slice(0, e).filter((x) => COMMAND.test(x.text) && !FRAME_LINE.test(x.text));
      if (!cmds.length) return null;
      rows = [...cmds.slice(-2), ...errorBlock(rows, e)];
      labels.push('command-and-error');
      break;
    }
    case 'errors-only': {
      // The author kept the error and warning lines, the messages that say the error and the traceback, not the info
      // lines (the banner, the markers).
      const kept = rows.filter(
        (x, k) =>
          k >= e ||
          /^\s*\[(?:error|warning|critical)\]|^\s|Traceback|^[A-Za-z_][\w.]*(?:Error|Exception)\b/i.test(x.text) ||
          (x.text.length < 4000 && matchDfcMessage(plain(x.text)) !== null),
      );
      if (kept.length === rows.length) return null;
      rows = kept;
      labels.push('errors-only');
      break;
    }
    case 'cut-in-traceback': {
      // The quote stops inside the traceback: its frames, no exception line.
      const lastFrame = lastIndexWhere(rows.slice(0, e), (x) => FRAME_LINE.test(x.text));
      if (lastFrame < 0 || e - lastFrame > 4 || rows.slice(lastFrame + 1, e).some((x) => !/^\s/.test(x.text))) return null;
      rows = rows.slice(0, lastFrame + 1 + Math.floor(r() * 2));
      labels.push('cut-in-traceback');
      break;
    }
    case 'cut-head': {
      if (e < 2) return null;
      // Half the time only the last few lines before the error, as most quotes are.
      const k = r() < 0.5 ? Math.max(1, e - 1 - Math.floor(r() * 6)) : 1 + Math.floor(r() * (e - 1));
      rows = rows.slice(k);
      labels.push(`cut-head-${k}`);
      break;
    }
    case 'cut-tail': {
      const after = rows.length - 1 - errorBlock(rows, e).length - e;
      if (after < 1) return null;
      const keep = Math.floor(r() * Math.min(after, 6));
      rows = rows.slice(0, e + errorBlock(rows, e).length + keep);
      labels.push(`cut-tail+${keep}`);
      break;
    }
  }
  // Sometimes the author elided the frames' paths down to their last folders (`File ".../onnx_translator/onnx_graph.py"`).
  if (r() < 0.25) {
    const keep = 2 + Math.floor(r() * 2);
    const dots = pick(r, ['...', '…', '<...>']);
    rows = rows.map((x) => {
      const f = /^(\s*File ")([^"]*)(".*)$/.exec(x.text);
      const parts = f ? f[2].split('/') : [];
      return f && parts.length > keep ? { i: x.i, text: `${f[1]}${dots}/${parts.slice(-keep).join('/')}${f[3]}` } : x;
    });
    labels.push(`elide-paths-${keep}`);
  }
  // Sometimes the author pasted it at the margin (a note or a fence that dedented it, dfc-corpus unseen3/20).
  if (r() < 0.2) {
    rows = rows.map((x) => ({ i: x.i, text: x.text.trimStart() }));
    labels.push('dedent');
  }
  // Sometimes the command is said in a sentence (`I ran \`hailo optimize m.har\` and got:`).
  if (r() < 0.3) {
    const c = rows.findIndex((x, k) => k < errAt() && COMMAND.test(x.text) && !FRAME_LINE.test(x.text) && !x.text.includes('`'));
    if (c >= 0) {
      const said = rows[c].text.replace(/^\s*(?:\[\w+\]\s*)?(?:\S*[$#] )?/, '').trim();
      rows = [
        ...rows.slice(0, c),
        { i: rows[c].i, text: `${pick(r, ['I ran', 'Running', 'After'])} \`${said}\` ${pick(r, ['and got:', 'fails with:', 'it dies:'])}` },
        ...rows.slice(c + 1),
      ];
      labels.push('command-in-prose');
    }
  }
  // A second cut of the head (an author starts the quote where the error's context starts).
  if (op !== 'cut-head' && r() < 0.3) {
    const e2 = errAt();
    if (e2 >= 2) {
      const k = 1 + Math.floor(r() * (e2 - 1));
      rows = rows.slice(k);
      labels.push(`cut-head-${k}`);
    }
  }
  return { label: labels.join('+'), lines: rows.map((x) => x.text) };
}

/** The 0-based line of the first error the reading of the whole log placed on the log (the failure an author quotes). */
export function firstErrorLine(report: DfcReport): number | null {
  const d = report.diagnostics.find((x) => x.severity === 'error' && x.logLine !== undefined);
  return d?.logLine ? d.logLine - 1 : null;
}

export interface ExcerptRun {
  /** Excerpts drawn that applied to their log. */
  excerpts: number;
  /** Excerpts whose evidence names the expected stage: the ones asserted. */
  asserted: number;
  /** Asserted excerpts whose only evidence of the stage is of one kind (a reader ignoring that kind misreads them). */
  onlyKind: Record<EvidenceKind, number>;
  differ: string[];
  /** The asserted excerpts ended by a kill instead (KILLS): those not read `killed` in the same stage. */
  killedDiffer: string[];
}

/**
 * How a run ends when something kills it, as the log or its caller says it: the exit status a shell or docker reports
 * for a signal (128+N, bash(1) EXIT STATUS: 130 SIGINT, 137 SIGKILL, 143 SIGTERM), a cancel, the shells' words (bash's
 * `Killed`/`Terminated`, zsh's `zsh: killed`, the terminal's `^C`), docker compose's `NAME exited with code 137` and the
 * kernel's OOM killer (mm/oom_kill.c `__oom_kill_process`). A kill after the lines an excerpt keeps moves no stage: the
 * killed run is placed by the same evidence as the failed one (state.ts `stoppedStage`).
 */
export const KILLS: readonly { label: string; line?: string; exit?: DfcExit }[] = [
  { label: 'exit 137', exit: { code: 137 } },
  { label: 'exit 130', exit: { code: 130 } },
  { label: 'exit 143', exit: { code: 143 } },
  { label: 'cancelled', exit: { code: null, cancelled: true } },
  { label: 'Killed', line: 'Killed' },
  { label: 'zsh killed', line: 'zsh: killed     hailo optimize model.har' },
  { label: '^C', line: '^C' },
  { label: 'Terminated', line: './run.sh: line 12: 40711 Terminated              hailomz compile yolov8s' },
  { label: 'compose 137', line: 'dfc-1 exited with code 137' },
  {
    label: 'OOM killer',
    line: '[ 8123.456789] Out of memory: Killed process 4242 (hailo) total-vm:41234567kB, anon-rss:31234567kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:65432kB oom_score_adj:0',
  },
];

/** `perLog` excerpts of each log drawn from `seed`: the asserted ones that read another failed stage. */
export function runExcerpts(logs: readonly StagedLog[], seed: number, perLog: number): ExcerptRun {
  const run: ExcerptRun = {
    excerpts: 0,
    asserted: 0,
    onlyKind: { catalogue: 0, frame: 0, call: 0, command: 0, class: 0, 'stage-line': 0 },
    differ: [],
    killedDiffer: [],
  };
  logs.forEach((log, n) => {
    const whole = readDfcLog(`${log.lines.join('\n')}\n`, { logPath: 'run.log' });
    const err = firstErrorLine(whole);
    if (err === null) return;
    const r = prng((seed * 1_000_003 + n * 7919) >>> 0);
    for (let k = 0; k < perLog; k++) {
      const x = excerptOf(log.lines, err, r);
      if (!x) continue;
      run.excerpts++;
      const ev = evidenceIn(x.lines);
      if (!evidences(ev, log.stage)) continue;
      run.asserted++;
      const kinds = new Set(ev.filter((v) => v.stage === log.stage).map((v) => v.kind));
      if (kinds.size === 1) run.onlyKind[[...kinds][0]]++;
      const got = readDfcLog(`${x.lines.join('\n')}\n`, { logPath: 'run.log' }).failedStage;
      if (got !== log.stage) run.differ.push(`${log.name} [${x.label}; ${[...kinds].join(',')}]: ${got} (want ${log.stage})`);
      // The same excerpt killed (each kind in turn, not drawn: the excerpts drawn stay those of the seed).
      const kill = KILLS[(n + k) % KILLS.length];
      const killed = readDfcLog(`${[...x.lines, ...(kill.line ? [kill.line] : [])].join('\n')}\n`, { logPath: 'run.log' }, kill.exit);
      if (killed.outcome !== 'killed' || killed.failedStage !== log.stage)
        run.killedDiffer.push(`${log.name} [${x.label}; ${kill.label}]: ${killed.outcome} ${killed.failedStage} (want killed ${log.stage})`);
    }
  });
  return run;
}

// ---- the outcome of an excerpt of a successful run ----------------------------------------------------------
/** A successful run's log (its expectation says `success`) that shows a DFC stage running. */
export function successLogs(): StagedLog[] {
  const out: StagedLog[] = [];
  const add = (dir: string, file: string, pick: (j: unknown) => unknown) => {
    if (pick(JSON.parse(readFileSync(join(dir, file), 'utf8'))) !== 'success') return;
    const lines = readFileSync(join(dir, 'run.log'), 'utf8').replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
    const last = lastStageIn(lines);
    if (last) out.push({ name: dir.split('/').slice(-2).join('/'), lines, stage: last });
  };
  for (const dir of READ_PARTS.flatMap((p) => corpusCases(p))) add(dir, 'expect.json', (j) => (j as { expect: { outcome?: string } }).expect.outcome);
  const fixtures = join(repoRoot, 'test', 'fixtures', 'dfc');
  for (const d of readdirSync(fixtures, { withFileTypes: true }).filter((x) => x.isDirectory()))
    add(join(fixtures, d.name), 'expected.json', (j) => (j as { outcome?: string }).outcome);
  return out;
}

function lastStageIn(lines: readonly string[]): StageName | null {
  let last: StageName | null = null;
  for (const l of lines) for (const [re, stage] of STAGE_LINE) if (re.test(l)) last = stage;
  return last;
}

/** A stage's end as the DFC prints it (dfc-flow.md §7.3): what a run in that stage has not reached yet. */
const STAGE_END: Record<StageName, RegExp> = {
  parse: /Translation completed|Saved HAR to/,
  optimize: /Model Optimization is done|Saved HAR to/,
  compile: /Successful Compilation|HEF file written|Compilation complete|Saved HEF/,
};

export interface OutcomeRun {
  excerpts: number;
  differ: string[];
}

/**
 * Excerpts of successful runs cut where a stage is running — right after a line only that stage prints, before its
 * end — read `incomplete`: nothing shows the run ended, and nothing failed. The excerpt keeps no line after the cut.
 */
export function runMidStageCuts(logs: readonly StagedLog[], seed: number, perLog: number): OutcomeRun {
  const run: OutcomeRun = { excerpts: 0, differ: [] };
  logs.forEach((log, n) => {
    // Cut points: a stage's own line with that stage's end later in the log and no end of it before.
    const cuts: number[] = [];
    log.lines.forEach((l, i) => {
      for (const [re, stage] of STAGE_LINE) {
        if (!re.test(l)) continue;
        const endAt = log.lines.findIndex((x, k) => k > i && STAGE_END[stage].test(x));
        const endedBefore = log.lines.slice(0, i + 1).some((x) => STAGE_END[stage].test(x));
        if (endAt > i && !endedBefore) cuts.push(i);
      }
    });
    if (!cuts.length) return;
    const r = prng((seed * 1_000_003 + n * 7919) >>> 0);
    for (let k = 0; k < perLog; k++) {
      const at = pick(r, cuts);
      const from = r() < 0.5 ? 0 : Math.floor(r() * (at + 1));
      const lines = log.lines.slice(from, at + 1);
      run.excerpts++;
      const got = readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' }).outcome;
      if (got !== 'incomplete') run.differ.push(`${log.name} [lines ${from + 1}–${at + 1}]: ${got} (want incomplete)`);
    }
  });
  return run;
}

/**
 * The same cuts of successful runs, ended by a kill (KILLS, each in turn): `killed`, in the stage the cut line is one
 * of — the stage running when the kill came, nothing of a later stage shown, no error before it.
 */
export function runKilledMidStage(logs: readonly StagedLog[], seed: number, perLog: number): OutcomeRun {
  const run: OutcomeRun = { excerpts: 0, differ: [] };
  logs.forEach((log, n) => {
    const cuts: { at: number; stage: StageName }[] = [];
    log.lines.forEach((l, i) => {
      for (const [re, stage] of STAGE_LINE) {
        if (!re.test(l)) continue;
        const endAt = log.lines.findIndex((x, k) => k > i && STAGE_END[stage].test(x));
        const endedBefore = log.lines.slice(0, i + 1).some((x) => STAGE_END[stage].test(x));
        if (endAt > i && !endedBefore) cuts.push({ at: i, stage });
      }
    });
    if (!cuts.length) return;
    const r = prng((seed * 1_000_003 + n * 7919) >>> 0);
    for (let k = 0; k < perLog; k++) {
      const { at, stage } = pick(r, cuts);
      const from = r() < 0.5 ? 0 : Math.floor(r() * (at + 1));
      const kill = KILLS[(n + k) % KILLS.length];
      const lines = [...log.lines.slice(from, at + 1), ...(kill.line ? [kill.line] : [])];
      run.excerpts++;
      const got = readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' }, kill.exit);
      if (got.outcome !== 'killed' || got.failedStage !== stage)
        run.differ.push(`${log.name} [lines ${from + 1}–${at + 1}; ${kill.label}]: ${got.outcome} ${got.failedStage} (want killed ${stage})`);
    }
  });
  return run;
}

/**
 * Excerpts of successful runs that keep the log's tail from any point before its last stage's end (the end line
 * kept, the head — the command, the banner, earlier stages — cut) read `success`: the end is positive evidence.
 */
export function runTailCuts(logs: readonly StagedLog[], seed: number, perLog: number): OutcomeRun {
  const run: OutcomeRun = { excerpts: 0, differ: [] };
  logs.forEach((log, n) => {
    const end = lastIndexWhere(log.lines, (x) => STAGE_END[log.stage].test(x));
    if (end < 1) return;
    const r = prng((seed * 1_000_003 + n * 7919) >>> 0);
    for (let k = 0; k < perLog; k++) {
      const from = 1 + Math.floor(r() * end);
      const lines = log.lines.slice(from);
      run.excerpts++;
      const got = readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' }).outcome;
      if (got !== 'success') run.differ.push(`${log.name} [from line ${from + 1}]: ${got} (want success)`);
    }
  });
  return run;
}

/**
 * What a successful run's log may also show without changing how it ended (docs/research/dfc-unseen-misses.md,
 * class C): a mistyped command the shell's program refused before the retry that ran (argparse's own words,
 * Lib/argparse.py `error`: `PROG: error: argument …: invalid choice: 'x' (choose from …)`; the `hailo` CLI's
 * subcommands of /work/shared/docs/dfc-flow.md §7.2), and the allocator's search attempts it got past, logged at
 * info while the compile goes on (`Iteration failed on: Automri finished with too many resources on context_N`,
 * `Partition failed on: …`: dfc-corpus unseen7/27, unseen9/23). Either added to a successful run, it still reads
 * `success`.
 */
export function runSuccessAdditions(logs: readonly StagedLog[], seed: number, perLog: number): OutcomeRun {
  const run: OutcomeRun = { excerpts: 0, differ: [] };
  logs.forEach((log, n) => {
    const r = prng((seed * 1_000_003 + n * 7919) >>> 0);
    const compileAt: number[] = [];
    const compileEnd = lastIndexWhere(log.lines, (x) => STAGE_END.compile.test(x));
    log.lines.forEach((l, i) => {
      if (i < compileEnd && STAGE_LINE[2][0].test(l)) compileAt.push(i);
    });
    for (let k = 0; k < perLog; k++) {
      let lines: string[];
      let label: string;
      if (compileAt.length && r() < 0.5) {
        const at = pick(r, compileAt);
        const ctx = Math.floor(r() * 3);
        const attempt = pick(r, [
          `[info] Iteration failed on: Automri finished with too many resources on context_${ctx}`,
          `Partition failed on: Pro unikorn is below the best. Current: 60.381295, Best: 60.803017`,
        ]);
        lines = [...log.lines.slice(0, at + 1), attempt, ...log.lines.slice(at + 1)];
        label = 'search attempt';
      } else {
        const verb = log.stage === 'parse' ? 'parser' : log.stage === 'optimize' ? 'optimize' : 'compiler';
        const typo = pick(r, ['parsr', 'optimise', 'compile', 'complier']);
        const prompt = pick(r, ['$ ', 'user@host:~/work$ ', '(hailo_virtualenv) hailo@box:/local/shared_with_docker$ ']);
        lines = [
          `${prompt}hailo ${typo} model.onnx --hw-arch hailo8`,
          'usage: hailo [-h] [--version] {parser,optimize,compiler,profiler,analyze-noise,har} ...',
          `hailo: error: argument {parser,optimize,compiler,profiler,analyze-noise,har}: invalid choice: '${typo}' (choose from 'parser', 'optimize', 'compiler', 'profiler', 'analyze-noise', 'har')`,
          `${prompt}hailo ${verb} model.onnx --hw-arch hailo8`,
          ...log.lines,
        ];
        label = 'refusal, then the retry';
      }
      run.excerpts++;
      const got = readDfcLog(`${lines.join('\n')}\n`, { logPath: 'run.log' }).outcome;
      if (got !== 'success') run.differ.push(`${log.name} [${label}]: ${got} (want success)`);
    }
  });
  return run;
}
