// Our own protobuf schema for the HEF body: only the messages and fields the inspector needs,
// written from the format facts (docs/research/hef-format.md#protobuf-schema; field numbers as in HailoRT's
// hef.proto). Everything not declared here (mappings, what a CCW action carries beyond its kind
// and pointer) is skipped by the decoder without being copied, which keeps decoding fast and
// memory small. Context operations are declared only as far as HailoRT's parser rejects them
// (a trigger with no case, an action with no case, the CCW kinds per container version).
//
// Enums are declared as uint32 so unknown values survive decoding; names are mapped in code.
import * as protobuf from 'protobufjs';
import Long from 'long';
import { HEF_MESSAGES } from './hefDecoders.generated';

// Bundlers cannot see protobufjs' dynamic require of `long`; without it uint64 values (resource
// checksums) would be rounded to doubles. Install it explicitly.
protobuf.util.Long = Long;
protobuf.configure();

export const SCHEMA = `
syntax = "proto3";
package hefview;

message Hef {
  Header header = 1;
  repeated NetworkGroup network_groups = 2;
  IncludedFeatures included_features = 4;
  repeated Extension extensions = 5;
  repeated Extension optional_extensions = 6;
  repeated ExternalResource external_resources = 7;
}

message Header {
  uint32 hw_arch = 1;
  uint64 timestamp = 2;
  string sdk_version_str = 3;   // "sdk_version" in HailoRT 4.x
  uint64 version = 4;           // proto format version (not the container version)
  SdkVersion sdk_version = 5;   // HailoRT 5.x
}

message SdkVersion {
  uint32 sdk_version_major = 1;
  uint32 sdk_version_minor = 2;
  uint32 sdk_version_revision = 3;
}

message IncludedFeatures {
  bool abbale = 1;
  bool posted_writes = 2;
  bool ddr = 3;
  bool is_multi_context = 4;
  bool compressed_params = 5;
  bool transpose_component = 6;
  bool padded_ddr_buffers = 7;
  bool sequencer = 8;
}

message Extension {
  uint32 type_index = 1;
  string name = 2;
}

message ExternalResource {
  uint64 offset = 1;
  uint64 size = 2;
  string name = 3;
  uint64 xxhash = 4;
}

message NetworkGroup {
  NetworkGroupMetadata network_group_metadata = 1;
  PreliminaryConfig preliminary_config = 2;
  repeated Context contexts = 3;
  repeated string sorted_outputs_order = 4;
  FusedLayersMetadata fused_layers_metadata = 5;
  repeated string networks_names = 6;
  repeated PartialNetworkGroup partial_network_groups = 7;
  repeated Op ops = 8;
  repeated PadEdge pad_edges = 9;
  string network_group_name = 10;
  uint32 network_group_index = 11;
}

message PartialNetworkGroup {
  NetworkGroup network_group = 1;
  PhysicalLayout layout = 2;
}

message PhysicalLayout {
  uint32 partial_clusters_layout_bitmap = 1;
}

message CoreOp {
  NetworkGroupMetadata network_group_metadata = 1;
  PreliminaryConfig preliminary_config = 2;
  repeated Context contexts = 3;
  repeated string sorted_outputs_order = 4;
  FusedLayersMetadata fused_layers_metadata = 5;
  repeated string networks_names = 6;
  repeated PartialCoreOp partial_core_ops = 7;
}

message PartialCoreOp {
  CoreOp core_op = 1;
  PhysicalLayout layout = 2;
}

message NetworkGroupMetadata {
  string network_group_name = 1;
  uint32 network_group_index = 2;
  bool transposed_net = 3;
  double bottleneck_fps = 4;
  uint32 cfg_channels_count = 5;
  double latency = 6;
  uint64 computational_ops = 8;
}

message FusedLayersMetadata {
  bool network_has_fused_layers = 1;
  repeated string updated_sorted_output_names = 2;
  repeated EdgeLayerFused fused_layers = 3;
}

message EdgeLayerFused {
  EdgeLayerInfo layer_info = 1;
  repeated string defused_layers_names = 2;
  NmsInfo nms_info = 3;
}

message Context {
  uint32 context_index = 1;
  repeated Operation operations = 2;
  ContextMetadata metadata = 3;
}

message PreliminaryConfig {
  repeated Operation operation = 1;
}

// ProtoHEFOperation / ProtoHEFTrigger / ProtoHEFAction: which oneof case is set is all HailoRT's
// parser needs to accept or refuse them (hef.cpp parse_trigger_action / parse_action); the
// payloads are opaque here, except the CCW pointer (where the config words are).
message Operation {
  Trigger trigger = 1;
  repeated Action actions = 2;
}

message Trigger {
  Opaque trigger_lcu = 2;
  Opaque trigger_none = 3;
  Opaque trigger_all_data_was_sent = 4;
  Opaque trigger_all_data_was_received = 5;
  Opaque trigger_nms = 6;
  Opaque trigger_dma_idle = 7;
}

message Action {
  Opaque write_data = 2;
  Opaque write_data_ccw = 3;
  Opaque write_compressed_data = 4;
  Opaque enable_sequencer = 5;
  Opaque wait_for_seqeuncer = 6;
  Opaque disable_lcu = 7;
  Opaque enable_lcu = 8;
  Opaque none = 9;
  Opaque allow_input_dataflow = 10;
  Opaque wait_for_module_config_done = 11;
  Opaque debug = 12;
  Opaque enable_nms = 13;
  Opaque write_data_by_type = 14;
  Opaque switch_lcu_batch = 15;
  WriteDataCcwPtr write_data_ccw_ptr = 16;
  Opaque allow_config_channels = 17;
  Opaque disable_data_channels = 18;
}

message Opaque {
}

message WriteDataCcwPtr {
  uint64 offset = 1;
  uint32 size = 2;
  uint32 cfg_channel_index = 3;
}

message ContextMetadata {
  string name = 1;
  repeated EdgeLayer edge_layers = 2;
  repeated string sorted_outputs_order = 5;
}

message EdgeLayer {
  uint32 direction = 1;          // 0 host-to-device (input), 1 device-to-host (output)
  uint32 edge_layer_type = 2;    // 0 INFO, 1 MUX, 2 PLANES
  EdgeLayerInfo layer_info = 3;
  EdgeLayerMux layer_mux = 4;
  ContextSwitchInformation context_switch_info = 5;
  uint32 network_index = 6;
  uint32 pad_index = 7;          // presence matters (proto3 optional upstream)
  EdgeLayerPlanes layer_planes = 8;
}

message ContextSwitchInformation {
  uint32 context_index = 1;
  string context_name = 2;
  uint32 edge_connection_type = 3; // 0 BOUNDARY, 1 INTERMEDIATE, 2 DDR, 3 CACHE
  repeated ConnectedContext connected_contexts = 8;
}

message ConnectedContext {
  uint32 index = 1;
  uint32 sys_index = 3;
}

message EdgeLayerInfo {
  string name = 1;
  EdgeLayerBase edge_layer_base = 2;
  NumericInfo numeric_info = 3;
  string hn_output_layer_name = 4;
  repeated string original_names = 5;
  bool transposed = 6;
}

message EdgeLayerMux {
  string name = 1;
  EdgeLayerBase edge_layer_base = 2;
  string hn_output_layer_name = 4;
  repeated Edge predecessors = 5;
  repeated string original_names = 6;
}

message Edge {
  EdgeLayerInfo layer_info = 1;
  EdgeLayerMux layer_mux = 2;
  EdgeLayerPlanes layer_planes = 3;
}

message EdgeLayerPlanes {
  string name = 1;
  uint32 planes_format = 2;      // 0 NV12, 1 NV21, 2 I420
  repeated Edge planes = 3;
  uint32 height = 4;
  uint32 width = 5;
  uint32 features = 6;
}

message EdgeLayerBase {
  uint32 height = 1;
  uint32 padded_height = 2;
  uint32 width = 3;
  uint32 padded_width = 4;
  uint32 features = 5;
  uint32 padded_features = 6;
  uint32 format = 7;             // compiler format code, mapped to a device order in code
  uint32 sys_index = 8;
  uint32 core_bytes_per_buffer = 9;
  uint32 core_buffers_per_frame = 10;
  AdditionalInfo additional_info = 11;
  uint32 data_bytes = 12;
  repeated ResourceIndices buffer_indices = 13;
  bool host_argmax = 14;
}

message ResourceIndices {
  uint32 index = 1;
  uint32 cluster_index = 2;
}

message AdditionalInfo {
  NmsInfo nms_info = 1;
}

message NumericInfo {
  float qp_zp = 1;
  float qp_scale = 2;
  float limvals_min = 3;
  float limvals_max = 4;
  repeated double qp_zps = 5;
  repeated double qp_scales = 6;
}

message NmsInfo {
  uint32 type_index = 1;
  uint64 number_of_classes = 2;
  uint64 max_output_size = 3;
  uint64 bbox_size = 4;
  bool is_defused = 5;
  NmsDefuseInfo defuse_info = 6;
  uint64 input_division_factor = 7;
  uint32 burst_size = 8;
  uint32 burst_type = 9;
}

message NmsDefuseInfo {
  uint64 class_group_index = 1;
  string original_name = 3;
}

message Op {
  string name = 1;
  repeated Pad input_pads = 2;
  repeated Pad output_pads = 3;
  CoreOp core_op = 4;
  NmsOp nms_op = 5;
  LogitsOp logits_op = 6;
}

message Pad {
  uint32 index = 1;
  string name = 2;
  uint32 format_order = 3;       // hailo_format_order_t numbering
  NumericInfo numeric_info = 5;
  TensorShape tensor_shape = 6;
  NmsShape nms_shape = 7;
  uint32 format_type = 8;        // 0 AUTO, 1 UINT8, 2 UINT16
}

message TensorShape {
  uint32 height = 1;
  uint32 padded_height = 2;
  uint32 width = 3;
  uint32 padded_width = 4;
  uint32 features = 5;
  uint32 padded_features = 6;
}

message NmsShape {
  uint32 number_of_classes = 1;
  uint32 max_bboxes_per_class = 2;
  uint32 bbox_size = 3;
  uint32 division_factor = 4;
}

message PadEdge {
  uint32 src = 1;
  uint32 dst = 2;
}

message NmsOp {
  double nms_score_th = 1;
  double nms_iou_th = 2;
  uint32 max_proposals_per_class = 3;
  uint32 classes = 4;
  bool background_removal = 5;
  uint32 background_removal_index = 6;
  NmsKindYolo yolo_nms_op = 7;
  NmsKindYolox yolox_nms_op = 8;
  NmsKindSsd ssd_nms_op = 9;
  NmsKindImage iou_op = 10;
  NmsKindYoloSeg yolo_seg_op = 11;
  NmsKindYolov8 yolov8_nms_op = 12;
  bool bbox_decoding_only = 13;
}

// The NMS kinds share fields 1-2 (input image size); each has its own bbox decoder layout, which
// names its inputs by pad index (hef.proto ProtoHEF*NmsOp / ProtoHEF*BboxDecoder).
message NmsKindImage {
  double image_height = 1;
  double image_width = 2;
}

message NmsKindYolo {
  double image_height = 1;
  double image_width = 2;
  uint32 input_division_factor = 3;
  repeated YoloBboxDecoder bbox_decoders = 4;
}

message YoloBboxDecoder {
  repeated uint32 h = 2;
  repeated uint32 w = 3;
  uint32 stride = 4;
  uint32 pad_index = 5;
}

message NmsKindYolox {
  double image_height = 1;
  double image_width = 2;
  repeated YoloxBboxDecoder bbox_decoders = 3;
}

message YoloxBboxDecoder {
  uint32 stride = 1;
  uint32 reg_pad_index = 2;
  uint32 cls_pad_index = 3;
  uint32 obj_pad_index = 4;
}

message NmsKindSsd {
  double image_height = 1;
  double image_width = 2;
  uint32 centers_scale_factor = 3;
  uint32 bbox_dimensions_scale_factor = 4;
  repeated SsdBboxDecoder bbox_decoders = 9;
}

message SsdBboxDecoder {
  repeated float h = 1;
  repeated float w = 2;
  uint32 reg_pad_index = 3;
  uint32 cls_pad_index = 4;
}

message NmsKindYolov8 {
  double image_height = 1;
  double image_width = 2;
  uint32 input_division_factor = 3;
  repeated Yolov8BboxDecoder bbox_decoders = 4;
  uint32 regression_length = 5;
}

message Yolov8BboxDecoder {
  uint32 stride = 1;
  uint32 reg_pad_index = 2;
  uint32 cls_pad_index = 3;
}

message NmsKindYoloSeg {
  double image_height = 1;
  double image_width = 2;
  repeated YoloBboxDecoder bbox_decoders = 3;
  YoloSegProtoInfo proto_info = 4;
  double mask_threshold = 5;
}

message YoloSegProtoInfo {
  uint32 number = 1;
  uint32 stride = 2;
  string proto_layer = 3;
}

message LogitsOp {
  uint32 logits_type = 1;        // 0 ARGMAX, 1 SOFTMAX
}
`;

/** Fields HailoRT's schema has and ours skips, so messages about them can still name them. */
export const SKIPPED_FIELDS: Record<string, Record<number, string>> = {
  Hef: { 3: 'mapping' },
};

/**
 * The same schema without the context operations and preliminary configs: for readers that do not
 * judge HailoRT's structural rules (a body HailoRT refuses before them, the arch-only reader), so
 * they do not pay for decoding every CCW action.
 */
const LITE_SCHEMA = SCHEMA.replace('package hefview;', 'package hefviewlite;')
  .replace('  repeated Operation operations = 2;\n', '')
  .replace(/  PreliminaryConfig preliminary_config = 2;\n/g, '');

let root: protobuf.Root | undefined;
let liteParsed = false;

/** The schema's root (parsed once): package hefview; hefviewlite (no operations) joins it when first needed. */
export function hefRoot(): protobuf.Root {
  if (!root) {
    root = protobuf.parse(SCHEMA, { keepCase: true }).root;
    decodersOnly(root);
  }
  return root;
}

/** The root with hefviewlite too: parsed on first use (only a damaged body needs it; parsing costs a `hailo-tools hef` run ~10 ms). */
function liteRoot(): protobuf.Root {
  const r = hefRoot();
  if (!liteParsed) {
    protobuf.parse(LITE_SCHEMA, r, { keepCase: true });
    decodersOnly(r.lookup('hefviewlite') as protobuf.Namespace);
    liteParsed = true;
  }
  return r;
}

/**
 * Each type's first decode generates its decoder alone. protobufjs' own first decode runs setup(),
 * which also generates encode, verify, fromObject and toObject — five functions per type, most of
 * a `hailo-tools hef` run's start-up, none of them used by a reader. (encode and the rest still set
 * themselves up when something calls them.)
 */
function decodersOnly(ns: protobuf.NamespaceBase): void {
  for (const o of ns.nestedArray) {
    if (o instanceof protobuf.Type) {
      const type = o;
      type.decode = function decodeFirst(this: protobuf.Type, ...args: Parameters<protobuf.Type['decode']>) {
        const nested = type.fieldsArray.map((f) => f.resolve().resolvedType);
        type.decode = protobuf.decoder(type)({ Reader: protobuf.Reader, types: nested, util: protobuf.util }) as protobuf.Type['decode'];
        return type.decode(...args);
      };
    }
    if (o instanceof protobuf.Namespace) decodersOnly(o);
  }
}

const types = new Map<string, protobuf.Type>();

/** A message type; `lite`: without context operations and preliminary configs. */
export function hefType(name: string, lite = false): protobuf.Type {
  const key = `${lite ? 'hefviewlite' : 'hefview'}.${name}`;
  let t = types.get(key);
  if (!t) types.set(key, (t = (lite ? liteRoot() : hefRoot()).lookupType(key)));
  return t;
}

/** A message type as the generated decoders see it: `new this.ctor`, `types[i].decode(…)`. */
interface PrebuiltType {
  ctor: new () => object;
  decode: (...args: unknown[]) => unknown;
}

let prebuiltTypes: Map<string, PrebuiltType> | undefined;

/**
 * The prebuilt message types (hefDecoders.generated.js, from SCHEMA by scripts/gen-hef-decoders.mjs):
 * protobufjs' own generated constructors and decoders, with a prototype as protobufjs gives its
 * messages (a Message, the fields' defaults, `$type` the reflected type, built only if asked for) —
 * no schema parse, reflection or code generation at start-up. Each decoder is bound on first use.
 */
function prebuilt(name: string): PrebuiltType {
  if (!prebuiltTypes) {
    const made = new Map<string, PrebuiltType>();
    for (const [full, spec] of Object.entries(HEF_MESSAGES)) {
      const ctor = spec.ctor;
      const proto = Object.create(protobuf.Message.prototype) as Record<string, unknown>;
      proto.constructor = ctor;
      Object.defineProperty(proto, '$type', { configurable: true, enumerable: true, get: () => hefType(full.slice('hefview.'.length)) });
      Object.assign(proto, spec.defaults(protobuf.util));
      ctor.prototype = proto;
      const type: PrebuiltType = {
        ctor,
        decode(...args: unknown[]) {
          const nested = spec.types.map((t) => (t ? prebuilt(t) : null));
          type.decode = spec.decoder(protobuf.Reader, nested, protobuf.util);
          return type.decode(...args);
        },
      };
      made.set(full, type);
    }
    prebuiltTypes = made;
  }
  const type = prebuiltTypes.get(name);
  if (!type) throw new Error(`hefDecoders.generated.js has no ${name}: run node scripts/gen-hef-decoders.mjs`);
  return type;
}

/** Decodes a whole HEF body (throws on damage, as protobufjs does): the prebuilt decoders, the same result as hefType('Hef').decode. */
export function decodeHefBody(body: Uint8Array): unknown {
  return prebuilt('hefview.Hef').decode(body);
}

/** protobufjs gives uint64 as Long (or number); this returns an exact bigint. */
export function toBigInt(v: unknown): bigint {
  if (typeof v === 'bigint') return v;
  if (typeof v === 'number') return BigInt(Math.trunc(v));
  if (v && typeof v === 'object' && 'low' in v && 'high' in v) {
    const l = v as { low: number; high: number };
    return (BigInt(l.high >>> 0) << 32n) | BigInt(l.low >>> 0);
  }
  return 0n;
}

/** A uint64 as a JS number (exact up to 2^53; sizes and offsets in a real file are far below). */
export function toNum(v: unknown): number {
  const b = toBigInt(v);
  return b > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(b);
}
