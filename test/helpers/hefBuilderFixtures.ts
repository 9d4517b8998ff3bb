// The catalogue of built HEF fixtures (test/fixtures/hef/*.hef). `node test/fixtures/hef/generate.mjs`
// writes them; a unit test rebuilds them and checks the committed bytes are identical, so the
// files and this script never drift apart.
import type { RuleId } from '../../server/src/core/hef/mtmd';
import { buildHef, utf8, type HefSpec, type NetworkGroupSpec, type StreamSpec } from './hefBuilder';

/** The contract rules a built fixture can fail; the text-model width depends on a setting, not the file. */
export type FixtureRule = Exclude<RuleId, 'text-model-width'>;

export interface Fixture {
  file: string;
  what: string;
  /** The mtmd rule this fixture is built to fail (undefined: passes / not an encoder). */
  fails?: FixtureRule;
  /** Other rules that fail as a necessary consequence. */
  alsoFails?: FixtureRule[];
  spec: HefSpec;
}

const NET = 'qwen3vl_vit';
export const SLOTS = ['image_embeddings', 'deepstack_layer_1', 'deepstack_layer_2', 'deepstack_layer_3'];

export const GOOD_CONFIG = {
  patch_size: 16,
  spatial_merge_size: 2,
  encoder_output_layers_names_suffixes: Object.fromEntries(SLOTS.map((s) => [s, s])),
};

function config(obj: unknown) {
  return [{ name: 'hailo-config.json', data: utf8(JSON.stringify(obj, null, 2) + '\n') }];
}

function encoderInput(shape: [number, number, number] = [512, 512, 3], extra: Partial<StreamSpec> = {}): StreamSpec {
  return { name: `${NET}/input_layer1`, shape, format: 1, ...extra };
}

function encoderOutputs(grid: [number, number] = [16, 16], features = 2560, names = SLOTS.map((s) => `${NET}/${s}`)): StreamSpec[] {
  return names.map((name, i) => ({ name, shape: [grid[0], grid[1], features], format: 1, zp: 120 + i, scale: 0.02 + i / 1000, limvals: [-2.4, 2.7] }));
}

function encoder(over: Partial<NetworkGroupSpec> = {}): NetworkGroupSpec {
  return { name: NET, inputs: [encoderInput()], outputs: encoderOutputs(), bottleneckFps: 41.5, latency: 0.031, ...over };
}

function encoderHef(over: Partial<HefSpec> = {}, ng: Partial<NetworkGroupSpec> = {}): HefSpec {
  return { version: 3, hwArch: 103, networkGroups: [encoder(ng)], resources: config(GOOD_CONFIG), ...over };
}

const cfgWith = (patch: Record<string, unknown>) => ({ ...GOOD_CONFIG, ...patch });
const suffixesWith = (patch: Record<string, unknown>) => ({
  ...GOOD_CONFIG,
  encoder_output_layers_names_suffixes: { ...GOOD_CONFIG.encoder_output_layers_names_suffixes, ...patch },
});

export const FIXTURES: Fixture[] = [
  {
    file: 'mtmd-pass.hef',
    what: 'Qwen3-VL-like vision encoder: 512x512x3 uint8 in, 4 outputs 16x16x2560, embedded hailo-config.json (patch 16, merge 2)',
    spec: encoderHef(),
  },
  {
    file: 'mtmd-fail-hef-opens.hef',
    what: 'lacks extension 26 (PERIPH_CALCULATION_IN_HAILORT): HailoRT ≥ 4.21 refuses it',
    fails: 'hef-opens',
    spec: encoderHef({ extensions: [0, 3, 12, 31] }),
  },
  { file: 'mtmd-fail-arch.hef', what: 'compiled for Hailo-8 (hw_arch 1)', fails: 'arch-hailo10h', spec: encoderHef({ hwArch: 1 }) },
  {
    file: 'mtmd-fail-four-outputs.hef',
    what: 'three outputs (deepstack_layer_3 missing)',
    fails: 'four-outputs',
    alsoFails: ['suffixes-resolve'],
    spec: encoderHef({}, { outputs: encoderOutputs().slice(0, 3) }),
  },
  {
    file: 'mtmd-fail-one-input.hef',
    what: 'two inputs',
    fails: 'one-input',
    spec: encoderHef({}, { inputs: [encoderInput(), { name: `${NET}/input_layer2`, shape: [512, 512, 3] }] }),
  },
  {
    file: 'mtmd-fail-same-shape.hef',
    what: 'first output 4096 wide (last_hidden_state instead of pooler_output)',
    fails: 'outputs-same-shape',
    spec: encoderHef({}, { outputs: [encoderOutputs([16, 16], 4096)[0], ...encoderOutputs().slice(1)] }),
  },
  {
    file: 'mtmd-fail-config-embedded.hef',
    what: 'no hailo-config.json resource (a copy lies beside it in beside/ — it does not count)',
    fails: 'config-embedded',
    spec: encoderHef({ resources: [] }),
  },
  {
    file: 'mtmd-fail-config-parses.hef',
    what: 'hailo-config.json is not JSON (trailing comma)',
    fails: 'config-parses',
    spec: encoderHef({ resources: [{ name: 'hailo-config.json', data: utf8('{"patch_size": 16, "spatial_merge_size": 2,}\n') }] }),
  },
  {
    file: 'mtmd-fail-patch-size.hef',
    what: 'patch_size is the string "16"',
    fails: 'patch-size',
    spec: encoderHef({ resources: config(cfgWith({ patch_size: '16' })) }),
  },
  {
    file: 'mtmd-fail-spatial-merge-size.hef',
    what: 'spatial_merge_size is -2 (get<uint32_t> would wrap it)',
    fails: 'spatial-merge-size',
    spec: encoderHef({ resources: config(cfgWith({ spatial_merge_size: -2 })) }),
  },
  {
    file: 'mtmd-fail-suffixes-all-slots.hef',
    what: 'encoder_output_layers_names_suffixes lacks deepstack_layer_3',
    fails: 'suffixes-all-slots',
    spec: encoderHef({
      resources: config(
        cfgWith({
          encoder_output_layers_names_suffixes: {
            image_embeddings: 'image_embeddings',
            deepstack_layer_1: 'deepstack_layer_1',
            deepstack_layer_2: 'deepstack_layer_2',
          },
        }),
      ),
    }),
  },
  {
    file: 'mtmd-fail-suffixes-distinct.hef',
    what: 'deepstack_layer_2 repeats the suffix of deepstack_layer_1',
    fails: 'suffixes-distinct',
    spec: encoderHef({ resources: config(suffixesWith({ deepstack_layer_2: 'deepstack_layer_1' })) }),
  },
  {
    file: 'mtmd-fail-outputs-have-suffix.hef',
    what: 'the main output is named pooler_output, which no suffix names',
    fails: 'outputs-have-suffix',
    alsoFails: ['suffixes-resolve'],
    spec: encoderHef({}, { outputs: encoderOutputs([16, 16], 2560, [`${NET}/pooler_output`, ...SLOTS.slice(1).map((s) => `${NET}/${s}`)]) }),
  },
  {
    file: 'mtmd-fail-suffixes-resolve.hef',
    what: 'two outputs end in image_embeddings (different prefixes), so deepstack_layer_3 resolves to nothing',
    fails: 'suffixes-resolve',
    spec: encoderHef(
      {},
      {
        outputs: encoderOutputs([16, 16], 2560, [
          `${NET}/image_embeddings`,
          `${NET}_b/image_embeddings`,
          `${NET}/deepstack_layer_1`,
          `${NET}/deepstack_layer_2`,
        ]),
      },
    ),
  },
  {
    file: 'mtmd-fail-input-uint8-rgb.hef',
    what: 'RGBA input (4 features)',
    fails: 'input-uint8-rgb',
    spec: encoderHef({}, { inputs: [encoderInput([512, 512, 4])] }),
  },
  {
    file: 'mtmd-fail-input-divisible.hef',
    what: 'input 500x500, not a multiple of 32 (outputs 15x15 = 500 / 32 rounded down)',
    fails: 'input-divisible',
    spec: encoderHef({}, { inputs: [encoderInput([500, 500, 3])], outputs: encoderOutputs([15, 15]) }),
  },
  {
    file: 'mtmd-fail-token-grid.hef',
    what: 'outputs 32x32 where 512 / 32 gives 16x16 tokens',
    fails: 'token-grid',
    spec: encoderHef({}, { outputs: encoderOutputs([32, 32]) }),
  },
  {
    file: 'resource-bad-checksum.hef',
    what: 'passing encoder whose hailo-config.json bytes do not match the stored XXH3',
    fails: 'config-embedded',
    spec: encoderHef({ resources: [{ name: 'hailo-config.json', data: utf8(JSON.stringify(GOOD_CONFIG)), checksum: 'bad' }] }),
  },
  {
    file: 'netflow-yolov8-nms.hef',
    what: 'net-flow YOLOv8 NMS op consuming 6 boundary outputs (hidden), one NMS-by-class output; per-feature scales',
    spec: {
      version: 3,
      hwArch: 103,
      extensions: [0, 3, 12, 13, 25, 26, 27],
      networkGroups: [
        {
          name: 'yolov8n',
          inputs: [{ name: 'yolov8n/input_layer1', shape: [640, 640, 3] }],
          outputs: [
            ['conv41', 80, 64, 1],
            ['conv42', 80, 3, 2],
            ['conv52', 40, 64, 3],
            ['conv53', 40, 3, 4],
            ['conv62', 20, 64, 5],
            ['conv63', 20, 3, 6],
          ].map(([n, hw, f, pad]) => ({
            name: `yolov8n/${n}`,
            shape: [hw, hw, f] as [number, number, number],
            padIndex: pad as number,
            zp: 10,
            scale: 0.1,
            qpScales: Array.from({ length: f as number }, (_, i) => 0.1 + i / 1000),
          })),
          sortedOutputs: ['yolov8n/yolov8_nms_postprocess'],
          ops: [
            {
              name: 'yolov8n/yolov8_nms_postprocess',
              inputPads: [9, 10, 11, 12, 13, 14].map((i) => ({ index: i, name: `yolov8n/yolov8_nms_postprocess_${i}` })),
              outputPads: [{ index: 8, name: 'yolov8n/yolov8_nms_postprocess', nmsShape: { classes: 80, maxBboxesPerClass: 100 } }],
              nms: {
                kind: 'yolov8_nms_op',
                score: 0.2,
                iou: 0.7,
                maxProposalsPerClass: 100,
                classes: 80,
                image: [640, 640],
                decoders: [
                  { stride: 8, reg: 1, cls: 2 },
                  { stride: 16, reg: 3, cls: 4 },
                  { stride: 32, reg: 5, cls: 6 },
                ],
              },
            },
          ],
          padEdges: [1, 2, 3, 4, 5, 6].map((src) => [src, src + 8] as [number, number]),
        },
      ],
    },
  },
  {
    file: 'netflow-argmax.hef',
    what: 'net-flow argmax logits op over a 128x128x21 segmentation output, plus a plain output',
    spec: {
      version: 3,
      hwArch: 103,
      networkGroups: [
        {
          name: 'seg',
          inputs: [{ name: 'seg/input_layer1', shape: [512, 512, 3] }],
          outputs: [
            { name: 'seg/conv30', shape: [128, 128, 21], padIndex: 1 },
            { name: 'seg/conv31', shape: [1, 1, 10], format: 2, padIndex: 2 },
          ],
          sortedOutputs: ['seg/argmax1', 'seg/conv31'],
          ops: [{ name: 'seg/argmax1', inputPads: [{ index: 5, name: 'seg/argmax1_5' }], outputPads: [{ index: 6, name: 'seg/argmax1' }], logits: 'argmax' }],
          padEdges: [[1, 5]],
        },
      ],
    },
  },
  {
    file: 'container-v0.hef',
    what: 'V0 container (MD5), Hailo-8, NC output, transposed net off',
    spec: {
      version: 0,
      hwArch: 1,
      sdk: [3, 27, 0],
      networkGroups: [
        { name: 'tiny', inputs: [{ name: 'tiny/input_layer1', shape: [28, 28, 1] }], outputs: [{ name: 'tiny/fc1', shape: [1, 1, 10], format: 2 }] },
      ],
    },
  },
  {
    file: 'container-v1.hef',
    what: 'V1 container (CRC32), Hailo-8, FCR output',
    spec: {
      version: 1,
      hwArch: 1,
      sdk: [3, 29, 0],
      networkGroups: [
        { name: 'tiny', inputs: [{ name: 'tiny/input_layer1', shape: [32, 32, 3] }], outputs: [{ name: 'tiny/conv3', shape: [4, 4, 16], format: 3 }] },
      ],
    },
  },
  {
    file: 'container-v2.hef',
    what: 'V2 container (XXH3 over body + CCWs), multi-context with an intermediate edge, UINT16 output',
    spec: {
      version: 2,
      hwArch: 1,
      sdk: [4, 20, 0],
      extensions: [0, 3, 4, 12, 26],
      networkGroups: [
        {
          name: 'two_ctx',
          contexts: 2,
          inputs: [{ name: 'two_ctx/input_layer1', shape: [64, 64, 3] }],
          outputs: [
            { name: 'two_ctx/conv9', shape: [8, 8, 32], context: 1, dataBytes: 2 },
            { name: 'two_ctx/conv7', shape: [16, 16, 8], context: 1 },
          ],
          intermediates: [
            { context: 0, name: 'two_ctx/ctx0_to_ctx1', direction: 1 },
            { context: 1, name: 'two_ctx/ctx0_to_ctx1_in', direction: 0 },
          ],
          sortedOutputs: ['two_ctx/conv7', 'two_ctx/conv9'],
        },
      ],
    },
  },
  {
    file: 'container-v3-full-hash.hef',
    what: 'V3 with proto_xxh3 = 0: HailoRT falls back to the length check and the full XXH3',
    spec: encoderHef({ noProtoHash: true }),
  },
];

export async function buildFixture(f: Fixture): Promise<Uint8Array> {
  return buildHef(f.spec);
}

/** Small passing encoder built in memory, for fuzzing when ../shared is absent. */
export async function smallHef(): Promise<Uint8Array> {
  return buildHef({
    version: 3,
    hwArch: 103,
    ccwsSize: 256,
    additionalInfoPad: 16,
    networkGroups: [
      {
        name: 'n',
        inputs: [{ name: 'n/in', shape: [64, 64, 3] }],
        outputs: SLOTS.map((s) => ({ name: `n/${s}`, shape: [2, 2, 8] as [number, number, number], qpScales: [1, 2, 3, 4, 5, 6, 7, 8] })),
      },
    ],
    extensions: [0, 3, 12, 25, 26, 31],
    resources: config({ ...GOOD_CONFIG }),
  });
}
