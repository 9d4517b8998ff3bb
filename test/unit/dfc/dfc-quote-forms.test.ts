// Generative metamorphic test of how people quote a log when they report it (issue 30;
// docs/research/dfc-unseen-misses.md class B — a known message in a form the reader did not recognise,
// 57 % of the fresh batches' misses and the one class that does not shrink). A seeded PRNG composes
// quotings (test/helpers/quoteForms.ts): blockquotes, comment blocks, fences after a sentence in some
// language, HTML escapes, a notebook's JSON, typography, tabs and CRLF, an author's hard wrap (block
// forms, the whole log: the whole reading must stay); a sentence around the line in eight languages, a
// span the prose wraps, a table's cell, a list item, a comment after code (excerpt forms, the key lines:
// their codes with severity and nodes must stay, and no failure appears); a call chain condensed with
// arrows (codes and nodes of the traceback). Applied to every read corpus log and test/fixtures/dfc/.
// More seeds, without any environment: `node scripts/dfc-quote-forms.mjs --seeds 11..40`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readDfcLog } from '../../../server/src/core/dfc';
import { condensedChain, keyLines, quoteForm, runForms, shapeLogs } from '../../helpers/quoteForms';

/** The seed the suite runs; the script runs others (held out: 11–40). */
const SEED = 1;
const PER_LOG = 4;

test('dfc quote forms: the generated quotings are many and of every kind', () => {
  const labels = new Set<string>();
  for (let s = 0; s < 600; s++) {
    labels.add(quoteForm(s, 'block').label);
    labels.add(quoteForm(s, 'excerpt').label);
  }
  assert.ok(labels.size >= 300, `${labels.size} distinct forms`);
  const all = [...labels].join(' ');
  for (const kind of [
    'blockquote×3',
    'comment-block #',
    'comment-block //',
    'fenced',
    'in list item',
    'html &#39;',
    'ipynb',
    'ansi',
    'curly',
    'nbsp:all',
    'crlf',
    'tabs/4',
    'hard-wrap',
    'paths',
    'prose #',
    'wrapped-span',
    'table',
    'list 1.',
    'list 1)',
    'trailing #',
    'trailing //',
    ' in ',
  ])
    assert.ok(all.includes(kind), kind);
});

/**
 * Pairs whose form includes an author's wrap (a whole log hard-wrapped, a quoted line wrapped inside the prose's
 * code span) still read differently on this seed: 24 of 2 882 pairs (60 on the reader before forms.ts), measured
 * 2026-12-06 — as a share of all pairs, so that a half read later (more logs, more pairs) is held to the same rate; a
 * ceiling to be lowered, never raised. Every other form reads the same on every pair.
 */
const WRAPPED_SHARE = 0.0085;
const wrapped = (d: string) => /hard-wrap|wrapped-span/.test(d);

test('dfc quote forms: every corpus log reads the same however it is quoted', () => {
  const logs = shapeLogs();
  assert.ok(logs.length >= 300, `${logs.length} logs`);
  const run = runForms(logs, SEED, PER_LOG);
  assert.ok(run.byFamily.block.pairs >= 1200 && run.byFamily.excerpt.pairs >= 1000 && run.byFamily.chain.pairs >= 20, JSON.stringify(run.byFamily));
  const unwrapped = run.differ.filter((d) => !wrapped(d));
  assert.equal(unwrapped.length, 0, `${unwrapped.length}/${run.pairs} form × log pairs read differently\n${unwrapped.slice(0, 20).join('\n')}`);
  const wraps = run.differ.filter(wrapped);
  const ceiling = Math.ceil(run.pairs * WRAPPED_SHARE);
  assert.ok(
    wraps.length <= ceiling,
    `${wraps.length}/${run.pairs} pairs with an author's wrap read differently (ceiling ${ceiling})\n${wraps.slice(0, 20).join('\n')}`,
  );
});

const read = (text: string) => readDfcLog(text, { logPath: 'run.log' });
const codes = (text: string) => [...new Set(read(text).diagnostics.map((d) => `${d.code}:${d.severity}`))].sort();

test('dfc quote forms: a catalogue message keeps its code in each form, and prose alone is no failure', () => {
  const line = '[error] Mapping Failed (allocation time: 12s)';
  const want = codes(`${line}\n`);
  assert.deepEqual(want, ['dfc/allocation-failed:error']);
  for (const text of [
    `| Attempt | Result |\n|---|---|\n| 1 | \`${line}\` | \n`,
    `実行すると \`${line}\` というエラーが出ます。\n`,
    `При запуске получаю ошибку \`${line}\`.\n`,
    `The tool says "${line}" and stops.\n`,
    `result = run(args)  # ${line}\n`,
    `1. ${line}\n`,
    `&gt; ${line} &amp; stops\n`,
    `> > ${line}\n`,
    `      "${line}\\n",\n      "done"\n`,
    `Running the same command again gives \`[error] Mapping\nFailed (allocation time: 12s)\` and nothing after it.\n`,
  ])
    assert.deepEqual(codes(text), want, text);
  // An author's sentence, a table of their own words, a comment in code: nothing failed.
  for (const text of [
    'I get the same result as before when I run it.\n',
    '| Step | Note |\n|---|---|\n| 1 | converted the model |\n| 2 | ran it on the board |\n',
    'result = run(args)  # returns the detections\n',
    'The tool says "done" and stops.\n',
  ])
    assert.notEqual(read(text).outcome, 'failed', text);
});

test("dfc quote forms: an author's hard wrap is joined; the DFC's own lines, a prompt and a program's error line are not", () => {
  const wrapped = [
    '[info] Translation started on ONNX model yolov8n',
    '[info] Restored ONNX model yolov8n (completion time:',
    '00:00:00.12)',
    'hailo_sdk_client.model_translator.exceptions.ParsingWithRecommendationException: Parsing failed. The',
    'errors found in the graph are: UnsupportedShuffleLayerError in op /model.22/dfl/Reshape: Failed',
    'to determine type of layer to create in node /model.22/dfl/Reshape',
  ];
  const r = read(`${wrapped.join('\n')}\n`);
  assert.equal(r.outcome, 'failed');
  assert.ok(
    r.diagnostics.some((d) => d.code === 'dfc/unsupported-shuffle' && d.node === '/model.22/dfl/Reshape'),
    JSON.stringify(r.diagnostics),
  );
  // Lines of their own after a long line: a prompt, argparse's error line, a program's path, a class.
  const own = [
    'usage: hailo parser onnx [-h] [--hw-arch {hailo8,hailo8l,hailo8r,hailo10h}] model',
    "hailo parser onnx: error: argument --hw-arch: invalid choice: 'hailo9'",
  ];
  assert.ok(read(`${own.join('\n')}\n`).diagnostics.some((d) => d.code === 'dfc/usage' && d.line === 2));
  const prompt = ['user@raspberrypi:~ $ hailortcli fw-control identify --verbose-output', '/bin/bash: hailortcli: command not found'];
  assert.ok(read(`${prompt.join('\n')}\n`).diagnostics.some((d) => d.code === 'dfc/not-installed' && d.line === 2));
});

test('dfc quote forms: the key lines and the condensed chain come from the log as read', () => {
  const log = {
    name: 'x',
    lines: [
      '[info] Starting Model Optimization',
      'Traceback (most recent call last):',
      '  File "/a/hailo_model_optimization/x.py", line 3, in run',
      '    f()',
      "KeyError: 'net/input_layer1'",
    ],
  };
  assert.deepEqual(keyLines(log), ["KeyError: 'net/input_layer1'"]);
  const c = condensedChain(3, log.lines);
  assert.ok(c && c.text.includes('run') && c.text.includes("KeyError: 'net/input_layer1'"), c?.text);
});
