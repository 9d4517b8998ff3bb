// One catalogue of what the DFC and HailoRT say (core/common/dfcMessages.ts, issue 30): the log
// reader, the `.alls` rules, the NMS checks and the ONNX pre-flight take their DFC messages from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_CLASSES, DFC_MESSAGES, MESSAGE_KEYS, dfcMessage, matchDfcMessage, quoteDfc } from '../../../server/src/core/common/dfcMessages';
import { DFC_CODES } from '../../../server/src/core/dfc/codes';
import { normaliseLine } from '../../../server/src/core/dfc/normalise';
import { readDfcLog } from '../../../server/src/core/dfc';
import { repoRoot } from '../../helpers/shared';

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sources(p, out);
    else if (name.endsWith('.ts')) out.push(p);
  }
  return out;
}

/** Classes that are ours, JavaScript's or a package's (imported by name), not the DFC's. */
function ownClasses(): Set<string> {
  const own = new Set(['Error', 'TypeError', 'RangeError', 'SyntaxError', 'ReferenceError', 'EvalError', 'URIError', 'AggregateError']);
  for (const f of sources(join(repoRoot, 'server', 'src'))) {
    const text = readFileSync(f, 'utf8');
    for (const m of text.matchAll(/class (\w+) extends/g)) own.add(m[1]);
    for (const m of text.matchAll(/^import (?:type )?\{([^}]*)\} from '(?!\.)/gm))
      for (const n of m[1].split(',')) own.add(n.replace(/^\s*type\s+/, '').trim());
  }
  return own;
}

const QUOTING = ['alls', 'nms', 'onnx'].map((d) => join(repoRoot, 'server', 'src', 'core', d));

test('catalogue: every DFC exception class the .alls rules, NMS checks and ONNX pre-flight name is a catalogue class', () => {
  const own = ownClasses();
  const missing: string[] = [];
  for (const f of QUOTING.flatMap((d) => sources(d)))
    for (const m of readFileSync(f, 'utf8').matchAll(/\b([A-Z]\w*(?:Error|Exception|Failure))\b/g))
      if (!own.has(m[1]) && !CATALOGUE_CLASSES.has(m[1])) missing.push(`${f.slice(repoRoot.length + 1)}: ${m[1]}`);
  assert.deepEqual(missing, []);
});

test('catalogue: every message quoted elsewhere by id is in the catalogue, and reads back as that entry', () => {
  const ids: string[] = [];
  for (const f of QUOTING.flatMap((d) => sources(d))) for (const m of readFileSync(f, 'utf8').matchAll(/(?:quoteDfc|dfcMessage)\('([\w-]+)'/g)) ids.push(m[1]);
  assert.ok(ids.length >= 5, `the other domains quote the catalogue (${ids.join(', ')})`);
  for (const id of ids) {
    const quoted = quoteDfc(id, { layer: 'conv63', nodes: "['x']", keyword: 'nms_score_threshold' });
    assert.equal(matchDfcMessage(quoted)?.message.id, id, `${id}: "${quoted}" is recognised as itself`);
  }
});

test('catalogue: the NMS check quotes the message the log reader recognises (one message, two readers)', async () => {
  const { readFileSync: rf } = await import('node:fs');
  const checks = rf(join(repoRoot, 'server', 'src', 'core', 'nms', 'checks.ts'), 'utf8');
  assert.match(checks, /quoteDfc\('nms-layer-missing'/);
  const r = readDfcLog(`${quoteDfc('nms-layer-missing', { layer: 'conv70' })}\n`);
  assert.equal(r.diagnostics[0]?.code, 'dfc/nms-layer-missing');
  assert.match(r.diagnostics[0].message, /conv70/);
});

test('catalogue: every entry is complete — a known code, evidence, fix, words for its patterns, and its own text matches', () => {
  for (const m of DFC_MESSAGES) {
    if (m.code !== null) assert.ok(m.code in DFC_CODES, `${m.id}: code ${m.code}`);
    assert.ok(m.evidence.length > 8 && m.fix.length > 8, m.id);
    if (m.patterns.length) assert.ok(MESSAGE_KEYS[m.id]?.length, `${m.id}: has the words its matches contain`);
    assert.equal(dfcMessage(m.id), m);
  }
  assert.throws(() => dfcMessage('no-such-message'));
});

test('normalise: a logger prefix of any kind leaves the message the DFC printed', () => {
  const msg = "BadInputsShape: Data shape (3, 640, 640) doesn't match network's input shape (640, 640, 3)";
  for (const line of [
    `[error] ${msg}`,
    `ERROR: ${msg}`,
    `ERROR:root:${msg}`,
    `2025-01-02 10:11:12,345 - ERROR - ${msg}`,
    `2025-01-02 10:11:12,345 - hailo_sdk_client.runner.client_runner - ERROR - ${msg}`,
    `hailo_sdk_client.runner.client_runner - ERROR - ${msg}`,
    `[2025-01-02 10:11:12.345] [1234] [HailoRT] [error] ${msg}`,
    `<Hailo Model Zoo ERROR> ${msg}`,
    `Out[7]: ${msg}`,
    `# ${msg}`,
    `- \`${msg}\``,
  ])
    assert.equal(normaliseLine(line).replace(/^\[error\] /, ''), msg, line);
  // The DFC's own lines are left exactly as printed (the command reader needs the backticks).
  for (const own of ['[info] Running `hailo parser onnx m.onnx --hw-arch hailo8l`', '    func(self, *args, **kwargs)', "  Assertion `x' failed."])
    assert.equal(normaliseLine(own), own);
});

test('reader: messages recognised whatever wraps them — a class anywhere, no class, no [error], split lines', () => {
  const cases: [string, string, string?][] = [
    ["Exception: Unable to find end node names: ['conv2d_60']", 'dfc/misspelled-node', 'conv2d_60'],
    ["BadInputsShape: Data shape (3, 640, 640) doesn't match the network's input shape (640, 640, 3)", 'dfc/calibration-shape'],
    ['No successful assignments: concat21 errors: Agent infeasible', 'dfc/allocation-failed', 'concat21'],
    ['No successful assignments: conv215_dc errors:\n\tAgent infeasible', 'dfc/allocation-failed', 'Agent infeasible'],
    ["2025-01-02 10:11:12,345 - ERROR - HailoNNException: The layer named conv70 doesn't exist in the HN", 'dfc/nms-layer-missing', 'conv70'],
    [
      "BadInputsShape: Data shape (3, 640, 640) for layer net/input_layer1\ndoesn't match network's input shape (640, 640, 3)",
      'dfc/calibration-shape',
      '(640, 640, 3)',
    ],
    ['[error] Mapping Failed\nmicrocode exceeded size for resize1_sd0 (cluster_index=0, layer_index=0)', 'dfc/allocation-failed', 'resize1_sd0'],
    // Only the normalised line starts with the allocator's header.
    ['2025-01-02 10:11:12,345 - hailo_sdk_client.allocator - ERROR - Mapping Failed (allocation time: 2s)', 'dfc/allocation-failed', 'Mapping Failed'],
  ];
  for (const [log, code, says] of cases) {
    const r = readDfcLog(`${log}\n`);
    const d = r.diagnostics.find((x) => x.code === code);
    assert.ok(d, `${JSON.stringify(log)}: ${r.diagnostics.map((x) => x.code).join(', ')}`);
    if (says) assert.ok(d.message.includes(says), `${JSON.stringify(log)}: ${d.message}`);
  }
  // The cause line names the layer and the cause, and the advice is the cause's (the Resize).
  const r = readDfcLog(
    '[error] Mapping Failed\nmicrocode exceeded size for resize1_sd0 (cluster_index=0, layer_index=0)\n[error] BackendAllocatorException: Compilation failed\n',
  );
  assert.equal(r.diagnostics.length, 1);
  assert.match(r.diagnostics[0].message, /resize1_sd0.*microcode/);
  assert.match(r.diagnostics[0].message, /Resize/);
  assert.equal(r.failedStage, 'compile');
});

test('reader: the optimization level lowered to 0 is an accuracy risk, for too few images or no GPU, wrapped or not', () => {
  const few = readDfcLog(
    "[warning] Reducing optimization level to 0 (the accuracy won't be optimized\nand compression won't be used) because there's less data than the\nrecommended amount (1024), and there's no available GPU\n",
  );
  assert.deepEqual(
    few.diagnostics.map((d) => [d.code, d.severity]),
    [['dfc/optimization-level-0', 'warning']],
  );
  assert.match(few.diagnostics[0].message, /accuracy/);
  assert.match(few.diagnostics[0].message, /1024/);
  assert.match(few.diagnostics[0].message, /GPU/);
});

test('reader: stages from what ran — parse-only ending in the profiler report, optimize-only, a cut run', () => {
  const profile = readDfcLog(
    '[info] Translation started on ONNX model m\n[info] Translation completed on ONNX model m (completion time: 00:00:00.93)\n[info] Saved HAR to: /w/m.har\n[info] Running profile for m in state hailo_model\n<Hailo Model Zoo INFO> Profiler report generated in m.html\n',
  );
  assert.equal(profile.outcome, 'success');
  const optimizeOnly = readDfcLog(
    '[info] Starting Model Optimization\n[info] Bias Correction skipped\n[info] Model Optimization is done\n[info] Saved HAR to: /w/m_optimized.har\n',
  );
  assert.equal(optimizeOnly.outcome, 'success');
  const cut = readDfcLog('[info] Starting Model Optimization\n[info] Starting Statistics Collector\n');
  assert.equal(cut.outcome, 'incomplete');
  // A command that says more was meant keeps the run incomplete.
  const more = readDfcLog(
    'hailomz compile yolov8n --ckpt m.onnx --hw-arch hailo8l\n[info] Translation started on ONNX model m\n[info] Translation completed on ONNX model m\n',
  );
  assert.equal(more.outcome, 'incomplete');
});
