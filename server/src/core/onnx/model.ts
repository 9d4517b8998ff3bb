// The index the lazy reader produces: everything about an ONNX model except its weights.
import type { Dim } from '../common/modelLayers';
import { limit } from '../common/limits';

export type { Dim };
/** A tensor shape; `null` when even the rank is unknown. */
export type Shape = Dim[] | null;

export type TypeInfo =
  | { kind: 'tensor'; elemType: number; shape: Shape }
  | { kind: 'sparse_tensor'; elemType: number; shape: Shape }
  | { kind: 'sequence' | 'map' | 'optional' | 'unknown' };

export interface ValueInfo {
  name: string;
  type: TypeInfo;
}

export interface ExternalRef {
  /** `location` as written in the model (relative to the model's folder). */
  location: string;
  offset: number;
  /** Declared length, or null when the entry leaves it to "the rest of the file". */
  length: number | null;
  /** Absolute path it resolves to, when it stays inside the model's folder. */
  path?: string;
  /** Why the data cannot be used (missing file, outside the folder, beyond its end); not fatal. */
  problem?: string;
}

/** Which TensorProto field holds the data. */
export type DataField = 'raw_data' | 'float_data' | 'int32_data' | 'string_data' | 'int64_data' | 'double_data' | 'uint64_data' | 'external' | 'none';

export interface TensorInfo {
  name: string;
  dataType: number;
  dims: number[];
  /** Size of the tensor's data in bytes (elements × element size; the stored payload for strings). */
  bytes: number;
  dataField: DataField;
  /** File offset and stored length of the data payload (inline data only). */
  dataOffset?: number;
  dataLength?: number;
  external?: ExternalRef;
  /** The payload, copied, only for small tensors (≤ SMALL_TENSOR_BYTES): shape constants, scales. */
  data?: Uint8Array;
}

export type AttributeType =
  | 'undefined'
  | 'float'
  | 'int'
  | 'string'
  | 'tensor'
  | 'graph'
  | 'sparse_tensor'
  | 'type_proto'
  | 'floats'
  | 'ints'
  | 'strings'
  | 'tensors'
  | 'graphs'
  | 'sparse_tensors'
  | 'type_protos';

export interface Attribute {
  name: string;
  type: AttributeType;
  f?: number;
  i?: number;
  s?: string;
  t?: TensorInfo;
  g?: GraphIndex;
  floats?: number[];
  ints?: number[];
  strings?: string[];
  tensors?: TensorInfo[];
  graphs?: GraphIndex[];
  /** Set when the attribute refers to a function's attribute instead of holding a value. */
  refAttrName?: string;
}

export interface NodeInfo {
  index: number;
  name: string;
  opType: string;
  /** '' is the default ai.onnx domain. */
  domain: string;
  inputs: string[];
  outputs: string[];
  attributes: Attribute[];
  /** Subgraphs held by attributes (If/Loop/Scan bodies), by attribute name. */
  subgraphs: { attribute: string; graph: GraphIndex }[];
  /** Byte offset of the NodeProto in the file. */
  offset: number;
}

export interface GraphIndex {
  name: string;
  nodes: NodeInfo[];
  initializers: TensorInfo[];
  sparseInitializers: number;
  inputs: ValueInfo[];
  outputs: ValueInfo[];
  valueInfo: ValueInfo[];
}

export interface ReadProblem {
  code:
    | 'onnx/external-data-missing'
    | 'onnx/external-data-outside'
    | 'onnx/external-data-short'
    | 'onnx/external-data-invalid'
    | 'onnx/invalid-dim'
    | 'onnx/unknown-data-type';
  message: string;
  /** Where the rule comes from (defaults to the external_data entries). */
  evidence?: string;
  /** External data location the problem is about. */
  location?: string;
  /** Tensors affected. */
  tensors?: string[];
}

export interface OnnxModel {
  path?: string;
  fileSize: number;
  irVersion: number;
  producerName: string;
  producerVersion: string;
  domain: string;
  modelVersion: number;
  docString: string;
  /** Operator set versions by domain; '' is ai.onnx. */
  opsets: Record<string, number>;
  metadata: Record<string, string>;
  /** Number of model-local functions (ModelProto.functions). */
  functions: number;
  graph: GraphIndex;
  problems: ReadProblem[];
  /** Bytes fetched from disk to build this index. */
  bytesRead: number;
}

// TensorProto.DataType, including the types added after onnx-proto's schema (IR 9-11).
export const DATA_TYPES: Record<number, { name: string; bits: number }> = {
  1: { name: 'float32', bits: 32 },
  2: { name: 'uint8', bits: 8 },
  3: { name: 'int8', bits: 8 },
  4: { name: 'uint16', bits: 16 },
  5: { name: 'int16', bits: 16 },
  6: { name: 'int32', bits: 32 },
  7: { name: 'int64', bits: 64 },
  8: { name: 'string', bits: 0 },
  9: { name: 'bool', bits: 8 },
  10: { name: 'float16', bits: 16 },
  11: { name: 'float64', bits: 64 },
  12: { name: 'uint32', bits: 32 },
  13: { name: 'uint64', bits: 64 },
  14: { name: 'complex64', bits: 64 },
  15: { name: 'complex128', bits: 128 },
  16: { name: 'bfloat16', bits: 16 },
  17: { name: 'float8e4m3fn', bits: 8 },
  18: { name: 'float8e4m3fnuz', bits: 8 },
  19: { name: 'float8e5m2', bits: 8 },
  20: { name: 'float8e5m2fnuz', bits: 8 },
  21: { name: 'uint4', bits: 4 },
  22: { name: 'int4', bits: 4 },
  23: { name: 'float4e2m1', bits: 4 },
  24: { name: 'float8e8m0', bits: 8 },
  25: { name: 'uint2', bits: 2 },
  26: { name: 'int2', bits: 2 },
};

export const DT = { FLOAT: 1, UINT8: 2, INT8: 3, INT32: 6, INT64: 7, STRING: 8, BOOL: 9, FLOAT16: 10, DOUBLE: 11 } as const;

export function dataTypeName(t: number): string {
  return DATA_TYPES[t]?.name ?? (t === 0 ? '?' : `dtype${t}`);
}

export function isIntegerType(t: number): boolean {
  return t === 2 || t === 3 || t === 4 || t === 5 || t === 6 || t === 7 || t === 12 || t === 13 || t === 9;
}

export function numel(dims: readonly number[]): number {
  let n = 1;
  for (const d of dims) n *= d;
  return n;
}

/** Shapes longer than this show their first dims and their rank (LIMITS.onnxViewShapeDims). */
const SHAPE_TEXT_DIMS = limit('onnxViewShapeDims');

export function formatShape(shape: Shape): string {
  if (shape === null) return '?';
  const dim = (d: Dim) => (d === null ? '?' : String(d));
  // a declared shape of 10⁶ dims, repeated on every line that uses the tensor, made a view of terabytes
  if (shape.length > SHAPE_TEXT_DIMS) return `[${shape.slice(0, 8).map(dim).join(',')},…] (rank ${shape.length})`;
  return `[${shape.map(dim).join(',')}]`;
}

export function isAiOnnx(domain: string): boolean {
  return domain === '' || domain === 'ai.onnx';
}
