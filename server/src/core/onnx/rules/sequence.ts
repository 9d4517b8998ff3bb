// Sequence and optional values (opset 11+/15+): a fact of kind 'sequence' lists its elements when
// their number is known (`items`) and what every element is known to be (`elem`); SequenceAt,
// ConcatFromSequence, SequenceLength and OptionalGetElement turn them back into tensor facts.
import { normAxis } from '../dims';
import { DT, type Dim, type Shape } from '../model';
import { fact, type Rule, type RuleCtx, type TensorFact } from '../shapeRules';
import { boundedCount } from '../../common/limits';

/** What two tensors have in common: same rank keeps equal dims, anything else is unknown. */
export function mergeFacts(a: TensorFact | undefined, b: TensorFact | undefined): TensorFact {
  if (!a || !b) return fact(null, a?.dtype ?? b?.dtype ?? 0);
  return fact(mergeShapes(a.shape, b.shape), a.dtype || b.dtype);
}

export function mergeShapes(a: Shape, b: Shape): Shape {
  if (!a || !b || a.length !== b.length) return null;
  return a.map((d, i) => (d === b[i] ? d : null));
}

export function sequenceFact(items: TensorFact[] | undefined, elem?: TensorFact): TensorFact {
  const e = elem ?? (items && items.length ? items.reduce((acc, x) => mergeFacts(acc, x)) : fact(null, 0));
  return { shape: null, dtype: e.dtype, kind: 'sequence', elem: e, ...(items ? { items } : {}) };
}

const isSeq = (f: TensorFact | undefined): f is TensorFact => f?.kind === 'sequence';

const sequenceConstruct: Rule = (c) => [sequenceFact(c.inputs.map((f) => f ?? fact(null, 0)))];

const sequenceEmpty: Rule = (c) => [sequenceFact([], fact(null, c.int('dtype', DT.FLOAT)))];

function position(c: RuleCtx, i: number, length: number | undefined): number | undefined {
  const v = c.numbers(i)?.[0];
  if (v === undefined || length === undefined) return undefined;
  return v < 0 ? v + length : v;
}

const sequenceAt: Rule = (c) => {
  const s = c.inputs[0];
  if (!isSeq(s)) return [fact(null, 0)];
  const at = position(c, 1, s.items?.length);
  if (s.items && at !== undefined && s.items[at]) return [s.items[at]];
  return [s.elem ?? fact(null, s.dtype)];
};

const sequenceLength: Rule = (c) => {
  const s = c.inputs[0];
  const n = isSeq(s) && s.items ? s.items.length : undefined;
  return [fact([], DT.INT64, n === undefined ? undefined : [n])];
};

const sequenceInsert: Rule = (c) => {
  const s = c.inputs[0];
  const t = c.inputs[1] ?? fact(null, 0);
  if (!isSeq(s)) return [sequenceFact(undefined, t)];
  if (!s.items) return [sequenceFact(undefined, mergeFacts(s.elem, t))];
  const at = c.has(2) ? position(c, 2, s.items.length + 1) : s.items.length;
  if (at === undefined) return [sequenceFact(undefined, s.items.length ? mergeFacts(s.elem, t) : t)];
  const items = [...s.items];
  items.splice(at, 0, t);
  return [sequenceFact(items)];
};

const sequenceErase: Rule = (c) => {
  const s = c.inputs[0];
  if (!isSeq(s)) return [sequenceFact(undefined)];
  if (!s.items) return [sequenceFact(undefined, s.elem)];
  const at = c.has(1) ? position(c, 1, s.items.length) : s.items.length - 1;
  if (at === undefined) return [sequenceFact(undefined, s.elem)];
  const items = [...s.items];
  items.splice(at, 1);
  return [sequenceFact(items, items.length ? undefined : s.elem)];
};

const splitToSequence: Rule = (c) => {
  const x = c.shape(0);
  const dtype = c.dtype(0);
  if (!x) return [sequenceFact(undefined, fact(null, dtype))];
  const axis = normAxis(c.int('axis', 0), x.length);
  if (axis === undefined) return [sequenceFact(undefined, fact(null, dtype))];
  const d = x[axis];
  const at = (size: Dim) =>
    fact(
      x.map((e, i) => (i === axis ? size : e)),
      dtype,
    );
  if (c.has(1)) {
    const split = c.numbers(1);
    const sShape = c.shape(1);
    if (!split) return [sequenceFact(undefined, at(null))];
    if (sShape && sShape.length === 0) {
      const chunk = split[0];
      if (typeof d !== 'number') return [sequenceFact(undefined, at(null))];
      const n = boundedCount('onnxRank', 'the chunks of a SplitToSequence', Math.ceil(d / chunk));
      return [sequenceFact(Array.from({ length: n }, (_, i) => at(Math.min(chunk, d - i * chunk))))];
    }
    return [sequenceFact(split.map((s) => at(s)))];
  }
  // no split: chunks of 1, the axis dropped unless keepdims
  const keep = c.int('keepdims', 1) === 1;
  const item = keep
    ? at(1)
    : fact(
        x.filter((_, i) => i !== axis),
        dtype,
      );
  return [
    typeof d === 'number'
      ? sequenceFact(Array.from({ length: boundedCount('onnxRank', 'the items of a SplitToSequence', d) }, () => item))
      : sequenceFact(undefined, item),
  ];
};

const concatFromSequence: Rule = (c) => {
  const s = c.inputs[0];
  if (!isSeq(s)) return [fact(null, 0)];
  const newAxis = c.int('new_axis', 0) === 1;
  const e = s.elem?.shape ?? null;
  if (!e) return [fact(null, s.dtype)];
  const rank = e.length + (newAxis ? 1 : 0);
  const axis = normAxis(c.int('axis', 0), rank);
  if (axis === undefined) return [fact(null, s.dtype)];
  if (newAxis) {
    const out = [...e];
    out.splice(axis, 0, s.items ? s.items.length : null);
    return [fact(out, s.dtype)];
  }
  const out = [...e];
  if (s.items) {
    let sum = 0;
    for (const it of s.items) {
      const d = it.shape?.[axis];
      if (typeof d !== 'number') {
        sum = NaN;
        break;
      }
      sum += d;
    }
    out[axis] = Number.isNaN(sum) ? null : sum;
  } else out[axis] = null;
  return [fact(out, s.dtype)];
};

const optional: Rule = (c) => {
  const x = c.has(0) ? c.inputs[0] : undefined;
  return [{ shape: null, dtype: x?.dtype ?? 0, kind: 'optional', ...(x ? { elem: x, items: [x] } : {}) }];
};

const optionalGetElement: Rule = (c) => {
  const o = c.inputs[0];
  if (o?.kind === 'optional') return [o.elem ?? fact(null, o.dtype)];
  return [o ?? fact(null, 0)]; // opset 18: a plain tensor passes through
};

const optionalHasElement: Rule = (c) => {
  const o = c.inputs[0];
  const known = !c.has(0) ? 0 : o?.kind === 'optional' ? (o.items ? 1 : undefined) : o ? 1 : undefined;
  return [fact([], DT.BOOL, known === undefined ? undefined : [known])];
};

export const SEQUENCE_RULES: Record<string, Rule> = {
  SequenceConstruct: sequenceConstruct,
  SequenceEmpty: sequenceEmpty,
  SequenceAt: sequenceAt,
  SequenceLength: sequenceLength,
  SequenceInsert: sequenceInsert,
  SequenceErase: sequenceErase,
  SplitToSequence: splitToSequence,
  ConcatFromSequence: concatFromSequence,
  Optional: optional,
  OptionalGetElement: optionalGetElement,
  OptionalHasElement: optionalHasElement,
};
