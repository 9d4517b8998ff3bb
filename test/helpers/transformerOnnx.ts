// Small transformer pieces as ONNX, in the forms the public DFC 5.4.0 probes reported
// (st5463978-boop/PetalWild hailo_port/compile_rope_probe.py, compile_attn_core.py): torch's
// rotate_half RoPE (Slice, Neg, Concat), its Neg-free rewrite, and an attention core with Q/K/V as
// graph inputs and a constant additive causal mask into Softmax.
import { encodeModel, type ModelSpec, type NodeSpec, type TensorSpec } from './onnxBuilder';

const S = 8;
const D = 16;
const floats = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));
const weight = (name: string, dims: number[]): TensorSpec => ({
  name,
  dtype: 'float',
  dims,
  values: floats(
    dims.reduce((a, b) => a * b, 1),
    (i) => Math.sin(i) / 4,
  ),
});
const i64 = (name: string, values: number[]): TensorSpec => ({ name, dtype: 'int64', dims: [values.length], values });

/** q = x·Wq; rotate_half(q) = cat(-q[..., D/2:], q[..., :D/2]); y = q·cos + rot·sin; out = y·Wo. `masked`: swap × sign. */
export function ropeModel(masked = false): Uint8Array {
  const nodes: NodeSpec[] = [
    { name: 'q_proj/MatMul', op: 'MatMul', inputs: ['x', 'Wq'], outputs: ['q'] },
    { name: 'rope/Slice', op: 'Slice', inputs: ['q', 'zero', 'half', 'last'], outputs: ['q1'] },
    { name: 'rope/Slice_1', op: 'Slice', inputs: ['q', 'half', 'full', 'last'], outputs: ['q2'] },
  ];
  if (masked) {
    nodes.push({ name: 'rope/Concat', op: 'Concat', inputs: ['q2', 'q1'], outputs: ['swapped'], attrs: { axis: -1 } });
    nodes.push({ name: 'rope/Mul_sign', op: 'Mul', inputs: ['swapped', 'sign'], outputs: ['rot'] });
  } else {
    nodes.push({ name: 'rope/Neg', op: 'Neg', inputs: ['q2'], outputs: ['nq2'] });
    nodes.push({ name: 'rope/Concat', op: 'Concat', inputs: ['nq2', 'q1'], outputs: ['rot'], attrs: { axis: -1 } });
  }
  nodes.push(
    { name: 'rope/Mul', op: 'Mul', inputs: ['q', 'cos'], outputs: ['qc'] },
    { name: 'rope/Mul_1', op: 'Mul', inputs: ['rot', 'sin'], outputs: ['rs'] },
    { name: 'rope/Add', op: 'Add', inputs: ['qc', 'rs'], outputs: ['y'] },
    { name: 'o_proj/MatMul', op: 'MatMul', inputs: ['y', 'Wo'], outputs: ['out'] },
  );
  const spec: ModelSpec = {
    graph: {
      name: 'rope',
      nodes,
      inputs: [{ name: 'x', dtype: 'float', dims: [1, S, D] }],
      outputs: [{ name: 'out', dtype: 'float', dims: [1, S, D] }],
      initializers: [
        weight('Wq', [D, D]),
        weight('Wo', [D, D]),
        weight('cos', [S, D]),
        weight('sin', [S, D]),
        i64('zero', [0]),
        i64('half', [D / 2]),
        i64('full', [D]),
        i64('last', [-1]),
        ...(masked ? [{ name: 'sign', dtype: 'float' as const, dims: [D], values: floats(D, (i) => (i < D / 2 ? -1 : 1)) }] : []),
      ],
    },
  };
  return encodeModel(spec);
}

/** softmax(q·kᵀ + mask)·v with q, k, v graph inputs and a constant [1, S, S] causal mask. */
export function attentionCoreModel(): Uint8Array {
  const mask = floats(S * S, (i) => (i % S > Math.floor(i / S) ? -1e9 : 0));
  return encodeModel({
    graph: {
      name: 'attn_core',
      nodes: [
        { name: 'attn/Transpose', op: 'Transpose', inputs: ['k'], outputs: ['kt'], attrs: { perm: [0, 2, 1] } },
        { name: 'attn/MatMul', op: 'MatMul', inputs: ['q', 'kt'], outputs: ['scores'] },
        { name: 'attn/Add', op: 'Add', inputs: ['scores', 'mask'], outputs: ['masked'] },
        { name: 'attn/Softmax', op: 'Softmax', inputs: ['masked'], outputs: ['p'], attrs: { axis: -1 } },
        { name: 'attn/MatMul_1', op: 'MatMul', inputs: ['p', 'v'], outputs: ['out'] },
      ],
      inputs: [
        { name: 'q', dtype: 'float', dims: [1, S, D] },
        { name: 'k', dtype: 'float', dims: [1, S, D] },
        { name: 'v', dtype: 'float', dims: [1, S, D] },
      ],
      outputs: [{ name: 'out', dtype: 'float', dims: [1, S, D] }],
      initializers: [{ name: 'mask', dtype: 'float', dims: [1, S, S], values: mask }],
    },
  });
}
