// TEST-ONLY: detector ONNX graphs with the heads exactly as their exporters write them — node names,
// head conv channels, grid sizes and the ops that follow the head — and HARs standing in for the
// DFC's parse of them (HN layer names from the model zoo's NMS configs, original_names the ONNX
// head nodes). test/fixtures/recipe/generate.mjs writes them; recipe tests read them.
//
// What each mirrors (the expected values in the tests come from the cited files, not from here):
// - yolov8n: Ultralytics 8.x `export(format="onnx")` of yolov8n.pt — input `images` [1,3,640,640],
//   Detect at `/model.22/`, per scale `cv2.i` (box, 64 = 4 × reg_max 16) and `cv3.i` (class, 80)
//   branches of Conv+SiLU (Sigmoid, Mul), `/model.22/Concat[_1,_2]` on channels, Reshape, Concat,
//   Split [64, 80], DFL (Reshape, Transpose, Softmax, `/model.22/dfl/conv/Conv`), output0 [1,84,8400];
//   the end nodes `/model.22/cv2.0/cv2.0.2/Conv` … are those users pass to translate_onnx_model.
// - yolo11n: hailo_model_zoo cfg/networks/yolov11n.yaml parser nodes (`/model.23/cv2.0/cv2.0.2/Conv`,
//   `/model.23/cv3.0/cv3.0.2/Conv`, …); the class branch starts with a depthwise conv (`cv3.i.0.0`).
// - yolov10n: hailo_model_zoo cfg/networks/yolov10n.yaml parser nodes (`/model.23/one2one_cv2.0/
//   one2one_cv2.0.2/Conv`, …); the one-to-one head ends in TopK (end-to-end, output0 [1,300,…]).
// - yolo26n: the same one-to-one head with reg_max 1 (4 box channels, no DFL) and TopK.
// - yolov5s: ultralytics/yolov5 export — `/model.24/m.0/Conv` (255 = 3 × (5 + 80)) reshaped to
//   [1,3,85,80,80], `/model.24/Transpose`, Sigmoid; users' end nodes `/model.24/m.0/Conv`….
// - yolox_s_leaky: hailo_model_zoo cfg/networks/yolox_s_leaky.yaml parser nodes Conv_197,
//   Sigmoid_199, Sigmoid_200, Conv_213 … Sigmoid_232 (torch's old `Op_N` naming): per scale the stem,
//   two cls convs, cls_preds, two reg convs, reg_preds (4), obj_preds (1), Sigmoid(obj), Sigmoid(cls),
//   Concat — numbered so that the zoo's node names fall on the same nodes.
// Reduced where the recogniser cannot tell: the backbone is five stride-2 convs to the three feature
// maps; the branches' inner widths are 16 channels; the box decode after the DFL is one Mul; the
// end-to-end post-process is ReduceMax → TopK.
import { Readable } from 'node:stream';
import * as tar from 'tar-stream';
import { encodeModel, type NodeSpec, type TensorSpec } from './onnxBuilder';

const zeros = (n: number) => new Array<number>(n).fill(0);

class Graph {
  nodes: NodeSpec[] = [];
  inits: TensorSpec[] = [];
  private n = 0;
  conv(name: string, input: string, cin: number, cout: number, k = 1, stride = 1, group = 1): string {
    const w = `${name}.weight`;
    this.inits.push({ name: w, dtype: 'float', dims: [cout, cin / group, k, k], values: zeros((cout * cin * k * k) / group) });
    const out = `${name}_output_0`;
    this.nodes.push({
      op: 'Conv',
      name,
      inputs: [input, w],
      outputs: [out],
      attrs: { kernel_shape: [k, k], strides: [stride, stride], pads: k === 3 ? [1, 1, 1, 1] : [0, 0, 0, 0], group, dilations: [1, 1] },
    });
    return out;
  }
  op(op: string, name: string, inputs: string[], attrs?: NodeSpec['attrs'], outputs = 1): string[] {
    const outs = Array.from({ length: outputs }, (_, i) => `${name}_output_${i}`);
    this.nodes.push({ op, name, inputs, outputs: outs, ...(attrs ? { attrs } : {}) });
    return outs;
  }
  const(values: number[], dims: number[], dtype: 'int64' | 'float' = 'int64'): string {
    const name = `const_${this.n++}`;
    this.inits.push({ name, dtype, dims, values });
    return name;
  }
  /** Ultralytics Conv: conv + SiLU exported as Sigmoid and Mul. */
  silu(prefix: string, input: string, cin: number, cout: number, k = 3, stride = 1, group = 1): string {
    const c = this.conv(`${prefix}/conv/Conv`, input, cin, cout, k, stride, group);
    const [s] = this.op('Sigmoid', `${prefix}/act/Sigmoid`, [c]);
    return this.op('Mul', `${prefix}/act/Mul`, [c, s])[0];
  }
}

const GRIDS = [80, 40, 20];
const W = 16;

function ultralyticsBackbone(g: Graph): string[] {
  let x = g.silu('/model.0', 'images', 3, W, 3, 2); // 320
  x = g.silu('/model.1', x, W, W, 3, 2); // 160
  const p3 = g.silu('/model.3', x, W, W, 3, 2); // 80
  const p4 = g.silu('/model.5', p3, W, W, 3, 2); // 40
  const p5 = g.silu('/model.7', p4, W, W, 3, 2); // 20
  return [p3, p4, p5];
}

export interface UltralyticsOptions {
  kind: 'yolov8' | 'yolo11' | 'yolov10' | 'yolo26';
  classes: number;
  metadata?: Record<string, string>;
}

/** An Ultralytics Detect head (v8 / 11 / v10 / 26) on the reduced backbone. */
export function ultralyticsDetector(o: UltralyticsOptions): Uint8Array {
  const g = new Graph();
  const feats = ultralyticsBackbone(g);
  const m = o.kind === 'yolov8' ? '/model.22' : '/model.23';
  const e2e = o.kind === 'yolov10' || o.kind === 'yolo26';
  const regMax = o.kind === 'yolo26' ? 1 : 16;
  const box = 4 * regMax;
  const nc = o.classes;
  const b2 = e2e ? 'one2one_cv2' : 'cv2';
  const b3 = e2e ? 'one2one_cv3' : 'cv3';
  const perScale: string[] = [];
  feats.forEach((f, i) => {
    let a = g.silu(`${m}/${b2}.${i}/${b2}.${i}.0`, f, W, W);
    a = g.silu(`${m}/${b2}.${i}/${b2}.${i}.1`, a, W, W);
    const reg = g.conv(`${m}/${b2}.${i}/${b2}.${i}.2/Conv`, a, W, box);
    let c: string;
    if (o.kind === 'yolov8') {
      c = g.silu(`${m}/${b3}.${i}/${b3}.${i}.0`, f, W, W);
      c = g.silu(`${m}/${b3}.${i}/${b3}.${i}.1`, c, W, W);
    } else {
      // YOLO11 / v10 / 26: DWConv then Conv, twice (head.py `legacy=False`).
      c = g.silu(`${m}/${b3}.${i}/${b3}.${i}.0/${b3}.${i}.0.0`, f, W, W, 3, 1, W);
      c = g.silu(`${m}/${b3}.${i}/${b3}.${i}.0/${b3}.${i}.0.1`, c, W, W, 1);
      c = g.silu(`${m}/${b3}.${i}/${b3}.${i}.1/${b3}.${i}.1.0`, c, W, W, 3, 1, W);
      c = g.silu(`${m}/${b3}.${i}/${b3}.${i}.1/${b3}.${i}.1.1`, c, W, W, 1);
    }
    const cls = g.conv(`${m}/${b3}.${i}/${b3}.${i}.2/Conv`, c, W, nc);
    const [cat] = g.op('Concat', `${m}/Concat${i ? `_${i}` : ''}`, [reg, cls], { axis: 1 });
    const [r] = g.op('Reshape', `${m}/Reshape${i ? `_${i}` : ''}`, [cat, g.const([1, box + nc, -1], [3])]);
    perScale.push(r);
  });
  const [all] = g.op('Concat', `${m}/Concat_3`, perScale, { axis: 2 });
  const [boxes, scores] = g.op('Split', `${m}/Split`, [all, g.const([box, nc], [2])], { axis: 1 }, 2);
  let dist = boxes;
  if (regMax > 1) {
    const [r] = g.op('Reshape', `${m}/dfl/Reshape`, [boxes, g.const([1, 4, regMax, 8400], [4])]);
    const [t] = g.op('Transpose', `${m}/dfl/Transpose`, [r], { perm: [0, 2, 1, 3] });
    const [s] = g.op('Softmax', `${m}/dfl/Softmax`, [t], { axis: 1 });
    const c = g.conv(`${m}/dfl/conv/Conv`, s, regMax, 1);
    [dist] = g.op('Reshape', `${m}/dfl/Reshape_1`, [c, g.const([1, 4, 8400], [3])]);
  }
  const [decoded] = g.op('Mul', `${m}/Mul_2`, [dist, g.const([8], [1, 1, 1], 'float')]);
  const [sig] = g.op('Sigmoid', `${m}/Sigmoid`, [scores]);
  const [out] = g.op('Concat', `${m}/Concat_5`, [decoded, sig], { axis: 1 });
  let output = out;
  let outDims = [1, 4 + nc, 8400];
  if (e2e) {
    const [t] = g.op('Transpose', `${m}/Transpose`, [out], { perm: [0, 2, 1] });
    const [mx] = g.op('ReduceMax', `${m}/ReduceMax`, [t], { axes: [-1], keepdims: 0 });
    const [vals] = g.op('TopK', `${m}/TopK`, [mx, g.const([300], [1])], { axis: -1 }, 2);
    output = vals;
    outDims = [1, 300];
  }
  g.nodes.push({ op: 'Identity', name: 'output', inputs: [output], outputs: ['output0'] });
  return encodeModel({
    graph: {
      name: 'main_graph',
      nodes: g.nodes,
      inputs: [{ name: 'images', dtype: 'float', dims: [1, 3, 640, 640] }],
      outputs: [{ name: 'output0', dtype: 'float', dims: outDims }],
      initializers: g.inits,
    },
    opset: 17,
    ...(o.metadata ? { metadata: o.metadata } : {}),
  });
}

/** ultralytics/yolov5 (v6/v7) Detect: one conv per scale, reshaped to [1, 3, 5 + nc, ny, nx]. */
export function yolov5Detector(classes: number): Uint8Array {
  const g = new Graph();
  const feats = ultralyticsBackbone(g);
  const no = 5 + classes;
  const outs: string[] = [];
  feats.forEach((f, i) => {
    const conv = g.conv(`/model.24/m.${i}/Conv`, f, W, 3 * no);
    const sfx = i ? `_${i}` : '';
    const [r] = g.op('Reshape', `/model.24/Reshape${sfx}`, [conv, g.const([1, 3, no, GRIDS[i], GRIDS[i]], [5])]);
    const [t] = g.op('Transpose', `/model.24/Transpose${sfx}`, [r], { perm: [0, 1, 3, 4, 2] });
    const [s] = g.op('Sigmoid', `/model.24/Sigmoid${sfx}`, [t]);
    const [flat] = g.op('Reshape', `/model.24/Reshape${sfx}_1`, [s, g.const([1, -1, no], [3])]);
    outs.push(flat);
  });
  g.op('Concat', '/model.24/Concat_3', outs, { axis: 1 });
  g.nodes[g.nodes.length - 1].outputs = ['output0'];
  return encodeModel({
    graph: {
      name: 'main_graph',
      nodes: g.nodes,
      inputs: [{ name: 'images', dtype: 'float', dims: [1, 3, 640, 640] }],
      outputs: [{ name: 'output0', dtype: 'float', dims: [1, 25200, no] }],
      initializers: g.inits,
    },
    opset: 17,
  });
}

/** Megvii YOLOX head as torch's older exporter numbers it (Conv_197 … of yolox_s_leaky). */
export function yoloxDetector(classes: number): Uint8Array {
  const g = new Graph();
  const feats = ultralyticsBackbone(g); // stand-in for the CSPDarknet + PAFPN
  let k = 186;
  const id = (op: string) => `${op}_${k++}`;
  const cats: string[] = [];
  feats.forEach((f) => {
    const conv = (x: string, cout: number) => g.conv(id('Conv'), x, W, cout);
    const leaky = (x: string) => g.op('LeakyRelu', id('LeakyRelu'), [x], { alpha: { f: 0.1 } })[0];
    const stem = leaky(conv(f, W));
    const clsFeat = leaky(conv(leaky(conv(stem, W)), W));
    const clsOut = conv(clsFeat, classes);
    const regFeat = leaky(conv(leaky(conv(stem, W)), W));
    const reg = conv(regFeat, 4);
    const obj = conv(regFeat, 1);
    const [objS] = g.op('Sigmoid', id('Sigmoid'), [obj]);
    const [clsS] = g.op('Sigmoid', id('Sigmoid'), [clsOut]);
    cats.push(g.op('Concat', id('Concat'), [reg, objS, clsS], { axis: 1 })[0]);
  });
  // yolo_head.py: the flatten of every scale comes after the loop.
  const outs = cats.map((c) => g.op('Reshape', id('Reshape'), [c, g.const([1, 5 + classes, -1], [3])])[0]);
  const [all] = g.op('Concat', id('Concat'), outs, { axis: 2 });
  g.op('Transpose', id('Transpose'), [all], { perm: [0, 2, 1] });
  g.nodes[g.nodes.length - 1].outputs = ['output'];
  return encodeModel({
    graph: {
      name: 'torch-jit-export',
      nodes: g.nodes,
      inputs: [{ name: 'images', dtype: 'float', dims: [1, 3, 640, 640] }],
      outputs: [{ name: 'output', dtype: 'float', dims: [1, 8400, 5 + classes] }],
      initializers: g.inits,
    },
    opset: 11,
  });
}

/** A classifier (conv → global pool → Gemm): no detector head. */
export function classifier(): Uint8Array {
  const g = new Graph();
  const [p3] = ultralyticsBackbone(g);
  const [gap] = g.op('GlobalAveragePool', '/pool/GlobalAveragePool', [p3]);
  const [flat] = g.op('Flatten', '/Flatten', [gap], { axis: 1 });
  g.inits.push({ name: 'fc.weight', dtype: 'float', dims: [1000, W], values: zeros(1000 * W) });
  g.nodes.push({ op: 'Gemm', name: '/fc/Gemm', inputs: [flat, 'fc.weight'], outputs: ['logits'], attrs: { transB: 1 } });
  return encodeModel({
    graph: {
      name: 'main_graph',
      nodes: g.nodes,
      inputs: [{ name: 'input', dtype: 'float', dims: [1, 3, 640, 640] }],
      outputs: [{ name: 'logits', dtype: 'float', dims: [1, 1000] }],
      initializers: g.inits,
    },
    opset: 17,
  });
}

// ---- HARs: the DFC's parse of a head, as the zoo's NMS configs name its layers ----------------

export interface HarLayer {
  /** Unscoped HN name (`conv41`). */
  name: string;
  /** ONNX nodes it came from (the head conv, and its fused sigmoid for YOLOX). */
  from: string[];
  hwc: [number, number, number];
}

export function hnJsonFor(net: string, layers: HarLayer[]): string {
  const s = (n: string) => `${net}/${n}`;
  const hn: Record<string, unknown> = {
    [s('input_layer1')]: {
      type: 'input_layer',
      input: [],
      output: layers.map((l) => s(l.name)),
      input_shapes: [[-1, 640, 640, 3]],
      output_shapes: [[-1, 640, 640, 3]],
      original_names: ['images'],
    },
  };
  layers.forEach((l, i) => {
    hn[s(l.name)] = {
      type: 'conv',
      input: [s('input_layer1')],
      output: [s(`output_layer${i + 1}`)],
      input_shapes: [[-1, 640, 640, 3]],
      output_shapes: [[-1, ...l.hwc]],
      original_names: l.from,
      params: { kernel_shape: [1, 1, 0, l.hwc[2]], strides: [1, 1, 1, 1] },
    };
    hn[s(`output_layer${i + 1}`)] = {
      type: 'output_layer',
      input: [s(l.name)],
      output: [],
      input_shapes: [[-1, ...l.hwc]],
      output_shapes: [[-1, ...l.hwc]],
      original_names: [`output${i}`],
    };
  });
  return JSON.stringify({ name: net, net_params: { net_scopes: [net], output_layers_order: layers.map((l) => s(l.name)) }, layers: hn }, null, 1);
}

export async function harFor(net: string, layers: HarLayer[]): Promise<Buffer> {
  const pack = tar.pack();
  const meta = JSON.stringify({ state: 'hailo_model', model_name: net, sdk_version: '3.33.0', hw_arch: 'hailo8', hn: `${net}.hn` });
  for (const [name, text] of [
    [`${net}.hn`, hnJsonFor(net, layers)],
    [`${net}.metadata.json`, meta],
  ] as const) {
    pack.entry({ name, mtime: new Date(0), mode: 0o644 }, text);
  }
  pack.finalize();
  const chunks: Buffer[] = [];
  for await (const c of Readable.from(pack as unknown as AsyncIterable<Buffer>)) chunks.push(c);
  return Buffer.concat(chunks);
}

/** The zoo's names for yolov8n's head (yolov8n_nms_config.json) on the ONNX head convs. */
export const YOLOV8N_HN: HarLayer[] = [
  ['conv41', '/model.22/cv2.0/cv2.0.2/Conv', 80, 64],
  ['conv42', '/model.22/cv3.0/cv3.0.2/Conv', 80, 80],
  ['conv52', '/model.22/cv2.1/cv2.1.2/Conv', 40, 64],
  ['conv53', '/model.22/cv3.1/cv3.1.2/Conv', 40, 80],
  ['conv62', '/model.22/cv2.2/cv2.2.2/Conv', 20, 64],
  ['conv63', '/model.22/cv3.2/cv3.2.2/Conv', 20, 80],
].map(([name, from, g, c]) => ({ name: name as string, from: [from as string], hwc: [g as number, g as number, c as number] }));

/** yolov5s_nms_config.json's encoded layers. */
export const YOLOV5S_HN: HarLayer[] = [
  ['conv55', '/model.24/m.0/Conv', 80],
  ['conv63', '/model.24/m.1/Conv', 40],
  ['conv70', '/model.24/m.2/Conv', 20],
].map(([name, from, g]) => ({ name: name as string, from: [from as string], hwc: [g as number, g as number, 255] }));

/** nms_config_yolox_s_leaky.json's layers on the zoo's parser nodes (yolox_s_leaky.yaml). */
export const YOLOX_S_HN: HarLayer[] = [
  { name: 'conv54', from: ['Conv_192', 'Sigmoid_200'], hwc: [80, 80, 80] },
  { name: 'conv55', from: ['Conv_197'], hwc: [80, 80, 4] },
  { name: 'conv56', from: ['Conv_198', 'Sigmoid_199'], hwc: [80, 80, 1] },
  { name: 'conv68', from: ['Conv_208', 'Sigmoid_216'], hwc: [40, 40, 80] },
  { name: 'conv69', from: ['Conv_213'], hwc: [40, 40, 4] },
  { name: 'conv70', from: ['Conv_214', 'Sigmoid_215'], hwc: [40, 40, 1] },
  { name: 'conv81', from: ['Conv_224', 'Sigmoid_232'], hwc: [20, 20, 80] },
  { name: 'conv82', from: ['Conv_229'], hwc: [20, 20, 4] },
  { name: 'conv83', from: ['Conv_230', 'Sigmoid_231'], hwc: [20, 20, 1] },
];

/** COCO's 80 names as Ultralytics' coco.yaml lists them (the `names` of its exported models). */
export const COCO_NAMES = (
  'person,bicycle,car,motorcycle,airplane,bus,train,truck,boat,traffic light,fire hydrant,stop sign,parking meter,bench,bird,cat,dog,horse,sheep,cow,' +
  'elephant,bear,zebra,giraffe,backpack,umbrella,handbag,tie,suitcase,frisbee,skis,snowboard,sports ball,kite,baseball bat,baseball glove,skateboard,' +
  'surfboard,tennis racket,bottle,wine glass,cup,fork,knife,spoon,bowl,banana,apple,sandwich,orange,broccoli,carrot,hot dog,pizza,donut,cake,chair,couch,' +
  'potted plant,bed,dining table,toilet,tv,laptop,mouse,remote,keyboard,cell phone,microwave,oven,toaster,sink,refrigerator,book,clock,vase,scissors,' +
  'teddy bear,hair drier,toothbrush'
).split(',');

/** Ultralytics' metadata_props for a detect model (exporter.py: every value str()). */
export function ultralyticsMetadata(description: string, names: string[], imgsz = [640, 640]): Record<string, string> {
  const repr = `{${names.map((n, i) => `${i}: ${n.includes("'") ? JSON.stringify(n) : `'${n}'`}`).join(', ')}}`;
  return {
    description,
    author: 'Ultralytics',
    version: '8.3.0',
    license: 'AGPL-3.0 License (https://ultralytics.com/license)',
    docs: 'https://docs.ultralytics.com',
    stride: '32',
    task: 'detect',
    batch: '1',
    imgsz: `[${imgsz.join(', ')}]`,
    names: repr,
  };
}
