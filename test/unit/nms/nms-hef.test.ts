// The HEF side of the NMS checks: our reader decodes the NMS op's bbox decoders (hef.proto
// ProtoHEFYolov8NmsOp: decoders by pad index, regression_length) from HEFs built by the test
// builder, and the checks compare them with the zoo's yolov8n config.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bufferSource, readHef } from '../../../server/src/core/hef';
import { parseNmsConfig } from '../../../server/src/core/nms/config';
import { checkNms } from '../../../server/src/core/nms/checks';
import { nmsHefFacts } from '../../../server/src/core/nms/hefFacts';
import { analyze } from '../../../server/src/core/alls/analysis';
import { parseLabels } from '../../../server/src/core/nms/labels';
import { nmsCalls } from '../../../server/src/core/nms/script';
import { buildHef, type HefSpec } from '../../helpers/hefBuilder';
import { yolov8nHef, yolov8nHefSpec } from '../../helpers/nmsDetectors';
import { repoRoot } from '../../helpers/shared';

const YOLOV8N = readFileSync(join(repoRoot, 'test', 'fixtures', 'nms', 'zoo-history', 'configs', '42a2e6e16ac3d051df56c5d5fc6f7cec35376143.json'), 'utf8');

async function facts(bytes: Uint8Array) {
  const report = await readHef(bufferSource(bytes));
  assert.deepEqual(
    report.problems.filter((p) => p.severity === 'error').map((p) => p.message),
    [],
  );
  return nmsHefFacts('yolov8n.hef', report.networkGroups[0]);
}

test("the YOLOv8 op's values and decoders are read from the HEF", async () => {
  const f = await facts(await yolov8nHef());
  assert.equal(f.kind, 'op');
  assert.equal(f.opType, 'yolov8');
  assert.equal(f.classes, 80);
  assert.equal(f.outputClasses, 80);
  assert.equal(f.maxProposalsPerClass, 100);
  assert.equal(f.regressionLength, 16);
  assert.deepEqual(f.imageDims, [640, 640]);
  assert.deepEqual(f.decoders, [
    { stride: 8, layers: ['yolov8n/conv41', 'yolov8n/conv42'] },
    { stride: 16, layers: ['yolov8n/conv52', 'yolov8n/conv53'] },
    { stride: 32, layers: ['yolov8n/conv62', 'yolov8n/conv63'] },
  ]);
  assert.deepEqual(checkNms({ config: { name: 'yolov8n_nms_config.json', doc: parseNmsConfig(YOLOV8N) }, hef: f }), []);
});

test('a HEF compiled for 1 class against the 80-class config: classes and the decoder count', async () => {
  const f = await facts(await yolov8nHef({ classes: 1, regressionLength: 8 }));
  const found = checkNms({ config: { name: 'yolov8n_nms_config.json', doc: parseNmsConfig(YOLOV8N) }, hef: f });
  assert.deepEqual(found.map((x) => x.message).sort(), [
    'classes is 80 here but 1 in yolov8n.hef (compiled from another version of this config): compile again, or set 1 if the HEF is right.',
    'regression_length is 16 here but 8 in yolov8n.hef (compiled from another version of this config): compile again, or set 8 if the HEF is right.',
  ]);
});

test('a HEF without NMS: the raw heads are its outputs', async () => {
  const f = await facts(await yolov8nHef({ nms: false }));
  assert.equal(f.kind, 'none');
  assert.deepEqual(f.outputs[0], { name: 'yolov8n/conv41', shape: [80, 80, 64] });
});

// ---- the NMS output vstream ------------------------------------------------------------------------
// Expected formats from the real libhailort 5.2.0 (/work/oracle oracle_hef, Hef::create on these specs
// with the decoders naming the core op's pads): the plain op "FLOAT32, HAILO NMS BY CLASS(number of
// classes: 80, maximum bounding boxes per class: 100, maximum frame size: 160320)"; bbox_decoding_only
// "FLOAT32, NHWC(1x8400x84)"; a pad asking HAILO_NMS_BY_SCORE/UINT8 still BY CLASS FLOAT32 160320
// (hef.cpp create_*_op_metadata passes AUTO and ignores the pad's format).

function variant(mut: (op: NonNullable<HefSpec['networkGroups'][number]['ops']>[number], g: HefSpec['networkGroups'][number]) => void): Promise<Uint8Array> {
  const spec = yolov8nHefSpec();
  const g = spec.networkGroups[0];
  mut(g.ops![0], g);
  return buildHef(spec);
}
const bboxOnlyHef = () => variant((op) => (op.nms!.bboxDecodingOnly = true));

async function nmsOutput(bytes: Uint8Array) {
  const report = await readHef(bufferSource(bytes));
  const v = report.networkGroups[0].outputs;
  assert.equal(v.length, 1);
  return { name: v[0].name, order: v[0].order, type: v[0].type, shape: v[0].shape, frameSize: v[0].frameSize };
}

test("the NMS output's order, type and frame size are HailoRT's: BY_CLASS FLOAT32, NHWC boxes for bbox_decoding_only, the pad's format ignored", async () => {
  assert.deepEqual(await nmsOutput(await yolov8nHef()), {
    name: 'yolov8n/yolov8_nms_postprocess',
    order: 'HAILO_NMS_BY_CLASS',
    type: 'FLOAT32',
    shape: [80, 5, 100],
    frameSize: 160320,
  });
  assert.deepEqual(await nmsOutput(await bboxOnlyHef()), {
    name: 'yolov8n/yolov8_nms_postprocess',
    order: 'NHWC',
    type: 'FLOAT32',
    shape: [1, 8400, 84],
    frameSize: 1 * 8400 * 84 * 4,
  });
  const byScorePad = await variant((op) => Object.assign(op.outputPads[0], { formatOrder: 23, formatType: 1 }));
  assert.deepEqual(await nmsOutput(byScorePad), { ...(await nmsOutput(await yolov8nHef())) });
});

const script = (text: string) => ({ name: 'model.alls', call: nmsCalls(analyze(text))[0] });
const ZOO_ALLS = 'nms_postprocess("../../postprocess_config/yolov8n_nms_config.json", meta_arch=yolov8, engine=cpu)\n';

test('a bbox_decoding_only HEF beside a script without it, and the reverse: nms/hef-output on the script', async () => {
  const bboxOnly = await facts(await bboxOnlyHef());
  const f = checkNms({ script: script(ZOO_ALLS), hef: bboxOnly });
  assert.deepEqual(
    f.map((x) => [x.code, x.severity, x.range.start.character]),
    [['nms/hef-output', 'warning', 0]],
  );
  assert.match(f[0].message, /compiled with bbox_decoding_only: its output \(yolov8_nms_postprocess is FLOAT32 NHWC\) holds decoded boxes/);
  // The zoo's own bbox-only script (cfg/alls/generic/yolov8s_bbox_decoding_only.alls form) with its HEF: silent.
  const zooBboxOnly = ZOO_ALLS.replace('engine=cpu)', 'engine=cpu, bbox_decoding_only=True)');
  assert.deepEqual(checkNms({ script: script(zooBboxOnly), hef: bboxOnly }), []);
  const g = checkNms({ script: script(zooBboxOnly), hef: await facts(await yolov8nHef()) });
  assert.deepEqual(
    g.map((x) => [x.code, x.range.start.character]),
    [['nms/hef-output', zooBboxOnly.indexOf('True')]],
  );
  assert.match(g[0].message, /runs NMS \(yolov8_nms_postprocess is FLOAT32 HAILO_NMS_BY_CLASS\)/);
});

// hailo-apps' labels JSON means its detection post-process (yolo_hailortpp.cpp filter): the output named *nms_postprocess*, BY_CLASS FLOAT32.
const APP_LABELS = JSON.stringify({ detection_threshold: 0.5, max_boxes: 200, labels: ['unlabeled', ...Array.from({ length: 80 }, (_, i) => `c${i}`)] });
const appLabels = () => ({ name: 'labels.json', file: parseLabels(APP_LABELS, 'labels.json')! });

test('a hailo-apps labels JSON beside a HEF its post-process cannot read: nms/app-output', async () => {
  assert.deepEqual(checkNms({ labels: appLabels(), hef: await facts(await yolov8nHef()) }), [], 'the zoo layout reads');
  const cases: [string, Uint8Array, RegExp][] = [
    ['no NMS', await yolov8nHef({ nms: false }), /has no NMS output \(its outputs are the raw heads: conv41 80×80×64/],
    [
      'renamed output',
      await variant((op, g) => {
        op.outputPads[0].name = 'yolov8n/detections';
        g.sortedOutputs = ['yolov8n/detections'];
      }),
      /NMS output is named yolov8n\/detections, which the app's search for "nms_postprocess" does not find/,
    ],
    ['bbox only', await bboxOnlyHef(), /is FLOAT32 NHWC \(decoded boxes: compiled with bbox_decoding_only\)/],
  ];
  for (const [what, bytes, message] of cases) {
    const f = checkNms({ labels: appLabels(), hef: await facts(bytes) });
    assert.deepEqual(
      f.map((x) => [x.code, x.severity, x.file]),
      [['nms/app-output', 'warning', 'labels']],
      what,
    );
    assert.match(f[0].message, message, what);
  }
  // A plain list names no app: no claim about its post-process.
  assert.deepEqual(
    checkNms({
      labels: { name: 'labels.json', file: parseLabels(JSON.stringify(Array.from({ length: 80 }, (_, i) => `c${i}`)), 'x.json')! },
      hef: await facts(await bboxOnlyHef()),
    }),
    [],
  );
});

test("labels for 7 classes against an 80-class HEF name the frame sizes (ACE#245's 160320-byte buffer)", async () => {
  const labels = JSON.stringify({ labels: ['unlabeled', 'a', 'b', 'c', 'd', 'e', 'f', 'g'] });
  const f = checkNms({ labels: { name: 'labels.json', file: parseLabels(labels, 'labels.json')! }, hef: await facts(await yolov8nHef()) });
  assert.deepEqual(
    f.map((x) => x.code),
    ['nms/labels-count'],
  );
  // 160320 is libhailort's "maximum frame size" of this output; 7 × (1 + 5 × 100) × 4 = 14028 (hailort.h HAILO_NMS_BY_CLASS).
  assert.match(f[0].message, /NMS frames are 160320 bytes \(80 × \(1 \+ 5 × 100\) × 4\), an app sized for 7 classes expects 14028/);
});
