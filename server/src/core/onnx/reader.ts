// Lazy ONNX reader: walks ModelProto with positional reads and records everything but the weights.
// `raw_data` and the typed data fields of initializers and Constant attributes are skipped on disk
// (only tensors of at most SMALL_TENSOR_BYTES are copied: they are the shape constants inference needs).
// Field numbers are those of onnx/onnx.proto (stable since IR 3).
import { FileRoots } from '../common/confined';
import { describeFileKind } from '../common/fileAccess';
import { limit, limitMessage } from '../common/limits';
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
    throw new OnnxReadError('io', (err as Error).message); // "cannot open 'x': …", "'x' is a FIFO (named pipe), not a regular file; not read"
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

const MAX_ENTRIES = limit('onnxGraphEntries');
const MAX_DEPTH = limit('onnxSubgraphDepth');

class ModelReader {
  readonly problems: ReadProblem[] = [];
  /** The problems by code and message (or location): one map lookup per tensor, not a scan of the list (issue 29). */
  private readonly problemBy = new Map<string, ReadProblem>();
  private readonly pendingExternal: TensorInfo[] = [];
  /** Objects recorded so far (nodes, tensors, value infos, attributes and their list items, dims). */
  private entries = 0;
  /** Graphs open around the current position (the main graph is 1). */
  private depth = 0;

  /** Counts `n` more entries; past LIMITS.onnxGraphEntries the model is not indexed. */
  private count(n: number, offset: number): void {
    this.entries += n;
    if (this.entries > MAX_ENTRIES) this.tooMany(offset);
  }

  private tooMany(offset: number): never {
    throw new OnnxReadError(
      'limit',
      limitMessage(
        'onnxGraphEntries',
        `The model (at offset ${offset})`,
        `more than ${MAX_ENTRIES.toLocaleString('en-US')} nodes, tensors, attributes and dims`,
      ),
      offset,
    );
  }

  /** How many more list items fit under the entries limit (for packed int/float lists). */
  private room(): number {
    return MAX_ENTRIES - this.entries;
  }

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
      throw new OnnxReadError('not-onnx', `not an ONNX model: ${!sawGraph ? 'no graph' : 'no ir_version'} found in ${w.src.size} bytes`);
    }
    if (m.irVersion < 1 || m.irVersion > 64) throw new OnnxReadError('not-onnx', `not an ONNX model: ir_version ${m.irVersion} is implausible`);
    this.resolveExternal();
    m.bytesRead = w.src.bytesRead;
    return m;
  }

  private modelFields(m: OnnxModel, saw: (graph: boolean, ir: boolean) => void): void {
    const w = this.w;
    for (const f = w.cursor(0, w.src.size, 'ModelProto'); f.next();) {
      this.count(1, f.pos);
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
          for (const g = w.cursor(f.pos, f.pos + f.len, 'OperatorSetIdProto'); g.next();) {
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
    for (const g = this.w.cursor(f.pos, f.pos + f.len, 'StringStringEntryProto'); g.next();) {
      if (g.no === 1) k = this.str(g, 'key');
      else if (g.no === 2) v = this.str(g, 'value', 4096);
    }
    return [k, v];
  }

  graph(start: number, end: number): GraphIndex {
    if (this.depth >= MAX_DEPTH) {
      throw new OnnxReadError(
        'limit',
        limitMessage('onnxSubgraphDepth', `The model (subgraph at offset ${start})`, `more than ${MAX_DEPTH} levels of nested subgraphs`),
        start,
      );
    }
    this.depth++;
    try {
      return this.graphFields(start, end);
    } finally {
      this.depth--;
    }
  }

  private graphFields(start: number, end: number): GraphIndex {
    const g = emptyGraph();
    for (const f = this.w.cursor(start, end, 'GraphProto'); f.next();) {
      this.count(1, f.pos);
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
    for (const g = this.w.cursor(f.pos, f.pos + f.len, 'NodeProto'); g.next();) {
      this.count(1, g.pos);
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
    for (const g = w.cursor(f.pos, f.pos + f.len, 'AttributeProto'); g.next();) {
      this.count(1, g.pos);
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
        case 7: {
          const list = (a.floats ??= []);
          const before = list.length;
          w.floats(g, list, before + this.room(), () => this.tooMany(g.pos));
          this.count(list.length - before, g.pos);
          break;
        }
        case 8: {
          const list = (a.ints ??= []);
          const before = list.length;
          w.int64s(g, list, before + this.room(), () => this.tooMany(g.pos));
          this.count(list.length - before, g.pos);
          break;
        }
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
    let badDim: string | undefined;
    for (const f = w.cursor(start, end, 'TensorProto'); f.next();) {
      switch (f.no) {
        case 1: {
          const before = t.dims.length;
          w.int64s(f, t.dims, before + this.room(), () => this.tooMany(f.pos));
          this.count(t.dims.length - before, f.pos);
          for (let i = before; i < t.dims.length; i++) {
            if (Number.isSafeInteger(t.dims[i]) && t.dims[i] >= 0) continue;
            badDim ??= dimProblem(this.w, f, i - before, t.dims[i]);
          }
          break;
        }
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
    if (badDim !== undefined) {
      // A tensor cannot have a negative size, and a double cannot hold a dim above 2^53 exactly:
      // the shape is not guessed at, the tensor keeps no dims and no data.
      this.addProblem('onnx/invalid-dim', `tensor '${t.name}' has ${badDim}; its shape and data are not used`, t.name, DIM_EVIDENCE);
      t.dims = [];
      t.bytes = 0;
      t.dataField = 'none';
      delete t.dataOffset;
      delete t.dataLength;
      return t;
    }
    const info = DATA_TYPES[t.dataType];
    if (t.dataField === 'string_data' || !info || info.bits === 0) t.bytes = t.dataLength ?? 0;
    else t.bytes = Math.ceil((numel(t.dims) * info.bits) / 8);
    if (external) {
      t.dataField = 'external';
      const offset = externalNumber(ext.offset, 0);
      const length = externalNumber(ext.length, null);
      t.external = {
        location: ext.location ?? '',
        offset: typeof offset === 'number' ? offset : 0,
        length: typeof length === 'number' || length === null ? length : null,
      };
      delete t.dataOffset;
      delete t.dataLength;
      const bad = typeof offset === 'string' ? `offset '${offset}'` : typeof length === 'string' ? `length '${length}'` : undefined;
      if (bad) {
        t.external.problem = `external data ${bad} of '${t.external.location}' is not a non-negative integer; not read`;
        this.addProblem('onnx/external-data-invalid', t.external.problem, t.name);
      } else this.pendingExternal.push(t);
    } else if (t.dataOffset !== undefined && t.dataLength !== undefined && t.dataLength <= SMALL_TENSOR_BYTES) {
      t.data = w.bytes(t.dataOffset, t.dataLength);
    }
    return t;
  }

  valueInfo(f: Field): ValueInfo {
    const v: ValueInfo = { name: '', type: { kind: 'unknown' } };
    for (const g = this.w.cursor(f.pos, f.pos + f.len, 'ValueInfoProto'); g.next();) {
      if (g.no === 1) v.name = this.str(g, 'value name');
      else if (g.no === 2 && g.wt === WT_LEN) v.type = this.typeProto(g);
    }
    if (this.badDims.length) {
      for (const d of this.badDims) this.addProblem('onnx/invalid-dim', `'${v.name}' has ${d}; that dim is treated as unknown`, v.name, DIM_EVIDENCE);
      this.badDims.length = 0;
    }
    return v;
  }

  /** Invalid dim_values met in the TypeProto being read (reported with the value's name). */
  private readonly badDims: string[] = [];

  /** One problem per code and location (or message), listing the tensors it affects. */
  private addProblem(code: ReadProblem['code'], message: string, tensor: string, evidence?: string): void {
    const key = `${code}\0m\0${message}`;
    const same = this.problemBy.get(key);
    if (same) {
      if (same.tensors!.length < 100) same.tensors!.push(tensor);
      return;
    }
    const p: ReadProblem = { code, message, tensors: [tensor], ...(evidence ? { evidence } : {}) };
    this.problemBy.set(key, p);
    this.problems.push(p);
  }

  typeProto(f: Field): TypeInfo {
    for (const g = this.w.cursor(f.pos, f.pos + f.len, 'TypeProto'); g.next();) {
      if (g.wt !== WT_LEN) continue;
      if (g.no === 1 || g.no === 8) {
        let elemType = 0;
        let shape: Shape = null;
        for (const h = this.w.cursor(g.pos, g.pos + g.len, 'TypeProto.Tensor'); h.next();) {
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
    for (const g = this.w.cursor(f.pos, f.pos + f.len, 'TensorShapeProto'); g.next();) {
      if (g.no !== 1 || g.wt !== WT_LEN) continue;
      this.count(1, g.pos);
      let d: number | string | null = null;
      for (const h = this.w.cursor(g.pos, g.pos + g.len, 'Dimension'); h.next();) {
        if (h.no === 1 && h.wt === WT_VARINT) {
          d = h.value;
          if (!Number.isSafeInteger(d) || d < 0) {
            this.badDims.push(dimProblem(this.w, h, dims.length, d));
            d = null;
          }
        } else if (h.no === 2 && h.wt === WT_LEN) d = this.w.string(h) || null;
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
        const key = `${problem.code}\0l\0${ref.location}`;
        const same = this.problemBy.get(key);
        if (same) same.tensors!.push(t.name);
        else {
          const p: ReadProblem = { ...problem, location: ref.location, tensors: [t.name] };
          this.problemBy.set(key, p);
          this.problems.push(p);
        }
        continue;
      }
      const length = ref.length ?? (sizes.get(ref.path!) as number) - ref.offset;
      if (length <= SMALL_TENSOR_BYTES && length > 0) {
        try {
          const src = new FileSource(ref.path!, Math.max(length, 64));
          try {
            t.data = Uint8Array.from(src.read(ref.offset, length));
          } finally {
            src.close();
          }
        } catch (err) {
          // e.g. the file was replaced by a FIFO since it was checked: this tensor only
          ref.problem = (err as Error).message;
          this.addProblem('onnx/external-data-invalid', ref.problem, t.name);
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
      const roots = FileRoots.of([base]);
      if (!roots.exists(path)) size = 'missing';
      else if (!roots.contains(path)) size = 'outside';
      else {
        const st = roots.stat(path);
        // a folder, FIFO or device is never opened (a FIFO would block the server in open)
        size = !st ? 'missing' : st.isFile() ? st.size : `not-regular:${describeFileKind(st)}`;
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
  if (typeof size === 'string') {
    return {
      code: 'onnx/external-data-invalid',
      message: `external data location '${ref.location}' is ${size.slice('not-regular:'.length)}, not a regular file; not read`,
    };
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

const DIM_EVIDENCE =
  'onnx.proto: dims are int64 sizes (≥ 0; an unknown dim is a dim_param or an empty Dimension); a JavaScript number holds integers exactly only up to 2^53';

/** A JavaScript number above 2^53 is not the int64 in the file: give the exact one. */
function dimProblem(w: Wire, f: Field, index: number, value: number): string {
  let exact = String(value);
  if (!Number.isSafeInteger(value)) {
    // the value of a packed element is not at f.pos: re-read the varints up to it
    if (f.wt === WT_VARINT) exact = w.bigVarint(f.pos).toString();
    else {
      let p = f.pos;
      for (let i = 0; i < index; i++) {
        w.varintAt(p, f.pos + f.len);
        p = w.after;
      }
      exact = w.bigVarint(p).toString();
    }
  }
  return BigInt(exact) < 0n ? `a negative dim ${exact} (dims are ≥ 0)` : `a dim of ${exact}, above 2^53 (a JavaScript number would round it)`;
}

/** An external_data offset/length: a non-negative integer (returned as a number), absent (`absent`), or the bad text. */
function externalNumber<T>(text: string | undefined, absent: T): number | T | string {
  if (text === undefined || text === '') return absent;
  if (!/^\d+$/.test(text)) return text;
  const v = Number(text);
  return Number.isSafeInteger(v) ? v : text;
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
