// Generative metamorphic test of the log reader's own-template mechanism (server/src/core/dfc/logShape.ts,
// issue 30; docs/research/dfc-unseen-misses.md, class B): logger formats no list contains, composed
// from a seeded PRNG out of a logger's parts (test/helpers/loggerShapes.ts), each applied to every line
// of every read corpus log (test/fixtures/dfc-corpus/, READ_PARTS — never the set-aside batch) and of
// the reader's fixtures: the reading — outcome, failed stage, diagnostic codes with their severity, the
// nodes named — must equal the plain log's. More seeds, without any environment:
// `node scripts/dfc-logger-shapes.mjs --seeds 1..40 --per-log 8`.
// The focused tests below hold what the mechanism must never take: the DFC's own lines, tracebacks,
// table rows, a log of two or three lines, prose and a message's repeated first words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LogShape, type ShapeCut } from '../../../server/src/core/dfc/logShape';
import { applyShape, dfcLogFileShape, loggerShape, reading, runShape, runShapes, shapeLogs, shapeable, MIN_LINES } from '../../helpers/loggerShapes';
import { repoRoot } from '../../helpers/shared';

/** The seed the suite runs; the script runs others. */
const SEED = 1;
const PER_LOG = 24;

test('dfc logger shapes: the generated formats are many and varied', () => {
  const labels = new Set(Array.from({ length: 400 }, (_, i) => loggerShape(i).label));
  assert.ok(labels.size >= 390, `${labels.size} distinct formats of 400`);
  // Every part occurs: the timestamp styles, level letters and words, pids, threads, names, file columns, hosts.
  const all = [...labels].join(' ');
  for (const part of [
    'iso-t',
    'iso-space',
    'python-asctime',
    'syslog',
    'epoch',
    'us-slash',
    'iso-utc',
    'level-letter',
    'level-title',
    'pad8',
    'pid:tid',
    'thread-hex',
    'pid=',
    'logger:',
    'file:line',
    'host',
  ])
    assert.ok(all.includes(part), part);
});

test('dfc logger shapes: every corpus log reads the same behind formats nobody listed', () => {
  const logs = shapeLogs();
  const asserted = logs.filter(shapeable);
  assert.ok(asserted.length >= 220, `${asserted.length} logs of ${logs.length}`);
  const run = runShapes(asserted, SEED, PER_LOG);
  assert.equal(run.differ.length, 0, `${run.differ.length}/${run.pairs} format × log pairs read differently\n${run.differ.slice(0, 20).join('\n')}`);
});

/** Each line's cut (null: left as it is), the log read whole. */
function cuts(lines: string[]): (ShapeCut | null)[] {
  const shape = new LogShape<number>();
  const out: (ShapeCut | null)[] = [];
  const take = (ds: { item: number; cut: ShapeCut | null }[]) => ds.forEach((d) => (out[d.item] = d.cut));
  lines.forEach((l, i) => take(shape.push(i, l)));
  take(shape.flush());
  return out;
}

test("logShape: the DFC's own console is never cut", () => {
  for (const c of ['success-dfc3-cli', 'success-dfc5', 'real-whisper-multicontext', 'parse-unsupported-ops', 'real-finetune-epochs']) {
    const lines = readFileSync(join(repoRoot, 'test', 'fixtures', 'dfc', c, 'run.log'), 'utf8').split('\n');
    const cut = cuts(lines)
      .map((x, i) => (x ? `${i}: ${lines[i]}` : ''))
      .filter(Boolean);
    assert.deepEqual(cut, [], c);
  }
});

test('logShape: a relay cut takes its separator, and the relayed line keeps its indentation, tags and text', () => {
  const relay = (msg: string, i: number) => `12/06/2026 09:12:${String(10 + i).padStart(2, '0')} | W | app.worker | ${msg}`;
  const msgs = [
    '[info] Translation started on ONNX model m',
    'Traceback (most recent call last):',
    '  File "x.py", line 3, in f',
    '    raise ValueError("x")',
    'ValueError: x',
    '| cluster_0 | 100% | 68.8% |',
    '--hw-arch hailo8',
    '',
  ];
  const got = cuts(msgs.map(relay)).map((c) => c?.rest);
  assert.deepEqual(got, msgs);
  assert.equal(cuts(msgs.map(relay))[0]?.level, 'warning');
});

test("logShape: the DFC's own log-file column (`date - LEVEL - file.py:N - `) is a template", () => {
  const lines = [
    '2025-06-28 08:52:47,385 - INFO - parser.py:162 - Translation started on ONNX model yolo8l',
    '2025-06-28 08:52:47,761 - INFO - parser.py:197 - Restored ONNX model yolo8l (completion time: 00:00:00.38)',
    '2025-06-28 08:52:49,541 - INFO - parser.py:220 - Extracted ONNXRuntime meta-data for Hailo model (completion time: 00:00:02.16)',
    '2025-06-28 08:52:50,725 - WARNING - onnx_translator.py:2640 - NMS structure of yolov8 was detected.',
    '2025-06-28 08:52:51,001 - INFO - parser.py:240 - Translation completed on ONNX model yolo8l (completion time: 00:00:03.62)',
  ];
  const got = cuts(lines);
  assert.deepEqual(
    got.map((c) => c?.rest),
    lines.map((l) => l.replace(/^.*? - \w+ - \S+ - /, '')),
  );
  assert.deepEqual(
    got.map((c) => c?.level),
    ['info', 'info', 'info', 'warning', 'info'],
  );
});

test('logShape: thin evidence is left alone — a log of two or three lines, one line in a console', () => {
  const three = ['12/06/2026 09:12:10 | W | app.worker | a', '12/06/2026 09:12:11 | W | app.worker | b', '12/06/2026 09:12:12 | E | app.worker | c'];
  assert.ok(three.length < MIN_LINES);
  assert.deepEqual(cuts(three), [null, null, null]);
  const one = [
    '[info] Starting Model Optimization',
    '12/06/2026 09:12:10 | W | app.worker | x',
    '[info] Using dataset with 64 entries for calibration',
    'Killed',
  ];
  assert.deepEqual(cuts(one), [null, null, null, null]);
});

test("logShape: prose and a message's repeated first words are not a template", () => {
  // apt's refusals (dfc-corpus unseen4/10): a level word, then the message's own words.
  const apt = [
    'Error: Unable to locate package hailo-dkms',
    "Error: Version '4.19.0-3' for 'hailort' was not found",
    "Error: Version '4.19.0-2' for 'python3-hailort' was not found",
    "Error: Version '3.30.0-1' for 'hailo-tappas-core' was not found",
    "Error: Version '3.30.0-1' for 'hailo-tappas' was not found",
  ];
  assert.deepEqual(
    cuts(apt),
    apt.map(() => null),
  );
  // Prose: capitalised words, a numbered list.
  const prose = [
    'I ran the compiler twice.',
    'I got the same error both times:',
    'I think the calibration set is wrong.',
    'I will try again tomorrow.',
    '1. Check the device',
    '2. Check the driver',
  ];
  assert.deepEqual(
    cuts(prose),
    prose.map(() => null),
  );
  // A template whose messages all begin with the same words keeps those words (`Thread in element …`, HailoRT's log, dfc-corpus unseen7/30).
  const phrase = Array.from({ length: 6 }, (_, i) => `2026-06-20 19:40:49.944 [${2373 + i}] Thread in element PullQEl${i} is not running anymore, exiting..`);
  assert.deepEqual(
    cuts(phrase).map((c) => c?.rest),
    phrase.map((l) => l.slice(l.indexOf('Thread'))),
  );
  // A message's first word that is a level (`Error: …` behind a timestamp) is the message's, under a template that has no level.
  const epochs = Array.from({ length: 6 }, (_, i) => `2026-06-20 19:40:${40 + i} - Epoch ${i + 1}/6 - loss: 0.1`);
  assert.deepEqual(
    cuts(epochs).map((c) => c?.rest),
    epochs.map((l) => l.slice(l.indexOf('Epoch'))),
  );
});

test("logShape: a relay's level column padded after its brackets, and a relay's lower-case tag before indented lines, are the relay's", () => {
  const padded = ['<info>  a', '<error> b', '<warn>  c', '<info>  d', '<info>    indented'].map((m, i) => `2026-06-20 19:40:4${i}: ${m}`);
  assert.deepEqual(
    cuts(padded).map((c) => c?.rest),
    ['a', 'b', 'c', 'd', '  indented'],
  );
  // `[info]` is the DFC's own tag form; a relay's only when some line shows it (a blank or indented line behind it).
  const relay = ['[info] Translation started', '  File "x.py", line 3, in f', '', 'ValueError: x', '[error] Mapping Failed'].map(
    (m, i) => `2026-06-20 19:40:4${i} [info] ${m}`,
  );
  const got = cuts(relay);
  assert.deepEqual(
    got.map((c) => c?.rest),
    ['[info] Translation started', '  File "x.py", line 3, in f', '', 'ValueError: x', '[error] Mapping Failed'],
  );
  assert.ok(got.every((c) => c?.own === false));
});

/**
 * A compiler log that is mostly the allocator's tables (`+---+` borders, `| layer | 4 | … |` rows the
 * compiler writes untagged into hailo_sdk.core.log): composed here in that file's form, for another model.
 */
function tableLog(): string[] {
  const tag = (s: number, m: string) => `[2026-01-20 10:41:${String(s).padStart(2, '0')}.${String(100 + s)}] [default] [info] ${m}`;
  const border = '+---------------+-------------+-----------------------+------+';
  const table = (title: string, s: number) => [
    tag(s, title),
    border,
    '| Node          | Subclusters | L3 Weight Memory Cuts | APUs |',
    border,
    ...['input_layer1', 'conv1', 'conv2_1', 'conv2_2', 'conv3_1', 'conv3_2', 'avgpool1', 'fc1', 'output_layer1'].map(
      (n, i) => `| ${n.padEnd(13)} | ${String((i * 3) % 8).padEnd(11)} | ${String(i % 3).padEnd(21)} | ${String(i % 2).padEnd(4)} |`,
    ),
    border,
  ];
  return [
    tag(1, 'Ran from command: "build_hef.py --net resnet_v1_18"'),
    tag(1, 'Loading network parameters'),
    tag(2, 'Starting Hailo allocation and compilation flow'),
    tag(2, 'Trying to compile the network in a single context'),
    tag(3, 'Model fits in single context'),
    ...table('Pre-allocation Resources for resnet_v1_18_context_0', 4),
    ...table('Post-Split Resources for resnet_v1_18_context_0, iteration 1', 5),
    ...table('Post-Final-Split Resources for resnet_v1_18_context_0, iteration 2', 6),
    tag(7, 'Successful Mapping (allocation time: 3s)'),
    tag(7, 'Compiling kernels of resnet_v1_18_context_0...'),
    tag(8, 'Building HEF...'),
    tag(9, 'Successful Compilation (compilation time: 1s)'),
  ];
}

test("logShape: a relay whose messages are mostly table rows keeps its own separator (a message may begin with a separator's characters)", () => {
  const lines = tableLog();
  assert.ok(lines.filter((l) => /^[|+]/.test(l)).length > lines.length / 2);
  // Python logging's '%(asctime)s [%(levelname)s] %(name)s: ' (the separator `: `; rows make it `: | `), and a
  // space-separated format ending in a thread id (the separator a space; rows make it ` | `).
  const relays: ((l: string, i: number) => string)[] = [
    (l, i) => `2026-01-20 10:42:${String(i % 60).padStart(2, '0')},${String(i % 1000).padStart(3, '0')} [INFO] build_hef: ${l}`,
    (l, i) => `01/20/2026 10:42:${String(i % 60).padStart(2, '0')} I gpu-box-01 0x7f3a${String(i % 10)}c00 ${l}`,
  ];
  for (const relay of relays) {
    const relayed = lines.map(relay);
    assert.deepEqual(
      cuts(relayed).map((c) => c?.rest),
      lines,
      relayed[0],
    );
  }
  const plain = reading(`${lines.join('\n')}\n`);
  assert.equal(plain.outcome, 'success');
  for (const relay of relays) assert.deepEqual(reading(`${lines.map(relay).join('\n')}\n`), plain);
  // The same behind generated formats (the corpus test's generator, seeds of its own).
  for (let seed = 5_000; seed < 5_040; seed++)
    assert.deepEqual(reading(`${applyShape(loggerShape(seed), lines).join('\n')}\n`), plain, loggerShape(seed).label);
});

test("dfc logger shapes: every corpus log reads the same written as the DFC's own log file (`date - LEVEL - file.py:N - `)", () => {
  const differ = runShape(shapeLogs().filter(shapeable), dfcLogFileShape());
  assert.equal(differ.length, 0, `${differ.length} logs read differently\n${differ.slice(0, 20).join('\n')}`);
});

test("logShape: a relay whose messages are mostly a Markdown list keeps its own separator (the bullet is the message's)", () => {
  // Release notes relayed line by line (dfc-corpus unseen24/78): a heading, eight `- ` items, one item wrapped onto an
  // indented line. Most lines show `| -` after the file column; the heading and the continuation show `|` alone.
  const dir = join(repoRoot, 'test', 'fixtures', 'dfc-corpus', 'unseen24', '78-hefs-v1-notes-dfc530-v8-seg-h10h-pass-summary');
  const lines = readFileSync(join(dir, 'run.log'), 'utf8').replace(/\n$/, '').split('\n');
  assert.ok(lines.filter((l) => l.startsWith('- ')).length > lines.length / 2 && lines.some((l) => /^ {2}\S/.test(l)));
  const relayed = lines.map((l, i) => `1796055350.${String(123457 + i * 7919).padStart(6, '0')} | worker.cc:${20 + i * 37} | ${l}`);
  assert.deepEqual(
    cuts(relayed).map((c) => c?.rest ?? null),
    lines,
  );
  const plain = reading(`${lines.join('\n')}\n`);
  assert.equal(plain.outcome, 'success');
  assert.deepEqual(reading(`${relayed.join('\n')}\n`), plain);
  assert.deepEqual(reading(`${applyShape(dfcLogFileShape(), lines).join('\n')}\n`), plain);
});
