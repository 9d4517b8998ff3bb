// Metamorphic test of the reader's per-run state (issue 30): a pasted terminal often holds several runs — the user
// runs the same program again at the shell's prompt after a failure (state.ts: that retry decides). Whatever the first
// run showed, the run after it must read as it reads alone: for pairs of real logs (the corpus halves already read,
// the reader's own fixtures), `prompt + first + prompt + second` read whole must give the second run the outcome,
// failed stage, stages and diagnostics (codes, severities, nodes, words, places) that `prompt + second` gives — nothing
// of the first run's facts (an allocation failure's cause and layers, the allocator's refused layers, a HailoRT chain,
// a traceback…) may leak into it. The first runs are every log that fails with an allocation failure (the facts most
// gathered over lines), each paired with itself (the same command run again), with every other such log, and with a
// deterministic spread of the other logs (failed, killed, succeeded, incomplete); every other failing log is paired with
// itself and one other. Only the second run's own diagnostics are compared: the first run's stay, as warnings newRun
// makes of its errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog, type DfcReport } from '../../../server/src/core/dfc';
import { LineSplitter, type LogLine } from '../../../server/src/core/dfc/lines';
import { QuoteForms, Unwrap, type Decided } from '../../../server/src/core/dfc/forms';
import { LogShape } from '../../../server/src/core/dfc/logShape';
import { Margin, SHELL_PROMPT } from '../../../server/src/core/dfc/normalise';
import { corpusCases, READ_PARTS } from '../../helpers/dfcCorpus';
import { repoRoot } from '../../helpers/shared';

/** bash's default prompt (PS1 `\u@\h:\w\$ `) running a script: a program named at a prompt, run again at one (state.ts SHELL_PROMPT). */
const PROMPT = 'dev@gpu-box:~/work$ python3 compile_model.py';

const FIXTURES = join(repoRoot, 'test', 'fixtures', 'dfc');
const logs = [
  ...READ_PARTS.flatMap((p) => corpusCases(p)),
  ...readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => join(FIXTURES, d.name)),
].map((dir) => {
  const text = readFileSync(join(dir, 'run.log'), 'utf8').replace(/(?:\r\n|\r|\n)$/, '');
  return { name: dir.split('/').slice(-2).join('/'), text, alone: read([PROMPT, text]) };
});

function read(parts: string[]): DfcReport {
  return readDfcLog(`${parts.join('\n')}\n`, { logPath: 'run.log' });
}

/** How many lines the reader counts in `text` (lines.ts: `\n`, `\r\n` and a lone `\r` each end one). */
function linesIn(text: string): number {
  return new LineSplitter().push(`${text}\n`).length;
}

/**
 * What a report says of the run that begins after line `from`: its lines shifted back by `from` — in a diagnostic's place
 * and in its words (`lines 7–100`, `(line 29)`: a number past `from` is a line of this run).
 */
function runReading(r: DfcReport, from: number) {
  const at = (n: number) => n - from;
  const words = (m: string) =>
    m.replace(/\b(lines? )(\d+)(?:–(\d+))?/g, (w, l: string, a: string, b?: string) =>
      Number(a) > from ? `${l}${at(Number(a))}${b ? `–${at(Number(b))}` : ''}` : w,
    );
  return {
    outcome: r.outcome,
    failedStage: r.failedStage,
    stages: r.stages.map((s) => `${s.name}:${s.status}`).join(' '),
    diagnostics: r.diagnostics
      .filter((d) => d.logLine > from)
      .map((d) => {
        const place = d.path === 'run.log' ? `${at(d.line)}:${d.column}-${at(d.endLine)}:${d.endColumn}` : `${d.path}:${d.line}:${d.column}`;
        return `${d.severity} ${d.code} ${d.node ?? '-'} @${at(d.logLine)} ${place} ${words(d.message)}${d.fix ? ` fix=${JSON.stringify(d.fix)}` : ''}`;
      }),
  };
}

/** The first run's facts gathered over its lines: an allocation failure (its cause, layers, the search's refusals). */
const allocationFailures = logs.filter(
  (l) =>
    (l.alone.outcome === 'failed' || l.alone.outcome === 'killed') &&
    l.alone.diagnostics.some((d) => d.severity === 'error' && /^Allocation failed|allocator's tries/.test(d.message)),
);
const otherFailures = logs.filter(
  (l) => !allocationFailures.includes(l) && l.alone.outcome === 'failed' && l.alone.diagnostics.some((d) => d.severity === 'error'),
);

/**
 * The programs a log runs at a shell's prompt. The log's own rule (state.ts): a prompt running a program the log already
 * showed run, after a failure, is a retry — so a second log that runs at its prompt a program the first one ran is read
 * as another run where it does, rightly: such a pair is not one run after another, and is left out.
 */
function promptPrograms(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split(/\r\n|\r|\n/)) {
    const m = SHELL_PROMPT.exec(line.trim());
    if (m) out.add(m[1]);
  }
  return out;
}
/**
 * Each line as the paste's form leaves it before any run reads it (reader.ts: quote forms, the margin, the log's template
 * learned from its lines, an author's hard wrap joined). The form is the whole paste's — a template seen on more lines is
 * trusted more (logShape.ts MIN_SUPPORT) — so a pair whose second log's lines take another form after the first's is no
 * test of what a run keeps, and is left out.
 */
function formOf(text: string): Map<number, string> {
  const forms = new QuoteForms();
  const margin = new Margin();
  const shape = new LogShape<LogLine>({ hold: true });
  const unwrap = new Unwrap();
  const out = new Map<number, string>();
  const set = (u: Decided) => out.set(u.item.no, u.cut ? u.cut.rest : u.text);
  const keep = (ds: Decided[]) => {
    for (const d of ds) unwrap.push(d, set, null);
  };
  for (const raw of new LineSplitter().push(`${text}\n`)) {
    const t = forms.take(raw.text);
    const line = t === raw.text ? raw : { ...raw, text: t };
    keep(shape.push(line, margin.take(line.text)));
  }
  keep(shape.flush());
  unwrap.flush(set, null);
  return out;
}
/** Each log's form read after the prompt alone, once. */
const formAlone = new Map<string, Map<number, string>>();
function sameForm(both: string, second: (typeof logs)[number], from: number): boolean {
  let alone = formAlone.get(second.name);
  if (!alone) formAlone.set(second.name, (alone = formOf(`${PROMPT}\n${second.text}`)));
  const b = formOf(both);
  for (const [no, t] of alone) if (b.get(no + from) !== t) return false;
  return true;
}

const ranAtPrompt = new Map(logs.map((l) => [l, promptPrograms(l.text)]));
const apart = (a: (typeof logs)[number], b: (typeof logs)[number]) =>
  ![...ranAtPrompt.get(b)!].some((p) => ranAtPrompt.get(a)!.has(p) || PROMPT.includes(` ${p} `));

/** Pairs: each allocation failure with itself, every other one and a spread of the rest; each other failure with itself and one more. */
function pairs(): [(typeof logs)[number], (typeof logs)[number]][] {
  const out: [(typeof logs)[number], (typeof logs)[number]][] = [];
  allocationFailures.forEach((first, i) => {
    for (const second of allocationFailures) out.push([first, second]);
    for (let k = 0; k < 6; k++) out.push([first, logs[(i * 37 + k * 89 + 11) % logs.length]]);
  });
  otherFailures.forEach((first, i) => {
    out.push([first, first]);
    out.push([first, logs[(i * 53 + 7) % logs.length]]);
  });
  // A run that shows nothing (no error, no answer) decides nothing: the failed run before it stays the log's word
  // (state.ts finish, reinstateEarlierRun) — read after one, it is rightly not read as alone.
  return out.filter(([a, b]) => apart(a, b) && (b.alone.outcome !== 'incomplete' || b.alone.diagnostics.length > 0));
}

test('dfc run reset: the corpus holds allocation failures to lead a log and others to follow', () => {
  assert.ok(allocationFailures.length >= 20, `${allocationFailures.length} allocation failures`);
  assert.ok(otherFailures.length >= 100, `${otherFailures.length} other failures`);
  // The prompt starts a new run after a failure: the first run's errors are the log's no more.
  const [first] = allocationFailures;
  const r = read([PROMPT, first.text, '', PROMPT, 'Done.']);
  assert.ok(r.diagnostics.some((d) => d.code === 'dfc/allocation-failed' && d.severity === 'warning' && /^An earlier run in this log failed/.test(d.message)));
});

test('dfc run reset: the run after a failed one reads as it reads alone', () => {
  const leaks: string[] = [];
  let compared = 0;
  for (const [first, second] of pairs()) {
    const from = linesIn(`${PROMPT}\n${first.text}\n`);
    if (!sameForm([PROMPT, first.text, '', PROMPT, second.text].join('\n'), second, from)) continue;
    compared++;
    const both = runReading(read([PROMPT, first.text, '', PROMPT, second.text]), from);
    const alone = runReading(second.alone, 0);
    try {
      assert.deepEqual(both, alone);
    } catch {
      const what = (Object.keys(alone) as (keyof typeof alone)[]).filter((k) => JSON.stringify(both[k]) !== JSON.stringify(alone[k]));
      const diag = both.diagnostics.filter((d) => !alone.diagnostics.includes(d));
      const lost = alone.diagnostics.filter((d) => !both.diagnostics.includes(d));
      leaks.push(
        `${first.name} + ${second.name}: ${what.map((k) => (k === 'diagnostics' ? k : `${k} ${String(both[k])} (alone ${String(alone[k])})`)).join('; ')}` +
          (diag.length ? `\n    read after: ${diag.join('\n    read after: ').slice(0, 600)}` : '') +
          (lost.length ? `\n    read alone: ${lost.join('\n    read alone: ').slice(0, 600)}` : ''),
      );
    }
  }
  assert.ok(compared >= 1000, `${compared} pairs compared`);
  assert.equal(leaks.length, 0, `${leaks.length} of ${compared} runs read differently after a failed one:\n${leaks.join('\n')}`);
});
