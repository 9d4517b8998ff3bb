// What the reader knows about a HEF, editor-neutral. The CLI prints it, the language server turns
// its problems into diagnostics, the inspector renders it. Every field is optional in spirit: a
// damaged file yields as much of this as could be read, plus problems saying what is missing.
import type { HefContainer } from './container';
import type { IntegrityReport } from './integrity';
import type { HefProblem } from './problems';
import type { RuntimeLineId, RuntimeVerdict } from './types';

export interface QuantInfo {
  zp: number;
  scale: number;
  limvalsMin: number;
  limvalsMax: number;
}

/** The quantisation HailoRT applies to a vstream. */
export interface VStreamQuant extends QuantInfo {
  /**
   * Per-feature zero points and scales (outputs of HEFs with OUTPUT_SCALE_PER_FEATURE); when set,
   * HailoRT reports the scalar quant info as invalid (all zero) and uses these.
   */
  perFeature?: { zp: number[]; scale: number[] };
}

export interface NmsShape {
  numberOfClasses: number;
  maxBboxesPerClass: number;
  maxBboxesTotal: number;
}

export interface VStreamInfo {
  name: string;
  /** `<network group>/<network>`. */
  network: string;
  direction: 'input' | 'output';
  /** Host shape [height, width, features]; for NMS orders [classes, 5, max boxes per class]. */
  shape: [number, number, number];
  nmsShape?: NmsShape;
  /** Host (vstream) format order, e.g. `NHWC`, `NC`, `HAILO_NMS_BY_CLASS`. */
  order: string;
  /** Host format type with default (non-float) params: `UINT8`, `UINT16` or `FLOAT32`. */
  type: string;
  transposed: boolean;
  quant: VStreamQuant;
  /** Bytes of one frame in this host format. */
  frameSize: number;
  /** The boundary stream behind it, or the post-process op that produces it. */
  from: { stream: string } | { op: string };
}

export interface StreamInfo {
  name: string;
  network: string;
  direction: 'input' | 'output';
  edgeType: 'INFO' | 'MUX' | 'PLANES';
  /** Device format order (from the compiler format code). */
  deviceOrder: string;
  formatCode: number;
  /** Logical [height, width, features]. */
  shape: [number, number, number];
  /** Padded (hardware) [height, width, features]. */
  hwShape: [number, number, number];
  dataBytes: number;
  context: number;
  sysIndex: number;
  padIndex?: number;
  transposed: boolean;
  /** The raw numeric info, including per-feature lists whether or not HailoRT applies them. */
  numeric: QuantInfo & { zps: number[]; scales: number[] };
  hnOutputLayerName: string;
  originalNames: string[];
  /** Set when a post-process op consumes this stream (it then has no output vstream of its own). */
  hiddenBy?: string;
  /** MUX predecessors / PLANES planes: the vstream names this stream carries. */
  carries?: string[];
}

export interface PostProcessOp {
  name: string;
  /** `nms`, `argmax`, `softmax` (logits ops). */
  kind: 'nms' | 'argmax' | 'softmax' | 'unknown';
  /** NMS flavour (`yolov5`, `yolox`, `ssd`, `iou`, `yolov5_seg`, `yolov8`) or undefined. */
  nmsType?: string;
  /** Boundary output streams feeding the op (hidden from the output vstream list). */
  inputs: { padIndex: number; name: string; stream?: string }[];
  /** Output vstream names the op adds. */
  outputs: string[];
  /** Op parameters worth showing (thresholds, classes, image size …). */
  params: Record<string, number | string | boolean>;
  /** NMS ops: one bbox decoder per scale, with the boundary streams it reads (reg, cls, objectness; YOLOv5: the encoded layer). */
  decoders?: { stride?: number; streams: string[]; anchors?: number }[];
}

export interface NetworkGroupInfo {
  name: string;
  index: number;
  /** Dynamic contexts (`hailortcli`'s "Number of contexts"). */
  contexts: number;
  multiContext: boolean;
  networks: string[];
  inputs: VStreamInfo[];
  /** Output vstreams in HailoRT's sorted order. */
  outputs: VStreamInfo[];
  /** Boundary streams (what the device moves), including those hidden by post-process ops. */
  streams: StreamInfo[];
  ops: PostProcessOp[];
  sortedOutputNames: string[];
  /** Which list the sorted order came from. */
  sortedOutputSource: 'fused_layers_metadata' | 'partial_network_group' | 'network_group' | 'last_context' | 'none';
  transposedNet: boolean;
  bottleneckFps?: number;
  latencyMs?: number;
  computationalOps?: number;
}

export interface HefExtension {
  id: number;
  name: string;
  /** The name string stored in the file. */
  label: string;
  optional: boolean;
  /** False when HailoRT would refuse the file because of it. */
  supported: boolean;
}

export interface ExternalResourceInfo {
  name: string;
  size: number;
  /** Offset relative to the zero point, as stored. */
  offset: number;
  /** Absolute file offset (zero point + offset). */
  fileOffset: number;
  /** XXH3-64 as stored (16 hex digits); 0 = not populated, HailoRT then skips the check. */
  xxhash: string;
  /** Whether the bytes are inside the file. */
  inFile: boolean;
  /** true: checksum matches; false: mismatch or out of range; undefined: not checked. */
  checksumOk?: boolean;
  detail: string;
}

export interface HefHeaderInfo {
  hwArch: { id: number; name: string; compatibleDevices: string[] };
  /** `X.Y.Z` (from ProtoHEFSdkVersion, else parsed from the version string), or undefined. */
  sdkVersion?: string;
  /** The ProtoHEFSdkVersion message's X.Y.Z when set and not 0.0.0: what `hailortcli parse-hef` prints as "HEF Compiler Version". */
  compilerVersion?: string;
  sdkVersionString: string;
  /** Milliseconds since the epoch (the time the HEF was compiled), 0 if absent. */
  timestamp: number;
  /** Proto format version (not the container version). */
  protoVersion: number;
}

export interface HefReport {
  file: string;
  fileSize: number;
  container?: HefContainer;
  integrity: IntegrityReport;
  header?: HefHeaderInfo;
  extensions: HefExtension[];
  networkGroups: NetworkGroupInfo[];
  externalResources: ExternalResourceInfo[];
  /** True when the protobuf body was decoded completely (facts are not partial). */
  protoComplete: boolean;
  problems: HefProblem[];
  /** The common header as read even when it is not a sound HEF header (what HailoRT reads first). */
  rawHeader?: { magic: number; version: number; protoSize: number };
  /**
   * What each HailoRT line does with the file at `Hef::create(path)` (verdict.ts), and the line
   * the file's architecture targets; set by readHef. `chosen`: the verdict of the release the
   * reader was asked to judge by (ReadOptions.hailortVersion), which the exit code then follows.
   */
  runtime?: {
    target: RuntimeLineId;
    verdicts: RuntimeVerdict[];
    chosen?: RuntimeVerdict;
    /** Why `chosen` was chosen when no release was asked for. */ chosenFor?: string;
  };
}
