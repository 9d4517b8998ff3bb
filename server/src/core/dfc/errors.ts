// Error lines and Python tracebacks → diagnostics. Every error class of docs/research/dfc-flow.md#error-classes (and the
// compiler's own `[error]` lines) is recognised from the DFC's output alone; `explain.ts` says what
// each means and where it goes. Tracebacks are tracked so a class can be told by the function that
// raised it (`IndexError` in `get_concat_info` ≠ `IndexError` in `_convert_axes_to_nhwc`).
import {
  CATALOGUE_CLASSES,
  DISTINCT_CLASSES,
  endsAtMessageSentence,
  framedMention,
  goesOnWithMessage,
  isDistinctClass,
  matchDfcMessage,
  messageCutIn,
  type MessageCut,
} from '../common/dfcMessages';
import { describeErrno, osReasonIn, type Errno } from '../common/errno';
import type { LogLine } from './lines';
import { completedIn, cudaFailureIn, errorPrefixIn, exportFailureIn, failureIn, goesOnIn, teardownIn, warnedIn, windowClosedIn } from './failureWords';
import { endsRun, level, withoutLevel } from './markers';
import { Explainer, cutAtRecommended, namedLayer, type Signal } from './explain';
import { UnknownWarnings, clipWords } from './unknownWarnings';
import { KERNEL_DEVICE_LINE, KernelSplats, MAX_SPLATS_SAID, opensSplat } from './kernelSplat';
import { mayHoldPrompt, SHELL_PROMPT } from './normalise';
import { FATAL_WORDS, LOCALISED_SIGNALS } from './signals';
import { stoppedByCaller, type DfcDiagnostic, type DfcExit, type ReaderView, type StageName } from './types';
import {
  optimizerAlgorithmIn,
  stageOfApiCall,
  stageOfScriptRun,
  stageOfCall,
  stageOfClass,
  stageOfFrameNamed,
  stageOfValidated,
  stageOfFrame,
  stageOfMention,
  stageOfMessageWords,
  stageOfModule,
  stageFailedBefore,
  stageFailedSaid,
  stageCouldNotSaid,
  stageOfFailedStep,
  stageSaidAfterContrast,
  stageSaid,
  type StageClue,
} from './stageEvidence';

/** The DFC or the AI Software Suite's container named in a line (`hailo8_ai_sw_suite_2025-10`, `hailo_dataflow_compiler`, `the DFC`). */
const DFC_NAMED = /ai_sw_suite|[Dd]ataflow[ _][Cc]ompiler|\bDFC\b/;

/** A log's words quoted in a reason, at most 80 characters. */
const clip = (s: string) => (s.length > 80 ? `${s.slice(0, 77)}…` : s);

/** A line that is only a DFC layer's kind and HN name, with the ONNX node it was translated from: a message's head. */
const LAYER_HEAD = /^[a-z][a-z_]{0,30}(?: [a-z][a-z_]{0,30})? layer [\w.-]{1,120}\/[\w./-]{1,200}(?:\s*\(translated from [^)\s]{1,300}\))?$/;

/** IPython's traceback header: `BackendAllocatorException                 Traceback (most recent call last)`. */
const IPYTHON_HEADER = /^([A-Za-z_]\w*)\s{2,}Traceback \(most recent call last\)/;

/** Codes reported once per run, however many lines show them. */
const MERGED = new Set(['dfc/compiler-bug', 'dfc/interrupted', 'dfc/allocation-failed', 'dfc/docker', 'dfc/optimization-level-0', 'dfc/calibration-range']);
/** A Python warning's category before its message (CPython Lib/warnings.py formatwarning: `file:line: Category: message`). */
const PY_WARNING_CATEGORY = /^[A-Z]\w{0,60}Warning: /;
/** Per-line patterns of causesAround and opens, made once (a regular expression literal in a function is a new RegExp object at every call). */
const NAMES_HAILORT = /hailort/i;
const TRACEBACK_START = /^(?:Traceback|File ")/;
/** A relative pronoun right before a failure's words: the clause describes its noun (`a UID that can't write …`), errors.ts describedIn. */
const DESCRIBED = /\b(?:that|which|who)\s+(?:(?:still|also|then|now|simply|just)\s+)?$/i;
/** Whether the failure's words (failureWords.ts failureIn's) stand in a relative clause describing a noun (DESCRIBED). */
function describedIn(body: string, words: string): boolean {
  const at = body.indexOf(words);
  return at > 0 && DESCRIBED.test(body.slice(Math.max(0, at - 40), at));
}
/** The rest of a sentence an author's hanging indent carries: indented, then a lower-case word or a command-line option. */
const HANGING_REST = /^\s+(?:[a-z]|--?[a-z])/;
/** A line's words without its level tag, trimmed: what opens, unfinished and hangs read of a line that may be held. */
const bodyOf = (l: LogLine): string => withoutLevel(l.text).trim();
/** A line ends unfinished on a word, `,`, `:`, a bracket or a question (opens). */
const ENDS_UNFINISHED = /(?:[\w,:)\]?]|\()$/;
/** A program's own sentence that it failed, at the start of a line (`Failed to open camera`, `Unable to open /dev/video0`). */
const PROGRAM_FAILED = /^(?:Failed to|Could not|Couldn't|Unable to) [a-z]/;
/** A Markdown table's row as written (its cells are read as lines of their own at its place, reader.ts tableCells), in a quote's marks too. */
const TABLE_ROW_RAW = /^[\s>]{0,12}\|.*\|\s*$/;
/** How many failure lines of a table's rows are kept to be said (CollectorRun.rowFailures). */
const MAX_ROW_FAILURES = 6;
/**
 * A limit of hailort.h a line names (`HAILO_MAX_NETWORK_GROUPS=8`, `HAILO_MAX_STREAMS_COUNT (32)`): said with its
 * words (`at most 8 network groups`) — the cause an author found for a status the limit returns.
 */
function limitIn(text: string): string | undefined {
  if (!text.includes('HAILO_MAX_')) return undefined;
  const m = /\bHAILO_MAX_([A-Z][A-Z_]{1,60}[A-Z])\b(?:\s*(?:=|\(|:)\s*(\d{1,9}))?/.exec(text);
  if (!m) return undefined;
  const what = m[1].toLowerCase().replace(/_/g, ' ');
  return `HAILO_MAX_${m[1]}${m[2] ? ` = ${m[2]}: at most ${m[2]} ${what}` : ` (the most ${what} HailoRT allows)`}`;
}

/** An environment variable's value in an author's code span (`VIRTUAL_ENV=/usr`, `` `CUDA_VISIBLE_DEVICES=0` ``): upper-case, as POSIX's utilities' are. */
const SETTING_SPAN = /`([A-Z][A-Z0-9_]{2,60}=[^`\s]{1,200})`/g;
/** How many lines after a failure an author's cause analysis may name a setting in. */
const SETTING_LINES = 8;
const MAX_SETTINGS_SAID = 4;

/** A HailoRT release a line names: the library's soname, a package or wheel, `HailoRT v…`. */
const HAILORT_VERSION = /(?:libhailort\.so\.|hailort(?:[-_]|\s{1,12})v?|HailoRT v)(\d{1,2}\.\d{1,3}\.\d{1,3})\b/gi;
/** A run stopped by its user or a signal (Ctrl-C, SIGTERM, SIGKILL). */
/** How many lines of an author's paragraph before a quoted kill its sentence may have begun in. */
const PARAGRAPH_LINES = 8;
/** Another program's error level quoted in a relayed line's message, after its `: ` (`inference: [ERROR]Functionality is not supported`). */
/** A line that starts a record of its own without the log's template: a bracketed tag, a fence, glog's `E0511 09:02:11.2 …`, a date. */
const OWN_RECORD = /^\s*(?:\[|```|~~~|[IWEF]\d{4} \d|\d{4}-\d\d-\d\d)/;
const QUOTED_ERROR_TAG = /: \[(?:ERROR|Error|error|FATAL|Fatal|fatal|CRITICAL|Critical|critical)\] ?[A-Za-z]/;
const STOPPED = new Set(['dfc/interrupted', 'dfc/memory-killed']);
/** A compiler-bug diagnostic that only reports the compile ended (no assertion failed). */
const stopTrace = (d: DfcDiagnostic) =>
  d.code === 'dfc/compiler-bug' && !(d.excerpt ?? []).some((x) => /Assertion [`']/.test(x)) && !/Assertion [`']/.test(d.message);
/** A log can repeat an error without end; past this many the rest are counted, not kept. */
export const MAX_DIAGNOSTICS = 1000;
const GENERIC_ALLOCATION = /the allocator could not map the network|no split of the network into contexts fits/;
/** How much an allocation message says: the failing part, the DFC's own cause line, the resources over budget. */
function allocationDetail(message: string): number {
  // Layers the Agent-infeasible lines named so far (`layers dw66, conv68 could not be placed`): a later line naming one more says more.
  const layers = /^Allocation failed: layers ([^(]*?) could not be placed/.exec(message)?.[1].split(', ').length ?? 0;
  // The presolve says only that one context is too small; the line after it names what the split could not fit.
  const presolve = /^Allocation failed: the network needs more resources than one context has/.test(message) ? 0.5 : 0;
  return (
    (GENERIC_ALLOCATION.test(message) ? 0 : 2) +
    (/The DFC names the cause/.test(message) ? 1 : 0) +
    (/Over the budget:/.test(message) ? 1 : 0) +
    layers / 100 -
    presolve
  );
}

/**
 * NetworkX's exception classes, named for the library rather than ending in `Error` (networkx/exception.py: `NetworkXUnfeasible`,
 * `NetworkXNoPath`, `NetworkXNoCycle`, `NetworkXUnbounded`, `NetworkXNotImplemented`, `NetworkXPointlessConcept`, …): the DFC's graphs
 * are NetworkX graphs, and a topological sort of one with a cycle raises `NetworkXUnfeasible: Graph contains a cycle` (unseen23/03).
 */
const NETWORKX_CLASS = 'NetworkX[A-Z][A-Za-z]{1,40}';

/**
 * An exception class anywhere in a line, with its message: `hailo_sdk_client.…BackendValueError: …`
 * inside a wrapper's output, `BadInputsShape: …` after a user's own prefix, `Exception: …`. The
 * class is followed by `:` or ends the line, so prose that merely names a class is not an error.
 */
const EXCEPTION_ANYWHERE = new RegExp(
  `(?:^|[^\\w.])(?:[A-Za-z_]\\w*\\.)*([A-Z]\\w*(?:Error|Exception|Failure)|Exception|${NETWORKX_CLASS}|${[...CATALOGUE_CLASSES].filter((c) => !/(?:Error|Exception|Failure)$/.test(c)).join('|')})(?::\\s*(.*))?$`,
);

/**
 * A class raised from one of the DFC's own packages, whatever its name ends in
 * (`hailo_model_optimization.acceleras.utils.acceleras_exceptions.NegativeSlopeExponentNonFixable: …`):
 * the module path says it is the DFC's, and which stage's code raised it.
 */
/** The words every exception line holds (a substring gate before the two patterns). */
const MAY_EXCEPTION = new RegExp(
  `Error|Exception|Failure|NetworkX|hailo_| has no attribute |\\(\\) (?:got|missing|takes) |${[...CATALOGUE_CLASSES].filter((c) => !/(?:Error|Exception|Failure)$/.test(c)).join('|')}`,
);

/**
 * CPython's messages that say their class: AttributeError's `'T' object has no attribute 'a'`, `type object 'T' has no
 * attribute 'a'`, `module 'm' has no attribute 'a'` (Objects/object.c, Objects/typeobject.c, Objects/moduleobject.c), and
 * TypeError's call refusals, `f() got an unexpected keyword argument 'x'`, `f() missing 1 required positional argument: 'x'`,
 * `f() takes 2 positional arguments but 3 were given` (Python/ceval.c). Group 1: an AttributeError's.
 */
const PYTHON_OWN_MESSAGE =
  /((?<![\w'])(?:type object |module )?'[\w.<> ]{1,100}'(?: object)? has no attribute '\w{1,100}')|\b[\w.]{1,100}\(\) (?:got an unexpected keyword argument '\w{1,100}'|missing \d{1,3} required (?:positional|keyword-only) arguments?:|takes (?:from )?\d{1,3}(?: to \d{1,3})? positional arguments? but \d{1,3} (?:was|were) given)/;
const DFC_QUALIFIED = /(?:^|[^\w.])((?:hailo_sdk_\w+|hailo_model_optimization|hailo_platform)(?:\.\w+)*)\.([A-Z]\w*):\s*(.*)$/;

// A line is asked whether it may hold a class several times (is it open? what does it say? does prose report one?): the last answer is kept.
let mayText: string | null = null;
let mayIs = false;
function mayException(body: string): boolean {
  if (body !== mayText) {
    mayIs = MAY_EXCEPTION.test(body);
    mayText = body;
  }
  return mayIs;
}

export function exceptionIn(body: string): { cls: string; message: string; module?: string } | null {
  if (!mayException(body)) return null;
  const q = body.includes('hailo_') ? DFC_QUALIFIED.exec(body) : null;
  if (q) return { cls: q[2], message: q[3].trim(), module: q[1] };
  const m = EXCEPTION_ANYWHERE.exec(body);
  if (m) return { cls: m[1], message: (m[2] ?? '').trim() };
  // Python's own message, printed without its class (an application's `print(f"…: {e}")` prints str(e) only): the forms
  // only CPython's AttributeError and TypeError print name their class (PYTHON_OWN_MESSAGE).
  const p = body.includes(' has no attribute ') || body.includes(' argument') ? PYTHON_OWN_MESSAGE.exec(body) : null;
  if (p) return { cls: p[1] ? 'AttributeError' : 'TypeError', message: p[0].trim() };
  // A class whose name alone says what was refused, ending a sentence in an author's note
  // (``Hailo can't run the head. `UnsupportedShuffleLayerError`.``, dfc-corpus unseen5/12).
  // A sentence that says it is gone or avoided (`no more X.`, `this avoids X.`) reports nothing.
  const n = body.endsWith('.') && !AVOIDED.test(body) ? SENTENCE_LAST_CLASS.exec(body) : null;
  return n && DISTINCT_CLASSES.has(n[1]) ? { cls: n[1], message: '' } : null;
}

/**
 * The clause an author names a class in says what an action would raise, not what this run raised: a gerund's clause as the
 * sentence's subject with the verb in the present (`omitting the auto-generated concat layer throws \`X\``, dfc-corpus
 * unseen21/01 — a rule of the command, said beside the run's own failure: an aside after a comma or a dash, not a sentence's
 * own subject — `Running it raises \`X\`` reports what happened), or a modal or `otherwise` (`it would raise \`X\``).
 */
const HYPOTHETICAL_RAISE =
  /(?:[,;(\u2014\u2013]\s*|\s-\s)[a-z]{2,40}ing\s[^,;:.!?()\u2014\u2013]{0,160}?\b(?:throws|raises|gives|triggers|yields)\W{0,4}$|\b(?:would|might|otherwise)\b[^.;:!?]{0,80}$/i;

/** Whether the class `cls`, named bare in the line as written (its paragraph's lines before it), is only what an action would raise. */
function namedAsHypothetical(paragraph: readonly string[], written: string, cls: string): boolean {
  const at = written.indexOf(cls);
  if (at < 0) return false;
  const before = [...paragraph.slice(0, -1), written.slice(0, at)].join(' ').replace(/[`*]/g, '').trimEnd();
  return HYPOTHETICAL_RAISE.test(before.slice(clauseStart(before, before.length)));
}

// ---- a tool's message an author quotes as what a step raised ------------------------------------------------
/**
 * An author's verb that a step refused, raised or failed, right before a code span quoting the tool's message: `raises
 * \`No predecessor with weight for layer X\`` (dfc-corpus unseen21/08), `is rejected (\`Kernel features: 8192 …\` on
 * \`node_Conv_10\`)` (unseen21/05), `fail in 0s on \`feature_splitter1\`: \`one output isn't supported\`` (unseen21/09). Group 1:
 * the verb; 2: the node the author names between the verb and the quote; 3: the quote; 4: the node named right after it.
 */
const QUOTED_REFUSAL =
  /\b(raise[sd]?(?: an?)?|throws(?: an?)?|threw(?: an?)?|(?:is |was |gets |got )?(?:rejected|refused)|fail(?:s|ed)?(?: [^`.;:!?]{1,40}? with)?|crash(?:es|ed)? with(?: an?)?|errors? out with|dies with(?: an?)?|died with(?: an?)?)(?:[^`.;:!?]{0,40}? (?:on|at|in|for) `([^`\s]{1,200})`)?[\s:(]{1,4}`([^`]{3,300})`(?: (?:on|at|in|for) `([^`\s]{1,200})`)?/g;
/** A quote that is a message: words with spaces, not a name or a command (`hailo optimize …` is the command it ran). */
const MESSAGE_QUOTE = /^[A-Za-z][^`]*\s\S/;
/**
 * A quote that is an exception's class alone (`crashed with a \`FileNotFoundError\``, dfc-corpus unseen24/06): what the step
 * raised, named without its message — after a verb that says it raised or crashed, never `fails with` alone (that introduces any quote).
 */
const CLASS_QUOTE = /^(?:[A-Za-z_]\w{0,60}\.){0,6}[A-Z]\w{0,80}(?:Error|Exception)$/;
const COMMAND_QUOTE = /^(?:hailo|hailomz|hailortcli|python3?|pip|sudo)\s/;

export interface QuotedRefusal {
  /** The tool's message as quoted. */
  message: string;
  /** The node the author names beside it (`on \`node_Conv_10\``), when they name one. */
  node?: string;
  /** The author's text before the verb (the paragraph's lines before it, then the line): where the step is named. */
  before: string;
  /** The author's words after the quote to the end of the line (their fix, what they tried), clipped. */
  after: string;
  /** The stage of the catalogue message the quote is by its fixed words (stageOfMessageWords), if it is one. */
  catalogueStage: StageName | null;
  /** The quote is an exception's class alone (CLASS_QUOTE). */
  isClass?: boolean;
}

/**
 * Messages an author quotes in a code span as what a step raised or how it refused (`QUOTED_REFUSAL`), in the line as
 * written (`said`, spans kept): not in a clause that says it is gone, avoided or only possible (NOT_REPORTED), nor one
 * that says what an action would raise (HYPOTHETICAL_RAISE).
 */
export function quotedRefusals(paragraph: readonly string[], said: string): QuotedRefusal[] {
  if (!said.includes('`')) return [];
  const out: QuotedRefusal[] = [];
  // An author's hard wrap may stand between the verb and its quote (`… run crashed with a` / `\`FileNotFoundError\` on …`): the
  // previous line of the paragraph is read with this one, and a match is this line's only when its verb is in that line.
  const prev = paragraph.length > 1 ? paragraph[paragraph.length - 2] : '';
  const lead = prev && !prev.trimEnd().endsWith('`') && /\w$/.test(prev.trimEnd()) ? `${prev.trimEnd().slice(-120)} ` : '';
  for (const [text, offset] of lead
    ? ([
        [said, 0],
        [lead + said, lead.length],
      ] as const)
    : ([[said, 0]] as const)) {
    QUOTED_REFUSAL.lastIndex = 0;
    let m: RegExpExecArray | null;
    while (out.length < MAX_REPORTS && (m = QUOTED_REFUSAL.exec(text))) {
      // The joined text's matches: only one whose verb ends the line before (the rest are this line's own, read above).
      if (offset && (m.index >= offset || text.indexOf(`\`${m[3]}\``, m.index) < offset)) continue;
      const r = refusalAt(paragraph, text, m, offset);
      if (r) out.push(r);
    }
  }
  return out;
}

/** The quoted refusal QUOTED_REFUSAL matched at `m` in `said` (the line as written, after `offset` characters of the line before), or null. */
function refusalAt(paragraph: readonly string[], said: string, m: RegExpExecArray, offset: number): QuotedRefusal | null {
  const message = m[3].trim();
  const catalogueStage = MESSAGE_QUOTE.test(message) ? stageOfMessageWords(message) : null;
  const isClass = CLASS_QUOTE.test(message) && !m[1].startsWith('fail') && !/^(?:is |was |gets |got )?re/.test(m[1]);
  // `fails with \`…\`` alone is how an author introduces any line they quote (the quote-forms test's `It fails with \`X\`.`):
  // a failure verb quotes a refusal only with the place it failed on named first (`fail … on \`x\`: \`…\``).
  // Unless the quote is the DFC's own message by its fixed words (`fails every tried split with \`Automri finished with too many resources\``).
  if ((!MESSAGE_QUOTE.test(message) && !isClass) || COMMAND_QUOTE.test(message) || (m[1].startsWith('fail') && !m[2] && !catalogueStage)) return null;
  const clause = said.slice(clauseStart(said, m.index), m.index + m[1].length).replace(/`/g, '');
  if (NOT_REPORTED.test(clause) || HYPOTHETICAL_RAISE.test(clause)) return null;
  const before = [...paragraph.slice(0, offset ? -2 : -1), said.slice(0, m.index + m[1].length)].join(' ').replace(/`/g, '');
  // The gerund's clause may begin on a line before (`…, omitting` / `the concat layer throws \`X\``, unseen21/01), as namedAsHypothetical reads it.
  if (HYPOTHETICAL_RAISE.test(before.slice(clauseStart(before, before.length)))) return null;
  const node = m[2] ?? m[4];
  const after = said
    .slice(m.index + m[0].length)
    .replace(/`/g, '')
    .replace(/^[)\s.,;:]+/, '')
    .trim();
  return {
    message,
    before,
    after: clipAfter(after),
    catalogueStage,
    ...(isClass ? { isClass } : {}),
    ...(node && !VERSION_LIKE.test(node) ? { node } : {}),
  };
}

/** The author's words after a quote: up to two sentences, at most 240 characters. */
function clipAfter(text: string): string {
  // A dot inside a name (`torch.flatten`, `onnx_graph.py`) ends no sentence.
  const two = /^(?:(?:[^.!?]|[.!?](?=\S))*[.!?](?:\s|$)){1,2}/.exec(text)?.[0] ?? text;
  return (two.length > 240 ? `${two.slice(0, 239)}…` : two).trim();
}

const AVOIDED = /\b(?:no|not|never|without|avoid\w*|fix\w*|solv\w*|resolv\w*|prevent\w*|instead)\b/i;

/**
 * An author's words that a quoted message was cured or avoided: a verb of cure right after the quote (`Error "Performance Flow
 * requires automatic resource utilization" resolved by removing resources_param`), or shortly before it with no failure verb
 * between (`to eliminate the concat24 node causing "Agent infeasible"`, dfc-corpus unseen25/37; `worked around \`X\``).
 */
const CURED_AFTER =
  /^\W{0,3}\s*(?:(?:was|is|has been|have been|got|were|are|gets)\s+)?(?:resolved|fixed|solved|avoided|eliminated|gone|worked around|circumvented)\b/i;
const CURE_BEFORE = /\b(?:avoid\w*|eliminat\w*|prevent\w*|fix(?:ed|es|ing)?|solv\w*|resolv\w*|get(?:ting)? rid of|work(?:ed|s|ing)? around|circumvent\w*)\b/gi;
/** Between a cure and the quote: a failure verb or a contrast (`\`matmul1\` was resolved, but \`PrePostAgent infeasible\` returned`, unseen25/05). */
const FAILURE_VERB =
  /\b(?:fail\w*|crash\w*|rais\w*|throw\w*|threw|die[sd]?|dying|error(?:s|ed)? out|abort\w*|stops?|stopped|but|however|yet|though|although|still|mais|pero|aber)\b/i;

/** Whether the message `span`, read from the author's sentence `said`, is said there to be cured or avoided (CURED_AFTER, CURE_BEFORE). */
export function curedInSentence(said: string, span: string): boolean {
  const at = said.indexOf(span);
  if (at < 0) return false;
  const after = said.slice(at + span.length).replace(/^[`"'\u201d\u2019]+/, '');
  if (CURED_AFTER.test(after)) return true;
  const before = said.slice(Math.max(clauseStart(said, at), at - 80), at);
  let last: RegExpExecArray | null = null;
  CURE_BEFORE.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = CURE_BEFORE.exec(before));) last = m;
  return last !== null && !FAILURE_VERB.test(before.slice(last.index + last[0].length));
}

// ---- refusals an author reports in prose or a table ------------------------------------------------
/** A clause that says the error is gone, avoided, or only possible (`if you see X on …`) reports nothing. */
const NOT_REPORTED = /\b(?:no|not|never|without|avoid\w*|fix\w*|solv\w*|resolv\w*|prevent\w*|instead|if|unless|whenever|would|could|might)\b/i;
/**
 * The catalogue's distinct classes, the parser's refusal classes, and any class named `…Error`/`…Exception`, wherever
 * they stand (a word, not a part of one): a distinct one is reported with where it was raised, any one alone in a cell.
 */
const CLASS_WORD = new RegExp(
  `(?<![\\w.])(${[...DISTINCT_CLASSES].join('|')}|Unsupported[A-Z]\\w{0,60}LayerError|[A-Z][A-Za-z0-9]{0,80}(?:Error|Exception))(?!\\w)`,
  'g',
);
/**
 * Where an author says a class was raised: a node's name within three words after it, whatever the words
 * (`on Expand node_Expand_61`, dfc-corpus unseen6/16; `sur \`node_3\``, `at /model/Reshape_3`; a particle glued to the class, `…Error가 node_3에서`).
 * A name has a `_` or a `/` (`node_mul_7`, `/model/Reshape_3`) or is a lower-case op with its number (`conv41`) — a
 * model's name (`YOLO26n`) is none; the words between are no class and end no sentence.
 */
const WHERE_RAISED =
  /^[`'"*)\]]*[^ -~\s]{0,4}(?:[\s,]+(?![^\s;|]{0,60}(?:Error|Exception))[^\s;|]{0,29}[^\s;|.,:]){0,3}?[\s,]+[`'"(]*((?:[A-Za-z_/](?=[\w./:-]{0,200}[_/])|[a-z](?=[a-z]{0,40}\d))[\w./:-]{0,200})/;
/** A release, not a node (`DFC v5.3`). */
const VERSION_LIKE = /^v?\d+(?:\.\d+)*$/i;
/** A refusal reported at most this many times per line (a table row names several). */
const MAX_REPORTS = 8;

export interface ProseReport {
  cls: string;
  /** The author's words after the class, up to the clause's end. */
  message: string;
  frames: string[];
  node?: string;
}

/** Where the clause holding position `i` starts: after the last `.`/`;`/`:`/`!`/`?` and a space, or a `|`, before it. */
function clauseStart(text: string, i: number): number {
  for (let k = i - 1; k >= Math.max(0, i - 240); k--) {
    const c = text[k];
    if (c === '|' || c === ';') return k + 1;
    if ((c === '.' || c === ':' || c === '!' || c === '?') && /\s/.test(text[k + 1] ?? ' ')) return k + 1;
  }
  return Math.max(0, i - 240);
}

/** Whether only spaces, quotes or emphasis stand between `k` and a table's `|` (or the line's end), scanning by `step`. */
function cellEdge(text: string, k: number, step: 1 | -1): boolean {
  while (k >= 0 && k < text.length && ' \t`\'"*'.includes(text[k])) k += step;
  return k < 0 || k >= text.length || text[k] === '|';
}

/** The clause after position `j`: up to a `;`, a `|` or a sentence end, at most 200 characters. */
function clauseAfter(text: string, j: number): string {
  const rest = text.slice(j, j + 200);
  const end = /;|\||\.(?:\s|$)/.exec(rest);
  return (end ? rest.slice(0, end.index) : rest).trim();
}

/**
 * Refusals an author reports in a line of prose or a table instead of pasting the console: a distinct class
 * (its name says what was refused) followed by where it was raised (`UnsupportedShuffleLayerError on
 * node_transpose_2`); any class alone in a table's cell (`| UnsupportedShuffleLayerError |`, a results table's
 * `| AccelerasNumerizationError |`); a class told by its
 * raising function named with it (`IndexError em _convert_axes_to_nhwc`). Prose that names a class as gone,
 * avoided or hypothetical (`if you see X on …`, `this avoids X`) reports nothing.
 */
export function reportsInProse(body: string): ProseReport[] {
  const out: ProseReport[] = [];
  if (!mayException(body)) return out;
  CLASS_WORD.lastIndex = 0;
  let m: RegExpExecArray | null;
  while (out.length < MAX_REPORTS && (m = CLASS_WORD.exec(body))) {
    const cls = m[1];
    const i = m.index;
    const j = i + cls.length;
    const cell = cellEdge(body, i - 1, -1) && cellEdge(body, j, 1);
    if ((!cell && !isDistinctClass(cls)) || NOT_REPORTED.test(body.slice(clauseStart(body, i), i))) continue;
    const where = cell ? null : WHERE_RAISED.exec(body.slice(j, j + 480));
    if (!cell && !where) continue;
    const node = where ? where[1].replace(/[.,:]+$/, '') : undefined;
    if (node !== undefined && (VERSION_LIKE.test(node) || !/[A-Za-z]/.test(node))) continue;
    out.push({ cls, message: cell ? '' : clauseAfter(body, j), frames: [], ...(node ? { node } : {}) });
  }
  const f = out.length < MAX_REPORTS ? framedMention(body) : null;
  if (f && !NOT_REPORTED.test(body.slice(clauseStart(body, f.index), f.index))) out.push({ cls: f.cls, message: '', frames: [f.frame] });
  return out;
}

/** A class name as a sentence's last word, in quotes or backticks or bare: `… \`SomeError\`.` */
const SENTENCE_LAST_CLASS = /(?:^|[\s`'"*(])([A-Z]\w{2,80})[`'"*)]{0,3}\.$/;

/** A Markdown code fence's line (```` ``` ````, ```` ```text ````, `~~~`). */
const MARKDOWN_FENCE = /^(?:`{3,}|~{3,})[\w+-]{0,20}$/;
/** HailoRT's own failures (a run on the device): no DFC stage, whatever words stand around them. */
const RUNTIME_ERROR = /^Hailo(?:RT|Communication)|HAILO_[A-Z]/;

// ---- how a run ends without a Python traceback ------------------------------------------------
/** Python argparse's last line (`%(prog)s: error: %(message)s`, after its usage) and its messages. */
const ARGPARSE =
  /(?:^|[\s"'`])([\w.-]{1,64}(?: [\w.-]{1,64}){0,3}): error: ((?:argument |the following arguments are required|unrecognized arguments|invalid choice|expected (?:one|at least one) argument|ambiguous option|one of the arguments|not allowed with argument).*?)["'`]?$/;
/**
 * argparse's refusal of a subcommand quoted without its usage (`Received error: "invalid choice: 'parser'"`, dfc-corpus
 * unseen5/23): `invalid choice: %r` with the value in quotes is argparse's own wording (Lib/argparse.py `_check_value`).
 */
const ARGPARSE_CHOICE = /\binvalid choice: '([^'\s]{1,64})'/;
/** click's refusal of a command line (`Error: No such option: --x`, after its usage). */
const CLICK = /^Error: ((?:No such (?:option|command)|Missing (?:argument|option)|Invalid value for|Got unexpected extra argument)\b.*)$/;
/**
 * CLI11's footer to a refusal (the C++ parser hailortcli is built with; CLI11 include/CLI/impl/App_inl.hpp
 * `FailureMessage::simple`: `e.what()`, then `Run with --help[ or --help-all] for more information.`). Its refusal is
 * the line before, whatever it says (`A subcommand is required`, `hef is required`, `The following arguments were not
 * expected: …` — include/CLI/Error.hpp), so a message CLI11 adds later is read too.
 */
const CLI11_FOOTER = /^Run with -{1,2}[\w-]{1,40}(?: or -{1,2}[\w-]{1,40})* for more information\.$/;
/**
 * The shell's word that a program is not there — bash/sh/dash `SHELL: [line N: ]PROG: command not found`, in the
 * locale's words (bash's own translations: `コマンドが見つかりません`, `Befehl nicht gefunden`, `commande introuvable`,
 * `未找到命令`, `명령어를 찾을 수 없음`, `orden no encontrada`, `comando non trovato`, `команда не найдена`), and zsh's form.
 */
const NOT_FOUND =
  /^(?:[\w/.-]{0,64}(?:sh|bash)(?::| -c:)? (?:line \d+: |\d+: )?)?([\w.+-]{1,64}): (?:command not found|not found|コマンドが見つかりません|Befehl nicht gefunden|commande introuvable|未找到命令|找不到命令|명령어를 찾을 수 없음|orden no encontrada|comando non trovato|команда не найдена)\s*$/;
const ZSH_NOT_FOUND = /^zsh: command not found: ([\w.+-]{1,64})\s*$/;
/** The line of a script the shell ran a refused command from (`./run.sh: line 14: lspci: command not found`, dash's `./run.sh: 14: …`). */
const SCRIPT_LINE = /^\S{0,200}: (?:line )?\d+: /;
/** apt's refusals of a package (`E: ` before apt 3, `Error: ` since). */
const APT_ERROR =
  /^(?:E|Error): ((?:Unable to locate package ([\w.+:-]{1,128}))|(?:Version '([^']{1,64})' for '([\w.+:-]{1,128})' was not found)|(?:Package '([\w.+:-]{1,128})' has no installation candidate))\s*$/;
/** A step of a call chain an author condensed: a function's name alone on its line, after an arrow or first. */
const CHAIN_STEP = /^(?:(?:→|->|=>|⇒)\s*)?([A-Za-z_][\w.]{0,200})(?:\(\))?$/;
const CHAIN_ARROW = /^(?:→|->|=>|⇒)\s*/;
/** libstdc++'s verbose terminate handler: the uncaught exception's type, then its `what()`. */
const CXX_TERMINATE = /^terminate called after throwing an instance of '([^']+)'/;
const CXX_WHAT = /^what\(\):\s+(.*)$/;
/** The signal, bare or after bash's job line (`script: line N: PID Signal  cmd`, `line` in the locale's word), its core-dump note in any words. */
const FATAL_SIGNAL = new RegExp(
  `^(?:(${FATAL_WORDS})(?: *\\([^()]{1,60}\\))?|\\S+: \\S{1,12} \\d+: +\\d+ +(${FATAL_WORDS})(?![\\w-]).*|zsh: (abort|segmentation fault|bus error|illegal hardware instruction|floating point exception)\\b.*)$`,
);
/** The shell's words that a program died of a signal, alone on a line (a table's one-word cell can be one: `Speicherzugriffsfehler`). */
export function isFatalSignalLine(text: string): boolean {
  return FATAL_SIGNAL.test(text);
}
const FATAL_PYTHON = /^Fatal Python error: (.+)$/;
/**
 * The fatal signals by their number and systemd's short name (signal(7)), as the strsignal words the shell prints:
 * what a relay that started the program reports instead of the shell's line.
 */
const FATAL_SIGNALS: Readonly<Record<string, string>> = {
  4: 'Illegal instruction',
  5: 'Trace/breakpoint trap',
  6: 'Aborted',
  7: 'Bus error',
  8: 'Floating point exception',
  11: 'Segmentation fault',
  ILL: 'Illegal instruction',
  TRAP: 'Trace/breakpoint trap',
  ABRT: 'Aborted',
  BUS: 'Bus error',
  FPE: 'Floating point exception',
  SEGV: 'Segmentation fault',
};
/**
 * A relay's report that the program it started died of a signal: ROS 2 launch's and ROS 1 roslaunch's `process has
 * died [pid N, exit code -6, cmd '…']` (Python's subprocess gives a signal's death as the negative signal number,
 * https://docs.python.org/3/library/subprocess.html#subprocess.Popen.returncode), systemd's `unit.service: Main process
 * exited, code=dumped, status=6/ABRT` (code=killed without a core dump; the unit's name may have gone with a log's template).
 */
const RELAYED_DEATH =
  /^(?:process has died \[pid \d{1,10}, exit code -(\d{1,2})\b|(?:[\w@.:-]{1,128}\.service: )?Main process exited, code=(?:dumped|killed), status=\d{1,3}\/([A-Z]{2,5})\b)/;
const CRASH_START = new RegExp(
  `^(?:terminate called|what\\(\\)|Aborted|Segmentation|Bus error|Illegal|Floating|Trace\\/|zsh: |Fatal Python|process has died|Main process exited|[\\w@.:-]{1,128}\\.service: Main|\\S+: \\S{1,12} \\d|${Object.keys(LOCALISED_SIGNALS).join('|')})`,
);
/** Failure lines this close before a native death are said with it. */
const CRASH_CAUSE_LINES = 5;
/** Lines of one native death (the exception, its what(), the signal) stand this close. */
const CRASH_LINES = 3;
/** A relay's report of that death (RELAYED_DEATH) stands at most this far after its other lines. */
const RELAYED_DEATH_LINES = 64;

/** Warnings no entry knows, said with a run's catalogued warnings (sayOtherWarnings). */
const MAX_OTHER_WARNINGS = 3;

/** A wrapped message is joined from at most this many lines. */
const MAX_JOINED = 4;

/** Lines of a traceback chain kept for quoting (bounded). */
const EXCERPT_LINES = 24;

/**
 * The function names of a traceback chain with bounded memory: the first and the last
 * FRAMES_KEPT_EACH_END (the raising function is last; the entry point first), the rest only counted.
 * A log of 600 MB of frames held 928 MB, and 5 GB aborted V8, when every frame was kept.
 */
export const FRAMES_KEPT_EACH_END = 32;

export class FrameList {
  private readonly first: string[] = [];
  private last: string[] = [];
  /** Frames seen but kept in neither end. */
  omitted = 0;

  push(fn: string): void {
    if (this.first.length < FRAMES_KEPT_EACH_END) {
      this.first.push(fn);
      return;
    }
    this.last.push(fn);
    if (this.last.length > 2 * FRAMES_KEPT_EACH_END) {
      // Amortised: trim the tail back to its bound once it doubles.
      this.omitted += this.last.length - FRAMES_KEPT_EACH_END;
      this.last = this.last.slice(-FRAMES_KEPT_EACH_END);
    }
  }

  /** The kept names, outermost first, and how many between them were left out. */
  snapshot(): { frames: string[]; omitted: number } {
    const extra = Math.max(0, this.last.length - FRAMES_KEPT_EACH_END);
    return { frames: [...this.first, ...this.last.slice(extra)], omitted: this.omitted + extra };
  }
}

/**
 * What one run of the log showed the collector (a log often holds several: a command run again at the shell's prompt,
 * a log file every run appends to — state.ts beginRun). A fresh one at each run (ErrorCollector.newRun), so a fact added
 * here is the run's own by default: its traceback, its open failure, the stage its lines show, its warnings and the keys
 * its diagnostics were said once by — the next run's failure is read as it reads alone.
 */
class CollectorRun {
  /** Each diagnostic said once per run (push): the same failure in the next run is that run's, said again. */
  readonly keys = new Set<string>();
  /** Traceback chain state. */
  inTraceback = false;
  afterException = false;
  frames = new FrameList();
  /** The innermost frame's file so far (the function's module, said with an error nobody explains). */
  frameFile: string | null = null;
  chainLines: string[] = [];
  lastException: Signal | null = null;
  /** The last error signal nobody explained (for `dfc/unrecognised-error`). */
  unexplained: { signal: Signal; excerpt: string[] } | null = null;
  /** A failure an author told in words with the step that failed (stageFailedSaid): their next lines of the paragraph, read as its `after`. */
  toldFailure: { signal: Signal; text: string; lines: number } | null = null;
  /** The run's first error line nothing explained: a program logs a failure's cause first, then each caller's line. */
  firstUnexplained: Signal | null = null;
  /** The script line the DFC echoed with `>!<` (comes after the `(line:, col:)` exception). */
  pendingSyntax: { signal: Signal; lineNo: number | null; column: number | null; message: string; echo: string | null } | null = null;
  firstErrorStage: StageName | 'docker' | 'unknown' | null = null;
  /** An exception the log did not get past (no stage line after it): the run died of it. */
  openFailure: Signal | null = null;
  /** The line where the interactive shell refused a typed command as not found (`bash: souce: command not found`): nothing ran. */
  refusedTyped: { line: number; program: string } | null = null;
  /** Lines where a script's own command was refused as not found (`./run.sh: line 14: lspci: command not found`): bash went on. */
  readonly refusedInScript = new Set<number>();
  /** The run showed a failure line, even one a later line got past (a teardown's error is then no lone aftermath: lineRead). */
  failureSeen = false;
  /** The stage the current traceback chain shows (its innermost DFC frame or call), for errors no stage line places. */
  chainStage: StageName | null = null;
  /** IPython prints the class first and the frames unindented: its traceback ends only at an exception line. */
  ipythonClass: string | null = null;
  /** A Rich traceback (rich/traceback.py): its body is unindented too, so it ends only at an exception line. */
  richTraceback = false;
  /** Lines of the last exception's message after its own (Python prints a message's line breaks unindented). */
  messageLines = 0;
  /** The stage of the last DFC code a line shows (a module path it names, a stage's own exception class). */
  ranStage: StageName | null = null;
  /** A line of the run named the DFC or its container (DFC_NAMED): a CUDA failure after it is the DFC's. */
  dfcNamed = false;
  /** The stage an author named where they quoted an error (stageSaid): the weakest evidence, after what ran. */
  saidStage: StageName | null = null;
  /** The stage a quoted exception's own class or module shows (outside a traceback): the error's own evidence. */
  ownStage: StageName | null = null;
  /** Why chainStage, ownStage, ranStage and callStage are what they are, in a report's words (stageEvidence.ts). */
  readonly why = { chain: '', own: '', ran: '', call: '' };
  /** The stage of the last ClientRunner call a line shows (`runner.optimize(calib)` in the author's script, outside a traceback). */
  callStage: StageName | null = null;
  /**
   * The stages of the ClientRunner calls shown since the run last showed progress: a script pasted whole names
   * several, and then no call says which one failed; a notebook's cell after another's output names one.
   */
  readonly callStages = new Set<StageName>();
  /** The line before was a traceback's frame: a line at the margin after it is that frame's code (a pasted traceback dedented). */
  afterFrame = false;
  /** The last line that said something, when it ends in `:` (an author's words introducing what follows). */
  intro: string | null = null;
  /** The introducing line before the current traceback chain. */
  chainIntro: string | null = null;
  /** The last line of an author's words (no level tag, no exception), whatever it ends in: what they say ran before an error. */
  prose: string | null = null;
  /** The author's line before the current traceback chain. */
  chainProse: string | null = null;
  /** The function names of a call chain an author condensed, so far (CHAIN_STEP). */
  callChain: string[] = [];
  /** Where the traceback chain began (a log cut inside it is still a failure, docs/dfc-log.md). */
  tracebackStart: LogLine | null = null;
  /** The last lines read (their words), for the OS reason an author or a program gives just before a failure. */
  lastBodies: string[] = [];
  /** The paragraph's last lines as their author wrote them (a blank line starts a new one): where a quoted kill's sentence began. */
  paragraph: string[] = [];
  /** A HailoRT failure the next lines may still give the reason for. */
  causeWindow: { d: DfcDiagnostic; until: number } | null = null;
  /** Environment settings an author's lines name in a code span (`VIRTUAL_ENV=/usr`), with their lines (sayAuthorSettings). */
  settingsSaid: { no: number; setting: string }[] = [];
  /** HailoRT versions the log names (`libhailort.so.4.20.0`, `hailort 5.1.1`, `HailoRT v4.23.0`): several parts of several releases. */
  readonly versions = new Set<string>();
  /** The run's warnings no entry knows, in their words (at most MAX_OTHER_WARNINGS). */
  otherWarnings: string[] = [];
  /** The same warnings, each distinct message once with its count (unknownWarnings.ts), said on their own. */
  unknownWarnings = new UnknownWarnings();
  /** The kernel's splats (kernelSplat.ts): evidence of where its code went wrong, said whatever the outcome. */
  splats = new KernelSplats();
  /** The last failure lines nothing explained (line and words), for a death right after them. */
  recentFailures: { no: number; message: string }[] = [];
  /**
   * Failure lines told in a Markdown table's cells, one per row, distinct (at most MAX_ROW_FAILURES): a table of issues and
   * their fixes lists incidents side by side (dfc-corpus unseen25/24), and each row's is said, not only the first and the last.
   */
  rowFailures: { no: number; message: string }[] = [];
  /** A native program's death being reported (its lines come one after another). */
  crash: { d: DfcDiagnostic; type: string | null; what: string | null; signal: string | null; last: number; excerpt: string[] } | null = null;
  /** An error-level line (any tool's) or an exception that nothing after it got past. */
  lastErrorLine: number | null = null;
  /** That line is a failure only by its words (failureWords.ts), no level or class says so. */
  wordsOnly = false;
  /** The last lines a program printed at warning level or with its warning's words (a message quoted elsewhere is theirs). */
  warned: { body: string; lv: string | null }[] = [];
}

/** Warning lines kept to recognise a failure's words quoted after them (warnedMessage). */
const MAX_WARNED_KEPT = 4;
/** The least of a message's text that identifies it as another line's (a few words, not `Cannot open`). */
const WARNED_QUOTE_MIN = 16;

export class ErrorCollector {
  private readonly out: DfcDiagnostic[] = [];
  private readonly explainer: Explainer;
  /** Diagnostics past MAX_DIAGNOSTICS. */
  dropped = 0;
  /**
   * The run being read (CollectorRun). Per log, besides: the diagnostics of every run (`out`, the earlier runs' errors
   * made warnings) and where the current run's begin, the failed run before it (`earlier`), a wrapped line being joined
   * (`held`: the reader's plumbing, read whole before any run begins), the last line read, and the OS reasons and limits
   * found for each HailoRT diagnostic (facts of that diagnostic, whichever run it is in).
   */
  private run = new CollectorRun();

  constructor(private readonly state: ReaderView) {
    this.explainer = new Explainer(state);
  }

  /** The last line read (a diagnostic about the whole log goes there). */
  private lastLineNo = 1;
  /** The last line that said something (runEnd: a parser's footer refers to the line before it). */
  private lastSaid: { l: LogLine; body: string } | null = null;

  /** `grid`: an allocator grid line — only the traceback state needs it. */
  line(l: LogLine, grid = false): DfcDiagnostic[] {
    const added = this.lineRead(l, grid);
    if (grid) return added;
    this.causesAround(l, added);
    return added;
  }

  // ---- the cause a log's own lines give beside a HailoRT failure ----------------------------------------------
  /** The OS reason each HailoRT failure's lines give (added to its words when the log ends). */
  private readonly reasons = new Map<DfcDiagnostic, Errno>();
  /** A limit of hailort.h (`HAILO_MAX_NETWORK_GROUPS=8`) each HailoRT failure's lines name. */
  private readonly limits = new Map<DfcDiagnostic, string>();

  /**
   * A HailoRT failure's cause in the log's own words around it: the OS's reason (the errno, strerror's words, an
   * author's `cannot read`/`chmod`) on its line or the 3 lines before or after it, and the HailoRT versions the run's
   * lines name — the status alone does not say them (HAILO_OPEN_FILE_FAILURE is a path, a permission or a disk).
   */
  private causesAround(l: LogLine, added: DfcDiagnostic[]): void {
    const body = l.text;
    if (this.run.versions.size < 8 && NAMES_HAILORT.test(body))
      for (const m of body.matchAll(HAILORT_VERSION)) if (this.run.versions.size < 8) this.run.versions.add(m[1]);
    // As the author wrote it (Markdown kept: the reader's text loses code spans' backticks).
    const written = l.said ?? body;
    if (written.includes('=') && written.includes('`') && level(body) === null && this.run.settingsSaid.length < MAX_SETTINGS_SAID)
      for (const m of written.matchAll(SETTING_SPAN))
        if (this.run.settingsSaid.length < MAX_SETTINGS_SAID && !this.run.settingsSaid.some((x) => x.setting === m[1]))
          this.run.settingsSaid.push({ no: l.no, setting: m[1] });
    if (this.run.causeWindow && l.no <= this.run.causeWindow.until) {
      const r = osReasonIn(body);
      if (r && !this.reasons.has(this.run.causeWindow.d)) this.reasons.set(this.run.causeWindow.d, r);
      const lim = limitIn(body);
      if (lim && !this.limits.has(this.run.causeWindow.d)) this.limits.set(this.run.causeWindow.d, lim);
    }
    for (const d of added) {
      if (!d.code.startsWith('hailort/') || this.reasons.has(d)) continue;
      const r = osReasonIn(body) ?? this.run.lastBodies.map(osReasonIn).find(Boolean);
      if (r) this.reasons.set(d, r);
      const lim = limitIn(body) ?? this.run.lastBodies.map(limitIn).find(Boolean);
      if (lim) this.limits.set(d, lim);
      this.run.causeWindow = { d, until: l.no + 3 };
    }
    if (body.trim()) this.rememberBody(body);
  }

  /**
   * A kill an author tells in prose, its kernel's or shell's line quoted in a span (`… at 100%, the "Trying parallel splits"
   * search step spawns workers … and get OOM-killed (\`dmesg\`: \`Out of memory: Killed process … (hailomz)\`)`, dfc-corpus
   * unseen18/09): the step their sentence names — from its start in the lines before, up to the quote — is where it was killed.
   */
  private killSaid(l: LogLine, body: string): void {
    const said = l.said!;
    const at = said.indexOf(body.trim().slice(0, 24));
    const text = [...this.run.paragraph, at > 0 ? said.slice(0, at) : said].join(' ');
    let start = 0;
    for (const m of text.matchAll(/[.!?;]\s/g)) start = m.index + 2;
    const stage = stageSaid(text.slice(start));
    if (stage) this.run.saidStage = stage;
  }

  /**
   * The cause an author states beside a failure, where it is an environment setting: their lines right after the failure
   * (its cause analysis, in whatever language) name a variable's value in a code span — `VIRTUAL_ENV=/usr` beside
   * `PermissionError: [Errno 13] Permission denied: '/usr/etc'`, the DFC's logger putting its folder under $VIRTUAL_ENV
   * (dfc-corpus unseen22/39). The failure's diagnostic says it: the reader cannot know the variable, the author found it.
   */
  sayAuthorSettings(): void {
    if (!this.run.settingsSaid.length) return;
    const failure = this.out.slice(this.runStart).find((d) => d.severity === 'error');
    if (!failure) return;
    // A setting the diagnostic already says (a hailort.h limit, causesAround) is not said again.
    const said = this.run.settingsSaid.filter(
      (x) => x.no >= failure.logLine && x.no - failure.logLine <= SETTING_LINES && !failure.message.includes(x.setting.slice(0, x.setting.indexOf('='))),
    );
    if (said.length)
      failure.message += ` The author's lines right after it name the environment setting ${said.map((x) => `${x.setting} (line ${x.no})`).join(', ')} in their account of it: check it where the program runs.`;
  }

  /** The last three bodies read (where an OS reason or a limit after a HailoRT failure is looked for). */
  private rememberBody(body: string): void {
    this.run.lastBodies.push(body);
    if (this.run.lastBodies.length > 3) this.run.lastBodies.shift();
  }

  /**
   * The kernel's splats, each distinct one once (a flood counted), as evidence beside the run's failure: the failure is the
   * runtime's own error line after them, said in its words; the splat names the code the kernel blamed, no cause.
   */
  saySplats(): DfcDiagnostic[] {
    const all = this.run.splats.all();
    const failure = this.out.slice(this.runStart).find((d) => d.severity === 'error' && d.logLine > (all[0]?.firstLine ?? Infinity));
    const added: DfcDiagnostic[] = [];
    all
      .slice(0, MAX_SPLATS_SAID)
      .forEach((s, i, said) =>
        this.push(this.explainer.kernelSplat(s, failure ?? null, i === said.length - 1 ? all.length - said.length + this.run.splats.moreDistinct : 0), added),
      );
    return added;
  }

  /**
   * A run that ended without an error: the warnings no entry knows are said in its first warning's diagnostic, so
   * what another tool warned of beside it (a GStreamer pipeline's latency, a library's deprecation) is not lost; and
   * each other distinct one is said on its own (`dfc/unrecognised-warning`, low confidence), in its words, with how often it
   * repeated — a run that only warned (pyhailort's own log file) says what it was warned of. Never in a failed run:
   * the failure is what it says, and a warning no entry knows is not made its cause.
   */
  sayOtherWarnings(): DfcDiagnostic[] {
    const run = this.out.slice(this.runStart);
    if (run.some((d) => d.severity === 'error')) return [];
    const first = run.find((d) => d.severity === 'warning');
    const said = first ? this.run.otherWarnings.filter((w) => !first.message.includes(w)) : [];
    if (first && said.length)
      first.message += ` Beside it the log warns (no DFC or HailoRT message the reader knows): ${said.map((w) => `«${w}»`).join('; ')}.`;
    const added: DfcDiagnostic[] = [];
    // Each message is said once: those said beside the catalogued warning are not said again on their own.
    const { said: each, moreLines } = this.run.unknownWarnings.said((w) => first !== undefined && this.run.otherWarnings.includes(w.words));
    each.forEach((w, i) => this.push(this.explainer.unknownWarning(w, i === each.length - 1 ? moreLines : 0), added));
    return added;
  }

  /** What the log's own lines said of its HailoRT failures, in their words (settle). */
  private sayCauses(): void {
    for (const [d, lim] of this.limits) if (!d.message.includes(lim)) d.message += ` The log names HailoRT's limit ${lim}.`;
    for (const [d, r] of this.reasons) {
      if (d.message.includes(`errno ${r.value} (`)) continue;
      d.message += ` The log gives the OS's reason: ${describeErrno(r)}${r.advice ? ` — ${r.advice}` : ''}.`;
    }
    const majors = new Set([...this.run.versions].map((v) => v.split('.').slice(0, 2).join('.')));
    if (majors.size < 2) return;
    const named = [...this.run.versions].sort();
    for (const d of this.out.slice(this.runStart))
      if (d.code.startsWith('hailort/') && d.severity === 'error')
        d.message += ` The log names HailoRT versions ${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}: the PCIe driver, libhailort, the Python binding and the GStreamer plugins must all be one version (Hailo-8 takes 4.x, Hailo-10H 5.x).`;
  }

  private lineRead(l: LogLine, grid: boolean): DfcDiagnostic[] {
    const t = l.text;
    this.lastLineNo = l.no;
    const added: DfcDiagnostic[] = [];
    const consumed = this.trackTraceback(l, added);
    if (grid) return added;
    // `ExcType: message` wherever it stands in the line (scripts log `type(exc).__name__: str(exc)`,
    // wrappers and UIs add their own prefixes, authors paste it into prose).
    const body = withoutLevel(t).trim();
    if (!this.run.dfcNamed && DFC_NAMED.test(t)) this.run.dfcNamed = true;
    const ran = stageOfMention(t);
    if (ran)
      [this.run.ranStage, this.run.why.ran] = [ran, `a line names the DFC's ${ran} code (${/hailo_\w+(?:[./\\]\w+){0,3}/.exec(t)?.[0] ?? 'a DFC module'})`];
    // A frame named in prose by its file and function (`fuser.py _handle_neg_feature_shuffle`): the DFC module that ran.
    const frameStage = ran ? null : stageOfFrameNamed(l.said ?? t);
    if (frameStage) [this.run.ranStage, this.run.why.ran] = [frameStage, `a line names a frame of the DFC's ${frameStage} code`];
    const call = stageOfApiCall(t);
    if (call) {
      [this.run.callStage, this.run.why.call] = [call, `the log shows the call ${clip(t.trim())}`];
      this.run.callStages.add(call);
    }
    // A user's script of one step run at a command line (`bash translate.sh …`): its name is the call's evidence.
    const script = call || this.run.inTraceback ? null : stageOfScriptRun(t);
    if (script) {
      [this.run.callStage, this.run.why.call] = [script.stage, `the log runs the script ${script.script}, named for the ${script.stage} step`];
      this.run.callStages.add(script.stage);
    }
    // The kernel's report of a fault in its code (kernelSplat.ts): evidence said on its own, never a failure line of the run.
    if (!consumed && !this.run.inTraceback && this.run.splats.read(l.no, body, level(t) === 'warning')) return added;
    const prior = this.lastSaid;
    if (body) this.lastSaid = { l, body };
    if (!consumed && this.runEnd(l, body, added, prior)) return added;
    const written = l.said ?? l.text;
    if (!consumed && l.said && l.said !== body && this.run.saidStage === null && this.state.currentStage === null && endsRun(body)) this.killSaid(l, body);
    if (!written.trim()) this.run.paragraph = [];
    else if (this.run.paragraph.push(written) > PARAGRAPH_LINES) this.run.paragraph.shift();
    this.told(l, written);
    // A message the author quotes as cured or avoided in its own sentence (`Error "X" resolved by removing …`, `to eliminate the
    // node causing "Agent infeasible"`): an occurrence the run went past, not its failure (unseen25/37).
    if (!consumed && l.said && l.said !== body && curedInSentence(l.said, body)) return added;
    const named = consumed ? null : exceptionIn(body);
    // A class the author names only as what an action would raise (`omitting the concat layer throws \`X\``): no failure of this run.
    const bare = named && !named.message && !named.module && namedAsHypothetical(this.run.paragraph, written, named.cls) ? null : named;
    // Refusals an author reports in prose or a table row (several in one line), when the line pastes no exception itself.
    const reports = consumed || named || matchDfcMessage(body)?.message.code ? [] : reportsInProse(body);
    // An author's condensed call chain (`f` / `→ g` / `→ IndexError: …`, dfc-corpus unseen4/11): its names are the frames.
    const frames = bare && CHAIN_ARROW.test(body) ? [...this.run.callChain] : [];
    const step = consumed || bare ? null : CHAIN_STEP.exec(body);
    if (step) {
      if (this.run.callChain.length < FRAMES_KEPT_EACH_END) this.run.callChain.push(step[1]);
    } else if (this.run.callChain.length) this.run.callChain = [];
    // A class quoted with its message and the function that raised it named in the line (`IndexError: … in _convert_axes_to_nhwc`).
    const framed = bare && !frames.length ? framedMention(body) : null;
    if (framed && framed.cls === bare!.cls) frames.push(framed.frame);
    const intro = this.run.intro;
    const prose = this.run.prose;
    // The line as written when its code span was read as the line (`a second failure in \`translate\`:`, unseen22/04).
    const introduces = body.endsWith(':') ? body : l.said?.trimEnd().endsWith(':') ? l.said.trim() : null;
    // A Markdown fence opening the quote (```` ``` ````) is no words of its own: the line before it still introduces what follows;
    // nor is a line without a letter (a bare timestamp a wrapper left of a blank line).
    if (body && !MARKDOWN_FENCE.test(body) && /\p{L}/u.test(body))
      this.run.intro = !consumed && !bare && introduces !== null && (level(t) === null || l.relayedLevel === true) ? introduces : null;
    // A relay's level (every relayed line at INFO) is no tool's: the line is still its author's.
    if (body) this.run.prose = !consumed && !bare && (level(t) === null || l.relayedLevel === true) ? body : null;
    if (bare) {
      const own = stageOfModule(bare.module) ?? stageOfClass(bare.cls);
      const validated = own ? null : stageOfValidated(bare.message);
      const stage = own ?? validated;
      if (stage) this.run.ranStage = stage;
      this.run.ownStage = stage;
      this.run.why.own = validated
        ? `it validates the ${stage} stage's configuration (${/validation errors? for \w+/.exec(bare.message ?? '')?.[0]})`
        : bare.module
          ? `its module ${bare.module} is the ${stage} stage's code`
          : `its class ${bare.cls} is the ${stage} stage's framework's`;
      // The author's words before the quoted class (as written: a code span's sentence is gone from `body`), or the line that introduced it.
      let said: StageName | null = null;
      if (!stage && !RUNTIME_ERROR.test(`${bare.cls} ${body}`) && !bare.module?.startsWith('hailo_platform')) {
        // From the line after its relay's prefixes (a logger column naming `parser.py` is no author's word).
        const written = l.said ?? l.raw;
        const at = written.indexOf(bare.cls);
        const before = at > 0 ? written.slice(Math.max(0, at - 400), at) : '';
        said = (before.trim() ? stageSaid(before) : null) ?? (intro ? stageSaid(intro) : null);
        if (said) this.run.saidStage = said;
        else this.algorithmRan(before, prose);
      }
      const s: Signal = { kind: 'exception', cls: bare.cls, message: bare.message, frames, line: l, stage: stage ?? said };
      this.run.openFailure = s;
      this.syntaxFrom(s, added);
      if (this.accept(s, added) === 0) this.run.unexplained = { signal: s, excerpt: [t] };
    }
    for (const r of reports) {
      const stage = stageOfClass(r.cls);
      if (stage) this.run.ranStage = stage;
      const s: Signal = {
        kind: 'exception',
        cls: r.cls,
        message: r.message,
        frames: r.frames,
        line: l,
        stage,
        ...(r.node ? { node: r.node } : {}),
      };
      this.run.openFailure = s;
      if (this.accept(s, added) === 0) this.run.unexplained = { signal: s, excerpt: [t] };
    }
    // Line-level signals, in or out of a traceback: every catalogue message the line says.
    this.explainer.observe(l, (s) => this.accept(s, added), consumed || named !== null);
    // A tool's message the author quotes as what a step raised (`… raises \`No predecessor with weight for layer X\``), unless the
    // line already said it as an error of its own (the span read as the line).
    let quotedSaid = 0;
    const quoted = consumed || this.run.inTraceback || !l.said ? [] : quotedRefusals(this.run.paragraph, l.said);
    for (const q of quoted) {
      // Read already: the span was the line (an error line of its own), or the catalogue knew its message in the line.
      if ((body === q.message && (added.length || level(t) === 'error')) || (added.length && matchDfcMessage(q.message))) continue;
      const stage = q.catalogueStage ?? stageFailedBefore(q.before);
      // A class alone (`crashed with a \`FileNotFoundError\``): the optimizer's algorithm the author names before it says what ran.
      if (!stage && q.isClass) this.algorithmRan(q.before, null);
      const s: Signal = {
        kind: 'error-line',
        cls: q.isClass ? q.message : null,
        message: q.isClass ? '' : q.message,
        frames: [],
        line: l,
        stage,
        ...(q.node ? { node: q.node } : {}),
        ...(q.after ? { after: q.after } : {}),
      };
      if (stage && this.run.saidStage === null) this.run.saidStage = stage;
      const n = this.accept(s, added);
      const first = this.run.firstUnexplained;
      // One that names where (its message's `for layer X`, the author's `on \`X\``) is said at once, whatever the run's later
      // failures are (each a step the author went past: unseen21/05's parser refusal before its calibration's BadInputsShape).
      if (n === 0 && (q.node || namedLayer(q.message)))
        this.push(this.explainer.unrecognised(s, [l.said ?? t], first && first !== s ? first.message : undefined), added);
      else if (n === 0) {
        this.run.unexplained = { signal: s, excerpt: [l.said ?? t] };
        this.run.firstUnexplained ??= s;
      }
      quotedSaid++;
    }
    if (this.run.pendingSyntax && !this.run.pendingSyntax.echo && t.includes('>!<')) {
      this.run.pendingSyntax.echo = t;
      this.flushSyntax(added);
    }
    // A relay's level vetoes nothing the line says: an application that logs a caught exception at WARNING (`Vehicle
    // detection error: Failed to perform model … inference: [ERROR]Functionality is not supported`, DeGirum's message
    // with its own level) relays an error — the innermost level wins, as a HailoRT error quoted in an INFO line is one.
    // A display sink's word that its user closed its window (gst-launch's `ERROR: from element …: Output window was closed`)
    // is the pipeline's end, not an error, whatever level the program printed it at (failureWords.ts windowClosedIn; behind
    // a relay's INFO, failureIn does not take its words for a failure either).
    // An application's error about its own teardown after its run gave its answer (`[INFO] Static image detection test completed`,
    // then `[ERROR] Error during cleanup: cannot join current thread`, dfc-corpus unseen24/82): what it did stands; the release
    // that failed after it is said as a warning (failureWords.ts teardownIn). Before the answer, or after a failure of the run's
    // work that later words got past (the same app's inference refused, then `test completed`: unseen19/73), it is the run's failure.
    const afterAnswer = this.state.answered && !this.run.failureSeen && this.state.applicationRun() && teardownIn(body);
    const lv = windowClosedIn(t) ? 'info' : afterAnswer ? 'warning' : l.relayedLevel === true && QUOTED_ERROR_TAG.test(body) ? 'error' : level(t);
    // A line the catalogue explains as a warning only (the DFC's first-run system check prints `[Error]`) ends nothing.
    // A line that showed an error of this run to be a side thread's (HailoRT's monitor, Explainer.monitorSide) ends nothing, and
    // neither does that error: the run's first error and its last error line are what remains.
    const sideOnly = this.settleDemoted();
    const warnedOnly = sideOnly || (added.length > 0 && added.every((d) => d.severity !== 'error'));
    // An application's own words that it failed, with no level tag (`Failed to start streaming`, a C++ test's stderr):
    // an error line of that program's run, as a tagged one is (no DFC stage ran: the DFC's own lines carry a level);
    // behind a relay that logs every line at INFO the same.
    // A warning no entry knows (another tool's beside the run's catalogued ones): said with them at the end (sayOtherWarnings).
    // Each distinct one is also kept with its count (unknownWarnings.ts) — unless this line said something the reader knows
    // (a HailoRT status logged at warning level); a flood's repeats need no catalogue look-up.
    if (lv === 'warning' && !bare && !reports.length && body && (this.run.unknownWarnings.has(body) || !matchDfcMessage(body))) {
      const w = clipWords(body);
      if (this.run.otherWarnings.length < MAX_OTHER_WARNINGS && !this.run.otherWarnings.includes(w)) this.run.otherWarnings.push(w);
      if (!added.length) this.run.unknownWarnings.add(body, l.no, l.raw);
    }
    const untagged = (lv === null || (lv === 'info' && l.relayedLevel === true)) && !bare && !reports.length && !quotedSaid && !added.length;
    // Any program's own words that it failed (failureWords.ts: `could not link …`, `No package 'x' found`, `COPY failed:`,
    // `exit code: 1`), outside a running DFC stage and outside a traceback: a failure line of whatever ran.
    const told =
      untagged && !consumed && !this.run.inTraceback && !this.run.afterException && this.state.currentStage === null
        ? // The line before in the author's paragraph: the words' subject may end it (a hard wrap, `(single-context` / `presolve failed`).
          failureIn(body, this.run.paragraph.length > 1 ? this.run.paragraph[this.run.paragraph.length - 2] : '')
        : null;
    // The words a program printed as its warning, quoted again bare (a heading's `Issue 2 — \`Cannot create log file hailort.log!\``
    // beside `HailoRT warning: Cannot create log file …`, unseen24/67): the program's own line says its level (warnedMessage).
    const words = told && this.warnedMessage(body, told.words, null) ? null : told;
    const ownFailure = words !== null || (untagged && PROGRAM_FAILED.test(body) && !goesOnIn(body) && this.state.applicationRun());
    // The step the author says failed (`The compile then failed at the kernel compilation with X`): the stage, when nothing else places it.
    // So too the step they say could not do something (`a chain that Hailo's parser also couldn't handle`, unseen24/38): its subject.
    let toldStage: StageName | null = null;
    if ((words?.kind === 'failed' || words?.kind === 'cannot' || words?.kind === 'during') && this.run.saidStage === null) {
      toldStage =
        words.kind === 'failed'
          ? stageFailedSaid(body)
          : words.kind === 'during'
            ? stageFailedSaid(body, body.indexOf(words.words), words.words)
            : stageCouldNotSaid(body, body.indexOf(words.words));
      this.run.saidStage = toldStage;
    }
    // Or the step the program's own words say it could not do to the model (`Could not parse the model …`, unseen23/06; the
    // DFC CLI's `[error] Failed to compile the model: …` at its own level, tune2/22): never HailoRT's (`Failed to parse HEF`).
    if (
      (words || ((lv === 'error' || lv === 'critical') && !consumed && !RUNTIME_ERROR.test(body) && !l.raw.includes('[HailoRT]'))) &&
      this.run.saidStage === null
    )
      this.run.saidStage = stageOfFailedStep(body);
    // Or the step the author's line introducing the quote sets against the steps that went through (`…, mais le compile plante :`).
    if (words && this.run.saidStage === null && intro) this.run.saidStage = stageSaidAfterContrast(intro);
    // Else the step the author's line introducing the quote names (`a second failure in \`translate\`:` before the tool's line,
    // unseen22/04) — after the contrast above: `X passes, but Y fails:` names both.
    if (words && this.run.saidStage === null && intro) this.run.saidStage = stageSaid(intro);
    // A CUDA failure ending a DFC run told in notes (the DFC or its container named before it, no command, header or stage to
    // place it): the optimizer's — of the DFC's steps only it computes on the GPU; the parser and the compiler go on without one
    // (TensorFlow's `failed call to cuInit` at warning level during a translate that succeeds, dfc-corpus unseen17/83), so the
    // GPU's refusal stops no other step (unseen25/06). A command or a stage the log shows places it as any error.
    if (words && cudaFailureIn(body) && this.run.ranStage === null && this.run.dfcNamed && this.state.applicationRun())
      [this.run.ranStage, this.run.why.ran] = ['optimize', 'a CUDA failure in a DFC run: of its steps only the optimizer computes on the GPU'];
    // A later step's word that it completed gets past a failure told by words alone, as a success word does.
    if (!ownFailure && untagged && !consumed && this.run.lastErrorLine !== null && completedIn(body)) this.succeeded();
    if ((bare || reports.length || quotedSaid || lv === 'error' || lv === 'critical' || ownFailure) && !warnedOnly) {
      this.run.lastErrorLine = l.no;
      this.run.failureSeen = true;
      // A failure told by its words alone is got past by a later word that something succeeded (succeeded()).
      this.run.wordsOnly = ownFailure && !bare && !reports.length && !quotedSaid && lv !== 'error' && lv !== 'critical';
    }
    // An exporter's verdict that it failed (`Hailo: export failure 3.1s: <exception>`) ends the run where it stands.
    const exporterFailed = !bare && !consumed && exportFailureIn(body);
    if ((lv === 'error' || lv === 'critical' || ownFailure || exporterFailed) && !bare) {
      const s: Signal = {
        kind: 'error-line',
        cls: null,
        message: body,
        frames: [],
        line: l,
        ...(ownFailure ? { words: words?.words ?? body.split(' ', 2).join(' ') } : {}),
      };
      if (exporterFailed) this.run.openFailure = s;
      const n = this.accept(s, added);
      // A further failure that names where it happened (`a8_w8  FAILED  InferenceError, graph execution error at
      // conv2_1/act_op_1/pow` under a row whose error the catalogue explained, unseen25/15): said at once beside the run's
      // first, as a quoted refusal naming its layer is — the end of the run says an unknown failure only when none was said.
      if (n === 0 && ownFailure && this.hasErrors() && namedLayer(body)) {
        this.push(this.explainer.unrecognised(s, [l.said ?? t], undefined), added);
      } else if (n === 0 && body && this.explainsException(s, words !== null && lv === null && !toldStage && describedIn(body, words.words))) {
        // The author's words after the program's exception explain it (explainsException): the exception stays what the run died of.
      } else if (n === 0 && body) {
        // An author's failure told with the step that failed goes on in their paragraph with its cause or their fix (told()).
        if (toldStage && ownFailure && !l.relayedLevel) this.run.toldFailure = { signal: s, text: '', lines: 0 };
        this.run.unexplained = { signal: s, excerpt: this.recent(l) };
        this.run.firstUnexplained ??= s;
        this.run.recentFailures.push({ no: l.no, message: body });
        if (this.run.recentFailures.length > 2) this.run.recentFailures.shift();
        const rows = this.run.rowFailures;
        if (TABLE_ROW_RAW.test(l.raw) && rows.length < MAX_ROW_FAILURES && !rows.some((f) => f.no === l.no || f.message === body))
          rows.push({ no: l.no, message: body });
      }
    }
    if (!consumed && !ownFailure && body && (lv === 'warning' || warnedIn(body))) {
      // A failure told by words alone, quoted before the program's own line that prints the same words as a warning: the warning.
      const u = this.run.unexplained?.signal;
      if (u?.words !== undefined && this.warnedMessage(u.message, u.words, { body, lv })) {
        if (this.run.lastErrorLine === u.line.no) this.run.lastErrorLine = null;
        this.gotPastWords();
      }
      if (this.run.warned.push({ body, lv }) > MAX_WARNED_KEPT) this.run.warned.shift();
    }
    return added;
  }

  /**
   * Whether a failure told by words alone (`message`, its failure words `words`) quotes a program's warning: from those words on,
   * one text begins the other over at least WARNED_QUOTE_MIN characters (a title quotes the message, a recap goes on after it)
   * in the warning line — `line`, or one of the last kept — which says it behind its warning's words or at its warning level.
   */
  private warnedMessage(message: string, words: string, line: { body: string; lv: string | null } | null): boolean {
    const trim = (t: string) => t.replace(/[\s`*'"»”.!:]+$/, '');
    const from = message.indexOf(words);
    if (from < 0) return false;
    const quoted = message.slice(from);
    const says = (body: string, lv: string | null) => {
      const at = body === message ? -1 : body.indexOf(words);
      if (at < 0 || !(lv === 'warning' || warnedIn(body.slice(0, at)))) return false;
      const own = body.slice(at);
      const shorter = trim(own.length < quoted.length ? own : quoted);
      return shorter.length >= WARNED_QUOTE_MIN && (own.length < quoted.length ? quoted : own).startsWith(shorter);
    };
    return line ? says(line.body, line.lv) : this.run.warned.some((w) => says(w.body, w.lv));
  }

  /** An error found to be a side thread's since the last line (Explainer.takeDemoted): the run's first error and its end are what remains. */
  private settleDemoted(): boolean {
    if (!this.explainer.takeDemoted()) return false;
    const first = this.out.slice(this.runStart).find((d) => d.severity === 'error');
    this.run.firstErrorStage = first ? this.explainer.stageOf(first) : null;
    if (!first) [this.run.lastErrorLine, this.run.openFailure] = [null, null];
    return true;
  }

  /**
   * Nothing is open that a line could go on with or end: no line held for its continuation (join), no traceback or
   * exception whose lines are being read. routes.ts reads the allocator's iteration line by `plainLine` only then.
   */
  atRest(): boolean {
    return this.held === null && !this.run.inTraceback && !this.run.afterException;
  }

  /**
   * `hold` and `line` for a line read at rest (atRest) that no test of the collector reads (routes.ts says why of the
   * allocator's iteration line: no level, class, catalogue message, failure, success, splat or shell word, no errno, no
   * `hailort`, no `HAILO_MAX_`, no call step; it ends in `.`, so it holds nothing open): what they do with such a
   * line — it is the last line read, the author's last words (and no introduction to what follows), one of the last
   * bodies; an error found to be a side thread's since the line before is settled. It says nothing (no diagnostic).
   */
  plainLine(l: LogLine): void {
    this.lastLineNo = l.no;
    if (this.run.callChain.length) this.run.callChain = [];
    this.run.intro = null;
    this.run.prose = withoutLevel(l.text).trim();
    this.settleDemoted();
    this.rememberBody(l.text);
  }

  // ---- wrapped messages ------------------------------------------------------------------------
  // The DFC's words about one layer of its network begin with its kind and HN name (`conv layer net/conv78_sd0`, then
  // `(translated from …)`): a line that is only that head goes on with what the layer requires (dfc-corpus unseen14/52).
  // A message split over lines — by its author (a README's wrapped paste) or by the DFC itself
  // (`No successful assignments: L errors:` then a tab-indented `Agent infeasible`) — is read as
  // one line at its first line's place. One rule for all: a line that says something (a level tag,
  // an exception class, a catalogue message) and ends unfinished (`:`, a word, a comma) is held;
  // the next line continues it when it is no log line of its own (no level tag, no traceback
  // line, no message of its own) and reads as a continuation (indented, lower-case, or after `:`).

  // A program's error line by its prefix (apt's `E: `, `error: `, failureWords.ts errorPrefixIn) that no rule above holds, cut
  // before its sentence ended, goes on only in an indented line: an author's hanging indent (`E: The repository 'http://…
  // InRelease'` then `   is not signed.`, apt's one line as a guide wraps it, dfc-corpus unseen27/71). A line at the margin
  // after it is a line of its own (the shell's prompt of a retry after argparse's `hailomz: error: unrecognized arguments: …`), and
  // so is an indented line that is no sentence's rest (gcc's source excerpt under its error, `   53 |     del_timer_sync(…);`):
  // the rest goes on in lower case or with an option (`   --allow-unauthenticated`), HANGING_REST.
  /** `cut`: the held line ends inside a catalogue message (dfcMessages.ts messageCutIn), which the next line may go on with. */
  private held: { line: LogLine; count: number; cut: MessageCut | null; indentOnly?: boolean } | null = null;

  /**
   * Called with every line before the reader looks at it. Returns the line to read: `l` itself,
   * or `l` joined to the held line (then `continued`: `l` is part of a message, nothing else).
   * `flush` receives the held line when `l` does not continue it.
   */
  join(l: LogLine, flush: (held: LogLine) => void): { line: LogLine; continued: boolean } {
    const h = this.held;
    if (h) {
      this.held = null;
      if ((!h.indentOnly || HANGING_REST.test(l.relayedLevel ? withoutLevel(l.text) : l.text)) && this.continues(h.line, l, h.cut)) {
        // A relay's level on the continuation is the relay's, not the message's words.
        const rest = (l.relayedLevel ? withoutLevel(l.text) : l.text).trim();
        const joined: LogLine = { ...h.line, text: `${h.line.text.replace(/\s+$/, '')} ${rest}`, length: h.line.length };
        const more = h.count + 1 < MAX_JOINED;
        const body = more ? bodyOf(joined) : '';
        const opens = more ? this.opens(joined, body) : null;
        if (opens) this.held = { line: joined, count: h.count + 1, cut: opens.cut };
        else if (more && h.indentOnly && this.hangs(body)) this.held = { line: joined, count: h.count + 1, cut: null, indentOnly: true };
        else flush(joined);
        return { line: l, continued: true };
      }
      flush(h.line);
    }
    return { line: l, continued: false };
  }

  /** A line is held: the next line may continue it (join). */
  holding(): boolean {
    return this.held !== null;
  }

  /** Whether to hold `l` (read it when the next line shows whether it continues). */
  hold(l: LogLine): boolean {
    if (this.run.inTraceback || this.run.afterException || l.overwritten) return false;
    const body = bodyOf(l);
    const opens = this.opens(l, body);
    if (opens) this.held = { line: l, count: 1, cut: opens.cut };
    else if (this.hangs(body)) this.held = { line: l, count: 1, cut: null, indentOnly: true };
    else return false;
    return true;
  }

  /** A program's error line by its prefix, its sentence not ended (no `.`, `!`, `?`): an indented line may go on with it. */
  private hangs(body: string): boolean {
    return body.length > 0 && !/[.!?]$/.test(body) && errorPrefixIn(body);
  }

  /** The held line, at the end of the log. */
  release(): LogLine | null {
    const h = this.held;
    this.held = null;
    return h ? h.line : null;
  }

  /**
   * Whether a line may go on in the next one (null: it may not). `cut`: it ends inside a catalogue message, which goes on
   * with the message's next words wherever the line was broken (an author's fill, behind a relay's prefix or not,
   * dfc-corpus unseen25/74) — only those words continue it, unless the line is unfinished on its own account too.
   */
  private opens(l: LogLine, body: string): { cut: MessageCut | null } | null {
    const unfinished = this.unfinished(l, body);
    const cut = unfinished || !ENDS_UNFINISHED.test(body) ? null : messageCutIn(body);
    return unfinished || cut ? { cut } : null;
  }

  /** `body`: the line without its level, trimmed (bodyOf). */
  private unfinished(l: LogLine, body: string): boolean {
    // A line ends unfinished on a word, `,`, `:`, a bracket (`shapes [[-1, 128]]` / `for layer …`) or a question HailoRT answers on the next line.
    // A catalogue message cut at one of its own sentence ends goes on, too (endsAtMessageSentence).
    if (!body || TRACEBACK_START.test(body)) return false;
    // A Python warning (`…Warning: message`, CPython's formatwarning) is one line: the indented line after it is its source line.
    if (PY_WARNING_CATEGORY.test(body)) return false;
    if (endsAtMessageSentence(body)) return true;
    if (!ENDS_UNFINISHED.test(body)) return false;
    const lv = level(l.text);
    if (lv === 'error' || lv === 'critical' || lv === 'warning' || exceptionIn(body) !== null || matchDfcMessage(body) !== null || LAYER_HEAD.test(body))
      return true;
    // Any program's failure heading whose detail follows, indented (failureWords.ts): dpkg's `dpkg: error processing
    // archive X (--unpack):` / ` trying to overwrite '…', which is also in package Y`, apt's `The following packages have
    // unmet dependencies:` / ` X : Depends: Y but it is not going to be installed` — the detail names what failed.
    return /:\s*$/.test(body) && failureIn(body) !== null;
  }

  private continues(prev: LogLine, l: LogLine, cut: MessageCut | null): boolean {
    // A relay's level (every relayed line at INFO) does not make a line one of its own: its content says.
    const relayed = l.relayedLevel === true;
    const t = relayed ? withoutLevel(l.text) : l.text;
    const body = t.trim();
    if (
      !body ||
      (level(t) !== null && !relayed) ||
      /^(?:Traceback|File "|During handling|The above exception)/.test(body) ||
      exceptionIn(body) ||
      endsRun(body) ||
      opensSplat(body) ||
      KERNEL_DEVICE_LINE.test(body) ||
      // The shell's prompt back after the program died (`pi@raspberrypi:~/app $ python3 app.py`): the terminal's, never the
      // message's words (dfc-corpus unseen3/11 — `kida-01@kida01:~ $ uname -r` after a HailoRT status ending in `)`).
      (mayHoldPrompt(body) && SHELL_PROMPT.test(body))
    )
      return false;
    // A line held only for the catalogue message it ends inside goes on with that message's next words, and nothing else.
    if (cut) return goesOnWithMessage(cut, body);
    const own = matchDfcMessage(body);
    const afterColon = /:\s*$/.test(prev.text);
    // After a closing parenthesis only a sentence that goes on in lower case continues
    // (`Data shape (3, 640, 640)` / `doesn't match …`); a line of its own starts otherwise.
    if (/\)\s*$/.test(prev.text)) return !own && /^\s*[a-z]/.test(t);
    // A message of its own goes on the line before only as its cause, or as the rest of a sentence cut
    // after a word (`… CHECK_SUCCESS failed` / `  with status=HAILO_X(6) - …`: indented, lower case).
    if (own) return (afterColon && own.message.role === 'cause') || (/[a-z]$/.test(prev.text) && /^\s+[a-z]/.test(t));
    if (afterColon && !relayed) return true;
    // A record of the log's own template (logShape.ts cut it) goes on in a line without it: its message's next
    // line, as Python's logging prints a message with a newline (an exception's text: `… [ERROR]Functionality is not
    // supported` / `License does not allow usage of runtime agent 'HAILORT': Token is not installed: …`).
    if (prev.templated === true && l.templated !== true && !relayed && level(l.text) === null && !OWN_RECORD.test(t)) return true;
    // A literal list (`[[-1, 1, 128, 384]]`) goes on a message too; a `[tag]` starts a line of its own.
    return /^\s+\S/.test(t) || /^[a-z(]|^\[[[\d-]/.test(body);
  }

  /**
   * A run that ends without a Python traceback: the command's argument parser refused it (nothing
   * ran), or a native program died (an uncaught C++ exception, a fatal signal). Either is what the
   * run died of when nothing after it got past. True when the line was one of these.
   */
  private runEnd(l: LogLine, body: string, added: DfcDiagnostic[], prior: { l: LogLine; body: string } | null): boolean {
    // CLI11's refusal (hailortcli's parser): the error's own words, then its footer on the next line.
    if (prior && prior.l.no === l.no - 1 && body.startsWith('Run with ') && CLI11_FOOTER.test(body) && !CLI11_FOOTER.test(prior.body)) {
      this.push(this.explainer.usage(prior.l, null, prior.body), added);
      this.run.openFailure = { kind: 'error-line', cls: null, message: prior.body, frames: [], line: prior.l };
      this.run.lastErrorLine = l.no;
      return true;
    }
    if (body.includes(': error: ') || body.startsWith('Error: ')) {
      const a = ARGPARSE.exec(body);
      const c = a ? null : CLICK.exec(body);
      if (a || c) {
        const message = a ? a[2] : c![1];
        this.push(this.explainer.usage(l, a ? a[1] : null, message), added);
        this.run.openFailure = { kind: 'error-line', cls: null, message, frames: [], line: l };
        this.run.lastErrorLine = l.no;
        return true;
      }
    }
    const choice = body.includes('invalid choice') ? ARGPARSE_CHOICE.exec(body) : null;
    if (choice) {
      const message = body.slice(choice.index).replace(/["`]+$/, '');
      this.push(this.explainer.usage(l, null, message), added);
      this.run.openFailure = { kind: 'error-line', cls: null, message, frames: [], line: l };
      this.run.lastErrorLine = l.no;
      return true;
    }
    // The shell or the package manager refused before any tool ran (a program not installed, a package not found).
    const missing = body.includes(': ') ? (NOT_FOUND.exec(body) ?? ZSH_NOT_FOUND.exec(body)) : null;
    const apt = missing ? null : APT_ERROR.exec(body);
    if (missing || apt) {
      const what = missing ? { program: missing[1] } : { packageName: apt![2] ?? apt![4] ?? apt![5], version: apt![3] ?? null, message: apt![1] };
      this.push(this.explainer.notInstalled(l, what), added);
      this.run.openFailure = { kind: 'error-line', cls: null, message: body, frames: [], line: l };
      this.run.lastErrorLine = l.no;
      // The shell's own refusal of what was typed at it (no script's `line N:`): that command alone, which never ran (refusedLast).
      if (missing && !SCRIPT_LINE.test(body)) this.run.refusedTyped = { line: l.no, program: missing[1] };
      else if (missing) this.run.refusedInScript.add(l.no);
      return true;
    }
    // Each of these lines starts with its own words (anchored: most lines fail at their first character).
    if (!CRASH_START.test(body)) return false;
    // A relay reports the death after whatever else the program and its neighbours printed: it joins the death from further.
    const window = body.startsWith('process has died') || body.includes('Main process exited') ? RELAYED_DEATH_LINES : CRASH_LINES;
    const near = this.run.crash && l.no - this.run.crash.last <= window ? this.run.crash : null;
    let m: RegExpExecArray | null;
    let part: { type?: string; what?: string; signal?: string } | null = null;
    if ((m = CXX_TERMINATE.exec(body))) part = { type: m[1] };
    else if (near && (m = CXX_WHAT.exec(body))) part = { what: m[1].trim() };
    else if ((m = FATAL_SIGNAL.exec(body))) {
      const said = m[1] ?? m[2] ?? m[3];
      part = { signal: LOCALISED_SIGNALS[said] ?? said };
    } else if ((m = FATAL_PYTHON.exec(body))) part = { signal: 'Fatal Python error', what: m[1].trim() };
    else if ((m = RELAYED_DEATH.exec(body)) && FATAL_SIGNALS[m[1] ?? m[2]]) part = { signal: FATAL_SIGNALS[m[1] ?? m[2]] };
    if (!part) return false;
    // A new exception starts a new report; its what() and the signal after it join it.
    const joins = near !== null && (part.type === undefined || (near.type === null && near.signal === null));
    const c = joins ? near : { d: null as unknown as DfcDiagnostic, type: null, what: null, signal: null, last: l.no, excerpt: [] };
    if (part.type !== undefined) c.type = part.type;
    if (part.what !== undefined) c.what = part.what;
    if (part.signal !== undefined) c.signal = part.signal;
    c.last = l.no;
    c.excerpt.push(body);
    // The failure lines right before a death are what the program was doing when it died (`Could not load lib …`, then a segfault).
    const before = this.run.recentFailures.filter((f) => f.no < l.no && l.no - f.no <= CRASH_CAUSE_LINES).map((f) => f.message);
    const d = this.explainer.crashed(l, c, [...c.excerpt], before);
    if (joins) Object.assign(c.d, { message: d.message, excerpt: d.excerpt });
    else {
      c.d = d;
      this.push(d, added);
    }
    this.run.crash = c;
    this.run.openFailure = { kind: 'exception', cls: c.type, message: c.what ?? '', frames: [], line: l };
    this.run.lastErrorLine = l.no;
    return true;
  }

  /** Follows traceback chains; true when the line was the chain's exception line. */
  private trackTraceback(l: LogLine, added: DfcDiagnostic[]): boolean {
    const t = l.text;
    // Substring gates first: most lines of a compile are allocation grids.
    const ipython = t.includes('Traceback') ? IPYTHON_HEADER.exec(t) : null;
    // A frame line outside a traceback: an excerpt that starts inside one (its header cut off).
    // Its frames may stand at the margin (a Markdown fence or a note that dedented the paste, dfc-corpus unseen3/20).
    const headless = !this.run.inTraceback && !this.run.afterException && t.includes('File "') && /^\s*File "[^"]*", line \d+, in \S+/.test(t);
    // Rich prints the header as its panel's title, without the colon (normalise.ts keeps the title).
    if (ipython || headless || (t.startsWith('Traceback') && /^Traceback \(most recent call last\)(?::|\s*$)/.test(t))) {
      if (!this.run.inTraceback && !this.run.afterException) {
        this.run.frames = new FrameList();
        this.run.frameFile = null;
        this.run.chainLines = [];
        this.run.chainStage = null;
        this.run.why.chain = '';
        this.run.tracebackStart = l;
        this.run.chainIntro = this.run.intro;
        this.run.chainProse = this.run.prose;
      }
      this.run.inTraceback = true;
      this.run.afterException = false;
      this.run.ipythonClass = ipython ? ipython[1] : null;
      // Rich's panel title has no colon; its body (frames, code, locals panels) is not indented either.
      this.run.richTraceback = !ipython && !headless && !t.trimEnd().endsWith(':');
      if (!headless) {
        this.keep(t);
        // Until its exception line arrives, the traceback itself is what the run died of.
        this.run.openFailure = this.cutSignal(l);
        return false;
      }
      this.run.openFailure = this.cutSignal(l);
    }
    if (this.run.inTraceback) {
      this.keep(t);
      // Python's frame, another `File path:N, in fn` form, and Rich's `path.py:N in fn` (rich/traceback.py).
      const f =
        /^\s*File "([^"]*)", line \d+, in (\S+)/.exec(t) ?? /^\s*File (\S+?):\d+, in ([\w.<>]+)/.exec(t) ?? /^\s*(\S+?\.pyx?):\d+ in ([\w.<>]+)\s*$/.exec(t);
      const afterFrame = this.run.afterFrame;
      this.run.afterFrame = f !== null;
      if (f) {
        this.run.frames.push(f[2]);
        this.run.frameFile = f[1];
        const fs = stageOfFrame(f[1], f[2]);
        if (fs) [this.run.chainStage, this.run.why.chain] = [fs, `its traceback runs ${f[2]} in ${clip(f[1].split(/[\\/]/).slice(-3).join('/'))}`];
        return false;
      }
      const call = stageOfCall(t);
      if (call && call !== this.run.chainStage) [this.run.chainStage, this.run.why.chain] = [call, `its traceback runs ${clip(t.trim())}`];
      // A Markdown fence closing the pasted block ends the paste inside the traceback: read as a log that stops there.
      if (/^\s*(?:```|~~~)/.test(t) && this.run.tracebackStart) {
        this.run.inTraceback = false;
        const s = { ...this.cutSignal(this.run.tracebackStart), stage: this.run.chainStage };
        this.run.openFailure = s;
        if (this.accept(s, added) === 0) this.run.unexplained = { signal: s, excerpt: [...this.run.chainLines] };
        return false;
      }
      // A frame's code line pasted at the margin (a note or a fence dedented the traceback, dfc-corpus unseen3/20): code,
      // not the exception line, unless it reads as one (`pkg.SomeError: …`, `KeyError`).
      if (afterFrame && t.trim() && !/^\s/.test(t) && !/^[A-Za-z_][\w.]*(?::(?:\s|$)|$)/.test(t.trim())) return false;
      if (this.run.ipythonClass !== null || this.run.richTraceback) {
        // IPython's body (`Cell In[4], line 1`, `----> 1 hef = runner.compile()`) is not indented.
        if (!/^(?:[A-Za-z_][\w.]*\.)?[A-Za-z_]\w*(?:Error|Exception|Failure|Exit|Interrupt)(?::|$)/.test(t.trim())) return false;
      } else if (/^\s/.test(t) || t === '' || t.startsWith('❱')) return false; // Rich marks the frame's own code line with ❱
      // An author's elision inside the traceback (`...`, `…`, `[...]`) leaves it open: the frames after it are its own.
      if (/^(?:\.{3,}|…|\[(?:\.{3}|…)\]|\((?:\.{3}|…)\))$/.test(t.trim())) return false;
      // The exception line ends this traceback: `pkg.mod.SomeError: message` or `SomeError`.
      const m = /^([A-Za-z_][\w.]*?)(?::\s?(.*))?$/.exec(t.trim());
      this.run.inTraceback = false;
      this.run.afterException = true;
      this.run.ipythonClass = null;
      this.run.richTraceback = false;
      if (m && (m[2] !== undefined || /(?:Error|Exception|Exit|Interrupt|Failure)$/.test(m[1]))) {
        const cls = m[1].split('.').pop()!;
        if (this.run.chainStage === null && m[1].includes('.')) {
          this.run.chainStage = stageOfModule(m[1].slice(0, m[1].lastIndexOf('.')));
          if (this.run.chainStage) this.run.why.chain = `its module ${m[1].slice(0, m[1].lastIndexOf('.'))} is the ${this.run.chainStage} stage's code`;
        }
        if (this.run.chainStage === null && (this.run.chainStage = stageOfClass(cls)))
          this.run.why.chain = `its class ${cls} is the ${this.run.chainStage} stage's framework's`;
        // A traceback whose frames name no stage: the stage the author's line before it names, if any.
        const said = this.run.chainStage === null && this.run.chainIntro && !RUNTIME_ERROR.test(m[1]) ? stageSaid(this.run.chainIntro) : null;
        if (said) this.run.saidStage = said;
        else if (this.run.chainStage === null && !RUNTIME_ERROR.test(m[1])) this.algorithmRan('', this.run.chainProse);
        const { frames, omitted } = this.run.frames.snapshot();
        const s: Signal = {
          kind: 'exception',
          cls,
          message: m[2] ?? '',
          frames,
          ...(omitted ? { framesOmitted: omitted } : {}),
          ...(this.run.frameFile ? { file: this.run.frameFile } : {}),
          line: l,
          stage: this.run.chainStage ?? said,
        };
        this.run.lastException = s;
        this.run.messageLines = 0;
        this.run.openFailure = s;
        this.syntaxFrom(s, added);
        const n = this.accept(s, added);
        if (n === 0) this.run.unexplained = { signal: s, excerpt: [...this.run.chainLines] };
      }
      return true;
    }
    if (this.run.afterException) {
      if (t === '' || /^(During handling of the above exception|The above exception was the direct cause)/.test(t)) {
        this.keep(t);
        return false;
      }
      // Continuation of the exception message (indented lines, the `>!<` echo, recommendations).
      if (/^\s|^>!<|^Please try|^Parsing failed/.test(t) || t.includes('>!<')) {
        this.keep(t);
        if (this.run.unexplained && this.run.lastException && this.run.unexplained.signal === this.run.lastException)
          this.run.unexplained.excerpt = [...this.run.chainLines];
        return false;
      }
      // Python prints a message's own line breaks unindented (`…shapes [[-1, 128, 384]]` / `for layer x/conv4 does not
      // match …`): a line going on in lower case or with a literal list continues a message nobody explained yet.
      // A relay's level on it is the relay's (every relayed line at INFO).
      const le = this.run.lastException;
      const own = l.relayedLevel ? withoutLevel(t) : t;
      if (
        le &&
        this.run.unexplained?.signal === le &&
        this.run.messageLines < MAX_JOINED - 1 &&
        level(own) === null &&
        /^(?:[a-z]|\[[[\d-])/.test(own) &&
        !endsRun(own)
      ) {
        this.run.messageLines++;
        this.keep(t);
        le.message = `${le.message.trimEnd()} ${own.trim()}`;
        if (this.accept(le, added) > 0) this.run.unexplained = null;
        else this.run.unexplained.excerpt = [...this.run.chainLines];
        return true;
      }
      this.run.afterException = false;
    }
    return false;
  }

  /** A traceback the log stops inside: its class when IPython printed it first, its frames, its stage. */
  private cutSignal(l: LogLine): Signal {
    const { frames, omitted } = this.run.frames.snapshot();
    return {
      kind: 'exception',
      cls: this.run.ipythonClass,
      message: '',
      frames,
      ...(omitted ? { framesOmitted: omitted } : {}),
      line: l,
      stage: this.run.chainStage,
      cut: true,
    };
  }

  /**
   * What the log shows about the stage of its error: the last traceback's frames or class; else the
   * last DFC code it shows running (a module a line names, an exception class of one stage's framework).
   */
  stageEvidence(): StageName | null {
    return this.run.chainStage ?? this.run.ranStage ?? this.run.saidStage;
  }

  /** What the run's lines show of the stage beyond an error's own evidence (stageEvidence.ts weighs them). */
  stageClues(): StageClue[] {
    const out: StageClue[] = [];
    if (this.run.chainStage) out.push({ stage: this.run.chainStage, kind: 'error', reason: this.run.why.chain || "its traceback's DFC frames" });
    else if (this.run.ownStage) out.push({ stage: this.run.ownStage, kind: 'error', reason: this.run.why.own });
    if (this.run.ranStage) out.push({ stage: this.run.ranStage, kind: 'ran', reason: this.run.why.ran || "the log shows the stage's DFC code" });
    if (this.run.callStage && this.run.callStages.size === 1) out.push({ stage: this.run.callStage, kind: 'call', reason: this.run.why.call });
    if (this.run.saidStage) out.push({ stage: this.run.saidStage, kind: 'said', reason: 'the stage the author names where they quote the error' });
    return out;
  }

  /**
   * An error no stage's evidence places, after the author's words name the optimizer's algorithm that ran into it (on
   * its line before the class, or the line before: `跑到 bias_correction 丟` / `ValueError: …`, dfc-corpus unseen14/57):
   * what was running — the optimize stage, the algorithm named as the reason.
   */
  private algorithmRan(before: string, prose: string | null): void {
    const algorithm = optimizerAlgorithmIn(before) ?? (prose ? optimizerAlgorithmIn(prose) : null);
    if (!algorithm) return;
    this.run.ranStage = 'optimize';
    this.run.why.ran = `the line before it says the optimizer's ${algorithm} was running`;
  }

  /**
   * The author's next lines after a failure they told in words with the step that failed (`… Hailo's parser also couldn't handle`,
   * then `(\`IndexError\` deep in \`is_windows_to_input_chain_end\`). Replaced with \`torch.flatten(x, 1)\`, …`, dfc-corpus
   * unseen24/38): the rest of its paragraph — what raised it, what they changed — said with it, as a quoted refusal's words after
   * the quote are (quotedRefusals' `after`): at most two lines, two sentences; a blank line, a list's next item, a level tag or another
   * failure ends it.
   */
  private told(l: LogLine, written: string): void {
    const t = this.run.toldFailure;
    if (!t || l.no <= t.signal.line.no) return;
    // A list's next item (`- `, `* `, `2. ` in the line as pasted) is another point of the author's, not this one's rest.
    const item = /^\s*(?:[-*+\u2022]|\d{1,3}[.)])\s/.test(l.raw);
    if (!written.trim() || item || level(l.text) !== null || failureIn(withoutLevel(l.text).trim()) !== null || t.lines >= 2) {
      this.run.toldFailure = null;
      return;
    }
    t.text = `${t.text} ${written.replace(/`/g, '').trim()}`.trim();
    t.lines++;
    t.signal.after = clipAfter(t.text);
  }

  /** The parser retried with its recommended end nodes: a warning that the outputs changed. */
  endNodesRetried(l: LogLine, nodes: string[]): void {
    this.push(this.explainer.endNodesChanged(l, nodes), []);
  }

  private keep(t: string): void {
    this.run.chainLines.push(t);
    if (this.run.chainLines.length > EXCERPT_LINES) this.run.chainLines.splice(0, this.run.chainLines.length - EXCERPT_LINES);
  }

  private recent(l: LogLine): string[] {
    return this.run.chainLines.length && this.run.afterException ? [...this.run.chainLines, l.text] : [l.text];
  }

  /** `(line:L, col:C)` on an exception line: a model-script syntax error whose echo may follow. */
  private syntaxFrom(s: Signal, added: DfcDiagnostic[]): void {
    const m = /\(line:(\d+), col:(\d+)\)/.exec(s.message);
    if (!m && !/Parsing failed at:/.test(s.message)) return;
    const prior = this.run.pendingSyntax;
    const echoAt = s.message.indexOf('>!<') >= 0 ? s.message.slice(s.message.indexOf('Parsing failed at:') + 18).trim() : null;
    this.run.pendingSyntax = {
      signal: prior?.signal ?? s,
      lineNo: m ? Number(m[1]) : (prior?.lineNo ?? null),
      column: m ? Number(m[2]) : (prior?.column ?? null),
      message: prior && !m ? prior.message : s.message,
      echo: echoAt || null,
    };
    if (this.run.pendingSyntax.echo) this.flushSyntax(added);
  }

  private flushSyntax(added: DfcDiagnostic[]): void {
    const p = this.run.pendingSyntax;
    if (!p) return;
    this.run.pendingSyntax = null;
    this.push(this.explainer.syntax(p.signal, p.lineNo, p.column, p.message, p.echo), added);
  }

  /** Runs the explainer on a signal; returns how many diagnostics it produced (0 = unexplained). */
  private accept(s: Signal, added: DfcDiagnostic[]): number {
    this.explainer.evidence = s.stage ?? null;
    const ds = this.explainer.explain(s);
    if (ds === null) return 0;
    if (s.warned) for (const d of ds) if (d.severity === 'error') d.severity = 'warning';
    for (const d of ds) this.push(d, added);
    if (this.run.unexplained && ds.length) this.run.unexplained = null;
    return Math.max(1, ds.length);
  }

  private push(d: DfcDiagnostic | DfcDiagnostic[] | null, added: DfcDiagnostic[]): void {
    if (!d) return;
    if (Array.isArray(d)) {
      for (const x of d) this.push(x, added);
      return;
    }
    const key = `${d.code}|${d.node ?? ''}|${d.path}|${d.node ? '' : d.line}|${d.node ? '' : d.message}`;
    if (this.run.keys.has(key)) return;
    // A run stopped by its user or a signal: what the DFC printed on its way out (`Failed to produce compiled graph`,
    // `Compilation failed with unexpected crash`) is the stop, not a compiler bug — unless an assertion says otherwise.
    if (STOPPED.has(d.code)) {
      for (let i = this.out.length - 1; i >= this.runStart; i--) if (stopTrace(this.out[i])) this.out.splice(i, 1);
    } else if (stopTrace(d) && this.out.slice(this.runStart).some((x) => STOPPED.has(x.code))) return;
    // One compiler bug / allocation failure / docker refusal, however many lines report it: later
    // lines join its excerpt, and a line that names the layer or context makes the message precise.
    if (MERGED.has(d.code) || d.code.startsWith('hailort/')) {
      const prior = this.out.slice(this.runStart).find((x) => x.code === d.code);
      if (prior) {
        const lines = [...(prior.excerpt ?? []), ...(d.excerpt ?? [])];
        prior.excerpt = [...new Set(lines)];
        if (d.code === 'dfc/allocation-failed' && allocationDetail(d.message) > allocationDetail(prior.message)) {
          Object.assign(prior, {
            path: d.path,
            line: d.line,
            column: d.column,
            endLine: d.endLine,
            endColumn: d.endColumn,
            message: d.message,
            logLine: d.logLine,
          });
        }
        return;
      }
    }
    // One exception relayed, then raised: a wrapper logs `str(e)` (Ultralytics' `Hailo: export failure 3.1s: …`) before the
    // traceback ends in the same exception — the same error in the same words within one run is one failure.
    if (
      d.severity === 'error' &&
      d.node === undefined &&
      this.out.slice(this.runStart).some((x) => x.severity === 'error' && x.code === d.code && x.message === d.message)
    )
      return;
    if (this.out.length >= MAX_DIAGNOSTICS) {
      this.dropped++;
      return;
    }
    this.run.keys.add(key);
    this.out.push(d);
    added.push(d);
    if (d.severity === 'error' && this.run.firstErrorStage === null) this.run.firstErrorStage = this.explainer.stageOf(d);
  }

  /** The run went on after the last exception (a stage started or finished). */
  progressed(): void {
    this.run.openFailure = null;
    this.run.lastErrorLine = null;
    this.run.callStages.clear();
    this.gotPastWords();
  }

  /** The run printed its answer after all (hailortcli's result): an earlier error line did not end it. */
  answered(at?: number): void {
    this.run.lastErrorLine = null;
    this.gotPastWords();
    if (at !== undefined && this.run.refusedInScript.size) this.scriptWentOn(at);
  }

  /**
   * A script's command the shell refused as not found (`./hailo_ai_sw_suite_docker_run.sh: line 14: lspci: command not found`)
   * fails that command alone: bash runs the script's next line (only `set -e` stops it). When the run's answer follows (the
   * container the script started printing its welcome, dfc-corpus unseen24/34), the script went on past it: a warning that says so.
   */
  private scriptWentOn(at: number): void {
    for (const d of this.out.slice(this.runStart)) {
      if (d.severity !== 'error' || !this.run.refusedInScript.has(d.logLine)) continue;
      d.severity = 'warning';
      d.message = `The script went on past this and the run gave its answer (line ${at}): ${d.message}`;
      if (this.run.openFailure?.line.no === d.logLine) this.run.openFailure = null;
    }
    this.run.refusedInScript.clear();
    const first = this.out.slice(this.runStart).find((d) => d.severity === 'error');
    this.run.firstErrorStage = first ? this.explainer.stageOf(first) : null;
  }

  /**
   * A failure told only by an author's words (no level, no step named) as what something is — a relative clause describing a
   * noun (DESCRIBED: `a high host UID that can't write the mounted host folder`) — after the run's program raised an exception
   * nobody explained: their account of that exception's cause (`PermissionError: … /workspace/pyhailort.log` above it, a
   * guide's troubleshooting entry, dfc-corpus unseen27/37), not a failure of its own; the program's typed error stays the
   * run's. A step told as failing (`failed while classifying a reshape`, a list of separate failures) is one of its own.
   */
  private explainsException(s: Signal, wordsOnly: boolean): boolean {
    const u = this.run.unexplained?.signal;
    return wordsOnly && u !== undefined && u.kind === 'exception' && u.line.no < s.line.no;
  }

  /**
   * The run got past failures told by words alone (TensorFlow's `Unable to register cuDNN factory` before a stage):
   * they are not what a later end without an error line died of (noErrorShown says that), nor what it began with.
   */
  private gotPastWords(): void {
    if (this.run.unexplained?.signal.words !== undefined) this.run.unexplained = null;
    if (this.run.firstUnexplained?.words !== undefined) this.run.firstUnexplained = null;
    this.run.recentFailures = [];
    this.run.rowFailures = [];
  }

  /**
   * A program's own word that something succeeded (markers.ts `succeeded`): a failure told by its words alone
   * before it was got past (a fallback the script took, a retry that worked); a tagged error line or an exception is not.
   */
  succeeded(): void {
    if (this.run.wordsOnly && this.run.openFailure === null) {
      this.run.lastErrorLine = null;
      this.gotPastWords();
    }
  }

  /**
   * The log's last word is an error: an error-level line or an exception with no stage, progress or
   * answer after it. How an application's run (pyhailort, GenAI, hailortcli — no DFC stage) that
   * died of it reads; warnings alone are no failure.
   */
  endsInError(): boolean {
    return this.run.lastErrorLine !== null || this.run.openFailure !== null;
  }

  /**
   * The program the interactive shell refused as not found when it was typed at it (`bash: souce: command not found`), when
   * that refusal is the run's last error: the command never ran (state.ts reads a retyped one as the user's retry).
   */
  refusedLast(): string | null {
    const r = this.run.refusedTyped;
    return r !== null && r.line === this.run.lastErrorLine ? r.program : null;
  }

  /** The log ends in an exception nothing recovered from. */
  endsInException(): boolean {
    return this.run.openFailure !== null;
  }

  /** The stage of the first error, `docker` when docker refused. */
  failedStage(): StageName | 'docker' | 'unknown' | null {
    return this.run.firstErrorStage;
  }

  hasErrors(): boolean {
    return this.out.some((d) => d.severity === 'error');
  }

  /** Whether the log's last line, `lastNo`, is a kernel splat's (kernelSplat.ts endsInside). */
  endsInSplat(lastNo: number): boolean {
    return this.run.splats.endsInside(lastNo);
  }

  /**
   * The log goes on with another command after a run that ended in an error (a user's retry after a
   * typo, a second attempt): the last run decides the outcome. The earlier run's errors stay, as
   * warnings that say so; its unfinished traceback and open failure are its own.
   */
  newRun(added?: DfcDiagnostic[]): void {
    // The earlier run ended in an error line no entry explains and nothing got past (`[HailoRT CLI] [error] CHECK failed -
    // … Use "run2" instead.`, then the retry): its words are that run's failure, said as at a log's end (unexplainedIfNone).
    if (added && !this.hasErrors() && this.run.unexplained && this.endsInError())
      this.push(this.explainer.unrecognised(this.run.unexplained.signal, this.run.unexplained.excerpt, undefined), added);
    // A model-script syntax error still waiting for its `>!<` echo: the run that raised it ended without one.
    this.flushSyntax(added ?? []);
    const demoted: { d: DfcDiagnostic; message: string }[] = [];
    for (const d of this.out.slice(this.runStart)) {
      if (d.severity !== 'error') continue;
      demoted.push({ d, message: d.message });
      d.severity = 'warning';
      d.message = `An earlier run in this log failed (the command after it decides the outcome): ${d.message}`;
    }
    this.earlier = demoted.length ? { demoted, runStart: this.runStart, firstErrorStage: this.run.firstErrorStage } : null;
    this.explainer.newRun();
    this.runStart = this.out.length;
    this.run = new CollectorRun();
  }

  /** The failed run before the current one, as it was before newRun made its errors warnings. */
  private earlier: { demoted: { d: DfcDiagnostic; message: string }[]; runStart: number; firstErrorStage: StageName | 'docker' | 'unknown' | null } | null =
    null;

  /**
   * The run after a failed one showed nothing but its own start (a HailoRT log file's next session cut after its
   * `Creating vdevice`): it decides nothing, so the failed run's errors are the log's.
   */
  reinstateEarlierRun(): boolean {
    const e = this.earlier;
    if (!e || this.out.length > this.runStart) return false;
    for (const { d, message } of e.demoted) {
      d.severity = 'error';
      d.message = message;
    }
    this.runStart = e.runStart;
    this.run.firstErrorStage = e.firstErrorStage;
    this.earlier = null;
    return true;
  }

  /** Where the diagnostics of the log's current run begin (newRun). */
  private runStart = 0;

  /**
   * A HailoRT call that failed (its error chain on log lines from..to) was called again by the same thread and went past
   * where it had failed (state.ts hailortGotPast): the chain's errors were got past, and are warnings that say so.
   */
  gotPastCall(from: number, to: number, call: string, at: number): void {
    for (const d of this.out.slice(this.runStart)) {
      if (d.severity !== 'error' || d.logLine < from || d.logLine > to) continue;
      d.severity = 'warning';
      d.message = `The same thread called ${call} again and got past this (line ${at}): ${d.message}`;
    }
    const first = this.out.slice(this.runStart).find((d) => d.severity === 'error');
    this.run.firstErrorStage = first ? this.explainer.stageOf(first) : null;
    this.progressed();
  }

  /**
   * An author's line that tells its attempts in order goes on, after a failure of a stage, to that stage's end with nothing failing
   * after it (`greedy+0.8 → 4 ctx → PrePostAgent infeasible. greedy+0.9 → 3 ctx → SUCCESS. … x.hef (9.1 MB) generated`, a changelog,
   * dfc-corpus unseen26/34; state.ts): the failure was an earlier attempt's, which the line's last one got past — the stage's
   * errors on the line are warnings that say so, as a stage that finished on a later line recovers its errors (recovered).
   */
  gotPastInLine(no: number, stage: StageName, end: string): void {
    let changed = false;
    for (const d of this.out.slice(this.runStart)) {
      if (d.severity !== 'error' || d.logLine !== no || this.explainer.stageOf(d) !== stage) continue;
      d.severity = 'warning';
      d.message = `A later attempt the same line tells got past this (the ${stage} stage ended: «${clipWords(end)}»): ${d.message}`;
      changed = true;
    }
    if (!changed) return;
    const first = this.out.slice(this.runStart).find((d) => d.severity === 'error');
    this.run.firstErrorStage = first ? this.explainer.stageOf(first) : null;
    this.progressed();
  }

  /** A stage finished after all: its errors were recovered from (the DFC's retry succeeded). */
  recovered(stage: StageName): void {
    for (const d of this.out.slice(this.runStart)) {
      if (d.severity === 'error' && this.explainer.stageOf(d) === stage) {
        d.severity = 'warning';
        d.message = `The DFC recovered from this (the ${stage} stage completed): ${d.message}`;
      }
    }
    if (this.run.firstErrorStage === stage)
      this.run.firstErrorStage = this.out.find((d) => d.severity === 'error') ? this.explainer.stageOf(this.out.find((d) => d.severity === 'error')!) : null;
  }

  diagnostics(): DfcDiagnostic[] {
    const out = this.out.map((d) => ({ ...d }));
    if (this.run.pendingSyntax) {
      const d = this.explainer.syntax(
        this.run.pendingSyntax.signal,
        this.run.pendingSyntax.lineNo,
        this.run.pendingSyntax.column,
        this.run.pendingSyntax.message,
        null,
      );
      if (d) out.push(d);
    }
    return out;
  }

  /** The parser's recommendation can come after the entries it is about: every node error offers it. */
  recommendation(nodes: string[]): void {
    for (const d of this.out.slice(this.runStart)) {
      if (d.node !== undefined && d.code !== 'dfc/misspelled-node' && /^dfc\/(unsupported|unexpected)/.test(d.code)) {
        d.fix = { kind: 'endNodes', nodes: [...nodes] };
        d.message = d.message.replace(/Cut the graph before it[^]*$/, cutAtRecommended(nodes));
      }
    }
  }

  noteRetry(): void {
    this.explainer.noteRetry();
  }

  /** At the end: settles a pending syntax error and the exit status. */
  settle(exit: DfcExit | undefined, lastLine: number): DfcDiagnostic[] {
    const added: DfcDiagnostic[] = [];
    this.flushSyntax(added);
    if (this.run.inTraceback && this.run.tracebackStart) {
      // The log stops inside a traceback (no exception line): the frames are all there is.
      const s = { ...this.cutSignal(this.run.tracebackStart), stage: this.run.chainStage };
      this.run.openFailure = s;
      if (this.accept(s, added) === 0) this.run.unexplained = { signal: s, excerpt: [...this.run.chainLines] };
    }
    this.push(this.explainer.exit(exit, lastLine), added);
    this.sayCauses();
    return added;
  }

  /** A failed run with no explained error: the last error signal, quoted. */
  unexplainedIfNone(exit: DfcExit | undefined): DfcDiagnostic[] {
    const added: DfcDiagnostic[] = [];
    if (!this.hasErrors() && this.run.unexplained && stoppedByCaller(exit) === null) {
      const { signal } = this.run.unexplained;
      const first = this.run.firstUnexplained && this.run.firstUnexplained !== signal ? this.run.firstUnexplained : null;
      // The table's other rows' failures (rowFailures), between the first and the last: incidents of their own, each said.
      const rows = this.run.rowFailures.filter((f) => f.no !== signal.line.no && f.no !== first?.line.no).map((f) => f.message);
      this.push(this.explainer.unrecognised(signal, this.run.unexplained.excerpt, first?.message, rows), added);
    } else if (!this.hasErrors() && stoppedByCaller(exit) === null && exit?.code) this.push(this.explainer.noErrorShown(exit.code, this.lastLineNo), added);
    return added;
  }

  all(): DfcDiagnostic[] {
    return this.out;
  }
}
