// Generated model fixtures (built at test time, deterministic) for patterns real exporters write:
// torch's reflect-padding chain and onnxruntime's three quantized forms. The node sequences mirror
// what the tools emit (torch.onnx symbolic_opset11 `_prepare_onnx_paddings`, as found in Silero VAD's
// STFT; onnxruntime.quantization quantize_dynamic / quantize_static QDQ and QOperator).
import type { GraphSpec, ModelSpec, NodeSpec, TensorSpec } from './onnxBuilder';

const i64 = (name: string, values: number[], dims = [values.length]): TensorSpec => ({ name, dtype: 'int64', dims, values });
const f32 = (name: string, values: number[], dims = [values.length]): TensorSpec => ({ name, dtype: 'float', dims, values });
const u8 = (name: string, values: number[], dims = [values.length]): TensorSpec => ({ name, dtype: 'uint8', dims, values });
const constNode = (out: string, t: TensorSpec): NodeSpec => ({ op: 'Constant', inputs: [], outputs: [out], attrs: { value: { t: { ...t, name: out } } } });
const fill = (n: number, f: (i: number) => number) => Array.from({ length: n }, (_, i) => f(i));

/**
 * F.pad(x, (16, 16), mode='reflect') on x [1, 1, 64] as torch exports it at opset ≥ 11: the pad list
 * is Cast, extended with ConstantOfShape zeros to 2·rank, reshaped to [-1, 2], reversed with a
 * Slice of step -1, transposed, flattened and Cast again; then a Conv reads the padded signal.
 */
export function reflectPadChain(): ModelSpec {
  const nodes: NodeSpec[] = [
    constNode('pad', i64('pad', [16, 16])),
    { op: 'Cast', inputs: ['pad'], outputs: ['pad_i64'], attrs: { to: 7 } },
    constNode('rank', i64('rank', [3], [])),
    constNode('two', i64('two', [2], [])),
    { op: 'Mul', inputs: ['rank', 'two'], outputs: ['rank2'] },
    { op: 'Shape', inputs: ['pad'], outputs: ['pad_shape'] },
    constNode('zero_idx', i64('zero_idx', [0])),
    { op: 'Gather', inputs: ['pad_shape', 'zero_idx'], outputs: ['pad_len'], attrs: { axis: 0 } },
    { op: 'Sub', inputs: ['rank2', 'pad_len'], outputs: ['extension'] },
    { op: 'ConstantOfShape', inputs: ['extension'], outputs: ['zeros'], attrs: { value: { t: i64('v', [0], [1]) } } },
    { op: 'Concat', inputs: ['pad_i64', 'zeros'], outputs: ['paddings'], attrs: { axis: 0 } },
    constNode('pairs', i64('pairs', [-1, 2])),
    { op: 'Reshape', inputs: ['paddings', 'pairs'], outputs: ['pad_pairs'] },
    constNode('s_start', i64('s_start', [-1])),
    constNode('s_end', i64('s_end', [-9223372036854775807])),
    constNode('s_axes', i64('s_axes', [0])),
    constNode('s_steps', i64('s_steps', [-1])),
    { op: 'Slice', inputs: ['pad_pairs', 's_start', 's_end', 's_axes', 's_steps'], outputs: ['reversed'] },
    { op: 'Transpose', inputs: ['reversed'], outputs: ['by_side'], attrs: { perm: [1, 0] } },
    constNode('flat', i64('flat', [-1])),
    { op: 'Reshape', inputs: ['by_side', 'flat'], outputs: ['pads_flat'] },
    { op: 'Cast', inputs: ['pads_flat'], outputs: ['pads'], attrs: { to: 7 } },
    { op: 'Pad', inputs: ['x', 'pads'], outputs: ['padded'], attrs: { mode: 'reflect' } },
    { op: 'Conv', inputs: ['padded', 'w'], outputs: ['y'], attrs: { strides: [2], kernel_shape: [5] } },
  ];
  const graph: GraphSpec = {
    nodes,
    inputs: [{ name: 'x', dtype: 'float', dims: [1, 1, 64] }],
    outputs: [{ name: 'y', dtype: 'float' }],
    initializers: [
      f32(
        'w',
        fill(4 * 5, (i) => (i % 7) / 7),
        [4, 1, 5],
      ),
    ],
  };
  return { graph, opset: 16 };
}

/** quantize_dynamic's output for Conv → Relu → Flatten → MatMul: activations quantized at run time. */
export function dynamicQuantized(): ModelSpec {
  const nodes: NodeSpec[] = [
    { op: 'DynamicQuantizeLinear', inputs: ['x'], outputs: ['x_q', 'x_scale', 'x_zp'], name: 'x_QuantizeLinear' },
    { op: 'Mul', inputs: ['x_scale', 'w_scale'], outputs: ['conv_scale'] },
    {
      op: 'ConvInteger',
      inputs: ['x_q', 'w_q', 'x_zp', 'w_zp'],
      outputs: ['conv_i32'],
      attrs: { pads: [1, 1, 1, 1], strides: [2, 2] },
      name: '/conv/Conv_quant',
    },
    { op: 'Cast', inputs: ['conv_i32'], outputs: ['conv_f'], attrs: { to: 1 } },
    { op: 'Mul', inputs: ['conv_f', 'conv_scale'], outputs: ['conv_scaled'] },
    { op: 'Add', inputs: ['conv_scaled', 'bias'], outputs: ['conv_out'] },
    { op: 'Relu', inputs: ['conv_out'], outputs: ['relu'] },
    { op: 'Flatten', inputs: ['relu'], outputs: ['flat'], attrs: { axis: 1 } },
    { op: 'DynamicQuantizeLinear', inputs: ['flat'], outputs: ['f_q', 'f_scale', 'f_zp'] },
    { op: 'MatMulInteger', inputs: ['f_q', 'fc_q', 'f_zp', 'fc_zp'], outputs: ['fc_i32'], name: '/fc/MatMul_quant' },
    { op: 'Cast', inputs: ['fc_i32'], outputs: ['fc_f'], attrs: { to: 1 } },
    { op: 'Mul', inputs: ['f_scale', 'fc_scale'], outputs: ['fc_s'] },
    { op: 'Mul', inputs: ['fc_f', 'fc_s'], outputs: ['logits'] },
    // onnxruntime's fused form of the same MatMul
    { op: 'MatMulIntegerToFloat', domain: 'com.microsoft', inputs: ['f_q', 'fc_q', 'f_scale', 'fc_scale', 'f_zp', 'fc_zp'], outputs: ['logits_fused'] },
  ];
  const graph: GraphSpec = {
    nodes,
    inputs: [{ name: 'x', dtype: 'float', dims: [1, 3, 16, 16] }],
    outputs: [
      { name: 'logits', dtype: 'float' },
      { name: 'logits_fused', dtype: 'float' },
    ],
    initializers: [
      u8(
        'w_q',
        fill(8 * 3 * 9, (i) => (i * 37) % 256),
        [8, 3, 3, 3],
      ),
      f32('w_scale', [0.01], []),
      u8('w_zp', [128], []),
      f32(
        'bias',
        fill(8, (i) => i / 10),
        [1, 8, 1, 1],
      ),
      u8(
        'fc_q',
        fill(8 * 8 * 8 * 10, (i) => (i * 11) % 256),
        [512, 10],
      ),
      f32('fc_scale', [0.02], []),
      u8('fc_zp', [127], []),
    ],
  };
  return { graph, opset: 13, opsets: { 'com.microsoft': 1 } };
}

/** quantize_static, QDQ format: QuantizeLinear/DequantizeLinear pairs around a float Conv. */
export function qdqQuantized(): ModelSpec {
  const q = (x: string, out: string, s: string, z: string): NodeSpec => ({ op: 'QuantizeLinear', inputs: [x, s, z], outputs: [out] });
  const dq = (x: string, out: string, s: string, z: string): NodeSpec => ({ op: 'DequantizeLinear', inputs: [x, s, z], outputs: [out] });
  const graph: GraphSpec = {
    nodes: [
      q('x', 'x_q', 'sx', 'zx'),
      dq('x_q', 'x_dq', 'sx', 'zx'),
      dq('w_q', 'w_dq', 'sw', 'zw'),
      { op: 'Conv', inputs: ['x_dq', 'w_dq'], outputs: ['conv'], attrs: { pads: [1, 1, 1, 1] } },
      q('conv', 'conv_q', 'sy', 'zy'),
      dq('conv_q', 'conv_dq', 'sy', 'zy'),
      { op: 'Relu', inputs: ['conv_dq'], outputs: ['y'] },
    ],
    inputs: [{ name: 'x', dtype: 'float', dims: [1, 3, 8, 8] }],
    outputs: [{ name: 'y', dtype: 'float' }],
    initializers: [
      f32('sx', [0.02], []),
      u8('zx', [128], []),
      { name: 'w_q', dtype: 'int8', dims: [4, 3, 3, 3], values: fill(108, (i) => (i % 11) - 5) },
      f32('sw', [0.01], []),
      { name: 'zw', dtype: 'int8', dims: [], values: [0] },
      f32('sy', [0.05], []),
      u8('zy', [128], []),
    ],
  };
  return { graph, opset: 13 };
}

/** quantize_static, QOperator format: QLinearConv and com.microsoft QLinearAdd between Q and DQ. */
export function qoperatorQuantized(): ModelSpec {
  const graph: GraphSpec = {
    nodes: [
      { op: 'QuantizeLinear', inputs: ['x', 'sx', 'zx'], outputs: ['x_q'] },
      { op: 'QLinearConv', inputs: ['x_q', 'sx', 'zx', 'w_q', 'sw', 'zw', 'sy', 'zy'], outputs: ['conv_q'], attrs: { strides: [2, 2], pads: [1, 1, 1, 1] } },
      { op: 'QLinearAdd', domain: 'com.microsoft', inputs: ['conv_q', 'sy', 'zy', 'b_q', 'sy', 'zy', 'sy', 'zy'], outputs: ['sum_q'] },
      { op: 'DequantizeLinear', inputs: ['sum_q', 'sy', 'zy'], outputs: ['y'] },
    ],
    inputs: [{ name: 'x', dtype: 'float', dims: [1, 3, 8, 8] }],
    outputs: [{ name: 'y', dtype: 'float' }],
    initializers: [
      f32('sx', [0.02], []),
      u8('zx', [128], []),
      u8(
        'w_q',
        fill(4 * 27, (i) => (i * 13) % 256),
        [4, 3, 3, 3],
      ),
      f32('sw', [0.01], []),
      u8('zw', [128], []),
      f32('sy', [0.05], []),
      u8('zy', [128], []),
      u8(
        'b_q',
        fill(4, (i) => 120 + i),
        [1, 4, 1, 1],
      ),
    ],
  };
  return { graph, opset: 13, opsets: { 'com.microsoft': 1 } };
}
