// TEST-ONLY stand-ins for three model-zoo detectors as the DFC parses them: the HN's input and the
// conv heads their zoo NMS configs name, with the shapes those configs imply (HN shapes are NHWC with
// batch -1, hn-har-format.md). Facts:
// - yolov8n: yolov8n_nms_config.json (reg conv41/52/62, cls conv42/53/63, strides 8/16/32 of a
//   640×640 input, regression_length 16 → 64 channels, 80 classes); the same head layout shows in
//   a real yolov8m HEF's outputs (80×80×64, 80×80×80, 40×40×64, … — Hailo-Application-Code-Examples#143).
// - yolov5s: yolov5s_nms_config.json (encoded conv55/63/70, 3 anchors × (5 + 80) = 255 channels).
// - yolox_s_leaky: nms_config_yolox_s_leaky.json (reg conv55/69/82 = 4, objectness conv56/70/83 = 1,
//   cls conv54/68/81 = 80).
// The configs and scripts themselves are the real files (../shared/corpus/nms-zoo, and the copies in
// test/fixtures/nms/zoo-history).
import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { parseHn } from '../../server/src/core/har/hn';
import { buildLayerIndex } from '../../server/src/core/har/layers';
import type { HarArchive } from '../../server/src/core/har/harReader';
import type { ModelLayerIndex } from '../../server/src/core/common/modelLayers';
import { buildHef, type HefSpec } from './hefBuilder';

export interface Head {
  name: string;
  hwc: [number, number, number];
}

export interface Detector {
  net: string;
  input: [number, number, number];
  heads: Head[];
  sdkVersion: string;
}

const grid = (h: number, s: number) => h / s;

function yolov8Heads(classes: number, input = 640): Head[] {
  const heads: Head[] = [];
  for (const [reg, cls, s] of [
    ['conv41', 'conv42', 8],
    ['conv52', 'conv53', 16],
    ['conv62', 'conv63', 32],
  ] as const) {
    heads.push({ name: reg, hwc: [grid(input, s), grid(input, s), 64] }, { name: cls, hwc: [grid(input, s), grid(input, s), classes] });
  }
  return heads;
}

export const DETECTORS = {
  yolov8n: { net: 'yolov8n', input: [640, 640, 3], heads: yolov8Heads(80), sdkVersion: '3.33.0' },
  yolov5s: {
    net: 'yolov5s',
    input: [640, 640, 3],
    heads: [
      { name: 'conv55', hwc: [80, 80, 255] },
      { name: 'conv63', hwc: [40, 40, 255] },
      { name: 'conv70', hwc: [20, 20, 255] },
    ],
    sdkVersion: '3.33.0',
  },
  yolox_s_leaky: {
    net: 'yolox_s_leaky',
    input: [640, 640, 3],
    heads: [
      { name: 'conv54', hwc: [80, 80, 80] },
      { name: 'conv55', hwc: [80, 80, 4] },
      { name: 'conv56', hwc: [80, 80, 1] },
      { name: 'conv68', hwc: [40, 40, 80] },
      { name: 'conv69', hwc: [40, 40, 4] },
      { name: 'conv70', hwc: [40, 40, 1] },
      { name: 'conv81', hwc: [20, 20, 80] },
      { name: 'conv82', hwc: [20, 20, 4] },
      { name: 'conv83', hwc: [20, 20, 1] },
    ],
    sdkVersion: '3.33.0',
  },
} satisfies Record<string, Detector>;

/** A custom YOLOv8n trained on `classes` classes (the head's cls convs shrink, nothing else). */
export function customYolov8n(classes: number, net = 'yolov8n'): Detector {
  return { net, input: [640, 640, 3], heads: yolov8Heads(classes), sdkVersion: '3.33.0' };
}

/** The HN JSON: input layer → (backbone elided) → the heads → one output layer each. */
export function hnJson(d: Detector): string {
  const s = (n: string) => `${d.net}/${n}`;
  const layers: Record<string, unknown> = {
    [s('input_layer1')]: {
      type: 'input_layer',
      input: [],
      output: d.heads.map((h) => s(h.name)),
      input_shapes: [[-1, ...d.input]],
      output_shapes: [[-1, ...d.input]],
      original_names: ['images'],
    },
  };
  d.heads.forEach((h, i) => {
    layers[s(h.name)] = {
      type: 'conv',
      input: [s('input_layer1')],
      output: [s(`output_layer${i + 1}`)],
      input_shapes: [[-1, ...d.input]],
      output_shapes: [[-1, ...h.hwc]],
      original_names: [`/model.22/cv${i}/Conv`],
      params: { kernel_shape: [1, 1, 0, h.hwc[2]], strides: [1, 1, 1, 1] },
    };
    layers[s(`output_layer${i + 1}`)] = {
      type: 'output_layer',
      input: [s(h.name)],
      output: [],
      input_shapes: [[-1, ...h.hwc]],
      output_shapes: [[-1, ...h.hwc]],
      original_names: [`out${i}`],
    };
  });
  return JSON.stringify({ name: d.net, net_params: { net_scopes: [d.net], output_layers_order: d.heads.map((h) => s(h.name)) }, layers }, null, 1);
}

export function metadataJson(d: Detector): string {
  return JSON.stringify({ state: 'hailo_model', model_name: d.net, sdk_version: d.sdkVersion, hw_arch: 'hailo8', hn: `${d.net}.hn` });
}

/** The layer index the checks see, without a file. */
export function detectorIndex(d: Detector, path = `/m/${d.net}.har`): ModelLayerIndex {
  const har: HarArchive = {
    path,
    members: [],
    metadata: JSON.parse(metadataJson(d)) as Record<string, unknown>,
    hnMember: `${d.net}.hn`,
    hn: parseHn(hnJson(d), path),
  };
  return buildLayerIndex(har);
}

/** A `.har` (plain tar, as the DFC writes it) holding the HN and metadata. */
export async function harBytes(d: Detector): Promise<Buffer> {
  const pack = tar.pack();
  for (const [name, text] of [
    [`${d.net}.hn`, hnJson(d)],
    [`${d.net}.metadata.json`, metadataJson(d)],
  ] as const) {
    pack.entry({ name, mtime: new Date(0), mode: 0o644 }, text);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of Readable.from(pack as unknown as AsyncIterable<Buffer>)) chunks.push(c);
  return Buffer.concat(chunks);
}

// ---- HEFs -------------------------------------------------------------------------------------

export interface Yolov8HefOptions {
  classes?: number;
  maxProposalsPerClass?: number;
  score?: number;
  iou?: number;
  regressionLength?: number;
  /** false: the raw heads as outputs (compiled without nms_postprocess). */
  nms?: boolean;
  net?: string;
}

/**
 * A Hailo-8 YOLOv8n HEF the way the DFC builds it with `nms_postprocess(meta_arch=yolov8,
 * engine=cpu)`: the six heads are boundary outputs consumed by a net-flow YOLOv8 NMS op (hidden),
 * which adds one HAILO_NMS_BY_CLASS output; decoders name the heads by pad index.
 */
export function yolov8nHefSpec(o: Yolov8HefOptions = {}): HefSpec {
  const net = o.net ?? 'yolov8n';
  const classes = o.classes ?? 80;
  const heads = yolov8Heads(classes);
  const outputs = heads.map((h, i) => ({ name: `${net}/${h.name}`, shape: h.hwc, padIndex: i + 1, zp: 0, scale: 0.05 }));
  const group: HefSpec['networkGroups'][number] = { name: net, inputs: [{ name: `${net}/input_layer1`, shape: [640, 640, 3] }], outputs };
  if (o.nms !== false) {
    const op = `${net}/yolov8_nms_postprocess`;
    group.sortedOutputs = [op];
    group.ops = [
      {
        name: op,
        inputPads: heads.map((_, i) => ({ index: i + 9, name: `${op}_${i + 9}` })),
        outputPads: [{ index: 8, name: op, nmsShape: { classes, maxBboxesPerClass: o.maxProposalsPerClass ?? 100 } }],
        nms: {
          kind: 'yolov8_nms_op',
          score: o.score ?? 0.2,
          iou: o.iou ?? 0.7,
          maxProposalsPerClass: o.maxProposalsPerClass ?? 100,
          classes,
          image: [640, 640],
          regressionLength: o.regressionLength ?? 16,
          // Decoders name the core op's output pads (the heads' pad_index, the pad edges' src): HailoRT
          // looks them up among the core output streams (create_yolov8_config: map::at, uncaught).
          decoders: [8, 16, 32].map((stride, i) => ({ stride, reg: 1 + 2 * i, cls: 2 + 2 * i })),
        },
      },
    ];
    group.padEdges = heads.map((_, i) => [i + 1, i + 9] as [number, number]);
  }
  return { version: 3, hwArch: 1, extensions: [0, 3, 12, 13, 26, 27], networkGroups: [group] };
}

export const yolov8nHef = (o: Yolov8HefOptions = {}): Promise<Uint8Array> => buildHef(yolov8nHefSpec(o));

// ---- fixture folders (test/fixtures/nms/generate.mjs writes them; nms-fixtures.test.ts rebuilds and compares) ----

/** The zoo's own files (hailo_model_zoo v5.2.0), from the committed history set. */
export const ZOO_YOLOV8N_CONFIG_BLOB = '42a2e6e16ac3d051df56c5d5fc6f7cec35376143';
const ZOO_YOLOV8N_ALLS = [
  'normalization1 = normalization([0.0, 0.0, 0.0], [255.0, 255.0, 255.0])',
  'change_output_activation(conv42, sigmoid)',
  'change_output_activation(conv53, sigmoid)',
  'change_output_activation(conv63, sigmoid)',
  'nms_postprocess("../../postprocess_config/yolov8n_nms_config.json", meta_arch=yolov8, engine=cpu)',
  '',
  'allocator_param(width_splitter_defuse=disabled, spatial_defuse_legacy=True)',
  '',
].join('\n');

export interface NmsFixtureFile {
  path: string;
  bytes: () => Promise<Uint8Array>;
}

const text = (s: string) => async () => new TextEncoder().encode(s);

/** Every file of test/fixtures/nms/<case>/, relative to test/fixtures/nms. `zooConfig` is the v5.2.0 yolov8n config text. */
export function nmsFixtureFiles(zooConfig: string): NmsFixtureFile[] {
  const custom = zooConfig; // copied unchanged for a 1-class model: the most reported mistake
  return [
    // The zoo layout: cfg/alls/generic/yolov8n.alls names ../../postprocess_config/yolov8n_nms_config.json.
    { path: 'zoo/cfg/alls/generic/yolov8n.alls', bytes: text(ZOO_YOLOV8N_ALLS) },
    { path: 'zoo/cfg/postprocess_config/yolov8n_nms_config.json', bytes: text(zooConfig) },
    { path: 'zoo/cfg/alls/generic/yolov8n.har', bytes: () => harBytes(DETECTORS.yolov8n) },
    { path: 'zoo/cfg/alls/generic/yolov8n.hef', bytes: () => yolov8nHef() },
    {
      path: 'zoo/cfg/alls/generic/labels.json',
      bytes: text(JSON.stringify({ detection_threshold: 0.5, max_boxes: 200, labels: ['unlabeled', ...COCO80] }, null, 4) + '\n'),
    },
    // A custom 1-class YOLOv8n compiled with the zoo's 80-class config, and its app's labels.
    {
      path: 'custom/custom.alls',
      bytes: text(
        'normalization1 = normalization([0.0, 0.0, 0.0], [255.0, 255.0, 255.0])\nnms_postprocess("custom_nms_config.json", meta_arch=yolov8, engine=cpu)\n',
      ),
    },
    { path: 'custom/custom_nms_config.json', bytes: text(custom) },
    { path: 'custom/custom.har', bytes: () => harBytes(customYolov8n(1)) },
    { path: 'custom/custom.hef', bytes: () => yolov8nHef({ classes: 80 }) },
    { path: 'custom/labels.json', bytes: text(JSON.stringify({ detection_threshold: 0.5, max_boxes: 200, labels: ['unlabeled', 'barcode'] }, null, 4) + '\n') },
    // A config whose name no pattern matches: only the script naming it makes it an NMS config.
    { path: 'odd-name/detector.alls', bytes: text('nms_postprocess("settings/detector.json", meta_arch=yolov8, engine=cpu)\n') },
    { path: 'odd-name/settings/detector.json', bytes: text(zooConfig.replace('"regression_length": 16', '"regression_length": 8')) },
    { path: 'odd-name/detector.har', bytes: () => harBytes(DETECTORS.yolov8n) },
  ];
}

/** COCO's 80 class names (the order of the zoo's and hailo-apps' coco_eighty). */
export const COCO80 = [
  'person',
  'bicycle',
  'car',
  'motorcycle',
  'airplane',
  'bus',
  'train',
  'truck',
  'boat',
  'traffic light',
  'fire hydrant',
  'stop sign',
  'parking meter',
  'bench',
  'bird',
  'cat',
  'dog',
  'horse',
  'sheep',
  'cow',
  'elephant',
  'bear',
  'zebra',
  'giraffe',
  'backpack',
  'umbrella',
  'handbag',
  'tie',
  'suitcase',
  'frisbee',
  'skis',
  'snowboard',
  'sports ball',
  'kite',
  'baseball bat',
  'baseball glove',
  'skateboard',
  'surfboard',
  'tennis racket',
  'bottle',
  'wine glass',
  'cup',
  'fork',
  'knife',
  'spoon',
  'bowl',
  'banana',
  'apple',
  'sandwich',
  'orange',
  'broccoli',
  'carrot',
  'hot dog',
  'pizza',
  'donut',
  'cake',
  'chair',
  'couch',
  'potted plant',
  'bed',
  'dining table',
  'toilet',
  'tv',
  'laptop',
  'mouse',
  'remote',
  'keyboard',
  'cell phone',
  'microwave',
  'oven',
  'toaster',
  'sink',
  'refrigerator',
  'book',
  'clock',
  'vase',
  'scissors',
  'teddy bear',
  'hair drier',
  'toothbrush',
];
