// The facts the NMS checks need from the other files, editor-neutral: the parsed model's layers
// (HN output shapes, else the ONNX nodes they came from), and the HEF's NMS op or outputs.
import type { ModelLayerIndex, Dim } from '../common/modelLayers';

/** [height, width, channels]. */
export type Hwc = [number, number, number];

export interface NmsLayer {
  name: string;
  fullName: string;
  shape?: Hwc;
  /** The shape came from the ONNX node (the HN gave none). */
  shapeFromOnnx?: boolean;
}

export interface NmsModel {
  /** File name for messages (`model.har`). */
  source: string;
  networkName: string;
  /** `name` short or scoped (`net/conv41`); undefined when the HN has no such layer. */
  layer(name: string): NmsLayer | undefined;
  /** The network input (the first input layer). */
  input?: { name: string; shape: Hwc };
  /** The DFC that wrote the HAR (metadata.json `sdk_version`). */
  sdkVersion?: string;
  /** The HN's output layers with their shapes (the heads, when no NMS config names them). */
  outputs?: { name: string; shape: Hwc }[];
}

const num = (d: Dim | undefined): number | undefined => (typeof d === 'number' && d > 0 ? d : undefined);

/** NHWC with batch (`[-1, h, w, c]`) → [h, w, c]. */
function hwcOfNhwc(s: Dim[] | undefined): Hwc | undefined {
  if (!s || s.length !== 4) return undefined;
  const [h, w, c] = [num(s[1]), num(s[2]), num(s[3])];
  return h && w && c ? [h, w, c] : undefined;
}

/** ONNX NCHW (`[1, c, h, w]`) → [h, w, c]. */
function hwcOfNchw(s: Dim[] | undefined): Hwc | undefined {
  if (!s || s.length !== 4) return undefined;
  const [c, h, w] = [num(s[1]), num(s[2]), num(s[3])];
  return h && w && c ? [h, w, c] : undefined;
}

export function nmsModelFromIndex(index: ModelLayerIndex): NmsModel {
  const source = index.source.split(/[\\/]/).pop() ?? index.source;
  const byFull = new Map<string, NmsLayer>();
  const byShort = new Map<string, NmsLayer>();
  let input: NmsModel['input'];
  const outputs: { name: string; shape: Hwc }[] = [];
  for (const l of index.layers.values()) {
    const hn = hwcOfNhwc(l.outputShapes[0]);
    const onnx = hn ? undefined : hwcOfNchw(l.onnxOutputShapes?.[0]);
    const entry: NmsLayer = { name: l.name, fullName: l.fullName, ...(hn ? { shape: hn } : onnx ? { shape: onnx, shapeFromOnnx: true } : {}) };
    byFull.set(l.fullName, entry);
    byShort.set(l.name, entry);
    if (!input && l.type === 'input_layer' && hn) input = { name: l.name, shape: hn };
    if (l.type === 'output_layer' && hn) outputs.push({ name: l.name, shape: hn });
  }
  return {
    source,
    networkName: index.networkName,
    // A scoped name must match the HN's scope exactly; an unscoped one is taken in the network's scope.
    layer: (name) => (name.includes('/') ? byFull.get(name) : byShort.get(name)),
    ...(input ? { input } : {}),
    ...(index.sdkVersion ? { sdkVersion: index.sdkVersion } : {}),
    ...(outputs.length ? { outputs } : {}),
  };
}

/** What a HEF says about NMS (server/src/core/hef facts, reduced). */
export interface NmsHefFacts {
  source: string;
  /** `op`: a net-flow NMS op (engine=cpu); `on-chip`: HAILO_NMS_ON_CHIP outputs (engine=nn_core); `none`: raw outputs. */
  kind: 'op' | 'on-chip' | 'none';
  /** Op flavour: yolov5, yolov8, yolox, ssd, yolov5_seg, iou. */
  opType?: string;
  /** The op's `classes` (before background removal). */
  classes?: number;
  /** Classes of the NMS output (after background removal). */
  outputClasses?: number;
  maxProposalsPerClass?: number;
  scoreTh?: number;
  iouTh?: number;
  imageDims?: [number, number];
  regressionLength?: number;
  backgroundRemoval?: boolean;
  bboxOnly?: boolean;
  /** The op's decoders: stride and the stream names of its inputs (reg, cls, obj / encoded). */
  decoders?: { stride?: number; layers: string[] }[];
  /** Output vstreams (name, [h, w, c]) when the HEF has no NMS. */
  outputs: { name: string; shape: Hwc }[];
  /**
   * The NMS output vstream as HailoRT gives it by default: the op's (order from its output pad, else
   * HAILO_NMS_BY_CLASS, HAILO_NMS_WITH_BYTE_MASK for yolov5_seg, NHWC for bbox_decoding_only —
   * NmsOpMetadata::expand_output_format_autos_by_op_type) or the on-chip stream's (HAILO_NMS_BY_CLASS).
   */
  output?: NmsOutputFacts;
}

export interface NmsOutputFacts {
  name: string;
  /** Host format order, e.g. `HAILO_NMS_BY_CLASS`. */
  order: string;
  /** Host format type, e.g. `FLOAT32`. */
  type: string;
  /** Bytes of one frame in that format. */
  frameSize: number;
  /** `number_of_classes × max_bboxes_per_class` of an NMS order (not for NHWC decoded boxes). */
  nms?: { classes: number; maxBboxesPerClass: number };
}
