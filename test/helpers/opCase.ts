// One-operator models for the shape-rule table: a case names the op, its inputs (graph inputs fed
// with deterministic data, or initializers with values), attributes and outputs; `buildCase` makes
// the model, `ortRun` executes it with onnxruntime-node (CPU) and returns every output's dims.
import * as ort from 'onnxruntime-node';
import { encodeModel, type AttrValue, type DType, type GraphSpec, type NodeSpec, type TensorSpec, type ValueSpec } from './onnxBuilder';

export type In = Omit<TensorSpec, 'name'> & { name?: string };

export interface OpCase {
  op: string;
  domain?: string;
  /** ai.onnx opset (default 17). */
  opset?: number;
  /** Inputs in order; null leaves an optional input empty. */
  inputs: (In | null)[];
  attrs?: Record<string, AttrValue>;
  /** Number of outputs (default 1), named y0, y1, ... */
  outputs?: number;
  /** Nodes after the main one (e.g. a SequenceAt reading a sequence output). */
  then?: NodeSpec[];
  /** Outputs not fetched (sequence/optional values ORT cannot return as tensors). */
  hidden?: string[];
  /** Output names of `then` nodes (graph outputs besides y*). */
  thenOutputs?: string[];
  /** Typed outputs for ops whose output type ORT cannot infer alone (none in practice). */
  outputTypes?: Record<string, ValueSpec>;
  /** ORT CPU has no kernel for this op: the expected shapes follow the spec's formula (cited). */
  spec?: { cite: string; expect: Record<string, (number | null)[]> };
  /** Dims that depend on tensor values the file does not hold (the spec says so): output → axes left unknown. */
  dynamic?: Record<string, number[]>;
  /** Distinguishes several cases of one op. */
  label?: string;
}

// ---- input shorthands ---------------------------------------------------------------------------
export const F = (...dims: number[]): In => ({ dtype: 'float', dims });
export const T = (dtype: DType, ...dims: number[]): In => ({ dtype, dims });
export const Fv = (values: number[], dims = [values.length]): In => ({ dtype: 'float', dims, values });
export const I64 = (values: number[], dims = [values.length]): In => ({ dtype: 'int64', dims, values });
export const I32 = (values: number[], dims = [values.length]): In => ({ dtype: 'int32', dims, values });
export const S64 = (v: number): In => ({ dtype: 'int64', dims: [], values: [v] });
export const SF = (v: number): In => ({ dtype: 'float', dims: [], values: [v] });
export const U8v = (values: number[], dims = [values.length]): In => ({ dtype: 'uint8', dims, values });
export const I8v = (values: number[], dims = [values.length]): In => ({ dtype: 'int8', dims, values });
export const Bv = (values: number[], dims = [values.length]): In => ({ dtype: 'bool', dims, values });
/** A graph input fed with the given values (not an initializer). */
export const Fed = (dtype: DType, dims: number[], feed: (number | string)[]): In => ({ dtype, dims, feed });

export function caseName(c: OpCase): string {
  return `${c.domain ? c.domain + '.' : ''}${c.op}${c.label ? ` (${c.label})` : ''}`;
}

export function outputNames(c: OpCase): string[] {
  const main = Array.from({ length: c.outputs ?? 1 }, (_, i) => `y${i}`);
  return [...main, ...(c.thenOutputs ?? [])];
}

export function buildCase(c: OpCase): { bytes: Uint8Array; feeds: Record<string, ort.Tensor>; fetch: string[] } {
  const inputs: ValueSpec[] = [];
  const initializers: TensorSpec[] = [];
  const feeds: Record<string, ort.Tensor> = {};
  const names = c.inputs.map((x, i) => {
    if (!x) return '';
    const name = x.name ?? `x${i}`;
    if (x.values) initializers.push({ ...x, name });
    else {
      inputs.push({ name, dtype: x.dtype, dims: x.declare ?? x.dims });
      feeds[name] = feedTensor({ ...x, name });
    }
    return name;
  });
  const outs = Array.from({ length: c.outputs ?? 1 }, (_, i) => `y${i}`);
  const nodes: NodeSpec[] = [{ op: c.op, domain: c.domain, inputs: names, outputs: outs, attrs: c.attrs, name: 'node' }, ...(c.then ?? [])];
  const hidden = new Set(c.hidden ?? []);
  const fetch = outputNames(c).filter((n) => !hidden.has(n));
  const graph: GraphSpec = {
    nodes,
    inputs,
    initializers,
    outputs: fetch.map((n) => c.outputTypes?.[n] ?? { name: n }),
  };
  const opsets: Record<string, number> = {};
  for (const n of nodes) if (n.domain) opsets[n.domain] = 1;
  return { bytes: encodeModel({ graph, opset: c.opset ?? 17, opsets, irVersion: (c.opset ?? 17) >= 21 ? 10 : 8 }), feeds, fetch };
}

let seed = 20261201;
function rand(): number {
  seed = (seed * 1103515245 + 12345) % 2147483648;
  return seed / 2147483648;
}

export function feedTensor(x: TensorSpec): ort.Tensor {
  const n = x.dims.reduce((a, b) => a * b, 1);
  const v = x.feed;
  const num = (i: number) => (v ? Number(v[i]) : 0);
  switch (x.dtype) {
    case 'float':
      return new ort.Tensor(
        'float32',
        Float32Array.from({ length: n }, (_, i) => (v ? num(i) : rand() * 2 - 1)),
        x.dims,
      );
    case 'double':
      return new ort.Tensor(
        'float64',
        Float64Array.from({ length: n }, (_, i) => (v ? num(i) : rand() * 2 - 1)),
        x.dims,
      );
    case 'float16':
      return new ort.Tensor(
        'float16',
        Uint16Array.from({ length: n }, () => 0x3c00),
        x.dims,
      );
    case 'int64':
      return new ort.Tensor(
        'int64',
        BigInt64Array.from({ length: n }, (_, i) => BigInt(num(i))),
        x.dims,
      );
    case 'int32':
      return new ort.Tensor(
        'int32',
        Int32Array.from({ length: n }, (_, i) => num(i)),
        x.dims,
      );
    case 'int16':
      return new ort.Tensor(
        'int16',
        Int16Array.from({ length: n }, (_, i) => num(i)),
        x.dims,
      );
    case 'uint16':
      return new ort.Tensor(
        'uint16',
        Uint16Array.from({ length: n }, (_, i) => num(i)),
        x.dims,
      );
    case 'int8':
      return new ort.Tensor(
        'int8',
        Int8Array.from({ length: n }, (_, i) => (v ? num(i) : Math.floor(rand() * 20) - 10)),
        x.dims,
      );
    case 'uint8':
      return new ort.Tensor(
        'uint8',
        Uint8Array.from({ length: n }, (_, i) => (v ? num(i) : Math.floor(rand() * 200))),
        x.dims,
      );
    case 'bool':
      return new ort.Tensor(
        'bool',
        Uint8Array.from({ length: n }, (_, i) => num(i)),
        x.dims,
      );
    case 'string':
      return new ort.Tensor(
        'string',
        Array.from({ length: n }, (_, i) => (v ? String(v[i]) : 'Hailo tools')),
        x.dims,
      );
  }
}

/** Executes the model on ORT's CPU provider; dims of every fetched output. */
export async function ortRun(bytes: Uint8Array, feeds: Record<string, ort.Tensor>, fetch: string[]): Promise<Record<string, number[]>> {
  const s = await ort.InferenceSession.create(bytes, { graphOptimizationLevel: 'disabled', intraOpNumThreads: 1, interOpNumThreads: 1 });
  try {
    const r = await s.run(feeds, fetch);
    return Object.fromEntries(Object.entries(r).map(([k, t]) => [k, [...t.dims]]));
  } finally {
    await s.release();
  }
}
