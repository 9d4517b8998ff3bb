// Value folding of small tensors of any rank (shape plumbing written as 2-D tables, e.g. torch's
// reflect-padding chain: Concat → Reshape [-1,2] → Slice step -1 → Transpose → Reshape [-1]).
// Each entry wraps an op's shape rule: the shape comes from the rule, the values from here.
import { normAxis } from '../dims';
import { numel, type Dim } from '../model';
import { fact, MAX_VALUE_ELEMENTS, type Rule, type RuleCtx, type TensorFact } from '../shapeRules';

type Wrap = (base: Rule | undefined) => Rule;

const isStaticShape = (s: Dim[] | null | undefined): s is number[] => !!s && s.every((d) => typeof d === 'number');

/** Values of input i with its static shape, when both are known. */
function valued(c: RuleCtx, i: number): { v: Dim[]; s: number[] } | undefined {
  const f = c.inputs[i];
  if (!f?.value || !isStaticShape(f.shape) || f.value.length !== numel(f.shape)) return undefined;
  return { v: f.value, s: f.shape };
}

function strides(s: number[]): number[] {
  const st = new Array(s.length).fill(1);
  for (let i = s.length - 2; i >= 0; i--) st[i] = st[i + 1] * s[i + 1];
  return st;
}

/** Builds the output values by mapping each output coordinate to an input flat index (or a fill). */
function build(out: number[], map: (coord: number[]) => Dim): Dim[] | undefined {
  const total = numel(out);
  if (total > MAX_VALUE_ELEMENTS) return undefined;
  const coord = new Array(out.length).fill(0);
  const res: Dim[] = [];
  for (let k = 0; k < total; k++) {
    res.push(map(coord));
    for (let i = out.length - 1; i >= 0; i--) {
      if (++coord[i] < out[i]) break;
      coord[i] = 0;
    }
  }
  return res;
}

/** Runs the base rule and, when it left output 0 without values, attaches `values(out shape)`. */
function withValue(base: Rule | undefined, values: (c: RuleCtx, out: number[]) => Dim[] | undefined): Rule {
  return (c) => {
    const r = base ? base(c) : [];
    const f = r[0];
    if (!f || f.value || !isStaticShape(f.shape)) return r;
    const v = values(c, f.shape);
    return v && v.length === numel(f.shape) ? [fact(f.shape, f.dtype, v), ...r.slice(1)] : r;
  };
}

const transpose: Wrap = (base) =>
  withValue(base, (c, out) => {
    const x = valued(c, 0);
    if (!x) return undefined;
    const perm = c.ints('perm') ?? x.s.map((_, i) => x.s.length - 1 - i);
    const st = strides(x.s);
    return build(out, (co) => x.v[co.reduce((acc, d, i) => acc + d * st[perm[i]], 0)]);
  });

/** Start and step per axis of a Slice, clamped as the operator defines them. */
function sliceRanges(c: RuleCtx, s: number[]): [number, number][] | undefined {
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
    if ((c.has(3) && !axes) || (c.has(4) && !steps)) return undefined;
  }
  if (!starts || !ends) return undefined;
  const ranges: [number, number][] = s.map(() => [0, 1]);
  for (let i = 0; i < starts.length; i++) {
    const a = normAxis(axes ? axes[i] : i, s.length);
    if (a === undefined) return undefined;
    const d = s[a];
    const step = steps?.[i] ?? 1;
    let st = starts[i];
    if (st < 0) st += d;
    st = step > 0 ? Math.min(Math.max(st, 0), d) : Math.min(Math.max(st, 0), d - 1);
    ranges[a] = [st, step];
  }
  return ranges;
}

const slice: Wrap = (base) =>
  withValue(base, (c, out) => {
    const x = valued(c, 0);
    const r = x && sliceRanges(c, x.s);
    if (!x || !r) return undefined;
    const st = strides(x.s);
    return build(out, (co) => x.v[co.reduce((acc, d, i) => acc + (r[i][0] + d * r[i][1]) * st[i], 0)] ?? null);
  });

const concat: Wrap = (base) =>
  withValue(base, (c, out) => {
    const parts: { v: Dim[]; s: number[] }[] = [];
    for (let i = 0; i < c.node.inputs.length; i++) {
      if (!c.has(i)) continue;
      const x = valued(c, i);
      if (!x) return undefined;
      parts.push(x);
    }
    const axis = normAxis(c.int('axis', 0), out.length);
    if (axis === undefined || !parts.length) return undefined;
    const sts = parts.map((p) => strides(p.s));
    return build(out, (co) => {
      let off = co[axis];
      for (let p = 0; p < parts.length; p++) {
        if (off < parts[p].s[axis]) return parts[p].v[co.reduce((acc, d, i) => acc + (i === axis ? off : d) * sts[p][i], 0)];
        off -= parts[p].s[axis];
      }
      return null;
    });
  });

/** Pad in constant mode (the value, default 0); reflect and edge index back into the input. */
const pad: Wrap = (base) =>
  withValue(base, (c, out) => {
    const x = valued(c, 0);
    if (!x) return undefined;
    const pads = c.opset < 11 ? c.ints('pads') : c.numbers(1);
    if (!pads || (c.opset >= 18 && c.has(3))) return undefined;
    const mode = c.str('mode', 'constant');
    const fillv: Dim = c.opset < 11 ? c.float('value', 0) : c.has(2) ? (c.value(2)?.[0] ?? null) : 0;
    const n = x.s.length;
    const st = strides(x.s);
    return build(out, (co) => {
      let idx = 0;
      for (let i = 0; i < n; i++) {
        let p = co[i] - pads[i];
        const d = x.s[i];
        if (p < 0 || p >= d) {
          if (mode === 'constant') return fillv;
          if (mode === 'edge') p = p < 0 ? 0 : d - 1;
          else if (mode === 'reflect' && d > 1) {
            const period = 2 * (d - 1);
            p = ((p % period) + period) % period;
            if (p >= d) p = period - p;
          } else return null;
        }
        idx += p * st[i];
      }
      return x.v[idx];
    });
  });

const tile: Wrap = (base) =>
  withValue(base, (c, out) => {
    const x = valued(c, 0);
    if (!x) return undefined;
    const st = strides(x.s);
    return build(out, (co) => x.v[co.reduce((acc, d, i) => acc + (d % x.s[i]) * st[i], 0)]);
  });

const gather: Wrap = (base) =>
  withValue(base, (c, out) => {
    const x = valued(c, 0);
    const idx = valued(c, 1);
    if (!x || !idx || !idx.v.every((v) => typeof v === 'number')) return undefined;
    const axis = normAxis(c.int('axis', 0), x.s.length);
    if (axis === undefined) return undefined;
    const st = strides(x.s);
    const ist = strides(idx.s);
    const q = idx.s.length;
    return build(out, (co) => {
      const ic = co.slice(axis, axis + q).reduce((acc, d, i) => acc + d * ist[i], 0);
      let j = idx.v[ic] as number;
      if (j < 0) j += x.s[axis];
      let flat = j * st[axis];
      for (let i = 0; i < axis; i++) flat += co[i] * st[i];
      for (let i = axis + 1; i < x.s.length; i++) flat += co[i + q - 1] * st[i];
      return x.v[flat] ?? null;
    });
  });

/** Split: every output gets its part of the values. */
const split: Wrap = (base) => (c) => {
  const r = base ? base(c) : [];
  const x = valued(c, 0);
  if (!x || r.some((f) => !isStaticShape(f?.shape))) return r;
  const axis = normAxis(c.int('axis', 0), x.s.length);
  if (axis === undefined) return r;
  const st = strides(x.s);
  let offset = 0;
  return r.map((f: TensorFact | undefined) => {
    if (!f) return f;
    const s = f.shape as number[];
    const start = offset;
    offset += s[axis];
    if (f.value) return f;
    const v = build(s, (co) => x.v[co.reduce((acc, d, i) => acc + (i === axis ? d + start : d) * st[i], 0)]);
    return v ? fact(s, f.dtype, v) : f;
  });
};

export const VALUE_RULES: Record<string, Wrap> = {
  Transpose: transpose,
  Slice: slice,
  Concat: concat,
  Pad: pad,
  Tile: tile,
  Gather: gather,
  Split: split,
};
