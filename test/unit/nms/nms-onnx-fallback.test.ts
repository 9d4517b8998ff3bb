// The ONNX fallback for class channels on a real detector: Yolo-FastestV2 (../shared/corpus/onnx-thirdparty,
// hpc203/yolo-fastestv2-opencv), whose heads per scale are three Convs — reg (3 anchors × 4), objectness
// (3 anchors), classes (80, shared by the anchors). An HN stand-in names those Convs in original_names
// but gives no output shapes (as an HN without shapes does), so the checks take the ONNX nodes' shapes
// from our ONNX inference — asserted equal to onnxruntime's (the Convs exposed as extra graph outputs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { readOnnxSide } from '../../../server/src/core/har/modelResolver';
import { parseHn } from '../../../server/src/core/har/hn';
import { buildLayerIndex } from '../../../server/src/core/har/layers';
import { parseNmsConfig } from '../../../server/src/core/nms/config';
import { checkNms } from '../../../server/src/core/nms/checks';
import { nmsModelFromIndex } from '../../../server/src/core/nms/model';
import { repoRoot, sharedPath, skipUnless } from '../../helpers/shared';
import { join } from 'node:path';

const ONNX = sharedPath('corpus', 'onnx-thirdparty', 'yolo_fastestv2.onnx');
const skip = skipUnless(ONNX, '../shared/corpus/onnx-thirdparty/yolo_fastestv2.onnx');

// Head Convs by scale (22×22 and 11×11 at 352×352): reg, objectness, classes.
const HEADS = [
  ['conv1', 'Conv_256', '777'],
  ['conv2', 'Conv_257', '778'],
  ['conv3', 'Conv_258', '779'],
  ['conv4', 'Conv_259', '780'],
  ['conv5', 'Conv_260', '781'],
  ['conv6', 'Conv_261', '782'],
] as const;

function hnWithoutShapes(): string {
  const s = (n: string) => `yolo_fastestv2/${n}`;
  const layers: Record<string, unknown> = {
    [s('input_layer1')]: {
      type: 'input_layer',
      input: [],
      output: HEADS.map(([n]) => s(n)),
      input_shapes: [[-1, 352, 352, 3]],
      output_shapes: [[-1, 352, 352, 3]],
      original_names: ['input.1'],
    },
  };
  for (const [n, node] of HEADS) layers[s(n)] = { type: 'conv', input: [s('input_layer1')], output: [], original_names: [node] };
  return JSON.stringify({ name: 'yolo_fastestv2', net_params: { net_scopes: ['yolo_fastestv2'] }, layers });
}

/** The zoo's YOLOX config (v5.2.0) with its layers renamed to these heads, two scales, this input. */
function config(classes: number): string {
  const zoo = JSON.parse(
    readFileSync(join(repoRoot, 'test', 'fixtures', 'nms', 'zoo-history', 'configs', 'a53c094ba53f5d6d53965d3f454921b0dfc705b7.json'), 'utf8'),
  );
  zoo.classes = classes;
  zoo.image_dims = [352, 352];
  zoo.number_of_detection_heads = 2;
  zoo.bbox_decoders = [
    { name: 'bbox_decoder_16', stride: 16, reg_layer: 'conv1', objectness_layer: 'conv2', cls_layer: 'conv3' },
    { name: 'bbox_decoder_32', stride: 32, reg_layer: 'conv4', objectness_layer: 'conv5', cls_layer: 'conv6' },
  ];
  return JSON.stringify(zoo, null, 4);
}

/** The model with the head Convs' outputs appended to graph.output (GraphProto.output = 12, ModelProto.graph = 7). */
function withHeadOutputs(model: Buffer): Buffer {
  const varint = (n: number) => {
    const b: number[] = [];
    while (n > 127) {
      b.push((n & 127) | 128);
      n >>>= 7;
    }
    b.push(n);
    return Buffer.from(b);
  };
  const read = (p: number): [number, number] => {
    let r = 0;
    let s = 0;
    let c: number;
    do {
      c = model[p++];
      r += (c & 127) * 2 ** s;
      s += 7;
    } while (c & 128);
    return [r, p];
  };
  const parts: Buffer[] = [];
  let p = 0;
  while (p < model.length) {
    const start = p;
    const [key, afterKey] = read(p);
    p = afterKey;
    const wire = key & 7;
    if (wire === 2) {
      const [len, body] = read(p);
      p = body + len;
      if (key >> 3 === 7) {
        const outs = HEADS.map(([, , t]) => {
          const name = Buffer.concat([Buffer.from([0x0a]), varint(t.length), Buffer.from(t)]);
          return Buffer.concat([Buffer.from([0x62]), varint(name.length), name]);
        });
        const graph = Buffer.concat([model.subarray(body, p), ...outs]);
        parts.push(Buffer.concat([Buffer.from([0x3a]), varint(graph.length), graph]));
        continue;
      }
    } else if (wire === 0) p = read(p)[1];
    else p += wire === 5 ? 4 : 8;
    parts.push(model.subarray(start, p));
  }
  return Buffer.concat(parts);
}

function model() {
  const load = readOnnxSide(ONNX!);
  assert.ok(load.ok, !load.ok ? load.error : '');
  const path = '/m/yolo_fastestv2.har';
  return {
    side: load.side,
    nms: nmsModelFromIndex(buildLayerIndex({ path, members: [], metadata: {}, hnMember: 'x.hn', hn: parseHn(hnWithoutShapes(), path) }, load.side)),
  };
}

test("our ONNX inference gives the head Convs onnxruntime's shapes", { skip }, async () => {
  const { side } = model();
  const session = await ort.InferenceSession.create(withHeadOutputs(readFileSync(ONNX!)));
  const out = await session.run({ 'input.1': new ort.Tensor('float32', new Float32Array(3 * 352 * 352), [1, 3, 352, 352]) });
  for (const [, , t] of HEADS) assert.deepEqual(side.analysis.shapes.facts.get(t)?.shape, out[t].dims, t);
});

test('class channels from the ONNX when the HN gives no shape: classes 80 agrees, classes 20 is caught on its line', { skip }, () => {
  const { nms } = model();
  assert.deepEqual(nms.layer('conv3'), { name: 'conv3', fullName: 'yolo_fastestv2/conv3', shape: [22, 22, 80], shapeFromOnnx: true });
  const codes = (text: string) =>
    checkNms({ config: { name: 'fastest_nms_config.json', doc: parseNmsConfig(text) }, model: nms })
      .map((f) => f.code)
      .sort();
  // What stays is true of this head: 3 anchors, so 12 reg and 3 objectness channels where YOLOX has 4 and 1.
  const baseline = ['nms/objectness-channels', 'nms/objectness-channels', 'nms/reg-channels', 'nms/reg-channels'];
  assert.deepEqual(codes(config(80)), baseline);
  const text = config(20);
  const found = checkNms({ config: { name: 'fastest_nms_config.json', doc: parseNmsConfig(text) }, model: nms }).filter((f) => f.code === 'nms/classes');
  assert.equal(found.length, 1, 'one finding on classes, not one per decoder');
  assert.equal(text.split('\n')[found[0].range.start.line].trim(), '"classes": 20,');
  assert.match(found[0].message, /cls_layer conv3 of yolo_fastestv2\.har has 80 channels \(the output of its ONNX node; the HN gives no shape\)/);
});
