// First divergent layer: the float ONNX's intermediate tensors (onnxruntime, with the layers'
// tensors added as graph outputs) against the DFC emulator's per-layer outputs on the same inputs,
// layer by layer through the HN's `original_names`, and the first layer whose error jumps. Pure:
// the mapping, the layout, the metric and the verdict; the runs are the caller's. Ambiguity is said,
// never guessed: a layer whose ONNX nodes hand more than one tensor on, share a tensor with another
// layer, or whose shapes do not line up is "not compared", and a jump right after such a layer says
// the jump may start there.
import type { HnLayer } from '../har/hn';
import type { OnnxAnalysis } from '../onnx/analysis';
import { pushAll } from '../common/arrays';

export interface LayerTensor {
  layer: string;
  type: string;
  /** The ONNX tensor that holds this layer's output, when exactly one does. */
  tensor?: string;
  /** Why there is none. */
  why?: string;
}

/** The ONNX tensor of each HN layer: the output of its `original_names` nodes that leaves the group. */
export function layerTensors(layers: readonly HnLayer[], analysis: OnnxAnalysis): LayerTensor[] {
  const g = analysis.model.graph;
  const byName = new Map(g.nodes.filter((n) => n.name).map((n) => [n.name, n]));
  const consumers = new Map<string, Set<string>>();
  for (const n of g.nodes) for (const i of n.inputs) if (i) (consumers.get(i) ?? consumers.set(i, new Set()).get(i)!).add(n.name);
  const graphOutputs = new Set(g.outputs.map((o) => o.name));
  const out: LayerTensor[] = [];
  const owner = new Map<string, LayerTensor>(); // tensor → the entry of the layer that has it (a map: the HN is a file, no search per layer)
  for (const l of layers) {
    if (l.type === 'input_layer' || l.type === 'output_layer' || l.type === 'const_input') {
      out.push({ layer: l.name, type: l.type, why: `${l.type} layers are not compared` });
      continue;
    }
    const nodes = l.originalNames.map((n) => byName.get(n)).filter((n): n is NonNullable<typeof n> => !!n);
    if (!nodes.length) {
      out.push({ layer: l.name, type: l.type, why: 'none of its original_names is an ONNX node' });
      continue;
    }
    const group = new Set(nodes.map((n) => n.name));
    const leaving = [
      ...new Set(nodes.flatMap((n) => n.outputs.filter((t) => t && (graphOutputs.has(t) || [...(consumers.get(t) ?? [])].some((c) => !group.has(c)))))),
    ];
    if (leaving.length !== 1) {
      out.push({
        layer: l.name,
        type: l.type,
        why: leaving.length ? `its ONNX nodes hand ${leaving.length} tensors on (${leaving.slice(0, 3).join(', ')})` : 'its ONNX nodes hand no tensor on',
      });
      continue;
    }
    const t = leaving[0];
    const p = owner.get(t);
    if (p) {
      out.push({ layer: l.name, type: l.type, why: `shares ONNX tensor ${t} with layer ${p.layer}` });
      p.why = `shares ONNX tensor ${t} with layer ${l.name}`;
      delete p.tensor;
      continue;
    }
    const entry: LayerTensor = { layer: l.name, type: l.type, tensor: t };
    owner.set(t, entry);
    out.push(entry);
  }
  return out;
}

export interface Tensor {
  dims: readonly number[];
  data: ArrayLike<number>;
}

/** The emulator's NHWC tensor in the ONNX tensor's order, when their shapes line up (else why not). */
export function alignToOnnx(emu: Tensor, onnxDims: readonly number[]): Float64Array | string {
  const count = (d: readonly number[]) => d.reduce((a, b) => a * b, 1);
  if (count(emu.dims) !== count(onnxDims) || emu.data.length !== count(emu.dims))
    return `shapes differ: emulator [${emu.dims.join(',')}], ONNX [${onnxDims.join(',')}]`;
  const e = emu.dims;
  // NHWC → NCHW (the DFC's reading of rank-4 ONNX)
  if (e.length === 4 && onnxDims.length === 4 && onnxDims[0] === e[0] && onnxDims[1] === e[3] && onnxDims[2] === e[1] && onnxDims[3] === e[2]) {
    const [n, h, w, c] = e;
    const out = new Float64Array(emu.data.length);
    for (let b = 0; b < n; b++)
      for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) for (let k = 0; k < c; k++) out[((b * c + k) * h + y) * w + x] = emu.data[((b * h + y) * w + x) * c + k];
    return out;
  }
  // [N,1,1,C] ↔ [N,C], [N,1,S,C] ↔ [N,S,C]: the same order once the 1s are dropped
  const squeeze = (d: readonly number[]) => d.filter((x, i) => i === 0 || x !== 1);
  const a = squeeze(e);
  const b = squeeze(onnxDims);
  if (a.length === b.length && a.every((x, i) => x === b[i])) return Float64Array.from(emu.data);
  return `layouts do not line up: emulator [${e.join(',')}], ONNX [${onnxDims.join(',')}]`;
}

export function relativeError(emu: ArrayLike<number>, ref: ArrayLike<number>): number {
  let d = 0;
  let r = 0;
  for (let i = 0; i < ref.length; i++) {
    d += (emu[i] - ref[i]) ** 2;
    r += ref[i] ** 2;
  }
  return r === 0 ? (d === 0 ? 0 : Infinity) : Math.sqrt(d / r);
}

export interface LayerDivergence extends LayerTensor {
  relativeError?: number;
  /** The largest error among its nearest compared producers. */
  inputError?: number;
}

export interface DivergenceReport {
  layers: LayerDivergence[];
  threshold: number;
  /** The first layer whose error jumps: above the threshold and ≥ 3× its inputs' error. */
  first?: { layer: string; relativeError: number; inputError: number; ambiguous?: string };
  verdict: string;
}

export const JUMP = 3;

/**
 * Per layer, in dataflow order: its relative error ‖emu − float‖ / ‖float‖ and its inputs' (the
 * nearest compared producers', through uncompared ones). The first divergent layer is the first
 * whose error is above `threshold` and at least JUMP× its inputs'.
 */
export function divergence(
  layers: readonly HnLayer[],
  mapping: readonly LayerTensor[],
  floatOf: (tensor: string) => Tensor | undefined,
  emuOf: (layer: string) => Tensor | undefined,
  threshold = 0.1,
): DivergenceReport {
  const byName = new Map(layers.map((l) => [l.name, l]));
  const unscope = (n: string) => n.slice(n.lastIndexOf('/') + 1);
  const result = new Map<string, LayerDivergence>();
  const rows: LayerDivergence[] = mapping.map((m) => {
    const row: LayerDivergence = { ...m };
    if (m.tensor) {
      const f = floatOf(m.tensor);
      const e = emuOf(m.layer);
      if (!f) row.why = 'onnxruntime gave no value for its tensor';
      else if (!e) row.why = 'the emulator gave no tensor for it';
      else {
        const aligned = alignToOnnx(e, f.dims);
        if (typeof aligned === 'string') row.why = aligned;
        else row.relativeError = relativeError(aligned, f.data);
      }
      if (row.why) delete row.tensor;
    }
    result.set(m.layer, row);
    return row;
  });
  // inputs' error through uncompared producers; and which uncompared layers sit right before
  const inputInfo = (name: string, seen = new Set<string>()): { error: number; uncompared: string[] } => {
    let error = 0;
    const uncompared: string[] = [];
    for (const p of byName.get(name)?.input.map(unscope) ?? []) {
      if (seen.has(p)) continue;
      seen.add(p);
      const r = result.get(p);
      if (r?.relativeError !== undefined) error = Math.max(error, r.relativeError);
      else {
        if (r && byName.get(p)?.type !== 'input_layer' && byName.get(p)?.type !== 'const_input') uncompared.push(p);
        const up = inputInfo(p, seen);
        error = Math.max(error, up.error);
        pushAll(uncompared, up.uncompared);
      }
    }
    return { error, uncompared };
  };
  let first: DivergenceReport['first'];
  for (const r of rows) {
    if (r.relativeError === undefined) continue;
    const { error, uncompared } = inputInfo(r.layer);
    r.inputError = error;
    if (!first && r.relativeError > threshold && r.relativeError >= JUMP * error) {
      first = {
        layer: r.layer,
        relativeError: r.relativeError,
        inputError: error,
        ...(uncompared.length ? { ambiguous: `the jump may start in ${uncompared.join(', ')} before it, which could not be compared` } : {}),
      };
    }
  }
  const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
  const compared = rows.filter((r) => r.relativeError !== undefined).length;
  const verdict = first
    ? `First divergent layer: ${first.layer} (relative error ${pct(first.relativeError)}, its inputs ${pct(first.inputError)})${first.ambiguous ? `; ${first.ambiguous}` : ''}.`
    : compared
      ? `No layer's error jumps above ${pct(threshold)} (${compared} of ${rows.length} layers compared).`
      : `No layer could be compared (${rows.length} layers: see why per layer).`;
  return { layers: rows, threshold, ...(first ? { first } : {}), verdict };
}

/** ModelProto bytes with `names` appended to its graph's outputs (name-only ValueInfoProto; onnxruntime infers their types). */
export function withExtraOutputs(model: Uint8Array, names: readonly string[]): Uint8Array {
  const varint = (n: number) => {
    const b: number[] = [];
    while (n > 127) {
      b.push((n & 127) | 128);
      n = Math.floor(n / 128);
    }
    b.push(n);
    return Uint8Array.from(b);
  };
  const read = (pos: number): [number, number] => {
    let v = 0;
    let s = 1;
    for (;;) {
      if (pos >= model.length) throw new Error('the ONNX file is cut short');
      const b = model[pos++];
      v += (b & 127) * s;
      s *= 128;
      if (!(b & 128)) return [v, pos];
    }
  };
  const cat = (parts: Uint8Array[]) => {
    const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
  const enc = new TextEncoder();
  let pos = 0;
  while (pos < model.length) {
    const start = pos;
    let tag: number;
    [tag, pos] = read(pos);
    const wt = tag & 7;
    if (wt === 0) [, pos] = read(pos);
    else if (wt === 1) pos += 8;
    else if (wt === 5) pos += 4;
    else if (wt === 2) {
      let len: number;
      [len, pos] = read(pos);
      if (tag >>> 3 === 7) {
        const extra = names.map((n) => {
          const nb = enc.encode(n);
          const vi = cat([Uint8Array.of(10), varint(nb.length), nb]);
          return cat([Uint8Array.of(98), varint(vi.length), vi]); // GraphProto.output = 12
        });
        const graph = cat([model.subarray(pos, pos + len), ...extra]);
        return cat([model.subarray(0, start), Uint8Array.of(58), varint(graph.length), graph, model.subarray(pos + len)]); // ModelProto.graph = 7
      }
      pos += len;
    } else throw new Error(`unexpected wire type ${wt} at offset ${start}`);
  }
  throw new Error('no graph in the ONNX file');
}
