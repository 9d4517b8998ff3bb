// Where the DFC's parser first refuses, as a search over the model's own topological order (pure).
// A cut is what translate_onnx_model is asked to parse: the prefix of the first k data nodes, named
// by the parser's own `end_node_names` at the prefix's frontier (its nodes whose outputs no node of
// the prefix reads). The parser walks the ancestors of its end nodes (docs/bisect.md;
// docs/research/dfc-flow.md#error-classes: end nodes "still walk the ancestors"), so the frontier of a prefix closed under
// predecessors parses exactly that prefix. The search keeps `lo` (the longest prefix seen to parse)
// and `hi` (the shortest seen to refuse) and halves the gap: one whole-model parse plus ⌈log2 N⌉.
import { nodeLabel, type OnnxAnalysis } from './analysis';
import { formatShape, type NodeInfo } from './model';

export interface BisectGraph {
  /** Data nodes (downstream of the start nodes or the graph inputs, not constant at fixed shapes), in topological order. */
  order: NodeInfo[];
  /** The start_node_names the parses pass ([] = the graph's own inputs). */
  start: string[];
  /** For a prefix length k: whether its frontier can be named (every frontier node has a name). */
  nameable: boolean[];
}

export interface Cut {
  start: string[];
  /** end_node_names; null = the whole model, as a user would parse it. */
  end: string[] | null;
}

/** Why the model cannot be searched, in one sentence. */
export class BisectInputError extends Error {}

/** The data nodes in order, from the start nodes the user names (node names, as the DFC takes them). */
export function bisectGraph(a: OnnxAnalysis, startNodeNames: readonly string[] = []): BisectGraph {
  const g = a.model.graph;
  const byName = new Map(g.nodes.filter((n) => n.name).map((n) => [n.name, n]));
  for (const s of startNodeNames) {
    if (!byName.has(s)) {
      const p = a.shapes.producer.get(s);
      throw new BisectInputError(
        p
          ? `'${s}' is a tensor name; --start-node-names takes node names: the node producing it is '${nodeLabel(p)}'`
          : `no node named '${s}' in the model (--start-node-names takes NodeProto names)`,
      );
    }
  }
  const initNames = new Set(g.initializers.map((t) => t.name));
  const live = new Set<string>();
  const data = new Set<NodeInfo>();
  if (startNodeNames.length) {
    const starts = new Set(startNodeNames);
    for (const n of a.shapes.order) {
      if (starts.has(n.name) || n.inputs.some((i) => live.has(i))) {
        data.add(n);
        for (const o of n.outputs) if (o) live.add(o);
      }
    }
  } else {
    for (const v of g.inputs) if (!initNames.has(v.name)) live.add(v.name);
    for (const n of a.shapes.order) {
      if (n.inputs.some((i) => live.has(i))) {
        data.add(n);
        for (const o of n.outputs) if (o) live.add(o);
      }
    }
  }
  const order = a.shapes.order.filter((n) => data.has(n) && !a.foldable.has(n));
  if (!order.length) throw new BisectInputError('the model has no node that reads its inputs: nothing for the parser to translate');
  return { order, start: [...startNodeNames], nameable: nameablePrefixes(a, order) };
}

/**
 * For every prefix length k, whether frontier(order, k) has only named nodes — in one pass over the
 * nodes and their edges (the frontier of each prefix rebuilt from scratch was quadratic: a model of
 * 10⁵ nodes is a file, issue 29). Each node counts the edges from its outputs to nodes of the prefix;
 * it is in the frontier while that count is 0, and the unnamed ones among those are counted.
 */
function nameablePrefixes(a: OnnxAnalysis, order: readonly NodeInfo[]): boolean[] {
  const producers = new Map<string, NodeInfo[]>(); // every node of the order that writes a tensor
  for (const n of order)
    for (const o of new Set(n.outputs)) {
      if (!o) continue;
      const list = producers.get(o);
      if (list) list.push(n);
      else producers.set(o, [n]);
    }
  const inside = new Set<NodeInfo>();
  const edges = new Map<NodeInfo, number>(); // edges from the node's outputs to nodes inside
  let unnamed = 0; // unnamed nodes in the frontier
  const addEdge = (p: NodeInfo) => {
    const e = edges.get(p) ?? 0;
    edges.set(p, e + 1);
    if (e === 0 && !p.name) unnamed--; // p leaves the frontier
  };
  const nameable = [true];
  for (const m of order) {
    inside.add(m);
    edges.set(m, 0);
    if (!m.name) unnamed++; // in the frontier until an edge to the prefix is found
    // edges from m's outputs to nodes already inside (a cycle or a self-loop in a hostile file)
    for (const o of new Set(m.outputs)) if (o) for (const c of a.shapes.consumers.get(o) ?? []) if (c !== m && inside.has(c)) addEdge(m);
    // edges from the outputs of nodes inside to m (consumers lists hold m once per tensor)
    for (const i of new Set(m.inputs)) if (i) for (const p of producers.get(i) ?? []) if (inside.has(p)) addEdge(p);
    nameable.push(unnamed === 0);
  }
  return nameable;
}

/** The prefix's nodes whose outputs no node of the prefix reads (the end nodes that cover it). */
export function frontier(a: OnnxAnalysis, order: readonly NodeInfo[], k: number): NodeInfo[] {
  const inside = new Set(order.slice(0, k));
  return order.slice(0, k).filter((n) => !n.outputs.some((o) => o && (a.shapes.consumers.get(o) ?? []).some((c) => inside.has(c))));
}

export function prefixCut(a: OnnxAnalysis, g: BisectGraph, k: number): Cut {
  return { start: g.start, end: frontier(a, g.order, k).map((n) => n.name) };
}

/** A cut's stable key (the cache's): start and end names, sorted. */
export function cutKey(cut: Cut): string {
  const s = [...cut.start].sort().join(',');
  return cut.end === null ? `whole|${s}` : `${s}|${[...cut.end].sort().join(',')}`;
}

export type ParseOutcome = 'parsed' | 'refused';

/**
 * The search over prefix lengths: next() names the next prefix to parse (k = order.length is the
 * whole model, parsed without end_node_names), record() takes its outcome. Only prefixes whose
 * frontier is nameable are probed; between two probed lengths the refusal lies in (lo, hi].
 */
export class BisectSearch {
  lo = 0;
  hi: number | null = null;
  wholeParsed = false;

  constructor(private readonly g: BisectGraph) {}

  get n(): number {
    return this.g.order.length;
  }

  /** The next prefix length to parse, or null when the search is over. */
  next(): number | null {
    if (this.hi === null) return this.wholeParsed ? null : this.n;
    const between: number[] = [];
    for (let k = this.lo + 1; k < this.hi; k++) if (this.g.nameable[k]) between.push(k);
    if (!between.length) return null;
    return between[Math.floor((between.length - 1) / 2)];
  }

  record(k: number, outcome: ParseOutcome): void {
    if (outcome === 'parsed') {
      if (k === this.n) this.wholeParsed = true;
      else this.lo = Math.max(this.lo, k);
    } else this.hi = this.hi === null ? k : Math.min(this.hi, k);
  }

  /** The nodes whose inclusion first makes the parser refuse (one node unless unnamed nodes hid a frontier). */
  refusing(): NodeInfo[] | null {
    if (this.hi === null || this.next() !== null) return null;
    return this.g.order.slice(this.lo, this.hi);
  }
}

/** The most parses a search over n nodes may take (the bound, asserted by the tests). */
export const parseBudget = (n: number) => 2 * Math.ceil(Math.log2(Math.max(2, n))) + 4;

export interface NodeFacts {
  node: string;
  opType: string;
  index: number;
  inputs: { name: string; shape: string; rank: number | null; constant: boolean }[];
  outputs: { name: string; shape: string; rank: number | null }[];
}

/** The node's op type and its inputs' and outputs' shapes and ranks from our shape inference. */
export function nodeFacts(a: OnnxAnalysis, n: NodeInfo): NodeFacts {
  const initNames = new Set(a.model.graph.initializers.map((t) => t.name));
  const fact = (t: string) => a.shapes.facts.get(t)?.shape ?? null;
  const isConst = (t: string) => initNames.has(t) || (a.shapes.producer.has(t) && a.foldable.has(a.shapes.producer.get(t)!));
  return {
    node: nodeLabel(n),
    opType: n.opType,
    index: n.index,
    inputs: n.inputs.filter(Boolean).map((t) => ({ name: t, shape: formatShape(fact(t)), rank: fact(t)?.length ?? null, constant: isConst(t) })),
    outputs: n.outputs.filter(Boolean).map((t) => ({ name: t, shape: formatShape(fact(t)), rank: fact(t)?.length ?? null })),
  };
}

/** Constant-plumbing nodes a data node brings into the parse (Shape→…→Concat chains feeding it). */
export function constantAncestors(a: OnnxAnalysis, n: NodeInfo): NodeInfo[] {
  const out: NodeInfo[] = [];
  const seen = new Set<NodeInfo>();
  const walk = (m: NodeInfo) => {
    for (const i of m.inputs) {
      const p = a.shapes.producer.get(i);
      if (!p || seen.has(p) || !a.foldable.has(p)) continue;
      seen.add(p);
      walk(p);
      out.push(p);
    }
  };
  walk(n);
  return out.sort((x, y) => x.index - y.index);
}
