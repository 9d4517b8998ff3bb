// Model-level analysis on top of the index and the inferred shapes: operator and tensor-rank
// histograms, per-node ranks, what onnxsim would fold at fixed input shapes, DFC pre-flight findings.
import { inferShapes, type InferOptions } from './inferShapes';
import { isAiOnnx, type NodeInfo, type OnnxModel, type Shape, type ValueInfo } from './model';
import { preflight } from './preflight';
import type { Finding, OnnxAnalysis, PreflightOptions } from './types';
import type { ShapeResult } from './inferShapes';

export type { Finding, OnnxAnalysis };

export interface AnalyzeOptions extends InferOptions, PreflightOptions {}

export function opKey(n: NodeInfo): string {
  return isAiOnnx(n.domain) ? n.opType : `${n.domain}.${n.opType}`;
}

/** How a node is named to people: its NodeProto.name, or `Op#index` when the file left it empty. */
export function nodeLabel(n: NodeInfo): string {
  return n.name || `${n.opType}#${n.index}`;
}

export function analyzeOnnx(model: OnnxModel, options: AnalyzeOptions = {}): OnnxAnalysis {
  const t0 = performance.now();
  const shapes = inferShapes(model, options);
  const g = model.graph;
  const initNames = new Set(g.initializers.map((t) => t.name));
  const inputs = g.inputs.filter((v) => !initNames.has(v.name));

  const counts = new Map<string, number>();
  for (const n of g.nodes) counts.set(opKey(n), (counts.get(opKey(n)) ?? 0) + 1);
  const operators = Object.fromEntries([...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])));

  const ranks = new Map<number, number>();
  let unknownRank = 0;
  let unresolved = 0;
  for (const name of tensorNames(model, inputs)) {
    const s = shapes.facts.get(name)?.shape ?? null;
    if (s === null) unknownRank++;
    else ranks.set(s.length, (ranks.get(s.length) ?? 0) + 1);
    if (s === null || s.some((d) => d === null)) unresolved++;
  }
  const rankHistogram = Object.fromEntries([...ranks].sort((a, b) => a[0] - b[0]).map(([r, n]) => [String(r), n]));

  const foldable = foldableNodes(shapes, initNames);
  const initializerBytes = g.initializers.reduce((s, t) => s + t.bytes, 0);
  const partial: Omit<OnnxAnalysis, 'findings' | 'ms'> = {
    model,
    shapes,
    inputs,
    operators,
    rankHistogram,
    unknownRank,
    unresolved,
    foldable,
    initializerBytes,
  };
  const findings = preflight(partial, options);
  return { ...partial, findings, ms: performance.now() - t0 };
}

/** Graph inputs then node outputs, each once: the tensors the rank histogram counts. */
export function tensorNames(model: OnnxModel, inputs: ValueInfo[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const v of inputs) if (!seen.has(v.name)) (seen.add(v.name), out.push(v.name));
  for (const n of model.graph.nodes) for (const o of n.outputs) if (o && !seen.has(o)) (seen.add(o), out.push(o));
  return out;
}

const NONDETERMINISTIC = new Set(['RandomNormal', 'RandomUniform', 'RandomNormalLike', 'RandomUniformLike', 'Bernoulli', 'Multinomial']);

/**
 * A node folds when every input is constant at fixed input shapes: an initializer, a folded node's
 * output, or, for Shape/Size, any tensor of known rank. This is the part of onnxsim we can predict.
 */
function foldableNodes(shapes: ShapeResult, initNames: Set<string>): Set<NodeInfo> {
  const constant = new Set<string>(initNames);
  const folded = new Set<NodeInfo>();
  for (const n of shapes.order) {
    if (!isAiOnnx(n.domain) || NONDETERMINISTIC.has(n.opType) || n.subgraphs.length) continue;
    let ok: boolean;
    if (n.opType === 'Shape' || n.opType === 'Size') ok = (shapes.facts.get(n.inputs[0])?.shape ?? null) !== null;
    else ok = n.inputs.every((i) => i === '' || constant.has(i));
    if (!ok) continue;
    folded.add(n);
    for (const o of n.outputs) if (o) constant.add(o);
  }
  return folded;
}

export function rankOf(shape: Shape | undefined): number | null {
  return shape ? shape.length : null;
}

/** Ranks of a node's inputs and outputs (null where unknown). */
export function nodeRanks(a: OnnxAnalysis, n: NodeInfo): { inputs: (number | null)[]; outputs: (number | null)[] } {
  const r = (t: string) => (t ? rankOf(a.shapes.facts.get(t)?.shape ?? null) : null);
  return { inputs: n.inputs.map(r), outputs: n.outputs.map(r) };
}
