// Every mismatch class of issue 21, each on a real model-zoo config (test/fixtures/nms/zoo-history,
// the v5.2.0 blobs) with one value changed: the finding's code, severity, the line it sits on (the
// one holding the wrong value), the other file and value it names, and its quick fix.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { analyze } from '../../../server/src/core/alls/analysis';
import { parseNmsConfig } from '../../../server/src/core/nms/config';
import { checkNms, type NmsCheckInput, type NmsFinding } from '../../../server/src/core/nms/checks';
import { parseLabels } from '../../../server/src/core/nms/labels';
import { nmsModelFromIndex, type NmsHefFacts } from '../../../server/src/core/nms/model';
import { nmsCalls } from '../../../server/src/core/nms/script';
import { DETECTORS, customYolov8n, detectorIndex, type Detector } from '../../helpers/nmsDetectors';
import { repoRoot } from '../../helpers/shared';

const blob = (id: string) => readFileSync(join(repoRoot, 'test', 'fixtures', 'nms', 'zoo-history', 'configs', `${id}.json`), 'utf8');
// v5.2.0's copies (the same bytes as ../shared/corpus/nms-zoo).
const YOLOV8N = blob('42a2e6e16ac3d051df56c5d5fc6f7cec35376143');
const YOLOV5S = blob('eec9cf1b7624b6a18137505fe8b11469dde67382');
const YOLOX = blob('a53c094ba53f5d6d53965d3f454921b0dfc705b7');
const YOLOV5M = blob('e399608db29a9179dd08ba060da92d9db672035c');
// The zoo's scripts (hailo_model_zoo/cfg/alls/generic, v5.2.0).
const YOLOV8N_ALLS = 'nms_postprocess("../../postprocess_config/yolov8n_nms_config.json", meta_arch=yolov8, engine=cpu)\n';
const YOLOV5S_ALLS = 'nms_postprocess("../../postprocess_config/yolov5s_nms_config.json", yolov5, engine=cpu)\n';
const YOLOX_ALLS = 'nms_postprocess("../../postprocess_config/nms_config_yolox_s_leaky.json", yolox, engine=cpu)\n';

/** Replace the one occurrence of `from` (a test edits exactly one value). */
function edit(text: string, from: string, to: string): string {
  assert.equal(text.split(from).length, 2, `exactly one ${from}`);
  return text.replace(from, to);
}

function run(opts: { config?: string; script?: string; model?: Detector; hef?: NmsHefFacts; labels?: [string, string] }): NmsFinding[] {
  const input: NmsCheckInput = {};
  if (opts.config !== undefined) input.config = { name: 'the_nms_config.json', doc: parseNmsConfig(opts.config) };
  if (opts.script !== undefined) input.script = { name: 'model.alls', call: nmsCalls(analyze(opts.script))[0] };
  if (opts.model) input.model = nmsModelFromIndex(detectorIndex(opts.model));
  if (opts.hef) input.hef = opts.hef;
  if (opts.labels) input.labels = { name: opts.labels[0], file: parseLabels(opts.labels[1], opts.labels[0])! };
  return checkNms(input);
}

/** 1-based line of a finding's start in `text`, and the text it covers. */
const where = (text: string, f: NmsFinding) => ({
  line: f.range.start.line + 1,
  covers: text.split('\n')[f.range.start.line].slice(f.range.start.character, f.range.end.line === f.range.start.line ? f.range.end.character : undefined),
});
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

function only(found: NmsFinding[], code: string): NmsFinding {
  assert.deepEqual(
    found.map((f) => f.code),
    [code],
    found.map((f) => f.message).join('\n'),
  );
  return found[0];
}

test('the unchanged configs with their HN stand-ins give nothing (the baseline of every case below)', () => {
  assert.deepEqual(run({ config: YOLOV8N, script: YOLOV8N_ALLS, model: DETECTORS.yolov8n }), []);
  assert.deepEqual(run({ config: YOLOV5S, script: YOLOV5S_ALLS, model: DETECTORS.yolov5s }), []);
  assert.deepEqual(run({ config: YOLOX, script: YOLOX_ALLS, model: DETECTORS.yolox_s_leaky }), []);
});

test('classes: a COCO config on a 1-class custom YOLOv8 (MZ#94, MZ#64, ACE#245) → on "classes", fix 1', () => {
  const f = only(run({ config: YOLOV8N, script: YOLOV8N_ALLS, model: customYolov8n(1) }), 'nms/classes');
  assert.equal(f.severity, 'warning');
  assert.deepEqual(where(YOLOV8N, f), { line: lineOf(YOLOV8N, '"classes"'), covers: '80' });
  assert.match(f.message, /classes is 80 but cls_layer yolov8n\/conv42 of yolov8n\.har has 1 channel /);
  assert.equal(f.fixes?.[0].edits[0].newText, '1');
});

test('classes on YOLOv5 counts anchors × (5 + classes): 3 × (5 + 2) = 21 channels → fix 2', () => {
  const d: Detector = { ...DETECTORS.yolov5s, heads: DETECTORS.yolov5s.heads.map((h) => ({ ...h, hwc: [h.hwc[0], h.hwc[1], 21] })) };
  const f = only(run({ config: YOLOV5S, script: YOLOV5S_ALLS, model: d }), 'nms/classes');
  assert.match(f.message, /3 anchors × \(5 \+ 2 classes\)/);
  assert.equal(f.fixes?.[0].edits[0].newText, '2');
});

test('a layer the HN does not have (ACE#260: the stock yolov5m JSON on another model) is an error with the DFC message', () => {
  const found = run({ config: YOLOV5M, script: YOLOV5S_ALLS, model: DETECTORS.yolov5s });
  const missing = found.filter((f) => f.code === 'nms/layer-not-in-hn');
  assert.equal(missing.length, 3);
  assert.ok(missing.every((f) => f.severity === 'error'));
  const conv84 = missing.find((f) => f.message.includes('conv84'))!;
  assert.match(conv84.message, /^The layer named conv84 doesn't exist in the HN of yolov5s\.har/);
  assert.deepEqual(where(YOLOV5M, conv84), { line: lineOf(YOLOV5M, '"conv84"'), covers: '"conv84"' });
});

test("a scoped name for another network (a custom model parsed as 'best') is an error with the right name as its fix", () => {
  const found = run({ config: YOLOV8N, script: YOLOV8N_ALLS, model: customYolov8n(80, 'best') });
  assert.equal(found.length, 6);
  const f = found.find((x) => x.message.includes('yolov8n/conv41'))!;
  assert.equal(f.code, 'nms/layer-not-in-hn');
  assert.match(f.message, /its network is best, so the layer is best\/conv41/);
  assert.equal(f.fixes?.[0].edits[0].newText, '"best/conv41"');
});

test('regression_length against the reg head: 4 × 16 = 64 channels → fix 16', () => {
  const text = edit(YOLOV8N, '"regression_length": 16', '"regression_length": 8');
  const f = only(run({ config: text, script: YOLOV8N_ALLS, model: DETECTORS.yolov8n }), 'nms/regression-length');
  assert.deepEqual(where(text, f), { line: lineOf(text, 'regression_length'), covers: '8' });
  assert.equal(f.fixes?.[0].edits[0].newText, '16');
});

test('a reg head whose channels are no multiple of 4 is an error (HailoRT refuses the YOLOv8 op)', () => {
  const d = customYolov8n(80);
  d.heads[0].hwc[2] = 66;
  const f = only(run({ config: YOLOV8N, script: YOLOV8N_ALLS, model: d }), 'nms/reg-channels');
  assert.equal(f.severity, 'error');
  assert.match(f.message, /not a multiple of 4/);
});

test('stride against the feature map: 640 / 80 = 8', () => {
  const text = edit(YOLOV8N, '"stride": 8', '"stride": 16');
  const f = only(run({ config: text, script: YOLOV8N_ALLS, model: DETECTORS.yolov8n }), 'nms/stride');
  assert.equal(where(text, f).covers, '16');
  assert.match(f.message, /reg_layer yolov8n\/conv41 is 80×80 for yolov8n\.har's input input_layer1 640×640/);
  assert.equal(f.fixes?.[0].edits[0].newText, '8');
});

test('image_dims against the network input', () => {
  const text = YOLOV8N.replace(/"image_dims": \[\s*640,\s*640\s*\]/, '"image_dims": [480, 640]');
  const f = only(run({ config: text, script: YOLOV8N_ALLS, model: DETECTORS.yolov8n }), 'nms/image-dims');
  assert.equal(f.fixes?.[0].edits[0].newText, '[640, 640]');
});

test("a decoder pairing two scales' layers is an error (HailoRT: different shape)", () => {
  const text = edit(YOLOV8N, '"cls_layer": "yolov8n/conv42"', '"cls_layer": "yolov8n/conv53"');
  const f = run({ config: text, script: YOLOV8N_ALLS, model: DETECTORS.yolov8n }).find((x) => x.code === 'nms/pair-shape')!;
  assert.equal(f.severity, 'error');
  assert.match(f.message, /cls_layer yolov8n\/conv53 is 40×40×80 but reg_layer yolov8n\/conv41 is 80×80×64/);
});

test('YOLOX: a swapped objectness head', () => {
  const text = edit(YOLOX, '"objectness_layer": "conv56"', '"objectness_layer": "conv54"');
  const f = only(run({ config: text, script: YOLOX_ALLS, model: DETECTORS.yolox_s_leaky }), 'nms/objectness-channels');
  assert.match(f.message, /objectness_layer conv54 of yolox_s_leaky\.har has 80 channels/);
});

test('meta_arch against the config form; the fix names the family', () => {
  const script = YOLOV8N_ALLS.replace('meta_arch=yolov8', 'meta_arch=yolov5');
  const f = only(run({ config: YOLOV8N, script }), 'nms/meta-arch');
  assert.deepEqual(where(script, f), { line: 1, covers: 'yolov5' });
  assert.equal(f.fixes?.[0].edits[0].newText, 'yolov8');
});

test("meta_arch=yolov8 on a HAR from DFC 3.24 (MZ#86 'not a valid NMSMetaArchitectures')", () => {
  const f = only(run({ config: YOLOV8N, script: YOLOV8N_ALLS, model: { ...DETECTORS.yolov8n, sdkVersion: '3.24.0' } }), 'nms/meta-arch-dfc');
  assert.match(f.message, /'yolov8' is not a valid NMSMetaArchitectures/);
});

test('an inline value that differs from the JSON', () => {
  const script = YOLOV8N_ALLS.replace('engine=cpu)', 'engine=cpu, classes=1)');
  const f = only(run({ config: YOLOV8N, script }), 'nms/inline-differs');
  assert.equal(where(script, f).covers, '1');
  assert.match(f.message, /classes=1 here but 80 in the_nms_config\.json/);
});

test('bbox_decoding_only on YOLOX is an error (HailoRT refuses it)', () => {
  const f = only(run({ config: YOLOX, script: YOLOX_ALLS.replace('engine=cpu)', 'engine=cpu, bbox_decoding_only=True)') }), 'nms/bbox-only-unsupported');
  assert.equal(f.severity, 'error');
});

test('anchor counts: w and h of one decoder differ (YOLOv5: HailoRT refuses the HEF)', () => {
  const text = YOLOV5S.replace(/"h": \[\s*13,\s*30,\s*23\s*\]/, '"h": [13, 30]');
  const f = only(run({ config: text, script: YOLOV5S_ALLS }), 'nms/anchors-count');
  assert.equal(f.severity, 'error');
});

test('number_of_detection_heads against the decoders', () => {
  const text = edit(YOLOX, '"number_of_detection_heads": 3', '"number_of_detection_heads": 4');
  assert.equal(only(run({ config: text, script: YOLOX_ALLS }), 'nms/detection-heads').fixes?.[0].edits[0].newText, '3');
});

test('shapes from the ONNX node when the HN gives none', () => {
  const index = detectorIndex(customYolov8n(3));
  for (const l of index.layers.values())
    if (l.type === 'conv') {
      const [h, w, c] = l.outputShapes[0].slice(1) as number[];
      l.outputShapes = [];
      l.onnxOutputShapes = [[1, c, h, w]];
    }
  const f = checkNms({ config: { name: 'c.json', doc: parseNmsConfig(YOLOV8N) }, model: nmsModelFromIndex(index) });
  assert.equal(f[0].code, 'nms/classes');
  assert.match(f[0].message, /has 3 channels \(the output of its ONNX node; the HN gives no shape\)/);
});

// ---- the HEF -----------------------------------------------------------------------------------

const hef80: NmsHefFacts = {
  source: 'yolov8n.hef',
  kind: 'op',
  opType: 'yolov8',
  classes: 80,
  outputClasses: 80,
  maxProposalsPerClass: 100,
  scoreTh: 0.2,
  iouTh: 0.7,
  imageDims: [640, 640],
  regressionLength: 16,
  decoders: [
    { stride: 8, layers: ['yolov8n/conv41', 'yolov8n/conv42'] },
    { stride: 16, layers: ['yolov8n/conv52', 'yolov8n/conv53'] },
    { stride: 32, layers: ['yolov8n/conv62', 'yolov8n/conv63'] },
  ],
  outputs: [],
};

test('the HEF matching its config and script gives nothing', () => {
  assert.deepEqual(run({ config: YOLOV8N, script: YOLOV8N_ALLS, hef: hef80 }), []);
});

test('the HEF compiled with 80 classes against a 7-class config (rpi5#173): on "classes", naming the HEF', () => {
  const text = edit(YOLOV8N, '"classes": 80', '"classes": 7');
  const f = only(run({ config: text, script: YOLOV8N_ALLS, hef: hef80 }), 'nms/hef-differs');
  assert.equal(where(text, f).covers, '7');
  assert.match(f.message, /classes is 7 here but 80 in yolov8n\.hef/);
});

test('the HEF: thresholds, proposals and decoder pairing', () => {
  const text = edit(edit(YOLOV8N, '"nms_iou_th": 0.7', '"nms_iou_th": 0.45'), '"max_proposals_per_class": 100', '"max_proposals_per_class": 300');
  const found = run({ config: text, hef: hef80 });
  assert.deepEqual(found.map((f) => where(text, f).covers).sort(), ['0.45', '300']);
  const paired = edit(
    edit(YOLOV8N, '"cls_layer": "yolov8n/conv42"', '"cls_layer": "yolov8n/conv63"'),
    '"cls_layer": "yolov8n/conv63"\n        }\n    ]',
    '"cls_layer": "yolov8n/conv42"\n        }\n    ]',
  );
  const swap = run({ config: paired, hef: hef80 }).filter((f) => f.code === 'nms/hef-differs');
  assert.equal(swap.length, 2);
  assert.match(swap[0].message, /pairs conv41 with conv42, not yolov8n\/conv63/);
});

test('a HEF without NMS beside a script with nms_postprocess (ACE#245: 409600-byte conv41 buffers)', () => {
  const raw: NmsHefFacts = { source: 'custom.hef', kind: 'none', outputs: [{ name: 'yolov8n/conv41', shape: [80, 80, 64] }], decoders: [] };
  const f = only(run({ config: YOLOV8N, script: YOLOV8N_ALLS, hef: raw }), 'nms/hef-no-nms');
  assert.equal(where(YOLOV8N_ALLS, f).covers, 'nms_postprocess');
  assert.match(f.message, /conv41 80×80×64/);
});

test('the HEF op kind and engine against the script', () => {
  const f = only(run({ script: YOLOV5S_ALLS, hef: { ...hef80, decoders: [] } }), 'nms/hef-kind');
  assert.match(f.message, /holds a yolov8 NMS op/);
  const g = only(run({ script: YOLOV8N_ALLS.replace('engine=cpu', 'engine=nn_core'), hef: { ...hef80, decoders: [] } }), 'nms/hef-engine');
  assert.equal(g.range.start.character, YOLOV8N_ALLS.indexOf('cpu'));
});

// ---- labels ------------------------------------------------------------------------------------

test('a hailo-apps labels JSON for 7 classes against an 80-class HEF (rpi5#173)', () => {
  const labels = JSON.stringify({ detection_threshold: 0.5, max_boxes: 200, labels: ['unlabeled', 'a', 'b', 'c', 'd', 'e', 'f', 'g'] }, null, 2);
  const f = only(run({ hef: hef80, labels: ['labels.json', labels] }), 'nms/labels-count');
  assert.match(
    f.message,
    /names 7 classes \(a hailo-apps labels JSON lists "unlabeled" first.*80 classes need 81 entries\) but yolov8n\.hef's NMS output has 80 classes/,
  );
  assert.equal(f.range.start.line, 3, 'on the labels array');
});

test('hailo-apps labels without the leading "unlabeled" are one short', () => {
  const labels = JSON.stringify({ labels: ['barcode', 'QR code'] });
  const f = only(run({ config: edit(YOLOV8N, '"classes": 80', '"classes": 2'), labels: ['barcode-labels.json', labels] }), 'nms/labels-count');
  assert.match(f.message, /names 1 class /);
  assert.deepEqual(
    run({
      config: edit(YOLOV8N, '"classes": 80', '"classes": 2'),
      labels: ['barcode-labels.json', JSON.stringify({ labels: ['unlabeled', 'barcode', 'QR code'] })],
    }),
    [],
  );
});

test('plain lists and names files count one name per class', () => {
  const coco = Array.from({ length: 80 }, (_, i) => `c${i}`);
  assert.deepEqual(run({ hef: hef80, labels: ['coco.names', coco.join('\n') + '\n'] }), []);
  assert.deepEqual(run({ hef: hef80, labels: ['labels.json', JSON.stringify(coco)] }), []);
  assert.equal(only(run({ hef: hef80, labels: ['coco.names', coco.slice(0, 79).join('\n')] }), 'nms/labels-count').range.start.line, 0);
});

test('more than 256 hailo-apps labels wrap around its 8-bit ids (MZ#160: 1011 classes)', () => {
  const labels = JSON.stringify({ labels: ['unlabeled', ...Array.from({ length: 1011 }, (_, i) => `c${i}`)] });
  const f = only(run({ config: edit(YOLOV8N, '"classes": 80', '"classes": 1011'), labels: ['labels.json', labels] }), 'nms/labels-uint8');
  assert.match(f.message, /uint8_t/);
});

test('background removal: the output has one class fewer than "classes"', () => {
  const hef: NmsHefFacts = { source: 'ssd.hef', kind: 'op', opType: 'ssd', classes: 91, outputClasses: 90, backgroundRemoval: true, outputs: [] };
  assert.deepEqual(run({ hef, labels: ['labels.json', JSON.stringify(Array.from({ length: 90 }, (_, i) => `c${i}`))] }), []);
});

// ---- inline classes= without a config -------------------------------------------------------------

test('classes= inline with no config against the HN heads: a 1-class YOLOv8n with classes=80', () => {
  const script = 'nms_postprocess(meta_arch=yolov8, engine=cpu, classes=80)\n';
  const f = only(run({ script, model: customYolov8n(1) }), 'nms/classes');
  assert.equal(f.file, 'script');
  assert.equal(f.severity, 'warning');
  assert.deepEqual(where(script, f), { line: 1, covers: '80' });
  assert.match(
    f.message,
    /classes=80 but the class heads of yolov8n\.har have 1 channel \(output_layer2 80×80×1, output_layer4 40×40×1, output_layer6 20×20×1: beside each 64-channel box head/,
  );
  assert.equal(f.fixes?.[0].edits[0].newText, '1');
  assert.deepEqual(run({ script: script.replace('classes=80', 'classes=1'), model: customYolov8n(1) }), []);
  assert.deepEqual(run({ script, model: DETECTORS.yolov8n }), [], 'the 80-class zoo heads agree');
  // With a config path the config's classes are what the heads are checked against (the rows above).
  assert.deepEqual(
    run({ script: 'nms_postprocess("c.json", meta_arch=yolov8, engine=cpu, classes=80)\n', model: customYolov8n(1) }).filter((x) => x.file === 'script'),
    [],
  );
});

test('classes= inline with no config: YOLOv5, YOLOX and SSD heads are read as YOLOv8 heads are', () => {
  const yolov5 = (k: number): Detector => ({
    ...DETECTORS.yolov5s,
    heads: DETECTORS.yolov5s.heads.map((h) => ({ ...h, hwc: [h.hwc[0], h.hwc[1], 3 * (5 + k)] })),
  });
  const v5 = 'nms_postprocess(meta_arch=yolov5, engine=cpu, classes=80)\n';
  const f5 = only(run({ script: v5, model: yolov5(2) }), 'nms/classes');
  assert.match(f5.message, /classes=80 but the heads of yolov5s\.har hold 2 classes \(output_layer1 80×80×21, .*3 anchors × \(5 \+ classes\)/);
  assert.equal(f5.fixes?.[0].edits[0].newText, '2');
  assert.deepEqual(run({ script: v5, model: DETECTORS.yolov5s }), [], 'the zoo yolov5s heads agree with 80');
  const yolox = (k: number): Detector => ({
    ...DETECTORS.yolox_s_leaky,
    heads: DETECTORS.yolox_s_leaky.heads.map((h) => (h.hwc[2] === 80 ? { ...h, hwc: [h.hwc[0], h.hwc[1], k] } : h)),
  });
  const vx = 'nms_postprocess(meta_arch=yolox, engine=cpu, classes=80)\n';
  const fx = only(run({ script: vx, model: yolox(5) }), 'nms/classes');
  assert.match(fx.message, /the class heads of yolox_s_leaky\.har have 5 channels \(output_layer\d 80×80×5, output_layer\d 40×40×5, output_layer\d 20×20×5/);
  assert.deepEqual(run({ script: vx, model: DETECTORS.yolox_s_leaky }), []);
  // SSD (the zoo's ssd_mobilenet_v1: 91 classes with background, 3 then 6 anchors per scale).
  const ssd = (k: number): Detector => ({
    net: 'ssd_mobilenet_v1',
    input: [300, 300, 3],
    heads: [
      { name: 'conv12', hwc: [19, 19, 12] },
      { name: 'conv13', hwc: [19, 19, 3 * k] },
      { name: 'conv16', hwc: [10, 10, 24] },
      { name: 'conv17', hwc: [10, 10, 6 * k] },
    ],
    sdkVersion: '3.33.0',
  });
  const vs = 'nms_postprocess(meta_arch=ssd, classes=91)\n';
  assert.match(only(run({ script: vs, model: ssd(3) }), 'nms/classes').message, /hold 3 classes \(output_layer2 19×19×9, output_layer4 10×10×18/);
  assert.deepEqual(run({ script: vs, model: ssd(91) }), []);
});

test("Ultralytics' metadata.yaml as a labels file: its names count, its imgsz against image_dims", () => {
  const yaml = 'task: detect\nimgsz:\n- 480\n- 640\nnames:\n  0: apple\n  1: banana\n';
  const f = run({ config: YOLOV8N, labels: ['metadata.yaml', yaml] });
  assert.deepEqual(f.map((x) => x.code).sort(), ['nms/image-dims', 'nms/labels-count']);
  const count = f.find((x) => x.code === 'nms/labels-count')!;
  assert.equal(count.file, 'labels');
  assert.match(count.message, /metadata\.yaml names 2 classes but the_nms_config\.json says classes 80/);
  const dims = f.find((x) => x.code === 'nms/image-dims')!;
  assert.equal(dims.file, 'config');
  assert.match(dims.message, /image_dims is \[640, 640\] but metadata\.yaml says the model was exported at imgsz \[480, 640\]/);
  const coco80 = `imgsz:\n- 640\n- 640\nnames:\n${Array.from({ length: 80 }, (_, i) => `  ${i}: c${i}`).join('\n')}\n`;
  assert.deepEqual(run({ config: YOLOV8N, labels: ['metadata.yaml', coco80] }), []);
});

test("the model's own Ultralytics metadata (the ONNX's names, imgsz) against the config's classes and image_dims", () => {
  const ultralytics = { source: "best.onnx's metadata", names: ['apple', 'banana', 'cherry'], imgsz: [480, 640] as [number, number] };
  const f = checkNms({ config: { name: 'c.json', doc: parseNmsConfig(YOLOV8N) }, ultralytics });
  assert.deepEqual(f.map((x) => [x.file, x.code]).sort(), [
    ['config', 'nms/classes'],
    ['config', 'nms/image-dims'],
  ]);
  assert.match(f.find((x) => x.code === 'nms/classes')!.message, /classes is 80 but best\.onnx's metadata names 3 classes .* set classes to 3/);
  // inline classes= without a config, on the script's value
  const call = nmsCalls(analyze('nms_postprocess(meta_arch=yolov8, engine=cpu, classes=80)\n'))[0];
  const s = checkNms({ script: { name: 'm.alls', call }, ultralytics });
  assert.deepEqual(
    s.map((x) => [x.file, x.code]),
    [['script', 'nms/classes']],
  );
  // agreeing metadata: nothing
  assert.deepEqual(
    checkNms({
      config: { name: 'c.json', doc: parseNmsConfig(YOLOV8N) },
      ultralytics: { source: 'm', names: Array.from({ length: 80 }, (_, i) => `c${i}`), imgsz: [640, 640] },
    }),
    [],
  );
});
