// The decoded HEF protobuf messages, as far as facts.ts and resources.ts read them: hand-written
// interfaces over what protobufjs hands back from schema.ts (hailort's hef.proto). Every field is
// optional (proto3 leaves defaults out; a damaged body is decoded partly), 64-bit integers may come
// as protobufjs Longs (read them with schema.ts `toNum`). Names are the proto's own.
import type * as protobuf from 'protobufjs';

export type Int64 = number | protobuf.Long;

export interface ProtoHef {
  header?: ProtoHeader;
  extensions?: ProtoExtension[];
  optional_extensions?: ProtoExtension[];
  included_features?: { is_multi_context?: boolean };
  network_groups?: ProtoNetworkGroup[];
  external_resources?: ProtoExternalResource[];
}

export interface ProtoHeader {
  hw_arch?: number;
  sdk_version_str?: string;
  sdk_version?: { sdk_version_major?: number; sdk_version_minor?: number; sdk_version_revision?: number };
  timestamp?: Int64;
  version?: Int64;
}

export interface ProtoExtension {
  type_index?: number;
  name?: string;
}

export interface ProtoExternalResource {
  name?: string;
  offset?: Int64;
  size?: Int64;
  xxhash?: Int64;
}

/** A network group, or a core op (the same message shape holds contexts in both). */
export interface ProtoNetworkGroup {
  network_group_name?: string;
  network_group_metadata?: ProtoNetworkGroupMetadata;
  networks_names?: string[];
  preliminary_config?: { operation?: ProtoOperation[] };
  contexts?: ProtoContext[];
  sorted_outputs_order?: string[];
  fused_layers_metadata?: ProtoFusedLayersMetadata;
  partial_network_groups?: { network_group?: ProtoNetworkGroup }[];
  partial_core_ops?: { core_op?: ProtoNetworkGroup }[];
  ops?: ProtoOp[];
  pad_edges?: { src?: number; dst?: number }[];
}

export interface ProtoNetworkGroupMetadata {
  network_group_name?: string;
  network_group_index?: number;
  transposed_net?: boolean;
  bottleneck_fps?: number;
  latency?: number;
  computational_ops?: Int64;
}

export interface ProtoContext {
  operations?: ProtoOperation[];
  metadata?: { edge_layers?: ProtoEdgeLayer[]; sorted_outputs_order?: string[] };
}

/** ProtoHEFOperation: the trigger and actions are oneofs; only which case is set is decoded. */
export interface ProtoOperation {
  trigger?: Record<string, unknown>;
  actions?: ProtoAction[];
}

export interface ProtoAction extends Record<string, unknown> {
  write_data_ccw_ptr?: { offset?: Int64; size?: number; cfg_channel_index?: number };
}

export interface ProtoEdgeLayer {
  direction?: number;
  edge_layer_type?: number;
  network_index?: number;
  pad_index?: number;
  context_switch_info?: { edge_connection_type?: number; connected_contexts?: { index?: number }[] };
  layer_info?: ProtoLayerInfo;
  layer_mux?: ProtoLayerMux;
  layer_planes?: ProtoLayerPlanes;
}

export interface ProtoLayerInfo {
  name?: string;
  edge_layer_base?: ProtoEdgeLayerBase;
  numeric_info?: ProtoNumericInfo;
  transposed?: boolean;
  hn_output_layer_name?: string;
  original_names?: string[];
}

export interface ProtoLayerMux extends ProtoLayerInfo {
  predecessors?: { layer_info?: ProtoLayerInfo; layer_mux?: ProtoLayerMux }[];
}

export interface ProtoLayerPlanes {
  name?: string;
  planes_format?: number;
  height?: number;
  width?: number;
  features?: number;
  planes?: { layer_info?: ProtoLayerInfo }[];
}

export interface ProtoEdgeLayerBase {
  format?: number;
  data_bytes?: number;
  host_argmax?: boolean;
  height?: number;
  width?: number;
  features?: number;
  padded_height?: number;
  padded_width?: number;
  padded_features?: number;
  sys_index?: number;
  core_bytes_per_buffer?: number;
  core_buffers_per_frame?: number;
  buffer_indices?: { index?: number; cluster_index?: number }[];
  additional_info?: { nms_info?: ProtoNmsInfo };
}

export interface ProtoNmsInfo {
  number_of_classes?: Int64;
  max_output_size?: Int64;
  input_division_factor?: Int64;
  is_defused?: boolean;
  defuse_info?: { original_name?: string };
}

export interface ProtoNumericInfo {
  qp_zp?: number;
  qp_scale?: number;
  limvals_min?: number;
  limvals_max?: number;
  qp_zps?: number[];
  qp_scales?: number[];
}

export interface ProtoFusedLayersMetadata {
  network_has_fused_layers?: boolean;
  fused_layers?: { layer_info?: ProtoLayerInfo; nms_info?: ProtoNmsInfo }[];
  updated_sorted_output_names?: string[];
}

export interface ProtoPad {
  index?: number;
  name?: string;
  format_order?: number;
  format_type?: number;
  tensor_shape?: { height?: number; width?: number; features?: number };
}

/** The per-kind NMS message (yolo_nms_op, ssd_nms_op, …): the fields read of any of them. */
export interface ProtoNmsKind {
  image_height?: number;
  image_width?: number;
  input_division_factor?: number;
  mask_threshold?: number;
  /** YOLOv8 only. */
  regression_length?: number;
  /** Per kind: YOLOv5/seg `pad_index` (+ anchors), YOLOv8 `reg/cls_pad_index`, YOLOX `+ obj_pad_index`, SSD (+ anchors). */
  bbox_decoders?: {
    stride?: number;
    pad_index?: number;
    reg_pad_index?: number;
    cls_pad_index?: number;
    obj_pad_index?: number;
    h?: number[];
    w?: number[];
  }[];
}

export type NmsKindField = 'yolo_nms_op' | 'yolox_nms_op' | 'ssd_nms_op' | 'iou_op' | 'yolo_seg_op' | 'yolov8_nms_op';

export type ProtoNmsOp = {
  nms_score_th?: number;
  nms_iou_th?: number;
  max_proposals_per_class?: number;
  classes?: number;
  background_removal?: boolean;
  background_removal_index?: number;
  bbox_decoding_only?: boolean;
} & { [K in NmsKindField]?: ProtoNmsKind };

export interface ProtoOp {
  name?: string;
  core_op?: ProtoNetworkGroup;
  input_pads?: ProtoPad[];
  output_pads?: ProtoPad[];
  nms_op?: ProtoNmsOp;
  logits_op?: { logits_type?: number };
}

/** The decoded body (protoDecode's `Msg`) seen through these interfaces. */
export const asHef = (m: object): ProtoHef => m as ProtoHef;
