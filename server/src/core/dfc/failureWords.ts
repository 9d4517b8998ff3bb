// How any program says it failed — a grammar, not a list of programs (issue 30, docs/dfc-log.md "Any program's own
// words that it failed"). The reader knows the DFC's and HailoRT's messages by the catalogue; the tools around
// them — a GStreamer pipeline, pkg-config, an install script, `docker build`, the dynamic loader, pip, a post-install
// step — report their failures in words every such tool uses: an error word as the line's prefix (`error: …`,
// `E: …`, `prog: error: …`), `failed`, `could not`/`cannot`/`unable to`, `not found`/`No such file or
// directory`/`not installed`/`does not exist`/`not in the list of … versions`/apt's `unmet dependencies`, a device `disconnected`, a non-zero exit status. A line that
// says so (and no negation, condition or narrator's `I`/`we` around it) is a failure line of whatever ran; the
// collector (errors.ts) makes it the run's end when nothing after it shows the run got past it.
//
// Bounded: one gate of plain words first (most lines hold none), then patterns without nested quantifiers on the
// line's first HEAD characters (hostile-dfclog.test.ts runs them on 60,000-character lines).

/** What in the line says it failed (for the diagnostic's words). */
export type FailureKind = 'error-word' | 'failed' | 'cannot' | 'missing' | 'lost' | 'exit-status' | 'threw' | 'invalid' | 'during';

export interface FailureWords {
  kind: FailureKind;
  /** The words that say it (`could not link`, `not found`, `exit code: 1`). */
  words: string;
}

const HEAD = 2000;
/** The line's first HEAD characters, what every test here reads. */
const head = (body: string): string => (body.length > HEAD ? body.slice(0, HEAD) : body);

/** A cheap gate: every failure line holds one of these (case-insensitively). */
const MAY_FAIL =
  /fail|could|can(?:no|')t|unable|n't|not |unmet|no such|no package|exist|error|exit|non-zero|E: |disconnected|inaccessible|unreachable|responding|threw|exception|Invalid |undefined symbol|crash|\*\*\* /i;

/**
 * An error word as the line's prefix: `error: …` (pip, gcc, cargo), `E: …` (apt), `prog: error: …` (collect2), `fatal: …` (git) — not `Error: none`.
 * The program or file before it may carry the GNU form's position, `file:line:column: ` (GNU Coding Standards, "Formatting
 * Error Messages": `sourcefile:lineno:column: message`; gcc's and clang's `monitor.c:53:5: error: …`, `x.c:1:10: fatal error: …`).
 * The message's first character is looked at, not taken: the words quoted are the prefix alone (`E:`, not `E: T`).
 */
const ERROR_PREFIX =
  /^(?:[\w.+/~-]{1,200}(?::\d{1,7}){0,2}: )?(?:E|error|Error|ERROR|fatal|Fatal|FATAL|fatal error)(?::| - )\s*(?!(?:[Nn]one|[Nn]ull|[Nn]\/[Aa]|0|[Ff]alse)\b)(?=\S)/;
/**
 * dpkg's report on one archive or package, `dpkg: error processing archive X (--unpack):` / `error processing package X
 * (--configure):`, its reason on the indented line after it (dpkg src/main/errors.c, print_error_perpackage).
 */
const ERROR_PROCESSING = /^[\w.+/~-]{1,200}: error processing (?=\S)/;
/** Whether the line opens with an error word as its prefix (ERROR_PREFIX: apt's `E: `, `error: `, git's `fatal: `). */
export function errorPrefixIn(body: string): boolean {
  return ERROR_PREFIX.test(head(body));
}
/**
 * GNU make's fatal error, `make[2]: *** No rule to make target 'X', needed by 'Y'.  Stop.` (GNU make's fatal(): `%s: *** %s.
 * Stop.`): the build stopped there, as ninja's `ninja: error: 'X', needed by 'Y', missing` says (dfc-corpus unseen26/43). A
 * recipe's `*** [target] Error N` is not: it repeats a failure the compiler's lines before it said (unseen22/69).
 */
const MAKE_STOPPED = /^[\w.+/~-]{1,200}(?:\[\d{1,4}\])?: \*\*\*(?= (?!\[)\S.{0,2000}\.\s+Stop\.\s*$)/;
/**
 * A program's report that what it was given is invalid, its message's first word (`Invalid kernel shape for conv down_proj, Groups:
 * 0`, the DFC's compile, dfc-corpus unseen23/04; ffmpeg's `input.mp4: Invalid data found when processing input`): `Invalid`, its
 * noun, then what it was for or where — never a word inside a sentence (`an invalid value`).
 */
const INVALID = /^(?:[\w.+/~-]{1,200}: )?Invalid (?:[a-z][\w-]{0,30} ){0,3}?(?:for|of|in|on|at|found|given|passed|specified)\b/;
/**
 * The CUDA driver API's error by its name, with its description or alone (`CUDA_ERROR_NOT_INITIALIZED: initialization error`:
 * cuGetErrorName and cuGetErrorString, as TensorFlow, PyTorch and CuPy print a failed call's CUresult): the GPU's runtime refused.
 */
const CUDA_ERROR = /\bCUDA_ERROR_[A-Z_]{2,60}(?=: \S|\s*$)/;

/** Whether the line says the CUDA runtime failed (CUDA_ERROR): the GPU, which of the DFC's steps only the optimizer computes on. */
export function cudaFailureIn(body: string): boolean {
  return body.includes('CUDA_ERROR_') && CUDA_ERROR.test(head(body));
}

/**
 * A failure as a noun with the step it came in: `kernel-validation errors during allocation`, `an internal \`map::at\` crash during
 * multi-context partitioning` (an author's list of the ways a compile failed, dfc-corpus unseen24/12). The noun alone (`errors`) is
 * anyone's word; with `during`/`while` it says a step went wrong there — the step is the place after it (stageFailedSaid). A verb
 * (`… can cause MSVC to crash during compilation`) is a possibility, not a report.
 */
const DURING = /(?<!\b(?:to|can|could|will|may|might|would) )\b(?:errors?|crash(?:es)?|failures?)(?= (?:during|while) \S)/i;
/** `X failed`, `failed to`, `Failed:`, `FAILED` (never `fails`: that is an author telling a story). */
const FAILED = /\b(?:failed|FAILED|Failed)\b/;
const CANNOT = /\b(?:cannot|can't|could not|couldn't|unable to)\b/i;
/**
 * Source that does not build, said of the thing (`The hailo1x_pci 5.3.0 source does not compile until you patch …`, a
 * runbook's kernel ≥ 6.15 note, dfc-corpus unseen25/73; `the module doesn't build against 6.12`): what `error: …` says of
 * the compiler's run, as `does not exist` says a file is missing. A narrator's `it does not compile` stays the author's story.
 */
const NOT_BUILT = /\b(?:does not|doesn't|do not|don't|did not|didn't|won't|will not) (?:compile|build)\b/i;
/**
 * … and the dynamic loader's refusal of a library built against another version of one it links (glibc's dlerror
 * `libtorch_cuda.so: undefined symbol: ncclCommWindowDeregister`, ld.so's `symbol lookup error: … undefined symbol: X`): the
 * symbol is missing from the library the loader found.
 */
const MISSING =
  /\b(?:not found|No such file or directory|not installed|does not exist|doesn't exist|No package '[^']{1,128}' found|unmet dependenc(?:y|ies)|not in (?:the )?(?:list of )?(?:required |supported |allowed )?versions?|undefined symbol(?=: \S))\b/i;
/**
 * A device or peer the program lost (`Device disconnected while opening device`, the hailo_pci driver's; `device
 * inaccessible`, the PCI core's `Unable to change power state …, device inaccessible`; `not responding`).
 */
const LOST = /\b(?:disconnected|inaccessible|unreachable|not responding|stopped responding)\b/i;
/**
 * A program's own report that a part of it threw and the run stopped there: `Postprocess  threw exception: …` (a C++
 * application's catch around its post-process, dfc-corpus unseen17/59; Quartz's `JobListener '…' threw exception: …`, a
 * PowerShell job's `… threw exception: $_`), .NET's `Unhandled exception. System.…`, `Uncaught exception: …`. The words are
 * the verb alone, so a narrator's `it threw exception …` is the author's story (NARRATOR).
 */
const THREW = /\bthrew(?= (?:an? )?exception\b)|\b(?:[Uu]nhandled|[Uu]ncaught) [Ee]xception\b/;
const EXIT_STATUS =
  /\b(?:exit(?:ed)?(?: with)? (?:code|status)[:=]? ?-?[1-9]\d{0,2}\b|returned (?:a )?non-zero (?:code|exit status)(?::? ?\d{1,3})?|non-zero exit (?:code|status))/i;

/** Words that make the failure not one: a negation, a count of none, a condition, a cure. */
const NOT_A_FAILURE =
  /\b(?:0 (?:failed|errors?)|no (?:errors?|failures?)\b|not failed|never failed|without (?:fail\w*|errors?)|if|unless|whether|in case|avoid\w*|prevent\w*|fix(?:ed|es)?|solv\w*|resolv\w*|no longer|instead|ignor\w*)\b/i;
/** A modal verb in the clause before them: a possibility, not a report (lower case: `May  6 09:12:33` is a date). */
const MODAL = /\b(?:would|might|may|should)\b/;
/**
 * A warning's words before them: a program's own `warning:` (`HailoRT warning: Cannot create log file …`), a ⚠ mark, apt's `W: `
 * and `N: ` (`W: Some index files failed to download`), glog's and absl's W or I letter before `file.cc:N]` (TensorFlow's `W tensorflow/…/gpu_device.cc:1956] Cannot dlopen …`).
 */
const WARNED = /\bwarn(?:ing)?\b|^[WN]: |^\u26a0|(?:^|: )[WI](?:\d{4} [\d:.]{8,20} +\d{1,10})? [\w./-]{1,200}:\d{1,6}\] /i;
/** Whether the text holds a warning's words (WARNED): a program's `warning:`, ⚠, apt's `W: `, glog's W letter. */
export function warnedIn(text: string): boolean {
  return WARNED.test(head(text));
}
/**
 * A line of code that prints or raises the words (a pasted script: `echo "Error: HailoRT not installed"`,
 * `raise RuntimeError("could not open")`, `logger.error(…)`), not a program's report of what happened.
 */
const CODE = /^(?:echo|printf|print|raise|throw|die|(?:self\.)?log(?:ger)?\.\w+|console\.\w+|std::cerr|fprintf|sys\.exit|return)\b[ (]/;
/** A sentence that says the program reports it as a warning (`… can't open the log for append and emits the warning`, unseen24/67). */
const TOLD_AS_WARNING = /\b(?:emits|emitted|prints|printed|logs|logged|shows|issues|issued) (?:a|the|this|that) warning\b/i;
/** A line that tells of a failure as past or cured (`used to fail with …`, `fixed: …`, `works now`), wherever it says so. */
const CURED = /\b(?:fixed|solved|resolved|workaround|used to|previously|no longer|works now|now (?:it )?works)\b/i;
/**
 * The program says it goes on past them (`not found, skipping`, `… failed, falling back to CPU`, an optional part), or on an
 * assumption in place of what it could not learn (`Could not test for SecureBoot, assuming SecureBoot is disabled on this
 * machine.`, the Hailo PCIe driver package's installer, dfc-corpus unseen25/12; `cannot determine …, assuming …`).
 */
const GOES_ON =
  /\b(?:skipp(?:ing|ed)|ignor(?:ing|ed)|continu(?:ing|es)|falling back|fall(?:s)? back|using (?:the )?default|optional(?:ly)?|retrying|will retry|assuming)\b/i;
/**
 * A video sink's word that the user closed its window: GStreamer's display sinks post it as an error (xvimagesink,
 * ximagesink, gtk4paintablesink, the D3D11/D3D12 sinks: `GST_ELEMENT_ERROR (…, RESOURCE, NOT_FOUND, ("Output window was closed"), …)`,
 * gst-resource-error-quark code 3), and an application prints it as it would any bus error (hailo-apps' `Error:
 * gst-resource-error-quark: Output window was closed (3)`, gst-launch's `ERROR: from element …: Output window was closed`). It is how
 * a live display pipeline ends when its user closes it — applications test for it and quit as on any normal end — not a failure.
 */
const WINDOW_CLOSED = /\bOutput window was closed\b/;
/** Whether the line is a display sink's word that its user closed its window (WINDOW_CLOSED): the application's end. */
export function windowClosedIn(body: string): boolean {
  return body.includes('window was closed') && WINDOW_CLOSED.test(head(body));
}
/** Whether the line's program says it goes on past what it could not do (GOES_ON): no failure, whatever its first words. */
export function goesOnIn(body: string): boolean {
  return GOES_ON.test(head(body));
}
/**
 * The compiler's single-context attempt as the subject of the words (`single-context presolve failed \`lcus=(110/80)\``, `Single
 * context fails: …`): the allocator tries one context first and, when the resources a single context has are short, says so and
 * goes on to split the network — the DFC's own line is `[info] Single context flow failed: Recoverable single context error`, then
 * `Using Multi-context flow` (test/fixtures/dfc-corpus, e.g. unseen14/51; library file id 59218690720). A step it recovers from is no
 * failure of the run. The subject stands within the words' clause, or at the end of the line before (an author's hard wrap).
 */
/** The same step as the object right after the words (`A second compile … failed single context again in 28m 33s, then accepted 17 contexts`). */
const RECOVERED_OBJECT = /^\s+(?:in |at |on )?(?:the )?single[- ]context\b/i;
const RECOVERED_STEP =
  /\bsingle[- ]context\b(?:[- ](?:flow|presolve|attempt|compil\w*|allocation|partition\w*|mapping|solution|fit))?(?:(?!multi)[^.;!?|]){0,40}$/i;
/**
 * A program's own error about its teardown (`Error during cleanup: cannot join current thread`, an application's atexit handler;
 * `ERROR - Error during shutdown: …`, a service manager's): the words put the failure in the release of what the run used, after
 * its work — not in the work itself. Whether the run had already given its answer decides what it means (errors.ts).
 */
const TEARDOWN =
  /^(?:\S{1,40}: )?(?:error|exception|failure|failed|problem)\b[^.:]{0,40}?\b(?:during|while|in|on)\s+(?:the\s+)?(?:final\s+)?(?:cleanup|clean-up|clean up|cleaning up|teardown|tear-down|tearing down|shutdown|shut-down|shutting down)\b/i;
/** Whether the line's own words say its failure happened while the program tore down (TEARDOWN). */
export function teardownIn(body: string): boolean {
  return TEARDOWN.test(head(body));
}
/** The words counted as none right after them (`failed: 0`, `failed 0`). */
const NONE_AFTER = /^:? ?0\b/;
/** A narrator's sentence (`I could not…`, `we cannot…`, `it fails…`): an author's story, not a program's report. */
// It must end where the words end: the narrator's own verb is them (`It fails with ❌ Post-installation failed` quotes a program's `failed`).
const NARRATOR =
  /(?:^|[^\w'])(?:I|i|I'm|I've|we|We|my|My|our|Our|you|You|it|It|they|They)\s+(?:\w+\s+)?(?:cannot|can't|could not|couldn't|am unable|are unable|is unable|was unable|failed|fails|threw|did not|didn't)(?:\s+to)?$/;

/**
 * A question why the author sees or gets something (`Any idea why I'm seeing … failed with …?`, `Does anyone know why I get …
 * failed to open …?`): it presupposes what they saw — the failure happened, and its words are the program's. Any other
 * question says nothing (`Why could not the pipeline link?`, `Does it fail …?`, `How do I avoid …?`).
 */
const WHY_ASKED =
  /(?:^|[.!:]\s+)(?:(?:any|no) (?:idea|ideas|clue|clues) |does anyone know |do you know |can (?:someone|anyone) (?:explain|tell me) )?why (?:I'm|I am|am I|we're|we are|are we|I|we|do I|do we) (?:keep )?(?:seeing|getting|see|get|got|saw)\b(?:[^.!?]|[.!?](?=\S))*\?\s*$/i;

/**
 * The words that say a line's program failed, or null. `body` is the line without its level tag. A question
 * (`…?`) and a narrator's sentence say nothing; the words must not be negated or conditioned before them. `lead`: the line
 * before in the author's paragraph, where the clause of the words may begin.
 */
export function failureIn(body: string, lead = ''): FailureWords | null {
  const s = head(body);
  if (!MAY_FAIL.test(s) || (/\?\s*$/.test(s) && !WHY_ASKED.test(s)) || CODE.test(s) || windowClosedIn(s)) return null;
  const hit = firstHit(s);
  if (!hit) return null;
  // A negation or condition in the clause before the words (`no errors`, `if it is not found`), or the words counted as none (`failed: 0`).
  const end = hit.at + hit.words.length;
  const before = s.slice(clauseStartBefore(s, hit.at), end);
  if (
    NOT_A_FAILURE.test(before) ||
    MODAL.test(before) ||
    NONE_AFTER.test(s.slice(end, end + 4)) ||
    NARRATOR.test(before) ||
    RECOVERED_OBJECT.test(s.slice(end, end + 40)) ||
    RECOVERED_STEP.test(clauseStartBefore(s, hit.at) === 0 && lead ? `${lead} ${s.slice(0, hit.at)}` : s.slice(clauseStartBefore(s, hit.at), hit.at)) ||
    WARNED.test(s.slice(0, hit.at)) ||
    CURED.test(sentenceAround(s, hit.at, end)) ||
    TOLD_AS_WARNING.test(sentenceAround(s, hit.at, end)) ||
    GOES_ON.test(s)
  )
    return null;
  return { kind: hit.kind, words: hit.words };
}

function firstHit(s: string): { kind: FailureKind; words: string; at: number } | null {
  let best: { kind: FailureKind; words: string; at: number } | null = null;
  const take = (kind: FailureKind, m: RegExpExecArray | null) => {
    if (m && (best === null || m.index < best.at)) best = { kind, words: m[0].trim(), at: m.index };
  };
  take('error-word', ERROR_PREFIX.exec(s));
  take('error-word', ERROR_PROCESSING.exec(s));
  take('error-word', MAKE_STOPPED.exec(s));
  take('failed', FAILED.exec(s));
  take('cannot', CANNOT.exec(s));
  take('cannot', NOT_BUILT.exec(s));
  take('missing', MISSING.exec(s));
  take('lost', LOST.exec(s));
  take('exit-status', EXIT_STATUS.exec(s));
  take('threw', THREW.exec(s));
  take('invalid', INVALID.exec(s));
  take('error-word', CUDA_ERROR.exec(s));
  take('during', DURING.exec(s));
  return best;
}

/**
 * An exporter's own verdict that its export failed, wherever a stage was running: Ultralytics' try_export
 * (ultralytics/engine/exporter.py, every format: `{prefix} export failure {t}s: {e}`, older releases `export failure ❌`)
 * logs the exception it then re-raises — the run ended there, whatever the DFC was doing.
 */
const EXPORT_FAILURE = /^(?:\u274c\ufe0f? )?(?:[\w .+-]{1,40}: )?export failure (?:\u274c\ufe0f? )?\d{1,7}(?:\.\d)?s: \S/;

export function exportFailureIn(body: string): boolean {
  return body.includes('export failure') && EXPORT_FAILURE.test(body);
}

/**
 * A line saying a step completed (`Installation complete!`, `Reading package lists... Done`, `Setup finished.`): the
 * run went on past a failure its words alone told (errors.ts), unless it is negated or conditioned.
 */
const COMPLETED = /(?:^|[\s.])(?:done|complete|completed|finished)[.!]{0,3}\s*$/i;
const NOT_COMPLETED = /\b(?:not|no|never|fail\w*|error\w*|without|if|unless|until|incomplete)\b/i;

export function completedIn(body: string): boolean {
  const s = body.length > HEAD ? body.slice(-HEAD) : body;
  return COMPLETED.test(s) && !NOT_COMPLETED.test(s);
}

/**
 * The sentence holding the words at `from`–`to`: a cure told in another sentence of a joined paragraph (`… then failed at X.
 * … on Y it was fixed there by …`, dfc-corpus unseen18/06) cures that other occurrence, not this one.
 */
function sentenceAround(s: string, from: number, to: number): string {
  // Sentence ends only: a cure after a semicolon is the same sentence's (`could not link at 640x480; at 640x640 now it works`).
  let start = 0;
  for (let k = from - 1; k > 0; k--)
    if ((s[k] === '.' || s[k] === '!' || s[k] === '?') && /\s/.test(s[k + 1] ?? '')) {
      start = k + 1;
      break;
    }
  const stop = /[.!?]\s/.exec(s.slice(to));
  return s.slice(start, stop ? to + stop.index + 1 : s.length);
}

/** Where the clause holding position `i` starts: after the last sentence end (`. `, `; `, `! `) before it. */
function clauseStartBefore(s: string, i: number): number {
  for (let k = i - 1; k >= Math.max(0, i - 160); k--) if ((s[k] === '.' || s[k] === ';' || s[k] === '!') && /\s/.test(s[k + 1] ?? '')) return k + 1;
  return Math.max(0, i - 160);
}
