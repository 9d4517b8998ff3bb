// What one calibration entry must look like for the model: the DFC's optimize takes NHWC arrays
// shaped like the HN input layer with the batch replaced (docs/research/dfc-flow.md#calibration: `rung_batch.py` builds
// `[N] + output_shapes[0][1:]`; ONNX [1,C,H,W] → (N,H,W,C), [1,S,C] → (N,1,S,C), [1,C,1,1] →
// (N,1,1,C)). From a HAR (the HN input layer) or, without one, from the ONNX graph input. Pure.
import type { Dim } from '../common/modelLayers';

export interface ModelInput {
  /** HN input layer or ONNX input name. */
  name: string;
  /** One entry as the DFC wants it (NHWC without the batch), e.g. [224, 224, 3]. */
  nhwc: number[];
  /** The same tensor in the ONNX's NCHW order, when that differs (rank-4 inputs). */
  nchw?: number[];
  /** In words, for messages: "HN input layer tinycnn/input_layer1 [-1,8,8,3]". */
  source: string;
}

const known = (dims: readonly Dim[]): dims is number[] => dims.every((d) => typeof d === 'number' && d >= 0);
const text = (dims: readonly Dim[]) => `[${dims.map((d) => d ?? '?').join(',')}]`;

/** From the HN: `input_layer` layers, `output_shapes[0]` = [-1, H, W, C]. */
export function inputsFromHn(layers: readonly { name: string; fullName: string; type: string; outputShapes: Dim[][] }[]): ModelInput[] {
  const out: ModelInput[] = [];
  for (const l of layers) {
    if (l.type !== 'input_layer') continue;
    const shape = l.outputShapes[0];
    if (!shape || shape.length < 2) continue;
    const entry = shape.slice(1);
    if (!known(entry)) continue;
    out.push({
      name: l.name,
      nhwc: entry,
      nchw: entry.length === 3 ? [entry[2], entry[0], entry[1]] : undefined,
      source: `HN input layer ${l.fullName} ${text(shape)}`,
    });
  }
  return out;
}

/** From ONNX graph inputs (initializers excluded by the caller), following the DFC's mapping. */
export function inputsFromOnnx(inputs: readonly { name: string; dims: readonly Dim[] }[]): ModelInput[] {
  const out: ModelInput[] = [];
  for (const t of inputs) {
    const entry = t.dims.slice(1);
    if (!known(entry)) continue;
    const src = `ONNX input '${t.name}' ${text(t.dims)}`;
    if (entry.length === 3) out.push({ name: t.name, nhwc: [entry[1], entry[2], entry[0]], nchw: entry, source: src });
    else if (entry.length === 2) out.push({ name: t.name, nhwc: [1, entry[0], entry[1]], source: src });
  }
  return out;
}

export type Layout = 'NHWC' | 'NCHW' | 'unknown';

export interface LayoutDecision {
  layout: Layout;
  /** Axis of the channels in the file (-1: none). */
  channelAxis: number;
  /** The model input it was matched to. */
  input?: ModelInput;
  /** How it was decided, in words. */
  how: string;
  /** Shape problem against the model, in words. */
  mismatch?: string;
}

const eq = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const tuple = (d: readonly number[]) => `(${d.join(', ')}${d.length === 1 ? ',' : ''})`;
const looksLikeChannels = (d: number) => d >= 1 && d <= 4;

export function decideLayout(shape: readonly number[], inputs: readonly ModelInput[]): LayoutDecision {
  const rank = shape.length;
  const entry = shape.slice(1);
  const lastAxis = rank >= 2 ? rank - 1 : -1;
  if (inputs.length) {
    for (const inp of inputs) {
      if (eq(entry, inp.nhwc)) return { layout: 'NHWC', channelAxis: lastAxis, input: inp, how: `entries ${tuple(entry)} match ${inp.source} as NHWC` };
    }
    for (const inp of inputs) {
      if (inp.nchw && eq(entry, inp.nchw))
        return { layout: 'NCHW', channelAxis: 1, input: inp, how: `entries ${tuple(entry)} are ${inp.source} in NCHW order` };
    }
    const inp = inputs[0];
    const hint = eq(shape, inp.nhwc) ? ' (one entry without the batch axis?)' : '';
    return {
      layout: 'unknown',
      channelAxis: lastAxis,
      input: inp,
      how: 'the shape matches no model input',
      mismatch: `shape ${tuple(shape)} is not (N, ${inp.nhwc.join(', ')}), which ${inp.source} needs${hint}${inputs.length > 1 ? ` (nor any of the other ${inputs.length - 1} inputs)` : ''}`,
    };
  }
  // No model: the usual image layouts, by where a 1–4 sized axis sits.
  if (rank === 4) {
    const lastC = looksLikeChannels(shape[3]);
    const firstC = looksLikeChannels(shape[1]);
    if (lastC && !firstC) return { layout: 'NHWC', channelAxis: 3, how: `guessed without a model: ${shape[3]} channels last` };
    if (firstC && !lastC) return { layout: 'NCHW', channelAxis: 1, how: `guessed without a model: ${shape[1]} channels at axis 1, ${shape[3]} last` };
  }
  return { layout: 'unknown', channelAxis: lastAxis, how: rank >= 2 ? 'no model to compare with; statistics along the last axis' : 'no channel axis' };
}
