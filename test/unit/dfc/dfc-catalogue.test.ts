// One catalogue of what the DFC and HailoRT say (core/common/dfcMessages.ts, issue 30): the log
// reader, the `.alls` rules, the NMS checks and the ONNX pre-flight take their DFC messages from it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CATALOGUE_CLASSES, DFC_MESSAGES, MESSAGE_KEYS, dfcMessage, matchDfcMessage, quoteDfc } from '../../../server/src/core/common/dfcMessages';
import { DFC_CODES } from '../../../server/src/core/dfc/codes';
import { normaliseLine } from '../../../server/src/core/dfc/normalise';
import { exceptionIn } from '../../../server/src/core/dfc/errors';
import { stageOfModule } from '../../../server/src/core/dfc/stageEvidence';
import { hailortFamily, hailortStatusIn, hailortStatusName, hailortStatusValue } from '../../../server/src/core/common/hailortStatus';
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

/** A pattern's alternatives at the top level (`a|b(?:c|d)` → `a`, `b(?:c|d)`), escapes and classes kept whole. */
function topAlternatives(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let inClass = false;
  let cur = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') {
      cur += c + (src[i + 1] ?? '');
      i++;
      continue;
    }
    if (inClass) inClass = c !== ']';
    else if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

test("catalogue: every alternative of an entry's patterns holds one of its words (the reader tries a pattern only when a word is in the line)", () => {
  // An alternative without a word matches only when another alternative's word happens to be in the line too — the
  // daemon's refusal without `docker: ` matched only through a quoted "docker login" until its words had it.
  for (const m of DFC_MESSAGES) {
    if (m.frames || !m.patterns.length) continue;
    const keys = MESSAGE_KEYS[m.id] ?? [];
    for (const p of m.patterns)
      for (const alt of topAlternatives(p.source)) {
        const plain = alt.replace(/\\(.)/g, '$1');
        assert.ok(
          keys.some((k) => plain.includes(k)),
          `${m.id}: /${alt}/ holds none of ${JSON.stringify(keys)}`,
        );
      }
  }
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

// ---- HailoRT's statuses: one family per kind of failure, for every status of hailort.h -----------

test('hailort statuses: numbers and names as hailort.h lists them, former names too; an ioctl name is no status', () => {
  assert.equal(hailortStatusName(26), 'HAILO_INVALID_HEF');
  assert.equal(hailortStatusName(62), 'HAILO_COMMUNICATION_CLOSED');
  assert.equal(hailortStatusValue('HAILO_PCIE_DRIVER_FAIL'), 36); // 4.6–4.1x's name of HAILO_DRIVER_OPERATION_FAILED
  assert.equal(hailortFamily(76), 'hailort/version-mismatch');
  assert.equal(hailortFamily(47), 'hailort/status');
  assert.deepEqual(hailortStatusIn('CHECK_SUCCESS failed with status=26'), { name: 'HAILO_INVALID_HEF', value: 26 });
  assert.deepEqual(hailortStatusIn('Failed to run async inference, status = 62'), { name: 'HAILO_COMMUNICATION_CLOSED', value: 62 });
  assert.equal(hailortStatusIn('Ioctl HAILO_FW_CONTROL failed with 19. Read dmesg log for more info'), null);
});

test('hailort: one failure is one diagnostic — the check that failed, the status it failed with (named or numbered), the family', () => {
  // hailo_model_zoo#29: the check's message first, the status as a bare number after it.
  const hef = readDfcLog(
    '[HailoRT] [error] CHECK failed - Failed opening non-compatible HEF with the following unsupported extensions: KO Run ASAP (KO_RUN_ASAP)\n[HailoRT] [error] CHECK_SUCCESS failed with status=26\n[HailoRT] [error] Failed parsing HEF file\n[HailoRT] [error] Failed creating HEF\n[HailoRT] [error] CHECK_EXPECTED failed with status=26\n',
  );
  assert.equal(hef.outcome, 'failed');
  assert.deepEqual(
    hef.diagnostics.map((d) => d.code),
    ['hailort/hef-rejected'],
  );
  assert.match(hef.diagnostics[0].message, /KO_RUN_ASAP.*HAILO_INVALID_HEF\(26\)/);
  // SEAME-pt/Team5_Senna_Tech#224: a status of no family (INTERNAL_FAILURE) after a known check is that check's status;
  // hailortcli's own logger (`[HailoRT CLI] [error]`) is a prefix like HailoRT's.
  const page = readDfcLog(
    '[HailoRT] [error] CHECK failed - max_desc_page_size given 16384 is bigger than hw max desc page size 4096\n[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INTERNAL_FAILURE(8)\n[HailoRT CLI] [error] Failed configure vdevice from hef\n',
  );
  assert.deepEqual(
    page.diagnostics.map((d) => d.code),
    ['hailort/driver'],
  );
  assert.match(page.diagnostics[0].message, /16384.*4096.*HAILO_INTERNAL_FAILURE\(8\)/);
  assert.equal(normaliseLine('[HailoRT CLI] [error] Failed configure vdevice from hef'), '[error] Failed configure vdevice from hef');
  // A status no message entry names still reads as its family, with its meaning (hrpc/client.cpp; the app's numbered echo joins it).
  const closed = readDfcLog(
    '[HailoRT] [error] Failed to send request, status = HAILO_COMMUNICATION_CLOSED(62)\n(Hailo Simple Detection App:14007): ERROR: Failed to run async inference, status = 62\n',
  );
  assert.deepEqual(
    closed.diagnostics.map((d) => d.code),
    ['hailort/connection-closed'],
  );
  assert.match(closed.diagnostics[0].message, /communication between the endpoints is closed/);
  // A status of no family at all: named with its meaning, after the check that failed.
  const other = readDfcLog(
    '[HailoRT] [error] CHECK failed - Failed to allocate descriptors\n[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_OUT_OF_DESCRIPTORS(47)\n',
  );
  assert.equal(other.diagnostics[0]?.code, 'hailort/status');
  assert.match(other.diagnostics[0].message, /Failed to allocate descriptors — HAILO_OUT_OF_DESCRIPTORS\(47\)/);
});

test('hailort: version and architecture mismatches name both sides; the slower-HEF notice is a warning', () => {
  // roflcoopter/viseron#1490, inside a wrapper's message.
  const v = readDfcLog(
    "Failed running 'hailortcli fw-control identify': returncode=76 stderr=[HailoRT] [error] CHECK failed - Driver version (4.23.0) is different from library version (4.22.0)\n",
  );
  assert.equal(v.diagnostics[0]?.code, 'hailort/version-mismatch');
  assert.match(v.diagnostics[0].message, /^HailoRT: Driver version \(4\.23\.0\)/);
  assert.match(v.diagnostics[0].message, /install the driver of HailoRT 4\.22\.0.*or install HailoRT 4\.23\.0/);
  // device_internal.cpp's two messages (4.22.0).
  const arch = readDfcLog('[HailoRT] [error] HEF format is not compatible with device. Device arch: HAILO8L, HEF arch: HAILO8\n');
  assert.equal(arch.diagnostics[0]?.code, 'hailort/hef-device-mismatch');
  assert.equal(arch.diagnostics[0].severity, 'error');
  const slower = readDfcLog(
    '[HailoRT] [warning] HEF was compiled for Hailo8L device, while the device itself is Hailo8. This will result in lower performance.\n',
  );
  assert.deepEqual(
    slower.diagnostics.map((d) => [d.code, d.severity]),
    [['hailort/hef-device-mismatch', 'warning']],
  );
});

// ---- the DFC's own messages the catalogue lacked, and the forms they come in ----------------------

test("reader: a class of the DFC's own packages is an exception whatever its name ends in, in the stage its module says", () => {
  const line =
    '        # TODO: hailo_model_optimization.acceleras.utils.acceleras_exceptions.NegativeSlopeExponentNonFixable: Quantization failed in layer EfficientNetV2_224_224/ne_activation_fc50 due to unsupported required slope. Desired shift is 11.0, but op has only 8 data bits.';
  const e = exceptionIn(normaliseLine(line).trim());
  assert.equal(e?.cls, 'NegativeSlopeExponentNonFixable');
  assert.equal(stageOfModule(e?.module), 'optimize');
  const r = readDfcLog(`${line}\n`);
  assert.equal(r.outcome, 'failed');
  assert.equal(r.failedStage, 'optimize');
  assert.equal(r.diagnostics[0]?.code, 'dfc/quantization-failed');
  assert.match(r.diagnostics[0].message, /ne_activation_fc50.*calibration/);
  // hailo_model_zoo#136: NaN parameters.
  const nan = readDfcLog(
    '[info] Running `hailo optimize --use-random-calib-set model.har`\nhailo_sdk_client.sdk_backend.sdk_backend_exceptions.BackendValueError: Unsupported NaN values were found in params\n',
  );
  assert.deepEqual([nan.outcome, nan.failedStage, nan.diagnostics[0]?.code], ['failed', 'optimize', 'dfc/nan-params']);
});

test("reader: the parser's classes are a parse failure whatever their message; DFC 5 names the node `(translated from …)`", () => {
  const r = readDfcLog('    UnsupportedModelError: Unsupported dimensions at concat layer\n    (translated from /encoder/encoder/embeddings/Concat_1)\n');
  assert.equal(r.failedStage, 'parse');
  assert.equal(r.diagnostics[0]?.code, 'dfc/unsupported-layer');
  assert.equal(r.diagnostics[0].node, '/encoder/encoder/embeddings/Concat_1');
});

test('reader: a message wrapped after a closing parenthesis goes on in lower case', () => {
  const r = readDfcLog("[error] BadInputsShape: Data shape (3, 640, 640)\ndoesn't match network's input shape (640, 640, 3)\n");
  assert.equal(r.diagnostics[0]?.code, 'dfc/calibration-shape');
  assert.match(r.diagnostics[0].message, /\(640, 640, 3\)/);
  // A line of its own after `)` is not swallowed.
  const two = readDfcLog('[error] Mapping Failed (allocation time: 2s)\nmicrocode exceeded size for resize1_sd0 (cluster_index=0, layer_index=0)\n');
  assert.match(two.diagnostics[0]?.message ?? '', /resize1_sd0/);
});

test('reader: the end of a run from its last line — a HEF written, a profiler report after the partitioner', () => {
  // A README's hailomz session, its output elided (dfc-corpus tune2/08's form).
  const hef = readDfcLog(
    '$ hailomz compile yolov8s --ckpt=m.onnx --hw-arch=hailo8l --classes=2\n...\n<Hailo Model Zoo INFO> HEF file written to yolov8s.hef\n',
  );
  assert.equal(hef.outcome, 'success');
  // hailomz profile: its estimate runs the partitioner, then writes the report.
  const profile = readDfcLog(
    "[info] Translation completed on ONNX model yolox_tiny\n[warning] Reducing optimization level to 0 (the accuracy won't be optimized and compression won't be used) because there's no available GPU\n[info] Starting Hailo context-partitioner flow\n[info] Using Multi-context flow\n<Hailo Model Zoo INFO> Profiler report generated in yolox_tiny.html\n",
  );
  assert.equal(profile.outcome, 'success');
});

test('reader: the recommendation declined at the (y/n) question is the parse failing, with the nodes it recommended', () => {
  const r = readDfcLog(
    "[info] Running `hailo parser onnx m.onnx --hw-arch hailo8l`\n[info] Translation started on ONNX model m\nParsing failed with recommendations for end node names: ['CCT_OCR_1/key_1/BiasAdd', 'CCT_OCR_nchw_1/CCT_OCR_1/Add'].\nWould you like to parse again with the recommendation? (y/n)\nn\nTraceback (most recent call last):\n  File \"/root/venv_hailo/bin/hailo\", line 8, in <module>\n    sys.exit(main())\n",
  );
  assert.deepEqual([r.outcome, r.failedStage], ['failed', 'parse']);
  assert.equal(r.diagnostics[0]?.code, 'dfc/parser-prompt');
  assert.match(r.diagnostics[0].message, /was n.*--end-node-names CCT_OCR_1\/key_1\/BiasAdd CCT_OCR_nchw_1\/CCT_OCR_1\/Add/);
});

test("reader: the DFC's first-run system check is a warning listing what is short (it asks, and runs on)", () => {
  const r = readDfcLog(
    '[info] First time Hailo Dataflow Compiler is being used. Checking system requirements... (this might take a few seconds)\n[Error] Unsupported release - 24.04. Only 20.04 22.04 are supported.\n[Error] The SDK requires 16 GB of RAM (32 GB recommended), while this system has only 9 GB.\nSystem requirements check failed (see table above for details). Continue? [Y/n][Info] No response - exitting.\n[info] Running `hailo -h`\n',
  );
  assert.deepEqual(
    r.diagnostics.filter((d) => d.severity !== 'info').map((d) => [d.code, d.severity]),
    [['dfc/system-requirements', 'warning']],
  );
  assert.match(r.diagnostics[0].message, /24\.04.*16 GB of RAM/);
});

test('reader: 16-bit biases at allocation name both causes — optimization level 0 and end nodes after the heads', () => {
  const r = readDfcLog('activation1/activation2 failed on kernel validation: 16x4 is not supported\n');
  assert.equal(r.diagnostics[0]?.code, 'dfc/allocation-failed');
  assert.match(r.diagnostics[0].message, /optimization level 0/);
  assert.match(r.diagnostics[0].message, /end nodes cut after the detection heads/);
});

test("hailort: pyhailort's exceptions are their statuses — the indicative class, and HailoRTStatusException's bare number", () => {
  // pyhailort.py raises the indicative class `from` the status exception: Python users see both.
  const r = readDfcLog(
    'Traceback (most recent call last):\n  File "infer.py", line 10, in <module>\n    hef = HEF(path)\nhailo_platform.pyhailort._pyhailort.HailoRTStatusException: 26\n\nThe above exception was the direct cause of the following exception:\n\nTraceback (most recent call last):\n  File "infer.py", line 10, in <module>\n    hef = HEF(path)\nhailo_platform.pyhailort.pyhailort.HailoRTInvalidHEFException: Invalid HEF. See hailort.log for more information\n',
  );
  assert.deepEqual(
    r.diagnostics.map((d) => d.code),
    ['hailort/hef-rejected'],
  );
  assert.match(r.diagnostics[0].message, /HAILO_INVALID_HEF\(26\)/);
  const t = readDfcLog('hailo_platform.pyhailort.pyhailort.HailoRTTimeout: Received a timeout - hailort has failed because a timeout had occurred\n');
  assert.equal(t.diagnostics[0]?.code, 'hailort/timeout');
  // Each alone: the class says its status; the status exception's number says its family.
  const cls = readDfcLog('hailo_platform.pyhailort.pyhailort.HailoRTInvalidHEFException: Invalid HEF. See hailort.log for more information\n');
  assert.equal(cls.diagnostics[0]?.code, 'hailort/hef-rejected');
  assert.match(cls.diagnostics[0].message, /HAILO_INVALID_HEF\(26\)/);
  const num = readDfcLog('hailo_platform.pyhailort._pyhailort.HailoRTStatusException: 74\n');
  assert.equal(num.diagnostics[0]?.code, 'hailort/out-of-physical-devices');
});

test('reader: a run on the device that printed its result ended (hailortcli run)', () => {
  const r = readDfcLog(
    '$ hailortcli run ei-car-yolov5s.hef\n\nRunning streaming inference (ei-car-yolov5s.hef):\n  Transform data: true\nNetwork ei-car-yolov5s/ei-car-yolov5s: 100% | 317 | FPS: 63.33 | ETA: 00:00:00\n> Inference result:\n Network group: ei-carhef-yolov5s\n    Frames count: 317\n    FPS: 63.33\n',
  );
  assert.equal(r.outcome, 'success');
  assert.equal(readDfcLog('$ hailortcli run m.hef\nRunning streaming inference (m.hef):\n').outcome, 'incomplete');
  // benchmark_command.cpp's summary, fw_control_command.cpp's identify (4.22.0).
  assert.equal(
    readDfcLog('=======\nSummary\n=======\nFPS     (hw_only)                 = 1250.5\n        (streaming)               = 1249.8\n').outcome,
    'success',
  );
  assert.equal(
    readDfcLog(
      'Executing on device: 0000:01:00.0\nIdentifying board\nControl Protocol Version: 2\nFirmware Version: 4.22.0 (release,app,extended context switch buffer)\nDevice Architecture: HAILO8L\n',
    ).outcome,
    'success',
  );
});

test('hailort: a status said at info level is no failure, at warning level a warning; `exit status 1` is no status', () => {
  // queue_elements.cpp logs an abort the user asked for at info level.
  const info = readDfcLog('[HailoRT] [info] enqueue() in element PushQEl0yolov5 was aborted, got status = HAILO_STREAM_ABORT(63)\n');
  assert.deepEqual(info.diagnostics, []);
  const warn = readDfcLog('[HailoRT] [warning] clear configured apps ended with status HAILO_DRIVER_OPERATION_FAILED(36)\n');
  assert.deepEqual(
    warn.diagnostics.map((d) => [d.code, d.severity]),
    [['hailort/driver', 'warning']],
  );
  assert.equal(hailortStatusIn('Process finished with exit status 1'), null);
  assert.deepEqual(readDfcLog('[info] Process finished with exit status 1\n').diagnostics, []);
});

test("hailort: a runtime of the other device family, and GenAI's one model at a time, say what the device errors say", () => {
  // pcie_device.cpp (5.2.0), llm_server.cpp (5.2.0).
  const family = readDfcLog(
    '[HailoRT] [error] CHECK failed - Hailo8 devices are only supported in versions 4.x.x and earlier\n[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_NOT_SUPPORTED(79)\n',
  );
  assert.deepEqual(
    family.diagnostics.map((d) => d.code),
    ['hailort/version-mismatch'],
  );
  assert.match(
    family.diagnostics[0].message,
    /Hailo-8 family needs HailoRT 4\.x.*HAILO_NOT_SUPPORTED\(79\)|HAILO_NOT_SUPPORTED\(79\).*Hailo-8 family needs HailoRT 4\.x/,
  );
  const kv = readDfcLog(
    '[HailoRT] [error] CHECK_SUCCESS failed with status=HAILO_INTERNAL_FAILURE(8) - Failed to mark KV-Cache in use. KV-Cache is already in use by another model!\n',
  );
  assert.equal(kv.diagnostics[0]?.code, 'hailort/out-of-physical-devices');
  assert.match(kv.diagnostics[0].message, /hailo-ollama/);
});
