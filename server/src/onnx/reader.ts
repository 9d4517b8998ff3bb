// Lazy ONNX reader: walks ModelProto with positional reads and records everything but the weights.
// `raw_data` and the typed data fields of initializers and Constant attributes are skipped on disk
// (only tensors of at most SMALL_TENSOR_BYTES are copied: they are the shape constants inference needs).
// Field numbers are those of onnx/onnx.proto (stable since IR 3).
import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { BufferSource, FileSource, type ByteSource } from './source';
import { OnnxReadError, Wire, WT_I32, WT_LEN, WT_VARINT, type Field } from './wire';
import {
  DATA_TYPES,
  numel,
  type Attribute,
  type AttributeType,
  type DataField,
  type ExternalRef,
  type GraphIndex,
  type NodeInfo,
  type OnnxModel,
  type ReadProblem,
  type Shape,
  type TensorInfo,
  type TypeInfo,
  type ValueInfo,
} from './model';

export { OnnxReadError };

/** Tensors whose payload is at most this many bytes are copied into the index (shape constants). */
export const SMALL_TENSOR_BYTES = 4096;

export interface ReadOptions {
  /** Window size for positional reads (bytes). */
  windowSize?: number;
  /** Folder external data is resolved against (default: the model's folder). */
  baseDir?: string;
}

/** Index a model file without loading its weights. Throws OnnxReadError for unreadable input. */
export function readOnnxFile(path: string, options: ReadOptions = {}): OnnxModel {
  let src: FileSource;
  try {
    src = new FileSource(path, options.windowSize);
  } catch (err) {
    throw new OnnxReadError('io', `cannot open ${path}: ${(err as Error).message}`);
  }
  try {
    const model = readOnnx(src, { ...options, baseDir: options.baseDir ?? dirname(resolve(path)) });
    model.path = path;
    return model;
  } finally {
    src.close();
  }
}

/** Index a model held in memory (tests, web). External data resolves against baseDir if given. */
export function readOnnxBuffer(buf: Uint8Array, options: ReadOptions = {}): OnnxModel {
  return readOnnx(new BufferSource(buf), options);
}

const ATTR_TYPES: AttributeType[] = [
  'undefined',
  'float',
  'int',
  'string',
  'tensor',
  'graph',
  'floats',
  'ints',
  'strings',
  'tensors',
  'graphs',
  'sparse_tensor',
  'sparse_tensors',
  'type_proto',
  'type_protos',
];

const DATA_FIELDS: Record<number, DataField> = {
  4: 'float_data',
  5: 'int32_data',
  6: 'string_data',
  7: 'int64_data',
  9: 'raw_data',
  10: 'double_data',
  11: 'uint64_data',
};

export function readOnnx(src: ByteSource, options: ReadOptions = {}): OnnxModel {
  if (src.size === 0) throw new OnnxReadError('not-onnx', 'the file is empty');
  const wire = new Wire(src);
  const reader = new ModelReader(wire, options.baseDir);
  const model = reader.model();
  return model;
}

class ModelReader {
  readonly problems: ReadProblem[] = [];
  private readonly pendingExternal: TensorInfo[] = [];

  constructor(
    private readonly w: Wire,
    private readonly baseDir: string | undefined,
  ) {}

  model(): OnnxModel {
    const w = this.w;
    const m: OnnxModel = {
      fileSize: w.src.size,
      irVersion: 0,
      producerName: '',
      producerVersion: '',
      domain: '',
      modelVersion: 0,
      docString: '',
      opsets: {},
      metadata: {},
      functions: 0,
      graph: emptyGraph(),
      problems: this.problems,
      bytesRead: 0,
    };
    let sawGraph = false;
    let sawIr = false;
    try {
      this.modelFields(m, (graph, ir) => ((sawGraph ||= graph), (sawIr ||= ir)));
    } catch (err) {
      // Failing on the very first bytes means this is not a protobuf ModelProto at all.
      if (err instanceof OnnxReadError && !sawGraph && !sawIr && (err.offset ?? 0) < 16 && err.kind === 'corrupt') {
        throw new OnnxReadError('not-onnx', `not an ONNX model: the first bytes are not a protobuf ModelProto (${err.message})`, err.offset);
      }
      throw err;
    }
    // A protobuf parser accepts nearly any bytes; demand the parts every model has.
    if (!sawGraph || !sawIr) {
      throw new OnnxReadError(
        'not-onnx',
        `not an ONNX model: ${!sawGraph ? 'no graph' : 'no ir_version'} found in ${w.src.size} bytes`,
      );
    }
    if (m.irVersion < 1 || m.irVersion > 64) throw new OnnxReadError('not-onnx', `not an ONNX model: ir_version ${m.irVersion} is implausible`);
    this.resolveExternal();
    m.bytesRead = w.src.bytesRead;
    return m;
  }

  private modelFields(m: OnnxModel, saw: (graph: boolean, ir: boolean) => void): void {
    const w = this.w;
    for (const f of w.fields(0, w.src.size, 'ModelProto')) {
      switch (f.no) {
        case 1:
          expectWt(f, WT_VARINT, 'ModelProto.ir_version');
          m.irVersion = f.value;
          saw(false, true);
          break;
        case 2:
          m.producerName = this.str(f, 'producer_name');
          break;
        case 3:
          m.producerVersion = this.str(f, 'producer_version');
          break;
        case 4:
          m.domain = this.str(f, 'domain');
          break;
        case 5:
          expectWt(f, WT_VARINT, 'ModelProto.model_version');
          m.modelVersion = f.value;
          break;
        case 6:
          m.docString = this.str(f, 'doc_string', 4096);
          break;
        case 7:
          expectWt(f, WT_LEN, 'ModelProto.graph');
          m.graph = this.graph(f.pos, f.pos + f.len);
          saw(true, false);
          break;
        case 8: {
          expectWt(f, WT_LEN, 'ModelProto.opset_import');
          let domain = '';
          let version = 0;
          for (const g of w.fields(f.pos, f.pos + f.len, 'OperatorSetIdProto')) {
            if (g.no === 1) domain = this.str(g, 'opset domain');
            else if (g.no === 2 && g.wt === WT_VARINT) version = g.value;
          }
          m.opsets[domain === 'ai.onnx' ? '' : domain] = version;
          break;
        }
        case 14: {
          expectWt(f, WT_LEN, 'ModelProto.metadata_props');
          const [k, v] = this.keyValue(f);
          m.metadata[k] = v;
          break;
        }
        case 25:
          m.functions++;
          break;
        default:
          break; // training_info, configuration and future fields: not needed for the index
      }
    }
  }

  private str(f: Field, what: string, max?: number): string {
    expectWt(f, WT_LEN, what);
    return this.w.string(f, max);
  }

  private keyValue(f: Field): [string, string] {
    let k = '';
    let v = '';
    for (const g of this.w.fields(f.pos, f.pos + f.len, 'StringStringEntryProto')) {
      if (g.no === 1) k = this.str(g, 'key');
      else if (g.no === 2) v = this.str(g, 'value', 4096);
    }
    return [k, v];
  }

  graph(start: number, end: number): GraphIndex {
    const g = emptyGraph();
    for (const f of this.w.fields(start, end, 'GraphProto')) {
      switch (f.no) {
        case 1:
          expectWt(f, WT_LEN, 'GraphProto.node');
          g.nodes.push(this.node(f, g.nodes.length));
          break;
        case 2:
          g.name = this.str(f, 'graph name');
          break;
        case 5:
          expectWt(f, WT_LEN, 'GraphProto.initializer');
          g.initializers.push(this.tensor(f.pos, f.pos + f.len));
          break;
        case 11:
          expectWt(f, WT_LEN, 'GraphProto.input');
          g.inputs.push(this.valueInfo(f));
          break;
        case 12:
          expectWt(f, WT_LEN, 'GraphProto.output');
          g.outputs.push(this.valueInfo(f));
          break;
        case 13:
          expectWt(f, WT_LEN, 'GraphProto.value_info');
          g.valueInfo.push(this.valueInfo(f));
          break;
        case 15:
          g.sparseInitializers++;
          break;
        default:
          break; // doc_string, quantization_annotation, metadata_props
      }
    }
    return g;
  }

  node(f: Field, index: number): NodeInfo {
    const n: NodeInfo = { index, name: '', opType: '', domain: '', inputs: [], outputs: [], attributes: [], subgraphs: [], offset: f.pos };
    for (const g of this.w.fields(f.pos, f.pos + f.len, 'NodeProto')) {
      switch (g.no) {
        case 1:
          n.inputs.push(this.str(g, 'node input'));
          break;
        case 2:
          n.outputs.push(this.str(g, 'node output'));
          break;
        case 3:
          n.name = this.str(g, 'node name');
          break;
        case 4:
          n.opType = this.str(g, 'op_type');
          break;
        case 7:
          n.domain = this.str(g, 'node domain');
          if (n.domain === 'ai.onnx') n.domain = '';
          break;
        case 5: {
          expectWt(g, WT_LEN, 'NodeProto.attribute');
          const a = this.attribute(g);
          n.attributes.push(a);
          if (a.g) n.subgraphs.push({ attribute: a.name, graph: a.g });
          for (const sg of a.graphs ?? []) n.subgraphs.push({ attribute: a.name, graph: sg });
          break;
        }
        default:
          break;
      }
    }
    return n;
  }

  attribute(f: Field): Attribute {
    const w = this.w;
    const a: Attribute = { name: '', type: 'undefined' };
    let declared = 0;
    for (const g of w.fields(f.pos, f.pos + f.len, 'AttributeProto')) {
      switch (g.no) {
        case 1:
          a.name = this.str(g, 'attribute name');
          break;
        case 20:
          expectWt(g, WT_VARINT, 'AttributeProto.type');
          declared = g.value;
          break;
        case 21:
          a.refAttrName = this.str(g, 'ref_attr_name');
          break;
        case 2:
          expectWt(g, WT_I32, 'AttributeProto.f');
          a.f = w.float32(g.pos);
          break;
        case 3:
          expectWt(g, WT_VARINT, 'AttributeProto.i');
          a.i = g.value;
          break;
        case 4:
          a.s = this.str(g, 'AttributeProto.s', 1 << 16);
          break;
        case 5:
          expectWt(g, WT_LEN, 'AttributeProto.t');
          a.t = this.tensor(g.pos, g.pos + g.len);
          break;
        case 6:
          expectWt(g, WT_LEN, 'AttributeProto.g');
          a.g = this.graph(g.pos, g.pos + g.len);
          break;
        case 7:
          w.floats(g, (a.floats ??= []));
          break;
        case 8:
          w.int64s(g, (a.ints ??= []));
          break;
        case 9:
          (a.strings ??= []).push(this.str(g, 'AttributeProto.strings', 1 << 16));
          break;
        case 10:
          expectWt(g, WT_LEN, 'AttributeProto.tensors');
          (a.tensors ??= []).push(this.tensor(g.pos, g.pos + g.len));
          break;
        case 11:
          expectWt(g, WT_LEN, 'AttributeProto.graphs');
          (a.graphs ??= []).push(this.graph(g.pos, g.pos + g.len));
          break;
        default:
          break; // doc_string, sparse tensors, type protos: not needed
      }
    }
    a.type = ATTR_TYPES[declared] ?? 'undefined';
    if (a.type === 'undefined') a.type = inferAttrType(a);
    return a;
  }

  /** TensorProto without its data: dims, type, name, where the data lives. */
  tensor(start: number, end: number): TensorInfo {
    const w = this.w;
    const t: TensorInfo = { name: '', dataType: 0, dims: [], bytes: 0, dataField: 'none' };
    let external = false;
    const ext: Record<string, string> = {};
    for (const f of w.fields(start, end, 'TensorProto')) {
      switch (f.no) {
        case 1:
          w.int64s(f, t.dims);
          break;
        case 2:
          expectWt(f, WT_VARINT, 'TensorProto.data_type');
          t.dataType = f.value;
          break;
        case 8:
          t.name = this.str(f, 'tensor name');
          break;
        case 13: {
          expectWt(f, WT_LEN, 'TensorProto.external_data');
          const [k, v] = this.keyValue(f);
          ext[k] = v;
          break;
        }
        case 14:
          external = f.value === 1;
          break;
        default: {
          const field = DATA_FIELDS[f.no];
          if (!field) break; // segment, doc_string, metadata
          if (field === 'string_data') {
            // repeated bytes: one field per element; keep the running total only
            t.dataField = field;
            t.dataOffset ??= f.pos;
            t.dataLength = (t.dataLength ?? 0) + f.len;
            break;
          }
          if (f.wt !== WT_LEN) {
            // unpacked repeated scalar: rare (old writers); count stored bytes only
            t.dataField = field;
            t.dataLength = (t.dataLength ?? 0) + f.len;
            break;
          }
          t.dataField = field;
          t.dataOffset = f.pos;
          t.dataLength = f.len;
        }
      }
    }
    const info = DATA_TYPES[t.dataType];
    if (t.dataField === 'string_data' || !info || info.bits === 0) t.bytes = t.dataLength ?? 0;
    else t.bytes = Math.ceil((numel(t.dims) * info.bits) / 8);
    if (external) {
      t.dataField = 'external';
      t.external = {
        location: ext.location ?? '',
        offset: ext.offset ? Number(ext.offset) : 0,
        length: ext.length ? Number(ext.length) : null,
      };
      delete t.dataOffset;
      delete t.dataLength;
      this.pendingExternal.push(t);
    } else if (t.dataOffset !== undefined && t.dataLength !== undefined && t.dataLength <= SMALL_TENSOR_BYTES) {
      t.data = w.bytes(t.dataOffset, t.dataLength);
    }
    return t;
  }

  valueInfo(f: Field): ValueInfo {
    const v: ValueInfo = { name: '', type: { kind: 'unknown' } };
    for (const g of this.w.fields(f.pos, f.pos + f.len, 'ValueInfoProto')) {
      if (g.no === 1) v.name = this.str(g, 'value name');
      else if (g.no === 2 && g.wt === WT_LEN) v.type = this.typeProto(g);
    }
    return v;
  }

  typeProto(f: Field): TypeInfo {
    for (const g of this.w.fields(f.pos, f.pos + f.len, 'TypeProto')) {
      if (g.wt !== WT_LEN) continue;
      if (g.no === 1 || g.no === 8) {
        let elemType = 0;
        let shape: Shape = null;
        for (const h of this.w.fields(g.pos, g.pos + g.len, 'TypeProto.Tensor')) {
          if (h.no === 1 && h.wt === WT_VARINT) elemType = h.value;
          else if (h.no === 2 && h.wt === WT_LEN) shape = this.shape(h);
        }
        return { kind: g.no === 1 ? 'tensor' : 'sparse_tensor', elemType, shape };
      }
      if (g.no === 4) return { kind: 'sequence' };
      if (g.no === 5) return { kind: 'map' };
      if (g.no === 9) return { kind: 'optional' };
    }
    return { kind: 'unknown' };
  }

  shape(f: Field): Shape {
    const dims: Shape = [];
    for (const g of this.w.fields(f.pos, f.pos + f.len, 'TensorShapeProto')) {
      if (g.no !== 1 || g.wt !== WT_LEN) continue;
      let d: number | string | null = null;
      for (const h of this.w.fields(g.pos, g.pos + g.len, 'Dimension')) {
        if (h.no === 1 && h.wt === WT_VARINT) d = h.value;
        else if (h.no === 2 && h.wt === WT_LEN) d = this.w.string(h) || null;
      }
      dims.push(d);
    }
    return dims;
  }

  /** Checks every external reference: file present, inside the model's folder, long enough. */
  private resolveExternal(): void {
    const sizes = new Map<string, number | string>();
    const base = this.baseDir;
    for (const t of this.pendingExternal) {
      const ref = t.external as ExternalRef;
      if (!base) {
        ref.problem = 'external data cannot be resolved for a model read from memory';
        continue;
      }
      const problem = checkLocation(base, ref, sizes);
      if (problem) {
        ref.problem = problem.message;
        // one problem per file and kind, listing the tensors it affects
        const same = this.problems.find((p) => p.code === problem.code && p.location === ref.location);
        if (same) same.tensors!.push(t.name);
        else this.problems.push({ ...problem, location: ref.location, tensors: [t.name] });
        continue;
      }
      const length = ref.length ?? (sizes.get(ref.path!) as number) - ref.offset;
      if (length <= SMALL_TENSOR_BYTES && length > 0) {
        const src = new FileSource(ref.path!, Math.max(length, 64));
        try {
          t.data = Uint8Array.from(src.read(ref.offset, length));
        } finally {
          src.close();
        }
      }
    }
  }
}

function checkLocation(base: string, ref: ExternalRef, sizes: Map<string, number | string>): ReadProblem | undefined {
  // ONNX's ExternalDataSecurity: the location must stay inside the model's folder.
  if (!ref.location || isAbsolute(ref.location) || ref.location.split(/[\\/]/).includes('..')) {
    return { code: 'onnx/external-data-outside', message: `external data location '${ref.location}' leaves the model's folder; not read` };
  }
  const path = resolve(base, ref.location);
  let size = sizes.get(path);
  if (size === undefined) {
    try {
      if (!existsSync(path)) size = 'missing';
      else {
        const real = realpathSync(path);
        const rel = relative(realpathSync(base), real);
        size = rel.startsWith('..') || isAbsolute(rel) || rel.split(sep)[0] === '..' ? 'outside' : statSync(real).size;
      }
    } catch {
      size = 'missing';
    }
    sizes.set(path, size);
  }
  if (size === 'missing') return { code: 'onnx/external-data-missing', message: `external data file '${ref.location}' is missing` };
  if (size === 'outside') {
    return { code: 'onnx/external-data-outside', message: `external data file '${ref.location}' links outside the model's folder; not read` };
  }
  ref.path = path;
  const end = ref.offset + (ref.length ?? 0);
  if (end > (size as number)) {
    return {
      code: 'onnx/external-data-short',
      message: `external data '${ref.location}' is ${size} bytes, but the tensor needs bytes ${ref.offset}..${end}`,
    };
  }
  return undefined;
}

function emptyGraph(): GraphIndex {
  return { name: '', nodes: [], initializers: [], sparseInitializers: 0, inputs: [], outputs: [], valueInfo: [] };
}

function expectWt(f: Field, wt: number, what: string): void {
  if (f.wt !== wt) throw new OnnxReadError('corrupt', `${what} at offset ${f.pos} has wire type ${f.wt}, expected ${wt}`, f.pos);
}

function inferAttrType(a: Attribute): AttributeType {
  if (a.f !== undefined) return 'float';
  if (a.i !== undefined) return 'int';
  if (a.s !== undefined) return 'string';
  if (a.t) return 'tensor';
  if (a.g) return 'graph';
  if (a.floats) return 'floats';
  if (a.ints) return 'ints';
  if (a.strings) return 'strings';
  if (a.tensors) return 'tensors';
  if (a.graphs) return 'graphs';
  return 'undefined';
}
