// Shape rules for com.microsoft operators: what onnxruntime's graph fusions, quantizer
// (quantize_static/quantize_dynamic) and transformer exporters write into files. Formulas from
// https://github.com/microsoft/onnxruntime/blob/main/docs/ContribOperators.md; every rule is checked against onnxruntime's CPU kernels in
// test/unit/onnx/onnx-op-shapes.test.ts (or against that document where only a CUDA kernel exists).
import { broadcastShapes, normAxis } from '../dims';
import { DT, type Dim } from '../model';
import {
  conv,
  convTranspose,
  fact,
  gatherND,
  gemm,
  gridSample,
  layerNorm,
  matmul,
  pad,
  pool,
  range,
  same,
  unknownDims,
  unsqueeze,
  type Rule,
  type RuleCtx,
} from '../shapeRules';
import { onInputs, view } from './aiOnnx';

const num = (d: Dim): d is number => typeof d === 'number';

const sameAs0 =
  (dtype?: number): Rule =>
  (c) => [fact(c.shape(0), dtype ?? c.dtype(0))];

const qlinearBinary: Rule = (c) => [fact(broadcastShapes([c.shape(0), c.shape(3)]), c.dtype(0))];

const qlinearGlobalAveragePool: Rule = (c) => {
  const x = c.shape(0);
  if (!x || x.length < 3) return [fact(null, c.dtype(0))];
  const last = c.int('channels_last', 0) === 1;
  return [fact(last ? [x[0], ...x.slice(1, -1).map(() => 1), x[x.length - 1]] : [x[0], x[1], ...x.slice(2).map(() => 1)], c.dtype(0))];
};

/** NHWC pooling (QLinearAveragePool with channels_last, NhwcMaxPool): pool over the middle axes. */
function nhwcPool(c: RuleCtx, x: Dim[]): Dim[] {
  const nchw = [x[0], x[x.length - 1], ...x.slice(1, -1)];
  const out = pool(view(c, [{ shape: nchw, dtype: c.dtype(0) }]))[0]?.shape;
  return out ? [out[0], ...out.slice(2), out[1]] : nulls(x.length);
}
const nulls = (n: number): Dim[] => unknownDims(n, 'a rank');

const qlinearAveragePool: Rule = (c) => {
  const x = c.shape(0);
  if (!x || x.length < 3) return [fact(null, c.dtype(0))];
  if (c.int('channels_last', 0) === 1) return [fact(nhwcPool(c, x), c.dtype(0))];
  return [fact(pool(view(c, [c.inputs[0]]))[0]?.shape ?? null, c.dtype(0))];
};

const nhwcMaxPool: Rule = (c) => {
  const x = c.shape(0);
  return [fact(x && x.length >= 3 ? nhwcPool(c, x) : null, c.dtype(0))];
};

/** QLinearConcat(Y_scale, Y_zp, (X, X_scale, X_zp)...). */
const qlinearConcat: Rule = (c) => {
  const xs: number[] = [];
  for (let i = 2; i < c.node.inputs.length; i += 3) xs.push(i);
  const shapes = xs.map((i) => c.shape(i));
  const dtype = c.dtype(2);
  if (shapes.some((s) => !s)) return [fact(null, dtype)];
  const ss = shapes as Dim[][];
  const axis = normAxis(c.int('axis', 0), ss[0].length);
  if (axis === undefined) return [fact(null, dtype)];
  const out = ss[0].map((d, i) => {
    if (i !== axis) return ss.map((s) => s[i]).find(num) ?? d;
    let sum = 0;
    for (const s of ss) {
      if (!num(s[i])) return null;
      sum += s[i] as number;
    }
    return sum;
  });
  return [fact(out, dtype)];
};

const qlinearWhere: Rule = (c) => [fact(broadcastShapes([c.shape(0), c.shape(1), c.shape(4)]), c.dtype(1))];

const floatMatmul: Rule = (c) => [fact(matmul(c)[0]?.shape ?? null, DT.FLOAT)];
const int32Matmul: Rule = (c) => [fact(matmul(c)[0]?.shape ?? null, DT.INT32)];

/** QGemm(A, a_scale, a_zp, B, b_scale, b_zp, C?, y_scale?, y_zp?): float out without y_scale. */
const qgemm: Rule = (c) => {
  const g = gemm(view(c, [c.inputs[0], c.inputs[3]]))[0]?.shape ?? null;
  return [fact(g, c.has(8) ? c.dtype(8) : DT.FLOAT)];
};

/** FusedMatMul/TransposeMatMul: MatMul with the last two axes of A and/or B swapped first. */
const fusedMatMul: Rule = (c) => {
  const swap = (s: Dim[] | null, t: boolean) => (s && t && s.length >= 2 ? [...s.slice(0, -2), s[s.length - 1], s[s.length - 2]] : s);
  const a = swap(c.shape(0), c.int('transA', 0) === 1);
  const b = swap(c.shape(1), c.int('transB', 0) === 1);
  return [
    fact(
      matmul(
        view(c, [
          { shape: a, dtype: c.dtype(0) },
          { shape: b, dtype: c.dtype(1) },
        ]),
      )[0]?.shape ?? null,
      c.dtype(0),
    ),
  ];
};

/** LayerNormalization-like ops with (output, mean?, inv_std_var?, sum?) outputs: stats keep the leading axes. */
const skipLayerNorm: Rule = (c) => {
  const x = c.shape(0);
  const stat = x ? [...x.slice(0, -1), 1] : null;
  return [fact(x, c.dtype(0)), fact(stat, DT.FLOAT), fact(stat, DT.FLOAT), fact(x, c.dtype(0))];
};
const skipSimplifiedLayerNorm: Rule = (c) => {
  const x = c.shape(0);
  const stat = x ? [...x.slice(0, -1), 1] : null;
  return [fact(x, c.dtype(0)), fact(stat, DT.FLOAT), fact(stat, DT.FLOAT), fact(x, c.dtype(0))];
};
/** SimplifiedLayerNormalization (RMSNorm; onnxruntime registers it in the ai.onnx domain): Y, inv_std_var. */
export const simplifiedLayerNorm: Rule = (c) => {
  const r = layerNorm(c);
  return [r[0], r[2]];
};

/** EmbedLayerNormalization(input_ids [B,S], segment_ids, word_emb [V,H], ...): [B,S,H], mask_index [B], sum. */
const embedLayerNorm: Rule = (c) => {
  const ids = c.shape(0);
  const w = c.shape(2);
  const h = w && w.length === 2 ? w[1] : null;
  const out = ids && ids.length === 2 ? [ids[0], ids[1], h] : null;
  return [fact(out, c.dtype(2) || DT.FLOAT), fact(ids ? [ids[0]] : null, DT.INT32), fact(out, c.dtype(2) || DT.FLOAT)];
};

/** Attention(input [B,S,Hin], weights [Hin, 3H] or qkv_hidden_sizes, bias, mask, past [2,B,N,P,h]). */
const attention: Rule = (c) => {
  const x = c.shape(0);
  const w = c.shape(1);
  const heads = c.int('num_heads', 0);
  const sizes = c.ints('qkv_hidden_sizes');
  const dtype = c.dtype(0);
  const vHidden: Dim = sizes ? sizes[2] : w && num(w[1]) ? w[1] / 3 : null;
  if (!x || x.length !== 3) return [fact(null, dtype), fact(null, dtype)];
  const out = [x[0], x[1], vHidden];
  const past = c.has(4) ? c.shape(4) : null;
  const headSize = num(vHidden) && heads ? vHidden / heads : null;
  const pastLen = past && past.length === 5 ? past[3] : c.has(4) ? null : 0;
  const total = num(pastLen) && num(x[1]) ? pastLen + x[1] : null;
  return [fact(out, dtype), fact([2, x[0], heads || null, total, headSize], dtype)];
};

/** MultiHeadAttention(query [B,S,D], key [B,L,D] | [B,N,L,h], value [B,L,Dv] | [B,N,L,hv], ...). */
const multiHeadAttention: Rule = (c) => {
  const q = c.shape(0);
  const k = c.has(1) ? c.shape(1) : null;
  const v = c.has(2) ? c.shape(2) : null;
  const heads = c.int('num_heads', 0);
  const dtype = c.dtype(0);
  if (!q || q.length !== 3) return [fact(null, dtype), fact(null, dtype), fact(null, dtype)];
  let vHidden: Dim = null;
  if (v && v.length === 3) vHidden = v[2];
  else if (v && v.length === 4 && num(v[1]) && num(v[3])) vHidden = v[1] * v[3];
  else if (!c.has(2) && num(q[2])) vHidden = q[2];
  const kvLen: Dim = k && k.length === 3 ? k[1] : k && k.length === 4 ? k[2] : q[1];
  const pastK = c.has(6) ? c.shape(6) : null;
  const total = pastK && pastK.length === 4 && num(pastK[2]) && num(kvLen) ? pastK[2] + kvLen : c.has(6) ? null : kvLen;
  const head = (hidden: Dim) => (num(hidden) && heads ? hidden / heads : null);
  const kHidden = k && k.length === 3 ? k[2] : q[2];
  return [
    fact([q[0], q[1], vHidden], dtype),
    fact([q[0], heads || null, total, head(kHidden)], dtype),
    fact([q[0], heads || null, total, head(vHidden)], dtype),
  ];
};

/** GroupQueryAttention(query, key, value, past_key, past_value, seqlens_k, total_sequence_length, ...). */
const groupQueryAttention: Rule = (c) => {
  const q = c.shape(0);
  const heads = c.int('num_heads', 0);
  const kvHeads = c.int('kv_num_heads', 0);
  const dtype = c.dtype(0);
  if (!q || q.length !== 3) return [fact(null, dtype), fact(null, dtype), fact(null, dtype)];
  const packed = !c.has(1);
  const k = c.shape(1);
  const headSize: Dim = packed ? (num(q[2]) && heads + 2 * kvHeads ? q[2] / (heads + 2 * kvHeads) : null) : num(q[2]) && heads ? q[2] / heads : null;
  const past = c.has(3) ? c.shape(3) : null;
  const total = c.numbers(6)?.[0];
  const pastLen = past && past.length === 4 ? past[2] : null;
  // present = max(past buffer, total_sequence_length) along the sequence axis
  const presentLen: Dim = num(pastLen) && total !== undefined ? Math.max(pastLen, total) : !c.has(3) && total !== undefined ? total : null;
  const out = [q[0], q[1], num(headSize) ? headSize * heads : null];
  void k;
  const present = [q[0], kvHeads || null, presentLen, headSize];
  return [fact(out, dtype), fact(present, dtype), fact(present, dtype)];
};

const biasSplitGelu: Rule = (c) => {
  const x = c.shape(0);
  return [fact(x ? [...x.slice(0, -1), num(x[x.length - 1]) ? (x[x.length - 1] as number) / 2 : null] : null, c.dtype(0))];
};

/** ExpandDims(X, axis scalar): Unsqueeze with the axis as a value. */
const expandDims: Rule = (c) => {
  const axis = c.numbers(1)?.[0];
  const x = c.shape(0);
  if (!x || axis === undefined) return [fact(x ? nulls(x.length + 1) : null, c.dtype(0))];
  return unsqueeze(view(c, [c.inputs[0], { shape: [1], dtype: DT.INT64, value: [axis] }], { opset: 13 }));
};

/** com.microsoft Pad: pads may be [2r] or [1, 2r]. */
const msPad: Rule = (c) => {
  const p = c.inputs[1];
  const flat = p?.shape && p.shape.length === 2 ? { ...p, shape: [p.shape[1]] } : p;
  return pad(view(c, [c.inputs[0], flat, c.inputs[2]], { opset: 11 }));
};

const cdist: Rule = (c) => {
  const a = c.shape(0);
  const b = c.shape(1);
  return [fact([a ? a[0] : null, b ? b[0] : null], c.dtype(0))];
};

const cropAndResize: Rule = (c) => {
  const x = c.shape(0);
  const rois = c.shape(1);
  const size = c.numbers(3);
  return [fact([rois ? rois[0] : null, x && x.length > 1 ? x[1] : null, size?.[0] ?? null, size?.[1] ?? null], c.dtype(0))];
};

const maxpoolWithMask: Rule = (c) => [fact(pool(c)[0]?.shape ?? null, c.dtype(0))];

const convTransposeDynamicPads: Rule = (c) => {
  const pads = c.numbers(2);
  if (!pads) return [fact(null, c.dtype(0))];
  const attributes = [...c.node.attributes.filter((a) => a.name !== 'pads'), { name: 'pads', type: 'ints' as const, ints: pads }];
  return convTranspose(view(c, [c.inputs[0], c.inputs[1]], { attributes }));
};

const msUnique: Rule = (c) => {
  const x = c.shape(0);
  return [fact([null], c.dtype(0)), fact(x, DT.INT64), fact([null], DT.INT64)];
};

const wordConvEmbedding: Rule = (c) => {
  const seq = c.shape(0);
  return [fact(seq ? [seq[0], c.int('embedding_size', 0) || null] : null, c.dtype(2) || DT.FLOAT)];
};

const murmurHash3: Rule = (c) => [fact(c.shape(0), c.int('positive', 1) === 1 ? 12 : DT.INT32)];

const tokenizer: Rule = (c) => {
  const x = c.shape(0);
  return [fact(x ? [...x, null] : null, DT.STRING)];
};

/** MatMulNBits(A [..., K], B packed, scales, ...): [..., N]. */
const matMulNBits: Rule = (c) => {
  const a = c.shape(0);
  const n = c.attr('N')?.i ?? null;
  return [fact(a ? [...a.slice(0, -1), n] : null, c.dtype(0))];
};

export const MICROSOFT_RULES: Record<string, Rule> = {
  QuantizeLinear: (c) => [fact(c.shape(0), c.dtype(2) || DT.UINT8)],
  DequantizeLinear: (c) => [fact(c.shape(0), c.dtype(1) || DT.FLOAT)],
  QLinearAdd: qlinearBinary,
  QLinearMul: qlinearBinary,
  QLinearSigmoid: sameAs0(),
  QLinearLeakyRelu: sameAs0(),
  QLinearSoftmax: sameAs0(),
  QLinearGlobalAveragePool: qlinearGlobalAveragePool,
  QLinearAveragePool: qlinearAveragePool,
  QLinearConcat: qlinearConcat,
  QLinearWhere: qlinearWhere,
  QLinearConv: onInputs(conv, [0, 3], (c) => c.dtype(7) || DT.UINT8),
  MatMulIntegerToFloat: floatMatmul,
  DynamicQuantizeMatMul: floatMatmul,
  MatMulInteger16: int32Matmul,
  QGemm: qgemm,
  NhwcMaxPool: nhwcMaxPool,
  FusedConv: conv,
  FusedGemm: gemm,
  FusedMatMul: fusedMatMul,
  TransposeMatMul: fusedMatMul,
  Gelu: same,
  FastGelu: same,
  BiasGelu: same,
  QuickGelu: same,
  BiasAdd: same,
  BiasSplitGelu: biasSplitGelu,
  GroupNorm: same,
  SkipGroupNorm: same,
  SkipLayerNormalization: skipLayerNorm,
  SkipSimplifiedLayerNormalization: skipSimplifiedLayerNorm,
  SimplifiedLayerNormalization: simplifiedLayerNorm,
  LayerNormalization: layerNorm,
  EmbedLayerNormalization: embedLayerNorm,
  Attention: attention,
  MultiHeadAttention: multiHeadAttention,
  GroupQueryAttention: groupQueryAttention,
  RotaryEmbedding: same,
  ExpandDims: expandDims,
  Range: range,
  Pad: msPad,
  Trilu: same,
  Inverse: same,
  GatherND: gatherND,
  CDist: cdist,
  CropAndResize: cropAndResize,
  GridSample: gridSample,
  MaxpoolWithMask: maxpoolWithMask,
  ConvTransposeWithDynamicPads: convTransposeDynamicPads,
  Unique: msUnique,
  WordConvEmbedding: wordConvEmbedding,
  MurmurHash3: murmurHash3,
  Tokenizer: tokenizer,
  MatMulNBits: matMulNBits,
};
