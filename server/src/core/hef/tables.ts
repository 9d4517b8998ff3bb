// Name tables for the numbers a HEF stores (docs/research/hef-format.md#protobuf-schema, docs/research/hef-format.md#name-tables). Kept as data so the
// reader, the CLI and the inspector agree on every name.

/** ProtoHEFHwArch value → name (as HailoRT master names it; 5 is HAILO10H in 4.x). */
export const HW_ARCH_NAMES: Record<number, string> = {
  0: 'HAILO8',
  1: 'HAILO8P',
  2: 'HAILO8R',
  3: 'HAILO8L',
  4: 'HAILO15M',
  5: 'HAILO10H',
  6: 'HAILO15L',
  100: 'SAGE_A0',
  101: 'SAGE_B0',
  102: 'PAPRIKA_B0',
  103: 'HAILO1XH',
  104: 'GINGER',
  105: 'LAVENDER',
  106: 'PLUTO',
  108: 'MARS',
};

/** HEF arch → device archs HailoRT accepts it on (`hef_arch_to_device_compatible_archs`). */
export const COMPATIBLE_DEVICES: Record<number, string[]> = {
  0: ['HAILO8'],
  1: ['HAILO8'],
  2: ['HAILO8'],
  101: ['HAILO8'],
  102: ['HAILO8'],
  100: ['HAILO8_A0'],
  3: ['HAILO8L', 'HAILO8'],
  103: ['HAILO15H', 'HAILO10H'],
  104: ['HAILO15H', 'HAILO10H'],
  105: ['HAILO15H', 'HAILO10H'],
  106: ['HAILO15L'],
  6: ['HAILO15L'],
  4: ['HAILO15M', 'HAILO15H', 'HAILO10H'],
  108: ['HAILO12L'],
};

/** Archs whose HEFs carry per-layout partial network groups (the parser uses the first). */
export const MULTI_LAYOUT_ARCHS = new Set([3, 4]);

/** ProtoHEFExtensionType value → name. */
export const EXTENSION_NAMES: Record<number, string> = {
  0: 'ABBALE',
  1: 'POSTED_WRITES',
  2: 'DDR',
  3: 'PADDED_DDR_BUFFERS',
  4: 'IS_MULTI_CONTEXTS',
  5: 'COMPRESSED_PARAMS',
  6: 'TRANSPOSE_COMPONENT',
  7: 'TEST_ONE',
  8: 'MULTI_NETWORK_VARIABLE_BATCH_SIZE',
  9: 'IS_NMS_MULTI_CONTEXT',
  10: 'OFFLOAD_ARGMAX',
  11: 'HW_PADDING',
  12: 'KO_RUN_ASAP',
  13: 'HAILO_NET_FLOW',
  14: 'HAILO_NET_FLOW_YOLOV5_NMS',
  15: 'HAILO_NET_FLOW_YOLOX_NMS',
  16: 'HAILO_NET_FLOW_SSD_NMS',
  17: 'HAILO_NET_FLOW_IOU_NMS',
  18: 'WRITE_DATA_BY_TYPE',
  19: 'NMS_OUTPUT_BURST',
  20: 'DUAL_DIRECTION_STREAM_INDEX',
  21: 'HAILO_NET_FLOW_ARGMAX',
  22: 'HAILO_NET_FLOW_SOFTMAX',
  23: 'ALIGNED_FORMAT_TYPE',
  24: 'HAILO_NET_FLOW_YOLOV5_SEG_NMS',
  25: 'OUTPUT_SCALE_PER_FEATURE',
  26: 'PERIPH_CALCULATION_IN_HAILORT',
  27: 'HAILO_NET_FLOW_YOLOV8_NMS',
  28: 'BATCH_REGISTER_CONFIG',
  29: 'HAILO_NET_FLOW_BBOX_DECODING',
  30: 'CCW_PTR_SQUEEZE',
  31: 'EXTERNAL_RESOURCES',
  32: 'SHARED_CONFIG',
  33: 'CSM_CRC',
  34: 'ENABLE_CONFIG_CHANNELS',
  35: 'STRICT_RUNTIME_VERSIONING',
  65535: 'UNUSED',
};

/**
 * Required extensions HailoRT 5.2 (master) can open; anything else in `extensions` makes it refuse
 * the file ("unsupported extensions"). Not in the list: 7 TEST_ONE, 8 (optional-only), 65535.
 */
export const SUPPORTED_EXTENSIONS = new Set([
  0, 1, 2, 3, 4, 5, 6, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35,
]);

export const EXT = {
  IS_MULTI_CONTEXTS: 4,
  MULTI_NETWORK_VARIABLE_BATCH_SIZE: 8,
  HAILO_NET_FLOW: 13,
  NMS_OUTPUT_BURST: 19,
  OUTPUT_SCALE_PER_FEATURE: 25,
  PERIPH_CALCULATION_IN_HAILORT: 26,
  EXTERNAL_RESOURCES: 31,
} as const;

/** hailo_format_order_t numbering → our canonical name (JSON, tables). */
export const FORMAT_ORDERS: Record<number, string> = {
  0: 'AUTO',
  1: 'NHWC',
  2: 'NHCW',
  3: 'FCR',
  4: 'F8CR',
  5: 'NHW',
  6: 'NC',
  7: 'BAYER_RGB',
  8: '12_BIT_BAYER_RGB',
  9: 'HAILO_NMS',
  10: 'RGB888',
  11: 'NCHW',
  12: 'YUY2',
  13: 'NV12',
  14: 'NV21',
  15: 'HAILO_YYUV',
  16: 'HAILO_YYVU',
  17: 'RGB4',
  18: 'I420',
  19: 'HAILO_YYYYUV',
  20: 'HAILO_NMS_WITH_BYTE_MASK',
  21: 'HAILO_NMS_ON_CHIP',
  22: 'HAILO_NMS_BY_CLASS',
  23: 'HAILO_NMS_BY_SCORE',
};

/** How `hailortcli parse-hef` spells an order (HailoRTCommon::get_format_order_str). */
export const FORMAT_ORDER_DISPLAY: Record<string, string> = {
  BAYER_RGB: 'BAYER RGB',
  '12_BIT_BAYER_RGB': '12 BIT BAYER RGB',
  RGB888: 'RGB 888',
  HAILO_YYUV: 'YYUV',
  HAILO_YYVU: 'YYVU',
  HAILO_YYYYUV: 'YYYYUV',
  HAILO_NMS: 'HAILO NMS',
  HAILO_NMS_WITH_BYTE_MASK: 'HAILO NMS WITH BYTE MASK',
  HAILO_NMS_ON_CHIP: 'HAILO NMS ON CHIP',
  HAILO_NMS_BY_CLASS: 'HAILO NMS BY CLASS',
  HAILO_NMS_BY_SCORE: 'HAILO NMS BY SCORE',
};

/** Compiler format code (`ProtoHEFEdgeLayerBase.format`) → device format order. */
export const DEVICE_ORDER_BY_COMPILER_FORMAT: Record<number, string> = {
  0: 'NHWC',
  1: 'NHCW',
  2: 'NC',
  3: 'FCR',
  4: 'BAYER_RGB',
  5: 'NHW',
  6: 'HAILO_NMS_ON_CHIP',
  7: 'F8CR',
  8: 'RGB888',
  11: 'YUY2',
  13: 'NHWC',
  14: 'HAILO_YYUV',
  15: 'HAILO_YYVU',
  16: 'HAILO_YYYYUV',
};

/** Device order → default host (vstream) order (`DEFAULT_FORMAT_ORDER_MAP`). */
export const HOST_ORDER_BY_DEVICE_ORDER: Record<string, string> = {
  NHWC: 'NHWC',
  NHCW: 'NHWC',
  FCR: 'FCR',
  F8CR: 'F8CR',
  NHW: 'NHW',
  NC: 'NC',
  BAYER_RGB: 'BAYER_RGB',
  '12_BIT_BAYER_RGB': '12_BIT_BAYER_RGB',
  RGB888: 'NHWC',
  NCHW: 'NCHW',
  YUY2: 'YUY2',
  HAILO_YYUV: 'NV12',
  HAILO_YYVU: 'NV21',
  HAILO_YYYYUV: 'I420',
  HAILO_NMS_ON_CHIP: 'HAILO_NMS_BY_CLASS',
};

export const PLANES_ORDERS: Record<number, string> = { 0: 'NV12', 1: 'NV21', 2: 'I420' };

/** Bytes per element of a host format type. */
export const TYPE_BYTES: Record<string, number> = { UINT8: 1, UINT16: 2, FLOAT32: 4 };

/** `ProtoHEFFormatType` of an op pad. */
export const PAD_FORMAT_TYPES: Record<number, string> = { 0: 'AUTO', 1: 'UINT8', 2: 'UINT16' };

export function hwArchName(id: number): string {
  return HW_ARCH_NAMES[id] ?? `UNKNOWN(${id})`;
}

export function extensionName(id: number): string {
  return EXTENSION_NAMES[id] ?? `UNKNOWN(${id})`;
}

export function orderDisplay(order: string): string {
  return FORMAT_ORDER_DISPLAY[order] ?? order;
}
