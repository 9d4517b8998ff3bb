// Per-operator shape rules (ai.onnx domain) with value propagation for small int64 "shape
// tensors", so Shape→Gather→Unsqueeze→Concat→Reshape chains resolve. A rule returns one fact per
// output; a field it cannot derive stays unknown.
import { arith, broadcastShapes, normAxis, product, productDim, quotient, unary } from './dims';
import { DT, isIntegerType, numel, type Attribute, type Dim, type GraphIndex, type NodeInfo, type Shape } from './model';
import { tensorValues } from './tensorData';
import { pushAll } from '../common/arrays';
import { boundedCount } from '../common/limits';

export interface TensorFact {
  shape: Shape;
  /** TensorProto.DataType; 0 when unknown. */
  dtype: number;
  /** Row-major values of a small tensor (shape constants); elements may be symbolic or null. */
  value?: Dim[];
  /** Set for sequence and optional values (rules/sequence.ts); `shape` is then null. */
  kind?: 'sequence' | 'optional';
  /** Sequence: the elements when their number is known; optional: the element if present. */
  items?: TensorFact[];
  /** Sequence/optional: what every element is known to be (dims that differ are null). */
  elem?: TensorFact;
}

/** Largest tensor (elements) whose values are propagated. */
export const MAX_VALUE_ELEMENTS = 1024;

/**
 * `n` unknown dims, where `n` comes from the file (a dim of a shape input, an attribute): bounded
 * by LIMITS.onnxRank before the array is made — a shape input declared [10⁹] made `new Array(10⁹)`
 * and ended the process. Past the limit a LimitError, which applyRule turns into an unknown shape.
 */
export function unknownDims(n: number, what: string): Dim[] {
  return new Array<Dim>(boundedCount('onnxRank', what, n)).fill(null);
}

/** Infers a subgraph (If/Loop/Scan body) whose formal inputs get the given facts; its outputs' facts. */
export type SubgraphInfer = (g: GraphIndex, inputs: (TensorFact | undefined)[]) => TensorFact[];

export class RuleCtx {
  constructor(
    readonly node: NodeInfo,
    readonly opset: number,
    readonly inputs: (TensorFact | undefined)[],
    /** Set by the driver: control-flow rules infer their bodies through it (rules/control.ts). */
    readonly inferSubgraph?: SubgraphInfer,
  ) {}

  private attrMap?: Map<string, Attribute>;
  attr(name: string): Attribute | undefined {
    if (!this.attrMap) this.attrMap = new Map(this.node.attributes.map((a) => [a.name, a]));
    return this.attrMap.get(name);
  }
  int(name: string, def: number): number {
    return this.attr(name)?.i ?? def;
  }
  float(name: string, def: number): number {
    return this.attr(name)?.f ?? def;
  }
  str(name: string, def: string): string {
    return this.attr(name)?.s ?? def;
  }
  ints(name: string): number[] | undefined {
    return this.attr(name)?.ints;
  }
  has(i: number): boolean {
    return i < this.node.inputs.length && this.node.inputs[i] !== '';
  }
  shape(i: number): Shape {
    return this.inputs[i]?.shape ?? null;
  }
  rank(i: number): number | undefined {
    return this.inputs[i]?.shape?.length;
  }
  dtype(i: number): number {
    return this.inputs[i]?.dtype ?? 0;
  }
  value(i: number): Dim[] | undefined {
    return this.inputs[i]?.value;
  }
  /** Input values when every element is a known number. */
  numbers(i: number): number[] | undefined {
    const v = this.inputs[i]?.value;
    return v && v.every((x) => typeof x === 'number') ? (v as number[]) : undefined;
  }
  /** Values of an input, or (older opsets) an attribute. */
  intsFrom(i: number, attrName: string, attrUntilOpset: number): number[] | undefined {
    if (this.opset < attrUntilOpset) return this.ints(attrName);
    return this.has(i) ? this.numbers(i) : undefined;
  }
}

export type Rule = (c: RuleCtx) => (TensorFact | undefined)[];

export const fact = (shape: Shape, dtype: number, value?: Dim[]): TensorFact => {
  const f: TensorFact = { shape, dtype };
  if (value && shape && shape.every((d) => typeof d === 'number') && value.length === numel(shape as number[])) f.value = value;
  return f;
};

export const same: Rule = (c) => [fact(c.shape(0), c.dtype(0))];

// ---- elementwise ---------------------------------------------------------------------------

const BOOL_OUT = new Set(['Equal', 'Greater', 'Less', 'GreaterOrEqual', 'LessOrEqual', 'And', 'Or', 'Xor', 'Not', 'IsNaN', 'IsInf']);

function elementwise(op: string): Rule {
  return (c) => {
    const n = c.node.inputs.length;
    const shapes: Shape[] = [];
    for (let i = 0; i < n; i++) if (c.has(i)) shapes.push(c.shape(i));
    const shape = broadcastShapes(shapes);
    const dtype = BOOL_OUT.has(op) ? DT.BOOL : op === 'Where' ? c.dtype(1) || c.dtype(2) : c.dtype(0) || c.dtype(1);
    return [fact(shape, dtype, elementwiseValue(c, op, shape))];
  };
}

function elementwiseValue(c: RuleCtx, op: string, shape: Shape): Dim[] | undefined {
  if (!shape || !shape.every((d) => typeof d === 'number')) return undefined;
  const out = shape as number[];
  const total = numel(out);
  if (total > MAX_VALUE_ELEMENTS) return undefined;
  const ins: { v: Dim[]; s: number[] }[] = [];
  for (let i = 0; i < c.node.inputs.length; i++) {
    const v = c.value(i);
    const s = c.shape(i);
    if (!v || !s) return undefined;
    ins.push({ v, s: s as number[] });
  }
  const integer = isIntegerType(c.dtype(0));
  const res: Dim[] = [];
  for (let k = 0; k < total; k++) {
    const elems = ins.map((x) => x.v[broadcastIndex(k, out, x.s)]);
    if (op === 'Where') res.push(elems[0] === null || typeof elems[0] === 'string' ? null : elems[0] ? elems[1] : elems[2]);
    else if (elems.length === 1) res.push(unary(op, elems[0], integer));
    else {
      let acc = elems[0];
      for (let j = 1; j < elems.length; j++) acc = arith(op === 'Sum' ? 'Add' : op, acc, elems[j], integer);
      res.push(acc);
    }
  }
  return res;
}

export function broadcastIndex(k: number, out: number[], s: number[]): number {
  let idx = 0;
  let stride = 1;
  let rem = k;
  const coords: number[] = new Array(out.length);
  for (let i = out.length - 1; i >= 0; i--) {
    coords[i] = rem % out[i];
    rem = Math.floor(rem / out[i]);
  }
  for (let i = s.length - 1; i >= 0; i--) {
    const ci = coords[out.length - s.length + i];
    idx += (s[i] === 1 ? 0 : ci) * stride;
    stride *= s[i];
  }
  return idx;
}

const unaryValue =
  (op: string): Rule =>
  (c) => {
    const v = c.value(0);
    const integer = isIntegerType(c.dtype(0));
    return [
      fact(
        c.shape(0),
        BOOL_OUT.has(op) ? DT.BOOL : c.dtype(0),
        v?.map((x) => unary(op, x, integer)),
      ),
    ];
  };

// ---- linear algebra ------------------------------------------------------------------------

export const matmul: Rule = (c) => {
  const a = c.shape(0);
  const b = c.shape(1);
  if (!a || !b || a.length === 0 || b.length === 0) return [fact(null, c.dtype(0))];
  const a2 = a.length === 1 ? [1, a[0]] : a;
  const b2 = b.length === 1 ? [b[0], 1] : b;
  const batch = broadcastShapes([a2.slice(0, -2), b2.slice(0, -2)]);
  if (!batch) return [fact(null, c.dtype(0))];
  const out: Dim[] = [...batch];
  if (a.length > 1) out.push(a2[a2.length - 2]);
  if (b.length > 1) out.push(b2[b2.length - 1]);
  return [fact(out, c.dtype(0))];
};

export const gemm: Rule = (c) => {
  const a = c.shape(0);
  const b = c.shape(1);
  const m = a && a.length === 2 ? (c.int('transA', 0) ? a[1] : a[0]) : null;
  const n = b && b.length === 2 ? (c.int('transB', 0) ? b[0] : b[1]) : null;
  return [fact([m, n], c.dtype(0))];
};

// ---- convolution and pooling ---------------------------------------------------------------

export function spatialOut(c: RuleCtx, inDims: Dim[], kernel: (number | null)[], transposed: boolean, pool: boolean): Dim[] {
  const n = inDims.length;
  const strides = c.ints('strides') ?? new Array(n).fill(1);
  const dil = c.ints('dilations') ?? new Array(n).fill(1);
  const pads = c.ints('pads') ?? new Array(2 * n).fill(0);
  const autoPad = c.str('auto_pad', 'NOTSET');
  const ceil = pool && c.int('ceil_mode', 0) === 1;
  const outPad = c.ints('output_padding') ?? new Array(n).fill(0);
  const outShape = transposed ? c.ints('output_shape') : undefined;
  return inDims.map((d, i) => {
    if (outShape && outShape.length === n) return outShape[i];
    const k = kernel[i];
    if (typeof d !== 'number' || k === null || k === undefined) return null;
    const s = strides[i] ?? 1;
    const dl = dil[i] ?? 1;
    const eff = dl * (k - 1) + 1;
    if (transposed) {
      if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') return d * s;
      const pb = autoPad === 'VALID' ? 0 : (pads[i] ?? 0);
      const pe = autoPad === 'VALID' ? 0 : (pads[i + n] ?? 0);
      return s * (d - 1) + (outPad[i] ?? 0) + eff - pb - pe;
    }
    if (autoPad === 'SAME_UPPER' || autoPad === 'SAME_LOWER') return Math.ceil(d / s);
    if (autoPad === 'VALID') return Math.floor((d - eff) / s) + 1;
    const pb = pads[i] ?? 0;
    const pe = pads[i + n] ?? 0;
    const span = d + pb + pe - eff;
    if (!ceil) return Math.floor(span / s) + 1;
    let o = Math.ceil(span / s) + 1;
    // the last window must start inside the input or the left padding (onnxruntime, PyTorch)
    if ((o - 1) * s >= d + pb) o--;
    return o;
  });
}

export const conv: Rule = (c) => {
  const x = c.shape(0);
  const w = c.shape(1);
  if (!x || x.length < 3) return [fact(null, c.dtype(0))];
  const kernel = c.ints('kernel_shape') ?? w?.slice(2).map((d) => (typeof d === 'number' ? d : null)) ?? [];
  const spatial = spatialOut(c, x.slice(2), kernel, false, false);
  const m = w ? w[0] : null;
  return [fact([x[0], m, ...spatial], c.dtype(0))];
};

export const convTranspose: Rule = (c) => {
  const x = c.shape(0);
  const w = c.shape(1);
  if (!x || x.length < 3) return [fact(null, c.dtype(0))];
  const kernel = c.ints('kernel_shape') ?? w?.slice(2).map((d) => (typeof d === 'number' ? d : null)) ?? [];
  const spatial = spatialOut(c, x.slice(2), kernel, true, false);
  const g = c.int('group', 1);
  const m = w && typeof w[1] === 'number' ? w[1] * g : null;
  return [fact([x[0], m, ...spatial], c.dtype(0))];
};

export const pool: Rule = (c) => {
  const x = c.shape(0);
  if (!x || x.length < 3) return [fact(null, c.dtype(0)), fact(null, DT.INT64)];
  const kernel = c.ints('kernel_shape') ?? [];
  const out: Dim[] = [x[0], x[1], ...spatialOut(c, x.slice(2), kernel, false, true)];
  return [fact(out, c.dtype(0)), fact(out, DT.INT64)];
};

const globalPool: Rule = (c) => {
  const x = c.shape(0);
  return [fact(x ? [x[0], x[1], ...x.slice(2).map(() => 1)] : null, c.dtype(0))];
};

// ---- shape manipulation --------------------------------------------------------------------

const reshape: Rule = (c) => {
  const x = c.shape(0);
  const target = c.opset < 5 ? c.ints('shape') : c.value(1);
  const allowZero = c.int('allowzero', 0) === 1;
  if (!target) {
    // rank still follows from the length of the shape input
    const s = c.shape(1);
    const len = s && s.length === 1 && typeof s[0] === 'number' ? s[0] : null;
    return [fact(len === null ? null : unknownDims(len, 'the length of a Reshape target'), c.dtype(0))];
  }
  const out: Dim[] = target.map((v, i) => (v === 0 && !allowZero ? (x && i < x.length ? x[i] : null) : v === -1 ? -1 : v));
  const neg = out.indexOf(-1);
  if (neg >= 0) {
    const known = out.filter((_, i) => i !== neg);
    out[neg] = x ? quotient(product(x), product(known)) : null;
  }
  return [fact(out, c.dtype(0), c.value(0))];
};

const transpose: Rule = (c) => {
  const x = c.shape(0);
  if (!x) return [fact(null, c.dtype(0))];
  const perm = c.ints('perm') ?? x.map((_, i) => x.length - 1 - i);
  const out = perm.map((p) => x[p] ?? null);
  let value: Dim[] | undefined;
  const v = c.value(0);
  if (v && x.length <= 1) value = v;
  return [fact(out, c.dtype(0), value)];
};

const flatten: Rule = (c) => {
  const x = c.shape(0);
  if (!x) return [fact(null, c.dtype(0))];
  const axis = c.int('axis', 1);
  const a = axis < 0 ? axis + x.length : axis;
  return [fact([productDim(x.slice(0, a)), productDim(x.slice(a))], c.dtype(0), c.value(0))];
};

const squeeze: Rule = (c) => {
  const x = c.shape(0);
  if (!x) return [fact(null, c.dtype(0))];
  const axes = c.intsFrom(1, 'axes', 13);
  if (c.opset >= 13 && c.has(1) && !axes) return [fact(null, c.dtype(0))];
  let out: Dim[];
  if (!axes || axes.length === 0) {
    if (x.some((d) => typeof d !== 'number')) return [fact(null, c.dtype(0))]; // which dims are 1 is unknown
    out = x.filter((d) => d !== 1);
  } else {
    const drop = new Set(axes.map((a) => (a < 0 ? a + x.length : a)));
    out = x.filter((_, i) => !drop.has(i));
  }
  return [fact(out, c.dtype(0), c.value(0))];
};

export const unsqueeze: Rule = (c) => {
  const x = c.shape(0);
  const axes = c.intsFrom(1, 'axes', 13);
  if (!x || !axes) return [fact(null, c.dtype(0))];
  const rank = x.length + axes.length;
  const at = new Set(axes.map((a) => (a < 0 ? a + rank : a)));
  const out: Dim[] = [];
  let j = 0;
  for (let i = 0; i < rank; i++) out.push(at.has(i) ? 1 : (x[j++] ?? null));
  return [fact(out, c.dtype(0), c.value(0))];
};

const concat: Rule = (c) => {
  const shapes: Shape[] = [];
  for (let i = 0; i < c.node.inputs.length; i++) if (c.has(i)) shapes.push(c.shape(i));
  const dtype = c.dtype(0);
  if (shapes.length === 0 || shapes.some((s) => s === null)) {
    const r = shapes.find((s) => s !== null);
    return [fact(r ? r.map(() => null) : null, dtype)];
  }
  const ss = shapes as Dim[][];
  const rank = ss[0].length;
  const axis = normAxis(c.int('axis', 0), rank);
  if (axis === undefined) return [fact(null, dtype)];
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    if (i === axis) {
      const dims = ss.map((s) => s[i]);
      out.push(productSum(dims));
    } else out.push(ss.map((s) => s[i]).find((d) => typeof d === 'number') ?? ss[0][i]);
  }
  let value: Dim[] | undefined;
  if (rank === 1) {
    const vals: Dim[] = [];
    for (let i = 0; i < c.node.inputs.length; i++) {
      if (!c.has(i)) continue;
      const v = c.value(i);
      if (!v) {
        value = undefined;
        break;
      }
      pushAll(vals, v);
      value = vals;
    }
  }
  return [fact(out, dtype, value)];
};

function productSum(dims: Dim[]): Dim {
  let sum = 0;
  for (const d of dims) {
    if (typeof d !== 'number') return dims.length === 1 ? d : null;
    sum += d;
  }
  return sum;
}

const split: Rule = (c) => {
  const x = c.shape(0);
  const nOut = c.node.outputs.length;
  const dtype = c.dtype(0);
  if (!x) return c.node.outputs.map(() => fact(null, dtype));
  const axis = normAxis(c.int('axis', 0), x.length);
  if (axis === undefined) return c.node.outputs.map(() => fact(null, dtype));
  let sizes = c.opset < 13 ? c.ints('split') : c.has(1) ? c.numbers(1) : undefined;
  const d = x[axis];
  if (!sizes && !(c.opset >= 13 && c.has(1))) {
    if (typeof d === 'number') {
      if (c.opset >= 18) {
        // num_outputs: equal chunks of ceil(d / n), the last one smaller
        const chunk = Math.ceil(d / c.int('num_outputs', nOut));
        sizes = Array.from({ length: nOut }, (_, i) => Math.max(0, Math.min(chunk, d - i * chunk)));
      } else if (d % nOut === 0) sizes = new Array(nOut).fill(d / nOut);
    }
  }
  return c.node.outputs.map((_, i) => {
    const out = [...x];
    out[axis] = sizes && sizes[i] !== undefined ? sizes[i] : null;
    return fact(out, dtype);
  });
};

const slice: Rule = (c) => {
  const x = c.shape(0);
  const dtype = c.dtype(0);
  if (!x) return [fact(null, dtype)];
  let starts: number[] | undefined, ends: number[] | undefined, axes: number[] | undefined, steps: number[] | undefined;
  if (c.opset < 10) {
    starts = c.ints('starts');
    ends = c.ints('ends');
    axes = c.ints('axes');
  } else {
    starts = c.numbers(1);
    ends = c.numbers(2);
    axes = c.has(3) ? c.numbers(3) : undefined;
    steps = c.has(4) ? c.numbers(4) : undefined;
    if (c.has(3) && !axes)
      return [
        fact(
          x.map(() => null),
          dtype,
        ),
      ];
    if (c.has(4) && !steps) {
      // unknown steps: the sliced axes are unknown
      steps = undefined;
      if (!axes)
        return [
          fact(
            x.map(() => null),
            dtype,
          ),
        ];
      const out = [...x];
      for (const a of axes) if (a >= -x.length && a < x.length) out[a < 0 ? a + x.length : a] = null;
      return [fact(out, dtype)];
    }
  }
  const nAx = starts?.length ?? ends?.length ?? axes?.length;
  if (nAx === undefined)
    return [
      fact(
        x.map(() => null),
        dtype,
      ),
    ];
  const ax = (axes ?? Array.from({ length: nAx }, (_, i) => i)).map((a) => (a < 0 ? a + x.length : a));
  // an axis outside the rank is an invalid model: used as an index it made a sparse array of 10⁹ dims
  if (ax.some((a) => !Number.isInteger(a) || a < 0 || a >= x.length))
    return [
      fact(
        x.map(() => null),
        dtype,
      ),
    ];
  const out = [...x];
  const ranges: ([number, number, number] | undefined)[] = x.map(() => undefined);
  ax.forEach((a, i) => {
    const d = x[a];
    if (!starts || !ends || typeof d !== 'number') {
      out[a] = null;
      return;
    }
    const step = steps?.[i] ?? 1;
    let s = starts[i];
    let e = ends[i];
    if (s < 0) s += d;
    if (e < 0) e += d;
    let len: number;
    if (step > 0) {
      s = clamp(s, 0, d);
      e = clamp(e, 0, d);
      len = Math.max(0, Math.ceil((e - s) / step));
    } else {
      s = clamp(s, 0, d - 1);
      e = clamp(e, -1, d - 1);
      len = Math.max(0, Math.ceil((s - e) / -step));
    }
    out[a] = len;
    ranges[a] = [s, step, len];
  });
  let value: Dim[] | undefined;
  const v = c.value(0);
  if (v && x.length === 1 && typeof x[0] === 'number' && x[0] <= v.length) {
    const r = ranges[0] ?? [0, 1, x[0] as number];
    value = Array.from({ length: r[2] }, (_, k) => v[r[0] + k * r[1]] ?? null);
  }
  return [fact(out, dtype, value)];
};

function clamp(v: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, v));
}

const gather: Rule = (c) => {
  const x = c.shape(0);
  const idx = c.shape(1);
  const dtype = c.dtype(0);
  if (!x || !idx) return [fact(null, dtype)];
  const axis = normAxis(c.int('axis', 0), x.length);
  if (axis === undefined) return [fact(null, dtype)];
  const out = [...x.slice(0, axis), ...idx, ...x.slice(axis + 1)];
  let value: Dim[] | undefined;
  const v = c.value(0);
  const iv = c.numbers(1);
  if (v && iv && x.length === 1 && typeof x[0] === 'number') {
    const n = x[0];
    value = iv.map((i) => v[i < 0 ? i + n : i] ?? null);
  }
  return [fact(out, dtype, value)];
};

const gatherElements: Rule = (c) => [fact(c.shape(1), c.dtype(0))];

export const gatherND: Rule = (c) => {
  const x = c.shape(0);
  const idx = c.shape(1);
  const b = c.int('batch_dims', 0);
  if (!x || !idx || idx.length === 0) return [fact(null, c.dtype(0))];
  const last = idx[idx.length - 1];
  if (typeof last !== 'number') return [fact(null, c.dtype(0))];
  return [fact([...idx.slice(0, -1), ...x.slice(b + last)], c.dtype(0))];
};

const shapeOp: Rule = (c) => {
  const x = c.shape(0);
  if (!x) return [fact(null, DT.INT64)];
  const r = x.length;
  let start = c.opset >= 15 ? c.int('start', 0) : 0;
  let end = c.opset >= 15 ? (c.attr('end')?.i ?? r) : r;
  if (start < 0) start += r;
  if (end < 0) end += r;
  start = clamp(start, 0, r);
  end = clamp(end, 0, r);
  const dims = x.slice(start, Math.max(start, end));
  return [fact([dims.length], DT.INT64, dims)];
};

const size: Rule = (c) => {
  const x = c.shape(0);
  return [fact([], DT.INT64, x ? [productDim(x)] : undefined)];
};

const constant: Rule = (c) => {
  const t = c.attr('value')?.t;
  if (t) {
    const v = numel(t.dims) <= MAX_VALUE_ELEMENTS ? tensorValues(t) : undefined;
    return [fact(t.dims, t.dataType, v)];
  }
  const f = c.attr('value_float');
  if (f?.f !== undefined) return [fact([], DT.FLOAT, [f.f])];
  const fs = c.attr('value_floats');
  if (fs?.floats) return [fact([fs.floats.length], DT.FLOAT, fs.floats)];
  const i = c.attr('value_int');
  if (i?.i !== undefined) return [fact([], DT.INT64, [i.i])];
  const is = c.attr('value_ints');
  if (is?.ints) return [fact([is.ints.length], DT.INT64, is.ints)];
  const s = c.attr('value_string');
  if (s) return [fact([], DT.STRING)];
  const ss = c.attr('value_strings');
  if (ss?.strings) return [fact([ss.strings.length], DT.STRING)];
  return [fact(null, 0)];
};

const constantOfShape: Rule = (c) => {
  const t = c.attr('value')?.t;
  const dtype = t ? t.dataType : DT.FLOAT;
  const fill = t ? tensorValues(t)?.[0] : 0;
  const v = c.value(0);
  if (v) {
    let value: Dim[] | undefined;
    if (fill !== undefined && v.every((d) => typeof d === 'number') && numel(v as number[]) <= MAX_VALUE_ELEMENTS) {
      value = new Array(numel(v as number[])).fill(fill);
    }
    return [fact(v, dtype, value)];
  }
  const s = c.shape(0);
  const len = s && typeof s[0] === 'number' ? s[0] : null;
  return [fact(len === null ? null : unknownDims(len, 'the length of a ConstantOfShape shape'), dtype)];
};

export const range: Rule = (c) => {
  const [s, l, d] = [c.numbers(0)?.[0], c.numbers(1)?.[0], c.numbers(2)?.[0]];
  const dtype = c.dtype(0);
  if (s === undefined || l === undefined || d === undefined || d === 0) return [fact([null], dtype)];
  const n = Math.max(0, Math.ceil((l - s) / d));
  const value = n <= MAX_VALUE_ELEMENTS ? Array.from({ length: n }, (_, i) => s + i * d) : undefined;
  return [fact([n], dtype, value)];
};

const expand: Rule = (c) => {
  const x = c.shape(0);
  const target = c.value(1);
  if (!target) {
    const s = c.shape(1);
    const len = s && typeof s[0] === 'number' ? s[0] : null;
    if (len === null || !x) return [fact(null, c.dtype(0))];
    return [fact(unknownDims(Math.max(len, x.length), 'the length of an Expand shape'), c.dtype(0))];
  }
  const out = broadcastShapes([x, target]);
  let value: Dim[] | undefined;
  const v = c.value(0);
  if (v && out && x && out.every((d) => typeof d === 'number') && numel(out as number[]) <= MAX_VALUE_ELEMENTS) {
    value = Array.from({ length: numel(out as number[]) }, (_, k) => v[broadcastIndex(k, out as number[], x as number[])]);
  }
  return [fact(out, c.dtype(0), value)];
};

const tile: Rule = (c) => {
  const x = c.shape(0);
  const reps = c.numbers(1);
  if (!x) return [fact(null, c.dtype(0))];
  if (!reps)
    return [
      fact(
        x.map(() => null),
        c.dtype(0),
      ),
    ];
  return [
    fact(
      x.map((d, i) => arith('Mul', d, reps[i] ?? 1, true)),
      c.dtype(0),
    ),
  ];
};

const cast: Rule = (c) => {
  const to = c.int('to', 0);
  const v = c.value(0);
  let value = v;
  if (v && isIntegerType(to)) value = v.map((x) => (typeof x === 'number' ? Math.trunc(x) : x));
  return [fact(c.shape(0), to, value)];
};

const castLike: Rule = (c) => [fact(c.shape(0), c.dtype(1), c.value(0))];

const identity: Rule = (c) => [fact(c.shape(0), c.dtype(0), c.value(0))];

export const pad: Rule = (c) => {
  const x = c.shape(0);
  if (!x) return [fact(null, c.dtype(0))];
  const pads = c.opset < 11 ? c.ints('pads') : c.numbers(1);
  if (!pads)
    return [
      fact(
        x.map(() => null),
        c.dtype(0),
      ),
    ];
  let axes = c.opset >= 18 && c.has(3) ? c.numbers(3) : undefined;
  if (c.opset >= 18 && c.has(3) && !axes)
    return [
      fact(
        x.map(() => null),
        c.dtype(0),
      ),
    ];
  axes = (axes ?? x.map((_, i) => i)).map((a) => (a < 0 ? a + x.length : a));
  const out = [...x];
  const n = axes.length;
  axes.forEach((a, i) => (out[a] = arith('Add', x[a], pads[i] + pads[i + n], true)));
  return [fact(out, c.dtype(0))];
};

const resize: Rule = (c) => {
  const x = c.shape(0);
  if (!x) return [fact(null, c.dtype(0))];
  let scales: number[] | undefined;
  let sizes: number[] | undefined;
  if (c.node.opType === 'Upsample' && c.opset < 9) scales = c.attr('scales')?.floats;
  else if (c.opset < 11) scales = c.numbers(1);
  else {
    if (c.has(3)) sizes = c.numbers(3);
    if (c.has(2) && !c.has(3)) scales = c.numbers(2);
    // an empty scales tensor means "use sizes"
    if (scales && scales.length === 0) scales = undefined;
    if (!sizes && !scales) {
      const s2 = c.shape(2);
      if (c.has(2) && !(s2 && s2[0] === 0))
        return [
          fact(
            x.map(() => null),
            c.dtype(0),
          ),
        ];
      if (c.has(3))
        return [
          fact(
            x.map(() => null),
            c.dtype(0),
          ),
        ];
    }
  }
  const axes = (c.opset >= 18 ? c.ints('axes') : undefined)?.map((a) => (a < 0 ? a + x.length : a)) ?? x.map((_, i) => i);
  const out = [...x];
  axes.forEach((a, i) => {
    if (sizes) out[a] = sizes[i] ?? null;
    else if (scales) {
      const d = x[a];
      out[a] = typeof d === 'number' ? Math.floor(d * scales[i]) : scales[i] === 1 ? d : null;
    } else out[a] = null;
  });
  return [fact(out, c.dtype(0))];
};

const depthToSpace: Rule = (c) => {
  const x = c.shape(0);
  const b = c.int('blocksize', 1);
  if (!x || x.length !== 4) return [fact(null, c.dtype(0))];
  const div = (d: Dim) => (typeof d === 'number' ? d / (b * b) : null);
  const mul = (d: Dim) => (typeof d === 'number' ? d * b : null);
  return [fact([x[0], div(x[1]), mul(x[2]), mul(x[3])], c.dtype(0))];
};

const spaceToDepth: Rule = (c) => {
  const x = c.shape(0);
  const b = c.int('blocksize', 1);
  if (!x || x.length !== 4) return [fact(null, c.dtype(0))];
  return [
    fact(
      [x[0], typeof x[1] === 'number' ? x[1] * b * b : null, typeof x[2] === 'number' ? x[2] / b : null, typeof x[3] === 'number' ? x[3] / b : null],
      c.dtype(0),
    ),
  ];
};

/** Reductions: axes is an attribute before opset 18 (ReduceSum: before 13), an input after. */
function reduce(op: string): Rule {
  const inputFrom = op === 'ReduceSum' ? 13 : 18;
  return (c) => {
    const x = c.shape(0);
    const keep = c.int('keepdims', 1) === 1;
    const dtype = c.dtype(0);
    if (!x) return [fact(null, dtype)];
    let axes: number[] | undefined;
    if (c.opset < inputFrom) axes = c.ints('axes');
    else if (c.has(1)) {
      axes = c.numbers(1);
      if (!axes) return [fact(keep ? x.map(() => null) : null, dtype)];
    }
    if (!axes || axes.length === 0) {
      if (c.opset >= inputFrom && c.int('noop_with_empty_axes', 0) === 1) return [fact(x, dtype, c.value(0))];
      axes = x.map((_, i) => i);
    }
    const set = new Set(axes.map((a) => (a < 0 ? a + x.length : a)));
    const out: Dim[] = [];
    x.forEach((d, i) => {
      if (!set.has(i)) out.push(d);
      else if (keep) out.push(1);
    });
    let value: Dim[] | undefined;
    const v = c.value(0);
    if (v && x.length === 1 && (op === 'ReduceProd' || op === 'ReduceSum')) {
      value = [v.reduce<Dim>((acc, e) => arith(op === 'ReduceProd' ? 'Mul' : 'Add', acc, e, isIntegerType(dtype)), op === 'ReduceProd' ? 1 : 0)];
    }
    return [fact(out, dtype, value)];
  };
}

const argReduce: Rule = (c) => {
  const x = c.shape(0);
  if (!x) return [fact(null, DT.INT64)];
  const axis = normAxis(c.int('axis', 0), x.length);
  const keep = c.int('keepdims', 1) === 1;
  const out: Dim[] = [];
  x.forEach((d, i) => {
    if (i !== axis) out.push(d);
    else if (keep) out.push(1);
  });
  return [fact(out, DT.INT64)];
};

const topK: Rule = (c) => {
  const x = c.shape(0);
  if (!x) return [fact(null, c.dtype(0)), fact(null, DT.INT64)];
  const axis = normAxis(c.int('axis', -1), x.length);
  const k = c.opset < 10 ? c.attr('k')?.i : c.numbers(1)?.[0];
  const out = [...x];
  if (axis !== undefined) out[axis] = k ?? null;
  return [fact(out, c.dtype(0)), fact(out, DT.INT64)];
};

export const layerNorm: Rule = (c) => {
  const x = c.shape(0);
  const dtype = c.dtype(0);
  if (!x) return [fact(null, dtype), fact(null, DT.FLOAT), fact(null, DT.FLOAT)];
  const axis = normAxis(c.int('axis', -1), x.length) ?? x.length - 1;
  const stat = x.map((d, i) => (i < axis ? d : 1));
  return [fact(x, dtype), fact(stat, DT.FLOAT), fact(stat, DT.FLOAT)];
};

const batchNorm: Rule = (c) => {
  const x = c.shape(0);
  const ch = x && x.length > 1 ? [x[1]] : null;
  return [fact(x, c.dtype(0)), fact(ch, c.dtype(0)), fact(ch, c.dtype(0)), fact(ch, c.dtype(0)), fact(ch, c.dtype(0))];
};

const dropout: Rule = (c) => [fact(c.shape(0), c.dtype(0), c.value(0)), fact(c.shape(0), DT.BOOL)];

const nonZero: Rule = (c) => {
  const r = c.rank(0);
  return [fact(r === undefined ? null : [r, null], DT.INT64)];
};

const oneHot: Rule = (c) => {
  const idx = c.shape(0);
  const depth = c.numbers(1)?.[0] ?? null;
  if (!idx) return [fact(null, c.dtype(2))];
  const rank = idx.length + 1;
  const axis = normAxis(c.int('axis', -1), rank) ?? rank - 1;
  const out = [...idx];
  out.splice(axis, 0, depth);
  return [fact(out, c.dtype(2))];
};

export const gridSample: Rule = (c) => {
  const x = c.shape(0);
  const g = c.shape(1);
  if (!x || !g) return [fact(null, c.dtype(0))];
  return [fact([x[0], x[1], ...g.slice(1, -1)], c.dtype(0))];
};

function recurrent(): Rule {
  return (c) => {
    const x = c.shape(0);
    const hidden = c.attr('hidden_size')?.i ?? null;
    const dirs = c.str('direction', 'forward') === 'bidirectional' ? 2 : 1;
    const layout = c.int('layout', 0);
    const dtype = c.dtype(0);
    if (!x || x.length !== 3) return c.node.outputs.map(() => fact(null, dtype));
    const [seq, batch] = layout === 0 ? [x[0], x[1]] : [x[1], x[0]];
    const y = layout === 0 ? [seq, dirs, batch, hidden] : [batch, seq, dirs, hidden];
    const h = layout === 0 ? [dirs, batch, hidden] : [batch, dirs, hidden];
    return [fact(y, dtype), fact(h, dtype), fact(h, dtype)];
  };
}

const ELEMENTWISE = [
  'Add',
  'Sub',
  'Mul',
  'Div',
  'Pow',
  'Mod',
  'Equal',
  'Greater',
  'Less',
  'GreaterOrEqual',
  'LessOrEqual',
  'And',
  'Or',
  'Xor',
  'Max',
  'Min',
  'Sum',
  'Mean',
  'Where',
  'PRelu',
  'BitShift',
  'BitwiseAnd',
  'BitwiseOr',
  'BitwiseXor',
];
const UNARY_VALUE = ['Neg', 'Abs', 'Floor', 'Ceil', 'Round', 'Sqrt', 'Reciprocal', 'Not', 'Sign', 'Relu'];
const SHAPE_PRESERVING = [
  'Sigmoid',
  'Tanh',
  'Exp',
  'Log',
  'Erf',
  'Sin',
  'Cos',
  'Tan',
  'Asin',
  'Acos',
  'Atan',
  'Sinh',
  'Cosh',
  'Asinh',
  'Acosh',
  'Atanh',
  'Softplus',
  'Softsign',
  'HardSigmoid',
  'HardSwish',
  'LeakyRelu',
  'Elu',
  'Selu',
  'Celu',
  'Gelu',
  'Mish',
  'ThresholdedRelu',
  'Clip',
  'Softmax',
  'LogSoftmax',
  'Hardmax',
  'LRN',
  'InstanceNormalization',
  'GroupNormalization',
  'MeanVarianceNormalization',
  'IsNaN',
  'IsInf',
  'CumSum',
  'Trilu',
  'Shrink',
  'BitwiseNot',
  'QuantizeLinear',
  'DequantizeLinear',
  'ScatterND',
  'ScatterElements',
  'Scatter',
  'RandomNormalLike',
  'RandomUniformLike',
  'EyeLike',
  'Bernoulli',
  'ReverseSequence',
];

export const RULES: Record<string, Rule> = {
  MatMul: matmul,
  Gemm: gemm,
  Conv: conv,
  ConvTranspose: convTranspose,
  MaxPool: pool,
  AveragePool: pool,
  LpPool: pool,
  GlobalAveragePool: globalPool,
  GlobalMaxPool: globalPool,
  GlobalLpPool: globalPool,
  Reshape: reshape,
  Transpose: transpose,
  Flatten: flatten,
  Squeeze: squeeze,
  Unsqueeze: unsqueeze,
  Concat: concat,
  Split: split,
  Slice: slice,
  Gather: gather,
  GatherElements: gatherElements,
  GatherND: gatherND,
  Shape: shapeOp,
  Size: size,
  Constant: constant,
  ConstantOfShape: constantOfShape,
  Range: range,
  Expand: expand,
  Tile: tile,
  Cast: cast,
  CastLike: castLike,
  Identity: identity,
  Pad: pad,
  Resize: resize,
  Upsample: resize,
  DepthToSpace: depthToSpace,
  SpaceToDepth: spaceToDepth,
  ArgMax: argReduce,
  ArgMin: argReduce,
  TopK: topK,
  LayerNormalization: layerNorm,
  BatchNormalization: batchNorm,
  Dropout: dropout,
  NonZero: nonZero,
  OneHot: oneHot,
  GridSample: gridSample,
  LSTM: recurrent(),
  GRU: recurrent(),
  RNN: recurrent(),
};
for (const op of ELEMENTWISE) RULES[op] = elementwise(op);
for (const op of UNARY_VALUE) RULES[op] = unaryValue(op);
for (const op of SHAPE_PRESERVING) RULES[op] ??= same;
for (const op of [
  'ReduceMean',
  'ReduceSum',
  'ReduceMax',
  'ReduceMin',
  'ReduceProd',
  'ReduceL1',
  'ReduceL2',
  'ReduceLogSum',
  'ReduceLogSumExp',
  'ReduceSumSquare',
]) {
  RULES[op] = reduce(op);
}
// Not covered (outputs stay unknown): Einsum, If/Loop/Scan, other domains, and anything unlisted.
