// Routes: a kind of line read once, by the mechanisms it can concern only (docs/performance.md "DFC logs"). Every
// line of a log passes ~15 mechanisms (the quoting forms, the margin, the log's template, the author's hard wrap,
// normalisation, table cells and code spans, then the state's progress, header, prompt, command, HAR, marker, summary
// and warning tests and the error collector), each with its own tests of the line. A kind whose words are fixed is
// known not to concern most of them: the route skips those, does what each would have done with such a line (most
// keep a little state about the line before: that is done), and leaves the line to the full reading where its escape
// condition says a mechanism may react after all. scripts/dfc-reader-diff.mjs checks the whole corpus reads the same.
//
// The allocator's iteration line (markers.ts ALLOCATOR_ITERATION: `Context:0/3 Iteration 4: Trying parallel
// mapping...  `, untagged, nothing after the allocator's words): 40 of the bench's 181 lines a block, a fifth of its
// time when read whole. Its characters are fixed but for the three numbers and the trailing spaces: letters, digits,
// `:`, `/`, `.` and spaces; no `"`, `'`, `` ` ``, `&`, `#`, `[`, `|`, `%`, `>`, `$`, `\`, `@`, `=`, `_`, no typography,
// no control character (its raw line is its text). What each mechanism does with it:
//   - lines.ts: split and stripped as any line (its raw text has no escape: route() asks raw === text).
//   - the quoting forms (forms.ts QuoteForms.take): no `"` (no notebook string; a notebook's structure line starts with
//     a bracket, a brace or a `"` key), no fence, no `&`, no typography, no quote or comment mark at its start: returned
//     as it is; a notebook's list it was inside ends (`plain`).
//   - the margin (normalise.ts Margin.take): it starts with a letter, so the block has no margin from here (`atMargin`).
//   - the log's template (logShape.ts): it is no `[level] ` line; its head is `Context` `:` and the number N, ended by
//     the `/` no field or separator reads — the same for every line with that N, so read once per N (push's
//     `headKey`); it is counted, held and decided as any line (its fields are a name and a number: never a logger's,
//     never held on their own, never cut).
//   - the author's hard wrap (forms.ts Unwrap): read as any line — it may be held, and the next line may be joined to
//     it. Where it leaves that step it is asked again: a joined line goes on past the allocator's words (read whole).
//   - normalisation (normalise.ts normalise): no prefix matches (ANY_PREFIX: `Context` is followed by `:` then a digit,
//     which no logger's name, level or time is), no box, no `**`, backtick, `"`, `# `, `// ` or ` [`, and its one `: `
//     is followed by `Trying`/`Mapping` and a space (COLON_OWN wants a program's `name: ` or a class) with no level tag
//     or date after a space (MID_TAG): normalise returns null, the line is read as it is.
//   - table cells and code spans (reader.ts): it starts with no `|` and has no backtick; read at once unless a span is
//     open (then reader.ts's span step reads it whole: it may close nothing but is one of the span's lines).
//   - the state (state.ts line): its one piece of news is progress (classifyProgress's Context branch: no `%|`, no
//     `Epoch`, no leading digits before it), which starts the compile stage. Its words hold none of MAY_HEADER's, of
//     MAY_MARKER's (`Context` with a capital is not `context`; `mapping`, `splits`, `prepost`, `Trying`, `Iteration`
//     are none of its words), no `hailo`, `.har`, `usage: ` or prompt mark (mayHoldPrompt: no `$ `, `# `, `% `, `> `,
//     `:\`, `➜`, `❯`, no leading `!`/`%`); the summary's test (`ontext`) runs, and classifySummaryLine finds no table
//     row, no `Compiling`, no `context_N utilization:`, no `Using Single-context`, no `Applying selected partition`;
//     no level tag, so no warning; the line after a prompt is no `y`/`n` answer; it is no HailoRT session's opening line.
//   - the error collector (errors.ts): at rest (nothing held, no traceback or exception open — else it is read whole),
//     no test reads it: no `Traceback`/`File "`, no kernel splat word, no `: error: `/`Error: `/`invalid choice`, no
//     shell's `not found`, no apt `E: `, no crash word at its start, no exception class, no catalogue message (nothing
//     in the catalogue is about the allocator's tries), no report in prose, no call step (it has spaces), no DFC module
//     or API call, no `>!<`, no failure, success or export word, no errno and no `HAILO_MAX_` in its window, no
//     `hailort`; the explainer's observe reads nothing of it (no `end_node_names`, `fps`, `end node names`, `Config: `,
//     no `]` for spdlog's record, no level). It ends in `.`, which holds nothing open for the next line
//     (errors.ts opens: no catalogue sentence ends there). ErrorCollector.plainLine does the rest: the state such a line leaves.
// test/unit/dfc/dfc-routes.test.ts checks each of those tests on the kind's lines, and that a line going on past
// the allocator's words, or read while the collector is not at rest, is read whole.
import { ALLOCATOR_ITERATION } from './markers';

const C = 67;

/** The line is the allocator's iteration line (markers.ts ALLOCATOR_ITERATION): its match, else null. One look at its first character first. */
export function allocatorIteration(text: string): RegExpExecArray | null {
  return text.charCodeAt(0) === C ? ALLOCATOR_ITERATION.exec(text) : null;
}

/** The template's head key of an allocator iteration line (logShape.ts push's `headKey`): `Context:` and its first number. */
export function iterationHeadKey(m: RegExpExecArray): string {
  return m[1];
}
