// Dimension arithmetic for shape inference. A dim is a number, a symbol (e.g. 'batch', kept as
// written in the model) or null (unknown). Nothing here guesses: what cannot be derived is null.
import type { Dim, Shape } from './model';
import { maxOf } from '../common/arrays';

/** numpy broadcasting of two dims. */
export function broadcastDim(a: Dim, b: Dim): Dim {
  if (a === 1) return b;
  if (b === 1) return a;
  if (a === b) return a;
  if (typeof a === 'number' && typeof b === 'number') return Math.max(a, b); // invalid model; keep the larger
  // a symbol or unknown against n > 1: at run time the symbol must be n (or 1), either way n
  if (typeof a === 'number') return a;
  if (typeof b === 'number') return b;
  return null;
}

/** numpy broadcasting of several shapes (right-aligned). */
export function broadcastShapes(shapes: Shape[]): Shape {
  if (shapes.some((s) => s === null)) return null;
  const ss = shapes as Dim[][];
  const rank = Math.max(0, maxOf(ss.map((s) => s.length)));
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    let d: Dim = 1;
    for (const s of ss) {
      const j = s.length - rank + i;
      if (j >= 0) d = broadcastDim(d, s[j]);
    }
    out.push(d);
  }
  return out;
}

export function normAxis(axis: number, rank: number): number | undefined {
  const a = axis < 0 ? axis + rank : axis;
  return a >= 0 && a < rank ? a : undefined;
}

/** Product of dims as number × symbols; `unknown` when any dim is null. */
export interface DimProduct {
  num: number;
  syms: string[];
  unknown: boolean;
}

export function product(dims: readonly Dim[]): DimProduct {
  const p: DimProduct = { num: 1, syms: [], unknown: false };
  for (const d of dims) {
    if (d === null) p.unknown = true;
    else if (typeof d === 'number') p.num *= d;
    else p.syms.push(d);
  }
  return p;
}

/** A single dim for a product, when it is a number or a lone symbol. */
export function productDim(dims: readonly Dim[]): Dim {
  const p = product(dims);
  if (p.unknown) return null;
  if (p.syms.length === 0) return p.num;
  if (p.syms.length === 1 && p.num === 1) return p.syms[0];
  return null;
}

/** total / part, cancelling symbols; null when it does not come out as a number or a lone symbol. */
export function quotient(total: DimProduct, part: DimProduct): Dim {
  if (total.unknown || part.unknown || part.num === 0) return null;
  const rest = [...total.syms];
  for (const s of part.syms) {
    const i = rest.indexOf(s);
    if (i < 0) return null;
    rest.splice(i, 1);
  }
  if (total.num % part.num !== 0) return null;
  const n = total.num / part.num;
  if (rest.length === 0) return n;
  if (rest.length === 1 && n === 1) return rest[0];
  return null;
}

/** Elementwise arithmetic on values that may be symbolic; only identities survive a symbol. */
export function arith(op: string, a: Dim, b: Dim, integer: boolean): Dim {
  if (typeof a === 'number' && typeof b === 'number') {
    switch (op) {
      case 'Add':
        return a + b;
      case 'Sub':
        return a - b;
      case 'Mul':
        return a * b;
      case 'Div':
        if (b === 0) return null;
        return integer ? Math.trunc(a / b) : a / b;
      case 'Mod':
        if (b === 0) return null;
        return integer ? ((a % b) + b) % b : a % b;
      case 'Pow':
        return a ** b;
      case 'Max':
        return Math.max(a, b);
      case 'Min':
        return Math.min(a, b);
      case 'Equal':
        return a === b ? 1 : 0;
      case 'Greater':
        return a > b ? 1 : 0;
      case 'Less':
        return a < b ? 1 : 0;
      case 'GreaterOrEqual':
        return a >= b ? 1 : 0;
      case 'LessOrEqual':
        return a <= b ? 1 : 0;
      case 'And':
        return a && b ? 1 : 0;
      case 'Or':
        return a || b ? 1 : 0;
      default:
        return null;
    }
  }
  if (a === null || b === null) return null;
  // one side symbolic
  switch (op) {
    case 'Mul':
      if (a === 1) return b;
      if (b === 1) return a;
      return null;
    case 'Add':
      if (a === 0) return b;
      if (b === 0) return a;
      return null;
    case 'Sub':
      if (b === 0) return a;
      return null;
    case 'Div':
      if (b === 1) return a;
      return null;
    case 'Equal':
      return a === b ? 1 : null;
    case 'Max':
    case 'Min':
      return a === b ? a : null;
    default:
      return null;
  }
}

export function unary(op: string, a: Dim, integer: boolean): Dim {
  if (typeof a !== 'number') return op === 'Identity' ? a : null;
  switch (op) {
    case 'Neg':
      return -a;
    case 'Abs':
      return Math.abs(a);
    case 'Floor':
      return Math.floor(a);
    case 'Ceil':
      return Math.ceil(a);
    case 'Round':
      return Math.round(a);
    case 'Sqrt':
      return integer ? null : Math.sqrt(a);
    case 'Reciprocal':
      return integer ? null : 1 / a;
    case 'Not':
      return a ? 0 : 1;
    case 'Sign':
      return Math.sign(a);
    case 'Relu':
      return Math.max(0, a);
    default:
      return null;
  }
}

export function sameDim(a: Dim, b: Dim): boolean {
  return a === b && a !== null;
}

export function isStatic(shape: Shape): shape is number[] {
  return shape !== null && shape.every((d) => typeof d === 'number');
}
