// Issue 18, DFC logs: a traceback of millions of frames (600 MB of short frames held 928 MB; 5 GB
// aborted V8), chains of tracebacks (every exception copied every frame so far: quadratic), a FIFO
// named `*.log` (Explain DFC Log and `dfc-log` blocked on it), `--alls` naming a FIFO or /dev/zero.
// The reader keeps the first and last frames and counts the rest; logs are streamed through
// common/fileAccess (regular files only). Memory is measured after a forced GC; the CLI runs in a
// child process with a small heap, so a regression is an out-of-memory exit, not a frozen runner.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { DfcLogReader } from '../../../server/src/core/dfc';
import { FRAMES_KEPT_EACH_END, FrameList } from '../../../server/src/core/dfc/errors';
import { FileRoots } from '../../../server/src/core/common/confined';
import { FileAccessError } from '../../../server/src/core/common/fileAccess';
import { makeFifo, releaseFifo } from '../../helpers/hostile';
import { repoRoot } from '../../helpers/shared';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;
const cli = join(repoRoot, 'bin', 'hailo-tools.js');

function heapAfterGc(): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}

/** Pushes `count` generated lines into the reader in 64 KiB pieces (nothing on disk). */
function feed(reader: DfcLogReader, count: number, line: (i: number) => string): void {
  let chunk = '';
  for (let i = 0; i < count; i++) {
    chunk += line(i);
    if (chunk.length >= 1 << 16) {
      reader.push(chunk);
      chunk = '';
    }
  }
  reader.push(chunk);
}

test('FrameList keeps the first and last frames and counts the rest', () => {
  const f = new FrameList();
  for (let i = 0; i < 10_000; i++) f.push(`f${i}`);
  const s = f.snapshot();
  assert.equal(s.frames.length, 2 * FRAMES_KEPT_EACH_END);
  assert.deepEqual(s.frames.slice(0, 2), ['f0', 'f1']);
  assert.deepEqual(s.frames.slice(-2), ['f9998', 'f9999']);
  assert.equal(s.omitted, 10_000 - 2 * FRAMES_KEPT_EACH_END);
  const small = new FrameList();
  for (const n of ['a', 'b', 'c']) small.push(n);
  assert.deepEqual(small.snapshot(), { frames: ['a', 'b', 'c'], omitted: 0 });
});

test('a traceback of 1,000,000 frames is read in bounded memory and still explained by its raising function', () => {
  const before = heapAfterGc();
  const reader = new DfcLogReader({ logPath: 'huge.log' });
  reader.push('Traceback (most recent call last):\n');
  feed(reader, 1_000_000, (i) => `  File "/usr/lib/python3/site-packages/hailo_sdk_client/m${i % 97}.py", line ${i}, in step_${i % 1009}\n`);
  reader.push('  File "/usr/lib/python3/site-packages/hailo_sdk_client/onnx_translator.py", line 1, in get_concat_info\n');
  reader.push('IndexError: list index out of range\n');
  const held = heapAfterGc() - before;
  const report = reader.end();
  assert.ok(held < 16 * 1024 * 1024, `the reader holds ${(held / 1048576).toFixed(1)} MiB after 1,000,000 frames`);
  assert.deepEqual(
    report.diagnostics.map((d) => d.code),
    ['dfc/concat-format'],
    'the last frame still tells the class',
  );
});

test('chained tracebacks ("During handling …") are linear: 150,000 chained exceptions in seconds, bounded memory', () => {
  const before = heapAfterGc();
  // CPU time of this process, not the wall clock: under CI's load (2 cores shared with the other suites) the wall clock
  // of the same work took 24 s, its CPU time stays what the reader costs.
  const started = process.cpuUsage();
  const reader = new DfcLogReader({ logPath: 'chained.log' });
  feed(reader, 150_000, (i) =>
    i === 0
      ? 'Traceback (most recent call last):\n  File "a.py", line 1, in f\nValueError: first\n'
      : `\nDuring handling of the above exception, another exception occurred:\n\nTraceback (most recent call last):\n  File "a.py", line ${i}, in g${i}\nValueError: again ${i}\n`,
  );
  const report = reader.end();
  const used = process.cpuUsage(started);
  const seconds = (used.user + used.system) / 1e6;
  assert.ok(seconds < 20, `${seconds.toFixed(1)} s of CPU time`);
  assert.ok(heapAfterGc() - before < 32 * 1024 * 1024);
  assert.ok(report.diagnostics.length <= 1001);
});

function runCli(args: string[], options: { heapMb?: number; timeoutMs?: number } = {}) {
  const r = spawnSync(process.execPath, [...(options.heapMb ? [`--max-old-space-size=${options.heapMb}`] : []), cli, ...args], {
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
  });
  return { status: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

test('dfc-log on 96 MB of traceback frames runs in a 48 MB heap (it kept every frame: out of memory)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-dfclog-'));
  try {
    const log = join(dir, 'frames.log');
    const fd = openSync(log, 'w');
    try {
      writeSync(fd, 'Traceback (most recent call last):\n');
      const block = Array.from({ length: 4096 }, (_, i) => `  File "m.py", line ${i}, in f${i}\n`).join('');
      const times = Math.ceil((96 * 1024 * 1024) / block.length);
      for (let i = 0; i < times; i++) writeSync(fd, block);
      writeSync(fd, 'RuntimeError: the end\n');
    } finally {
      closeSync(fd);
    }
    // The wall-clock limit only guards against a hang: this test is about memory (speed is bench/'s and the CPU-time test's
    // above), and on a loaded 2-core machine 96 MB took over 120 s of wall time (killed by SIGTERM at load 12).
    const r = runCli(['dfc-log', '--json', log], { heapMb: 48, timeoutMs: 600_000 });
    assert.equal(r.signal, null, `killed by ${r.signal}`);
    assert.equal(r.status, 1, `exit ${r.status}: ${r.err.slice(-600)}`);
    assert.equal(JSON.parse(r.out).outcome, 'failed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('dfc-log refuses a FIFO named *.log, and --alls naming a FIFO or /dev/zero, at once in one sentence', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-dfclog-'));
  const fifo = join(dir, 'run.log');
  const fifoAlls = join(dir, 'model.alls');
  try {
    if (!makeFifo(fifo) || !makeFifo(fifoAlls)) {
      t.skip('NOTE: mkfifo is not available on this platform');
      return;
    }
    const real = join(dir, 'real.log');
    writeFileSync(real, '[info] Translation started on ONNX model m\n');
    const started = Date.now();
    const r = runCli(['dfc-log', fifo], { timeoutMs: 20_000 });
    assert.equal(r.signal, null, 'the CLI blocked on the FIFO and was killed');
    assert.equal(r.status, 2);
    assert.equal(r.err, `hailo-tools dfc-log: ${fifo}: cannot read the log (is a FIFO (named pipe), not a regular file; not read)\n`);
    const a = runCli(['dfc-log', '--alls', fifoAlls, real], { timeoutMs: 20_000 });
    assert.equal(a.signal, null, '--alls blocked on the FIFO');
    assert.equal(a.status, 2);
    assert.match(a.err, /^hailo-tools dfc-log: cannot read the model script: '.*model\.alls' is a FIFO \(named pipe\), not a regular file; not read\n$/);
    if (existsSync('/dev/zero')) {
      const z = runCli(['dfc-log', '--alls', '/dev/zero', real], { heapMb: 64, timeoutMs: 20_000 });
      assert.equal(z.signal, null);
      assert.equal(z.status, 2);
      assert.match(z.err, /'\/dev\/zero' is a character device, not a regular file; not read/);
    }
    assert.ok(Date.now() - started < 30_000);
  } finally {
    releaseFifo(fifo);
    releaseFifo(fifoAlls);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('FileRoots streamText and readTextPrefix (Explain DFC Log): pieces of bounded size, UTF-8 kept whole, a FIFO refused', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-stream-'));
  try {
    const p = join(dir, 'x.log');
    writeFileSync(p, 'é'.repeat(5000));
    const pieces: string[] = [];
    const roots = FileRoots.named(p);
    const bytes = await roots.streamText(p, (s) => pieces.push(s), 1001);
    assert.equal(bytes, 10_000);
    assert.equal(pieces.join(''), 'é'.repeat(5000));
    assert.ok(pieces.every((s) => s.length <= 1001));
    assert.equal(await roots.readTextPrefix(p, 7), 'ééé');
    const fifo = join(dir, 'fifo.log');
    if (!makeFifo(fifo)) {
      t.diagnostic('NOTE: mkfifo is not available; the FIFO case is not checked');
      return;
    }
    await assert.rejects(
      roots.streamText(fifo, () => undefined),
      (e: unknown) => e instanceof FileAccessError && e.code === 'not-regular',
    );
    await assert.rejects(roots.readTextPrefix(fifo, 10), FileAccessError);
    releaseFifo(fifo);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("hostile: the relays' prefixes, box borders and run ends cost a scan on a 60 000-character adversarial line, not a backtrack", () => {
  // Each line is built to make a backtracking pattern retry at every position (a box side before
  // 60 000 spaces took 10 s, a border of 60 000 `─` without its corner did not finish in minutes).
  const N = 60_000;
  const lines: Record<string, string> = {
    'box side before spaces': `│${' '.repeat(N)}x`,
    'border without its corner': `╭${'─'.repeat(N)}x`,
    'border around a space': `╭${'─'.repeat(N)} T ${'─'.repeat(N)}x`,
    "Rich's right column": `ERROR - x${' '.repeat(N)}y`,
    'argparse without its message': `${'a'.repeat(N)}: error: nothing`,
    'argparse words': `${'a '.repeat(N)}: error: nothing`,
    'a HEF line without its verb': `HEF ${'x '.repeat(N)}`,
    'dotted words without a colon': `ERROR - ${'a.'.repeat(N)}`,
    'compose without its bar': `${'a'.repeat(N)} `,
    'journald without its identifier': `Dec 06 09:12:33 ${'a'.repeat(N)}`,
    'colons without FPS': 'a:'.repeat(N),
    'a margin, then spaces': `    x\n${' '.repeat(N)}y`,
    'GStreamer without its location': `0:00:01.1 1 0x1 ERROR ${'a'.repeat(N)}`,
    'loguru without its dash': `2025-01-01 10:00:00 | INFO | ${'a:'.repeat(N)}`,
    'a job line without its signal': `${'a'.repeat(N)}: line 1: 1 ${'b'.repeat(N)}`,
    // The fourth batch's classes (dfc-corpus unseen3/): the optimizer's inputs, named layers, modules, success words.
    'inference shapes without their layer': `AccelerasValueError: Inference input shapes [${'1, ]'.repeat(N)}`,
    'inference shapes heads repeated': 'Inference input shapes [] '.repeat(N / 25),
    'a quoted HN name without its close': `KeyError: '${'a/'.repeat(N)}`,
    'quotes and slashes': `ValueError: x ${"'a/".repeat(N)}`,
    'for-layer phrases without a name': `ValueError: ${'for layer .'.repeat(N / 10)}`,
    'a DFC module path without an end': `x hailo_model_optimization${'.a'.repeat(N)}`,
    'success words, a negation last': `${'completed successfully '.repeat(N / 20)}not`,
    'a list continuation after a list': `[error] shapes [${'[-1, '.repeat(N)}\n[[-1, 1]] ${'x'.repeat(N)}`,
    // The fifth batch's classes (dfc-corpus unseen4/): quoted logs, code spans, shapes, memory units.
    'code spans opened, never closed': `x \`${'a '.repeat(N)}\n${'b '.repeat(N)}\n${'c '.repeat(N)}\n${'d '.repeat(N)}`,
    'backticks everywhere': '` a'.repeat(N),
    'a sentence around a span of spaces': `We got \`${' '.repeat(N)}x\` when ${'a '.repeat(N)}`,
    'comment marks repeated': `${'# '.repeat(N)}x`,
    'element-wise shapes without their layer': `InvalidInputShape: Input shapes [${'[None, 1], '.repeat(N / 10)}`,
    'element-wise shapes heads repeated': "Input shapes ( doesn't match each other in ".repeat(N / 40),
    'a shell prompt without its command': `(venv) ${'a'.repeat(60)}@${'b'.repeat(60)}:${'/'.repeat(N)}`,
    'a prompt of dollars': `${'$ '.repeat(N)}x`,
    'command-not-found words without their end': `bash: line 1: x: ${'command not found '.repeat(N / 20)}x`,
    'apt versions without their package': `E: Version '${"'".repeat(N)}`,
    'a call chain of arrows': `${'→ a\n'.repeat(N / 10)}→ IndexError: x`,
    'arrows without a name': `${'→ '.repeat(N)}`,
    'memory units heads repeated': 'Memory units capacity exceeded (available: 1'.repeat(N / 40),
    // The sixth batch's classes (dfc-corpus unseen5/): tools' answers, success marks, sentence ends, quoted refusals.
    'success marks repeated': `${'✅ '.repeat(N)}x`,
    'progress heads without their count': `Network ${'a'.repeat(N)}: 100% | x`,
    'info card words without their unit': `operations: ${'1'.repeat(N)}.`,
    'message sentences repeated, cut': `${'HEF format is not compatible with device. '.repeat(N / 40)}x.`,
    'invalid choice without its close': `invalid choice: '${'a'.repeat(N)}`,
    'capitalised words before a full stop': `${' Aaaa'.repeat(N / 5)} x.`,
    'a class name of every length, unended': `${'A'.repeat(N)}.`,
    'GenAI model words without a verb': `${'VLM fails '.repeat(N / 10)}x`,
    // The seventh batch's classes (dfc-corpus unseen6/): sentences around spans, status-first checks, reports in prose.
    'a sentence of statuses around a span': `We got \`${'a '.repeat(N)}\` ${'HAILO_TIMEOUT and '.repeat(N / 18)}`,
    'status-first checks without their model': `${'status=HAILO_INVALID_HEF(26) - '.repeat(N / 32)}Failed to create x`,
    'numbered statuses without their dash': `${'status=26 '.repeat(N / 10)}x`,
    'HEF version words repeated': `${'HEF version '.repeat(N / 12)}x`,
    'refusal classes without a node': `${'UnsupportedShuffleLayerError on a '.repeat(N / 34)}x`,
    'a refusal class, then words': `UnsupportedShuffleLayerError ${'ab '.repeat(N / 3)}`,
    'a refusal class, then one long word': `UnexpectedNodeError on ${'a'.repeat(N)}`,
    'a class between cells of spaces': `|${' '.repeat(N)}UnsupportedConcatLayerError${' '.repeat(N)}x`,
    'refusal classes side by side': `${'UnexpectedNodeError '.repeat(N / 20)}`,
    'a class and its raising function far apart': `IndexError ${'a '.repeat(N / 2)}_convert_axes_to_nhwc`,
    'raising functions repeated': `${'_convert_axes_to_nhwc IndexErro '.repeat(N / 32)}`,
    'clauses without an end before a class': `${'if '.repeat(N / 3)}UnsupportedModelError on node_1`,
    'a word before Agent infeasible': `x ${'a'.repeat(N)}Agent infeasibl`,
    'Agent heads repeated': `${'-aAgent infeasibl'.repeat(N / 17)}`,
    'Mapping heads repeated': `${' Mapping Faile'.repeat(N / 14)}`,
    'a class name of every length before Error': `${'Aa'.repeat(N / 2)}Error`,
    'cells of classes': `${'| XError '.repeat(N / 9)}|`,
    'stage words before a class': `${'parsing optimiz '.repeat(N / 16)}ValueError: x`,
    'a long introducing line, then an error': `${'pars '.repeat(N / 5)}:\n${'ValueError: x\n'.repeat(1000)}`,
    // The eighth batch's classes (dfc-corpus unseen7/): the DFC's and HailoRT's own log files.
    "a log file's file:line without its dash": `2025-01-01 10:00:00,000 - IMPORTANT - ${'a'.repeat(N)}:1 x`,
    "a log file's colons without a line number": `2025-01-01 10:00:00,000 - INFO - ${'a:'.repeat(N)} - x`,
    'a Running line of spaces': `2025-01-01 10:00:00,000 - INFO - main.py:1 - Running hailo x${' '.repeat(N)}x`,
    'a command of spaces in backticks': `[info] Running \`hailo compiler${' '.repeat(N)}`,
    'Compilation complete, then spaces': `Compilation complete${' '.repeat(N)}x`,
    'profiler reports repeated': `${'Saved Profiler HTML Report to: '.repeat(N / 31)}`,
    'the compiler advice repeated': `${'To achieve optimal performance, set the compiler_optimization_level '.repeat(N / 68)}`,
    'commands that ran, repeated': `${'Ran from command: "a" '.repeat(N / 22)}`,
    'vdevice creations repeated': `${'[info] Creating vdevice with params '.repeat(N / 36)}`,
    'info lines naming contexts': `${'[info] Iteration failed on: Automri finished with too many resources on context_'.repeat(N / 80)}`,
    'runs appended to one log': `${'[info] Translation started on ONNX model a\n[info] Translation completed on ONNX model a\n'.repeat(N / 80)}`,
    'model scripts loaded after a stage': `[info] Model Optimization is done\n${'[info] Loading model script commands to a from b\n'.repeat(N / 50)}`,
    // A log's own line template (logShape.ts): heads of fields that never end, separators that never
    // end, a template confirmed and then a 60 000-character line behind it, thousands of distinct heads.
    'logger fields repeated': `${'2025-01-01 10:00:00 - INFO - x.py:1 - '.repeat(N / 38)}x`,
    'separators without a field': `2025-01-01 10:00:00${' -|:[]()<>'.repeat(N / 10)}x`,
    'openers repeated': `${'[(<'.repeat(N / 3)}x`,
    'numbers and dots': `${'1.'.repeat(N / 2)}x`,
    'a dotted name that never ends': `2025-01-01 10:00:00 ${'a.'.repeat(N / 2)}`,
    'a long name, then a dot': `${'2025-01-01 10:00:00 x - a\n'.repeat(8)}2025-01-01 10:00:00 ${'a'.repeat(N)}.`,
    "a name of the head's length, then a dot": `2025-01-01 10:00:00 ${'a'.repeat(280)}. ${'b '.repeat(N / 2)}`,
    'a bracket that never closes': `[${'a'.repeat(N)}`,
    'a template, then spaces behind it': `${'2025-01-01 10:00:00 - INFO - x.py:1 - a\n'.repeat(8)}2025-01-01 10:00:00 - INFO - x.py:1 -${' '.repeat(N)}x`,
    'a template, then a long line': `${'Dec  6 12:00:01 host app[1]: W: a\n'.repeat(8)}Dec  6 12:00:01 host app[1]: W: ${'a '.repeat(N / 2)}`,
    // The ninth batch's classes (dfc-corpus unseen8/): layers before the allocator's cause, the NMS config's head, a stop.
    'layer names before errors:, never the cause': `${'a/b errors: '.repeat(N / 12)}x`,
    'a long layer name before errors:': `${'a'.repeat(N)} errors: Agent infeasibl`,
    'slashes before errors:': `${'a/'.repeat(N / 2)} errors: Agent infeasible`,
    "NMS heads that never say doesn't have one": `${'layer a/b '.repeat(N / 10)}doesn't have one outpu`,
    'interrupts of spaces': `^C${' '.repeat(N)}x`,
    'Terminated job lines of spaces': `[1]+${' '.repeat(N)}Terminated${' '.repeat(N)}x`,
    'KeyboardInterrupt repeated': `${'KeyboardInterrupt '.repeat(N / 18)}`,
    'hailort.h limits that never end': `HAILO_MAX_${'A_'.repeat(N / 2)}`,
    'failure sentences repeated': `${'Failed to x '.repeat(N / 12)}`,
    'meta architectures that never end': `The specified meta architecture ${'a'.repeat(N)} cannot be run on chi`,
    'HailoRT versions of spaces': `${'hailort '.repeat(N / 8)}${' '.repeat(N)}4.2`,
    'reasons repeated after a status': `[HailoRT] [error] status=HAILO_OPEN_FILE_FAILURE(13)\n${'permission cannot read errno no such '.repeat(N / 37)}`,
    // The tenth batch's classes (dfc-corpus unseen9/): the DFC's system check rows.
    'requirement words that never say not found': `${'Requirement a '.repeat(N / 14)}x`,
    'a requirement name that never ends': `Requirement ${'a.'.repeat(N / 2)} not foun`,
    'version words without their found': `${'CUDA version should be 9 or higher, '.repeat(N / 36)}x`,
    'a found value of spaces': `CUDNN version should be 9 or higher, found ${' '.repeat(N)}x`,
    // The compiler's verdict and its exception (the core log at info).
    'compile exceptions repeated, no layer': `${'Compilation failed with exception: '.repeat(N / 35)}x`,
    'a compile exception, then spaces': `Compilation failed with exception: layer a${' '.repeat(N)}x`,
    'layer words after a compile exception': `Compilation failed with exception: ${'layer '.repeat(N / 6)}`,
    'verdicts at info repeated': `${'[default] [info] Mapping Failed\n[default] [info] Compilation failed with exception: a layer b\n'.repeat(N / 90)}`,
    // HailoRT's monitor thread and a pipeline torn down.
    'queue elements that never say on destruction': `${'Queue element a has 1 frames in his Queue '.repeat(N / 42)}on destructio`,
    'a queue element name of spaces': `Queue element ${' '.repeat(N)} has 0 frames in his Queue on destruction`,
    'monitor columns repeated': `${'[monitor_handler.cpp:1] [dump_state '.repeat(N / 37)}x`,
    // A sentence of many spans, one of them a log's line.
    'spans of single tokens around a line': `${'`a` '.repeat(N / 4)}\`[error] a b\` ${'`c` '.repeat(N / 4)}`,
    'spans of words, none a line': `${'`a b` '.repeat(N / 6)}x`,
    // The stage's evidence (stageEvidence.ts): HAR names, a command's input HAR, ClientRunner calls, frames at the margin.
    'HAR names that never end': `Saved HAR to ${'a.'.repeat(N / 2)}ha`,
    'input HARs repeated': `hailomz compile ${'--har=--har='.repeat(N / 12)}x.ha`,
    'a HAR loaded without its end': `runner = ClientRunner(har=${'a'.repeat(N)}`,
    'runner calls that never open': `${'runner.optimize '.repeat(N / 16)}x`,
    'frames at the margin, each with its code': `${'File "/a/hailo_sdk_client/b.py", line 1, in compile\nx = y(z)\n'.repeat(N / 60)}TypeError: q`,
    'thousands of unexplained error lines': `${'ERROR x failed to y: a\n'.repeat(N / 20)}`,
    // The eleventh batch's classes (dfc-corpus unseen10/): any program's words that it failed, the loader's, a locale's signals.
    'failure words repeated, a condition last': `${'could not link a to b '.repeat(N / 22)}if`,
    'failure words, one long word before them': `${'a'.repeat(N)} failed`,
    'failure words, narrators far apart': `${'I '.repeat(N / 2)}cannot x`,
    'a prefix word that never says error': `${'a'.repeat(N)}: erro`,
    'exit statuses without their number': `${'exited with code '.repeat(N / 17)}x`,
    'non-zero words repeated': `${'returned a non-zero code '.repeat(N / 25)}x`,
    'versions words without their list': `not in the list of ${'required '.repeat(N / 9)}x`,
    'a package name of quotes': `No package '${"'".repeat(N)} found`,
    'shared libraries that never end': `${'libhailort.so.4.'.repeat(N / 16)}x cannot open shared object file`,
    'a library name of every length': `lib${'a'.repeat(N)}.so.1 not found`,
    'localised job lines without their signal': `${'a'.repeat(N)}: Zeile 1: 42 ${'b'.repeat(N)}`,
    'a signal, then a core note that never closes': `Speicherzugriffsfehler (${'a'.repeat(N)}`,
    'frames at the margin without their line': `File "${'a'.repeat(N)}", lin`,
    'completion words, then spaces': `x failed\n${' done'.repeat(N / 5)}${' '.repeat(N)}x`,
    'code words without their call': `${'echo'.repeat(N / 4)} failed`,
    'warnings no entry knows, repeated': `${'WARNING: camera a could not b\n'.repeat(N / 30)}`,
    // The forms a log is quoted in (forms.ts, normalise.ts, reader.ts; test/unit/dfc/dfc-quote-forms.test.ts).
    'HTML entities repeated': `${'&lt;'.repeat(N / 4)}x`,
    'an entity that never ends': `&amp; &#${'1'.repeat(N)}`,
    'entities escaped twice': `${'&amp;quot;'.repeat(N / 10)}`,
    'a JSON string that never closes': `      "${'a\\n'.repeat(N / 3)}`,
    'JSON escapes, then spaces': `      "${'\\"'.repeat(N / 2)}"${' '.repeat(N)}x`,
    "a notebook's list, then long strings": `"text": [\n${`      "${'a '.repeat(N / 2)}",\n`.repeat(4)}]`,
    'curly quotes and odd spaces': `${'\u201c\u00a0\u2019'.repeat(N / 3)}`,
    'quote marks nested without end': `${'> '.repeat(N / 2)}x`,
    'bare marks': `${'>'.repeat(N)}`,
    'code, then spaces before a comment': `x = f(a)${' '.repeat(N)}# y`,
    'code marks repeated before a comment': `${'a = ( '.repeat(N / 6)} # x`,
    'a sentence that never reaches its tag': `${'It fails with '.repeat(N / 14)}[erro x`,
    'words before an upper-case level': `${'a '.repeat(N / 2)}ERROR: x`,
    "an author's colons repeated": `${'Same as before: '.repeat(N / 16)}x`,
    'words, a colon, dotted words without a class': `${'a '.repeat(N / 4)}: ${'b.'.repeat(N / 4)}`,
    'a table row of many cells': `|${' a b |'.repeat(N / 6)}`,
    'a table row without its end': `| a b ${'|'.repeat(N)}x`,
    'a paragraph of lower-case lines at one width': `${`${'a '.repeat(30)}\n`.repeat(2000)}`,
    'a short line, then one long word': `  File\n${'a'.repeat(N)}\n${'b'.repeat(N)}`,
    'a prompt of spaces': `(venv) a@b:${' '.repeat(N)}$ x`,
    'classes ending lines': `${'AError:\nB\n'.repeat(N / 10)}`,
    'double quotes far apart': `says "${'a '.repeat(N / 2)}" and ${'b '.repeat(N / 2)}`,
    'a sentence in Japanese around a span': `${'実行'.repeat(N / 2)} \`x y\` ${'で'.repeat(N)}`,
    'bracketed columns and nothing after them': `${'[a] '.repeat(N / 4)}`,
    'a module insert without its errno': `Exec format error ${"could not insert module 'a/".repeat(N / 25)}: Exec`,
    'scoped names beside a quoted shift': `${'a/b-'.repeat(N / 4)}x.Desired shift is 9.0, but op has only 8 data bits ${'_/'.repeat(N / 2)}`,
    'modules named without not found': `${'Module a_b '.repeat(N / 11)}not`,
    // Ultralytics' export console (dfc-ultralytics-export.test.ts): its verdicts and its calibration count.
    'export success without its saved-as': `Hailo: export success ${'✅ '.repeat(N / 2)}x`,
    'export verdicts repeated': `${'a: export success 1.0s, export failure 1s: '.repeat(N / 44)}`,
    'an export prefix of spaces': `${' '.repeat(N)}: export failure 1.0s: x`,
    'a calibration count of every length': `level-2 optimization will use ${'1'.repeat(N)}`,
    'thousands of distinct heads': Array.from(
      { length: 6000 },
      (_, i) => `2025-01-01 10:00:00${' -|:'.slice(0, 1 + (i % 4))}${'[('.slice(0, i % 3)}${i % 7 ? 'INFO' : 'x.py:1'}${' | '.repeat(i % 5)}a`,
    ).join('\n'),
  };
  for (const [name, line] of Object.entries(lines)) {
    // CPU time, not the wall clock: the machine's load must not fail a line the reader reads in linear time.
    const t = process.cpuUsage();
    const r = new DfcLogReader({});
    r.push(`${line}\n`);
    r.end();
    const used = process.cpuUsage(t);
    const ms = (used.user + used.system) / 1000;
    assert.ok(ms < 1500, `${name}: ${ms.toFixed(0)} ms of CPU time`);
  }
});
