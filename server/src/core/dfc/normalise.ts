// One normalisation step for every line, before anything reads it (issue 30): users paste DFC
// output from notebooks, wrappers, UIs and their own loggers, which add or rename prefixes. Each
// prefix below is stripped wherever it stands at the start of a line, in any order and nesting,
// and the logger's level becomes the DFC's own `[level] ` tag, so the markers, the error
// collector and the catalogue (core/common/dfcMessages.ts) see one form. ANSI colours are already
// gone (lines.ts). A line with no foreign prefix is returned unchanged — the DFC's own output
// keeps its exact text and indentation (tracebacks read it).
//
// A prefix takes its separator and no more: the indentation after it is the relayed line's own (a
// traceback's `  File "…"` behind `name | ` is still indented, its exception line still is not).
// test/unit/dfc/dfc-wrappers.test.ts re-emits every corpus log through each wrapper and checks that
// the reading does not change.

import { matchDfcMessage } from '../common/dfcMessages';
import { levelOfWord, type LogLevel } from './levels';
import { endsRun } from './markers';
import { deathTail } from './signals';

/** A prefix at the start of a line; `level` when it carries the logger's level. */
interface Prefix {
  re: RegExp;
  /** Index of the group holding the level word, if any. */
  level?: number;
  /**
   * Index of a group of padding after a level word: a logger pads the level to 8 columns and adds
   * one space (Python's `%(levelname)-8s `, Rich's log column), so only that many spaces are its own.
   */
  pad?: number;
  /** Only behind a prefix already taken (a bare `name - ` is a logger's name after its level or time, prose elsewhere). */
  after?: boolean;
  /** Only right behind a level that may be followed by a logger's name (`[ERROR] name: ` — elsewhere `name: ` is the message's own). */
  afterLevel?: boolean;
  /** A level after which a logger's `name: ` may stand (Python's `[%(levelname)s] %(name)s: `). */
  named?: boolean;
}

/** After a timestamp: its separator (` - `, `: ` as TensorFlow's), or one or two spaces (s6's `timestamp  message`); more are the line's own indentation. */
const TIME_SEP = '(?: ?[-|:] | {1,2}|$)';

const PREFIXES: Prefix[] = [
  // Notebook, REPL and terminal capture marks: `Out[3]:`, `In [4]:`, `>>> `, `[stderr]`, `stderr:`.
  { re: /^(?:Out|In) ?\[\d*\]: ?/ },
  { re: /^>>> ?/ },
  { re: /^\[(?:stdout|stderr)\] ?/i },
  { re: /^(?:stdout|stderr): / },
  // kubectl logs --prefix: `[pod/NAME/CONTAINER] `.
  { re: /^\[(?:pod|deployment|job|statefulset|daemonset|replicaset|cronjob)\/[^\]\s]+\] ?/ },
  // ROS 2 launch (and ROS 1 roslaunch) relays each process's output behind its final name, `[component_container-1] `
  // (launch's ExecuteProcess output format `[{this.process_description.final_name}] {line}`: the name and a counter);
  // `[name-1]: ` with a colon is launch's own logger naming the process (the `[node]: ` rule below).
  { re: /^\[[A-Za-z_][\w.]{0,80}-\d{1,4}\](?: |$)/ },
  // journalctl's short format: `Dec 06 09:12:33 host identifier[pid]: `; after an ISO time (short-iso), `host identifier[pid]: `.
  { re: /^[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \S+ [^\s[\]:]+(?:\[\d+\])?: ?/ },
  { re: /^[\w.-]+ [^\s[\]:]+\[\d+\]: ?/, after: true },
  // Timestamps: `2025-01-02 10:11:12,345`, ISO with `T`/zone/nanoseconds, Go's `2025/01/02 10:11:12`, bracketed,
  // a bare time of day; the kernel's `[   12.345678]` (dmesg) and an epoch's `[1724530304.123456789]` (ROS 2).
  { re: /^\[\s*\d+\.\d+\] ?/ },
  { re: new RegExp(`^\\[?\\d{4}[-/]\\d{2}[-/]\\d{2}[ T]\\d{2}:\\d{2}(?::\\d{2})?(?:[.,]\\d+)?(?:Z|[+-]\\d{2}:?\\d{2})?\\]?${TIME_SEP}`) },
  { re: new RegExp(`^\\[?\\d{2}:\\d{2}:\\d{2}(?:[.,]\\d+)?\\]?${TIME_SEP}`) },
  // HailoRT's own prefix: `[12345] [HailoRT] [error] [vdevice.cpp:229] [create] …`.
  { re: /^\[\d+\]\s+(?=\[)/ },
  { re: /^\[HailoRT\] ?/i },
  // spdlog's `[%n] [%l] %v`: a logger's name before its level (`[HailoRT CLI] [error] …`, hailortcli.cpp).
  { re: /^\[[A-Za-z][\w .-]{0,40}\]\s+(?=\[(?:info|warning|warn|error|debug|critical|fatal|trace)\])/i },
  { re: /^\[[\w.-]+\.(?:cpp|hpp|cc|c|h|py):\d+\]\s*(?:\[\w+\] ?)?/ },
  // Levels: `[ERROR]`, `ERROR:`, `ERROR:name:`, `ERROR - `, `ERROR | `, `ERROR    ` (padded), `<Hailo Model Zoo ERROR>`.
  {
    re: /^\[(INFO|IMPORTANT|WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL|info|warning|warn|error|debug|critical|fatal|Info|Warning|Error)\] ?/,
    level: 1,
    named: true,
  },
  // A warning level a logger qualifies is a warning (Python logging's custom level names: the DFC's `DEPRECATION_WARNING`).
  { re: /^(INFO|IMPORTANT|(?:[A-Z]{2,24}_)?WARNING|WARN|ERROR|DEBUG|CRITICAL|FATAL)(?::(?:[\w.]+:| )?| +[-|](?: |$)|( +))/, level: 1, pad: 2 },
  { re: /^<[^<>]*?\b(INFO|WARNING|ERROR|DEBUG|CRITICAL)> ?/, level: 1 },
  // glog's and absl's prefix, `Lmmdd hh:mm:ss.uuuuuu threadid file:line] ` (abseil-cpp absl/log/internal/log_format.cc;
  // `E0000 00:00:<epoch>` before absl's time zone is set, test/fixtures/dfc/real-killed-137), and TensorFlow's own
  // `<time>: W path/file.cc:N] ` after its timestamp (dfc-corpus tune/33): only the W letter is read, as a warning.
  { re: /^(W)(?:\d{4} [\d:.]{8,24} +\d{1,20})? [\w./-]{1,200}:\d{1,6}\] ?/, level: 1 },
  // Python's `warnings` module, `%s:%s: %s: %s` of file, line, category and message (CPython Lib/warnings.py
  // formatwarning; the DFC's TensorFlow and numpy deprecations): a warning, the category kept as the message's first word.
  { re: /^[\w./~\\:-]{0,400}\.py:\d{1,6}: (?=([A-Z]\w{0,60}Warning): )/, level: 1 },
  // GStreamer's debug log (hailonet, tappas, hailo-apps): `0:00:01.234567890  4242 0x55d4 ERROR  hailonet gsthailonet.cpp:789:fn:<hailonet0> `.
  { re: /^\d+:\d{2}:\d{2}\.\d+ +\d+ +0x[0-9a-f]+ +(ERROR|WARN|FIXME|INFO|DEBUG|LOG|TRACE|MEMDUMP) +\S+ +[^\s:]+:\d+:[^\s:]+:(?:<[^>]*>)? ?/, level: 1 },
  // A dotted logger name with its level (`frigate.detectors.plugins.hailo8l ERROR   : `, Frigate's format).
  { re: /^(?:[a-z_]\w*\.)+[a-z_]\w*\s+(INFO|WARNING|ERROR|DEBUG|CRITICAL)\s*: ?/, level: 1 },
  // Logger names: `hailo_sdk_client.runner.client_runner - `, `common.core | ` (hailo-apps); any name behind a level or time.
  { re: /^(?:[a-z_][a-z0-9_]*\.)+[a-z_][a-z0-9_]*\s+[-|:](?: |$)/ },
  { re: /^[\w.<>-]+ [-|](?: |$)/, after: true },
  // Python's `[%(levelname)s] %(name)s: `: a lower-case module name right behind the level (a class or a prog's own `error:` is not one).
  { re: /^(?!(?:error|warning|usage|note|hint|fatal):)(?:__main__|[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*)(?:: |:$)/, afterLevel: true },
  // loguru's `name:function:line - `, Python logging's `%(filename)s:%(lineno)d - ` (the DFC's own log files,
  // `time - LEVEL - parser.py:158 - message`: dfc-corpus unseen7/01) and ROS 2's `[node]: `, behind their level or time.
  { re: /^[\w.<>-]+(?::[\w.<>-]+)?:\d+ - /, after: true },
  { re: /^\[[\w./-]+\]: ?/, after: true },
  // `cat -n` (and editors' copies with line numbers): the number, then a tab.
  { re: /^\d+\t/ },
  // docker compose: the service name padded to the longest, then ` | ` (compose's log printer).
  { re: /^(?=[\w.-]*[A-Za-z])[A-Za-z0-9][\w.-]*\s+\|(?: |$)/ },
  // Authors' decoration of pasted output: comment marks, quotes, list bullets.
  // One space is the mark's own: more is the quoted line's indentation (a traceback's frames behind `# `).
  // SQL/Lua `-- ` and Lisp/ini `; ` comments need their space (`--hw-arch` is an option, `;` ends a statement).
  { re: /^(?:(?:#+|\/\/)(?: |(?=\S))|(?:--|;+) )/ },
  { re: /^> / },
  { re: /^[-*+]\s+(?=[^-*+\s]|[-*+]\s+[^-*+\s])/ },
  // A numbered list item (`1. `, `2) `), as Markdown numbers them.
  { re: /^\d{1,3}[.)] +(?=\S)/ },
];

/**
 * Box drawing around a console (Rich's panels and tracebacks, other TUIs): a side `│ … │` is
 * taken off; a top or bottom border is an empty line, except a title that says a traceback begins.
 * Read with loops, not regular expressions: a border of 60,000 `─` must cost a scan, not a backtrack.
 */
const SIDES = '│┃║';
const OPENING_CORNERS = '╭┌┏╔╒╓┍┎╰└┗╚╘╙┕┖';
const CLOSING_CORNERS = '╮┐┓╗╕╖┑┒╯┘┛╝╛╜┙┚';
const RULE = '─━═╌╍┄┅┈┉ ';

/** What a box-drawn line holds (its content, a traceback title, or '' for a border); null when it is not one. */
function unbox(t: string): string | null {
  if (SIDES.includes(t[0])) {
    let end = t.trimEnd().length;
    if (end > 1 && SIDES.includes(t[end - 1]) && /\s/.test(t[end - 2])) end--;
    return t.slice(t[1] === ' ' ? 2 : 1, Math.max(end, 1)).trimEnd();
  }
  if (!OPENING_CORNERS.includes(t[0])) return null;
  const s = t.trimEnd();
  if (s.length < 2 || !CLOSING_CORNERS.includes(s[s.length - 1])) return null;
  let a = 1;
  let b = s.length - 1;
  while (a < b && RULE.includes(s[a])) a++;
  while (b > a && RULE.includes(s[b - 1])) b--;
  const title = s.slice(a, b);
  return /^Traceback \(most recent call last\)/.test(title) ? title : '';
}
const HAS_BOX = /^[│┃║╭┌┏╔╒╓┍┎╰└┗╚╘╙┕┖]/;

/**
 * A relayed line with a structure of its own keeps no level tag: a traceback's lines (indented
 * frames and code, its header, a frame an excerpt pasted at the margin) and its exception line, which the traceback tracker reads as printed.
 */
const OWN_STRUCTURE =
  /^(?:\s|Traceback \(most recent call last\)|During handling of the above|The above exception was|File "[^"]{0,400}", line \d)|^(?:[A-Za-z_]\w*\.)+[A-Za-z_]\w*:(?: |$)|^[A-Z]\w*(?:Error|Exception|Failure|Exit|Interrupt)(?::(?: |$)|$)/;

/** Rich's log handler prints the caller's `file.py:N` at the right edge. */
const RIGHT_COLUMN = /\s\s[\w.-]{1,120}\.py:\d{1,6} {0,40}$/;

/** Words around a code span: a sentence quoting a line, not the line itself. */
// In any script: an author's sentence around an English message may be Japanese, Korean, Russian … (docs/research/dfc-unseen-misses.md);
// a Han, kana or Hangul run is words without spaces. Each letter run is tried once from its start (linear on a long line).
const PROSE = /(?<!\p{L})\p{L}{2,}[^\p{L}\p{N}]+\p{L}{2}|[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]{2}/u;
/**
 * What a span quotes as a line: words with spaces between them (a single token — `hailo-ollama`,
 * `HAILO_COMMUNICATION_CLOSED(62)` — is a name the sentence is about, and the sentence stays), or one
 * capitalised word a line can be alone (`Killed`, `IndexError`), an indented one (a traceback's code line) or a bare word (a prompt's answer `n`).
 */
// … or the terminal's caret echo of Ctrl-C (`^C`), a line of its own; a bare word may end its line's sentence (a script's last
// line `READY.`, dfc-corpus unseen27/08; `Done!`).
const QUOTED_LINE = /^\s+\S|\S\s+\S|^\s*(?:[a-z_][\w.]*\.)?[A-Z][a-z]\w*:?\s*$|^[A-Za-z]+[.!]{0,3}$|^\^C$/;

const CANONICAL_LEVEL = /^\[(info|warning|error|debug|critical)\] /;

/** An exception class with its message (`Foo.BarError: …`), as errors.ts reads one anywhere in a line. */
const CLASS_WITH_MESSAGE = /(?:^|[^\w.])[A-Z]\w*(?:Error|Exception|Failure):(?:\s|$)/;

/** A line a log wrote: a level tag, HailoRT's, or its check macro's words. */
const LOGGED_LINE = /\[(?:error|warning|critical|HailoRT)\]|^(?:ERROR|WARNING|CRITICAL)\b|\bCHECK(?:_[A-Z_]+)? failed\b/i;

/**
 * The one span of a sentence that quotes a log's line when its other spans are single tokens and the
 * sentence around them is prose that says nothing the reader knows itself; null otherwise.
 */
function lineSpan(text: string): string | null {
  let line: RegExpExecArray | null = null;
  const span = /`([^`]*)`/g;
  for (let m = span.exec(text); m; m = span.exec(text)) {
    if (!/\S\s+\S/.test(m[1])) continue;
    // Words with spaces that are no log line (`Flatten -> FC`, a phrase) make the sentence the author's whole (dfc-corpus unseen5/12).
    // The kernel's or the shell's word that a program was killed (`Out of memory: Killed process … (hailomz)`, markers.ts) is a line of its own too.
    if (!LOGGED_LINE.test(m[1]) && !saysItself(m[1]) && !endsRun(m[1])) return null;
    if (line) return null;
    line = m;
  }
  if (!line) return null;
  const around = `${text.slice(0, line.index)} ${text.slice(line.index + line[0].length)}`.replace(/`/g, '');
  return PROSE.test(around) && !saysItself(around) ? line[1] : null;
}

/**
 * A shell's prompt and the command typed at it (group 1: the program, after `sudo`, a path and Windows' `.exe`): a user's
 * prompt — Debian's `user@host:~/dir$ ` (bash's PS1 `\u@\h:\w\$ `), Raspberry Pi OS's `user@host:~ $ ` (`\w \$ `), Fedora's
 * `[user@host dir]$ `, zsh's `user@host ~ % `, fish's `user@host ~/dir> ` (its fish_prompt: `$USER@host cwd>`, `#` for
 * root; fish-shell share/functions/fish_fallback_prompt.fish), openSUSE's `user@host:~> ` — with a virtualenv's or
 * conda's `(name) ` before it, or a bare `$ `/`# `; oh-my-zsh's default theme `➜  dir git:(branch) ✗ ` (ohmyzsh
 * themes/robbyrussell.zsh-theme: the arrow, `%c`, git_prompt_info's `git:(…)` and its dirty `✗`); starship's `❯ `
 * (https://starship.rs/config/#character, the character module's default symbol); PowerShell's `PS C:\path> ` (the
 * built-in prompt function, https://learn.microsoft.com/powershell/module/microsoft.powershell.core/about/about_prompts);
 * Windows cmd's `C:\path>` with the command right after it (its default PROMPT `$P$G`: drive and path, then `>`); an
 * IPython or Jupyter cell's `!cmd` (a shell command) and `%cmd` (a line magic;
 * https://ipython.readthedocs.io/en/stable/interactive/python-ipython-diff.html). A command line, not an author's
 * sentence: its quotes and spans are the command's arguments (`python -c 'print("ready")'`), never a quoted log line.
 */
export const SHELL_PROMPT =
  /^(?:\([\w.-]{1,64}\) )?(?:(?:(?:[\w.-]{1,64}@[\w.-]{1,64}(?::[^\s$#%>]{0,512}| [^\s$#%>]{1,512})? ?|\[[\w.-]{1,64}@[\w.-]{1,64} [^\s\]]{1,512}\])[$#%>]|[$#]|PS [^>\n]{1,512}?>{1,8}|➜ {1,2}[^\s:]{1,512}(?: git:\([^)\s]{1,256}\)(?: ✗)?)?|❯) +|[A-Za-z]:\\[^>\n]{0,512}> *|[!%](?=[\w./\\][^\s(]{0,512}(?:\s|$)))(?:sudo +(?:-\S+ +)*)?(?:[\w.:\\/-]*[\\/])?([\w.-]+?)(?:\.exe)?(?![\w.-])/;

/** An IPython cell's `!cmd` or `%magic` at the line's start (mayHoldPrompt). */
const MAGIC_OR_BANG = /^\s*[!%][\w./\\]/;

/** A cheap look before SHELL_PROMPT runs: the marks one of its prompts needs (a line without any holds none). */
export function mayHoldPrompt(s: string): boolean {
  return (
    s.includes('$ ') ||
    s.includes('# ') ||
    s.includes('% ') ||
    s.includes('> ') ||
    s.includes(':\\') ||
    s.includes('➜') ||
    s.includes('❯') ||
    MAGIC_OR_BANG.test(s)
  );
}

/** A quote's or comment's marks before the author's sentence (`> `, `# `): decoration, taken with the sentence. */
const LEAD_MARKS = /^(?:(?:>|#{1,6}|\/\/|--) ?){1,8}/;

/**
 * Words and their punctuation only, from a word: an author's sentence, not a relay's columns (`name | │`), a logger's
 * time and level (`2025-01-02 10:11:12 - INFO - …`), a wrapper's `stderr=`, a span.
 */
const SENTENCE_ONLY = /^\p{L}[\p{L}\p{N}\s,.;:!?'"()\u2019-]{0,400}$/u;

/** A program's own words that it failed (errors.ts reads them as an application's error line). */
const FAILED_WORDS = /^(?:Failed|Unable|Could not|Cannot) \w/;

/** A sentence this long is no author's lead-in to a program's death (deathTail): the search stops there. */
const MAX_SENTENCE = 400;
/**
 * How an author's sentence hands over to what the program printed: a colon, or a verb or preposition that introduces it
 * (`It fails with`, `I get`, `it prints`, `then`). A sentence about the death in other words (`I fixed the Segmentation fault`,
 * `no more Segmentation fault`) quotes nothing.
 */
const LEAD_IN = /(?::|\b(?:with|get|gets|got|gives|gave|shows|showed|prints|printed|says|said|see|seeing|saw|reports|reported|returns|returned|then|and))$/i;
/** A shell's job line or a program's `name: ` before the signal's words: the program's own line, whole. */
const CRASH_LINE = /^\S+: \S{1,12} \d|^[\w./~-]{1,120}: /;

/** A program's own line: its name or path, a colon, its words (`/bin/bash: hailortcli: command not found`, `hailomz: error: …`). */
const PROGRAM_SAYS = /^[\w./~-]{1,120}: \S/;

/**
 * The DFC's or HailoRT's tag, or a logger's upper-case level, inside a line after the author's words (never an exception's message: its class comes first).
 * HailoRT's tags include its CLI's (`[HailoRT CLI] [error] CHECK failed - …`) and its logger's source column without the columns
 * before it (`[llm_inference_manager.cpp:31] [create] CHECK failed - …`); a level tag may be capitalised (the SDK installer's `[Error]`);
 * a C compiler's error names its file, line and column (`../vdma/monitor.c:53:5: error: …`, building HailoRT's driver); a syslog
 * or journald line starts with its date, host and program (`May 03 14:10:27 host systemd[1]: …`, dfc-corpus unseen29/37).
 */
const MID_TAG =
  / (?:\[(?:HailoRT(?: CLI)?|info|error|warning|critical|Error|Warning|INFO|ERROR|WARNING|WARN|CRITICAL)\] |\[[\w-]{1,80}\.(?:cpp|hpp|cc|c|h):\d{1,6}\] \[\w{1,80}\] |[\w./-]{1,200}\.(?:cpp|hpp|cc|c|h):\d{1,6}:\d{1,4}: (?:fatal )?error: |(?:ERROR|WARNING|CRITICAL|FATAL|Error|Warning): |\[?\d{4}-\d{2}-\d{2}[ T]\d|(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d \S{1,64} [\w.@-]{1,64}(?:\[\d{1,10}\])?: )/;
/** A line a program wrote, as it starts: a level word or tag, a program's `name: `, a class with its message. */
const OWN_LINE_START = String.raw`(?:\[(?:HailoRT|error|warning|critical|info|ERROR|WARNING|WARN|CRITICAL|INFO)\] |(?:ERROR|WARNING|CRITICAL|FATAL|Error|Warning|E|W): |[\w./~-]{1,120}: \S|(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception|Failure): )`;
/** An author's colon, then a program's line (OWN_WORDS). */
const COLON_OWN = new RegExp(`: ${OWN_LINE_START}`);
const OWN_WORDS = new RegExp(`^${OWN_LINE_START}`);

/** Code before a comment mark (`x = f(a)`, `call();`, a list's `"name",`), never a log's own line. */
const CODE_LIKE = /[=(]|[;,)\]}"']$/;
const COMMENT_AFTER_CODE = /[ \t](?:#|\/\/) (?=\S)/;

/** The comment after a line of code, when the code is code and the comment says something; null otherwise. */
function commentAfterCode(t: string): string | null {
  const m = COMMENT_AFTER_CODE.exec(t);
  if (!m) return null;
  const code = t.slice(0, m.index).trimEnd();
  if (code.trim() === '' || code.trimStart()[0] === '[' || !CODE_LIKE.test(code) || LOGGED_LINE.test(code)) return null;
  return t.slice(m.index + m[0].length);
}

/**
 * A log's line in double quotes in a sentence (`The tool says "[error] Mapping Failed" and stops.`): the line,
 * when it is one a log writes (a level tag, HailoRT's, a catalogue message, a class with its message).
 */
function doubleQuoted(t: string): string | null {
  const open = t.indexOf('"');
  const close = t.lastIndexOf('"');
  if (close <= open || t.indexOf('"', open + 1) !== close) return null;
  const inner = t.slice(open + 1, close);
  const around = `${t.slice(0, open)} ${t.slice(close + 1)}`;
  // As a code span is (its words are the quoted line): what a line says, or words a line can be.
  const says = LOGGED_LINE.test(inner) || PROGRAM_SAYS.test(inner) || FAILED_WORDS.test(inner) || /\S\s+\S/.test(inner) || saysItself(inner);
  return QUOTED_LINE.test(inner) && says && PROSE.test(around) && !saysItself(around) ? inner : null;
}

/** The author's sentence around a code span says something the reader knows (a catalogue message, a class with its message). */
function saysItself(prose: string): boolean {
  const hit = matchDfcMessage(prose);
  return (hit !== null && hit.message.code !== null) || CLASS_WITH_MESSAGE.test(prose);
}

/**
 * The prefixes as one alternation per context (behind nothing, behind a prefix, right behind a level),
 * in the list's order: at the start of a line the engine tries the alternatives in order, so the first
 * that matches is the one the list would pick — one exec per round instead of one per prefix.
 */
interface PrefixSet {
  re: RegExp;
  /** Each alternative's prefix and the index of the group that wraps it. */
  alternatives: { p: Prefix; group: number }[];
}

function prefixSet(keep: (p: Prefix) => boolean): PrefixSet {
  const alternatives: { p: Prefix; group: number }[] = [];
  const sources: string[] = [];
  let group = 1;
  for (const p of PREFIXES.filter(keep)) {
    alternatives.push({ p, group });
    sources.push(`(${p.re.source.replace(/^\^/, '')})`);
    // The wrapping group, then the prefix's own groups.
    group += 1 + (new RegExp(`${p.re.source}|`).exec('')!.length - 1);
  }
  return { re: new RegExp(`^(?:${sources.join('|')})`), alternatives };
}

const AT_START = prefixSet((p) => !p.after && !p.afterLevel);
const BEHIND_PREFIX = prefixSet((p) => !p.afterLevel);
const BEHIND_LEVEL = prefixSet(() => true);
/** Any prefix at all (one test before the loop: most lines have none). */
const ANY_PREFIX = AT_START.re;

/** The line starts with a prefix a logger, relay or author puts before a line of its own. */
export function startsWithPrefix(text: string): boolean {
  return ANY_PREFIX.test(text);
}

export interface Normalised {
  text: string;
  /**
   * The level tag came from a relay's prefix (a logger that logs every relayed line at INFO), not
   * from the line itself: such a line may still continue a message wrapped over lines (errors.ts).
   */
  relayedLevel: boolean;
  /**
   * The line as its author wrote it once every prefix went (a relay's logger columns, timestamps, levels),
   * Markdown kept: the words around a quoted class are the author's, a logger's `parser.py` column is not.
   */
  said: string;
}

/**
 * `t.includes(' ' + needle)`, searched from the needle's own first character: a search for a string that
 * starts with a space stops at every space, and the allocator's grid rows are mostly spaces (bench/dfc.bench.ts).
 */
function spaced(t: string, needle: string): boolean {
  for (let i = t.indexOf(needle, 1); i > 0; i = t.indexOf(needle, i + 1)) if (t.charCodeAt(i - 1) === 32) return true;
  return false;
}

/**
 * A date (`2026-01-30`) after a space anywhere but the line's start, found from its first dash: the gate for MID_TAG's
 * timestamp-led record, which needs neither a bracket nor an author's colon (`It fails with 2026-01-30 08:24:52,027 -
 * WARNING - pyhailort.py:1031 - …`, Python logging's default `%(asctime)s - %(levelname)s - …` record).
 */
function spacedDate(t: string): boolean {
  for (let i = t.indexOf('-', 5); i > 0; i = t.indexOf('-', i + 1)) {
    if (t.charCodeAt(i - 5) !== 32 || t.charCodeAt(i + 3) !== 45) continue;
    let digits = true;
    for (let k = i - 4; k < i && digits; k++) digits = t.charCodeAt(k) >= 48 && t.charCodeAt(k) <= 57;
    if (digits) return true;
  }
  return false;
}

/** The line as the readers expect it: foreign prefixes gone, the level as the DFC writes it. */
export function normaliseLine(text: string): string {
  return normalise(text)?.text ?? text;
}

/**
 * The line normalised, or null when it has nothing to take off (most lines: no allocation). `relayed`:
 * a prefix the log's own template gave (logShape.ts) was already taken, with this level — the rest is
 * read as the relayed line, as behind a listed prefix.
 */
export function normalise(text: string, relayed?: { level: LogLevel | null; own: boolean }): Normalised | null {
  let t = relayed ? text : text.trimStart();
  /** The line starts with the DFC's own `[level] ` tag (its own output). */
  const dfcOwn = CANONICAL_LEVEL.test(t);
  const hashed = spaced(t, '# ');
  const slashed = spaced(t, '// ');
  const bracket = spaced(t, '[');
  const colon = t.includes(': ');
  const dated = !bracket && !colon && spacedDate(t);
  // A program's death at the end of the author's sentence (errors.ts deathTail): where it starts.
  const death = !relayed && !dfcOwn && t.length < MAX_SENTENCE && t.includes(' ') ? deathTail(t) : -1;
  const decorated =
    death > 0 ||
    t.includes('**') ||
    t.includes('`') ||
    t.includes('"') ||
    hashed ||
    slashed ||
    ((bracket || colon || dated) && MID_TAG.test(t)) ||
    (colon && COLON_OWN.test(t));
  if (!relayed && !decorated && !HAS_BOX.test(t) && (dfcOwn ? !ANY_PREFIX.test(t.slice(t.indexOf(']') + 2)) : !ANY_PREFIX.test(t))) return null;
  let level: LogLevel | null = relayed?.level ?? null;
  /** The level is the line's own `[level] ` tag as the DFC prints it (innermost), not a relay's. */
  let ownTag = false;
  /** The level is the template's, in the DFC's own tag form (logShape.ts): the line's own, unless the rest names another. */
  let templateOwn = relayed?.own ?? false;
  /** A foreign prefix was taken. */
  let changed = relayed !== undefined;
  /** Markdown decoration was taken. */
  let unmarked = false;
  /** The prefix just taken was a foreign level. */
  let lastWasLevel = false;
  /** The line after the first round of prefixes, before any Markdown went (Normalised.said). */
  let said = t;
  // A line of code with the log's line kept as its comment (`result = run(args)  # [error] …`): the comment is the line.
  const comment = !relayed && (hashed || slashed) ? commentAfterCode(t) : null;
  if (comment !== null) {
    t = comment;
    said = t;
    changed = true;
  }
  // A sentence that goes on into a log's line (`It fails with [HailoRT] [error] CHECK failed - …`, `Same as before: ERROR: …`):
  // the line from its tag — not inside a code span (reader.ts joins a wrapped one), nor a wrapper's `stderr=[HailoRT] …`.
  const tag = !relayed && !dfcOwn && comment === null && t[0] !== '[' && (bracket || colon || dated) ? MID_TAG.exec(t) : null;
  const pre = tag ? t.slice(0, tag.index).replace(LEAD_MARKS, '') : '';
  if (tag && SENTENCE_ONLY.test(pre) && PROSE.test(pre) && !CLASS_WITH_MESSAGE.test(pre)) {
    t = t.slice(tag.index + 1);
    changed = true;
  } else if (!relayed && !dfcOwn && comment === null && t.includes(': ') && !t.includes('`')) {
    // The author's colon before the line they quote (`Same result as before: Error: Unable to locate package …`).
    const colon = t.indexOf(': ');
    const before = t.slice(0, colon).replace(LEAD_MARKS, '');
    const rest = t.slice(colon + 2);
    // Not a program's own `PROG: error: …` (argparse names its program, subcommands and all, before its level).
    const own = SENTENCE_ONLY.test(before) && /\s/.test(before) && PROSE.test(before) && !/^(?:error|warning|fatal|note): /.test(rest);
    if (own && !CLASS_WITH_MESSAGE.test(`${before}:`) && QUOTED_LINE.test(rest) && OWN_WORDS.test(rest)) {
      t = rest;
      changed = true;
    }
  }
  // `It fails with Segmentation fault`: the sentence before the death is the author's (not a shell's job line, `x.sh: line 3: 1234 Aborted`).
  if (death > 0 && !changed && comment === null && !CRASH_LINE.test(t)) {
    const before = t.slice(0, death).replace(LEAD_MARKS, '').trim();
    if (SENTENCE_ONLY.test(before) && PROSE.test(before) && /\s/.test(before) && !PROGRAM_SAYS.test(before) && LEAD_IN.test(before)) {
      t = t.slice(death);
      changed = true;
    }
  }
  // Prefixes, then the author's Markdown around what is left, then prefixes inside it (`` `[HailoRT] [error] …` ``).
  for (let pass = 0; pass < 2; pass++) {
    for (let round = 0; round < 12; round++) {
      // Behind a prefix, the relayed line is read as a line of its own: indentation before another
      // prefix goes with it (as at the start of a line); before the content, it stays.
      const whole = t;
      if (changed || unmarked) t = t.trimStart();
      const box = HAS_BOX.test(t) ? unbox(t) : null;
      if (box !== null) {
        t = box;
        changed = true;
        continue;
      }
      let hit = false;
      const wasLevel: boolean = lastWasLevel;
      lastWasLevel = false;
      const set: PrefixSet = wasLevel ? BEHIND_LEVEL : changed ? BEHIND_PREFIX : AT_START;
      const m = set.re.exec(t);
      const alt = m && m[0].length > 0 ? set.alternatives.find((a) => m[a.group] !== undefined) : undefined;
      if (m && alt) {
        const { p, group } = alt;
        let cut = m[0].length;
        hit = true;
        if (p.level !== undefined) {
          const word = m[group + p.level];
          // The innermost level is the one of the program that printed the line (a relay logs everything at INFO).
          level = levelOfWord(word);
          ownTag = CANONICAL_LEVEL.test(t) && m[0] === `[${word}] `;
          templateOwn = false;
          const pad = p.pad !== undefined ? m[group + p.pad] : undefined;
          if (pad) cut -= pad.length - Math.min(pad.length, Math.max(1, 9 - word.length));
          lastWasLevel = !ownTag && p.named === true;
        }
        t = t.slice(cut);
        // The DFC's own `[info] ` at the start of an otherwise clean line is not foreign.
        if (!(ownTag && p.level !== undefined && round === 0 && pass === 0 && !changed)) changed = true;
      }
      if (!hit) {
        t = whole;
        break;
      }
    }
    if (pass === 0) said = t;
    // Markdown around pasted output: bold and inline code spans, in pairs only (`**kwargs` in a
    // traceback's code line has one; the compiler's `Assertion `x' failed` one backtick). The DFC's
    // own `[info] Running `hailo …`` keeps its backticks (the command reader reads them). Table
    // pipes stay: the DFC's utilisation tables are pipe tables, and messages are found anywhere.
    let marked = t;
    if (/\*\*[^*\s][^*]*?\*\*/.test(marked)) marked = marked.replace(/\*\*([^*\s][^*]*?)\*\*/g, '$1');
    const ticks = marked.split('`').length - 1;
    // A command at a prompt quotes its arguments, not a log's line (`$ python -c 'print("Hailo Python ready")'`); a bare `# ` is a comment mark.
    const command = marked[0] !== '#' && mayHoldPrompt(marked) && SHELL_PROMPT.test(marked);
    // One span in a sentence (`We got \`…\` when running it`, dfc-corpus unseen4/20-22): the span is the
    // quoted line, verbatim with its indentation; the sentence around it is the author's.
    const open = ticks === 2 && !ownTag && !command ? marked.indexOf('`') : -1;
    const close = open >= 0 ? marked.lastIndexOf('`') : -1;
    // A sentence that says something itself — a catalogue message or a HailoRT status outside the span
    // (`… CHECK_SUCCESS failed with status=HAILO_RPC_FAILED(77) - … run \`sudo rmmod hailo_pci\``, dfc-corpus
    // unseen6/14) — is read whole: the span is then a command or a name the sentence mentions.
    const around = open >= 0 ? `${marked.slice(0, open)} ${marked.slice(close + 1)}` : '';
    // Several spans, one of them a log's line (a level tag, a catalogue message) and the others single tokens (names the sentence is
    // about: `InferVStreams`, `set_buffer`): that one is the line, as a lone span is (dfc-corpus unseen9/27).
    const line = open < 0 && ticks >= 4 && ticks % 2 === 0 && !ownTag && !command ? lineSpan(marked) : null;
    if (open >= 0 && QUOTED_LINE.test(marked.slice(open + 1, close)) && PROSE.test(around) && !saysItself(around)) marked = marked.slice(open + 1, close);
    else if (ticks === 0 && !ownTag && !command && marked.includes('"')) marked = doubleQuoted(marked) ?? marked;
    else if (line) marked = line;
    else if (ticks >= 2 && ticks % 2 === 0 && !ownTag) marked = marked.replace(/`([^`]*)`/g, '$1');
    if (marked === t) break;
    t = marked;
    unmarked = true;
  }
  if (!changed && !unmarked) return null;
  // Bracketed columns and nothing after them (`[HailoRT] [error] [file.cpp:80]`, a quoted line an author's prose wrapped):
  // nothing is said here, and the line is kept as written, so the span it continues is read whole (reader.ts).
  if (!relayed && t.trim() === '' && text[0] === '[' && text.trimEnd().endsWith(']')) return null;
  if (changed) {
    if (RIGHT_COLUMN.test(t)) t = t.replace(RIGHT_COLUMN, '').trimEnd();
  }
  // Only decoration went: the line keeps its indentation.
  else t = text.slice(0, text.length - text.trimStart().length) + t;
  if (!level) return { text: t, relayedLevel: false, said };
  const tagged = (s: string) => s.replace(/^(\s*)/, `$1[${level}] `);
  if (!changed) return { text: tagged(t), relayedLevel: false, said };
  if (!ownTag && !templateOwn && OWN_STRUCTURE.test(t)) return { text: t, relayedLevel: false, said };
  return { text: `[${level}] ${t}`, relayedLevel: !ownTag && !templateOwn, said };
}

/**
 * The indentation of a whole pasted block (a notebook cell's output, a Markdown code block indented by
 * four spaces, a quoted e-mail): every line carries it, so it is nobody's own. Learned from the first
 * line that says something and shrunk by any line indented less; a traceback's own indentation (the
 * first line a frame or a code line: an excerpt that starts inside a traceback) never becomes the margin.
 */
export class Margin {
  /** null: not learned yet; '': none (the block is not indented). */
  private margin: string | null = null;

  /**
   * What `take` does with a line that starts with neither a space nor a tab (routes.ts): it says the block is not
   * indented — the margin is none from here on, and the line is returned as it is.
   */
  atMargin(): void {
    this.margin = '';
  }

  take(text: string): string {
    if (this.margin === '') return text;
    const lead = /^[ \t]*/.exec(text)![0];
    if (lead.length === text.length) return this.margin === null ? text : '';
    if (this.margin === null) {
      this.margin = lead && !FRAME_OR_CODE.test(text) ? lead : '';
      return text.slice(this.margin.length);
    }
    if (!text.startsWith(this.margin)) {
      let n = 0;
      while (n < this.margin.length && n < lead.length && this.margin[n] === lead[n]) n++;
      this.margin = this.margin.slice(0, n);
    }
    return text.slice(this.margin.length);
  }
}

/** A traceback's frame or code line, or an allocator grid row: indentation that belongs to the line. */
const FRAME_OR_CODE = /^\s+(?:File "|\^+\s*$|~|[a-z_][\w.]*(?:\(|\s*[=[]|$)|(?:raise|return|await|yield|self)\b|worker\d+ |cluster_\d+ )/;
