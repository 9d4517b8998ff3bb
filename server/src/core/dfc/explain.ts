// What each DFC error means and where it goes: the `.alls` line that caused it, the ONNX node,
// the setting — or the log line when nothing better is known. Explanations say only what the
// evidence in codes.ts supports; never the retracted claims (fused LayerNormalization, the opset
// level, rank 2 alone, attention) of docs/research/dfc-flow.md#retractions.
import { COMMANDS } from '../alls/schema';
import {
  GENAI_CREATE_FAILED,
  GENAI_CREATE_FIX,
  dfcMessage,
  hailortFamilyFix,
  matchDfcMessage,
  type DfcMessage,
  type MessageMatch,
} from '../common/dfcMessages';
import { suggest } from '../alls/suggest';
import { DFC_CODES, type DfcCode } from './codes';
import type { LogLine } from './lines';
import { ScriptLocator } from './locate';
import { level, withoutLevel, type Level } from './markers';
import {
  PYHAILORT_CLASS_STATUS,
  describeHailortStatus,
  hailortStatusAdvice,
  hailortStatusIn,
  hailortStatusName,
  hailortStatusValue,
  type HailortFamilyCode,
} from '../common/hailortStatus';
import { sentenceFor } from '../device/errors';
import { describeErrno, errnoIn } from '../common/errno';
import { stoppedByCaller, type DfcDiagnostic, type DfcExit, type DfcFix, type Place, type ReaderView, type StageName } from './types';
import { namesIn, type UnknownWarning } from './unknownWarnings';
import type { Splat } from './kernelSplat';

/** An error as the log shows it. */
export interface Signal {
  kind: 'exception' | 'error-line';
  /** Exception class without its module (`IndexError`), null for `[error]` lines. */
  cls: string | null;
  message: string;
  /** Function names of the traceback chain, outermost first (the first and last ones of a long chain: errors.ts FrameList). */
  frames: string[];
  /** Frames of a long chain between the kept ends, counted, not kept. */
  framesOmitted?: number;
  line: LogLine;
  /** The stage its traceback shows (a DFC module's frame, the ClientRunner call), when it shows one. */
  stage?: StageName | null;
  /** The log stops inside the traceback: no exception line (its class only if IPython printed it first). */
  cut?: boolean;
  /** The node an author's report names after the class (`UnexpectedNodeError on node_Expand_61`, errors.ts reportsInProse). */
  node?: string;
  /** A line that is a failure only by its words (failureWords.ts): the words that say so. */
  words?: string;
  /** The innermost frame's file, as the traceback wrote it (`.../onnx_translator/onnx_graph.py`). */
  file?: string;
  /** A message an author quoted (errors.ts quotedRefusals): their words after it — what they changed, what it did then. */
  after?: string;
  /** The tool logged the line at its own warning level and went on (Explainer.observe): what it says is a warning. */
  warned?: boolean;
}

/** A caller's status line with its own words after the status (`CHECK_SUCCESS failed with status=HAILO_X(N) - words`). */
const CALLER_WORDS = /^CHECK(?:_[A-Z_]+)? failed with status=[A-Z_]{0,60}(?:\(\d{1,3}\)|\d{1,3}) - (\S.{0,400})$/;
/** The status those words repeat at their end (`… failed with status=HAILO_TIMEOUT(4) (timeout=10000ms)`): said once, by the chain. */
const STATUS_TAIL = /\s*(?:with )?status\s*=\s*[A-Z_]{0,60}(?:\(\d{1,3}\)|\d{1,3})(?:\s*\([^()]{0,60}\))?\s*$/;

/** The words a later line of a HailoRT failure adds: a caller's after its status, or a check's; null when it adds none. */
function callerWords(body: string): string | null {
  const m = CALLER_WORDS.exec(body);
  const words = m ? m[1] : /^CHECK(?:_[A-Z_]+)? failed\s*-\s*\S/.test(body) ? stripCheck(body) : null;
  return words?.replace(STATUS_TAIL, '').replace(/\s+/g, ' ').trim() || null;
}

/**
 * A pyhailort exception class, however qualified: its status class (`_pyhailort.HailoRTStatusException`), the classes it
 * raises per status (PYHAILORT_CLASS_STATUS: `HailoRT…Exception`, `HailoRTTimeout`, `HailoRTStreamAborted`,
 * `HailoCommunicationClosedException`, hailo_platform/pyhailort/pyhailort.py) and their base `HailoRTException`.
 */
const PYHAILORT_EXCEPTION = /(?:^|\.)(?:HailoRT\w{0,60}(?:Exception|Timeout|Aborted|Device)|Hailo\w{0,60}Exception|InvalidProtocolVersionException)$/;
/** Lines of one HailoRT failure (its check, then each caller's status) stand this close together. */
const HAILORT_CHAIN_LINES = 8;

interface HailortChain {
  code: DfcCode;
  d: DfcDiagnostic;
  /** The chain's last line so far. */
  last: number;
  status: number | null;
  detail: string;
  fix: string;
  /** The fix is the family's general advice: a status's own advice (hailortStatusAdvice) replaces it. */
  familyFix: boolean;
  excerpt: string[];
  /** HailoRT's own error lines after the status that no catalogue message explains (hailortAside). */
  asides: string[];
  /** The statuses the chain's check returns (its catalogue entry's `statuses`): its callers' status lines join it. */
  statuses: readonly string[];
  /** A line of the chain is HailoRT's monitor's (HAILORT_MONITOR_SOURCE): it logs its failure and carries on. */
  monitor?: boolean;
  /** The author's sentence that names the status or class in a code span (authorsSentence): the failure's context, in their words. */
  author?: string;
  /** The chain's words are only its status (a line that names it alone, before any check's words): a check's message that joins says what failed. */
  bare?: boolean;
}

/** A HailoRT status as a log names it (`HAILO_INVALID_OPERATION(6)`, `status=HAILO_TIMEOUT`). */
const HAILORT_STATUS_TOKEN = /(?:status\s*=\s*)?HAILO_[A-Z_]{2,60}(?:\(\d{1,3}\))?/g;

/** A catalogue entry that carries only a status (or the HEF's refusal status line), not a check's own words. */
function isStatusLine(e: DfcMessage): boolean {
  return e.id.endsWith('-status') || e.id === 'hailort-hef-rejected';
}

/** A code span holding only a HailoRT status or a pyhailort exception's name (`HAILO_OUT_OF_PHYSICAL_DEVICES`, `HailoRTInvalidOperationException`). */
const NAMED_STATUS_SPAN = /`(?:HAILO_[A-Z_]{3,60}(?:\(\d{1,3}\))?|HailoRT\w{0,60}(?:Exception|Error))`/;
/** Words of prose: a letter run of two or more. */
const PROSE_WORD = /\p{L}{2,}/gu;
/** A character of a script written without spaces between words (Han, kana, Hangul): eight of them are a sentence's words. */
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu;

/**
 * An author's sentence that names a HailoRT status or a pyhailort exception in a code span instead of quoting the log
 * (`A mismatch between the Hailo Runtime (4.23.0) and the PCIe Driver (5.2.0) caused initialization failures
 * (\`HAILO_OUT_OF_PHYSICAL_DEVICES\`).`, `The high-level Python API threw \`HailoRTInvalidOperationException\` and "buffer as
 * view" errors when handling models with NMS post-processing layers.`, dfc-corpus unseen25/16–17): the status alone says what
 * HailoRT returned, the sentence what the author saw with it and why — the cause, the other errors, the model. Only a span
 * that is the name alone, in a sentence of at least six words outside it (or eight Han, kana or Hangul characters): a quoted log line (`It fails with \`[HailoRT]
 * [error] …\``) is the log itself. Clipped to 300 characters, Markdown emphasis and spans taken off.
 */
function authorsSentence(written: string): string | null {
  const m = NAMED_STATUS_SPAN.exec(written);
  if (!m) return null;
  let start = 0;
  // A sentence ends at `.`, `!`, `?` and a space, or at a full-width end (`。`, `！`, `？`: Chinese and Japanese put no space after it).
  for (let k = m.index - 1; k > 0; k--)
    if ('。！？'.includes(written[k]) || ((written[k] === '.' || written[k] === '!' || written[k] === '?') && /\s/.test(written[k + 1] ?? ''))) {
      start = k + 1;
      break;
    }
  const stop = /[.!?](?:\s|$)|[。！？]/.exec(written.slice(m.index + m[0].length));
  const sentence = written.slice(start, stop ? m.index + m[0].length + stop.index + 1 : written.length);
  const outside = sentence.replace(/`[^`]*`/g, ' ');
  if ((outside.match(PROSE_WORD) ?? []).length < 6 && (outside.match(CJK_CHAR) ?? []).length < 8) return null;
  // A table's row reads as its cells side by side (`| HAILO_X | 다른 프로세스가 NPU 점유 |`, dfc-corpus unseen18/23).
  const clean = sentence
    .replace(/[`*]/g, '')
    .replace(/^\s*\|\s*|\s*\|\s*$/g, '')
    .replace(/\s+\|\s+/g, ' — ')
    .replace(/\s+/g, ' ')
    .trim();
  return clean.length > 300 ? `${clean.slice(0, 299)}…` : clean;
}

/**
 * A layer of the parsed model (HN) a line names beside a message quoted without it: the HN's `<network>/<layer>` form
 * (hailo_sdk_client's layer names, e.g. `yolov8n/conv41`), one scope, no file extension — outside the message itself.
 */
function layerBeside(line: string, message: string): string | undefined {
  const rest = line.replace(message, ' ');
  const full = HN_LAYER_NAME.exec(rest)?.[1];
  if (full) return full;
  // A layer's own name without its network's scope, as the DFC prints it in its messages (`conv41`, `ew_add9`, `resize1_sd0`,
  // `ne_activation_mul_and_add78`: the layer kind's lower-case words, its index, a split's suffix): only where the author
  // marks it as a name — a code span or quotes (a note's `在 \`ne_activation_mul_and_add78\` 层报 …`, dfc-corpus unseen14/15)
  // — and never a data type or a device (`int8`, `float32`, `hailo8`).
  for (const m of rest.matchAll(QUOTED_NAME)) {
    const name = m[1] ?? m[2] ?? m[3];
    if (HN_BARE_LAYER.test(name) && !NOT_A_LAYER.test(name)) return name;
  }
  return undefined;
}

const HN_LAYER_NAME = /(?<![\w/.-])([A-Za-z_][\w-]{0,100}\/[A-Za-z_][\w-]{0,200})(?![\w/.-])/;
/** A code span's or quotes' whole content. */
const QUOTED_NAME = /`([^`\s]{1,120})`|'([^'\s]{1,120})'|"([^"\s]{1,120})"/g;
/** An HN layer's name in its network: the kind's lower-case words and its index, then a split's suffixes (`_sd0`, `_dc`). */
const HN_BARE_LAYER = /^[a-z][a-z_]{0,60}[a-z]\d{1,5}(?:_[a-z]{1,20}\d{0,5}){0,3}$/;
/** Names of that form that are no layer: data types, Hailo devices, an ONNX opset, model families with their version. */
const NOT_A_LAYER = /^(?:u?int|float|bfloat|fp|hailo|opset|yolov|resnet|mobilenetv|efficientnetv|vgg)\d/;

/** HailoRT's check macros' own words (`CHECK failed - `, `CHECK_SUCCESS failed with `) are not the message. */
function stripCheck(text: string): string {
  return text.replace(/^CHECK(?:_[A-Z_]+)? failed\s*-\s*/, '').trim();
}

/** Keras's wrapper lines stand this close to the exception line they wrap (its message, `in user code:` and its frames between). */
const KERAS_CALL_LINES = 40;

/** The memory-limit setting of the compile runner (client and CLI `--memory`). */
export const MEMORY_SETTING = 'hailo.dfc.memoryLimit';

const RECOMMEND_LIST = /recommendations for end node names: \[(.*)\]/;
const RECOMMEND_TEXT = /using these end node names: (.+?)\s*$/;
const END_NODE_ECHO = /\bend_node_names\s*=\s*\[([^\]]*)\]/;
/** `performance_param(fps=30)` (hailo_model_zoo's cfg/alls set the target this way; `fps=None` sets none). */
const FPS_TARGET = /\bperformance_param\([^)]*?\bfps\s*=\s*([\d.]+)/;
/** The optimizer's report of a layer and the config it built for it: `Layer: <net>/<layer>, Config: {…}`. */
const LAYER_CONFIG_REPORT = /\bLayer: ([A-Za-z_][\w-]{0,100}\/[\w\/-]{0,200}\w), Config: \{/;
/**
 * Keras's wrapper of an exception raised inside a layer's call (keras/engine/base_layer.py, tf.keras 2.9–2.15): `Exception
 * encountered when calling layer "NAME" (type CLASS).` as the exception's first line, `Call arguments received by layer
 * "NAME" (type CLASS):` after its message — the name in double quotes before Keras 2.13, in single quotes since. The DFC's
 * optimizer builds its layers as Keras layers named as the HN names them (dfc-corpus unseen18/10: `yolov8_nms_postprocess`).
 */
const KERAS_LAYER_CALL = /\b(?:Exception encountered when calling|Call arguments received by) layer ["']([^"'\s]{1,200})["'] \(type \w{1,100}\)/;

function quotedList(s: string): string[] {
  const out: string[] = [];
  const re = /'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) out.push(m[1] ?? m[2]);
  return out;
}

/** HailoRT's log line of its monitor thread (its file:line column, or the function in the column after it). */
const HAILORT_MONITOR_SOURCE = /\[monitor_handler\.cpp:\d+\]|\[(?:dump_state|write_utilization_to_file)\]/;

/** How far after a verdict (`Mapping Failed`) its cause lines stand: the compiler prints them next (test/fixtures/dfc/SOURCES.md I, AB; dfc-corpus unseen9/23). */
const VERDICT_CAUSE_LINES = 8;
/** spdlog's record header as the DFC's compiler log writes it (`[2026-01-15 01:49:29.538] [default] [info] …`). */
const SPDLOG_RECORD = /\[\d{4}-\d\d-\d\d[\sT][\d:.]{1,20}\]\s?\[[^\]]{1,40}\]\s?\[(info|warning|error|debug|critical)\]/i;
/** The allocator's per-try refusal and the layer it names (see noteSearchRefusal). */
const SEARCH_REFUSAL =
  /\b(?:Validator failed on node:\s*(?<v>[A-Za-z_][\w/.-]{0,120}) with\s+(?<why>\S[^\n]{0,200})|No successful assignments? for:?\s*(?<a>[A-Za-z_][\w/.-]{0,120}?),?\s+(?:most common )?errors:\s*(?<why2>\S[^\n]{0,200}))/;

/**
 * What one run of the log showed the explainer (a log often holds several: a command run again at the shell's prompt, a
 * log file every run appends to — state.ts beginRun). A fresh one at each run (Explainer.newRun), so a fact added here
 * is the run's own by default: the next run's failure never names this run's cause, layers or target.
 */
class ExplainerRun {
  /** A `symbol lookup error` of the DFC's own compiler binary: the allocator exception after it is its consequence. */
  brokenInstallLine: number | null = null;
  /** Facts of one allocation failure, gathered over its lines (the cause and detail lines come after `Mapping Failed`). */
  readonly allocationFacts: { cause?: string; detail?: string; over?: string; causeEntry?: string; layers?: string[]; presolve?: string } = {};
  /** End node names the run was given (from `--end-node-names` or an echoed `end_node_names=[…]`). */
  endNodesGiven: string[] = [];
  /** The fps of a `performance_param(fps=…)` the log shows. */
  fpsTarget: string | null = null;
  retrySeen = false;
  /**
   * The level of the timestamped record the lines now read belong to: spdlog writes one record's message whole, its
   * later lines untagged (`[…] [default] [info] Partition iteration #12:`, then `Partition failed on: Validator failed
   * on node: concat2 with Agent infeasible` on a line of its own, dfc-corpus unseen15/52). A blank line ends it.
   */
  recordLevel: Level | null = null;
  /** The layers the allocator's per-try refusals named during its search (quiet lines), by how often: the final verdict's. */
  readonly searchRefused = new Map<string, { n: number; why: string }>();
  /** A try of the allocator's search was logged (a quiet allocation line): the compile stage was running. */
  searchSeen = false;
  /** The DFC's first-run system check's one warning, and the requirements it lists so far. */
  sysreq: { d: DfcDiagnostic; items: string[] } | null = null;
  /** The diagnostic tool's normalization finding this run (inputNotNormalized): its first line and the verdict after it. */
  norm: { d: DfcDiagnostic; said: string; verdict: string | null } | null = null;
  /**
   * The layer the optimizer last reported with the config it built for it (`Layer: pow/square1, Config: {'precision_mode':
   * 'a16_w16', …}`, as it rejected the layer, dfc-corpus unseen14/59): the layer a later failure that names none is about.
   */
  configReport: { layer: string; line: number } | null = null;
  /**
   * The layer Keras said it was calling when an exception came out of it (KERAS_LAYER_CALL), with the line: the innermost
   * of nested calls (each outer layer's wrapper comes later and adds nothing the inner one did not say).
   */
  kerasLayer: { layer: string; line: number; args: boolean } | null = null;
  /** The HailoRT failure being reported (its later lines join it). */
  rt: HailortChain | null = null;
  /** An error was found to be a side thread's since the last takeDemoted() (monitorSide). */
  demoted = false;
  /** The line of the last verdict (DfcMessage.verdict): the cause lines within VERDICT_CAUSE_LINES after it are its. */
  verdictAt: number | null = null;
  /** The last error line no catalogue message explains (the check a following status line failed with). */
  rtPlain: { line: LogLine; text: string } | null = null;
}

export class Explainer {
  // Per log: the model script the caller gave (the whole paste is about it), and each diagnostic's stage (a diagnostic
  // of an earlier run keeps its own: errors.ts recovered and reinstateEarlierRun ask it).
  private script: ScriptLocator | undefined;
  private readonly stages = new WeakMap<DfcDiagnostic, StageName | 'docker' | 'unknown' | null>();
  /** The stage the signal being explained shows by itself (its traceback), set by the collector before each explanation. */
  evidence: StageName | null = null;
  /** The run being read: everything else is per run (ExplainerRun). */
  private run = new ExplainerRun();

  constructor(private readonly state: ReaderView) {
    if (state.ctx.allsText !== undefined) this.script = new ScriptLocator(state.ctx.allsText);
  }

  stageOf(d: DfcDiagnostic): StageName | 'docker' | 'unknown' | null {
    return this.stages.get(d) ?? null;
  }

  noteRetry(): void {
    this.run.retrySeen = true;
  }

  // ---- placing --------------------------------------------------------------------------------

  private logPlace(l: LogLine): Place {
    return { line: l.no, column: 1, endLine: l.no, endColumn: Math.min(l.raw.length, 1 << 16) + 1 };
  }

  private get scriptPath(): string {
    return this.state.ctx.allsPath ?? this.state.scriptPathFromLog ?? 'model script';
  }

  private make(
    code: DfcCode,
    where: { path: string; place: Place; node?: string },
    l: LogLine,
    message: string,
    extra: {
      fix?: DfcFix;
      excerpt?: string[];
      severity?: DfcDiagnostic['severity'];
      stage?: StageName | 'docker' | 'unknown' | null;
      confidence?: DfcDiagnostic['confidence'];
    } = {},
  ): DfcDiagnostic {
    const info = DFC_CODES[code];
    const d: DfcDiagnostic = {
      path: where.path,
      ...where.place,
      severity: extra.severity ?? info.severity,
      code,
      message,
      ...(where.node !== undefined ? { node: where.node } : {}),
      logLine: l.no,
      confidence: extra.confidence ?? info.confidence,
      ...(extra.fix ? { fix: extra.fix } : {}),
      ...(extra.excerpt ? { excerpt: extra.excerpt } : {}),
    };
    // The code's own stage is weighed with what the log shows (stageEvidence.ts); docker's refusal is no stage's.
    const stage = extra.stage !== undefined ? extra.stage : info.stage === 'docker' ? 'docker' : this.state.stageForError(this.evidence, info.stage);
    this.stages.set(d, stage);
    return d;
  }

  private onLog(l: LogLine): { path: string; place: Place } {
    return { path: this.state.ctx.logPath, place: this.logPlace(l) };
  }

  /** An ONNX node: the model when the caller gave one that has the node, else the log line. */
  private onNode(node: string, l: LogLine): { where: { path: string; place: Place; node: string }; note: string } {
    const { onnx, onnxPath } = this.state.ctx;
    if (onnx && onnxPath) {
      if (onnx.hasNode(node)) {
        const place = onnx.placeOf?.(node) ?? { line: 1, column: 1, endLine: 1, endColumn: 1 };
        const op = onnx.opOf?.(node);
        return { where: { path: onnxPath, place, node }, note: op ? ` (${op})` : '' };
      }
      return {
        where: { path: this.state.ctx.logPath, place: this.logPlace(l), node },
        note: ` — ${onnxPath} has no node of that name; is it the model this log is from?`,
      };
    }
    return { where: { path: this.state.ctx.logPath, place: this.logPlace(l), node }, note: '' };
  }

  /** A statement (or one keyword's value) of the script, else the log line. */
  private onStatement(command: string, l: LogLine, pick?: (st: ReturnType<ScriptLocator['statements']>[number]) => Place | undefined) {
    if (this.script) {
      for (const st of this.script.statements(command)) {
        const p = pick ? pick(st) : st.place;
        if (p) return { path: this.scriptPath, place: p, inScript: true as const };
      }
    }
    return { ...this.onLog(l), inScript: false as const };
  }

  // ---- line-level signals ---------------------------------------------------------------------

  /**
   * Line-level facts and signals: the end nodes a run was given, the parser's recommendation, and
   * any catalogue message the line says, wherever it stands (core/common/dfcMessages.ts). `handled`:
   * the collector already took the line as an exception line.
   */
  observe(l: LogLine, emit: (s: Signal) => void, handled = false): void {
    const t = l.text;
    let m: RegExpExecArray | null;
    if (t.includes('end_node_names') && (m = END_NODE_ECHO.exec(t))) this.run.endNodesGiven = quotedList(m[1]);
    // The performance target a run was given (the script echoed, a hailomz line): a mapping that
    // fails to reach the required FPS is about this number.
    if (t.includes('fps') && (m = FPS_TARGET.exec(t))) this.run.fpsTarget = m[1];
    if (t.includes('end node names')) {
      if ((m = RECOMMEND_LIST.exec(t))) this.state.recommend(quotedList(m[1]));
      else if ((m = RECOMMEND_TEXT.exec(t)))
        this.state.recommend(
          m[1]
            .split(/,\s*/)
            .map((x) => x.trim())
            .filter(Boolean),
        );
    }
    if (t.includes('Config: ') && (m = LAYER_CONFIG_REPORT.exec(t))) this.run.configReport = { layer: m[1], line: l.no };
    if (t.includes(' layer ') && (m = KERAS_LAYER_CALL.exec(t))) {
      // Nested calls: the wrappers come innermost first after the message (`Call arguments…`), outermost first before it
      // (`Exception encountered…`, each inner one indented inside the outer's message) — so the last `Exception
      // encountered` line, or the first `Call arguments` line after it, names the layer the exception came out of.
      const args = t.includes('Call arguments');
      const k = this.run.kerasLayer;
      if (!args || !k?.args || l.no - k.line > KERAS_CALL_LINES) this.run.kerasLayer = { layer: m[1], line: l.no, args };
    }
    if (handled) return;
    const body = withoutLevel(t).trim();
    const hit = matchDfcMessage(body);
    // Severity needs evidence: a message the catalogue knows as an error, logged by the tool itself at info or debug
    // level, is no failure — the compiler logs each failed attempt of its search at info (`Iteration failed on: Automri
    // finished with too many resources on context_0`, hailo_sdk.core.log, dfc-corpus unseen7/27) and goes on; its
    // failure is its verdict (`Mapping Failed`), printed once, at whatever level the release logs it (DfcMessage.verdict).
    // A relay's level (every relayed line at INFO) says nothing.
    // The record's own level wherever a relay wrapped the line (its raw text holds spdlog's header); a relay's level
    // on the record's later lines says nothing of them, the record's does.
    const own = l.relayedLevel ? null : level(t);
    const record = l.raw.includes(']') ? SPDLOG_RECORD.exec(l.raw) : null;
    if (record) this.run.recordLevel = record[1].toLowerCase() as Level;
    else if (own !== null || !body || body.startsWith('Traceback')) this.run.recordLevel = null;
    const lv = record || own !== null ? (own ?? level(t)) : (this.run.recordLevel ?? level(t));
    const trusted = !l.relayedLevel || record !== null || this.run.recordLevel !== null;
    // The cause lines right after a verdict are its causes, at the verdict's level (`Mapping Failed`, then `Compilation
    // failed with exception: …` at info in the same core log).
    const verdictCause = hit?.message.role === 'cause' && this.run.verdictAt !== null && l.no - this.run.verdictAt <= VERDICT_CAUSE_LINES;
    const quiet = (lv === 'info' || lv === 'debug') && trusted && hit?.message.severity === 'error' && hit.message.verdict !== true && !verdictCause;
    if (hit?.message.verdict) this.run.verdictAt = l.no;
    if (quiet && hit.message.code === 'dfc/allocation-failed') {
      this.run.searchSeen = true;
      this.noteSearchRefusal(body, hit);
    }
    // An author's paragraph (the hard-wrap step joined its lines) that names HailoRT statuses in several sentences says each
    // in its own sentence (`… a different status than HAILO_X, so the loop breaks. The failure then propagates to Python as
    // HAILO_COMMUNICATION_CLOSED.`, dfc-corpus unseen18/08): each sentence is read as its own line, as the lines are read
    // when a relay keeps the paragraph from being joined — not only the first status the catalogue finds in it.
    const sentences = hit?.message.tool === 'hailort' && lv === null && !quiet ? statusSentences(body) : null;
    if (sentences) for (const said of sentences) emit({ kind: 'error-line', cls: null, message: said, frames: [], line: { ...l, text: said } });
    else if (hit?.message.code && hit.message.id !== 'end-nodes-retried' && !quiet) {
      // At the tool's own warning level the same evidence says warning: the DFC printed it as one and went on (Layer Noise
      // Analysis's `[warning] GPU memory has been exhausted. Layer Noise Analysis will not generate statistics.`, its
      // HAR saved after it, dfc-corpus unseen22/41) — the catalogue's error is the message raised (AccelerasResourceError
      // out of fine-tuning). A verdict, or a cause said with one, keeps its severity whatever the level.
      const warned = lv === 'warning' && trusted && hit.message.severity === 'error' && hit.message.verdict !== true && !verdictCause;
      emit({ kind: 'error-line', cls: null, message: body, frames: [], line: l, ...(warned ? { warned } : {}) });
    } else if (!hit && (level(t) === 'error' || body.includes('CHECK failed'))) {
      this.run.rtPlain = { line: l, text: stripCheck(body) };
      this.hailortAside(l, body);
    }
  }

  /**
   * A layer one try of the allocator's search refused (`Validator failed on node: concat11 with Agent infeasible`,
   * `No successful assignment for concat17, most common errors: Agent infeasible`, `conv12 errors: Agent infeasible`):
   * no failure while the search goes on, but the layer the run's end is about when the search ends without a partition
   * or its user stops it (dfc-corpus unseen15/03, 51). A try that names no reason (the allocator's `…_dummy_N` helpers)
   * says nothing of a layer.
   */
  private noteSearchRefusal(body: string, hit: MessageMatch): void {
    const m = SEARCH_REFUSAL.exec(body);
    const layer = m?.groups?.v ?? m?.groups?.a ?? hit.names.layer;
    if (!layer) return;
    const why = (m?.groups?.why ?? m?.groups?.why2 ?? hit.message.text).trim().replace(/\.$/, '');
    const had = this.run.searchRefused.get(layer);
    if (had) had.n++;
    else if (this.run.searchRefused.size < 64) this.run.searchRefused.set(layer, { n: 1, why });
  }

  /** The search's refusals, most frequent first: `concat11 (Agent infeasible, said 8 times)`; '' when none. */
  private searchRefusals(): { text: string; first?: string } {
    const all = [...this.run.searchRefused].sort((a, b) => b[1].n - a[1].n).slice(0, 3);
    if (!all.length) return { text: '' };
    const text = all.map(([layer, r]) => `${layer} (${r.why}${r.n > 1 ? `, said ${r.n} times` : ''})`).join(', ');
    return { text, first: all[0][0] };
  }

  /**
   * HailoRT's own error line after a failure's status, with no message of its own in the catalogue
   * (`Did you try calling create_configure_params on H10? If so, use InferModel instead`): HailoRT's
   * word on that failure — said in its diagnostic, whatever the check was.
   */
  private hailortAside(l: LogLine, body: string): void {
    const rt = this.run.rt;
    if (!rt || l.no <= rt.last || l.no - rt.last > HAILORT_CHAIN_LINES || !/\[HailoRT\]/.test(l.raw) || rt.asides.length >= 3) return;
    const text = stripCheck(body).replace(/\s+/g, ' ');
    if (!text || rt.detail.includes(text)) return;
    // Not its `last`: the line may be the check of a next failure instead (HailoRT prints the check
    // first) — a status line right after it takes it back (hailort()).
    rt.asides.push(text);
    if (rt.excerpt.length < 12) rt.excerpt.push(body);
    rt.d.message = this.hailortMessage(rt);
    rt.d.excerpt = [...rt.excerpt];
  }

  // ---- explanations ---------------------------------------------------------------------------

  /** Diagnostics for an error signal; null when the catalogue does not know it (the caller keeps it). */
  explain(s: Signal): DfcDiagnostic[] | null {
    const msg = s.message;
    const cls = s.cls ?? '';
    if (cls === 'EOFError' && this.state.promptLine !== null) return [this.parserPrompt(s)];
    // Ctrl-C, however the program raised it on (`KeyboardInterrupt`, `builtins.KeyboardInterrupt`, a logger's `KeyboardInterrupt: `).
    if (cls === 'KeyboardInterrupt' || cls.endsWith('.KeyboardInterrupt')) return [this.interrupted(s.line.no, 'KeyboardInterrupt')];
    // The recommendation declined (`n`): the CLI raises out of its question — whatever it raises (or
    // wherever the excerpt stops) is the parse failing with the nodes it recommended.
    const prompt = this.state.promptLine;
    if (prompt !== null && this.state.promptAnswer === 'n' && s.line.no > prompt && (s.cut || !matchDfcMessage(msg, s.cls, s.frames)))
      return [this.parserDeclined(s)];
    // The allocator exception after a compiler that could not start says nothing more.
    if (this.run.brokenInstallLine !== null && (cls === 'BackendAllocatorException' || s.cut) && !msg.trim()) return [];
    // pyhailort's `HailoRTStatusException: 26` carries the status as a bare number — so may any of its classes, however
    // qualified (`_pyhailort.HailoRTStatusException`), or in pyhailort's words for a status it has no class for
    // (`HailoRTException: libhailort failed with error: 74`); a sentence quoting one ends it with its own stop (`…: 8.`).
    const bare = PYHAILORT_EXCEPTION.test(cls) ? /^\s*(?:libhailort failed with error: )?(\d{1,3})[.,;:)]?\s*$/.exec(msg) : null;
    if (bare) return this.explain({ ...s, cls: null, message: `status=${bare[1]}` });
    const hit = matchDfcMessage(msg, s.cls, s.frames);
    if (!hit) return null;
    const n = hit.names;
    switch (hit.message.id) {
      case 'model-script-syntax': // the collector places model-script syntax errors
      case 'parsing-failed-list': // its entries carry the diagnostics
        return [];
      case 'broken-install':
        return [this.brokenInstall(s)];
      case 'context-partition':
        return [this.contextPartition(s)];
      case 'no-argument-named':
      case 'config-path-and-arguments':
      case 'bbox-conv-infer':
      case 'nms-last-layers':
      case 'nms-config-not-found':
      case 'allocator-script':
      case 'nms-config-postprocess':
      case 'meta-arch-on-chip':
      case 'unsupported-value':
        return [this.scriptError(s)];
      case 'layer-requirement':
        return [this.layerRequirement(s, hit)];
      case 'unsupported-layer':
        // Quoted without its node (`UnsupportedOperationError: X operation is unsupported`): the class still says which refusal.
        if (!n.node && !s.node) return [this.catalogued(s, hit, parserRefusalCode(n.cls ?? s.cls ?? ''))];
        if (!n.node) return [this.unsupported(s.cls ?? '', s.node!, `reported ${s.message.trim()}`, s.line)];
        return [this.unsupported(n.cls ?? s.cls ?? '', n.node, (n.reason ?? '').trim(), s.line)];
      case 'optimization-level-0':
        return [this.levelZero(s.line, n.why ?? '')];
      case 'ultralytics-calibration-size':
        return this.fewCalibrationImages(s.line, Number(n.count));
      case 'calibration-range':
        return [this.calibrationRange(s.line, withoutLevel(s.line.text).trim())];
      case 'input-not-normalized':
        return this.inputNotNormalized(s, hit);
      case 'compiler-assertion':
        return [this.compilerBug(s)];
      case 'docker':
        return [this.docker(s)];
      case 'misspelled-node':
        return this.misspelled(s);
      case 'end-node-absorbed':
        return [this.absorbed(s)];
      case 'concat-format':
        return [this.concatFormat(s)];
      case 'axes-format':
        return [this.axesFormat(s)];
      case 'reshape-format':
        return [this.reshapeFormat(s)];
      case 'broadcast':
        return [this.broadcast(s)];
      case 'gpu-memory':
        return [this.gpuMemory(s)];
      case 'wraparound-a16w4':
        return [this.wraparound(s)];
      case 'not-quantized':
        return [this.notQuantized(s)];
      case 'calibration-shape':
        return [this.calibShape(s)];
      case 'hn-input-key':
      case 'inference-shapes':
        return [this.optimizeInputs(s, hit)];
      case 'nms-layer-missing':
        return [this.nmsLayerMissing(s, hit)];
      case 'nms-meta-arch':
        return [this.versionMismatch(s, hit)];
      case 'quantization-failed':
      case 'shift-delta':
        return [this.quantizationFailed(s, hit)];
      case 'interrupted-by-user':
        // A DFC stage's tool saying its user stopped it is KeyboardInterrupt in its own words; an application stopped by its user ended as meant.
        // The allocator's per-try lines show its search running (the compile stage) where an excerpt dropped the stage's markers.
        if (this.state.currentStage === null && !this.run.searchSeen) return [];
        return [
          this.interrupted(
            s.line.no,
            'KeyboardInterrupt',
            false,
            this.state.stageForError(this.evidence, this.run.searchSeen ? 'compile' : null),
            s.message.trim(),
          ),
        ];
      case 'nan-params':
        return [this.catalogued(s, hit, 'dfc/nan-params')];
      case 'optimizer-enum-value':
        return [this.catalogued(s, hit, 'dfc/model-script')];
      case 'system-requirements':
        return this.systemRequirements(s, hit);
      case 'parser-prompt':
      case 'parser-recommendation':
      case 'end-nodes-retried':
        return null;
    }
    if (hit.message.code === 'dfc/allocation-failed') return [this.allocation(s, hit)];
    if (hit.message.tool === 'hailort' && hit.message.code) return this.hailort(s, hit);
    return null;
  }

  private unsupported(cls: string, node: string, reason: string, l: LogLine): DfcDiagnostic {
    const { where, note } = this.onNode(node, l);
    const rec = this.state.recommendedEndNodes;
    const fix: DfcFix | undefined = rec.length ? { kind: 'endNodes', nodes: [...rec] } : undefined;
    const cut = rec.length
      ? cutAtRecommended(rec)
      : 'Cut the graph before it (end node names before this node) and run the rest on the host, or rewrite the op in the model.';
    const code = parserRefusalCode(cls);
    let meaning = '';
    if (cls === 'UnsupportedShuffleLayerError') {
      meaning =
        'The parser found no Hailo layer for this reshape/transpose/flatten: it was used as a view the format tracker cannot follow (seen for a head reshape of a [1,C,1,S] block, and for Flatten→FC).';
    } else if (cls === 'UnsupportedSoftmaxLayerError') {
      meaning =
        'The parser cannot place this softmax on the axis it runs over in this layout (seen on attention written as a hand-built [1,C,1,S] block; the same attention in rank-3 form parses).';
    } else if (cls === 'UnsupportedConcatLayerError') {
      meaning = /axis batch/i.test(reason)
        ? 'A concat over the batch axis cannot run on the device; in the recorded case it came from Tile of a CLS token per window (windowed attention), and num_windows=1 parsed.'
        : 'The parser cannot build this concat in this layout.';
    } else if (cls === 'UnexpectedNodeError') {
      meaning = /\(Expand\)|Expand/.test(reason)
        ? 'Expand has no Hailo layer; torch .expand() exports as Expand with ConstantOfShape/Equal/Where scaffolding — broadcast by other means or fold it at export.'
        : 'The parser met an op it does not expect at this place in the graph.';
    } else if (cls === 'UnsupportedOperationError') {
      meaning = 'The DFC has no layer for this operator.';
    }
    return this.make(
      code,
      where,
      l,
      `${cls ? `${cls} in op` : 'The parser refused op'} ${node}${note}: ${reason}. ${meaning} ${cut}`.replace(/\s+/g, ' ').trim(),
      { fix },
    );
  }

  private misspelled(s: Signal): DfcDiagnostic[] {
    const onnx = this.state.ctx.onnx;
    const named = new Set<string>([...quotedList(s.message), ...this.run.endNodesGiven, ...this.state.commandEndNodes]);
    const out: DfcDiagnostic[] = [];
    for (const name of named) {
      if (onnx?.hasNode(name)) continue;
      const producer = onnx?.producerOf(name);
      let message: string;
      let fix: DfcFix | undefined;
      if (producer) {
        message = `'${name}' is a tensor name, not a node name: start/end_node_names take NodeProto names — the node that produces it is '${producer}'.`;
        fix = { kind: 'replaceName', from: name, to: producer };
      } else if (onnx) {
        message = `No node named '${name}' in ${this.state.ctx.onnxPath ?? 'the model'} (and no tensor either): pick a node name from the graph view.`;
      } else if (/_output_\d+$/.test(name)) {
        const to = name.replace(/_output_\d+$/, '');
        message = `'${name}' looks like a tensor name (torch names outputs '<node>_output_0'): start/end_node_names take node names, probably '${to}'. Pass the model (--onnx) to check.`;
        fix = { kind: 'replaceName', from: name, to };
      } else {
        message = `The DFC found no node named '${name}': start/end_node_names take NodeProto names, not tensor names. Pass the model (--onnx) to check which node produces it.`;
      }
      out.push(this.make('dfc/misspelled-node', this.onLog(s.line), s.line, `MisspellNodeError: ${message}`, { fix }));
    }
    if (!out.length) {
      out.push(
        this.make(
          'dfc/misspelled-node',
          this.onLog(s.line),
          s.line,
          `MisspellNodeError: ${s.message || 'Unable to find end node name'}. start/end_node_names take node names (NodeProto.name), not tensor names such as '…_output_0'.`,
        ),
      );
    }
    return out;
  }

  private absorbed(s: Signal): DfcDiagnostic {
    return this.make(
      'dfc/end-node-absorbed',
      this.onLog(s.line),
      s.line,
      `${s.message.trim()}. The node exists in the ONNX but has no layer of its own in the HN: reshape-like ops are absorbed into their neighbours. Choose an end node that computes (a conv, matmul, add…) before it.`,
    );
  }

  private retryNote(): string {
    return this.run.retrySeen
      ? ' This run also retried on an onnxsim-simplified model: an error of the first attempt and one of the retry can be two symptoms of one fault.'
      : '';
  }

  private concatFormat(s: Signal): DfcDiagnostic {
    return this.make(
      'dfc/concat-format',
      this.onLog(s.line),
      s.line,
      `IndexError in get_concat_info: the parser could not assign a format to a Concat vertex. In the recorded case these were rank-1 shape computations (Shape→Gather→Unsqueeze→Concat feeding Reshape), all constant once the input size is fixed: simplify the model with onnxsim at a fixed input shape (it folds them) and parse again; 'hailo-tools onnx' lists such Concats. Lowering the opset does not fix this.${this.retryNote()}`,
    );
  }

  private axesFormat(s: Signal): DfcDiagnostic {
    return this.make(
      'dfc/axes-format',
      this.onLog(s.line),
      s.line,
      `IndexError in _convert_axes_to_nhwc: the parser indexed an axis its format tracker does not have for this node's input (input_format[axis]). The top frame often names a LayerNormalization, but that is where the symptom surfaces, not the cause: fused LayerNormalization translates, and changing the opset only changes the label. In the recorded cases the cause was elsewhere (a batch-axis Tile/Concat from windowed attention; a packed sequence without batch dimension). Find it by parsing parts: pass end_node_names to get the parser's honest error, or extract sub-graphs with onnx.utils.extract_model.${this.retryNote()}`,
    );
  }

  private reshapeFormat(s: Signal): DfcDiagnostic {
    return this.make(
      'dfc/reshape-format',
      this.onLog(s.line),
      s.line,
      `ValueError: channels is not in list (update_reshape_output_format): a Reshape received a tensor whose layout the parser cannot map to NCHW — typically a sequence (N, L, D) re-wrapped as spatial. Look upstream of the Reshape for where the layout changed; parse sub-graphs with onnx.utils.extract_model to find it.${this.retryNote()}`,
    );
  }

  private broadcast(s: Signal): DfcDiagnostic {
    return this.make(
      'dfc/broadcast',
      this.onLog(s.line),
      s.line,
      `${s.message.trim()}: an elementwise op relies on implicit broadcasting between tensors of different rank/shape that the parser does not reproduce. Make the broadcast explicit at export (equal ranks), or fix net_input_shapes if it overrides the model's own shape.`,
    );
  }

  private gpuMemory(s: Signal): DfcDiagnostic {
    const finetune =
      /Fine-Tun/i.test(s.message) ||
      /fine.?tun|QFT|QAFT/i.test(this.state.lastProgressLabel ?? '') ||
      this.state.lastProgressLabel === 'Epoch' ||
      this.state.lastProgressLabel === 'Step';
    const cmd = finetune ? 'post_quantization_optimization' : 'model_optimization_config';
    let batch: number | null = null;
    const loc = this.onStatement(cmd, s.line, (st) => {
      if (finetune && !/\bfinetune\b/.test(st.text)) return undefined;
      if (!finetune && !/\bcalibration\b/.test(st.text)) return undefined;
      const kw = st.keyword('batch_size');
      if (!kw) return undefined;
      batch = Number(kw.text);
      return kw.value;
    });
    const what = finetune ? 'Quantization-Aware Fine-Tuning' : 'calibration';
    let fix: DfcFix | undefined;
    let advice: string;
    if (loc.inScript && batch !== null && Number.isFinite(batch) && batch > 1) {
      const next = Math.max(1, Math.floor(batch / 2));
      fix = { kind: 'scriptEdit', line: loc.place.line, column: loc.place.column, endColumn: loc.place.endColumn, newText: String(next) };
      advice = `Lower batch_size here (${batch} → ${next}).`;
    } else if (loc.inScript) {
      advice = `batch_size is already 1: on a 24 GiB GPU the same error was recorded at batch_size=1, epochs=1 — use a GPU with more memory, or skip fine-tuning with model_optimization_flavor(optimization_level=1) (compression then drops to 0).`;
    } else {
      advice = finetune
        ? `Lower the fine-tuning batch size in the model script: post_quantization_optimization(finetune, policy=enabled, batch_size=2) — or, if that fails at 1, use a GPU with more memory or model_optimization_flavor(optimization_level=1) to skip fine-tuning (compression drops to 0).`
        : `Lower the calibration batch size in the model script: model_optimization_config(calibration, batch_size=1).`;
    }
    return this.make(
      'dfc/gpu-memory',
      { path: loc.path, place: loc.place },
      s.line,
      `GPU out of memory during ${what} (${s.cls ? `${s.cls}: ` : ''}${s.message.trim()}). ${advice}`,
      {
        fix,
        stage: 'optimize',
      },
    );
  }

  private wraparound(s: Signal): DfcDiagnostic {
    const loc = this.onStatement('quantization_param', s.line, (st) => {
      if (!/\ba16_w4\b/.test(st.text)) return undefined;
      return st.keyword('precision_mode')?.value ?? st.place;
    });
    return this.make(
      'dfc/wraparound-a16w4',
      { path: loc.path, place: loc.place },
      s.line,
      `AttributeError: 'function' object has no attribute 'set_wraparound_loss' — a known DFC bug with precision_mode=a16_w4 (a missing attribute inside the DFC, nothing in the model causes it; worth reporting to Hailo). Use another precision mode for these layers (a16_w16 ran in the same probe).`,
    );
  }

  private notQuantized(s: Signal): DfcDiagnostic {
    return this.make(
      'dfc/not-quantized',
      this.onLog(s.line),
      s.line,
      `${s.message.trim()} The HAR given to the compiler was not optimized: run 'hailo optimize' (or ClientRunner.optimize with a calibration set) and compile the _optimized.har.`,
    );
  }

  /** The optimizer's data does not fit the HN's inputs (keyed or shaped otherwise): the layer named, the catalogue's causes. */
  private optimizeInputs(s: Signal, hit: MessageMatch): DfcDiagnostic {
    const said = `${s.cls && !s.message.includes(s.cls) ? `${s.cls}: ` : ''}${s.message.trim()}`.replace(/\.$/, '');
    const fix = hit.message.fix;
    const layer = hit.names.layer;
    return this.make(
      'dfc/optimize-inputs',
      { ...this.onLog(s.line), ...(layer ? { node: layer } : {}) },
      s.line,
      `${said}: ${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`,
    );
  }

  private calibShape(s: Signal): DfcDiagnostic {
    return this.make(
      'dfc/calibration-shape',
      this.onLog(s.line),
      s.line,
      `${s.cls && s.cls !== 'BadInputsShape' ? '' : 'BadInputsShape: '}${s.message.replace(/^BadInputsShape:?\s*/, '').trim()} The calibration set must be NHWC at the network's input size, N first: e.g. ONNX [1,3,H,W] → calibration (N,H,W,3); resize the images before saving the .npy.`,
    );
  }

  private scriptError(s: Signal): DfcDiagnostic {
    const msg = s.message.replace(/^(?:[\w.]*\.)?AllocatorScriptParserException:?\s*/, '').trim();
    const cls = s.cls && s.cls !== 'error-line' ? `${s.cls}: ` : /AllocatorScriptParserException/.test(s.message) ? 'AllocatorScriptParserException: ' : '';
    let loc: { path: string; place: Place; inScript: boolean };
    let advice: string;
    let m: RegExpExecArray | null;
    if (/Post-process config file isn't found/.test(msg)) {
      loc = this.onStatement('nms_postprocess', s.line, (st) => st.keyword('config_path')?.value ?? st.firstString ?? st.place);
      advice =
        'The NMS config JSON named by nms_postprocess is not where the DFC looks (inside the container): give a path that exists there, or copy the config beside the script.';
    } else if ((m = /No argument named ['"`]?(\w+)/.exec(msg))) {
      const name = m[1];
      const hit = this.script?.keywordPlaces(name)[0];
      loc = hit ? { path: this.scriptPath, place: hit.place, inScript: true } : { ...this.onLog(s.line), inScript: false };
      advice = `The model-script parser has no keyword \`${name}\`${hit ? ` for ${hit.command}` : ''}: that is its answer to any keyword the command does not take. ${keywordAdvice(hit?.command, name)}`;
    } else if (/Both config path and config arguments were given/.test(msg)) {
      loc = this.onStatement('nms_postprocess', s.line);
      advice =
        'nms_postprocess takes the NMS settings either from the config JSON (its first argument, or config_path=) or as keywords (nms_scores_th, nms_iou_th, classes, image_dims, …) — not both: put the values into the JSON, or drop the path.';
    } else if ((m = /\bUnsupported value (\[[^\]\n]{1,200}\])(?: for fields? \[([^\]\n]{1,200})\])?/.exec(msg))) {
      // The DFC's validation of a setting's value at the script's load: its fields are the script's keywords (`['precision_mode']`).
      const fields = (m[2] ?? '')
        .split(',')
        .map((f) => f.trim().replace(/^['"]|['"]$/g, ''))
        .filter(Boolean);
      const hit = fields.map((f) => this.script?.keywordPlaces(f)[0]).find(Boolean);
      loc = hit ? { path: this.scriptPath, place: hit.place, inScript: true } : { ...this.onLog(s.line), inScript: false };
      advice = `The DFC checked the model script's ${fields.length ? fields.join(', ') : 'settings'} when it loaded it and does not take ${m[1]}${fields.length ? ' for it' : ''} — for the layers' kind, the target or this release: use a value it accepts (a matmul layer takes a8_w8, a8_w8_a8 or a8_w8_a16 in one user's DFC). A value the release notes announce as a preview can still be refused (DFC 5.3.0 for hailo10h refused precision_mode a16_w8 and a16_w4).`;
    } else if ((m = /The specified meta architecture (\w{1,80}) cannot be run on chip/.exec(msg))) {
      loc = this.onStatement('nms_postprocess', s.line, (st) => st.keyword('engine')?.value ?? st.place);
      advice = `This chip's NN core cannot run ${m[1]}'s NMS (engine=nn_core): compile with nms_postprocess(…, engine=cpu) — the HEF then carries the NMS and HailoRT runs it on the host, so the application still gets one output.`;
    } else if ((m = /layer ([\w/]{1,160}) doesn't have one output layer/.exec(msg))) {
      loc = this.onStatement('nms_postprocess', s.line);
      advice = `The NMS config of nms_postprocess names ${m[1]} as a head layer, and in this network it does not end in the one output the config expects: a config (or model zoo recipe) made for another model — other classes, another head. Write the config from this network's HN layer names (hailo-tools har), or drop nms_postprocess and run the NMS on the host.`;
    } else if (/expected conv but found|Error in the last layers of the model|Cannot infer bbox conv layers/.test(msg)) {
      loc = this.onStatement('nms_postprocess', s.line);
      advice = /bbox/.test(msg)
        ? 'nms_postprocess could not find the box-regression convs: name them in the NMS JSON config (bbox_decoders: reg_layer / cls_layer, with the HN layer names), or parse with end nodes at the per-scale conv heads.'
        : 'nms_postprocess expects the network to end in the per-scale conv heads: parse again with --end-node-names at those convs (before the Concat/decode tail).';
    } else {
      const words = [...msg.matchAll(/\b([a-z_][a-z0-9_]*\/?[a-z0-9_]*)\b/gi)].map((x) => x[1]).filter((w) => /_|\d/.test(w));
      const hit = this.script ? words.map((w) => this.script!.mentioning(w)[0]).find(Boolean) : undefined;
      loc = hit ? { path: this.scriptPath, place: hit, inScript: true } : { ...this.onLog(s.line), inScript: false };
      advice = 'The model script asks for something the model does not allow.';
    }
    return this.make('dfc/model-script', loc, s.line, `${cls}${msg} ${advice}`);
  }

  /** The parser asked `(y/n)` on a stdin that was closed (docker without -i, a script, CI). */
  private parserPrompt(s: Signal): DfcDiagnostic {
    const rec = this.state.recommendedEndNodes;
    const at = this.state.promptLine ?? s.line.no;
    return this.make(
      'dfc/parser-prompt',
      { path: this.state.ctx.logPath, place: { line: at, column: 1, endLine: at, endColumn: 1 } },
      s.line,
      `The hailo parser stopped at its question "Would you like to parse again with the recommendation? (y/n)": reading the answer hit end-of-file (EOFError), so it ran without an interactive stdin (a script, a pipe, docker run without -i). Add -y to accept the recommendation without asking${rec.length ? `, or parse with --end-node-names ${rec.join(' ')} (the nodes it recommends)` : ', or pass the end nodes it recommends with --end-node-names'}. Either way the parsed model then ends at those nodes, not at the model's outputs: what follows them runs on the host.`,
      rec.length ? { fix: { kind: 'endNodes', nodes: [...rec] } } : {},
    );
  }

  /** The parser failed, recommended end nodes, and the user answered `n` to parsing again with them. */
  private parserDeclined(s: Signal): DfcDiagnostic {
    const rec = this.state.recommendedEndNodes;
    const at = this.state.promptLine ?? s.line.no;
    return this.make(
      'dfc/parser-prompt',
      { path: this.state.ctx.logPath, place: { line: at, column: 1, endLine: at, endColumn: 1 } },
      s.line,
      `The parser could not parse the whole model and recommended end nodes${rec.length ? ` (${rec.join(', ')})` : ''}; the answer to "Would you like to parse again with the recommendation? (y/n)" was n, so it stopped without a HAR. Parse with ${rec.length ? `--end-node-names ${rec.join(' ')}` : 'the recommended --end-node-names'} (or -y) — the parsed model then ends at those nodes and what follows them runs on the host — or change the model where the parser stopped.`,
      rec.length ? { fix: { kind: 'endNodes', nodes: [...rec] } } : {},
    );
  }

  /** `According to recommendations, retrying parsing with end node names: [...]`. */
  endNodesChanged(l: LogLine, nodes: string[]): DfcDiagnostic {
    const given = this.state.commandEndNodes.length ? this.state.commandEndNodes : this.run.endNodesGiven;
    return this.make(
      'dfc/end-nodes-changed',
      this.onLog(l),
      l,
      `The parser did not parse the model ${given.length ? `to the end nodes given (${given.join(', ')})` : 'to its outputs'} and retried with the end nodes it recommends: ${nodes.join(', ')}. If the run goes on, the parsed model — and the HEF — ends at these nodes: its outputs are no longer ${given.length ? 'the ones asked for' : "the ONNX model's"}, and what comes after them must run on the host. Pass --end-node-names ${nodes.join(' ')} to make this cut explicit, or change the model where the parser stopped.`,
      { fix: { kind: 'endNodes', nodes: [...nodes] } },
    );
  }

  private contextPartition(s: Signal): DfcDiagnostic {
    const msg = s.message.trim();
    const m = /Context-Partition topology error:\s*(\S+) \((\w+)\) is in later context than its successor (\S+) \((\w+)\)/.exec(msg);
    const what = m
      ? `put ${m[1]} (${m[2]}) in a later context than ${m[3]} (${m[4]}), which consumes it`
      : 'produced an order of contexts in which a layer comes after a layer that consumes it';
    return this.make(
      'dfc/context-partition',
      this.onLog(s.line),
      s.line,
      `Context-Partition topology error: the compiler's split of the network into contexts ${what} — an inconsistent partition, not something the script asks for. In the one public record it was deterministic for a large (24-layer) network, and context_switch_param(mode=disabled), context_switch_param(allow_auto_merge_in_multicontext=True) and performance_param(compiler_optimization_level=1) did not change it; a different graph compiled. Report it to Hailo with the quoted lines and the DFC version.`,
      { excerpt: [msg] },
    );
  }

  private brokenInstall(s: Signal): DfcDiagnostic {
    this.run.brokenInstallLine = s.line.no;
    const msg = s.message.trim();
    const bin = /symbol lookup error: (\S+?):/.exec(msg)?.[1] ?? 'a DFC program';
    const compiler = /hailo_tools[\\/]build[\\/]compiler|[\\/]compiler$/.test(bin);
    return this.make(
      'dfc/broken-install',
      this.onLog(s.line),
      s.line,
      `The DFC's ${compiler ? 'compiler program' : 'program'} ${bin} cannot start: the dynamic loader found a shared library without a symbol it needs (undefined symbol). That is the installation, not the model — the DFC's binaries and the libraries on the library path (LD_LIBRARY_PATH, a conda environment's own libraries) do not match. Install the DFC wheel into a clean Python venv, or use Hailo's AI Software Suite docker image, and run again.${compiler ? ' The allocator exception that follows is this failure.' : ''}`,
      { excerpt: [msg], stage: compiler ? 'compile' : undefined },
    );
  }

  /**
   * An allocation failure: a header (`Mapping Failed`, `No successful assignments: L errors: …`,
   * the allocator exception) and the cause lines after it (catalogue role `cause`). Every line
   * of one failure becomes one diagnostic (errors.ts MERGED): the most precise line's wording, the
   * layer or context it names, and the cause's own advice.
   */
  private allocation(s: Signal, hit: MessageMatch): DfcDiagnostic {
    const msg = s.message.trim();
    const facts = this.run.allocationFacts;
    const e = hit.message;
    const n = hit.names;
    if (e.id === 'single-context') facts.cause = 'single-context';
    if (e.id === 'save-resources' && n.why) facts.over = overBudget(n.why);
    if (e.role === 'cause' && e.id !== 'single-context' && e.id !== 'save-resources' && e.id !== 'agent-infeasible') facts.causeEntry = e.id;
    let what: string;
    let named: string | undefined;
    switch (e.id) {
      case 'no-successful-assignments':
        named = n.layer;
        what = `layer ${n.layer} could not be placed${n.why ? ` (${n.why})` : ''}`;
        break;
      case 'automri-context':
        named = n.context;
        what = `${n.context} needs more resources than the device has`;
        break;
      case 'too-many-scs':
        named = n.layer;
        what = `layer ${n.layer} needs too many sub-clusters`;
        break;
      case 'kernel-validation':
        named = n.layer;
        what = `layer ${n.layer} failed kernel validation (${n.why})`;
        break;
      case 'resources-calculation':
        named = n.layer;
        what = n.layer ? `layer ${n.layer}'s resources could not be computed (${n.why})` : `resources could not be computed (${n.why})`;
        break;
      case 'apus-over':
        named = n.layer;
        what = `layer ${n.layer} needs ${n.n} APUs where ${n.max} is the most allowed`;
        break;
      case 'microcode-size':
        named = n.layer;
        what = `layer ${n.layer}'s microcode exceeds the size a cluster holds`;
        break;
      case 'agent-infeasible':
        // Every layer the allocator's lines name so far (`dw66 errors: …`, then `conv68 errors: …`): one failure, its layers.
        if (n.layer && !(facts.layers ??= []).includes(n.layer) && facts.layers.length < 8) facts.layers.push(n.layer);
        if (facts.layers?.length) {
          named = facts.layers[0];
          what = `${facts.layers.length > 1 ? 'layers' : 'layer'} ${facts.layers.join(', ')} could not be placed (Agent infeasible: no agent can place ${facts.layers.length > 1 ? 'them' : 'it'})`;
        } else what = 'the allocator could not map the network onto the device (Agent infeasible)';
        break;
      case 'compile-exception':
        named = n.layer;
        what = n.why ?? 'the compiler raised an exception';
        break;
      // The words the compiler gives after its verdict (`Builder fail with status 94: …`, the partitioner's `No valid
      // partition found`): the cause the log states, said as the DFC says it.
      case 'performance-flow-resources':
        what = 'the performance flow (compiler_optimization_level=max) requires automatic resource utilization, and the resources were limited by hand';
        break;
      case 'no-valid-partition':
        what = 'the partitioner found no valid partition of the network into contexts';
        break;
      case 'builder-status':
        what = n.why
          ? `the compiler's builder stopped with status ${n.status}: ${n.why.replace(/\.$/, '')}`
          : `the compiler's builder stopped with status ${n.status}`;
        break;
      case 'resource-capacity':
        named = n.context;
        what = `${n.context ? `context ${n.context}` : 'a context'} exceeds its ${n.resource} capacity${n.required ? ` (required: ${n.required}, available: ${n.available})` : ''}${facts.presolve ? `, after the presolve found one context too small (${facts.presolve})` : ''}`;
        break;
      case 'resources-presolve':
        if (n.why) facts.presolve = n.why;
        what = `the network needs more resources than one context has${n.why ? ` (${n.why}: needed/available)` : ''}`;
        break;
      case 'reshape-needed': {
        const layers = (n.layers ?? '').split(/,\s*/).filter(Boolean);
        named = layers[0];
        what = `the allocator could not add the reshape ${layers.length > 1 ? `layers ${layers.join(', ')} need` : `layer ${layers[0] ?? '?'} needs`}`;
        break;
      }
      case 'too-many-lcus':
        what = `the network needs ${n.n} Layer-Controllers (LCUs, the units that schedule each layer's data flow), more than it was given`;
        break;
      default:
        if (facts.cause === 'single-context') what = 'the network does not fit in a single context, and context switching is disabled';
        else if (e.id === 'partition-failed') what = 'no split of the network into contexts fits the device';
        else what = 'the allocator could not map the network onto the device';
    }
    // The search's end names no layer: the layers its tries kept refusing are what it could not place.
    const refused = named || facts.layers?.length ? { text: '' } : this.searchRefusals();
    if (refused.first) {
      named = refused.first;
      what += `; the allocator's tries before it refused ${refused.text}`;
    }
    const place = named && this.script ? this.script.mentioning(named)[0] : undefined;
    let where: { path: string; place: Place } = place ? { path: this.scriptPath, place } : this.onLog(s.line);
    let hint: string;
    const causeEntry = facts.causeEntry ? dfcMessage(facts.causeEntry) : undefined;
    if (facts.cause === 'single-context') {
      // The log's own cause line: "Context switch is disabled … consider changing it and try again".
      const cs = this.script?.statements('context_switch_param').find((st) => /\bmode\s*=\s*disabled\b/.test(st.text));
      if (cs) where = { path: this.scriptPath, place: cs.keyword('mode')?.value ?? cs.place };
      hint = cs
        ? ' The DFC names the cause: context switching is disabled here (context_switch_param(mode=disabled)). Allow it (mode=enabled, or remove the statement) so the compiler can split the network into contexts, or make the network smaller.'
        : " The DFC names the cause: context switching is disabled for this compile. Enable it in the model script — context_switch_param(mode=enabled), a form Hailo's own scripts use — so the compiler can split the network into contexts, or make the network smaller.";
    } else if (/Layer-Controllers/.test(msg)) {
      hint =
        ' Layer-Controllers schedule the data flow of the layers, and one context has a fixed number of them (the control utilisation of the resource tables): let the compiler split the network into more contexts (context_switch_param(mode=enabled) where the script disables it), or reduce the number of layers.';
    } else if (/16bit|16x4/.test(msg) || causeEntry?.id === 'resources-calculation') {
      hint =
        " 16-bit biases come from optimization level 0 (no GPU at optimize): optimize with a GPU so bias correction brings them to 8 bit. They also come from end nodes cut after the detection heads' post-processing (Sigmoid, Concat, Mul): those activations then go on the chip with 16-bit biases — end each head at its raw Conv output, as the model zoo's YAMLs do, and decode on the host.";
    } else if (causeEntry?.id === 'required-fps') {
      // Name the target the run was given: the script's performance_param(fps=…), else the log's.
      const perf = this.script?.statements('performance_param').find((st) => st.keyword('fps') && /^[\d.]+$/.test(st.keyword('fps')!.text));
      const fps = perf ? perf.keyword('fps')!.text : this.run.fpsTarget;
      if (perf && !place) where = { path: this.scriptPath, place: perf.keyword('fps')!.value };
      const target = fps ? `the target here is ${fps} FPS (performance_param(fps=${fps}) in the ${perf ? 'model script' : 'log'}); ` : '';
      hint = ` The DFC names the cause (${causeEntry.cause}): ${target}${causeEntry.fix}.`;
    } else if (causeEntry) {
      hint = ` The DFC names the cause (${causeEntry.cause}): ${causeEntry.fix}.`;
    } else {
      hint =
        " Try allocator_param(timeout=…) or compiler_optimization_level, reduce the input resolution or the layer's width, check --hw-arch (hailo8l has fewer resources than hailo8), or split the model.";
    }
    const over = facts.over ? ` Over the budget: ${facts.over}.` : '';
    const said = s.cls && !msg.startsWith(s.cls) && (e.id === 'backend-allocator' || s.cls === 'BackendAllocatorException') ? `${s.cls}: ${msg}` : msg;
    return this.make('dfc/allocation-failed', where, s.line, `Allocation failed: ${what} — ${said.replace(/\.$/, '')}.${over}${hint}`, {
      excerpt: [withoutLevel(s.line.text).trim()],
    });
  }

  /** The NMS config names a layer the parsed network (HN) does not have. */
  private nmsLayerMissing(s: Signal, hit: MessageMatch): DfcDiagnostic {
    const layer = hit.names.layer;
    const loc = this.onStatement('nms_postprocess', s.line);
    const which = layer
      ? `names ${layer}, which this network's HN does not have`
      : 'names an empty layer — the NMS config the DFC generated found no head layers (its reg_layer/cls_layer are empty)';
    return this.make(
      'dfc/nms-layer-missing',
      { path: loc.path, place: loc.place },
      s.line,
      `HailoNNException: The layer named ${layer ?? ''} doesn't exist in the HN — the NMS config of nms_postprocess ${which}. The config's bbox_decoders must name the HN's layers (reg_layer/cls_layer per scale, e.g. conv63), read from the parsed HAR (hailo-tools har), not the ONNX; a config made for another model (another size, a seg model compiled as detection) names other layers. hailo-tools check reads the config against the HAR.`,
    );
  }

  /** The model zoo (or a script) names something this DFC does not know: mismatched releases. */
  private versionMismatch(s: Signal, hit: MessageMatch): DfcDiagnostic {
    return this.make(
      'dfc/version-mismatch',
      this.onStatement('nms_postprocess', s.line),
      s.line,
      `${s.cls ? `${s.cls}: ` : ''}${s.message.trim()} — this DFC does not know meta_arch '${hit.names.arch ?? '?'}': the model zoo (or the script) is from a newer release than the installed DFC. Use the model-zoo version made for this DFC version (the model zoo's README pairs each release with its DFC), or a DFC that knows this architecture.`,
    );
  }

  /**
   * A layer of the DFC's network (HN) refused by a rule of its kind (`conv layer net/conv78_sd0 (translated from …) with
   * element-wise addition requires …`): the check runs wherever the DFC builds or loads the HN, so its stage is what the
   * log shows, not the parser's.
   */
  private layerRequirement(s: Signal, hit: MessageMatch): DfcDiagnostic {
    const n = hit.names;
    const from = n.node ? ` (translated from ${n.node})` : '';
    return this.make(
      'dfc/unsupported-layer',
      { ...this.onLog(s.line), node: n.layer },
      s.line,
      `The DFC refused a layer of its network: ${n.kind} layer ${n.layer}${from} ${(n.why ?? '').replace(/\.$/, '')}. ${hit.message.fix.charAt(0).toUpperCase()}${hit.message.fix.slice(1)}.`,
      { stage: this.state.stageForError(this.evidence) },
    );
  }

  /** A message whose catalogue entry says it all: the DFC's words, then the entry's fix. */
  private catalogued(s: Signal, hit: MessageMatch, code: DfcCode): DfcDiagnostic {
    // A class named alone (a table's cell, a sentence's last word) has no message to quote.
    const said = [s.cls && !s.message.includes(s.cls) ? s.cls : '', s.message.trim()].filter(Boolean).join(': ').replace(/\.$/, '');
    const fix = hit.message.fix;
    return this.make(code, this.onLog(s.line), s.line, `${said}: ${fix}.`);
  }

  /** A layer the optimizer cannot quantize (its data or weight range): the layer, and the causes the DFC itself names. */
  private quantizationFailed(s: Signal, hit: MessageMatch): DfcDiagnostic {
    const n: Record<string, string | undefined> = { ...hit.names };
    // The message quoted without its layer (a note's `fails on \`net/layer\` with \`Desired shift is …\``): the layer its line names beside it.
    // A table's row keeps its other cells in the raw line only.
    n.layer ??= layerBeside(s.line.said ?? s.line.text, s.message) ?? layerBeside(s.line.raw, s.message);
    const shift = /Desired shift is ([\d.]+), but op has only (\d+) data bits/.exec(s.message);
    const fix = hit.message.fix;
    // The shift-delta refusals say the layer and what to do in their own words: quoted whole.
    const what =
      hit.message.id === 'shift-delta'
        ? s.message.trim().replace(/\.$/, '')
        : n.layer
          ? `Quantization failed in layer ${n.layer}${n.why ? ` due to ${n.why.trim()}` : ''}${shift ? ` (it needs a shift of ${shift[1]}, the op has ${shift[2]} data bits)` : ''}`
          : shift
            ? `Quantization failed (it needs a shift of ${shift[1]}, the op has ${shift[2]} data bits; the log does not name the layer)`
            : s.message.trim().replace(/\.$/, '');
    return this.make('dfc/quantization-failed', this.onLog(s.line), s.line, `${s.cls ? `${s.cls}: ` : ''}${what}: ${fix}.`);
  }

  /** The DFC's first-run system check: one warning listing every requirement it found unmet. */
  private systemRequirements(s: Signal, hit: MessageMatch): DfcDiagnostic[] {
    const item = (hit.names.why ?? withoutLevel(s.line.text).trim()).replace(/\.$/, '');
    const prior = this.run.sysreq;
    if (prior) {
      if (!prior.items.includes(item)) prior.items.push(item);
      prior.d.message = this.sysreqMessage(prior.items, hit.message.fix);
      prior.d.excerpt = [...prior.items];
      return [];
    }
    const items = [item];
    const d = this.make('dfc/system-requirements', this.onLog(s.line), s.line, this.sysreqMessage(items, hit.message.fix), { excerpt: [...items] });
    this.run.sysreq = { d, items };
    return [d];
  }

  private sysreqMessage(items: string[], fix: string): string {
    const unmet = items.filter((x) => !/check failed/i.test(x));
    return `The DFC's system check found ${unmet.length ? unmet.join('; ') : 'requirements unmet'}. ${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`;
  }

  /**
   * A HailoRT failure (a run on the device, not the compile). HailoRT prints the check that failed
   * first and then, at each caller, the status (`CHECK failed - X` / `CHECK_SUCCESS failed with
   * status=HAILO_Y(N)`): lines of one failure within a few lines of each other are one diagnostic —
   * its first message, the status that message failed with, the family's advice. A status of no
   * family that follows a known message is that message's status, not a second failure.
   */
  private hailort(s: Signal, hit: MessageMatch): DfcDiagnostic[] {
    const e = hit.message;
    const code = e.code as DfcCode;
    const body = withoutLevel(s.line.text).trim();
    const named = hit.names.status ?? (hit.names.value ? hailortStatusName(Number(hit.names.value)) : undefined);
    const status =
      named !== undefined
        ? (hailortStatusValue(named) ?? null)
        : (hailortStatusIn(s.message)?.value ?? hailortStatusIn(body)?.value ?? (s.cls ? PYHAILORT_CLASS_STATUS[s.cls] : undefined) ?? null);
    // HailoRT logs statuses at info level too (a stream the user aborted): only its errors and warnings say it failed.
    const lv = level(s.line.text);
    if ((lv === 'info' || lv === 'debug') && !s.line.relayedLevel) return [];
    const rt = this.run.rt;
    // A status of no family joins a failure that has no status yet, or this very status (its callers repeat it).
    // So does the status the chain's check is known to return (`HEF version does not match`, then each caller's `… status=HAILO_INVALID_HEF(26)`).
    const joins =
      code === rt?.code ||
      (code === 'hailort/status' && (rt?.status === null || rt?.status === status)) ||
      (rt !== null && status !== null && (rt.status === null || rt.status === status) && rt.statuses.includes(hailortStatusName(status) ?? ''));
    if (rt && s.line.no - rt.last <= HAILORT_CHAIN_LINES && joins) {
      if (s.line.no !== rt.last && rt.excerpt.length < 12) rt.excerpt.push(body);
      // A later line's own words name what failed at its level — a caller's after the status it repeats (`CHECK_SUCCESS
      // failed with status=HAILO_TIMEOUT(4) - HwWriteElement3_net/input_layer1 (H2D) failed with status=…`, HailoRT's
      // CHECK_SUCCESS(status, msg), common/utils.hpp), another stream's check of the same failure (`CHECK failed -
      // UserBuffQEl1model/conv65 (D2H) failed with status=HAILO_TIMEOUT(4)`): the element, stream or edge is this failure's.
      const caller = callerWords(body);
      if (caller && rt.asides.length < 3 && !rt.detail.includes(caller) && !rt.asides.includes(caller)) rt.asides.push(caller);
      // A check's own message that joins after its status (an author quotes `HAILO_INVALID_OPERATION(6):` and then the
      // message, dfc-corpus unseen26/01): the message is what failed — it and what it names (an output, a layer, a path)
      // become the chain's words, and its entry's advice the family's. A line that only repeats a status adds nothing.
      const own = rt.bare && caller === null && !isStatusLine(e) ? stripCheck(this.quotedFrom(s, hit, body)) : null;
      if (own && (own.replace(HAILORT_STATUS_TOKEN, '').match(PROSE_WORD) ?? []).length >= 3) {
        rt.detail = own;
        rt.bare = false;
        if (rt.familyFix) {
          rt.fix = this.entryFix(e, hit);
          rt.familyFix = rt.fix === hailortFamilyFix(rt.code as HailortFamilyCode);
        }
      }
      if (!rt.monitor && HAILORT_MONITOR_SOURCE.test(s.line.raw)) this.monitorSide(rt);
      rt.last = s.line.no;
      if (rt.status === null && status !== null) rt.status = status;
      if (rt.code === 'hailort/status' && rt.familyFix && GENAI_CREATE_FAILED.test(body)) [rt.fix, rt.familyFix] = [GENAI_CREATE_FIX, false];
      rt.d.message = this.hailortMessage(rt);
      rt.d.excerpt = [...rt.excerpt];
      return [];
    }
    // A line that only carries the status: the check that failed is the error line just before it.
    const plain = this.run.rtPlain;
    const statusLine = isStatusLine(e);
    const said = this.quotedFrom(s, hit, body);
    // pyhailort raises the status as the exception of a traceback printed after the check: its frames (two lines
    // each, and the header) stand between them (dfc-corpus unseen4/08).
    const span = 3 + (s.kind === 'exception' ? 2 * s.frames.length + 1 + (s.framesOmitted ?? 0) * 2 : 0);
    const fromPlain = statusLine && plain !== null && s.line.no - plain.line.no <= span && plain.line.no > (rt?.last ?? 0);
    if (fromPlain && rt && rt.asides.includes(plain.text.replace(/\s+/g, ' '))) {
      // The line was this failure's check, not the last one's aside.
      const aside = plain.text.replace(/\s+/g, ' ');
      rt.asides = rt.asides.filter((a) => a !== aside);
      rt.excerpt = rt.excerpt.filter((x) => stripCheck(x).replace(/\s+/g, ' ') !== aside);
      rt.d.message = this.hailortMessage(rt);
      rt.d.excerpt = [...rt.excerpt];
    }
    let detail = fromPlain ? plain.text : stripCheck(said);
    // The diagnostic stands on the failure's first line: the check, when the status came after it.
    const at = fromPlain ? plain.line : s.line;
    if (e.id === 'hailort-open-file' && !hit.names.path) detail = 'Failed opening file: the path given was empty';
    let fix = this.entryFix(e, hit);
    // The kernel's errno in HailoRT's or the driver's words says more than the status its caller
    // reports (ENOMEM under HAILO_DRIVER_FAIL is the host out of memory): its meaning, and its advice.
    const errno = errnoIn(detail) ?? errnoIn(body);
    if (errno) {
      detail = `${detail.replace(/[.:]$/, '')} — ${describeErrno(errno)}`;
      if (errno.advice) fix = errno.advice;
    }
    const excerpt = fromPlain ? [plain.text, body] : [body];
    // A GenAI model the device's server would not create with a status of no family of its own: the causes
    // recorded for it (dfcMessages.ts); a family's status (a device held, a HEF refused) keeps its family's advice.
    if (code === 'hailort/status' && fix === hailortFamilyFix(code) && (GENAI_CREATE_FAILED.test(body) || GENAI_CREATE_FAILED.test(detail)))
      fix = GENAI_CREATE_FIX;
    const familyFix = fix === hailortFamilyFix(code as HailortFamilyCode);
    const chain: HailortChain = {
      code,
      d: null as unknown as DfcDiagnostic,
      last: s.line.no,
      status,
      detail,
      fix,
      familyFix,
      excerpt,
      asides: [],
      statuses: e.statuses ?? [],
      bare: statusLine && !fromPlain,
    };
    const author = lv === null && !s.line.raw.includes('[HailoRT]') && s.line.said?.includes('`') ? authorsSentence(s.line.said) : null;
    if (author) chain.author = author;
    chain.d = this.make(code, this.onLog(at), at, this.hailortMessage(chain), {
      stage: 'unknown',
      severity: e.severity === 'warning' || lv === 'warning' ? 'warning' : undefined,
      excerpt: [...excerpt],
    });
    if (HAILORT_MONITOR_SOURCE.test(at.raw) || HAILORT_MONITOR_SOURCE.test(s.line.raw)) this.monitorSide(chain);
    this.run.rt = chain;
    return [chain.d];
  }

  /**
   * A HailoRT message as it stands on its line (a wrapper's `stderr=[HailoRT] [error] …` before it is not HailoRT's), with
   * HailoRT's check macro's own words just before the match (`CHECK_SUCCESS failed with status=X - msg`); a status line whole.
   */
  private quotedFrom(s: Signal, hit: MessageMatch, body: string): string {
    const from = !isStatusLine(hit.message) && hit.index > 0 ? body.indexOf(s.message) + hit.index : 0;
    const check = from > 0 ? /CHECK(?:_[A-Z_]+)? failed(?: with)? ?$/.exec(body.slice(Math.max(0, from - 40), from)) : null;
    return s.cls && !body.includes(s.cls) ? `${s.cls}: ${s.message}` : from > 0 ? body.slice(check ? from - check[0].length : from) : body;
  }

  /** A HailoRT message's advice: its entry's, or what its own words say more precisely (the sizes, the versions it names). */
  private entryFix(e: DfcMessage, hit: MessageMatch): string {
    // The device errors' own sentences where the two domains know the same failure (core/device/errors.ts).
    if (e.id === 'hailort-device-family') return sentenceFor('runtime-mismatch').replace(/\.$/, '');
    if (e.id === 'hailort-kv-cache-in-use') return sentenceFor('genai-busy').replace(/\.$/, '');
    if (e.id === 'hailort-buffer-size') return bufferSizeFix(hit.names) ?? e.fix;
    if (e.id === 'hailort-driver-version' && hit.names.driver && hit.names.library)
      return sentenceFor('driver-mismatch', { hailortVersion: hit.names.library, driverVersion: hit.names.driver }).replace(/\.$/, '');
    return e.fix;
  }

  /**
   * HailoRT's monitor (the state `hailortcli monitor` shows, dumped by a thread of its own when HAILO_MONITOR=1) logs
   * what fails in it and carries on: dump_state and write_utilization_to_file log LOGGER__ERROR and return, the thread
   * loops (hailort/libhailort/src/utils/profiler/monitor_handler.cpp, https://github.com/hailo-ai/hailort). Its failure
   * is a warning about the monitor, not the run's.
   */
  private monitorSide(c: HailortChain): void {
    this.run.demoted = true;
    c.monitor = true;
    c.d.severity = 'warning';
    c.fix = `this is HailoRT's monitor (the state file hailortcli monitor reads, written when HAILO_MONITOR=1), not the run: it logs the failure and goes on — at worst the monitor misses an update (errno 11: another process held the file's lock then)`;
    c.familyFix = false;
    c.d.message = this.hailortMessage(c);
  }

  private hailortMessage(c: HailortChain): string {
    const fix = (c.familyFix && c.status !== null ? hailortStatusAdvice(c.status) : undefined) ?? c.fix;
    const asides = c.asides.length ? ` HailoRT adds: ${c.asides.map((a) => a.replace(/[.:]$/, '')).join('; ')}.` : '';
    const author = c.author ? ` The author's words: «${c.author.replace(/[.:]$/, '')}».` : '';
    return `HailoRT: ${c.detail.replace(/[.:]$/, '')}${c.status !== null ? ` — ${describeHailortStatus(c.status)}` : ''}.${asides}${author} ${fix.charAt(0).toUpperCase()}${fix.slice(1)}.`;
  }

  /** Another run begins: nothing the last run showed is this run's (ExplainerRun). */
  newRun(): void {
    this.run = new ExplainerRun();
  }

  /** Whether an error was found since the last call to be a side thread's, not the run's (ErrorCollector recomputes the run's end). */
  takeDemoted(): boolean {
    const d = this.run.demoted;
    this.run.demoted = false;
    return d;
  }

  private compilerBug(s: Signal): DfcDiagnostic {
    return this.make(
      'dfc/compiler-bug',
      this.onLog(s.line),
      s.line,
      'Compiler bug: an internal assertion of the Dataflow Compiler failed (nothing in the input is reported as wrong). Report it to Hailo with the quoted log lines and the DFC version; changing the model (e.g. where contexts split, skip connections across contexts) may avoid it.',
      { excerpt: [withoutLevel(s.line.text).trim()] },
    );
  }

  private docker(s: Signal): DfcDiagnostic {
    const msg = s.message.trim();
    let advice = 'Fix the docker setup and run again.';
    if (/Unable to find image/.test(msg))
      advice = "The image is not loaded: 'docker load -i <suite>.tar.gz', or choose another image (hailo.dfc.image, CLI --image).";
    else if (/Cannot connect to the Docker daemon|failed to connect to the docker API/i.test(msg))
      advice = 'The docker daemon is not running (or DOCKER_HOST/the docker context points elsewhere).';
    else if (/permission denied/.test(msg)) advice = "You may not use the docker socket: add yourself to the 'docker' group and log in again.";
    else if (/could not select device driver|nvidia/i.test(msg))
      advice = 'No NVIDIA container runtime: install the NVIDIA Container Toolkit, or run without GPUs (hailo.dfc.gpus: none).';
    return this.make('dfc/docker', this.onLog(s.line), s.line, `Docker refused before the DFC ran: ${msg} ${advice}`, { stage: 'docker', excerpt: [msg] });
  }

  /**
   * `Reducing optimization level to 0 … because {why}`: fewer calibration images than the 1024 it
   * recommends, no GPU, or both — the accuracy risk of a run that looks successful.
   */
  private levelZero(l: LogLine, why: string): DfcDiagnostic {
    const fewImages = /less data than the recommended amount \((\d+)\)/.exec(why);
    const noGpu = /no available GPU/.test(why);
    const causes = [fewImages ? `the calibration set has fewer images than the ${fewImages[1]} it recommends` : '', noGpu ? 'it found no GPU' : '']
      .filter(Boolean)
      .join(' and ');
    return this.make(
      'dfc/optimization-level-0',
      this.onLog(l),
      l,
      `The DFC lowered its optimization level to 0 because ${causes || why || "of the run's resources"}: no fine-tuning, bias correction or compression — an accuracy risk the run does not report as a failure (int8 results can collapse), and 16-bit biases can make allocation fail.${fewImages ? ` Give optimize at least ${fewImages[1]} calibration images.` : ''}${noGpu ? " Give the container a GPU (hailo.dfc.gpus, docker --gpus all) for production builds, or ask for model_optimization_flavor(optimization_level=1) explicitly: only the default level is lowered, and level 1's bias correction runs on the CPU (slower: about 25 s per block in one public run)." : ''}`,
    );
  }

  /**
   * Ultralytics' `Hailo level-2 optimization will use N calibration images` (exporter.py export_hailo, printed for any N):
   * below the 1024 the DFC recommends it is the accuracy risk of the DFC's own level-0 warning — medium confidence, as
   * what it costs depends on the model (one public run: mAP50 0.069 against 0.548 with 128 images, PR #25231).
   */
  private fewCalibrationImages(l: LogLine, count: number): DfcDiagnostic[] {
    if (!(count < 1024)) return [];
    return [
      this.make(
        'dfc/optimization-level-0',
        this.onLog(l),
        l,
        `Ultralytics' Hailo export calibrates and fine-tunes with ${count} images, fewer than the 1024 the DFC recommends: an accuracy risk the run does not report as a failure (int8 results can collapse). Pass data= a dataset with at least 1024 representative images.`,
        { confidence: 'medium' },
      ),
    ];
  }

  /**
   * The diagnostic tool's NormInspector finding at a layer (dfcMessages.ts input-not-normalized): its first line names the
   * layer and the data's statistics, its next says which way they are off — one warning per run, its message made precise
   * by the verdict when it comes.
   */
  private inputNotNormalized(s: Signal, hit: MessageMatch): DfcDiagnostic[] {
    const said = withoutLevel(s.line.text).trim().replace(/\.$/, '');
    const verdict = hit.names.verdict;
    const prior = this.run.norm;
    if (prior && verdict && !prior.verdict) {
      prior.verdict = verdict;
      prior.d.message = this.normMessage(prior.said, verdict, hit.message.fix);
      prior.d.excerpt = [prior.said, said];
      return [];
    }
    if (prior) return [];
    const d = this.make('dfc/calibration-range', this.onLog(s.line), s.line, this.normMessage(said, verdict, hit.message.fix), {
      severity: hit.message.severity,
    });
    this.run.norm = { d, said, verdict: verdict ?? null };
    return [d];
  }

  private normMessage(said: string, verdict: string | undefined, fix: string): string {
    const why =
      verdict === 'above'
        ? "The data is not normalized (its mean or std is above a normalized input's): if the model was trained on normalized input, add a normalization layer at its start in the model script — `normalization1 = normalization([mean per channel], [std per channel])`, on the 0–255 scale — and optimize again, or normalize the data before the chip and calibrate with it so normalized"
        : verdict === 'below' || verdict === 'normalized twice'
          ? 'The data looks normalized twice (normalized before it reaches a normalization layer that normalizes it again): keep one — feed the layer raw 0–255 data (calibration set and application alike), or remove the normalization from the model script'
          : verdict
            ? "The data is normalized, but not as a normalized input is distributed: check the normalization layer's mean and std against the model's training preprocessing (per channel, on the 0–255 scale)"
            : `${fix.charAt(0).toUpperCase()}${fix.slice(1)}`;
    return `Hailo's diagnostic tool (NormInspector): ${said}. ${why}.`;
  }

  private calibrationRange(l: LogLine, msg: string): DfcDiagnostic {
    return this.make(
      'dfc/calibration-range',
      this.onLog(l),
      l,
      `${msg} Calibration must come from the input's own distribution: a block calibrated with uniform [0,1) data had 66.65 % relative error, the same block calibrated with standard-normal data (its input's distribution) 2.44 %.`,
    );
  }

  /** `(line:L, col:C)` and/or the `>!<` echo: the script line the DFC's parser stopped at. */
  syntax(s: Signal, lineNo: number | null, column: number | null, message: string, echo: string | null): DfcDiagnostic | null {
    const detail = message.replace(/\s*Parsing failed at:.*$/s, '').trim();
    const shown = echo ? echo.trim() : null;
    let where: { path: string; place: Place } | undefined;
    if (this.script) {
      const found = echo ? this.script.findEcho(echo, lineNo) : undefined;
      if (found) {
        const text = this.script.lineText(found.line) ?? '';
        const end = /^[\w.]+/.exec(text.slice(found.column - 1))?.[0].length ?? 1;
        where = { path: this.scriptPath, place: { line: found.line, column: found.column, endLine: found.line, endColumn: found.column + Math.max(1, end) } };
      } else if (lineNo !== null && this.script.lineText(lineNo) !== undefined) {
        const text = this.script.lineText(lineNo)!;
        const col = Math.min(column ?? 1, text.length + 1);
        const end = /^[\w.]+/.exec(text.slice(col - 1))?.[0].length ?? 1;
        where = { path: this.scriptPath, place: { line: lineNo, column: col, endLine: lineNo, endColumn: col + Math.max(1, end) } };
      }
    } else if (lineNo !== null && (this.state.ctx.allsPath || this.state.scriptPathFromLog)) {
      where = { path: this.scriptPath, place: { line: lineNo, column: column ?? 1, endLine: lineNo, endColumn: (column ?? 1) + 1 } };
    }
    where ??= this.onLog(s.line);
    const parts = [`The DFC's model-script parser stopped here`];
    if (detail && !/^Parsing failed/.test(detail)) parts.push(`: ${detail}`);
    if (shown) parts.push(` — at ${shown}`);
    return this.make(
      'dfc/model-script-syntax',
      where,
      s.line,
      `${parts.join('')}. Fix the statement (the .alls checker explains most such errors as you type: hailo-tools check).`,
    );
  }

  /** The exit status: 137 / SIGKILL is the memory limit unless the caller stopped the run itself. */
  exit(exit: DfcExit | undefined, lastLine: number): DfcDiagnostic | null {
    const killedLine = this.state.killedLine;
    const by = stoppedByCaller(exit);
    if (by) return this.stoppedByCaller(by, Math.max(1, lastLine));
    // SIGINT and SIGTERM: a user or another program stopped the run (exit 128+N, bash(1)); the DFC did not fail.
    const signalled = this.state.killedBy;
    for (const [signal, status] of [
      ['SIGINT', 130],
      ['SIGTERM', 143],
    ] as const)
      if (exit?.code === status || exit?.signal === signal || (killedLine !== null && signalled === signal))
        return this.interrupted(killedLine ?? Math.max(1, lastLine), signal, exit?.code === status, this.state.stoppedStage());
    const sigkill = exit?.code === 137 || exit?.signal === 'SIGKILL' || killedLine !== null;
    if (!sigkill) return null;
    const lineNo = killedLine ?? Math.max(1, lastLine);
    const { where, l } = this.atLine(lineNo);
    const stage = this.state.stoppedStage();
    const calib = this.script
      ?.statements('model_optimization_config')
      .find((st) => /\bcalibration\b/.test(st.text) && Number(st.keyword('batch_size')?.text) > 1);
    const batchNote = calib
      ? ` The script calibrates with batch_size=${calib.keyword('batch_size')!.text} (line ${calib.place.line}); "batch 8 exceeded a 30 GiB container" — batch_size=1 needs less.`
      : '';
    // Killed in the compile stage, the allocator's search held the memory: at its auto-retry's 100% utilization its parallel
    // splits run several workers at once (dfc-corpus unseen18/09: a hailomz compile OOM-killed twice at 23 GB, done in 13 min
    // with the caps at 0.65) — the model script's resource caps shrink the search, the partition still valid.
    const allocatorNote =
      stage === 'compile'
        ? " In the compile stage it is the allocator's search that grows: cap it in the model script with resources_param(max_utilization=…, max_memory_utilization=…) (e.g. 0.85, lower if it is still killed) — a smaller search, still a valid partition."
        : '';
    return this.make(
      'dfc/memory-killed',
      where,
      l,
      `The DFC was killed (${exit?.code === 137 ? 'exit 137, ' : ''}SIGKILL)${stage === 'unknown' ? '' : ` during ${stage}`}: that is how the container's memory limit or the kernel's OOM killer ends it (Statistics Collector was killed at Docker's 30.26 GiB; a large backbone peaked at 39.87 GiB). Raise ${MEMORY_SETTING} (CLI: --memory, e.g. 40g) and, on Docker Desktop/WSL, the VM's memory.${batchNote}${allocatorNote}`,
      { fix: { kind: 'setting', key: MEMORY_SETTING }, stage },
    );
  }

  /**
   * The caller stopped the run itself (its user's cancel, its deadline) and says so: whatever status the stop left
   * (docker's SIGKILL, 137; a SIGTERM, 143) is that stop, never the memory limit. A user's cancel is no problem of the
   * run (info); a deadline is (error).
   */
  private stoppedByCaller(by: 'user' | 'timeout', lineNo: number): DfcDiagnostic {
    const { where, l } = this.atLine(lineNo);
    const stage = this.state.stoppedStage();
    const during = stage === 'unknown' ? '' : ` during ${stage}`;
    return this.make(
      'dfc/stopped',
      where,
      l,
      by === 'user'
        ? `The run was stopped by its user (a cancel)${during}: the tool stopped the container itself — not the memory limit, not a DFC failure. Run it again to finish it.`
        : `The run was stopped at the tool's time limit${during}: the tool stopped the container itself — not the memory limit, not a DFC failure; nothing in the log says the model or the script is wrong.`,
      { stage, ...(by === 'user' ? { severity: 'info' as const } : {}) },
    );
  }

  /**
   * The run was stopped, not failed: Python's KeyboardInterrupt (Ctrl-C), or SIGINT/SIGTERM as the shell or the
   * caller reports it. What the DFC printed on its way out (`Failed to produce compiled graph`) is the stop's trace,
   * no compiler bug (errors.ts drops it).
   */
  interrupted(
    lineNo: number,
    how: 'KeyboardInterrupt' | 'SIGINT' | 'SIGTERM',
    fromStatus = false,
    stage: StageName | 'unknown' = this.state.stageForError(this.evidence),
    /** The tool's own words that its user stopped it (`Interrupted by user, aborting...`), said instead of the class. */
    said?: string,
  ): DfcDiagnostic {
    const { where, l } = this.atLine(lineNo);
    const what = said
      ? `its user — the tool's own words \`${said.replace(/`/g, "'")}\` (Ctrl-C, SIGINT: Python's KeyboardInterrupt)`
      : how === 'KeyboardInterrupt'
        ? 'KeyboardInterrupt — what Python raises when the user presses Ctrl-C (SIGINT)'
        : how === 'SIGINT'
          ? `SIGINT${fromStatus ? ' (exit 130 = 128 + 2)' : ''} — Ctrl-C in its terminal`
          : `SIGTERM${fromStatus ? ' (exit 143 = 128 + 15)' : ''} — kill, timeout, docker stop, or a CI job cancelled or over its time limit`;
    const refused = stage === 'compile' ? this.searchRefusals().text : '';
    const advice =
      stage === 'compile'
        ? `${refused ? ` Until then the allocator's tries kept refusing ${refused}: the search had found no placement for ${refused.includes('), ') ? 'these layers' : 'it'}.` : ''}` +
          ' A compile can print nothing for tens of minutes while the allocator searches (allocator_param(timeout=…) bounds the search): run it again where nothing stops it — in tmux or with nohup, past any CI time limit — and let it finish.'
        : ' Run it again and let it finish; nothing in the log says the model or the script is wrong.';
    return this.make(
      'dfc/interrupted',
      where,
      l,
      `The run was interrupted${stage === 'unknown' ? '' : ` during ${stage}`}: stopped by ${what}. The DFC did not fail: it was stopped before it finished.${advice}`,
      { stage },
    );
  }

  /** A diagnostic on a whole log line by its number alone (how a run ended: no line of the log says it). */
  private atLine(no: number): { where: { path: string; place: Place }; l: LogLine } {
    return {
      where: { path: this.state.ctx.logPath, place: { line: no, column: 1, endLine: no, endColumn: 1 } },
      l: { no, raw: '', text: '', overwritten: false, length: 0 },
    };
  }

  /**
   * A warning a program's logger wrote that no catalogue entry knows (unknownWarnings.ts): said in its own words, once,
   * with how often it repeated and what it names — the reader knows nothing more of it, so at low confidence, and never
   * as a failure. `more`: lines of further warnings the report leaves unsaid (a flood stays readable).
   */
  unknownWarning(w: UnknownWarning, more: number): DfcDiagnostic {
    const { where, l } = this.atLine(w.firstLine);
    where.place.endColumn = w.firstLength + 1;
    const times = w.count > 1 ? ` — ${w.count} times${w.varied ? ' (in other numbers too)' : ''}, lines ${w.firstLine}–${w.lastLine}` : '';
    const from = w.source ? ` (logged from ${w.source})` : '';
    const names = w.names.length ? ` It names ${w.names.join(', ')}.` : '';
    const rest = more ? ` The log has ${more} more warning line${more === 1 ? '' : 's'} of other messages the reader does not know.` : '';
    return this.make(
      'dfc/unrecognised-warning',
      where,
      l,
      `The program warns${from}: «${w.words}»${times}${times || !/[.!?]$/.test(w.words) ? '.' : ''} No DFC or HailoRT message the reader knows explains it, so its words are all there is: nothing in this log failed because of it, and what it asks for is in them.${names}${rest}`,
      { stage: 'unknown' },
    );
  }

  /**
   * A kernel splat (kernelSplat.ts): where the kernel said its code went wrong — the function it is at and the module
   * on its stack — as evidence, never as the run's failure or its cause; the failure after it, when there is one, is
   * named by its line. `more`: distinct splats left unsaid.
   */
  kernelSplat(s: Splat, failure: DfcDiagnostic | null, more: number): DfcDiagnostic {
    const { where, l } = this.atLine(s.firstLine);
    const what =
      s.kind === 'WARNING'
        ? 'a WARNING'
        : s.kind === 'BUG'
          ? 'a BUG'
          : s.kind === 'Oops'
            ? 'an Oops (a fault in kernel code)'
            : s.kind === 'hung task'
              ? 'a task blocked in the kernel (hung task)'
              : s.kind === 'panic'
                ? 'a panic'
                : 'a call trace';
    const at = s.top ? ` at ${s.top}${s.file ? ` (${s.file})` : ''}` : '';
    const times = s.count > 1 ? ` — ${s.count} times, lines ${s.firstLine}–${s.lastLine}` : '';
    const who = s.comm ? `, for the process ${s.comm}` : '';
    const mod = s.moduleFrame
      ? ` Its stack runs through ${s.moduleFrame.fn} in the module ${s.moduleFrame.module}${/^hailo/.test(s.moduleFrame.module) ? " (Hailo's PCIe driver, hailort-drivers)" : ''}: a driver built apart from the kernel — look the function up by that driver's release and the kernel's.`
      : '';
    // The module the kernel was loading or unloading (its `+`/`-` in `Modules linked in:`), when the stack names no other.
    const t = s.moduleInTransit;
    const transit =
      t && t.module !== s.moduleFrame?.module
        ? ` It happened while the kernel was ${t.loading ? 'loading' : 'unloading'} the module ${t.module}${/^hailo/.test(t.module) ? ", Hailo's PCIe driver (hailort-drivers)" : ''} — marked \`${t.loading ? '+' : '-'}\` in \`Modules linked in\` — a driver built apart from the kernel: look the fault up by that driver's release and the kernel's.`
        : '';
    const after = failure
      ? ` The run's failure is the error after it, in its own words (line ${failure.logLine}); the splat is evidence of where the kernel's code went wrong, not the cause of that error.`
      : " A splat is the kernel's evidence of where its code went wrong, not by itself the run's failure.";
    const rest = more ? ` The log shows ${more} more distinct splat${more === 1 ? '' : 's'}.` : '';
    return this.make('dfc/kernel-splat', where, l, `The kernel logged ${what}${at}${who}${times}.${mod}${transit}${after}${rest}`, { stage: 'unknown' });
  }

  /** A non-zero exit status and a log without any error line: say where it stopped, not why. */
  noErrorShown(code: number, lastLine: number): DfcDiagnostic {
    const stage = this.state.stoppedStage();
    const { where, l } = this.atLine(lastLine);
    const p = this.state.lastProgress;
    const progress = p ? ` (its last progress line: ${p.label}${p.total !== null ? ` ${p.done}/${p.total}` : ''})` : '';
    return this.make(
      'dfc/no-error-in-log',
      where,
      l,
      `The run ended with exit status ${code}${stage === 'unknown' ? '' : ` during ${stage}`}${progress}, but this log shows no error line${code === 1 ? ' (1 is how Python ends on an uncaught exception)' : ''}: the error was printed where this log does not reach (stderr not captured, a cut excerpt). Capture the whole console (2>&1) and read the error, or run hailo-tools dfc-log on it.`,
      { stage },
    );
  }

  /**
   * The command's argument parser refused its command line (argparse's `PROG: error: …`, click's
   * `Error: …`): nothing ran. An empty list of choices (`(choose from )`) means the tool found none
   * of the entries it offers — its installation, not the name typed, is what to check.
   */
  usage(l: LogLine, prog: string | null, message: string): DfcDiagnostic {
    const empty = /\(choose from\s*\)/.test(message);
    const advice = empty
      ? `The list it chooses from is empty: ${prog ?? 'the tool'} found none of the entries it offers${/hailomz/.test(prog ?? '') ? " (for hailomz, the model zoo's network configurations)" : ''} — check its installation.`
      : /invalid choice: '(?:parser|optimize|compiler|profiler)'/.test(message)
        ? // The DFC's verbs refused as unknown: the `hailo` on PATH is HailoRT's (hailo_platform's CLI has only runtime commands).
          `The \`hailo\` found has no Dataflow Compiler commands: the DFC is not installed there (HailoRT's own \`hailo\` offers only runtime commands). Run the DFC where it is installed (x86_64 Linux: its virtualenv or docker container) and copy the HEF to the device.`
        : `Run it with --help and fix the command line.`;
    return this.make(
      'dfc/usage',
      this.onLog(l),
      l,
      `${prog ?? 'The command'} refused its command line, so nothing ran: ${message.replace(/\.$/, '')}. ${advice}`,
      {
        stage: 'unknown',
        excerpt: [withoutLevel(l.text).trim()],
      },
    );
  }

  /**
   * The shell found no such program, or apt no such package: nothing of Hailo's ran. HailoRT's tools
   * (hailortcli, the Python bindings) come in HailoRT's packages — on a Raspberry Pi, Raspberry Pi OS's
   * `hailo-all` (https://www.raspberrypi.com/documentation/computers/ai.html); the DFC's `hailo` and the
   * model zoo's `hailomz` live in the virtualenv they were installed into.
   */
  notInstalled(l: LogLine, what: { program: string } | { packageName: string; version: string | null; message: string }): DfcDiagnostic {
    let message: string;
    if ('program' in what) {
      const p = what.program;
      const advice = /^(?:hailo|hailomz)$/.test(p)
        ? `${p} is installed inside the Dataflow Compiler's (or the model zoo's) Python virtualenv: activate it first (or run inside the DFC docker container).`
        : /^hailo|^gst-/.test(p)
          ? `Install HailoRT (on a Raspberry Pi, \`sudo apt install hailo-all\` installs HailoRT, the PCIe driver, TAPPAS core and the Python bindings; elsewhere the HailoRT packages of your release), then open a new shell.`
          : `Install the package that provides it, or put its directory on PATH.`;
      message = `The shell found no program ${p}: it is not installed or not on PATH, so nothing ran. ${advice}`;
    } else {
      const v = what.version ? ` (version ${what.version})` : '';
      message = `apt could not install ${what.packageName}${v}: ${what.message}. The configured repositories do not offer it${what.version ? ' at that version' : ''} — \`apt policy ${what.packageName}\` lists what they offer; on a Raspberry Pi, install the release the OS ships with \`sudo apt install hailo-all\`, and pin versions only to ones listed (HailoRT's packages must all be of one release).`;
    }
    return this.make('dfc/not-installed', this.onLog(l), l, message, { stage: 'unknown', excerpt: [withoutLevel(l.text).trim()] });
  }

  /**
   * A native program died: an uncaught C++ exception (libstdc++'s verbose terminate handler prints its
   * type and `what()`), then the signal the shell reports. std::bad_alloc is a failed allocation.
   */
  crashed(l: LogLine, c: { type: string | null; what: string | null; signal: string | null }, excerpt: string[], before: string[] = []): DfcDiagnostic {
    const how = c.type
      ? `an uncaught C++ exception, ${c.type}${c.what && c.what !== c.type ? ` (what(): ${c.what})` : ''}${c.signal ? `, and was ${/^Abort/.test(c.signal) ? 'aborted' : `killed (${c.signal})`}` : ''}`
      : `${c.signal ?? 'a fatal signal'}${c.what ? ` (${c.what})` : ''}`;
    const advice =
      c.type === 'std::bad_alloc'
        ? "std::bad_alloc is a memory allocation that failed: the host (or its container's limit) ran out of memory, or a size read wrong asked for too much — watch the memory while it runs (free -h, dmesg)."
        : c.type
          ? 'Its what() says what failed; the lines before it, what the program was doing.'
          : /^Illegal/i.test(c.signal ?? '')
            ? "The CPU met an instruction it does not have: a binary built for a newer instruction set (TensorFlow's, which the DFC runs on, needs AVX since TensorFlow 1.6 — tensorflow.org/install/pip); in a VM, pass the host CPU's flags through."
            : /^Bus error/i.test(c.signal ?? '')
              ? "A bus error in a container is often its shared memory running out (docker's /dev/shm is 64 MB unless --shm-size or --ipc=host); otherwise a file mapped in memory changed under it. The lines before say what it was doing."
              : /Segmentation/i.test(c.signal ?? '')
                ? 'A native part of the program crashed: the lines before say what it was doing.'
                : 'The lines before it say what the program was doing.';
    // What failed right before it, in the program's words, and what a library it names says (libraryCause).
    const library = before.map(libraryCause).find(Boolean);
    const prior = before.length ? ` Right before it: ${before.map((b) => `«${b}»`).join(', then ')}.${library ? ` ${library}` : ''}` : '';
    // What its what() names (a tensor, a file, a device), by the forms messages name things in (unknownWarnings.ts).
    const named = c.what ? namesIn(c.what) : [];
    const names = named.length ? ` Its what() names ${named.join(', ')}.` : '';
    return this.make('dfc/crashed', this.onLog(l), l, `The program died of ${how}.${names}${prior} ${advice}`, {
      stage: this.state.currentStage ?? 'unknown',
      excerpt: before.length ? [...before, ...excerpt] : excerpt,
    });
  }

  /** `first`: the run's first error line nothing explained, when it is not `s` — where the failure began. */
  unrecognised(s: Signal, excerpt: string[], first?: string, rows: readonly string[] = []): DfcDiagnostic {
    const head = s.cut
      ? `${s.cls ? `${s.cls}, ` : ''}a traceback the log stops inside (it has no exception line)${s.stage ? `, its frames in the ${s.stage} stage's code` : ''}`
      : (s.cls && s.message.trim() ? `${s.cls}: ${s.message}` : (s.cls ?? s.message)).trim().replace(/\.$/, '');
    // HailoRT's own check macro (`CHECK failed - …`): a run on the device, not the DFC, failed.
    const hailort = !s.cls && /^CHECK(?:_[A-Z_]+)? failed\b/.test(head);
    // A stage's own class or frames say the DFC raised it, whatever else the log shows.
    // A line that fails only by its words (failureWords.ts) is whatever program printed it: said as the run's failure, not the DFC's.
    const who = hailort
      ? 'HailoRT failed a check'
      : s.words !== undefined
        ? `A step of this run failed in its own words (\`${s.words}\`), a message`
        : this.state.applicationRun() && !s.stage
          ? 'The program failed with an error'
          : 'The DFC failed with an error';
    // What the kernel's errno or Python's MemoryError says is known whatever raised it.
    const errno = s.cut ? undefined : errnoIn(head);
    const known = errno
      ? ` — ${describeErrno(errno)}${errno.advice ? `. ${errno.advice.charAt(0).toUpperCase()}${errno.advice.slice(1).replace(/\.$/, '')}` : ''}`
      : s.cls === 'MemoryError'
        ? " — Python could not allocate memory: the host (or its container's limit) ran out"
        : '';
    // A shared library the dynamic loader could not load or a program expects: whose it is and what fixes it.
    const library = s.cut ? undefined : libraryCause(head);
    // Where it was raised: the innermost frame's function and module (a DFC module gave its stage, stageEvidence.ts stageOfFrame).
    const raised = s.frames.length ? ` It was raised in ${s.frames[s.frames.length - 1]}${s.file ? ` (${shortPath(s.file)})` : ''}.` : '';
    // The layer or node it names, by the phrases the DFC's messages use — known whatever the message.
    // Keras's wrapper around it, when the exception came out of a layer's call: that layer (its lines stand around the message).
    const inMessage = s.cut ? undefined : namedLayer(head);
    const keras =
      !s.cut && !inMessage && this.run.kerasLayer && Math.abs(this.run.kerasLayer.line - s.line.no) <= KERAS_CALL_LINES ? this.run.kerasLayer.layer : undefined;
    // The node the author names beside a message they quoted (`on \`node_Conv_10\``): where it was raised, when the message names none.
    const beside = !inMessage && s.node && s.kind === 'error-line' ? s.node : undefined;
    const named = inMessage ?? beside ?? keras;
    // A failure that names no layer, after the optimizer reported the one it was configuring as it refused it: that layer is where to look.
    const report = this.run.configReport;
    const reported =
      !named && report && report.line < s.line.no
        ? ` Before it (line ${report.line}) the optimizer reported layer ${report.layer} with the config it built for it (a DFC report of the layer it was working on): if this failure is that layer's, look there first.`
        : '';
    // HailoRT's CHECK macro returns a status with every failed check (hailort/common/utils.hpp, https://github.com/hailo-ai/hailort):
    // a check quoted without its callers' `status=` lines is still HailoRT's failure, its status unseen.
    // The stage, when the log shows one, with the evidence it rests on (stageEvidence.ts): nothing in the message says it.
    const clue = hailort ? null : this.state.stageClue(s.stage ?? this.evidence);
    // The frame named above is the evidence when it gave the stage: said once.
    const stageSaid = !clue
      ? ''
      : raised && clue.reason.startsWith(`its traceback runs ${s.frames[s.frames.length - 1]} in `)
        ? ` It belongs to the ${clue.stage} stage, by that frame's module.`
        : ` It belongs to the ${clue.stage} stage: ${clue.reason}.`;
    return this.make(
      hailort ? 'hailort/status' : 'dfc/unrecognised-error',
      { ...this.onLog(s.line), ...(named ? { node: named } : {}) },
      s.line,
      `${who} this reader does not know: ${hailort ? stripCheck(head) : head.trim()}${known}.${raised}${inMessage ? ` It names the layer or node ${inMessage}.` : beside ? ` The author names where: ${beside}.` : keras ? ` Keras raised it from the call of layer ${keras}.` : ''}${reported}${library ? ` ${library}` : ''}${stageSaid}${hailort ? " Its status is not in the quote: HailoRT's callers print it after the check (status=HAILO_…)." : ''}${first?.trim() ? ` It began with: ${first.trim().replace(/\.$/, '')}.` : ''}${rows.length ? ` The table's other rows: ${rows.map((r) => `«${r.trim().replace(/\.$/, '')}»`).join('; ')}.` : ''}${s.after ? ` The author goes on: «${s.after.replace(/\.$/, '')}».` : ''}${s.words !== undefined ? ' No DFC or HailoRT message says it: this is read from the words alone, with nothing after them showing the run got past them.' : ''} The quoted lines are the ${hailort || s.kind === 'error-line' ? 'log' : 'traceback'} to read (or to report).`,
      { excerpt: excerpt.length ? excerpt.slice(-24) : [s.line.text] },
    );
  }
}

/** The most recommended end nodes a refusal names; more are counted (the report's recommendedEndNodes has them all). */
const RECOMMENDED_SAID = 8;

/**
 * The parser's advice, said with the nodes it names (`Please try to parse the model again, using these end node names:
 * /model.23/Transpose`, dfc-corpus unseen18/18): the fix is those names — a count alone sends the reader back to the log.
 */
export function cutAtRecommended(nodes: readonly string[]): string {
  const said = nodes.slice(0, RECOMMENDED_SAID).join(', ');
  const more = nodes.length > RECOMMENDED_SAID ? ` and ${nodes.length - RECOMMENDED_SAID} more` : '';
  return `Cut the graph before it: parse with the end nodes the parser recommends (${said}${more}) and run the rest on the host, or rewrite the op in the model.`;
}

/** A traceback's file as a reader recognises it: its last two path parts (`onnx_translator/onnx_graph.py`). */
function shortPath(file: string): string {
  return file.split(/[\\/]/).filter(Boolean).slice(-2).join('/');
}

/** A shared library a line names (`libgsthailometa.so.3`, `libhailort.so.5.1.1`), with the release its file name carries. */
const SHARED_LIBRARY = /\b(lib[\w+-]{1,60})\.so((?:\.\d{1,4}){0,4})\b/;
/** TAPPAS core's libraries (meta-hailo's libgsthailotools recipe ships libgsthailometa, libhailo_tracker, libgsthailotools). */
const TAPPAS_LIBRARY = /^lib(?:gsthailo\w*|hailo_(?:tracker|cv_singleton|gst_image|opencv_utils))$/;

/**
 * What a missing or mismatched shared library says, whoever failed to load it. libhailort's file name carries its whole
 * release (hailort/libhailort/src/CMakeLists.txt sets VERSION X.Y.Z and no SOVERSION, so the soname is
 * libhailort.so.X.Y.Z: https://github.com/hailo-ai/hailort): a program linked against one release loads no other.
 * TAPPAS core's libraries come in TAPPAS core's package (hailo-tappas-core, part of Raspberry Pi OS's hailo-all:
 * https://www.raspberrypi.com/documentation/computers/ai.html; the files: meta-hailo's libgsthailotools recipe,
 * https://github.com/hailo-ai/meta-hailo).
 */
export function libraryCause(text: string): string | undefined {
  if (!text.includes('.so')) return undefined;
  const m = SHARED_LIBRARY.exec(text);
  if (!m) return undefined;
  const [file, name, release] = [m[0], m[1], m[2].slice(1)];
  if (name === 'libhailort' && /^\d+\.\d+\.\d+$/.test(release))
    return `${file} is HailoRT ${release}'s library: libhailort's file name carries its whole release, so a program built against HailoRT ${release} loads no other — install HailoRT ${release}, or the program's build for the HailoRT installed (hailortcli --version says which).`;
  if (name === 'libhailort')
    return `${file} is HailoRT's library: install HailoRT (on a Raspberry Pi, \`sudo apt install hailo-all\`), of the release the program was built for.`;
  if (TAPPAS_LIBRARY.test(name))
    return `${file} is TAPPAS core's library (the package hailo-tappas-core, part of hailo-all on a Raspberry Pi): install or reinstall it (\`sudo apt install --reinstall hailo-tappas-core\`) at the release that matches HailoRT, then open a new shell.`;
  if (!/cannot open shared object file|error while loading shared libraries|not found/.test(text)) return undefined;
  // Named by its path (a plugin or post-process a program loads from a folder): that file is not there.
  if (text[m.index - 1] === '/')
    return `Nothing is at the path given for ${file}: build or copy it there (a project's own libraries are made by its build or setup step), or give the program the path where it is.`;
  return `The dynamic loader found no ${file}: install the package that ships it (\`apt-file search ${file}\` names it), or add its folder to the loader's path (ldconfig).`;
}

/**
 * The layer or node a message names, by the DFC's phrases: `for layer X`, `in layer X`, `layer named X`,
 * `node X`, `in op X`, or a quoted HN name `'net/layer'` (the HN names every layer `<net>/<layer>`; a file a build names, `'cpp/libx.so'`
 * in ninja's `needed by 'cpp/libyolo_hailortpp_postprocess.so'`, dfc-corpus unseen26/43, is none); or by the layer's HN kind,
 * `for conv X` (`Invalid kernel shape for conv down_proj, Groups: 0`, dfc-corpus unseen23/04), a name with a digit or an underscore.
 */
const NAMED_LAYER =
  /\b(?:(?:for|in|of|at) (?:the )?(?:layer|node|op)|layer named|node named|(?:layer|node) name) ['"`]?([\w.:/-]*\w)|['"`]([A-Za-z_][\w.-]{0,80}\/[\w.\/-]{0,120}\w)(?<!\.(?:so(?:\.\d+)*|a|o|py|c|cc|cpp|h|hpp))['"`]|\b(?:for|in|of|at) (?:the )?(?:conv|dw|deconv|dense) ['"`]?((?=[\w.:/-]*[\d_])[A-Za-z_][\w.:/-]*\w)|\b(?:error|fail(?:ed|ure)) (?:at|in|on) ((?=[\w/-]*[\d_])[A-Za-z_][\w-]{0,80}(?:\/[A-Za-z_][\w-]{0,80}){1,6})(?![\w./-])/;

/**
 * … or an HN path unquoted where an error says it happened (`graph execution error at conv2_1/act_op_1/pow`, the emulator's
 * InferenceError in a DFC 5.3.0 logbook, dfc-corpus unseen25/15): the HN's `<net>/<layer>` or deeper to a layer's op, names with
 * a digit or an underscore and no dot, so a file path (`failed in src/x.c`, `/usr/lib/…`) is none.
 */
export function namedLayer(text: string): string | undefined {
  const m = NAMED_LAYER.exec(text);
  return m ? (m[1] ?? m[2] ?? m[3] ?? m[4]) : undefined;
}

/** The code of the parser's refusal, by its class (one rule whether the log names the node or not). */
function parserRefusalCode(cls: string): DfcCode {
  switch (cls) {
    case 'UnsupportedShuffleLayerError':
      return 'dfc/unsupported-shuffle';
    case 'UnsupportedSoftmaxLayerError':
      return 'dfc/unsupported-softmax';
    case 'UnsupportedConcatLayerError':
      return 'dfc/unsupported-concat';
    case 'UnexpectedNodeError':
      return 'dfc/unexpected-node';
    case 'UnsupportedOperationError':
      return 'dfc/unsupported-operation';
    default:
      return 'dfc/unsupported-layer';
  }
}

/** `SCs: 326/384, …, APUs: 149/120, …, LCUs: 149/96` → the resources used beyond what there is. */
function overBudget(detail: string): string | undefined {
  const over = [...detail.matchAll(/([A-Za-z0-9 ]+?):\s*(\d+)\/(\d+)/g)]
    .filter((x) => Number(x[2]) > Number(x[3]))
    .map((x) => `${x[1].trim()} ${x[2]}/${x[3]}`);
  return over.length ? over.join(', ') : undefined;
}

/** What to write instead of an unknown keyword, from the `.alls` schema's keywords of the command. */
function keywordAdvice(command: string | undefined, name: string): string {
  if (command === 'nms_postprocess' && /config/i.test(name))
    return 'nms_postprocess takes the NMS config JSON as its first argument (or config_path=…), with meta_arch= and engine=.';
  const spec = command ? COMMANDS.get(command) : undefined;
  if (!spec) return "Check the keyword against the command in Hailo's model scripts (hailo-tools check explains the keywords it knows).";
  const names = Object.keys(spec.kwargs);
  const near = suggest(name, names)[0];
  return `${near ? `Did you mean ${near}? ` : ''}Its keywords: ${names.join(', ')}.`;
}

/** A prose paragraph's sentences that name a HailoRT status the catalogue knows, when more than one does; null otherwise. */
function statusSentences(body: string): string[] | null {
  if (body.length > 4000 || !/[.!?] +\S/.test(body)) return null;
  const parts = body.split(/(?<=[a-z0-9)\]`*_][.!?]) +(?=[A-Z(`*])/);
  if (parts.length < 2) return null;
  const named = parts.filter((p) => p.includes('HAILO_') && matchDfcMessage(p)?.message.tool === 'hailort');
  return named.length > 1 ? named : null;
}

/** A size as HailoRT's check prints it (`307200`) or as an author writes it (`N`, `N/4`, `4N`, `N*4`): its factor of one unknown. */
function sizeFactor(v: string): { n: number | null; factor: number; symbol: string | null } | null {
  const t = v.replace(/\s+/g, '');
  if (/^\d+$/.test(t)) return { n: Number(t), factor: 1, symbol: null };
  const m = /^(?:(\d+)\*?([A-Za-z]\w*)|([A-Za-z]\w*)(?:([*/])(\d+))?)$/.exec(t);
  if (!m) return null;
  if (m[2]) return { n: null, factor: Number(m[1]), symbol: m[2] };
  const k = m[5] ? Number(m[5]) : 1;
  return { n: null, factor: m[4] === '/' ? 1 / k : k, symbol: m[3] };
}

/** Bytes per element of HailoRT's user buffer format types (hailo_format_type_t: UINT8, UINT16, FLOAT32). */
const FORMAT_BYTES: [number, string][] = [
  [1, 'UINT8'],
  [2, 'UINT16'],
  [4, 'FLOAT32'],
];
/** The data a buffer may hold: a format type's, or numpy's default float (8 bytes), which HailoRT has no format type for. */
const DATA_BYTES: [number, string][] = [...FORMAT_BYTES, [8, 'FLOAT64']];

/**
 * HailoRT's frame-size check refused a buffer (`Input buffer size 307200 is different than expected 76800`): the frame size is
 * the stream's shape times its format type's bytes, so a ratio of a data type's size to a format type's (4: float32 against
 * uint8; 8: numpy's default float64 against uint8) is the buffer's dtype against the stream's format type — set the format
 * type to the data's (`set_format_type(FormatType.FLOAT32)`) or pass data of the stream's type; any other ratio is a buffer of
 * another shape. Where a ratio fits several pairs, a UINT8 stream (a quantised input's type) comes first. Null when the sizes
 * say no ratio.
 */
export function bufferSizeFix(names: Record<string, string>): string | null {
  const got = names.got ? sizeFactor(names.got) : null;
  const want = names.want ? sizeFactor(names.want) : null;
  if (!got || !want) return null;
  const ratio =
    got.n !== null && want.n !== null
      ? want.n > 0
        ? got.n / want.n
        : null
      : got.n === null && want.n === null && got.symbol === want.symbol
        ? got.factor / want.factor
        : null;
  if (ratio === null || ratio === 1) return null;
  const stream = names.dir === 'Output' ? 'output' : 'input';
  const where = names.layer ? ` ${stream} ${names.layer}` : ` ${stream}`;
  const pairs = DATA_BYTES.flatMap(([b, data]) =>
    FORMAT_BYTES.filter(([f]) => Math.abs(b / f - ratio) < 1e-9).map(([, streamType]) => ({ data, streamType })),
  ).sort((x, y) => Number(y.streamType === 'UINT8') - Number(x.streamType === 'UINT8') || Number(x.data === 'FLOAT64') - Number(y.data === 'FLOAT64'));
  const times = ratio >= 1 ? `${+ratio.toFixed(3)}×` : `1/${+(1 / ratio).toFixed(3)} of`;
  const sizes = "(HailoRT's frame size is the shape times the format type's bytes: UINT8 1, UINT16 2, FLOAT32 4)";
  if (!pairs.length)
    return `the buffer is ${times} the frame HailoRT expects — no ratio of a data type's bytes to a format type's ${sizes}, so its shape is another than the stream's: check the${where}'s shape (resolution, channels, one frame per buffer) against the HEF's (hailortcli parse-hef)`;
  const [{ data, streamType }, ...others] = pairs;
  const call = `${stream === 'input' ? 'infer_model.input()' : 'infer_model.output(name)'}.set_format_type`;
  const otherwise = others.length ? ` (the same ratio fits ${others.map((p) => `${p.data.toLowerCase()} data for a ${p.streamType} stream`).join(', ')})` : '';
  const main =
    data === 'FLOAT64'
      ? `the size of float64 data — numpy's default float, which HailoRT has no format type for — for a stream whose format type is ${streamType} ${sizes}: convert the array, to ${streamType === 'FLOAT32' ? 'float32' : `${streamType.toLowerCase()} (.astype(np.${streamType.toLowerCase()}))`} or to float32 with ${call}(FormatType.FLOAT32)`
      : `the size of ${data.toLowerCase()} data for a stream whose format type is ${streamType} ${sizes}: either set the${where}'s format type to the data's before configuring (${call}(FormatType.${data})), and HailoRT converts it, or pass ${streamType.toLowerCase()} data${streamType === 'UINT8' && stream === 'input' ? ' (a quantised input takes the image as uint8 0–255, without a /255 normalisation)' : ''}`;
  return `the buffer is ${times} the frame HailoRT expects — ${main}${otherwise}`;
}
