// Synthetic torch-style ViT models for the ONNX bench, written by streaming: small messages are
// encoded with onnx-proto, weights go out as raw_data from a reused buffer, so writing a 1.2 GB
// model needs a few MB of memory. Graph per block: decomposed LayerNorm, MatMul+Add linears,
// Shape→Gather→Unsqueeze→Concat→Reshape head split, softmax attention, Erf-GELU.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { onnx } from 'onnx-proto';

export interface VitSpec {
  blocks: number;
  dim: number;
  heads: number;
  mlp: number;
  image: number;
  patch: number;
  opset: number;
}

export const VIT_L: VitSpec = { blocks: 24, dim: 1024, heads: 16, mlp: 4096, image: 224, patch: 14, opset: 13 };
/** ~3.3 k nodes, like the notes' vit200 (dim 320). */
export const VIT_3K: VitSpec = { blocks: 58, dim: 320, heads: 5, mlp: 1280, image: 224, patch: 16, opset: 13 };

type Part = Uint8Array | { zeros: number };

function varint(n: number): Uint8Array {
  const out: number[] = [];
  while (n > 127) {
    out.push((n % 128) | 128);
    n = Math.floor(n / 128);
  }
  out.push(n);
  return Uint8Array.from(out);
}

const partLen = (p: Part) => (p instanceof Uint8Array ? p.length : p.zeros);

function frame(field: number, body: Part[]): Part[] {
  const len = body.reduce((s, p) => s + partLen(p), 0);
  return [varint(field * 8 + 2), varint(len), ...body];
}

class GraphBuilder {
  nodes: Uint8Array[] = [];
  inits: Part[][] = [];
  params = 0;
  private n = 0;

  node(op: string, inputs: string[], scope: string, attrs: onnx.IAttributeProto[] = [], outputs = 1): string[] {
    const name = `${scope}/${op}_${this.n++}`;
    const outs = Array.from({ length: outputs }, (_, i) => `${name}_output_${i}`);
    this.nodes.push(onnx.NodeProto.encode({ name, opType: op, input: inputs, output: outs, attribute: attrs }).finish());
    return outs;
  }

  weight(name: string, dims: number[]): string {
    const count = dims.reduce((a, b) => a * b, 1);
    this.params += count;
    const header = onnx.TensorProto.encode({ name, dims, dataType: onnx.TensorProto.DataType.FLOAT }).finish();
    this.inits.push([header, varint(9 * 8 + 2), varint(count * 4), { zeros: count * 4 }]);
    return name;
  }

  constI64(scope: string, values: number[], scalar = false): string {
    const t = onnx.TensorProto.create({ dims: scalar ? [] : [values.length], dataType: onnx.TensorProto.DataType.INT64, int64Data: values });
    return this.node('Constant', [], scope, [{ name: 'value', type: onnx.AttributeProto.AttributeType.TENSOR, t }])[0];
  }

  constF(name: string, v: number): string {
    const header = onnx.TensorProto.encode({ name, dims: [], dataType: onnx.TensorProto.DataType.FLOAT, floatData: [v] }).finish();
    this.inits.push([header]);
    return name;
  }
}

const ints = (name: string, v: number[]): onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INTS, ints: v });
const int = (name: string, v: number): onnx.IAttributeProto => ({ name, type: onnx.AttributeProto.AttributeType.INT, i: v });

function build(spec: VitSpec): { parts: Part[]; nodes: number; params: number } {
  const b = new GraphBuilder();
  const { dim, heads } = spec;
  const hd = dim / heads;
  const grid = spec.image / spec.patch;
  const seq = grid * grid + 1;
  // patch embedding
  let x = b.node('Conv', ['image', b.weight('patch.weight', [dim, 3, spec.patch, spec.patch]), b.weight('patch.bias', [dim])], '/patch', [
    ints('kernel_shape', [spec.patch, spec.patch]),
    ints('strides', [spec.patch, spec.patch]),
  ])[0];
  x = b.node('Flatten', [x], '/patch', [int('axis', 2)])[0];
  x = b.node('Reshape', [x, b.constI64('/patch', [1, dim, seq - 1])], '/patch')[0];
  x = b.node('Transpose', [x], '/patch', [ints('perm', [0, 2, 1])])[0];
  x = b.node('Concat', [b.weight('cls_token', [1, 1, dim]), x], '/embed', [int('axis', 1)])[0];
  x = b.node('Add', [x, b.weight('pos_embed', [1, seq, dim])], '/embed')[0];

  const layerNorm = (inp: string, s: string) => {
    const g = b.weight(`${s}.weight`, [dim]);
    const beta = b.weight(`${s}.bias`, [dim]);
    const mean = b.node('ReduceMean', [inp], s, [ints('axes', [-1])])[0];
    const d = b.node('Sub', [inp, mean], s)[0];
    const sq = b.node('Pow', [d, b.constF(`${s}.two`, 2)], s)[0];
    const v = b.node('ReduceMean', [sq], s, [ints('axes', [-1])])[0];
    const ve = b.node('Add', [v, b.constF(`${s}.eps`, 1e-6)], s)[0];
    const sd = b.node('Sqrt', [ve], s)[0];
    const n = b.node('Div', [d, sd], s)[0];
    return b.node('Add', [b.node('Mul', [n, g], s)[0], beta], s)[0];
  };
  const linear = (inp: string, din: number, dout: number, s: string) =>
    b.node('Add', [b.weight(`${s}.bias`, [dout]), b.node('MatMul', [inp, b.weight(`${s}.weight`, [din, dout])], s)[0]], s)[0];

  for (let i = 0; i < spec.blocks; i++) {
    const s = `/blocks.${i}`;
    const h = layerNorm(x, `${s}/norm1`);
    const qkv = linear(h, dim, 3 * dim, `${s}/attn/qkv`);
    const shape = b.node('Shape', [h], `${s}/attn`)[0];
    const batch = b.node('Gather', [shape, b.constI64(`${s}/attn`, [0], true)], `${s}/attn`, [int('axis', 0)])[0];
    const batchU = b.node('Unsqueeze', [batch, b.constI64(`${s}/attn`, [0])], `${s}/attn`)[0]; // axes is an input from opset 13
    const target = b.node('Concat', [batchU, b.constI64(`${s}/attn`, [seq, 3, heads, hd])], `${s}/attn`, [int('axis', 0)])[0];
    const r = b.node('Reshape', [qkv, target], `${s}/attn`)[0];
    const t = b.node('Transpose', [r], `${s}/attn`, [ints('perm', [2, 0, 3, 1, 4])])[0];
    const [q, k, v] = [0, 1, 2].map((j) => b.node('Gather', [t, b.constI64(`${s}/attn`, [j], true)], `${s}/attn`, [int('axis', 0)])[0]);
    const kt = b.node('Transpose', [k], `${s}/attn`, [ints('perm', [0, 1, 3, 2])])[0];
    const qk = b.node('Mul', [b.node('MatMul', [q, kt], `${s}/attn`)[0], b.constF(`${s}.scale`, hd ** -0.5)], `${s}/attn`)[0];
    const sm = b.node('Softmax', [qk], `${s}/attn`, [int('axis', -1)])[0];
    const av = b.node('Transpose', [b.node('MatMul', [sm, v], `${s}/attn`)[0]], `${s}/attn`, [ints('perm', [0, 2, 1, 3])])[0];
    const merged = b.node('Concat', [batchU, b.constI64(`${s}/attn`, [seq, dim])], `${s}/attn`, [int('axis', 0)])[0];
    const m = b.node('Reshape', [av, merged], `${s}/attn`)[0];
    const x1 = b.node('Add', [x, linear(m, dim, dim, `${s}/attn/proj`)], s)[0];
    const h2 = layerNorm(x1, `${s}/norm2`);
    const f1 = linear(h2, dim, spec.mlp, `${s}/mlp/fc1`);
    const e = b.node('Erf', [b.node('Div', [f1, b.constF(`${s}.sqrt2`, Math.SQRT2)], `${s}/mlp`)[0]], `${s}/mlp`)[0];
    const g = b.node(
      'Mul',
      [b.node('Mul', [f1, b.node('Add', [e, b.constF(`${s}.one`, 1)], `${s}/mlp`)[0]], `${s}/mlp`)[0], b.constF(`${s}.half`, 0.5)],
      `${s}/mlp`,
    )[0];
    x = b.node('Add', [x1, linear(g, spec.mlp, dim, `${s}/mlp/fc2`)], s)[0];
  }
  const out = layerNorm(x, '/norm');
  const io = (name: string, dims: number[]) =>
    onnx.ValueInfoProto.encode({
      name,
      type: { tensorType: { elemType: onnx.TensorProto.DataType.FLOAT, shape: { dim: dims.map((d) => ({ dimValue: d })) } } },
    }).finish();
  const graphBody: Part[] = [
    ...b.nodes.flatMap((n) => frame(1, [n])),
    ...frame(2, [Buffer.from('vit')]),
    ...b.inits.flatMap((t) => frame(5, t)),
    ...frame(11, [io('image', [1, 3, spec.image, spec.image])]),
    ...frame(12, [io(out, [1, seq, dim])]),
  ];
  const opset = onnx.OperatorSetIdProto.encode({ domain: '', version: spec.opset }).finish();
  const parts: Part[] = [varint(1 * 8), varint(8), ...frame(2, [Buffer.from('hailo-tools-bench')]), ...frame(7, graphBody), ...frame(8, [opset])];
  return { parts, nodes: b.nodes.length, params: b.params };
}

/** Writes the model to `path` unless a file of the expected size is already there (the cache). */
export function ensureVitModel(path: string, spec: VitSpec): { path: string; bytes: number; nodes: number; params: number; generatedMs: number } {
  const { parts, nodes, params } = build(spec);
  const bytes = parts.reduce((s, p) => s + partLen(p), 0);
  if (existsSync(path) && statSync(path).size === bytes) return { path, bytes, nodes, params, generatedMs: 0 };
  const t0 = Date.now();
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}`;
  const fd = openSync(tmp, 'w');
  const chunk = Buffer.alloc(1 << 20);
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 2654435761) >>> 24; // not all zeros: no sparse shortcut
  try {
    for (const p of parts) {
      if (p instanceof Uint8Array) writeSync(fd, p);
      else for (let left = p.zeros; left > 0; left -= chunk.length) writeSync(fd, chunk, 0, Math.min(left, chunk.length));
    }
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path); // never leave a half-written model where the cache would trust it
  return { path, bytes, nodes, params, generatedMs: Date.now() - t0 };
}
