// TEST-ONLY HEF builder, written from the format facts (shared docs/hef-format.md §1-2), not from
// the reader: it writes protobuf wire format with the field numbers spelled out here, so a wrong
// field number in the reader's schema cannot hide behind a shared definition. No real HEF in the
// corpus embeds external resources or is a complete V2, so those paths are exercised with files
// built here. Resource placement is a GUESS the checks accept: resources follow the CCWs, inside
// the V3 "additional info" tail, addressed relative to the zero point (the start of the CCWs).
// What HailoRT's parser needs beyond the layout (hef.cpp of v4.20-v5.2, read, and checked against a
// real libhailort 5.2.0 — native/README.md): every context operation has a trigger (else status 26
// "Unsupported trigger given 0") and only actions with a case (else 8); every boundary edge layer
// has exactly one buffer_indices entry (none: libhailort dereferences a missing element and
// crashes); intermediate edges name their connected context (else 26); a multi-layout architecture
// (Hailo-8L, Hailo-15M) keeps its contexts in partial core ops (none: libhailort crashes). The CCWs
// are real write_data_ccw_ptr actions pointing into the CCW section (V0: inline write_data_ccw).
import { createCRC32, createMD5, createXXHash3 } from 'hash-wasm';
import * as protobuf from 'protobufjs';

type W = protobuf.Writer;
/** One protobuf field appended to a message under construction. */
export type FieldFn = (w: W) => void;

const VARINT = 0;
const FIXED64 = 1;
const LEN = 2;
const FIXED32 = 5;

function tag(w: W, field: number, wt: number): W {
  return w.uint32(((field << 3) | wt) >>> 0);
}

function longBits(v: bigint) {
  return { low: Number(v & 0xffffffffn) | 0, high: Number((v >> 32n) & 0xffffffffn) | 0, unsigned: true };
}

/** Wire-format field writers (proto3: defaults are simply not written). */
export const pb = {
  uint:
    (field: number, v: number | bigint | undefined): FieldFn =>
    (w) => {
      if (v === undefined || v === 0 || v === 0n) return;
      tag(w, field, VARINT).uint64(longBits(BigInt(v)) as unknown as number);
    },
  bool:
    (field: number, v: boolean | undefined): FieldFn =>
    (w) =>
      void (v && tag(w, field, VARINT).bool(true)),
  float:
    (field: number, v: number | undefined): FieldFn =>
    (w) =>
      void (v && tag(w, field, FIXED32).float(v)),
  double:
    (field: number, v: number | undefined): FieldFn =>
    (w) =>
      void (v && tag(w, field, FIXED64).double(v)),
  str:
    (field: number, v: string | undefined): FieldFn =>
    (w) =>
      void (v && tag(w, field, LEN).string(v)),
  msg:
    (field: number, ...fields: FieldFn[]): FieldFn =>
    (w) => {
      tag(w, field, LEN).fork();
      for (const f of fields) f(w);
      w.ldelim();
    },
  packedDoubles:
    (field: number, vs: number[] | undefined): FieldFn =>
    (w) => {
      if (!vs?.length) return;
      tag(w, field, LEN).fork();
      for (const v of vs) w.double(v);
      w.ldelim();
    },
  all:
    (...fields: FieldFn[]): FieldFn =>
    (w) =>
      fields.forEach((f) => f(w)),
};

export function encode(...fields: FieldFn[]): Uint8Array {
  const w = protobuf.Writer.create();
  for (const f of fields) f(w);
  return w.finish();
}

// ---------------------------------------------------------------------------------------------
// HEF model for the builder

export interface StreamSpec {
  name: string;
  /** Logical [height, width, features]. */
  shape: [number, number, number];
  /** Compiler format code (ProtoHEFEdgeLayerBase.format): 0 NHWC, 1 NHCW, 2 NC, 3 FCR, 6 NMS … */
  format?: number;
  dataBytes?: number;
  zp?: number;
  scale?: number;
  limvals?: [number, number];
  qpZps?: number[];
  qpScales?: number[];
  /** Boundary pad index (net-flow: what post-process ops connect to). */
  padIndex?: number;
  /** Context the boundary edge sits in (default 0). */
  context?: number;
  networkIndex?: number;
  transposed?: boolean;
  /** NMS-on-chip info (format 6). */
  nms?: { classes: number; maxOutputSize: number; bboxSize?: number; divisionFactor?: number };
}

export interface OpSpec {
  name: string;
  inputPads: { index: number; name: string }[];
  outputPads: { index: number; name: string; formatOrder?: number; formatType?: number; nmsShape?: { classes: number; maxBboxesPerClass: number } }[];
  nms?: {
    kind: 'yolo_nms_op' | 'yolox_nms_op' | 'ssd_nms_op' | 'iou_op' | 'yolo_seg_op' | 'yolov8_nms_op';
    score: number;
    iou: number;
    maxProposalsPerClass: number;
    classes: number;
    backgroundRemoval?: boolean;
    /** bbox_decoding_only=13: decoded boxes, no NMS (YOLOv5/v8 only). */
    bboxDecodingOnly?: boolean;
    image?: [number, number];
    /** YOLOv8 op: regression_length=5. */
    regressionLength?: number;
    /**
     * Bbox decoders by input pad index (hef.proto ProtoHEF*BboxDecoder): YOLOv8 {stride=1,
     * reg_pad_index=2, cls_pad_index=3}; YOLOX adds obj_pad_index=4; YOLOv5 {h=2, w=3, stride=4, pad_index=5}.
     */
    decoders?: { stride: number; reg?: number; cls?: number; obj?: number; pad?: number; h?: number[]; w?: number[] }[];
  };
  logits?: 'argmax' | 'softmax';
}

export interface NetworkGroupSpec {
  name: string;
  inputs: StreamSpec[];
  outputs: StreamSpec[];
  /** Default: the outputs' names in the given order. */
  sortedOutputs?: string[];
  networksNames?: string[];
  contexts?: number;
  /** Intermediate (non-boundary) edges to add, per context — they must not become streams. */
  intermediates?: { context: number; name: string; direction: 0 | 1 }[];
  /** Net-flow: post-process ops and pad edges (core op goes into ops[0]). */
  ops?: OpSpec[];
  padEdges?: [src: number, dst: number][];
  bottleneckFps?: number;
  latency?: number;
}

export interface ResourceSpec {
  name: string;
  data: Uint8Array;
  /** 'ok' (default): correct XXH3; 'none': 0 (HailoRT skips the check); 'bad': wrong value. */
  checksum?: 'ok' | 'none' | 'bad';
  /** Override the stored size (e.g. to point past the end). */
  sizeOverride?: number;
}

export interface HefSpec {
  version?: 0 | 1 | 2 | 3;
  hwArch?: number;
  sdk?: [number, number, number];
  /** Proto format version (header.version); default 5. */
  protoVersion?: number;
  /** Required extensions; default: 0, 3, 12, 26 (+13 when ops are given). */
  extensions?: number[];
  optionalExtensions?: number[];
  networkGroups: NetworkGroupSpec[];
  resources?: ResourceSpec[];
  /** Bytes of dummy CCW data (default 2048). */
  ccwsSize?: number;
  /** V3: zero the proto hash (forces HailoRT's full-file check path). */
  noProtoHash?: boolean;
  /** Extra zero bytes at the end of the V3 additional info. */
  additionalInfoPad?: number;
  timestamp?: number;
  /**
   * Multi-layout architectures only: the partial_clusters_layout_bitmap of each partial core op
   * (default one layout, 0x0F). Hef::create accepts any value; on a device HailoRT picks the one
   * equal to the chip's own bitmap (get_core_op_per_arch), and a Hailo-8 takes any of them.
   */
  clusterLayouts?: number[];
  /** Structural faults HailoRT refuses (or crashes on), for the tests of those verdicts. */
  faults?: HefFaults;
}

export interface HefFaults {
  /** Context operations without a trigger: HailoRT answers 26 ("Unsupported trigger given 0"). */
  noTrigger?: boolean;
  /** An action with no case set: HailoRT answers 8 ("Action 0 not implemented"). */
  emptyAction?: boolean;
  /** Boundary edge layers without buffer_indices: libhailort reads a missing element and crashes. */
  noBufferIndices?: boolean;
  /** One buffer per row however wide (core_bytes_per_buffer may pass 16 bits: HailoRT answers 26). */
  unsplitRows?: boolean;
  /**
   * A multi-layout architecture (hw_arch 3 HAILO8L, 4 HAILO15M) written with the contexts on the
   * core op itself and no partial core ops: libhailort builds no metadata, then reads the first
   * entry of the empty map (CoreOpMetadataPerArch::get_metadata) and crashes (SIGSEGV).
   */
  noPartialCoreOps?: boolean;
  /**
   * Net-flow on a multi-layout architecture: partial core ops, but no partial_network_groups on the
   * group. Hef::create succeeds; every later lookup of a network group by name reads element 0 of
   * the empty list (get_network_group_and_network_name, get_network_groups_names) and crashes.
   */
  noPartialNetworkGroups?: boolean;
}

/** hef.cpp `is_multi_layout`: these architectures keep their contexts in partial core ops, one per cluster layout. */
export const MULTI_LAYOUT_HW_ARCHS = new Set([3, 4]);

const EXT_NAMES: Record<number, string> = {
  0: 'Internal debug feature (ABBALE)',
  3: 'PADDED_DDR_BUFFERS',
  4: 'IS_MULTI_CONTEXTS',
  7: 'TEST_ONE',
  8: 'Multi-network variable batch size',
  11: 'HW Padding',
  12: 'KO_RUN_ASAP',
  13: 'HAILO_NET_FLOW',
  25: 'OUTPUT_SCALE_PER_FEATURE',
  26: 'Periph configuration calculated in HailoRT (PERIPH_CALCULATION_IN_HAILORT)',
  27: 'HAILO_NET_FLOW_YOLOV8_NMS',
  31: 'EXTERNAL_RESOURCES',
};

// ProtoHEFEdgeLayerNumericInfo: qp_zp=1 f, qp_scale=2 f, limvals_min=3 f, limvals_max=4 f, qp_zps=5 d[], qp_scales=6 d[]
function numericInfo(field: number, s: StreamSpec): FieldFn {
  return pb.msg(
    field,
    pb.float(1, s.zp ?? 0),
    pb.float(2, s.scale ?? 1),
    pb.float(3, s.limvals?.[0]),
    pb.float(4, s.limvals?.[1] ?? 255),
    pb.packedDoubles(5, s.qpZps),
    pb.packedDoubles(6, s.qpScales),
  );
}

// ProtoHEFEdgeLayerBase: height=1 padded_height=2 width=3 padded_width=4 features=5 padded_features=6 format=7
// sys_index=8 core_bytes_per_buffer=9 core_buffers_per_frame=10 additional_info=11{nms_info=1} data_bytes=12
// buffer_indices=13 (repeated ProtoHEFResourceIndices: index=1 cluster_index=2) max_shmifo_size=15
// ProtoHEFNmsInfo: type_index=1 number_of_classes=2 max_output_size=3 bbox_size=4 is_defused=5 input_division_factor=7
/**
 * How the compiler would cut a frame into buffers: HailoRT keeps core_bytes_per_buffer and
 * core_buffers_per_frame in 16 bits (parse_nn_stream_config: "core_bytes_per_buffer is too big",
 * 26), so a row wider than 65,535 bytes is split into equal parts.
 */
export function bufferShape(s: StreamSpec, unsplit = false): { bytesPerBuffer: number; buffersPerFrame: number } {
  const [h, w, f] = s.shape;
  const row = w * f * (s.dataBytes ?? 1);
  let parts = unsplit ? 1 : Math.max(1, Math.ceil(row / 0xffff));
  while (row % parts !== 0) parts++;
  return { bytesPerBuffer: row / parts, buffersPerFrame: h * parts };
}

function edgeLayerBase(s: StreamSpec, sysIndex: number, bufferIndices = true, unsplit = false): FieldFn {
  const [h, w, f] = s.shape;
  const buffers = bufferShape(s, unsplit);
  return pb.msg(
    2,
    pb.uint(1, h),
    pb.uint(2, h),
    pb.uint(3, w),
    pb.uint(4, w),
    pb.uint(5, f),
    pb.uint(6, f),
    pb.uint(7, s.format ?? 1),
    pb.uint(8, sysIndex),
    pb.uint(9, buffers.bytesPerBuffer),
    pb.uint(10, buffers.buffersPerFrame),
    s.nms
      ? pb.msg(11, pb.msg(1, pb.uint(2, s.nms.classes), pb.uint(3, s.nms.maxOutputSize), pb.uint(4, s.nms.bboxSize ?? 5), pb.uint(7, s.nms.divisionFactor)))
      : pb.all(),
    pb.uint(12, s.dataBytes ?? 1),
    // Exactly one entry: hef.cpp asserts it and reads element 0 unchecked (release builds crash without it).
    bufferIndices ? pb.msg(13, pb.uint(1, sysIndex), pb.uint(2, sysIndex % 4)) : pb.all(),
    pb.uint(15, 4096),
  );
}

// ProtoHEFEdgeLayer: direction=1 edge_layer_type=2 layer_info=3 context_switch_info=5{context_name=2, edge_connection_type=3,
// connected_contexts=8{index=1 sys_index=3}} network_index=6 pad_index=7 (optional: written even when 0)
// ProtoHEFEdgeLayerInfo: name=1 edge_layer_base=2 numeric_info=3 hn_output_layer_name=4 original_names=5 transposed=6
interface EdgeOptions {
  connection?: number;
  unsplitRows?: boolean;
  /** INTERMEDIATE edges: the context on the other side (HailoRT needs at least one, else 26). */
  connectedContext?: number;
  bufferIndices?: boolean;
}
function edgeLayer(s: StreamSpec, direction: 0 | 1, sysIndex: number, ctxName: string, o: EdgeOptions = {}): FieldFn {
  const connection = o.connection ?? 0;
  return pb.msg(
    2, // ContextMetadata.edge_layers = 2
    pb.uint(1, direction),
    pb.msg(
      3,
      pb.str(1, s.name),
      edgeLayerBase(s, sysIndex, o.bufferIndices ?? true, o.unsplitRows),
      numericInfo(3, s),
      pb.str(4, s.name),
      pb.str(5, `onnx_${s.name.split('/').pop()}`),
      pb.bool(6, s.transposed),
    ),
    pb.msg(
      5,
      pb.str(2, ctxName),
      pb.uint(3, connection),
      o.connectedContext !== undefined ? pb.msg(8, pb.uint(1, o.connectedContext), pb.uint(3, sysIndex)) : pb.all(),
    ),
    pb.uint(6, s.networkIndex),
    (w) => {
      if (s.padIndex !== undefined) tag(w, 7, VARINT).uint32(s.padIndex);
    },
  );
}

/**
 * Hands out the config words: V1-V3 point into the CCW section (write_data_ccw_ptr, offsets relative
 * to its start), V0 carries them inline (write_data_ccw) — the kinds hef.cpp accepts per version.
 */
export class CcwPlan {
  private next = 0;
  constructor(
    readonly version: number,
    readonly ccws: Uint8Array,
    private readonly slice: number,
  ) {}
  /** ProtoHEFAction (unique_id=1): write_data_ccw=3{data=1 cfg_channel_index=2} or write_data_ccw_ptr=16{offset=1 size=2 cfg_channel_index=3}. */
  action(id: number, channel: number): FieldFn {
    if (this.version === 0)
      return pb.msg(
        2,
        pb.uint(1, id),
        pb.msg(3, (w) => void tag(w, 1, LEN).bytes(this.ccws.subarray(0, 16)), pb.uint(2, channel)),
      );
    const offset = Math.min(this.next, this.ccws.length);
    const size = Math.min(this.slice, this.ccws.length - offset);
    this.next = offset + size;
    return pb.msg(2, pb.uint(1, id), pb.msg(16, pb.uint(1, offset), pb.uint(2, size), pb.uint(3, channel)));
  }
}

/**
 * ProtoHEFOperation: trigger=1{unique_id=1, trigger_none=3 | trigger_lcu=2{cluster_index=1 lcu_index=2}} actions=2.
 * As compiled HEFs do: the preliminary config writes config words after no trigger; a context writes
 * its words, then lets each input flow (allow_input_dataflow=10{sys_index=1}).
 */
function operation(ccw: CcwPlan, id: number, inputSysIndices: number[], faults: HefFaults): FieldFn {
  const trigger = faults.noTrigger ? pb.all() : pb.msg(1, pb.uint(1, id), pb.msg(3));
  const actions = [
    ccw.action(id * 100 + 1, 0),
    ...inputSysIndices.map((sys, i) => pb.msg(2, pb.uint(1, id * 100 + 2 + i), pb.msg(10, pb.uint(1, sys)))),
    ...(faults.emptyAction ? [pb.msg(2, pb.uint(1, id * 100 + 99))] : []),
  ];
  return pb.all(trigger, ...actions);
}

/** Core-op-like body shared by ProtoHEFNetworkGroup (legacy) and ProtoHEFCoreOp (fields 1,2,3,4,5,6). */
function coreFields(ng: NetworkGroupSpec, ccw: CcwPlan, faults: HefFaults): FieldFn[] {
  const contexts = contextCount(ng);
  const sorted = ng.sortedOutputs ?? ng.outputs.map((o) => o.name);
  const ctxs: FieldFn[] = [];
  for (let c = 0; c < contexts; c++) {
    const ctxName = `${ng.name}_context_${c}`;
    const edges: FieldFn[] = [];
    const ins = ng.inputs.filter((s) => (s.context ?? 0) === c);
    const edge = { bufferIndices: !faults.noBufferIndices, unsplitRows: faults.unsplitRows };
    ins.forEach((s, i) => edges.push(edgeLayer(s, 0, i + 1, ctxName, edge)));
    ng.outputs.filter((s) => (s.context ?? 0) === c).forEach((s, i) => edges.push(edgeLayer(s, 1, i, ctxName, edge)));
    for (const im of ng.intermediates ?? []) {
      if (im.context === c) {
        const other = im.direction === 1 ? Math.min(c + 1, contexts - 1) : Math.max(c - 1, 0);
        edges.push(edgeLayer({ name: im.name, shape: [8, 8, 8] }, im.direction, 9, ctxName, { connection: 1, connectedContext: other }));
      }
    }
    // ProtoHEFContext: context_index=1 operations=2 metadata=3
    // ProtoHEFContextMetadata: name=1 edge_layers=2 sorted_outputs_order=5
    ctxs.push(
      pb.msg(
        3,
        pb.uint(1, c),
        pb.msg(
          2,
          operation(
            ccw,
            c + 2,
            ins.map((_, i) => i + 1),
            faults,
          ),
        ),
        pb.msg(3, pb.str(1, ctxName), ...edges, ...(c === contexts - 1 ? sorted.map((n) => pb.str(5, n)) : [])),
      ),
    );
  }
  return [
    // ProtoHEFNetworkGroupMetadata: network_group_name=1 bottleneck_fps=4 cfg_channels_count=5 latency=6
    pb.msg(1, pb.str(1, ng.name), pb.double(4, ng.bottleneckFps ?? 1234.5), pb.uint(5, 2), pb.double(6, ng.latency ?? 0.002)),
    // ProtoHEFPreliminaryConfig: operation=1
    pb.msg(2, pb.msg(1, operation(ccw, 1, [], faults))),
    ...ctxs,
    ...sorted.map((n) => pb.str(4, n)),
    // ProtoHEFFusedLayersMetadata: updated_sorted_output_names=2
    pb.msg(5, ...sorted.map((n) => pb.str(2, n))),
    ...(ng.networksNames ?? [ng.name]).map((n) => pb.str(6, n)),
  ];
}

function contextCount(ng: NetworkGroupSpec): number {
  return Math.max(ng.contexts ?? 1, ...[...ng.inputs, ...ng.outputs].map((s) => (s.context ?? 0) + 1));
}

// ProtoHEFOp: name=1 input_pads=2 output_pads=3 core_op=4 nms_op=5 logits_op=6
// ProtoHEFPad: index=1 name=2 format_order=3 format_type=8 nms_shape=7{number_of_classes=1 max_bboxes_per_class=2}
// ProtoHEFNmsOp: nms_score_th=1 nms_iou_th=2 max_proposals_per_class=3 classes=4 background_removal=5, kinds 7..12
const NMS_KIND_FIELD = { yolo_nms_op: 7, yolox_nms_op: 8, ssd_nms_op: 9, iou_op: 10, yolo_seg_op: 11, yolov8_nms_op: 12 } as const;
function opField(op: OpSpec): FieldFn {
  const pads = [
    ...op.inputPads.map((p) => pb.msg(2, (w) => void tag(w, 1, VARINT).uint32(p.index), pb.str(2, p.name))),
    ...op.outputPads.map((p) =>
      pb.msg(
        3,
        (w) => void tag(w, 1, VARINT).uint32(p.index),
        pb.str(2, p.name),
        pb.uint(3, p.formatOrder),
        p.nmsShape ? pb.msg(7, pb.uint(1, p.nmsShape.classes), pb.uint(2, p.nmsShape.maxBboxesPerClass)) : pb.all(),
        pb.uint(8, p.formatType),
      ),
    ),
  ];
  let body: FieldFn = pb.all();
  if (op.nms) {
    const n = op.nms;
    body = pb.msg(
      5,
      pb.double(1, n.score),
      pb.double(2, n.iou),
      pb.uint(3, n.maxProposalsPerClass),
      pb.uint(4, n.classes),
      pb.bool(5, n.backgroundRemoval),
      pb.bool(13, n.bboxDecodingOnly),
      // kinds share image_height=1, image_width=2 (doubles); an empty message still marks the kind
      pb.msg(NMS_KIND_FIELD[n.kind], pb.double(1, n.image?.[0]), pb.double(2, n.image?.[1]), ...nmsDecoderFields(n)),
    );
  } else if (op.logits) {
    body = pb.msg(6, pb.uint(1, op.logits === 'softmax' ? 1 : 0));
  }
  return pb.msg(8, pb.str(1, op.name), ...pads, body);
}

/** The kind's bbox_decoders (field 4 for YOLOv5/v8, 3 for YOLOX) and YOLOv8's regression_length. */
function nmsDecoderFields(n: NonNullable<OpSpec['nms']>): FieldFn[] {
  const ds = n.decoders ?? [];
  if (n.kind === 'yolov8_nms_op')
    return [...ds.map((d) => pb.msg(4, pb.uint(1, d.stride), pb.uint(2, d.reg), pb.uint(3, d.cls))), pb.uint(5, n.regressionLength)];
  if (n.kind === 'yolox_nms_op') return ds.map((d) => pb.msg(3, pb.uint(1, d.stride), pb.uint(2, d.reg), pb.uint(3, d.cls), pb.uint(4, d.obj)));
  if (n.kind === 'yolo_nms_op')
    return ds.map((d) =>
      pb.msg(4, ...(d.h ?? []).map((v) => pb.uint(2, v)), ...(d.w ?? []).map((v) => pb.uint(3, v)), pb.uint(4, d.stride), pb.uint(5, d.pad)),
    );
  return [];
}

/**
 * A multi-layout architecture (hef.cpp `is_multi_layout`: HAILO8L, HAILO15M) as libhailort reads it:
 * - the metadata comes only from the partials, one per cluster layout, each {core_op|network_group=1,
 *   layout=2{partial_clusters_layout_bitmap=1}}: net-flow `core_op.partial_core_ops` (=7), legacy
 *   `network_group.partial_network_groups` (=7) (fill_core_ops, fill_networks_metadata);
 * - the name, the networks and the vstream lookups come from `network_group.partial_network_groups[0]`
 *   in both cases (get_network_group_name, get_network_groups_names, get_network_group_and_network_name),
 *   so a net-flow file carries those too (name, sorted outputs, networks — what HailoRT reads of them);
 * - the top level keeps the name, the sorted outputs and the fused-layer metadata.
 * Every partial carries the group's name: net-flow looks its post-process ops up by it (map::at).
 */
function partialGroups(ng: NetworkGroupSpec, layouts: number[], body: () => FieldFn[]): FieldFn[] {
  return layouts.map((bitmap) => pb.msg(7, pb.msg(1, ...body()), pb.msg(2, pb.uint(1, bitmap))));
}

function topLevelFields(ng: NetworkGroupSpec): FieldFn[] {
  const sorted = ng.sortedOutputs ?? ng.outputs.map((o) => o.name);
  return [
    pb.msg(1, pb.str(1, ng.name)),
    ...sorted.map((n) => pb.str(4, n)),
    pb.msg(5, ...sorted.map((n) => pb.str(2, n))),
    ...(ng.networksNames ?? [ng.name]).map((n) => pb.str(6, n)),
  ];
}

function networkGroupField(ng: NetworkGroupSpec, ccw: CcwPlan, faults: HefFaults, layouts: number[] | undefined): FieldFn {
  const partials = layouts && !faults.noPartialCoreOps ? layouts : undefined;
  if (ng.ops) {
    // Net-flow: the core op lives in ops[0].core_op; ops and pad edges sit on the group.
    const sorted = ng.sortedOutputs ?? ng.outputs.map((o) => o.name);
    const core = partials ? [...topLevelFields(ng), ...partialGroups(ng, partials, () => coreFields(ng, ccw, faults))] : coreFields(ng, ccw, faults);
    const legacyPartials = partials && !faults.noPartialNetworkGroups ? partialGroups(ng, partials, () => topLevelFields(ng)) : [];
    return pb.msg(
      2,
      pb.msg(1, pb.str(1, ng.name)),
      ...sorted.map((n) => pb.str(4, n)),
      ...legacyPartials,
      pb.msg(8, pb.str(1, `${ng.name}/core`), pb.msg(4, ...core)),
      ...ng.ops.map(opField),
      ...(ng.padEdges ?? []).map(([src, dst]) => pb.msg(9, pb.uint(1, src), pb.uint(2, dst))),
    );
  }
  if (partials) return pb.msg(2, ...topLevelFields(ng), ...partialGroups(ng, partials, () => coreFields(ng, ccw, faults)));
  return pb.msg(2, ...coreFields(ng, ccw, faults));
}

const ZERO_HASH = 0n;

export async function xxh3(bytes: Uint8Array): Promise<bigint> {
  const h = await createXXHash3();
  h.init();
  h.update(bytes);
  return BigInt('0x' + h.digest('hex'));
}

/** Builds a HEF file from the spec. */
export async function buildHef(spec: HefSpec): Promise<Uint8Array> {
  const version = spec.version ?? 3;
  const hasOps = spec.networkGroups.some((g) => g.ops);
  const exts = spec.extensions ?? [0, 3, 12, 26, ...(hasOps ? [13] : []), ...(spec.resources?.length ? [31] : [])];
  const optExts = spec.optionalExtensions ?? [8, 11];
  const [maj, min, rev] = spec.sdk ?? [5, 4, 0];

  const ccws = new Uint8Array(spec.ccwsSize ?? 2048);
  for (let i = 0; i < ccws.length; i++) ccws[i] = (i * 131 + 7) & 0xff; // deterministic filler
  const layouts = MULTI_LAYOUT_HW_ARCHS.has(spec.hwArch ?? 103) ? (spec.clusterLayouts ?? [0x0f]) : undefined;
  // One slice of config words for each preliminary config and context (of each layout), in that order.
  const configOps = spec.networkGroups.reduce((sum, g) => sum + (1 + contextCount(g)) * (layouts?.length || 1), 0);
  const ccwPlan = new CcwPlan(version, ccws, Math.max(1, Math.floor(ccws.length / configOps)));
  // Resources follow the CCWs (V3 only); offsets are relative to the zero point.
  const resources = version === 3 ? (spec.resources ?? []) : [];
  const resourceFields: FieldFn[] = [];
  const resourceBlobs: Uint8Array[] = [];
  let offset = ccws.length;
  for (const r of resources) {
    const sum = r.checksum === 'none' ? ZERO_HASH : r.checksum === 'bad' ? (await xxh3(r.data)) ^ 0x5a5an : await xxh3(r.data);
    // ProtoHEFExternalResource: offset=1 size=2 name=3 xxhash=4
    resourceFields.push(pb.msg(7, pb.uint(1, offset), pb.uint(2, r.sizeOverride ?? r.data.length), pb.str(3, r.name), pb.uint(4, sum)));
    resourceBlobs.push(r.data);
    offset += r.data.length;
  }

  // ProtoHEFHef: header=1 network_groups=2 mapping=3 included_features=4 extensions=5 optional_extensions=6 external_resources=7
  // ProtoHEFHeader: hw_arch=1 timestamp=2 sdk_version_str=3 version=4 sdk_version=5{major=1 minor=2 revision=3}
  const proto = encode(
    pb.msg(
      1,
      pb.uint(1, spec.hwArch ?? 103),
      pb.uint(2, spec.timestamp ?? 1767225600000),
      pb.str(3, `sdk-version: ${maj}.${min}.${rev}, git-branch: test`),
      pb.uint(4, spec.protoVersion ?? 5),
      pb.msg(5, pb.uint(1, maj), pb.uint(2, min), pb.uint(3, rev)),
    ),
    ...spec.networkGroups.map((g) => networkGroupField(g, ccwPlan, spec.faults ?? {}, layouts)),
    pb.msg(4, pb.bool(1, true), pb.bool(7, true), pb.bool(8, true)),
    ...exts.map((id) => pb.msg(5, pb.uint(1, id), pb.str(2, EXT_NAMES[id] ?? `EXT_${id}`))),
    ...optExts.map((id) => pb.msg(6, pb.uint(1, id), pb.str(2, EXT_NAMES[id] ?? `EXT_${id}`))),
    ...resourceFields,
  );

  const be32 = (v: number) => {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v >>> 0, false);
    return b;
  };
  const be64 = (v: bigint) => {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setBigUint64(0, v, false);
    return b;
  };
  const common = (hdrProto: number) => [be32(0x01484546), be32(version), be32(hdrProto)];

  if (version === 0) {
    // V0: body runs to EOF; MD5 over it at 16..32.
    const md5 = await createMD5();
    md5.init();
    md5.update(proto);
    const sum = Uint8Array.from(Buffer.from(md5.digest('hex'), 'hex'));
    return concat([...common(proto.length), be32(0), sum, proto]);
  }
  if (version === 1) {
    const crc = await createCRC32();
    crc.init();
    crc.update(proto);
    crc.update(ccws);
    return concat([...common(proto.length), be32(parseInt(crc.digest('hex'), 16)), be64(BigInt(ccws.length)), be32(0), proto, ccws]);
  }
  if (version === 2) {
    const sum = await xxh3(concat([proto, ccws]));
    return concat([...common(proto.length), be64(sum), be64(BigInt(ccws.length)), be64(0n), be64(0n), proto, ccws]);
  }
  // V3: pad so the CCWs start 4 KiB-aligned; resources (then zero filler) form the additional info.
  const padding = (4096 - ((56 + proto.length) % 4096)) % 4096;
  const additional = concat([...resourceBlobs, new Uint8Array(spec.additionalInfoPad ?? 80)]);
  const body = concat([proto, new Uint8Array(padding), ccws, additional]);
  const full = await xxh3(body);
  const protoHash = spec.noProtoHash ? 0n : await xxh3(proto);
  return concat([
    ...common(proto.length),
    be64(full),
    be64(BigInt(padding + ccws.length)),
    be32(padding),
    be64(BigInt(additional.length)),
    be64(protoHash),
    be64(0n),
    body,
  ]);
}

export function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

export const utf8 = (s: string) => new TextEncoder().encode(s);
