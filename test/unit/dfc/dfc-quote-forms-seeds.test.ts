// Quotings that read differently from the plain log only under seeds the suite does not run (the tuning seeds 2–10 of
// `node scripts/dfc-quote-forms.mjs`; docs/dfc-log.md, the quote-forms paragraph), each class on real corpus lines in
// its form, against the plain log's reading (its expect.json where it has the field):
// - a fenced paste, and the author's words under it (`Any help is appreciated.`): neither shows the run going on
//   (forms.ts QuoteForms.aside, state.ts) — a hailort.log that ends on the next session's opening, a docker load;
// - a list item's indentation goes on after its fenced block closes (forms.ts QuoteForms.item);
// - a CRLF file's line ends converted once more (`\r\r\n`): lines, not frames (lines.ts endCRs);
// - an empty line of marks of two kinds (`# //`): empty (forms.ts);
// - a table's one-word cell the shell prints alone for SIGKILL (`| 1 | Killed |`): a line (reader.ts tableCells);
// - a table's cell quoting a line in a code span, its pipes escaped as GFM requires (`\|`): read unescaped (reader.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { LineSplitter, readDfcLog } from '../../../server/src/core/dfc';
import { corpusLogLines, DFC_CORPUS as CORPUS } from '../../helpers/dfcCorpus';
import { repoRoot } from '../../helpers/shared';

const read = (text: string) => readDfcLog(text, { logPath: 'run.log' });
const codes = (r: ReturnType<typeof read>) => [...new Set(r.diagnostics.map((d) => `${d.code}:${d.severity}`))].sort();
const said = (r: ReturnType<typeof read>) => `${r.outcome} ${r.failedStage} ${JSON.stringify(codes(r))}`;
/** A corpus case's expectation (its expect.json's `expect`). */
function expected(part: string, prefix: string): { outcome?: string; codes?: string[]; noErrors?: boolean } {
  const dir = readdirSync(join(CORPUS, part)).find((n) => n.startsWith(prefix))!;
  return (JSON.parse(readFileSync(join(CORPUS, part, dir, 'expect.json'), 'utf8')) as { expect: Record<string, never> }).expect;
}
/** A fenced block after a sentence, the author's thanks under it; `item`: inside a numbered list item (the fence indented with it). */
const fenced = (lines: string[], intro: string, outro: string, item = false) => {
  const ind = item ? '   ' : '';
  return [item ? `1. ${intro}` : intro, '', `${ind}\`\`\`log`, ...lines.map((l) => (l ? ind + l : l)), `${ind}\`\`\``, '', outro, ''].join('\n');
};

test('a fenced paste and the words under it show nothing of a session the log ended on: the refusal before it stands', () => {
  // dfc-corpus unseen13/10: a HEF for Hailo-15H refused on a Hailo-8, then the next process's `Creating vdevice` ends the
  // rotated log (its own session, which shows nothing yet); unseen8/27: the same after a driver failure.
  for (const [part, prefix, code] of [
    ['unseen13', '10-', 'hailort/hef-device-mismatch'],
    ['unseen8', '27-', 'hailort/driver'],
  ] as const) {
    const lines = corpusLogLines(part, prefix);
    const want = expected(part, prefix);
    assert.equal(want.outcome, 'failed');
    assert.ok(want.codes?.includes(code));
    const plain = read(`${lines.join('\n')}\n`);
    assert.equal(plain.outcome, 'failed', said(plain));
    for (const text of [
      fenced(lines, '运行输出如下：', 'Any help is appreciated.'),
      fenced(lines, 'Here is the output:', 'Thanks in advance.', true),
      `\`\`\`\n${lines.join('\n')}\n\`\`\`\n`,
    ]) {
      const r = read(text);
      assert.equal(r.outcome, 'failed', `${part}/${prefix} ${said(r)}\n${text}`);
      assert.ok(codes(r).includes(`${code}:error`), `${part}/${prefix} ${said(r)}`);
    }
  }
});

test("a fenced paste ending at the shell's next prompt, and a docker load's image line under the author's thanks", () => {
  // dfc-corpus unseen3/27: a terminal paste whose HAILO_NOT_IMPLEMENTED ends at the prompt of the next command (a retry
  // that shows nothing); unseen25/23: `docker load`'s `Loaded image:` is the run's answer, and the thanks are the author's.
  const jarvis = corpusLogLines('unseen3', '27-');
  assert.equal(expected('unseen3', '27-').outcome, 'failed');
  for (const text of [fenced(jarvis, 'Вывод команды:', 'Спасибо.'), fenced(jarvis, '실행 결과는 다음과 같습니다:', '감사합니다.', true)]) {
    const r = read(text);
    assert.equal(r.outcome, 'failed', said(r));
    assert.ok(codes(r).includes('hailort/status:error'), said(r));
  }
  const docker = corpusLogLines('unseen25', '23-');
  assert.equal(expected('unseen25', '23-').outcome, 'success');
  for (const text of [fenced(docker, 'Here is the output:', 'Any help is appreciated.'), fenced(docker, 'La salida completa:', '¡Gracias!', true)]) {
    const r = read(text);
    assert.equal(r.outcome, 'success', said(r));
    assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 0, said(r));
  }
});

test("a list item's indentation goes on after its fenced block closes: the item's next block is read at its margin", () => {
  // dfc-corpus unseen4/19 (an author's note with its own fenced error) pasted inside a list item's fenced block: the note's
  // fence closes the item's (Markdown has no nesting), and the error's lines after it are the item's still, indented with it.
  const lines = corpusLogLines('unseen4', '19-');
  const plain = read(`${lines.join('\n')}\n`);
  assert.equal(plain.outcome, 'failed');
  const r = read(fenced(lines, 'Full log below.', 'Obrigado!', true));
  assert.equal(said(r), said(plain));
  assert.deepEqual(
    r.diagnostics.map((d) => d.node),
    plain.diagnostics.map((d) => d.node),
  );
});

test('a CRLF log whose line ends were converted again (`\\r\\r\\n`) reads as its lines, not as frames', () => {
  // dfc-corpus unseen9/27 (hailort/status in an author's wrapped span) and unseen14/56 (optimize failed), each line ended
  // `\r\r\n` — Python writing `\r\n` to a text-mode file on Windows; an editor still counts the empty line between.
  for (const [part, prefix] of [
    ['unseen9', '27-'],
    ['unseen14', '56-'],
  ] as const) {
    const lines = corpusLogLines(part, prefix);
    const plain = read(`${lines.join('\n')}\n`);
    const want = expected(part, prefix);
    if (want.outcome) assert.equal(plain.outcome, want.outcome);
    for (const c of want.codes ?? []) assert.ok(codes(plain).some((x) => x.startsWith(`${c}:`)));
    const r = read(`${lines.join('\r\r\n')}\r\r\n`);
    assert.equal(said(r), said(plain));
    // Diagnostics stand on the lines an editor shows: line k of the log is line 2k − 1 of the doubled file.
    assert.deepEqual(
      r.diagnostics.map((d) => d.logLine),
      plain.diagnostics.map((d) => 2 * d.logLine - 1),
    );
  }
  // A lone `\r` still ends a frame (tqdm's), `\r\n` a line; and a stream split anywhere splits the same.
  const text = 'Calibration:  10%|#  | 6/64\rCalibration: 100%|###| 64/64\r\nnext\r\r\nlast\r\r';
  const split = (chunks: string[]) => {
    const s = new LineSplitter();
    const out = chunks.flatMap((c) => s.push(c));
    return [...out, ...s.flush()].map((l) => `${l.no}:${l.text}:${l.overwritten ? 'frame' : l.doubled ? 'doubled' : 'line'}`);
  };
  const want = ['1:Calibration:  10%|#  | 6/64:frame', '2:Calibration: 100%|###| 64/64:line', '3:next:line', '4::doubled', '5:last:frame', '6::frame'];
  assert.deepEqual(split([text]), want);
  for (let i = 1; i < text.length; i++) assert.deepEqual(split([text.slice(0, i), text.slice(i)]), want, `split at ${i}`);
  assert.deepEqual(split([...text]), want);
});

test('an empty line of a commented-out quote (`# //`) is as empty as its one mark', () => {
  // dfc-corpus unseen24/67 (a session's notes: HailoRT cannot create its log file, no error), commented out twice.
  const lines = corpusLogLines('unseen24', '67-');
  assert.equal(expected('unseen24', '67-').noErrors, true);
  const twice = lines.map((l) => (l ? `// ${l}` : '//')).map((l) => `# ${l}`);
  const r = read(`${twice.join('\n')}\n`);
  assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 0, said(r));
  assert.equal(said(r), said(read(`${lines.join('\n')}\n`)));
});

test("a table's one-word cell the shell prints alone: `Killed`", () => {
  // test/fixtures/dfc/killed-line: the OOM killer's `Killed` (expected.json: killed) in a table of attempts.
  const killed = readFileSync(join(repoRoot, 'test', 'fixtures', 'dfc', 'killed-line', 'run.log'), 'utf8')
    .trimEnd()
    .split('\n');
  const key = killed[killed.length - 1];
  assert.equal(read(`${key}\n`).outcome, 'killed');
  for (const table of ['| Attempt | Result |\n|---|---|\n| 1 | Killed |\n', '| # | Message | Notes |\n|---|---|---|\n| 1 | Killed | same as before |\n']) {
    const r = read(table);
    assert.equal(r.outcome, 'killed', said(r));
    assert.deepEqual(codes(r), ['dfc/memory-killed:error']);
  }
});

test("a table's cell quoting a line in a code span, its pipes escaped (`\\|`) as GFM requires", () => {
  // dfc-corpus unseen2/23's first line (docker compose's `frigate-hailo  | …`, a `| grep` in it) in a cell's code span.
  const [line] = corpusLogLines('unseen2', '23-');
  assert.equal(expected('unseen2', '23-').outcome, 'failed');
  const plain = read(`${line}\n`);
  assert.equal(plain.outcome, 'failed');
  const cell = `| Modelo | Erro | Mudança |\n|---|---|---|\n| 1 | \`${line.replace(/\|/g, '\\|')}\` | same as before |\n`;
  const r = read(cell);
  assert.deepEqual(codes(r), codes(plain), said(r));
  assert.equal(r.outcome, plain.outcome);
});

/** A corpus case's line that holds `needle`. */
const lineOf = (part: string, prefix: string, needle: string) => corpusLogLines(part, prefix).find((l) => l.includes(needle))!;

test("an author's sentence going on into a program's line: HailoRT's CLI tag, its source column, `[Error]`, a C compiler's error", () => {
  // dfc-corpus unseen2/14 (`hailortcli run --power-measure` refused), unseen8/10 (an LLM's HEF without its prefill group:
  // HailoRT's source column and function, its logger's first columns gone), unseen18/72 (the SDK installer's `[Error]`).
  for (const [part, prefix, needle] of [
    ['unseen2', '14-', '[HailoRT CLI] [error]'],
    ['unseen8', '27-', '[HailoRT] [error]'],
    ['unseen8', '10-', '[llm_inference_manager.cpp:31]'],
    ['unseen18', '72-', '[Error] Unsupported release'],
    // unseen17/71: the C compiler's error building HailoRT's PCIe driver (`file.c:53:5: error: …`).
    ['unseen17', '71-', 'monitor.c:53:5: error:'],
  ] as const) {
    const line = lineOf(part, prefix, needle);
    const plain = read(`${line}\n`);
    assert.ok(plain.diagnostics.length > 0, line);
    for (const c of expected(part, prefix).codes ?? [])
      assert.ok(
        codes(plain).some((x) => x.startsWith(`${c}:`)),
        `${c} ${said(plain)}`,
      );
    for (const text of [`It fails with ${line}`, `Same result as before: ${line}`, `> > It fails with ${line}`]) {
      const r = read(`${text}\n`);
      assert.deepEqual(codes(r), codes(plain), `${text}\n${said(r)}`);
    }
  }
});

test("a program's death at the end of an author's sentence: the signal's words or libstdc++'s terminate line", () => {
  // dfc-corpus unseen13/59 (`Segmentation fault`), unseen10/04 (German `Speicherzugriffsfehler`), unseen2/05 and
  // test/fixtures/dfc/crashed (`terminate called after throwing an instance of 'std::bad_alloc'`), unseen11/62 (std::invalid_argument).
  for (const [part, prefix, needle] of [
    ['unseen13', '59-', 'Segmentation fault'],
    ['unseen10', '04-', 'Speicherzugriffsfehler'],
    ['unseen2', '05-', 'terminate called'],
    ['unseen11', '62-', 'terminate called'],
  ] as const) {
    assert.equal(expected(part, prefix).outcome, 'failed');
    const line = lineOf(part, prefix, needle);
    const plain = read(`${line}\n`);
    assert.deepEqual(codes(plain), ['dfc/crashed:error'], line);
    for (const text of [`It fails with ${line}`, `Same result as before: ${line}`, `>> It fails with ${line}`, `After a few minutes I get ${line}`]) {
      const r = read(`${text}\n`);
      assert.deepEqual(codes(r), ['dfc/crashed:error'], `${text}\n${said(r)}`);
      assert.equal(r.outcome, 'failed', text);
    }
  }
  // A sentence about the death in its own words quotes nothing; nor is a shell's job line cut (it is read whole).
  for (const text of ['I fixed the Segmentation fault', 'No more Segmentation fault', 'The patch avoids the Segmentation fault'])
    assert.notEqual(read(`${text}\n`).outcome, 'failed', text);
  const job = read('./run.sh: line 28:  7499 Aborted (core dumped)\n');
  assert.deepEqual(codes(job), ['dfc/crashed:error']);
});

test("after a fenced paste, a log's own line (the next command's prompt, a dated record) is the run's again, not the author's", () => {
  // dfc-corpus unseen27/38 (an author's troubleshooting note whose optimize error ends in a closed fence), then the next
  // command at a prompt and its output, unseen12/53 (pyhailort's dtype warnings only): that run decides, as it does alone.
  const note = corpusLogLines('unseen27', '38-');
  assert.equal(note[note.length - 1], '```');
  const next = corpusLogLines('unseen12', '53-');
  const prompt = 'dev@gpu-box:~/work$ python3 compile_model.py';
  const alone = read(`${[prompt, ...next].join('\n')}\n`);
  assert.notEqual(alone.outcome, 'failed', said(alone));
  const after = read(`${[prompt, ...note, '', prompt, ...next].join('\n')}\n`);
  assert.equal(after.outcome, alone.outcome, said(after));
  assert.equal(after.failedStage, alone.failedStage);
});
