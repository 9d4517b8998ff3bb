// Shape inference driver: seeds facts from graph inputs and initializers, visits nodes in
// topological order and applies the per-op rules. Unknown stays unknown; symbols are kept.
import { isIntegerType, numel, type Dim, type GraphIndex, type NodeInfo, type OnnxModel, type Shape, type TensorInfo } from './model';
import { ruleFor } from './rules';
import { MAX_VALUE_ELEMENTS, RuleCtx, type SubgraphInfer, type TensorFact } from './shapeRules';
import { tensorValues } from './tensorData';
import { limit } from '../common/limits';

const MAX_RANK = limit('onnxRank');

export type { TensorFact };

export type FactSource = 'input' | 'initializer' | 'inferred' | 'declared';

export interface InferOptions {
  /** Fixed shapes for graph inputs (like the DFC's net_input_shapes), replacing the declared ones. */
  inputShapes?: Record<string, Dim[]>;
  /** Fill what inference leaves unknown from value_info / declared outputs (default true). */
  useDeclared?: boolean;
}

export interface ShapeResult {
  facts: Map<string, TensorFact & { source: FactSource }>;
  /** Nodes in the order they were visited. */
  order: NodeInfo[];
  /** Nodes whose op has no rule (their outputs are unknown unless declared). */
  unruled: NodeInfo[];
  /** Producer node of each tensor. */
  producer: Map<string, NodeInfo>;
  /** Consumer nodes of each tensor. */
  consumers: Map<string, NodeInfo[]>;
  /** Tensors inside subgraphs (If/Loop/Scan bodies), first inference of each name. */
  subgraphFacts: Map<string, TensorFact>;
  ms: number;
}

export function inferShapes(model: OnnxModel, options: InferOptions = {}): ShapeResult {
  const t0 = performance.now();
  const g = model.graph;
  const useDeclared = options.useDeclared ?? true;
  const facts = new Map<string, TensorFact & { source: FactSource }>();
  const initNames = new Set<string>();
  for (const t of g.initializers) {
    initNames.add(t.name);
    facts.set(t.name, { ...initializerFact(t), source: 'initializer' });
  }
  for (const v of g.inputs) {
    if (initNames.has(v.name)) continue; // IR < 4 lists initializers as inputs
    const fixed = options.inputShapes?.[v.name];
    const declared = v.type.kind === 'tensor' ? v.type.shape : null;
    const elem = v.type.kind === 'tensor' ? v.type.elemType : 0;
    facts.set(v.name, { shape: fixed ? [...fixed] : declared ? [...declared] : null, dtype: elem, source: 'input' });
  }
  const declared = new Map<string, { shape: Shape; dtype: number }>();
  if (useDeclared) {
    for (const v of [...g.valueInfo, ...g.outputs]) {
      if (v.type.kind === 'tensor') declared.set(v.name, { shape: v.type.shape, dtype: v.type.elemType });
    }
  }

  const { order, producer, consumers } = topoOrder(g, facts);
  const opsetAi = model.opsets[''] ?? model.opsets['ai.onnx'] ?? 1;
  const unruled: NodeInfo[] = [];
  const subgraphFacts = new Map<string, TensorFact>();
  let depth = 0;
  // A body sees its enclosing scopes; its tensors are recorded once in subgraphFacts.
  const scopeInfer =
    (parentGet: (n: string) => TensorFact | undefined): SubgraphInfer =>
    (sub, formal) => {
      if (depth >= MAX_SUBGRAPH_DEPTH) return sub.outputs.map(() => ({ shape: null, dtype: 0 }));
      depth++;
      try {
        const local = new Map<string, TensorFact>();
        const get = (n: string) => local.get(n) ?? parentGet(n);
        const infer = scopeInfer(get);
        for (const t of sub.initializers) local.set(t.name, initializerFact(t));
        sub.inputs.forEach((v, i) => {
          const declaredShape = v.type.kind === 'tensor' ? v.type.shape : null;
          const f = formal[i];
          local.set(v.name, f && (f.shape || f.kind) ? f : { shape: declaredShape, dtype: v.type.kind === 'tensor' ? v.type.elemType : 0 });
        });
        for (const node of sub.nodes) {
          const out = applyRule(
            node,
            opsetAi,
            node.inputs.map((n) => (n ? get(n) : undefined)),
            infer,
          );
          node.outputs.forEach((name, i) => {
            if (!name) return;
            const f = out[i] ?? { shape: null, dtype: 0 };
            local.set(name, f);
            if (!subgraphFacts.has(name)) subgraphFacts.set(name, f);
          });
        }
        return sub.outputs.map((v) => get(v.name) ?? { shape: null, dtype: 0 });
      } finally {
        depth--;
      }
    };
  const inferSubgraph = scopeInfer((n) => facts.get(n));
  for (const node of order) {
    if (!ruleFor(node.domain, node.opType)) unruled.push(node);
    const out = applyRule(
      node,
      opsetAi,
      node.inputs.map((n) => (n ? facts.get(n) : undefined)),
      inferSubgraph,
    );
    node.outputs.forEach((name, i) => {
      if (!name) return;
      const f = out[i] ?? { shape: null, dtype: 0 };
      const d = declared.get(name);
      facts.set(name, d ? mergeDeclared(f, d) : { ...f, source: 'inferred' });
    });
  }
  return { facts, order, unruled, producer, consumers, subgraphFacts, ms: performance.now() - t0 };
}

/** Nesting limit for bodies inside bodies (a hostile file must not exhaust the stack). */
const MAX_SUBGRAPH_DEPTH = 16;

function applyRule(node: NodeInfo, opset: number, inputs: (TensorFact | undefined)[], infer: SubgraphInfer): (TensorFact | undefined)[] {
  const rule = ruleFor(node.domain, node.opType);
  if (!rule) return [];
  let out: (TensorFact | undefined)[];
  try {
    out = rule(new RuleCtx(node, opset, inputs, infer));
  } catch {
    return []; // a malformed node must not stop the rest of the graph
  }
  // a malformed attribute must not make a shape of 10⁹ dims (LIMITS.onnxRank)
  return out.map((f) => (f?.shape && f.shape.length > MAX_RANK ? { ...f, shape: null, value: undefined } : f));
}

function initializerFact(t: TensorInfo): TensorFact {
  // integer tensors feed shape computations; float ones only matter when tiny (scales, fill values)
  const limit = isIntegerType(t.dataType) ? MAX_VALUE_ELEMENTS : 64;
  const value = numel(t.dims) <= limit ? tensorValues(t) : undefined;
  return { shape: t.dims, dtype: t.dataType, ...(value ? { value } : {}) };
}

/** Inferred dims win; the file's declaration fills what inference could not derive. */
function mergeDeclared(f: TensorFact, d: { shape: Shape; dtype: number }): TensorFact & { source: FactSource } {
  const dtype = f.dtype || d.dtype;
  if (f.shape === null) return { shape: d.shape, dtype, source: d.shape ? 'declared' : 'inferred' };
  if (d.shape && d.shape.length === f.shape.length && f.shape.some((x) => x === null)) {
    return { ...f, dtype, shape: f.shape.map((x, i) => (x === null ? d.shape![i] : x)), source: 'inferred' };
  }
  return { ...f, dtype, source: 'inferred' };
}

/** Kahn's order over tensor dependencies; nodes in cycles or with dangling inputs come last. */
function topoOrder(g: GraphIndex, seeded: Map<string, unknown>) {
  const producer = new Map<string, NodeInfo>();
  const consumers = new Map<string, NodeInfo[]>();
  for (const n of g.nodes) for (const o of n.outputs) if (o) producer.set(o, n);
  // Exporters write nodes in topological order: check that in one pass and skip the sort.
  const available = new Set<string>();
  let sorted = true;
  for (const n of g.nodes) {
    for (let k = 0; k < n.inputs.length; k++) {
      const i = n.inputs[k];
      if (!i) continue;
      let list = consumers.get(i);
      if (!list) consumers.set(i, (list = []));
      if (list[list.length - 1] !== n) list.push(n);
      if (sorted && producer.has(i) && !seeded.has(i) && !available.has(i)) sorted = false;
    }
    for (const o of n.outputs) available.add(o);
  }
  if (sorted) return { order: g.nodes, producer, consumers };
  const pending = new Map<NodeInfo, number>();
  const ready: NodeInfo[] = [];
  for (const n of g.nodes) {
    let deps = 0;
    for (const i of new Set(n.inputs)) if (i && producer.has(i) && !seeded.has(i)) deps++;
    pending.set(n, deps);
    if (deps === 0) ready.push(n);
  }
  const order: NodeInfo[] = [];
  const done = new Set<NodeInfo>();
  // process in file order among ready nodes: a min-heap is overkill, files are nearly sorted
  let head = 0;
  while (head < ready.length) {
    const n = ready[head++];
    order.push(n);
    done.add(n);
    for (const o of n.outputs) {
      for (const c of consumers.get(o) ?? []) {
        const left = (pending.get(c) ?? 0) - 1;
        pending.set(c, left);
        if (left === 0) ready.push(c);
      }
    }
  }
  if (order.length < g.nodes.length) for (const n of g.nodes) if (!done.has(n)) order.push(n);
  return { order, producer, consumers };
}
