// Metamorphic test of the log reader's prefix tolerance (issue 30): users paste DFC and HailoRT
// output as some other program relayed it — docker compose, journald, kubectl, a Python logger,
// a Rich console panel, a coloured terminal, a Windows file, an indented notebook cell. Whatever
// the wrapper, the reading must be the same: every log of the corpus halves (test/fixtures/dfc-corpus/,
// every half already scored), re-emitted through each wrapper, must give the same outcome, failed
// stage and diagnostic codes as the log itself (wrappers inside wrappers too). The wrappers reproduce each program's own format
// (sources beside each), not the reader's patterns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readDfcLog, type DfcReport } from '../../../server/src/core/dfc';
import { normaliseLine } from '../../../server/src/core/dfc/normalise';
import { corpusCases, READ_PARTS } from '../../helpers/dfcCorpus';
import { repoRoot } from '../../helpers/shared';

type Wrapper = (lines: string[]) => string[];

/** The DFC's own level of a line (`[error] …`), for wrappers that log each line at its level. */
function levelOf(line: string): 'INFO' | 'WARNING' | 'ERROR' {
  const m = /^\s*\[(\w+)\]/.exec(line);
  const w = m?.[1].toLowerCase();
  return w === 'error' || w === 'critical' ? 'ERROR' : w === 'warning' || w === 'warn' ? 'WARNING' : 'INFO';
}

/** Nanoseconds that grow line by line, as a relay stamps them. */
function stamp(i: number, sep: 'T' | ' '): string {
  return `2026-12-06${sep}09:12:${String(10 + (i % 50)).padStart(2, '0')}.${String(123456789 + i * 7919).slice(0, 9)}`;
}

const WRAPPERS: Record<string, Wrapper> = {
  // docker compose v2: `%-*s | ` — the service name padded to the longest, then ` | ` (compose's log printer).
  compose: (ls) => ls.map((l) => `dfc-compile-1  | ${l}`),
  // compose with a service that stamps its own lines (Frigate's s6 `timestamp  message`, dfc-corpus unseen2/23).
  'compose+s6': (ls) => ls.map((l, i) => `frigate-hailo  | ${stamp(i, ' ')}  ${l}`),
  // journalctl's default `short` output: `Mon DD HH:MM:SS host identifier[pid]: message`.
  journald: (ls) => ls.map((l, i) => `Dec 06 09:12:${String(10 + (i % 50)).padStart(2, '0')} gpu-box hailo-compile[48213]: ${l}`),
  // kubectl logs --prefix --timestamps: `[pod/NAME/CONTAINER] RFC3339Nano message`.
  kubectl: (ls) => ls.map((l, i) => `[pod/dfc-job-7x2kq/dfc] ${stamp(i, 'T')}Z ${l}`),
  // A script relaying the DFC's console through Python's logging, '%(asctime)s - %(levelname)s - %(name)s - %(message)s',
  // every line at INFO (the DFC's own level tag stays in the message).
  'python-logging': (ls) =>
    ls.map((l, i) => `2026-12-06 09:12:${String(10 + (i % 50)).padStart(2, '0')},${String(i % 1000).padStart(3, '0')} - INFO - compile_model.dfc - ${l}`),
  // The same relay at each line's own level, logging.basicConfig's default format `%(levelname)s:%(name)s:%(message)s`.
  'python-basic': (ls) => ls.map((l) => `${levelOf(l)}:compile_model:${l}`),
  // '%(asctime)s [%(levelname)s] %(name)s: %(message)s', each line at its level.
  'python-bracket': (ls) =>
    ls.map((l, i) => `2026-12-06 09:12:${String(10 + (i % 50)).padStart(2, '0')},${String(i % 1000).padStart(3, '0')} [${levelOf(l)}] compile_model: ${l}`),
  // Rich's logging handler: `[HH:MM:SS] LEVEL    message` (the level padded to 8), the path column cut off by the paste.
  'rich-logging': (ls) => ls.map((l, i) => `[09:12:${String(10 + (i % 50)).padStart(2, '0')}] ${levelOf(l).padEnd(8)} ${l}`),
  // A Rich Panel around the whole console: `╭─ title ─╮`, `│ line │` padded to the widest line, `╰─╯`.
  'rich-panel': (ls) => {
    const w = Math.max(...ls.map((l) => l.length), 20);
    return [
      `╭${'─'.repeat(Math.floor(w / 2) - 3)} DFC log ${'─'.repeat(Math.ceil(w / 2) - 3)}╮`,
      ...ls.map((l) => `│ ${l.padEnd(w)} │`),
      `╰${'─'.repeat(w + 2)}╯`,
    ];
  },
  // loguru's default format: `YYYY-MM-DD HH:mm:ss.SSS | LEVEL    | name:function:line - message`.
  loguru: (ls) =>
    ls.map(
      (l, i) =>
        `2026-12-06 09:12:${String(10 + (i % 50)).padStart(2, '0')}.${String(i % 1000).padStart(3, '0')} | ${levelOf(l).padEnd(8)} | compile:run:42 - ${l}`,
    ),
  // ROS 2's console: `[LEVEL] [epoch.nanoseconds] [node]: message`.
  ros2: (ls) =>
    ls.map((l, i) => `[${levelOf(l) === 'WARNING' ? 'WARN' : levelOf(l)}] [${1733476330 + i}.${String(123456789 + i).slice(0, 9)}] [hailo_compile_node]: ${l}`),
  // GStreamer's debug log (GST_DEBUG): `time  pid  thread LEVEL  category file:line:function:<object> message`.
  gstreamer: (ls) =>
    ls.map(
      (l, i) =>
        `0:00:${String(10 + (i % 50)).padStart(2, '0')}.${String(123456789 + i).slice(0, 9)}  4242 0x55d4a2b3c4d0 ${(levelOf(l) === 'WARNING' ? 'WARN' : levelOf(l)).padEnd(7)} hailonet gsthailonet.cpp:789:gst_hailonet_configure:<hailonet0> ${l}`,
    ),
  // `cat -n`: the line number right-aligned in six columns, then a tab.
  'cat-n': (ls) => ls.map((l, i) => `${String(i + 1).padStart(6)}\t${l}`),
  // The dmesg-style kernel time some capture tools stamp (`[   12.345678] `).
  'kernel-time': (ls) => ls.map((l, i) => `[${(12 + i * 0.001).toFixed(6).padStart(12)}] ${l}`),
  // Wrappers inside wrappers: a Rich-logging script under kubectl, a basicConfig script under journald.
  'kubectl+rich': (ls) => WRAPPERS.kubectl(WRAPPERS['rich-logging'](ls)),
  'journald+python-basic': (ls) => WRAPPERS.journald(WRAPPERS['python-basic'](ls)),
  'compose+rich-panel': (ls) => WRAPPERS.compose(WRAPPERS['rich-panel'](ls)),
  // A colour terminal: level tags and whole error lines in SGR colours, a bold reset at the end.
  ansi: (ls) =>
    ls.map((l) => {
      const lv = levelOf(l);
      const c = lv === 'ERROR' ? '\x1b[31;1m' : lv === 'WARNING' ? '\x1b[33m' : '\x1b[38;5;246m';
      return `${c}${l}\x1b[0m`;
    }),
  // A paste from Windows (line ends are CRLF; the join below puts `\r\n` between lines).
  crlf: (ls) => ls,
  // A notebook cell's output pasted as an indented block (four spaces before every line), or a tab.
  notebook: (ls) => ls.map((l) => (l.length ? `    ${l}` : l)),
  'notebook-tab': (ls) => ls.map((l) => (l.length ? `\t${l}` : l)),
  // A log quoted inside a source file or a post (dfc-corpus unseen4/04, 05: a script keeping the DFC's
  // errors as comments): every line behind a shell/Python comment, a C/JS comment, a Markdown or e-mail quote.
  'hash-comment': (ls) => ls.map((l) => `# ${l}`),
  'slash-comment': (ls) => ls.map((l) => `// ${l}`),
  'quote-mark': (ls) => ls.map((l) => `> ${l}`),
  // A log quoted inline in a sentence, each line in a Markdown code span, verbatim (dfc-corpus unseen4/20-22).
  'inline-sentence': (ls) => ls.map((l) => (l.trim() && !l.includes('`') ? `We got \`${l}\` when running it` : l)),
};

interface Reading {
  outcome: DfcReport['outcome'];
  failedStage: DfcReport['failedStage'];
  codes: string[];
  /** What the run says it saved, kind and path as printed (a relay's prefix is no part of the path). */
  saved: string[];
}

function reading(text: string): Reading {
  const r = readDfcLog(text, { logPath: 'run.log' });
  return {
    outcome: r.outcome,
    failedStage: r.failedStage,
    codes: [...new Set(r.diagnostics.map((d) => `${d.code}:${d.severity}`))].sort(),
    saved: r.saved.map((f) => `${f.kind} ${f.path}`),
  };
}

/** The reader's own fixtures too (test/fixtures/dfc/: allocation grids, redrawn bars, IPython tracebacks, DFC 5). */
const FIXTURES = join(repoRoot, 'test', 'fixtures', 'dfc');
const fixtureDirs = readdirSync(FIXTURES, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => join(FIXTURES, d.name));
const logs = [...READ_PARTS.flatMap((p) => corpusCases(p)), ...fixtureDirs].map((dir) => ({
  name: dir.split('/').slice(-2).join('/'),
  lines: readFileSync(join(dir, 'run.log'), 'utf8').replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n'),
}));

test('dfc wrappers: the corpus is there to wrap', () => {
  assert.ok(logs.length >= 150, `${logs.length} logs`);
});

for (const [name, wrap] of Object.entries(WRAPPERS)) {
  test(`dfc wrappers: every corpus log reads the same through ${name}`, () => {
    const differ: string[] = [];
    for (const log of logs) {
      const plain = reading(`${log.lines.join('\n')}\n`);
      const wrapped = reading(`${wrap(log.lines).join(name === 'crlf' ? '\r\n' : '\n')}${name === 'crlf' ? '\r\n' : '\n'}`);
      try {
        assert.deepEqual(wrapped, plain);
      } catch {
        differ.push(`${log.name}: ${JSON.stringify(wrapped)} ≠ ${JSON.stringify(plain)}`);
      }
    }
    assert.equal(differ.length, 0, `${name}: ${differ.length}/${logs.length} logs read differently\n${differ.join('\n')}`);
  });
}

test("normalise: each relay's own form of one line leaves the line, its indentation and its level", () => {
  const cases: [string, string][] = [
    [
      'frigate-hailo  | 2024-08-24 21:51:44.836918597    File "/x/pyhailort.py", line 2610, in _open_vdevice',
      '  File "/x/pyhailort.py", line 2610, in _open_vdevice',
    ],
    ['Dec 06 09:12:33 gpu-box python3[4821]: [error] Mapping Failed', '[error] Mapping Failed'],
    ['[pod/dfc-7x2kq/dfc] 2024-08-24T21:51:44.123456789Z Traceback (most recent call last):', 'Traceback (most recent call last):'],
    ['2026-12-06 09:12:10.123 | ERROR    | compile:run:42 - Mapping Failed', '[error] Mapping Failed'],
    ['[WARN] [1733476330.123456789] [hailo_node]: [HailoRT] [warning] Low memory', '[warning] Low memory'],
    [
      '0:00:01.234567890  4242 0x55d4a2b3c4d0 ERROR                hailonet gsthailonet.cpp:789:gst_hailonet_configure:<hailonet0> Configuring the network failed',
      '[error] Configuring the network failed',
    ],
    [
      '2024-10-14 16:40:59.091439: W tensorflow/core/common_runtime/gpu/gpu_device.cc:1956] Cannot dlopen some GPU libraries.',
      // TensorFlow's W letter is its warning level (glog's prefix): the line is a warning, as behind any level.
      '[warning] Cannot dlopen some GPU libraries.',
    ],
    ['[09:12:10] ERROR    Encountered an unexpected error!                  __main__.py:66', '[error] Encountered an unexpected error!'],
    ['│     raise ValueError("x")                │', '    raise ValueError("x")'],
    ['╭──────── Traceback (most recent call last) ────────╮', 'Traceback (most recent call last)'],
    ['╰──────────────────────────────────────────────────╯', ''],
    ['2026-12-06 09:12:10,000 [INFO] compile_model:   File "x.py", line 3, in f', '  File "x.py", line 3, in f'],
    ['    17\t[info] Translation started on ONNX model yolov8n', '[info] Translation started on ONNX model yolov8n'],
    // Not relays: a compiler's source excerpt, prose, the DFC's own lines.
    ['   17 | #include <numpy/arrayobject.h>', '   17 | #include <numpy/arrayobject.h>'],
    ['[info] Running `hailo parser onnx m.onnx --hw-arch hailo8l`', '[info] Running `hailo parser onnx m.onnx --hw-arch hailo8l`'],
  ];
  for (const [line, want] of cases) assert.equal(normaliseLine(line), want, line);
});
