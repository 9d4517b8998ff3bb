// The float reference of a device run: the first frame's exact device inputs, preprocessed the way
// the chip does it (the script's `normalization`), laid out for the ONNX model (NHWC → NCHW),
// run through the float model (`infer`, injected: onnxruntime-node in its own process), and each
// output compared with what the device returned (dequantised when the run used uint8 I/O).
// Pure apart from `infer`; every way it can go wrong ends as one sentence, not an exception.
import type { Dim } from '../common/modelLayers';
import type { IoFormat, RunTensors, StreamInfo } from '../device/protocol';
import type { Normalization } from '../alls/normalization';
import { compareArrays, type ErrorMetrics } from './metrics';
import { hefToOnnx, onnxToHef, planLayout, type LayoutPlan } from './layout';
import { dequantize, normalize } from './preprocess';

export interface OnnxTensor {
  name: string;
  /** ONNX TensorProto.DataType (1 = float32). */
  elemType: number;
  dims: Dim[];
}

export interface FloatTensor {
  dims: number[];
  data: Float32Array;
}

/** Runs the float model: feeds by ONNX input name → outputs by ONNX output name. */
export type Infer = (feeds: Record<string, FloatTensor>) => Promise<Record<string, FloatTensor>>;

export interface ReferenceRequest {
  /** The configured model's streams, as the device run reported them. */
  inputs: StreamInfo[];
  outputs: StreamInfo[];
  format: IoFormat;
  /** The first frame's bytes (RunReport.tensors). */
  tensors: RunTensors;
  onnx: { inputs: OnnxTensor[]; outputs: OnnxTensor[] };
  /** The script's normalization statements (empty: the ONNX gets the raw input values). */
  normalizations: Normalization[];
  /** HN layer name → ONNX names it came from (a HAR's `original_names`), when known. */
  originalNames?: Record<string, string[]>;
  /** ONNX output tensor → the node that produces it (HN output layers name nodes). */
  producers?: Record<string, string>;
}

export interface ReferenceOutput {
  /** HEF output vstream. */
  name: string;
  /** The ONNX output it was compared with. */
  onnxName: string;
  /** How the two were paired and laid out, in words. */
  pairing: string;
  layout: string;
  /** Device values were dequantised with (q − zp) × scale first. */
  dequantized: boolean;
  metrics: ErrorMetrics;
}

export interface ReferenceComparison {
  outputs: ReferenceOutput[];
  /** Outputs that could not be compared, one sentence each. */
  skipped: { name: string; reason: string }[];
  /** What the ONNX model was fed, per input, in words. */
  preprocessing: string[];
  warnings: string[];
}

export class ReferenceError extends Error {}

const FLOAT = 1;
const layerOf = (vstream: string) => vstream.slice(vstream.lastIndexOf('/') + 1);

function decode(base64: string, type: string, stream: string): Float32Array {
  const bytes = Buffer.from(base64, 'base64');
  const t = type.toUpperCase();
  const width = t === 'UINT8' ? 1 : t === 'UINT16' ? 2 : t === 'FLOAT32' ? 4 : 0;
  if (!width) throw new ReferenceError(`The device returned '${stream}' as ${type}, which the float reference cannot read.`);
  if (bytes.length % width) throw new ReferenceError(`'${stream}' has ${bytes.length} bytes, not a whole number of ${type} values.`);
  const n = bytes.length / width;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = width === 1 ? bytes[i] : width === 2 ? bytes.readUInt16LE(i * 2) : bytes.readFloatLE(i * 4);
  return out;
}

const hefShape = (s: StreamInfo) => ({ height: s.shape[0], width: s.shape[1], features: s.shape[2] });

/**
 * Pairs each HEF stream with an ONNX tensor: the HAR's original names first, then a single pair,
 * then the only ONNX tensor whose shape lines up; never by position alone when that is ambiguous.
 */
function pair(
  streams: StreamInfo[],
  tensors: OnnxTensor[],
  req: ReferenceRequest,
): { stream: StreamInfo; tensor?: OnnxTensor; how: string; reason?: string }[] {
  const taken = new Set<string>();
  const out: { stream: StreamInfo; tensor?: OnnxTensor; how: string; reason?: string }[] = [];
  for (const s of streams) {
    const originals = req.originalNames?.[layerOf(s.name)] ?? [];
    let t = tensors.find(
      (x) => !taken.has(x.name) && (originals.includes(x.name) || (req.producers?.[x.name] !== undefined && originals.includes(req.producers[x.name]))),
    );
    let how = t ? `by the HAR's original names (${layerOf(s.name)} ← ${t.name})` : '';
    if (!t && streams.length === 1 && tensors.length === 1) {
      t = tensors[0];
      how = 'the only one on each side';
    }
    if (!t) {
      const fits = tensors.filter((x) => !taken.has(x.name) && planLayout(hefShape(s), x.dims, x.name).kind !== 'error');
      if (fits.length === 1) {
        t = fits[0];
        how = 'the only ONNX tensor of that shape';
      } else {
        out.push({
          stream: s,
          how: '',
          reason: fits.length
            ? `${fits.length} ONNX tensors (${fits.map((f) => f.name).join(', ')}) fit '${s.name}' and no HAR says which: put the .har beside the HEF.`
            : `No ONNX ${s.direction} has the shape of '${s.name}' (${s.shape.join('x')}).`,
        });
        continue;
      }
    }
    taken.add(t.name);
    out.push({ stream: s, tensor: t, how });
  }
  return out;
}

function normalizationFor(stream: StreamInfo, all: Normalization[], inputCount: number): Normalization | undefined {
  const layer = layerOf(stream.name);
  return all.find((n) => n.inputLayer === layer) ?? (inputCount === 1 || all.length === 1 ? all.find((n) => n.inputLayer === undefined) : undefined);
}

export async function compareWithReference(req: ReferenceRequest, infer: Infer): Promise<ReferenceComparison> {
  const warnings: string[] = [];
  const preprocessing: string[] = [];
  const feeds: Record<string, FloatTensor> = {};
  for (const p of pair(req.inputs, req.onnx.inputs, req)) {
    if (!p.tensor) throw new ReferenceError(`The float model's input cannot be matched: ${p.reason}`);
    const t = p.tensor;
    if (t.elemType !== FLOAT) throw new ReferenceError(`ONNX input '${t.name}' is not float32 (type ${t.elemType}): the float reference feeds float32.`);
    const bytes = req.tensors.inputs[p.stream.name];
    if (bytes === undefined) throw new ReferenceError(`The run did not keep the bytes of input '${p.stream.name}'.`);
    const raw = decode(bytes, p.stream.type, p.stream.name);
    const plan = planLayout(hefShape(p.stream), t.dims, t.name);
    if (plan.kind === 'error') throw new ReferenceError(plan.message);
    if (raw.length !== p.stream.shape[0] * p.stream.shape[1] * p.stream.shape[2]) {
      throw new ReferenceError(`Input '${p.stream.name}' holds ${raw.length} values, not one ${p.stream.shape.join('x')} frame.`);
    }
    const n = normalizationFor(p.stream, req.normalizations, req.inputs.length);
    let values = raw;
    if (n) {
      if (n.mean.length !== 1 && n.mean.length !== p.stream.shape[2]) {
        throw new ReferenceError(`normalization (line ${n.line}) has ${n.mean.length} channels but input '${p.stream.name}' has ${p.stream.shape[2]}.`);
      }
      // one mean and std for every channel: applied as they are (an array as long as the HEF's channel
      // count would be sized by the file: 2³¹ features made it allocate before anything was checked)
      values = normalize(raw, n.mean, n.std);
      preprocessing.push(
        `${t.name} ← ${p.stream.name}: (x − [${n.mean.join(', ')}]) / [${n.std.join(', ')}] (${n.name ?? 'normalization'}, line ${n.line}), ${plan.description}`,
      );
    } else {
      preprocessing.push(`${t.name} ← ${p.stream.name}: values as sent to the device (no normalization in the script), ${plan.description}`);
      if (req.format === 'uint8')
        warnings.push(
          `No normalization was found for '${p.stream.name}': the float model gets raw 0–255 values; if the model was trained on normalized inputs, its figures compare different things.`,
        );
    }
    feeds[t.name] = { dims: plan.onnxDims, data: hefToOnnx(values, plan) };
    if (p.how !== 'the only one on each side') warnings.push(`Input '${p.stream.name}' was paired with ONNX '${t.name}' ${p.how}.`);
  }

  const results = await infer(feeds);

  const outputs: ReferenceOutput[] = [];
  const skipped: { name: string; reason: string }[] = [];
  for (const p of pair(req.outputs, req.onnx.outputs, req)) {
    if (p.stream.isNms) {
      skipped.push({ name: p.stream.name, reason: 'An NMS output is a list of boxes, not a tensor: compare detections, not values.' });
      continue;
    }
    if (!p.tensor) {
      skipped.push({ name: p.stream.name, reason: p.reason ?? 'not paired' });
      continue;
    }
    const ref = results[p.tensor.name];
    if (!ref) {
      skipped.push({ name: p.stream.name, reason: `onnxruntime returned no '${p.tensor.name}'.` });
      continue;
    }
    const plan: LayoutPlan = planLayout(hefShape(p.stream), ref.dims, p.tensor.name);
    if (plan.kind === 'error') {
      skipped.push({ name: p.stream.name, reason: plan.message });
      continue;
    }
    const bytes = req.tensors.outputs[p.stream.name];
    if (bytes === undefined) {
      skipped.push({ name: p.stream.name, reason: `The run did not keep the bytes of output '${p.stream.name}'.` });
      continue;
    }
    let device = decode(bytes, p.stream.type, p.stream.name);
    const isInt = p.stream.type.toUpperCase() !== 'FLOAT32';
    if (isInt) {
      const q = p.stream.quant;
      if (!q.length || q.every((x) => x.scale === 0)) {
        skipped.push({
          name: p.stream.name,
          reason: `'${p.stream.name}' came back as ${p.stream.type} without a quantisation scale to dequantise it: run with float32 output.`,
        });
        continue;
      }
      device =
        q.length === 1
          ? dequantize(device, q[0].zp, q[0].scale)
          : dequantize(
              device,
              q.map((x) => x.zp),
              q.map((x) => x.scale),
            );
    }
    const reference = onnxToHef(ref.data, plan);
    if (reference.length !== device.length) {
      skipped.push({
        name: p.stream.name,
        reason: `The device returned ${device.length} values for '${p.stream.name}' and the float model ${reference.length}.`,
      });
      continue;
    }
    outputs.push({
      name: p.stream.name,
      onnxName: p.tensor.name,
      pairing: p.how,
      layout: plan.description,
      dequantized: isInt,
      metrics: compareArrays(device, reference),
    });
  }
  return { outputs, skipped, preprocessing, warnings };
}
