// Recognises a detector's head in an ONNX graph by its structure — the convolutions that feed the
// decode, one group per scale — and says what the model zoo's NMS needs of it: the family, the end
// nodes (the head convs), classes, regression_length, strides, anchors. Pure: it reads the index
// and the inferred shapes, never the weights.
//
// The layouts, as the exporters write them:
// - Ultralytics Detect (YOLOv8, YOLO11, YOLOv5u, YOLOv10/YOLO26 one-to-one): per scale
//   `torch.cat((cv2[i](x), cv3[i](x)), 1)` — a Concat on channels of the box conv (4 × reg_max) and
//   the class conv (nc); ultralytics/nn/modules/head.py `Detect.forward_feat`. The end-to-end heads
//   (v10Detect, YOLO26) follow it with TopK, not NMS.
// - YOLOv5 Detect (anchor-based): per scale one conv of na × (5 + nc) channels, reshaped to
//   [bs, na, 5 + nc, ny, nx]; yolov5/models/yolo.py `Detect.forward`.
// - YOLOX head: per scale `torch.cat([reg, obj.sigmoid(), cls.sigmoid()], 1)` of 4, 1 and nc channels;
//   yolox/models/yolo_head.py `YOLOXHead.forward`.
import type { NodeInfo, OnnxModel } from '../onnx/model';
import type { ShapeResult } from '../onnx/inferShapes';

export type HeadFamily = 'yolov8' | 'yolo11' | 'yolov5u' | 'yolov10' | 'yolo26' | 'yolov5' | 'yolox';

/** One scale of the head: its stride and the head convs (ONNX node names) by role. */
export interface HeadScale {
  stride: number;
  /** Feature map height × width. */
  grid: [number, number];
  /** Ultralytics / YOLOX: the box conv; YOLOv5: the encoded conv. */
  reg: { node: string; channels: number };
  cls?: { node: string; channels: number };
  obj?: { node: string; channels: number };
}

export interface DetectorHead {
  family: HeadFamily;
  /** The HailoRT NMS decoder (`meta_arch`), or null for a head that needs no NMS (YOLO26). */
  metaArch: 'yolov8' | 'yolov5' | 'yolox' | null;
  /** The graph input the parser starts at, and its [height, width]. */
  input: { name: string; dims: [number, number] };
  scales: HeadScale[];
  classes: number;
  /** DFL bins per box side (Ultralytics heads). */
  regressionLength?: number;
  /** YOLOv5: anchors per scale. */
  anchorsPerScale?: number;
  /** Where each fact came from, one sentence each. */
  sources: Record<string, string>;
}

export type HeadResult = { ok: true; head: DetectorHead } | { ok: false; reason: string };

interface ConvOut {
  node: NodeInfo;
  c: number;
  h: number;
  w: number;
}

const nodeName = (n: NodeInfo) => n.name || `${n.opType}#${n.index}`;

function nchw(shapes: ShapeResult, tensor: string): [number, number, number] | undefined {
  const s = shapes.facts.get(tensor)?.shape;
  if (!s || s.length !== 4) return undefined;
  const [, c, h, w] = s;
  return typeof c === 'number' && typeof h === 'number' && typeof w === 'number' && c > 0 && h > 0 && w > 0 ? [c, h, w] : undefined;
}

function convOf(shapes: ShapeResult, tensor: string, through: string[] = []): ConvOut | undefined {
  let p = shapes.producer.get(tensor);
  // Through an activation the exporter put after the conv (YOLOX's obj/cls sigmoid).
  while (p && through.includes(p.opType) && p.inputs[0]) p = shapes.producer.get(p.inputs[0]);
  if (!p || p.opType !== 'Conv') return undefined;
  const s = nchw(shapes, p.outputs[0]);
  return s ? { node: p, c: s[0], h: s[1], w: s[2] } : undefined;
}

function intAttr(n: NodeInfo, name: string, dflt: number): number {
  const a = n.attributes.find((x) => x.name === name);
  return typeof a?.i === 'number' ? a.i : dflt;
}

/** Nodes reachable downstream of `from` (bounded), to find what the head feeds. */
function downstream(shapes: ShapeResult, from: NodeInfo[], limit = 400): NodeInfo[] {
  const seen = new Set<NodeInfo>();
  const queue = [...from];
  while (queue.length && seen.size < limit) {
    const n = queue.shift()!;
    if (seen.has(n)) continue;
    seen.add(n);
    for (const o of n.outputs) for (const c of shapes.consumers.get(o) ?? []) queue.push(c);
  }
  return [...seen];
}

/** Scales ordered by stride; null when the grids do not divide the input into whole, square strides. */
function strideOf(input: [number, number], h: number, w: number): number | undefined {
  const sh = input[0] / h;
  const sw = input[1] / w;
  return sh === sw && Number.isInteger(sh) && sh >= 1 ? sh : undefined;
}

function ultralyticsHeads(shapes: ShapeResult, input: [number, number]): { scales: HeadScale[]; box: number; cls: number } | undefined {
  const groups = new Map<string, HeadScale[]>();
  for (const n of shapes.order) {
    if (n.opType !== 'Concat' || n.inputs.length !== 2 || intAttr(n, 'axis', 0) !== 1) continue;
    const a = convOf(shapes, n.inputs[0]);
    const b = convOf(shapes, n.inputs[1]);
    if (!a || !b || a.h !== b.h || a.w !== b.w || a.c % 4 !== 0) continue;
    const stride = strideOf(input, a.h, a.w);
    if (!stride) continue;
    const key = `${a.c}:${b.c}`;
    const list = groups.get(key) ?? groups.set(key, []).get(key)!;
    list.push({ stride, grid: [a.h, a.w], reg: { node: nodeName(a.node), channels: a.c }, cls: { node: nodeName(b.node), channels: b.c } });
  }
  return bestGroup(groups, (k) => k.split(':').map(Number) as [number, number]);
}

function yoloxHeads(shapes: ShapeResult, input: [number, number]): { scales: HeadScale[]; box: number; cls: number } | undefined {
  const groups = new Map<string, HeadScale[]>();
  for (const n of shapes.order) {
    if (n.opType !== 'Concat' || n.inputs.length !== 3 || intAttr(n, 'axis', 0) !== 1) continue;
    const [reg, obj, cls] = n.inputs.map((t) => convOf(shapes, t, ['Sigmoid']));
    // The end nodes are the Concat's inputs — the sigmoids where the exporter put them (the model
    // zoo's yolox_s_leaky.yaml parser nodes: Conv_197, Sigmoid_199, Sigmoid_200).
    const [, objEnd, clsEnd] = n.inputs.map((t) => shapes.producer.get(t));
    if (!reg || !obj || !cls || reg.c !== 4 || obj.c !== 1) continue;
    if (reg.h !== obj.h || reg.h !== cls.h || reg.w !== obj.w || reg.w !== cls.w) continue;
    const stride = strideOf(input, reg.h, reg.w);
    if (!stride) continue;
    const key = `4:${cls.c}`;
    const list = groups.get(key) ?? groups.set(key, []).get(key)!;
    list.push({
      stride,
      grid: [reg.h, reg.w],
      reg: { node: nodeName(reg.node), channels: 4 },
      obj: { node: nodeName(objEnd!), channels: 1 },
      cls: { node: nodeName(clsEnd!), channels: cls.c },
    });
  }
  return bestGroup(groups, (k) => k.split(':').map(Number) as [number, number]);
}

function yolov5Heads(shapes: ShapeResult, input: [number, number]): { scales: HeadScale[]; na: number; no: number } | undefined {
  const groups = new Map<string, HeadScale[]>();
  for (const n of shapes.order) {
    if (n.opType !== 'Reshape') continue;
    const conv = convOf(shapes, n.inputs[0]);
    const out = shapes.facts.get(n.outputs[0])?.shape;
    if (!conv || !out || out.length !== 5) continue;
    const [, na, no, ny, nx] = out;
    if (typeof na !== 'number' || typeof no !== 'number' || ny !== conv.h || nx !== conv.w || na * no !== conv.c || no < 6) continue;
    const stride = strideOf(input, conv.h, conv.w);
    if (!stride) continue;
    const key = `${na}:${no}`;
    const list = groups.get(key) ?? groups.set(key, []).get(key)!;
    list.push({ stride, grid: [conv.h, conv.w], reg: { node: nodeName(conv.node), channels: conv.c } });
  }
  const best = bestGroup(groups, (k) => k.split(':').map(Number) as [number, number]);
  return best ? { scales: best.scales, na: best.box, no: best.cls } : undefined;
}

/** The one group with two or more scales of distinct strides; undefined when none or when two compete. */
function bestGroup(groups: Map<string, HeadScale[]>, parse: (k: string) => [number, number]): { scales: HeadScale[]; box: number; cls: number } | undefined {
  const usable = [...groups.entries()].filter(([, s]) => s.length >= 2 && new Set(s.map((x) => x.stride)).size === s.length);
  if (usable.length !== 1) return undefined;
  const [key, scales] = usable[0];
  const [box, cls] = parse(key);
  return { scales: [...scales].sort((a, b) => a.stride - b.stride), box, cls };
}

/** YOLO11's class branch starts with a depthwise conv: `cv3.i.0.0` (ultralytics head.py, `legacy=False`). */
const YOLO11_CLS_BRANCH = /\/cv3\.\d+\/cv3\.\d+\.\d+\/cv3\.\d+\.\d+\.\d+\//;

function familyFromMetadata(model: OnnxModel): { family: HeadFamily; why: string } | undefined {
  const d = model.metadata.description ?? '';
  const m = /\b(YOLO(?:v?\d+)[a-z]*)/i.exec(d);
  if (!m) return undefined;
  const name = m[1].toLowerCase();
  const why = `the model's ONNX metadata: description "${d}"`;
  if (/^yolo26/.test(name)) return { family: 'yolo26', why };
  if (/^yolov10/.test(name)) return { family: 'yolov10', why };
  if (/^yolo(v)?11/.test(name)) return { family: 'yolo11', why };
  if (/^yolov5[nsmlx]?u$/.test(name)) return { family: 'yolov5u', why };
  if (/^yolov8/.test(name)) return { family: 'yolov8', why };
  return undefined;
}

export function recognizeHead(model: OnnxModel, shapes: ShapeResult): HeadResult {
  const inits = new Set(model.graph.initializers.map((t) => t.name));
  const image = model.graph.inputs.find((v) => !inits.has(v.name));
  const imageShape = image ? shapes.facts.get(image.name)?.shape : undefined;
  if (!image || !imageShape || imageShape.length !== 4 || typeof imageShape[2] !== 'number' || typeof imageShape[3] !== 'number') {
    return { ok: false, reason: 'its input is not an image of fixed size ([N, C, H, W] with numeric H and W)' };
  }
  const dims: [number, number] = [imageShape[2], imageShape[3]];
  const inputSrc = `the graph input ${image.name} [${imageShape.join(', ')}] (N, C, H, W)`;
  const strideSrc = (s: HeadScale) => `${dims[0]}×${dims[1]} input / ${s.grid[0]}×${s.grid[1]} feature map of ${s.reg.node}`;

  const ul = ultralyticsHeads(shapes, dims);
  if (ul) {
    const regNames = new Set(ul.scales.map((s) => s.reg.node));
    const after = downstream(
      shapes,
      model.graph.nodes.filter((n) => regNames.has(nodeName(n))),
    );
    const endToEnd = after.some((n) => n.opType === 'TopK');
    const regressionLength = ul.box / 4;
    const meta = familyFromMetadata(model);
    const structural: HeadFamily = endToEnd
      ? regressionLength === 1
        ? 'yolo26'
        : 'yolov10'
      : model.graph.nodes.some((n) => YOLO11_CLS_BRANCH.test(n.name))
        ? 'yolo11'
        : 'yolov8';
    const family = meta && (meta.family === 'yolo26' || meta.family === 'yolov10') === endToEnd ? meta.family : structural;
    const familyWhy =
      family === meta?.family
        ? meta.why
        : endToEnd
          ? `the head's boxes go to TopK (an end-to-end, NMS-free head)${regressionLength === 1 ? ' with 4 box channels (reg_max 1, no DFL): YOLO26' : `, with DFL (reg_max ${regressionLength}): YOLOv10`}`
          : family === 'yolo11'
            ? 'an Ultralytics Detect head whose class branch starts with a depthwise conv (cv3.i.0.0): YOLO11'
            : 'an Ultralytics Detect head (box and class convs concatenated per scale), DFL box regression: YOLOv8';
    const scaleList = ul.scales.map((s) => `${s.reg.node} ${s.reg.channels}ch + ${s.cls!.node} ${s.cls!.channels}ch at ${s.grid[0]}×${s.grid[1]}`).join('; ');
    return {
      ok: true,
      head: {
        family,
        metaArch: family === 'yolo26' ? null : 'yolov8',
        input: { name: image.name, dims },
        scales: ul.scales,
        classes: ul.cls,
        regressionLength,
        sources: {
          family: familyWhy,
          metaArch:
            family === 'yolo26'
              ? 'YOLO26\'s one-to-one head needs no NMS: its outputs are decoded on the host (Ultralytics\' format="hailo" builds YOLO26 without the HailoRT NMS)'
              : `the HailoRT yolov8 NMS decodes DFL box heads (the model zoo's ${family === 'yolo11' ? 'yolov11n' : family === 'yolov10' ? 'yolov10n' : 'yolov8n'}.alls: meta_arch=yolov8)`,
          endNodes: `the head's box and class convs, per scale concatenated on channels (${scaleList})`,
          classes: `the class convs' channels (${ul.cls}, every scale)`,
          regressionLength:
            regressionLength === 1
              ? `the box convs' 4 channels (reg_max 1: boxes without DFL)`
              : `the box convs' channels ${ul.box} = 4 sides × ${regressionLength} DFL bins`,
          strides: ul.scales.map(strideSrc).join('; '),
          imageDims: inputSrc,
        },
      },
    };
  }

  const yx = yoloxHeads(shapes, dims);
  if (yx) {
    return {
      ok: true,
      head: {
        family: 'yolox',
        metaArch: 'yolox',
        input: { name: image.name, dims },
        scales: yx.scales,
        classes: yx.cls,
        sources: {
          family: 'a YOLOX head: per scale a 4-channel box conv, a 1-channel objectness conv and a class conv concatenated on channels',
          metaArch: "the HailoRT yolox NMS (the model zoo's yolox_s_leaky.alls: nms_postprocess(…, yolox, engine=cpu))",
          endNodes: `the box conv and the objectness and class outputs of every scale, as concatenated (${yx.scales.map((s) => `${s.reg.node}, ${s.obj!.node}, ${s.cls!.node}`).join('; ')})`,
          classes: `the class convs' channels (${yx.cls}, every scale)`,
          strides: yx.scales.map(strideSrc).join('; '),
          imageDims: inputSrc,
        },
      },
    };
  }

  const v5 = yolov5Heads(shapes, dims);
  if (v5) {
    return {
      ok: true,
      head: {
        family: 'yolov5',
        metaArch: 'yolov5',
        input: { name: image.name, dims },
        scales: v5.scales,
        classes: v5.no - 5,
        anchorsPerScale: v5.na,
        sources: {
          family: `a YOLOv5 anchor head: per scale one conv reshaped to [1, ${v5.na} anchors, ${v5.no} = 5 + classes, h, w]`,
          metaArch: "the HailoRT yolov5 NMS (the model zoo's yolov5s.alls: nms_postprocess(…, yolov5, engine=cpu))",
          endNodes: `the encoded conv of every scale (${v5.scales.map((s) => `${s.reg.node} ${s.reg.channels}ch at ${s.grid[0]}×${s.grid[1]}`).join('; ')})`,
          classes: `the encoded convs' channels ${v5.na * v5.no} = ${v5.na} anchors × (5 + ${v5.no - 5} classes)`,
          strides: v5.scales.map(strideSrc).join('; '),
          imageDims: inputSrc,
        },
      },
    };
  }
  return {
    ok: false,
    reason:
      'its graph has none of the known layouts (per scale: YOLOv8/YOLO11/YOLOv10/YOLO26 box and class convs concatenated, YOLOX box/objectness/class outputs concatenated, or a YOLOv5 conv reshaped to anchors × (5 + classes))',
  };
}
