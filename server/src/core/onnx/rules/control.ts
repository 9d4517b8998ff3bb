// Control flow: If, Loop, Scan and SequenceMap infer their bodies (through the driver's
// `inferSubgraph`, which sees the outer scope). If with a folded condition takes that branch; with
// an unknown one, each output keeps what both branches agree on.
import { normAxis } from '../dims';
import { DT, type Dim, type GraphIndex } from '../model';
import { fact, type Rule, type RuleCtx, type TensorFact } from '../shapeRules';
import { mergeFacts, sequenceFact } from './sequence';
import { boundedCount } from '../../common/limits';

function body(c: RuleCtx, name: string): GraphIndex | undefined {
  return c.node.subgraphs.find((s) => s.attribute === name)?.graph;
}

const unknownOutputs = (c: RuleCtx) => c.node.outputs.map(() => fact(null, 0));

const ifRule: Rule = (c) => {
  const thenG = body(c, 'then_branch');
  const elseG = body(c, 'else_branch');
  if (!c.inferSubgraph || !thenG || !elseG) return unknownOutputs(c);
  const cond = c.numbers(0)?.[0];
  if (cond !== undefined) return c.inferSubgraph(cond ? thenG : elseG, []);
  const a = c.inferSubgraph(thenG, []);
  const b = c.inferSubgraph(elseG, []);
  return c.node.outputs.map((_, i) => (a[i]?.kind || b[i]?.kind ? mergeSeq(a[i], b[i]) : mergeFacts(a[i], b[i])));
};

function mergeSeq(a: TensorFact | undefined, b: TensorFact | undefined): TensorFact {
  if (a?.kind === 'sequence' && b?.kind === 'sequence') return sequenceFact(undefined, mergeFacts(a.elem, b.elem));
  return a ?? b ?? fact(null, 0);
}

/** Loop(M, cond, v_initial...): body(iter, cond, v...) -> (cond, v..., scan...). */
const loopRule: Rule = (c) => {
  const g = body(c, 'body');
  if (!c.inferSubgraph || !g) return unknownOutputs(c);
  const carried = c.node.inputs.length - 2;
  const init = c.inputs.slice(2);
  const condIn = c.has(1) ? c.inputs[1] : fact([], DT.BOOL, [1]);
  const out = c.inferSubgraph(g, [fact([], DT.INT64), condIn ?? fact([], DT.BOOL), ...init]);
  const trips = c.has(0) ? c.numbers(0)?.[0] : undefined;
  // the scan outputs have one row per iteration: known when the loop always runs M times
  const condStays = out[0]?.value?.[0] === 1 && (condIn?.value?.[0] === 1 || !c.has(1));
  const rows: Dim = trips !== undefined && condStays ? trips : null;
  const result: TensorFact[] = [];
  for (let i = 0; i < carried; i++) {
    const before = init[i];
    const after = out[1 + i];
    // a carried value whose shape changes between iterations keeps only what stays
    result.push(before && after && sameShape(before, after) ? { shape: after.shape, dtype: after.dtype || before.dtype } : mergeFacts(before, after));
  }
  for (let k = 1 + carried; k < out.length; k++) {
    const s = out[k]?.shape;
    result.push(fact(s ? [rows, ...s] : null, out[k]?.dtype ?? 0));
  }
  return result;
};

function sameShape(a: TensorFact, b: TensorFact): boolean {
  return !!a.shape && !!b.shape && a.shape.length === b.shape.length && a.shape.every((d, i) => d === b.shape![i] && d !== null);
}

/** Scan (opset 9+): N state variables, then M scan inputs sliced along their scan axis. */
const scanRule: Rule = (c) => {
  const g = body(c, 'body');
  if (!c.inferSubgraph || !g) return unknownOutputs(c);
  const m = boundedCount('onnxRank', 'Scan num_scan_inputs', c.int('num_scan_inputs', 0));
  const n = c.node.inputs.length - m;
  const inAxes = c.ints('scan_input_axes') ?? new Array(m).fill(0);
  const outAxes = c.ints('scan_output_axes');
  let seqLen: Dim = null;
  const slices: TensorFact[] = [];
  for (let j = 0; j < m; j++) {
    const f = c.inputs[n + j];
    const s = f?.shape;
    if (!s) {
      slices.push(fact(null, f?.dtype ?? 0));
      continue;
    }
    const ax = normAxis(inAxes[j] ?? 0, s.length) ?? 0;
    if (seqLen === null) seqLen = s[ax];
    slices.push(
      fact(
        s.filter((_, i) => i !== ax),
        f!.dtype,
      ),
    );
  }
  const state = c.inputs.slice(0, n);
  const out = c.inferSubgraph(g, [...state, ...slices]);
  const result: TensorFact[] = [];
  for (let i = 0; i < n; i++) result.push(state[i] && out[i] && sameShape(state[i]!, out[i]) ? out[i] : mergeFacts(state[i], out[i]));
  for (let k = n; k < out.length; k++) {
    const s = out[k]?.shape;
    if (!s) {
      result.push(fact(null, out[k]?.dtype ?? 0));
      continue;
    }
    const ax = normAxis(outAxes?.[k - n] ?? 0, s.length + 1) ?? 0;
    const shape = [...s];
    shape.splice(ax, 0, seqLen);
    result.push(fact(shape, out[k].dtype));
  }
  return result;
};

/** SequenceMap(seq, extra...): the body maps each element (and each element of extra sequences). */
const sequenceMapRule: Rule = (c) => {
  const g = body(c, 'body');
  const s = c.inputs[0];
  if (!c.inferSubgraph || !g || s?.kind !== 'sequence') return c.node.outputs.map(() => sequenceFact(undefined));
  const extra = c.inputs.slice(1);
  const argsAt = (i: number | undefined) => extra.map((e) => (e?.kind === 'sequence' ? (i !== undefined && e.items?.[i]) || e.elem : e));
  if (s.items) {
    const per = s.items.map((item, i) => c.inferSubgraph!(g, [item, ...argsAt(i)]));
    return c.node.outputs.map((_, k) => sequenceFact(per.map((p) => p[k] ?? fact(null, 0))));
  }
  const one = c.inferSubgraph(g, [s.elem, ...argsAt(undefined)]);
  return c.node.outputs.map((_, k) => sequenceFact(undefined, one[k]));
};

export const CONTROL_RULES: Record<string, Rule> = {
  If: ifRule,
  Loop: loopRule,
  Scan: scanRule,
  SequenceMap: sequenceMapRule,
};
