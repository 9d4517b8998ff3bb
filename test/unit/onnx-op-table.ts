// The shape-rule table: one-operator models for every ai.onnx operator up to opset 22 and the
// com.microsoft operators exporters and quantizers emit. Expected shapes come from executing each
// model with onnxruntime-node (CPU); where ORT's CPU provider has no kernel the case carries the
// spec's formula result and its citation (`spec`), and the test checks that ORT indeed refuses it.
import { Bv, F, Fed, Fv, I32, I64, I8v, S64, SF, T, U8v, type OpCase } from '../helpers/opCase';

const ONNX = 'onnx/onnx docs/Operators.md';
const MS = 'com.microsoft';

const unary = (op: string, opset = 17, dims = [2, 3, 4]): OpCase => ({ op, opset, inputs: [F(...dims)] });
const binary = (op: string, a: number[], b: number[], dtype: 'float' | 'int64' | 'bool' | 'int32' = 'float', opset = 17): OpCase => ({
  op,
  opset,
  inputs: [T(dtype, ...a), T(dtype, ...b)],
  label: `${a.join('x')} ⊕ ${b.join('x')}`,
});

// ---- ai.onnx: elementwise -----------------------------------------------------------------------
const ELEMENTWISE: OpCase[] = [
  ...['Abs', 'Acos', 'Acosh', 'Asin', 'Asinh', 'Atan', 'Atanh', 'Ceil', 'Cos', 'Cosh', 'Erf', 'Exp', 'Floor', 'Log', 'Neg', 'Reciprocal', 'Relu', 'Round', 'Sigmoid', 'Sign', 'Sin', 'Sinh', 'Sqrt', 'Tan', 'Tanh', 'Softplus', 'Softsign', 'HardSigmoid', 'HardSwish', 'Elu', 'Selu', 'LeakyRelu', 'ThresholdedRelu', 'Shrink', 'IsNaN', 'IsInf'].map((op) => unary(op)),
  { op: 'Celu', inputs: [F(2, 3)] },
  { op: 'Mish', opset: 18, inputs: [F(2, 3)] },
  { op: 'Gelu', opset: 20, inputs: [F(2, 5)] },
  { op: 'Not', inputs: [T('bool', 3, 2)] },
  { op: 'BitwiseNot', opset: 18, inputs: [T('int32', 3, 2)] },
  binary('Add', [2, 3, 4], [4]),
  binary('Sub', [3, 1], [1, 5]),
  binary('Mul', [1], [2, 3]),
  binary('Div', [2, 1, 4], [3, 1]),
  binary('Pow', [2, 3], [3]),
  { op: 'Mod', inputs: [T('int64', 2, 3), Fed('int64', [3], [2, 3, 5])] },
  { op: 'Mod', label: 'fmod', attrs: { fmod: 1 }, inputs: [F(2, 3), Fv([2, 3, 5])] },
  binary('Equal', [2, 3], [3], 'int64'),
  binary('Greater', [4, 1], [3]),
  binary('Less', [4, 1], [1, 3]),
  binary('GreaterOrEqual', [2, 3], [2, 3]),
  binary('LessOrEqual', [2, 3], [1]),
  binary('And', [2, 3], [3], 'bool'),
  binary('Or', [2, 1], [1, 3], 'bool'),
  binary('Xor', [2, 3], [2, 3], 'bool'),
  binary('BitwiseAnd', [2, 3], [3], 'int32', 18),
  binary('BitwiseOr', [2, 3], [3], 'int32', 18),
  binary('BitwiseXor', [2, 3], [3], 'int32', 18),
  { op: 'BitShift', attrs: { direction: 'LEFT' }, inputs: [T('uint8', 2, 3), U8v([1, 2, 3])] },
  { op: 'Max', inputs: [F(2, 3), F(3), F(1, 1)] },
  { op: 'Min', inputs: [F(2, 1), F(3)] },
  { op: 'Sum', inputs: [F(4, 1, 3), F(2, 1), F(3)] },
  { op: 'Mean', inputs: [F(2, 3), F(2, 3)] },
  { op: 'Where', inputs: [T('bool', 2, 1), F(3), F(2, 3)] },
  { op: 'PRelu', inputs: [F(1, 3, 4, 4), Fv([0.1, 0.2, 0.3], [3, 1, 1])] },
  { op: 'Clip', inputs: [F(2, 3), SF(-0.5), SF(0.5)] },
  { op: 'Clip', label: 'opset 6 attributes', opset: 6, attrs: { min: { f: -1 }, max: { f: 1 } }, inputs: [F(2, 3)] },
  { op: 'Dropout', outputs: 2, inputs: [F(2, 3)] },
  { op: 'Identity', inputs: [F(2, 3)] },
  { op: 'Cast', attrs: { to: 7 }, inputs: [F(2, 3)] },
  { op: 'CastLike', inputs: [F(2, 3), T('int32', 1)] },
  { op: 'Softmax', attrs: { axis: 1 }, inputs: [F(2, 3, 4)] },
  { op: 'LogSoftmax', inputs: [F(2, 3, 4)] },
  { op: 'Hardmax', inputs: [F(2, 3)] },
  { op: 'Softmax', label: 'opset 11 (2-D coercion)', opset: 11, inputs: [F(2, 3, 4)] },
  { op: 'CumSum', inputs: [F(2, 3), S64(1)] },
  { op: 'Trilu', inputs: [F(2, 4, 4), S64(1)] },
  { op: 'EyeLike', inputs: [F(3, 4)] },
  { op: 'RandomNormalLike', inputs: [F(2, 5)] },
  { op: 'RandomUniformLike', inputs: [F(2, 5)] },
  { op: 'Bernoulli', inputs: [Fed('float', [3, 2], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5])] },
  { op: 'ReverseSequence', attrs: { batch_axis: 1, time_axis: 0 }, inputs: [F(4, 2, 3), I64([4, 2])] },
];

// ---- ai.onnx: generators ------------------------------------------------------------------------
const GENERATORS: OpCase[] = [
  { op: 'Constant', inputs: [], attrs: { value: { t: { name: 'c', dtype: 'float', dims: [2, 2], values: [1, 2, 3, 4] } } } },
  { op: 'Constant', label: 'value_ints', inputs: [], attrs: { value_ints: [1, 2, 3] } },
  { op: 'Constant', label: 'value_float', inputs: [], attrs: { value_float: { f: 2 } } },
  { op: 'ConstantOfShape', inputs: [I64([2, 3])], attrs: { value: { t: { name: 'v', dtype: 'int64', dims: [1], values: [7] } } } },
  { op: 'Range', inputs: [S64(10), S64(-2), S64(-3)] },
  { op: 'Range', label: 'float', inputs: [SF(0), SF(1), SF(0.25)] },
  { op: 'RandomNormal', inputs: [], attrs: { shape: [3, 4] } },
  { op: 'RandomUniform', inputs: [], attrs: { shape: [2, 2, 2] } },
  { op: 'Multinomial', attrs: { sample_size: 5 }, inputs: [Fed('float', [2, 3], [0, 0, 0, 0, 0, 0])] },
  { op: 'OneHot', attrs: { axis: 1 }, inputs: [I64([0, 2, 1]), S64(4), Fv([0, 1])] },
  { op: 'HannWindow', inputs: [S64(10)] },
  { op: 'HammingWindow', attrs: { periodic: 0 }, inputs: [S64(7)] },
  { op: 'BlackmanWindow', inputs: [S64(8)] },
  { op: 'MelWeightMatrix', inputs: [S64(8), S64(64), S64(16000), SF(0), SF(8000)] },
];

// ---- ai.onnx: linear algebra, convolution, pooling, normalisation --------------------------------
const NN: OpCase[] = [
  { op: 'MatMul', inputs: [F(2, 1, 3, 4), F(5, 4, 6)] },
  { op: 'MatMul', label: 'vector', inputs: [F(4), F(3, 4, 2)] },
  { op: 'Gemm', attrs: { transB: 1 }, inputs: [F(3, 4), F(5, 4), F(5)] },
  { op: 'Einsum', attrs: { equation: 'bij,bjk->bik' }, inputs: [F(2, 3, 4), F(2, 4, 5)] },
  { op: 'Einsum', label: 'implicit output, ellipsis', attrs: { equation: '...ij,jk' }, inputs: [F(2, 3, 4), F(4, 5)] },
  { op: 'Einsum', label: 'trace-like reduction', attrs: { equation: 'ii->i' }, inputs: [F(3, 3)] },
  { op: 'Det', inputs: [F(2, 3, 3)] },
  { op: 'Conv', attrs: { strides: [2, 2], pads: [1, 1, 1, 1] }, inputs: [F(1, 3, 9, 10), F(4, 3, 3, 3), F(4)] },
  { op: 'Conv', label: 'auto_pad SAME_LOWER', attrs: { auto_pad: 'SAME_LOWER', strides: [3] }, inputs: [F(1, 2, 11), F(4, 2, 3)] },
  { op: 'Conv', label: 'dilation, group, VALID', attrs: { auto_pad: 'VALID', dilations: [2, 1], group: 2 }, inputs: [F(1, 4, 9, 7), F(6, 2, 3, 2)] },
  { op: 'ConvTranspose', attrs: { strides: [2, 2], output_padding: [1, 0], group: 2 }, inputs: [F(1, 4, 5, 6), F(4, 3, 3, 3)] },
  { op: 'ConvTranspose', label: 'output_shape', attrs: { strides: [2, 2], output_shape: [11, 12] }, inputs: [F(1, 4, 5, 6), F(4, 3, 3, 3)] },
  { op: 'ConvInteger', inputs: [T('uint8', 1, 2, 6, 6), U8v(Array(2 * 2 * 3 * 3).fill(1), [2, 2, 3, 3]), U8v([3])], attrs: { pads: [1, 1, 1, 1] } },
  { op: 'MatMulInteger', inputs: [T('uint8', 2, 3, 4), U8v(Array(20).fill(1), [4, 5]), U8v([1]), U8v([2])] },
  {
    op: 'QLinearConv',
    attrs: { strides: [2, 2] },
    inputs: [T('uint8', 1, 2, 7, 7), SF(0.1), { dtype: 'uint8', dims: [], values: [128] }, U8v(Array(3 * 2 * 3 * 3).fill(1), [3, 2, 3, 3]), SF(0.2), { dtype: 'uint8', dims: [], values: [0] }, SF(0.3), { dtype: 'uint8', dims: [], values: [5] }],
  },
  {
    op: 'QLinearMatMul',
    inputs: [T('uint8', 2, 3), SF(0.1), { dtype: 'uint8', dims: [], values: [1] }, U8v(Array(12).fill(2), [3, 4]), SF(0.2), { dtype: 'uint8', dims: [], values: [0] }, SF(0.3), { dtype: 'uint8', dims: [], values: [0] }],
  },
  { op: 'QuantizeLinear', inputs: [F(2, 3), SF(0.1), { dtype: 'uint8', dims: [], values: [10] }] },
  { op: 'QuantizeLinear', label: 'per-axis int8', attrs: { axis: 1 }, inputs: [F(2, 3), Fv([0.1, 0.2, 0.3]), I8v([0, 0, 0])] },
  { op: 'DequantizeLinear', inputs: [T('int8', 2, 3), SF(0.1), { dtype: 'int8', dims: [], values: [1] }] },
  { op: 'DynamicQuantizeLinear', outputs: 3, inputs: [F(3, 4)] },
  { op: 'MaxPool', attrs: { kernel_shape: [3, 3], strides: [2, 2], ceil_mode: 1 }, outputs: 2, inputs: [F(1, 2, 8, 9)] },
  { op: 'MaxPool', label: 'dilations, pads', attrs: { kernel_shape: [2], dilations: [2], pads: [1, 1] }, inputs: [F(1, 2, 10)] },
  { op: 'AveragePool', attrs: { kernel_shape: [3, 3], auto_pad: 'SAME_UPPER', strides: [2, 2] }, inputs: [F(1, 2, 7, 8)] },
  { op: 'LpPool', attrs: { kernel_shape: [2, 2], p: 2 }, inputs: [F(1, 2, 5, 5)] },
  { op: 'GlobalAveragePool', inputs: [F(1, 3, 5, 6)] },
  { op: 'GlobalMaxPool', inputs: [F(1, 3, 5)] },
  { op: 'GlobalLpPool', inputs: [F(1, 3, 4, 4)] },
  { op: 'MaxUnpool', attrs: { kernel_shape: [2, 2], strides: [2, 2] }, inputs: [F(1, 1, 2, 2), I64([0, 3, 9, 14], [1, 1, 2, 2])] },
  { op: 'MaxUnpool', label: 'output_shape input', attrs: { kernel_shape: [2, 2], strides: [2, 2] }, inputs: [F(1, 1, 2, 2), I64([0, 3, 9, 14], [1, 1, 2, 2]), I64([1, 1, 5, 5])] },
  { op: 'MaxRoiPool', attrs: { pooled_shape: [2, 3] }, inputs: [F(1, 2, 8, 8), Fv([0, 0, 0, 4, 4, 0, 1, 1, 6, 6], [2, 5])] },
  { op: 'RoiAlign', attrs: { output_height: 3, output_width: 2 }, inputs: [F(2, 4, 8, 8), Fv([0, 0, 4, 4, 1, 1, 6, 6, 2, 2, 5, 5], [3, 4]), I64([0, 1, 1])] },
  { op: 'BatchNormalization', inputs: [F(2, 3, 4), Fv([1, 1, 1]), Fv([0, 0, 0]), Fv([0, 0, 0]), Fv([1, 1, 1])] },
  { op: 'InstanceNormalization', inputs: [F(2, 3, 4), Fv([1, 1, 1]), Fv([0, 0, 0])] },
  { op: 'LayerNormalization', outputs: 3, attrs: { axis: 1 }, inputs: [F(2, 3, 4), F(3, 4)] },
  { op: 'GroupNormalization', opset: 21, attrs: { num_groups: 2 }, inputs: [F(2, 4, 3), Fv([1, 1, 1, 1]), Fv([0, 0, 0, 0])] },
  { op: 'LpNormalization', attrs: { axis: 1 }, inputs: [F(2, 3)] },
  { op: 'LRN', attrs: { size: 3 }, inputs: [F(1, 4, 3, 3)] },
  { op: 'MeanVarianceNormalization', inputs: [F(2, 3, 4, 5)] },
  { op: 'DeformConv', opset: 19, inputs: [F(1, 2, 5, 5), F(3, 2, 3, 3), F(1, 18, 3, 3)] },
  { op: 'Col2Im', opset: 18, inputs: [F(1, 12, 20), I64([5, 6]), I64([2, 2])] },
  { op: 'GridSample', opset: 16, inputs: [F(1, 2, 5, 6), F(1, 3, 4, 2)] },
  { op: 'AffineGrid', opset: 20, inputs: [F(2, 2, 3), I64([2, 3, 4, 5])] },
];

// ---- ai.onnx: reductions and index ops ------------------------------------------------------------
const REDUCE: OpCase[] = [
  ...['ReduceMean', 'ReduceMax', 'ReduceMin', 'ReduceProd', 'ReduceL1', 'ReduceL2', 'ReduceLogSum', 'ReduceLogSumExp', 'ReduceSumSquare'].map(
    (op): OpCase => ({ op, attrs: { axes: [1], keepdims: 0 }, inputs: [F(2, 3, 4)] }),
  ),
  ...['ReduceMean', 'ReduceMax', 'ReduceL2'].map((op): OpCase => ({ op, opset: 18, label: 'opset 18 axes input', inputs: [F(2, 3, 4), I64([-1, 0])] })),
  { op: 'ReduceSum', inputs: [F(2, 3, 4), I64([2])] },
  { op: 'ReduceSum', label: 'noop_with_empty_axes', attrs: { noop_with_empty_axes: 1 }, inputs: [F(2, 3, 4)] },
  { op: 'ArgMax', attrs: { axis: 1, keepdims: 1 }, inputs: [F(2, 3, 4)] },
  { op: 'ArgMin', attrs: { axis: -1, keepdims: 0 }, inputs: [F(2, 3, 4)] },
  { op: 'TopK', outputs: 2, attrs: { axis: 1 }, inputs: [F(2, 5, 3), I64([2])] },
  { op: 'NonZero', inputs: [Fed('float', [2, 3], [0, 1, 0, 2, 3, 0])], dynamic: { y0: [1] } },
  { op: 'Unique', outputs: 4, attrs: { sorted: 1 }, inputs: [Fed('float', [6], [2, 1, 1, 3, 4, 3])], dynamic: { y0: [0], y1: [0], y3: [0] } },
  { op: 'Unique', label: 'axis', outputs: 4, attrs: { axis: 0 }, inputs: [Fed('float', [3, 2], [1, 2, 1, 2, 3, 4])], dynamic: { y0: [0], y1: [0], y3: [0] } },
  { op: 'Compress', attrs: { axis: 1 }, inputs: [F(3, 2), Bv([0, 1])] },
  { op: 'Compress', label: 'run-time condition, flattened', inputs: [F(3, 2), Fed('bool', [4], [1, 0, 1, 1])], dynamic: { y0: [0] } },
  {
    op: 'NonMaxSuppression',
    inputs: [Fv([0, 0, 1, 1, 0, 0.1, 1, 1.1, 0, 10, 1, 11], [1, 3, 4]), Fv([0.9, 0.75, 0.6], [1, 1, 3]), I64([3]), Fv([0.5]), Fv([0])],
    dynamic: { y0: [0] },
  },
];

// ---- ai.onnx: shape manipulation ----------------------------------------------------------------
const SHAPE: OpCase[] = [
  { op: 'Reshape', inputs: [F(2, 3, 4), I64([0, -1, 2])] },
  { op: 'Reshape', label: 'allowzero', opset: 14, attrs: { allowzero: 1 }, inputs: [F(2, 0, 4), I64([0, 4])] },
  { op: 'Transpose', attrs: { perm: [2, 0, 1] }, inputs: [F(2, 3, 4)] },
  { op: 'Flatten', attrs: { axis: -1 }, inputs: [F(2, 3, 4)] },
  { op: 'Squeeze', inputs: [F(1, 3, 1, 4), I64([0, -2])] },
  { op: 'Squeeze', label: 'no axes', inputs: [F(1, 3, 1, 4)] },
  { op: 'Unsqueeze', inputs: [F(3, 4), I64([0, -1])] },
  { op: 'Unsqueeze', label: 'opset 11 attribute', opset: 11, attrs: { axes: [1] }, inputs: [F(3, 4)] },
  { op: 'Concat', attrs: { axis: -1 }, inputs: [F(2, 3), F(2, 5)] },
  { op: 'Split', outputs: 3, attrs: { axis: 1 }, inputs: [F(2, 6), I64([1, 2, 3])] },
  { op: 'Split', label: 'num_outputs uneven', opset: 18, outputs: 3, attrs: { axis: 0, num_outputs: 3 }, inputs: [F(7, 2)] },
  { op: 'Slice', inputs: [F(10, 6), I64([8, 1]), I64([1, 100]), I64([0, 1]), I64([-3, 2])] },
  { op: 'Slice', label: 'negative step to the start', inputs: [F(5, 2), I64([-1]), I64([-9223372036854775807]), I64([0]), I64([-1])] },
  { op: 'Slice', label: 'opset 1 attributes', opset: 9, attrs: { starts: [1], ends: [-1], axes: [1] }, inputs: [F(3, 5)] },
  { op: 'Gather', attrs: { axis: 1 }, inputs: [F(2, 5, 3), I64([0, 4, 1, 1, 2, 3], [2, 3])] },
  { op: 'GatherElements', attrs: { axis: 1 }, inputs: [F(2, 5), I64([0, 1, 4, 1, 1, 0], [2, 3])] },
  { op: 'GatherND', attrs: { batch_dims: 1 }, inputs: [F(2, 3, 4), I64([0, 1, 2, 0], [2, 2, 1])] },
  { op: 'ScatterElements', attrs: { axis: 1 }, inputs: [F(2, 5), I64([0, 1, 4, 1, 1, 0], [2, 3]), F(2, 3)] },
  { op: 'ScatterND', inputs: [F(4, 3), I64([1, 3], [2, 1]), F(2, 3)] },
  { op: 'Scatter', opset: 10, attrs: { axis: 1 }, inputs: [F(2, 5), I64([0, 1, 4, 1, 1, 0], [2, 3]), F(2, 3)] },
  { op: 'Shape', inputs: [F(2, 3, 4, 5)] },
  { op: 'Shape', label: 'start/end', opset: 15, attrs: { start: 1, end: -1 }, inputs: [F(2, 3, 4, 5)] },
  { op: 'Size', inputs: [F(2, 3, 4)] },
  { op: 'Expand', inputs: [F(3, 1), I64([2, 1, 4])] },
  { op: 'Tile', inputs: [F(2, 3), I64([3, 2])] },
  { op: 'Pad', attrs: { mode: 'reflect' }, inputs: [F(1, 3, 5, 6), I64([0, 0, 1, 2, 0, 0, 2, 1])] },
  { op: 'Pad', label: 'axes input', opset: 18, inputs: [F(3, 5, 6), I64([1, 2, 0, 3]), null, I64([-1, 0])] },
  { op: 'Pad', label: 'opset 2 attribute', opset: 2, attrs: { pads: [1, 0, 2, 3] }, inputs: [F(2, 3)] },
  { op: 'Resize', attrs: { mode: 'nearest' }, inputs: [F(1, 2, 4, 5), null, Fv([1, 1, 2, 1.5])] },
  { op: 'Resize', label: 'sizes', attrs: { mode: 'linear' }, inputs: [F(1, 2, 4, 5), null, null, I64([1, 2, 7, 3])] },
  { op: 'Resize', label: 'axes, keep_aspect_ratio_policy', opset: 18, attrs: { axes: [2, 3], keep_aspect_ratio_policy: 'not_larger' }, inputs: [F(1, 2, 4, 8), null, null, I64([6, 6])] },
  { op: 'Upsample', opset: 9, inputs: [F(1, 2, 3, 3), Fv([1, 1, 2, 3])] },
  { op: 'DepthToSpace', attrs: { blocksize: 2, mode: 'CRD' }, inputs: [F(1, 8, 2, 3)] },
  { op: 'SpaceToDepth', attrs: { blocksize: 2 }, inputs: [F(1, 2, 4, 6)] },
  { op: 'CenterCropPad', opset: 18, inputs: [F(5, 3, 2), I64([3, 4])], attrs: { axes: [0, 1] } },
];

// ---- ai.onnx: recurrent, signal, losses, strings --------------------------------------------------
const OTHER: OpCase[] = [
  { op: 'LSTM', outputs: 3, attrs: { hidden_size: 5, direction: 'bidirectional' }, inputs: [F(7, 2, 3), F(2, 20, 3), F(2, 20, 5)] },
  { op: 'GRU', outputs: 2, attrs: { hidden_size: 4 }, inputs: [F(6, 2, 3), F(1, 12, 3), F(1, 12, 4)] },
  {
    op: 'GRU',
    label: 'layout 1',
    outputs: 2,
    attrs: { hidden_size: 4, layout: 1 },
    inputs: [F(2, 6, 3), F(1, 12, 3), F(1, 12, 4)],
    spec: { cite: `${ONNX} #GRU (opset 14): with layout=1, Y is [batch_size, seq_length, num_directions, hidden_size] and Y_h [batch_size, num_directions, hidden_size]; ORT CPU refuses layout 1`, expect: { y0: [2, 6, 1, 4], y1: [2, 1, 4] } },
  },
  { op: 'RNN', outputs: 2, attrs: { hidden_size: 4 }, inputs: [F(5, 2, 3), F(1, 4, 3), F(1, 4, 4)] },
  { op: 'DFT', opset: 20, inputs: [F(2, 8, 1), S64(8), S64(1)], attrs: { onesided: 1 } },
  { op: 'DFT', label: 'opset 17, complex input, inverse', opset: 17, attrs: { axis: 1, inverse: 1 }, inputs: [F(2, 6, 2)] },
  { op: 'STFT', opset: 17, inputs: [F(2, 64, 1), S64(16), Fv(Array(16).fill(1))] },
  { op: 'NegativeLogLikelihoodLoss', attrs: { reduction: 'none' }, inputs: [F(3, 5, 2), I64([0, 1, 2, 3, 4, 0], [3, 2])] },
  { op: 'NegativeLogLikelihoodLoss', label: 'mean', inputs: [F(3, 5), I64([0, 1, 2])] },
  { op: 'SoftmaxCrossEntropyLoss', outputs: 2, attrs: { reduction: 'none' }, inputs: [F(3, 5, 2), I64([0, 1, 2, 3, 4, 0], [3, 2])] },
  { op: 'StringNormalizer', attrs: { case_change_action: 'UPPER', locale: 'C' }, inputs: [T('string', 1, 3)] },
  { op: 'StringConcat', opset: 20, inputs: [T('string', 2, 3), T('string', 3)] },
  { op: 'StringSplit', opset: 20, outputs: 2, attrs: { delimiter: ' ' }, inputs: [Fed('string', [2], ['a b c', 'd'])], dynamic: { y0: [1] } },
  { op: 'RegexFullMatch', opset: 20, attrs: { pattern: 'H.*' }, inputs: [T('string', 2, 2)] },
  { op: 'TfIdfVectorizer', attrs: { mode: 'TF', min_gram_length: 1, max_gram_length: 1, max_skip_count: 0, ngram_counts: [0], ngram_indexes: [0, 1, 2], pool_int64s: [2, 3, 5] }, inputs: [Fed('int64', [2, 4], [2, 3, 5, 4, 5, 6, 7, 8])] },
  {
    op: 'ImageDecoder',
    opset: 20,
    inputs: [T('uint8', 16)],
    spec: { cite: `${ONNX} #ImageDecoder: output "Decoded image" has shape [H, W, C] (rank 3); H, W, C come from the encoded data`, expect: { y0: [null, null, null] } },
  },
];

// ---- ai.onnx: sequences, optionals, control flow -------------------------------------------------
const seqAt = (seq: string, out: string, index = 0) => ({ op: 'SequenceAt', inputs: [seq, `${out}_i`], outputs: [out] });
const idx = (name: string, v: number) => ({ op: 'Constant', inputs: [], outputs: [name], attrs: { value: { t: { name, dtype: 'int64' as const, dims: [], values: [v] } } } });
const SEQUENCES: OpCase[] = [
  { op: 'SequenceConstruct', inputs: [F(2, 3), F(4, 3)], hidden: ['y0'], then: [idx('a_i', 1), seqAt('y0', 'a'), { op: 'SequenceLength', inputs: ['y0'], outputs: ['n'] }], thenOutputs: ['a', 'n'] },
  { op: 'SequenceEmpty', inputs: [], attrs: { dtype: 1 }, hidden: ['y0'], then: [{ op: 'SequenceLength', inputs: ['y0'], outputs: ['n'] }], thenOutputs: ['n'] },
  {
    op: 'SplitToSequence',
    attrs: { axis: 1 },
    inputs: [F(2, 6), I64([2, 4])],
    hidden: ['y0'],
    then: [idx('a_i', -1), seqAt('y0', 'a'), { op: 'ConcatFromSequence', inputs: ['y0'], outputs: ['c'], attrs: { axis: 1, new_axis: 0 } }],
    thenOutputs: ['a', 'c'],
  },
  {
    op: 'SplitToSequence',
    label: 'keepdims 0',
    attrs: { axis: 0, keepdims: 0 },
    inputs: [F(3, 4)],
    hidden: ['y0'],
    then: [idx('a_i', 0), seqAt('y0', 'a'), { op: 'ConcatFromSequence', inputs: ['y0'], outputs: ['c'], attrs: { axis: -1, new_axis: 1 } }],
    thenOutputs: ['a', 'c'],
  },
  {
    op: 'SequenceConstruct',
    label: 'then SequenceInsert, SequenceErase',
    inputs: [F(2, 2), F(3, 2)],
    hidden: ['y0', 's1', 's2'],
    then: [
      { op: 'SequenceInsert', inputs: ['y0', 'x0'], outputs: ['s1'] },
      { op: 'SequenceErase', inputs: ['s1'], outputs: ['s2'] },
      { op: 'SequenceLength', inputs: ['s2'], outputs: ['n'] },
      idx('a_i', 1),
      seqAt('s2', 'a'),
    ],
    thenOutputs: ['n', 'a'],
  },
  {
    op: 'SplitToSequence',
    label: 'then SequenceMap',
    attrs: { axis: 1 },
    inputs: [F(2, 6), I64([2, 4])],
    hidden: ['y0', 'm'],
    then: [
      {
        op: 'SequenceMap',
        inputs: ['y0'],
        outputs: ['m'],
        attrs: {
          body: {
            g: {
              name: 'map',
              nodes: [{ op: 'Transpose', inputs: ['e'], outputs: ['et'] }],
              inputs: [{ name: 'e', dtype: 'float', dims: [2, 'k'] }],
              outputs: [{ name: 'et', dtype: 'float' }],
            },
          },
        },
      },
      idx('a_i', 1),
      seqAt('m', 'a'),
    ],
    thenOutputs: ['a'],
  },
  { op: 'Optional', inputs: [F(2, 3)], hidden: ['y0'], then: [{ op: 'OptionalGetElement', inputs: ['y0'], outputs: ['e'] }, { op: 'OptionalHasElement', inputs: ['y0'], outputs: ['h'] }], thenOutputs: ['e', 'h'], opset: 18 },
];

const branch = (name: string, out: string, dims: number[], fill: number): { g: import('../helpers/onnxBuilder').GraphSpec } => ({
  g: {
    name,
    nodes: [{ op: 'ConstantOfShape', inputs: [`${name}_s`], outputs: [out], attrs: { value: { t: { name: 'v', dtype: 'float', dims: [1], values: [fill] } } } }],
    initializers: [{ name: `${name}_s`, dtype: 'int64', dims: [dims.length], values: dims }],
    inputs: [],
    outputs: [{ name: out, dtype: 'float' }],
  },
});
const CONTROL: OpCase[] = [
  { op: 'If', inputs: [Fed('bool', [], [1])], attrs: { then_branch: branch('then', 't', [2, 3], 1), else_branch: branch('else', 'e', [2, 5], 0) }, label: 'run-time condition, branches differ', dynamic: { y0: [1] } },
  { op: 'If', inputs: [Bv([0], [])], attrs: { then_branch: branch('then', 't', [2, 3], 1), else_branch: branch('else', 'e', [4, 5], 0) }, label: 'folded condition' },
  {
    op: 'Loop',
    outputs: 2,
    inputs: [S64(4), Bv([1], []), F(2)],
    attrs: {
      body: {
        g: {
          name: 'body',
          nodes: [
            { op: 'Identity', inputs: ['cond_in'], outputs: ['cond_out'] },
            { op: 'Add', inputs: ['v_in', 'v_in'], outputs: ['v_out'] },
            { op: 'Unsqueeze', inputs: ['v_in', 'ax'], outputs: ['scan_out'] },
          ],
          initializers: [{ name: 'ax', dtype: 'int64', dims: [1], values: [0] }],
          inputs: [
            { name: 'iter', dtype: 'int64', dims: [] },
            { name: 'cond_in', dtype: 'bool', dims: [] },
            { name: 'v_in', dtype: 'float', dims: [2] },
          ],
          outputs: [
            { name: 'cond_out', dtype: 'bool', dims: [] },
            { name: 'v_out', dtype: 'float', dims: [2] },
            { name: 'scan_out', dtype: 'float', dims: [1, 2] },
          ],
        },
      },
    },
  },
  {
    op: 'Scan',
    outputs: 2,
    inputs: [F(3), F(5, 3)],
    attrs: {
      num_scan_inputs: 1,
      body: {
        g: {
          name: 'body',
          nodes: [
            { op: 'Add', inputs: ['acc_in', 'x_t'], outputs: ['acc_out'] },
            { op: 'Identity', inputs: ['acc_out'], outputs: ['y_t'] },
          ],
          inputs: [
            { name: 'acc_in', dtype: 'float', dims: [3] },
            { name: 'x_t', dtype: 'float', dims: [3] },
          ],
          outputs: [
            { name: 'acc_out', dtype: 'float', dims: [3] },
            { name: 'y_t', dtype: 'float', dims: [3] },
          ],
        },
      },
    },
  },
];

// ---- com.microsoft: what exporters, fusions and quantizers emit ------------------------------------
const q8 = (v: number) => ({ dtype: 'uint8' as const, dims: [], values: [v] });
const MICROSOFT: OpCase[] = [
  { op: 'QuantizeLinear', domain: MS, inputs: [F(2, 3), SF(0.1), q8(3)] },
  { op: 'DequantizeLinear', domain: MS, inputs: [T('uint8', 2, 3), SF(0.1), q8(3)] },
  { op: 'QLinearAdd', domain: MS, inputs: [T('uint8', 2, 3), SF(0.1), q8(0), T('uint8', 3), SF(0.1), q8(0), SF(0.2), q8(0)] },
  { op: 'QLinearMul', domain: MS, inputs: [T('uint8', 2, 1), SF(0.1), q8(0), T('uint8', 1, 3), SF(0.1), q8(0), SF(0.2), q8(0)] },
  { op: 'QLinearSigmoid', domain: MS, inputs: [T('uint8', 2, 3), SF(0.1), q8(0), SF(0.2), q8(0)] },
  { op: 'QLinearLeakyRelu', domain: MS, inputs: [T('uint8', 2, 3), SF(0.1), q8(0), SF(0.2), q8(0)] },
  { op: 'QLinearSoftmax', domain: MS, attrs: { axis: -1, opset: 13 }, inputs: [T('uint8', 2, 3), SF(0.1), q8(0), SF(1 / 256), q8(0)] },
  { op: 'QLinearGlobalAveragePool', domain: MS, attrs: { channels_last: 0 }, inputs: [T('uint8', 1, 3, 4, 5), SF(0.1), q8(0), SF(0.2), q8(0)] },
  { op: 'QLinearAveragePool', domain: MS, attrs: { kernel_shape: [2, 2], strides: [2, 2] }, inputs: [T('uint8', 1, 3, 4, 5), SF(0.1), q8(0), SF(0.2), q8(0)] },
  { op: 'QLinearConcat', domain: MS, attrs: { axis: 1 }, inputs: [SF(0.2), q8(0), T('uint8', 2, 3), SF(0.1), q8(0), T('uint8', 2, 4), SF(0.1), q8(0)] },
  { op: 'QLinearWhere', domain: MS, inputs: [T('bool', 2, 1), T('uint8', 3), SF(0.1), q8(0), T('uint8', 2, 3), SF(0.1), q8(0), SF(0.1), q8(0)] },
  {
    op: 'QLinearConv',
    domain: MS,
    attrs: { pads: [1, 1, 1, 1] },
    inputs: [T('uint8', 1, 2, 5, 5), SF(0.1), q8(128), I8v(Array(3 * 2 * 9).fill(1), [3, 2, 3, 3]), SF(0.2), { dtype: 'int8', dims: [], values: [0] }, SF(0.3), q8(5)],
  },
  { op: 'MatMulIntegerToFloat', domain: MS, inputs: [T('uint8', 2, 3, 4), U8v(Array(20).fill(1), [4, 5]), SF(0.1), SF(0.2), q8(1), q8(2)] },
  { op: 'DynamicQuantizeMatMul', domain: MS, inputs: [F(2, 3, 4), I8v(Array(20).fill(1), [4, 5]), SF(0.2)] },
  { op: 'MatMulInteger16', domain: MS, inputs: [T('int16', 2, 3), { dtype: 'int16', dims: [3, 4], values: Array(12).fill(1) }] },
  {
    op: 'QGemm',
    domain: MS,
    attrs: { transB: 1 },
    inputs: [T('uint8', 3, 4), SF(0.1), q8(0), U8v(Array(20).fill(1), [5, 4]), SF(0.1), q8(0), null, SF(0.1), q8(0)],
  },
  { op: 'NhwcMaxPool', domain: MS, attrs: { kernel_shape: [2, 2], strides: [2, 2] }, inputs: [T('uint8', 1, 6, 7, 3)] },
  { op: 'FusedConv', domain: MS, attrs: { activation: 'Relu', pads: [1, 1, 1, 1] }, inputs: [F(1, 2, 5, 5), F(4, 2, 3, 3), F(4)] },
  { op: 'FusedGemm', domain: MS, attrs: { activation: 'Relu', transA: 1 }, inputs: [F(4, 3), F(4, 5)] },
  { op: 'FusedMatMul', domain: MS, attrs: { transB: 1, alpha: { f: 0.5 } }, inputs: [F(2, 3, 4), F(2, 5, 4)] },
  { op: 'TransposeMatMul', domain: MS, attrs: { transA: 1 }, inputs: [F(4, 3), F(4, 5)] },
  { op: 'Gelu', domain: MS, inputs: [F(2, 3)] },
  { op: 'FastGelu', domain: MS, inputs: [F(2, 3, 4), F(4)] },
  { op: 'BiasGelu', domain: MS, inputs: [F(2, 3, 4), F(4)] },
  { op: 'QuickGelu', domain: MS, inputs: [F(2, 3)] },
  { op: 'LayerNormalization', label: 'contrib (ai.onnx domain, opset 13)', opset: 13, outputs: 3, attrs: { axis: -1 }, inputs: [F(2, 3, 4), F(4), F(4)] },
  { op: 'SimplifiedLayerNormalization', opset: 13, outputs: 2, attrs: { axis: -1 }, inputs: [F(2, 3, 4), F(4)] },
  { op: 'SkipLayerNormalization', domain: MS, outputs: 4, inputs: [F(2, 3, 4), F(2, 3, 4), F(4), F(4), F(4)] },
  { op: 'SkipSimplifiedLayerNormalization', domain: MS, outputs: 4, inputs: [F(2, 3, 4), F(2, 3, 4), F(4)] },
  {
    op: 'EmbedLayerNormalization',
    domain: MS,
    outputs: 3,
    inputs: [Fed('int32', [2, 3], [1, 2, 3, 0, 1, 2]), Fed('int32', [2, 3], [0, 0, 0, 1, 1, 1]), F(10, 4), F(8, 4), F(2, 4), F(4), F(4)],
  },
  { op: 'Attention', domain: MS, outputs: 1, attrs: { num_heads: 2 }, inputs: [F(2, 3, 4), F(4, 12), F(12)] },
  { op: 'Attention', domain: MS, label: 'past/present', outputs: 2, attrs: { num_heads: 2 }, inputs: [F(2, 3, 4), F(4, 12), F(12), null, F(2, 2, 2, 5, 2)] },
  { op: 'MultiHeadAttention', domain: MS, attrs: { num_heads: 2 }, inputs: [F(2, 3, 8), F(2, 5, 8), F(2, 5, 8)] },
  {
    op: 'GroupQueryAttention',
    domain: MS,
    outputs: 3,
    attrs: { num_heads: 4, kv_num_heads: 2 },
    inputs: [F(1, 3, 32), F(1, 3, 16), F(1, 3, 16), F(1, 2, 5, 8), F(1, 2, 5, 8), Fed('int32', [1], [7]), { dtype: 'int32', dims: [], values: [8] }],
  },
  { op: 'RotaryEmbedding', domain: MS, inputs: [F(1, 3, 8), Fed('int64', [1], [0]), F(8, 4), F(8, 4)] },
  { op: 'BiasAdd', domain: MS, inputs: [F(2, 3, 4), F(4), F(2, 3, 4)], spec: { cite: `${MS} ContribOperators.md #BiasAdd: Y has the shape of X (batch, seq, hidden); CUDA-only kernel`, expect: { y0: [2, 3, 4] } } },
  { op: 'BiasSplitGelu', domain: MS, inputs: [F(2, 3, 8), F(8)], spec: { cite: `${MS} ContribOperators.md #BiasSplitGelu: Y is (N, S, D/2); CUDA-only kernel`, expect: { y0: [2, 3, 4] } } },
  { op: 'GroupNorm', domain: MS, attrs: { groups: 2, activation: 0, epsilon: { f: 1e-5 } }, inputs: [F(1, 4, 4, 8), F(8), F(8)], spec: { cite: `${MS} ContribOperators.md #GroupNorm: Y has the shape of X (N, H, W, C); CUDA-only kernel`, expect: { y0: [1, 4, 4, 8] } } },
  { op: 'ExpandDims', domain: MS, inputs: [F(2, 3), { dtype: 'int32', dims: [], values: [-1] }] },
  { op: 'Range', domain: MS, inputs: [S64(1), S64(9), S64(3)] },
  { op: 'Pad', domain: MS, inputs: [F(2, 3), I64([1, 0, 2, 1])] },
  { op: 'Trilu', domain: MS, inputs: [F(3, 4)] },
  { op: 'Inverse', domain: MS, inputs: [Fed('float', [2, 2, 2], [2, 0, 0, 2, 1, 0, 0, 1])] },
  { op: 'GatherND', domain: MS, inputs: [F(2, 3, 4), I64([0, 1, 1, 2], [2, 2])] },
  { op: 'CDist', domain: MS, inputs: [F(3, 4), F(5, 4)] },
  { op: 'CropAndResize', domain: MS, attrs: {}, inputs: [F(1, 2, 8, 8), Fv([0, 0, 1, 1, 0.2, 0.2, 0.8, 0.8], [2, 4]), I32([0, 0]), I32([3, 4])] },
  { op: 'GridSample', domain: MS, inputs: [F(1, 2, 5, 6), F(1, 3, 4, 2)] },
  { op: 'MaxpoolWithMask', domain: MS, attrs: { kernel_shape: [2, 2], strides: [2, 2] }, inputs: [F(1, 2, 4, 6), Fed('int32', [1, 2, 4, 6], Array(48).fill(1))] },
  { op: 'ConvTransposeWithDynamicPads', domain: MS, attrs: { strides: [2, 2] }, inputs: [F(1, 2, 3, 3), F(2, 3, 3, 3), I64([1, 1, 1, 1])] },
  { op: 'Unique', domain: MS, outputs: 3, inputs: [Fed('float', [5], [3, 1, 3, 2, 1])], dynamic: { y0: [0], y2: [0] } },
  { op: 'WordConvEmbedding', domain: MS, attrs: { embedding_size: 4, conv_window_size: 2, char_embedding_size: 3 }, inputs: [Fed('int32', [2, 5], [1, 2, 3, 0, 0, 4, 5, 0, 0, 0]), F(4, 1, 2, 3), F(4), F(10, 3)] },
  { op: 'MurmurHash3', domain: MS, inputs: [T('int32', 2, 3)] },
  { op: 'Tokenizer', domain: MS, attrs: { mark: 0, mincharnum: 1, pad_value: '#', separators: { strings: [' '] } }, inputs: [Fed('string', [2], ['a b', 'c d e'])], dynamic: { y0: [1] } },
  { op: 'MatMulNBits', domain: MS, attrs: { K: 16, N: 4, bits: 4, block_size: 16 }, inputs: [F(2, 16), U8v(Array(4 * 1 * 8).fill(0x11), [4, 1, 8]), Fv([1, 1, 1, 1])] },
];

export const OP_CASES: OpCase[] = [...ELEMENTWISE, ...GENERATORS, ...NN, ...REDUCE, ...SHAPE, ...OTHER, ...SEQUENCES, ...CONTROL, ...MICROSOFT];
