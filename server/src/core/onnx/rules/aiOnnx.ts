// Shape rules for the ai.onnx operators that shapeRules.ts does not cover (generators, index and
// data-dependent ops, signal processing, losses, strings, integer/quantized ops, newer opsets).
// Each rule follows the operator's shape formula in https://github.com/onnx/onnx/blob/main/docs/Operators.md; dims that depend on
// tensor *values* the file does not hold stay null.
import { broadcastShapes, normAxis, productDim } from '../dims';
import { DT, type Attribute, type Dim } from '../model';
import { conv, fact, matmul, RULES, RuleCtx, same, spatialOut, unknownDims, type Rule, type TensorFact } from '../shapeRules';
import { maxOf, minOf, pushAll } from '../../common/arrays';

const nulls = (n: number): Dim[] => unknownDims(n, 'a rank taken from a shape input');
const num = (d: Dim): d is number => typeof d === 'number';
const dtypeAttr = (c: RuleCtx, name: string, def: number) => c.int(name, def);

/** Shape of an attribute-sized generator (RandomNormal/RandomUniform). */
const randomShape: Rule = (c) => [fact(c.ints('shape') ?? null, dtypeAttr(c, 'dtype', DT.FLOAT))];
/** *Like generators: the input's shape, the dtype attribute or the input's type. */
const likeInput: Rule = (c) => [fact(c.shape(0), c.attr('dtype')?.i ?? c.dtype(0))];

const multinomial: Rule = (c) => {
  const x = c.shape(0);
  return [fact(x && x.length === 2 ? [x[0], c.int('sample_size', 1)] : null, dtypeAttr(c, 'dtype', DT.INT32))];
};

/** HannWindow/HammingWindow/BlackmanWindow: [size]. */
const windowOp: Rule = (c) => [fact([c.numbers(0)?.[0] ?? null], dtypeAttr(c, 'output_datatype', DT.FLOAT))];

const melWeightMatrix: Rule = (c) => {
  const bins = c.numbers(0)?.[0];
  const dft = c.numbers(1)?.[0];
  return [fact([dft === undefined ? null : Math.floor(dft / 2) + 1, bins ?? null], dtypeAttr(c, 'output_datatype', DT.FLOAT))];
};

const det: Rule = (c) => {
  const x = c.shape(0);
  return [fact(x && x.length >= 2 ? x.slice(0, -2) : null, c.dtype(0))];
};

/** Einsum: labels of the output (explicit after '->', else the sorted labels used once). */
const einsum: Rule = (c) => {
  const eq = c.str('equation', '').replace(/\s+/g, '');
  const [lhs, rhs] = eq.split('->');
  const terms = lhs.split(',');
  const dims = new Map<string, Dim>();
  let ellipsis: Dim[] | undefined;
  const counts = new Map<string, number>();
  for (let t = 0; t < terms.length; t++) {
    const s = c.shape(t);
    if (!s) return [fact(null, c.dtype(0))];
    const term = terms[t];
    const dots = term.indexOf('...');
    const letters = term.replace('...', '');
    const ellRank = s.length - letters.length;
    if (dots < 0 && ellRank !== 0) return [fact(null, c.dtype(0))];
    let k = 0;
    for (let i = 0; i < term.length;) {
      if (term.startsWith('...', i)) {
        const part = s.slice(k, k + ellRank);
        ellipsis = ellipsis ? (broadcastShapes([ellipsis, part]) ?? ellipsis) : part;
        k += ellRank;
        i += 3;
        continue;
      }
      const l = term[i++];
      const d = s[k++];
      const prev = dims.get(l);
      dims.set(l, prev === undefined || prev === 1 ? d : num(prev) ? prev : d);
      counts.set(l, (counts.get(l) ?? 0) + 1);
    }
  }
  let out: Dim[] = [];
  if (rhs !== undefined) {
    for (let i = 0; i < rhs.length;) {
      if (rhs.startsWith('...', i)) {
        pushAll(out, ellipsis ?? []);
        i += 3;
      } else out.push(dims.get(rhs[i++]) ?? null);
    }
  } else {
    out = [
      ...(ellipsis ?? []),
      ...[...counts]
        .filter(([, n]) => n === 1)
        .map(([l]) => l)
        .sort()
        .map((l) => dims.get(l) ?? null),
    ];
  }
  return [fact(out, c.dtype(0))];
};

const convInteger: Rule = (c) => [fact(conv(c)[0]?.shape ?? null, DT.INT32)];
const matmulInteger: Rule = (c) => [fact(matmul(c)[0]?.shape ?? null, DT.INT32)];

/**
 * The same node seen with other input facts (and optionally other attributes), so a base rule can
 * serve an op whose inputs sit at other positions (QLinearConv: x=0, w=3) or need adjusting first.
 */
export function view(c: RuleCtx, inputs: (TensorFact | undefined)[], changes: { opset?: number; attributes?: Attribute[] } = {}): RuleCtx {
  const node = { ...c.node, inputs: inputs.map((f, i) => (f ? c.node.inputs[i] || `#${i}` : '')), attributes: changes.attributes ?? c.node.attributes };
  return new RuleCtx(node, changes.opset ?? c.opset, inputs, c.inferSubgraph);
}

/** A base rule applied to inputs picked from other positions, with the result's dtype chosen here. */
export function onInputs(rule: Rule, picks: number[], dtype: (c: RuleCtx) => number): Rule {
  return (c) => [
    fact(
      rule(
        view(
          c,
          picks.map((i) => c.inputs[i]),
        ),
      )[0]?.shape ?? null,
      dtype(c),
    ),
  ];
}

const qlinearConv = onInputs(conv, [0, 3], (c) => c.dtype(7) || DT.UINT8);
const qlinearMatMul = onInputs(matmul, [0, 3], (c) => c.dtype(7) || DT.UINT8);

/** QuantizeLinear: dtype from the zero point, `output_dtype` (opset 21) or uint8. */
const quantizeLinear: Rule = (c) => [fact(c.shape(0), c.dtype(2) || c.int('output_dtype', 0) || DT.UINT8)];
const dequantizeLinear: Rule = (c) => [fact(c.shape(0), c.opset >= 21 ? c.int('output_dtype', 0) || c.dtype(1) || DT.FLOAT : c.dtype(1) || DT.FLOAT)];
const dynamicQuantizeLinear: Rule = (c) => [fact(c.shape(0), DT.UINT8), fact([], DT.FLOAT), fact([], DT.UINT8)];

const maxUnpool: Rule = (c) => {
  const x = c.shape(0);
  if (c.has(2)) {
    const v = c.numbers(2);
    const s = c.shape(2);
    return [fact(v ?? (s && num(s[0]) ? nulls(s[0]) : null), c.dtype(0))];
  }
  if (!x || x.length < 3) return [fact(null, c.dtype(0))];
  const k = c.ints('kernel_shape') ?? [];
  const n = x.length - 2;
  const strides = c.ints('strides') ?? new Array(n).fill(1);
  const pads = c.ints('pads') ?? new Array(2 * n).fill(0);
  const spatial = x.slice(2).map((d, i) => (num(d) && k[i] !== undefined ? (d - 1) * strides[i] + k[i] - pads[i] - pads[i + n] : null));
  return [fact([x[0], x[1], ...spatial], c.dtype(0))];
};

const maxRoiPool: Rule = (c) => {
  const x = c.shape(0);
  const r = c.shape(1);
  const p = c.ints('pooled_shape') ?? [null, null];
  return [fact([r ? r[0] : null, x && x.length > 1 ? x[1] : null, ...p], c.dtype(0))];
};

const roiAlign: Rule = (c) => {
  const x = c.shape(0);
  const r = c.shape(1);
  return [fact([r ? r[0] : null, x && x.length > 1 ? x[1] : null, c.int('output_height', 1), c.int('output_width', 1)], c.dtype(0))];
};

const deformConv: Rule = (c) => {
  const x = c.shape(0);
  const w = c.shape(1);
  if (!x || x.length < 3) return [fact(null, c.dtype(0))];
  const kernel = c.ints('kernel_shape') ?? w?.slice(2).map((d) => (num(d) ? d : null)) ?? [];
  return [fact([x[0], w ? w[0] : null, ...spatialOut(c, x.slice(2), kernel, false, false)], c.dtype(0))];
};

const col2Im: Rule = (c) => {
  const x = c.shape(0);
  const image = c.numbers(1);
  const block = c.numbers(2);
  if (!x || x.length !== 3) return [fact(null, c.dtype(0))];
  const bs = block ? block.reduce((a, b) => a * b, 1) : null;
  const ch = num(x[1]) && bs ? x[1] / bs : null;
  const n = c.shape(1)?.[0];
  return [fact([x[0], ch, ...(image ?? (n !== undefined && num(n) ? nulls(n) : []))], c.dtype(0))];
};

const affineGrid: Rule = (c) => {
  const size = c.numbers(1);
  if (!size) return [fact(null, c.dtype(0))];
  const spatial = size.slice(2);
  return [fact([size[0], ...spatial, spatial.length], c.dtype(0))];
};

const unique: Rule = (c) => {
  const x = c.shape(0);
  const axisAttr = c.attr('axis');
  const dtype = c.dtype(0);
  if (!x) return [fact(null, dtype), fact([null], DT.INT64), fact([null], DT.INT64), fact([null], DT.INT64)];
  if (axisAttr?.i === undefined) {
    return [fact([null], dtype), fact([null], DT.INT64), fact([productDim(x)], DT.INT64), fact([null], DT.INT64)];
  }
  const axis = normAxis(axisAttr.i, x.length);
  if (axis === undefined) return [fact(null, dtype), fact([null], DT.INT64), fact([null], DT.INT64), fact([null], DT.INT64)];
  const y = [...x];
  y[axis] = null;
  return [fact(y, dtype), fact([null], DT.INT64), fact([x[axis]], DT.INT64), fact([null], DT.INT64)];
};

const compress: Rule = (c) => {
  const x = c.shape(0);
  const cond = c.numbers(1);
  const kept = cond ? cond.filter((v) => v !== 0).length : null;
  const axisAttr = c.attr('axis');
  if (axisAttr?.i === undefined) return [fact([kept], c.dtype(0))];
  if (!x) return [fact(null, c.dtype(0))];
  const axis = normAxis(axisAttr.i, x.length);
  if (axis === undefined) return [fact(null, c.dtype(0))];
  const y = [...x];
  y[axis] = kept;
  return [fact(y, c.dtype(0))];
};

const nonMaxSuppression: Rule = () => [fact([null, 3], DT.INT64)];

const centerCropPad: Rule = (c) => {
  const x = c.shape(0);
  const target = c.numbers(1);
  if (!x) return [fact(null, c.dtype(0))];
  const axes = (c.ints('axes') ?? x.map((_, i) => i)).map((a) => (a < 0 ? a + x.length : a));
  const y = [...x];
  axes.forEach((a, i) => (y[a] = target ? target[i] : null));
  return [fact(y, c.dtype(0))];
};

/** DFT: opset 17 takes `axis` as an attribute (default 1), opset 20 as input 2 (default -2). */
const dft: Rule = (c) => {
  const x = c.shape(0);
  if (!x || x.length < 2) return [fact(null, c.dtype(0))];
  const axisRaw = c.opset >= 20 ? (c.has(2) ? c.numbers(2)?.[0] : -2) : c.int('axis', 1);
  const axis = axisRaw === undefined ? undefined : normAxis(axisRaw, x.length);
  const y: Dim[] = [...x.slice(0, -1), 2];
  if (axis === undefined)
    return [
      fact(
        y.map((d, i) => (i === y.length - 1 ? d : null)),
        c.dtype(0),
      ),
    ];
  let n: Dim = c.has(1) ? (c.numbers(1)?.[0] ?? null) : x[axis];
  if (c.int('onesided', 0) === 1 && num(n)) n = Math.floor(n / 2) + 1;
  y[axis] = n;
  return [fact(y, c.dtype(0))];
};

const stft: Rule = (c) => {
  const x = c.shape(0);
  const step = c.numbers(1)?.[0];
  const win = c.has(2) ? c.shape(2) : null;
  const frameLen = c.has(3) ? c.numbers(3)?.[0] : win && num(win[0]) ? win[0] : undefined;
  if (!x || x.length !== 3) return [fact(null, c.dtype(0))];
  const len = x[1];
  const frames = num(len) && step && frameLen !== undefined ? Math.floor((len - frameLen) / step) + 1 : null;
  const bins = frameLen === undefined ? null : c.int('onesided', 1) === 1 ? Math.floor(frameLen / 2) + 1 : frameLen;
  return [fact([x[0], frames, bins, 2], c.dtype(0))];
};

const nllLoss: Rule = (c) => [fact(c.str('reduction', 'mean') === 'none' ? c.shape(1) : [], c.dtype(0))];
const softmaxCrossEntropy: Rule = (c) => [fact(c.str('reduction', 'mean') === 'none' ? c.shape(1) : [], c.dtype(0)), fact(c.shape(0), c.dtype(0))];

const stringNormalizer: Rule = (c) => {
  const x = c.shape(0);
  // stopwords remove elements: the last dim then depends on the strings
  const stop = c.attr('stopwords')?.strings?.length ?? 0;
  return [fact(x && stop ? [...x.slice(0, -1), null] : x, DT.STRING)];
};
const stringConcat: Rule = (c) => [fact(broadcastShapes([c.shape(0), c.shape(1)]), DT.STRING)];
const stringSplit: Rule = (c) => {
  const x = c.shape(0);
  return [fact(x ? [...x, null] : null, DT.STRING), fact(x, DT.INT64)];
};
const regexFullMatch: Rule = (c) => [fact(c.shape(0), DT.BOOL)];
const tfIdf: Rule = (c) => {
  const x = c.shape(0);
  const idx = c.ints('ngram_indexes') ?? [];
  const width = idx.length ? maxOf(idx) + 1 : null;
  if (!x) return [fact(null, DT.FLOAT)];
  return [fact(x.length === 1 ? [width] : [x[0], width], DT.FLOAT)];
};
const imageDecoder: Rule = () => [fact([null, null, null], DT.UINT8)];

const castBitwise: Rule = same;

/** Resize (opset 18) with sizes and keep_aspect_ratio_policy not_larger/not_smaller: one scale for all axes. */
const resize: Rule = (c) => {
  const policy = c.str('keep_aspect_ratio_policy', 'stretch');
  const sizes = c.has(3) ? c.numbers(3) : undefined;
  const x = c.shape(0);
  if (c.opset < 18 || policy === 'stretch' || !sizes || !x) return RULES.Resize(c);
  const axes = (c.ints('axes') ?? x.map((_, i) => i)).map((a) => (a < 0 ? a + x.length : a));
  const ratios = axes.map((a, i) => (num(x[a]) ? sizes[i] / (x[a] as number) : NaN));
  if (ratios.some(Number.isNaN))
    return [
      fact(
        x.map((d, i) => (axes.includes(i) ? null : d)),
        c.dtype(0),
      ),
    ];
  const scale = policy === 'not_larger' ? minOf(ratios) : maxOf(ratios);
  // the spec rounds half up: out = floor(scale * in + 0.5)
  return [
    fact(
      x.map((d, i) => (axes.includes(i) ? Math.floor(scale * (d as number) + 0.5) : d)),
      c.dtype(0),
    ),
  ];
};

export const AI_ONNX_EXTRA: Record<string, Rule> = {
  RandomNormal: randomShape,
  RandomUniform: randomShape,
  RandomNormalLike: likeInput,
  RandomUniformLike: likeInput,
  EyeLike: likeInput,
  Bernoulli: likeInput,
  Multinomial: multinomial,
  HannWindow: windowOp,
  HammingWindow: windowOp,
  BlackmanWindow: windowOp,
  MelWeightMatrix: melWeightMatrix,
  Det: det,
  Einsum: einsum,
  ConvInteger: convInteger,
  MatMulInteger: matmulInteger,
  QLinearConv: qlinearConv,
  QLinearMatMul: qlinearMatMul,
  QuantizeLinear: quantizeLinear,
  DequantizeLinear: dequantizeLinear,
  DynamicQuantizeLinear: dynamicQuantizeLinear,
  MaxUnpool: maxUnpool,
  MaxRoiPool: maxRoiPool,
  RoiAlign: roiAlign,
  DeformConv: deformConv,
  Col2Im: col2Im,
  AffineGrid: affineGrid,
  Unique: unique,
  Compress: compress,
  NonMaxSuppression: nonMaxSuppression,
  CenterCropPad: centerCropPad,
  DFT: dft,
  STFT: stft,
  NegativeLogLikelihoodLoss: nllLoss,
  SoftmaxCrossEntropyLoss: softmaxCrossEntropy,
  StringNormalizer: stringNormalizer,
  StringConcat: stringConcat,
  StringSplit: stringSplit,
  RegexFullMatch: regexFullMatch,
  TfIdfVectorizer: tfIdf,
  ImageDecoder: imageDecoder,
  LpNormalization: same,
  BitwiseNot: castBitwise,
  Resize: resize,
};
