// Executed shapes of every tensor of a model, including tensors inside If branches: ORT cannot
// return a branch's intermediate tensors, so each top-level If is replaced by the branch ORT takes
// on the given inputs (its condition is fetched from a run first), until no If is left; then every
// node output is exposed as a graph output and the model runs once.
import * as ort from 'onnxruntime-node';
import { onnx } from 'onnx-proto';

type Feeds = Record<string, ort.Tensor>;

const SESSION = { graphOptimizationLevel: 'disabled', intraOpNumThreads: 1, interOpNumThreads: 1 } as const;

async function run(model: onnx.ModelProto, feeds: Feeds, fetch: string[]): Promise<ort.InferenceSession.OnnxValueMapType> {
  const s = await ort.InferenceSession.create(onnx.ModelProto.encode(model).finish(), SESSION);
  try {
    return await s.run(feeds, fetch);
  } finally {
    await s.release();
  }
}

function exposeAll(model: onnx.ModelProto): string[] {
  const g = model.graph!;
  const have = new Set((g.output ?? []).map((o) => o.name));
  const names: string[] = [];
  for (const n of g.node ?? []) {
    for (const o of n.output ?? []) {
      if (!o) continue;
      names.push(o);
      if (!have.has(o)) {
        g.output!.push(onnx.ValueInfoProto.create({ name: o }));
        have.add(o);
      }
    }
  }
  return names;
}

/** Replaces each top-level If by the branch taken on `feeds` (repeatedly, so nested Ifs go too). */
export async function inlineTakenBranches(model: onnx.ModelProto, feeds: Feeds): Promise<number> {
  let inlined = 0;
  for (let round = 0; round < 64; round++) {
    const g = model.graph!;
    const ifs = (g.node ?? []).filter((n) => n.opType === 'If' && !n.domain);
    if (!ifs.length) return inlined;
    const probe = onnx.ModelProto.decode(onnx.ModelProto.encode(model).finish());
    const pg = probe.graph!;
    const have = new Set((pg.output ?? []).map((o) => o.name));
    for (const n of ifs) if (!have.has(n.input![0])) pg.output!.push(onnx.ValueInfoProto.create({ name: n.input![0] }));
    const conds = await run(
      probe,
      feeds,
      ifs.map((n) => n.input![0]),
    );
    const nodes: onnx.INodeProto[] = [];
    for (const n of g.node ?? []) {
      if (n.opType !== 'If' || n.domain) {
        nodes.push(n);
        continue;
      }
      const taken = Boolean((conds[n.input![0]].data as ArrayLike<number | bigint>)[0]);
      const branch = n.attribute!.find((a) => a.name === (taken ? 'then_branch' : 'else_branch'))!.g!;
      for (const t of branch.initializer ?? []) g.initializer!.push(t);
      for (const b of branch.node ?? []) nodes.push(b);
      (branch.output ?? []).forEach((o, i) => {
        const out = n.output![i];
        if (out) nodes.push(onnx.NodeProto.create({ opType: 'Identity', input: [o.name!], output: [out], name: `${n.name}/taken/${i}` }));
      });
      inlined++;
    }
    g.node = nodes as onnx.NodeProto[];
  }
  throw new Error('If nesting deeper than 64 rounds');
}

/** Every node output's executed dims, after inlining the taken If branches. */
export async function executedShapes(bytes: Uint8Array, feeds: Feeds): Promise<{ shapes: Map<string, number[]>; inlined: number }> {
  const model = onnx.ModelProto.decode(bytes);
  const inlined = await inlineTakenBranches(model, feeds);
  const names = exposeAll(model);
  const r = await run(model, feeds, names);
  const shapes = new Map<string, number[]>();
  for (const [k, t] of Object.entries(r)) shapes.set(k, [...t.dims]);
  return { shapes, inlined };
}
