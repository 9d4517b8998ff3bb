// Builds small ONNX models in memory with onnx-proto (no python onnx here): one-node operator
// models for the shape-rule table and hand-written graphs for folding fixtures. Deterministic:
// the same spec always encodes to the same bytes.
import { onnx } from 'onnx-proto';

export type DType = 'float' | 'double' | 'float16' | 'int64' | 'int32' | 'int16' | 'int8' | 'uint8' | 'uint16' | 'bool' | 'string';

export const DTYPE_CODE: Record<DType, number> = {
  float: 1,
  uint8: 2,
  int8: 3,
  uint16: 4,
  int16: 5,
  int32: 6,
  int64: 7,
  string: 8,
  bool: 9,
  float16: 10,
  double: 11,
};

/** A graph input (fed at run time) or, with `values`, an initializer. */
export interface TensorSpec {
  name: string;
  dtype: DType;
  dims: number[];
  /** Initializer values (row-major); a graph input when absent. */
  values?: (number | string | bigint)[];
  /** Values fed to ORT for a graph input (default: deterministic random floats, zeros for integers). */
  feed?: (number | string | bigint)[];
  /** Declared dims for a graph input (symbols allowed); default `dims`. */
  declare?: (number | string)[];
}

export type AttrValue = number | string | number[] | { f: number } | { floats: number[] } | { strings: string[] } | { t: TensorSpec } | { g: GraphSpec };

export interface NodeSpec {
  op: string;
  domain?: string;
  inputs: string[];
  outputs: string[];
  attrs?: Record<string, AttrValue>;
  name?: string;
}

export interface ValueSpec {
  name: string;
  /** Omitted: the value carries no type (allowed for graph outputs; ORT infers them). */
  dtype?: DType;
  dims?: (number | string)[];
  /** 'sequence' wraps the tensor type in a sequence, 'optional' in an optional. */
  kind?: 'tensor' | 'sequence' | 'optional';
}

export interface GraphSpec {
  name?: string;
  nodes: NodeSpec[];
  inputs: ValueSpec[];
  outputs: ValueSpec[];
  initializers?: TensorSpec[];
}

export interface ModelSpec {
  graph: GraphSpec;
  /** ai.onnx opset (default 17); other domains by name. */
  opset?: number;
  opsets?: Record<string, number>;
  irVersion?: number;
  /** ModelProto.metadata_props (Ultralytics writes names, imgsz, stride… here). */
  metadata?: Record<string, string>;
}

function rawBytes(t: TensorSpec): Uint8Array {
  const v = t.values ?? [];
  const n = v.length;
  switch (t.dtype) {
    case 'float':
      return new Uint8Array(Float32Array.from(v as number[]).buffer);
    case 'double':
      return new Uint8Array(Float64Array.from(v as number[]).buffer);
    case 'int64':
      return new Uint8Array(BigInt64Array.from(v.map((x) => BigInt(x as number))).buffer);
    case 'int32':
      return new Uint8Array(Int32Array.from(v as number[]).buffer);
    case 'int16':
      return new Uint8Array(Int16Array.from(v as number[]).buffer);
    case 'uint16':
      return new Uint8Array(Uint16Array.from(v as number[]).buffer);
    case 'int8':
      return new Uint8Array(Int8Array.from(v as number[]).buffer);
    case 'uint8':
    case 'bool':
      return Uint8Array.from(v as number[]);
    case 'float16':
      return new Uint8Array(Uint16Array.from((v as number[]).map(toHalf)).buffer);
    default:
      throw new Error(`no raw encoding for ${t.dtype} (${n})`);
  }
}

/** float → IEEE half bits (round toward zero; enough for test constants). */
export function toHalf(x: number): number {
  const f = new Float32Array([x]);
  const u = new Uint32Array(f.buffer)[0];
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  const mant = (u >>> 13) & 0x3ff;
  if (x === 0) return sign;
  if (exp <= 0) return sign;
  if (exp >= 31) return sign | 0x7c00;
  return sign | (exp << 10) | mant;
}

export function tensorProto(t: TensorSpec): onnx.TensorProto {
  const p = onnx.TensorProto.create({ name: t.name, dataType: DTYPE_CODE[t.dtype], dims: t.dims });
  if (t.dtype === 'string') p.stringData = (t.values ?? []).map((s) => new TextEncoder().encode(String(s)));
  else p.rawData = rawBytes(t);
  return p;
}

function typeProto(v: ValueSpec): onnx.TypeProto | undefined {
  if (!v.dtype) return undefined;
  const tensorType = onnx.TypeProto.Tensor.create({ elemType: DTYPE_CODE[v.dtype] });
  if (v.dims) {
    tensorType.shape = onnx.TensorShapeProto.create({
      dim: v.dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })),
    });
  }
  const tensor = onnx.TypeProto.create({ tensorType });
  if (v.kind === 'sequence') return onnx.TypeProto.create({ sequenceType: { elemType: tensor } });
  if (v.kind === 'optional') return onnx.TypeProto.create({ optionalType: { elemType: tensor } });
  return tensor;
}

function attrProto(name: string, v: AttrValue): onnx.AttributeProto {
  const A = onnx.AttributeProto.AttributeType;
  if (typeof v === 'number') return onnx.AttributeProto.create({ name, type: A.INT, i: v });
  if (typeof v === 'string') return onnx.AttributeProto.create({ name, type: A.STRING, s: new TextEncoder().encode(v) });
  if (Array.isArray(v)) return onnx.AttributeProto.create({ name, type: A.INTS, ints: v });
  if ('f' in v) return onnx.AttributeProto.create({ name, type: A.FLOAT, f: v.f });
  if ('floats' in v) return onnx.AttributeProto.create({ name, type: A.FLOATS, floats: v.floats });
  if ('strings' in v) return onnx.AttributeProto.create({ name, type: A.STRINGS, strings: v.strings.map((s) => new TextEncoder().encode(s)) });
  if ('t' in v) return onnx.AttributeProto.create({ name, type: A.TENSOR, t: tensorProto(v.t) });
  return onnx.AttributeProto.create({ name, type: A.GRAPH, g: graphProto(v.g) });
}

function valueInfo(v: ValueSpec): onnx.ValueInfoProto {
  const type = typeProto(v);
  return onnx.ValueInfoProto.create(type ? { name: v.name, type } : { name: v.name });
}

export function graphProto(g: GraphSpec): onnx.GraphProto {
  const inits = g.initializers ?? [];
  return onnx.GraphProto.create({
    name: g.name ?? 'g',
    node: g.nodes.map((n, i) =>
      onnx.NodeProto.create({
        name: n.name ?? `${n.op}_${i}`,
        opType: n.op,
        domain: n.domain ?? '',
        input: n.inputs,
        output: n.outputs,
        attribute: Object.entries(n.attrs ?? {}).map(([k, v]) => attrProto(k, v)),
      }),
    ),
    input: g.inputs.map(valueInfo),
    output: g.outputs.map(valueInfo),
    initializer: inits.map(tensorProto),
  });
}

export function modelProto(m: ModelSpec): onnx.ModelProto {
  const opsets = { '': m.opset ?? 17, ...(m.opsets ?? {}) };
  return onnx.ModelProto.create({
    irVersion: m.irVersion ?? 8,
    producerName: 'hailo-tools test builder',
    opsetImport: Object.entries(opsets).map(([domain, version]) => ({ domain, version })),
    graph: graphProto(m.graph),
    ...(m.metadata ? { metadataProps: Object.entries(m.metadata).map(([key, value]) => ({ key, value })) } : {}),
  });
}

export function encodeModel(m: ModelSpec): Uint8Array {
  return onnx.ModelProto.encode(modelProto(m)).finish();
}

/**
 * A model's initializers of at least `threshold` bytes moved into one external data file, as
 * `onnx.save_model(..., save_as_external_data=True, all_tensors_to_one_file=True, location=…)` does
 * (its default size_threshold is 1024 bytes): each moved tensor gets data_location EXTERNAL and
 * `location`/`offset`/`length` entries, its raw_data goes to `data`. Smaller ones stay inline
 * (onnxruntime's shape inference reads e.g. Pad's pads from raw data).
 */
export function withExternalData(model: Uint8Array, location: string, threshold = 1024): { model: Uint8Array; data: Uint8Array } {
  const m = onnx.ModelProto.decode(model);
  const parts: Uint8Array[] = [];
  let offset = 0;
  for (const t of m.graph?.initializer ?? []) {
    if (!t.rawData || t.rawData.length < threshold) continue;
    const bytes = Uint8Array.from(t.rawData);
    t.externalData = [
      onnx.StringStringEntryProto.create({ key: 'location', value: location }),
      onnx.StringStringEntryProto.create({ key: 'offset', value: String(offset) }),
      onnx.StringStringEntryProto.create({ key: 'length', value: String(bytes.length) }),
    ];
    t.dataLocation = onnx.TensorProto.DataLocation.EXTERNAL;
    t.rawData = new Uint8Array(0);
    parts.push(bytes);
    offset += bytes.length;
  }
  const data = new Uint8Array(offset);
  parts.reduce((at, p) => (data.set(p, at), at + p.length), 0);
  return { model: onnx.ModelProto.encode(m).finish(), data };
}
