// Reference shapes from onnxruntime-node: every node output is exposed as a graph output and the
// model is run once on deterministic inputs; the dims ORT returns are what the file really computes.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as ort from 'onnxruntime-node';
import { onnx } from 'onnx-proto';

export async function ortShapes(path: string, inputShapes: Record<string, number[]> = {}): Promise<Map<string, number[]>> {
  const model = onnx.ModelProto.decode(readFileSync(path));
  const graph = model.graph!;
  // ORT cannot resolve external data for a model given as bytes: inline it.
  for (const t of graph.initializer ?? []) {
    if (t.dataLocation !== onnx.TensorProto.DataLocation.EXTERNAL) continue;
    const kv = Object.fromEntries((t.externalData ?? []).map((e) => [e.key, e.value]));
    const bytes = readFileSync(join(dirname(path), kv.location!));
    const offset = Number(kv.offset ?? 0);
    t.rawData = bytes.subarray(offset, kv.length ? offset + Number(kv.length) : undefined);
    t.dataLocation = onnx.TensorProto.DataLocation.DEFAULT;
    t.externalData = [];
  }
  const have = new Set((graph.output ?? []).map((o) => o.name));
  for (const n of graph.node ?? []) {
    for (const o of n.output ?? []) {
      if (o && !have.has(o)) {
        graph.output!.push(onnx.ValueInfoProto.create({ name: o }));
        have.add(o);
      }
    }
  }
  const session = await ort.InferenceSession.create(onnx.ModelProto.encode(model).finish(), {
    graphOptimizationLevel: 'disabled',
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
  });
  const inits = new Set((graph.initializer ?? []).map((t) => t.name));
  const feeds: Record<string, ort.Tensor> = {};
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const inp of graph.input ?? []) {
    if (inits.has(inp.name!)) continue;
    const tt = inp.type!.tensorType!;
    const dims =
      inputShapes[inp.name!] ??
      (tt.shape?.dim ?? []).map((d) => {
        if (d.dimValue != null && Number(d.dimValue) > 0) return Number(d.dimValue);
        throw new Error(`input ${inp.name} has a symbolic dim; pass inputShapes`);
      });
    const n = dims.reduce((a, b) => a * b, 1);
    switch (tt.elemType) {
      case onnx.TensorProto.DataType.INT64:
        feeds[inp.name!] = new ort.Tensor('int64', new BigInt64Array(n), dims);
        break;
      case onnx.TensorProto.DataType.INT32:
        feeds[inp.name!] = new ort.Tensor('int32', new Int32Array(n), dims);
        break;
      case onnx.TensorProto.DataType.BOOL:
        feeds[inp.name!] = new ort.Tensor('bool', new Uint8Array(n), dims);
        break;
      default:
        feeds[inp.name!] = new ort.Tensor('float32', Float32Array.from({ length: n }, rand), dims);
    }
  }
  const result = await session.run(feeds);
  const shapes = new Map<string, number[]>();
  for (const [name, t] of Object.entries(result)) shapes.set(name, [...t.dims]);
  await session.release();
  return shapes;
}
