// Puts every oracle on the same N inputs: builds the inputs (a .npy, or seeded draws shaped like the
// model input and distributed like the calibration set), feeds the float ONNX the normalized NCHW
// version of each (as the chip's `normalization` would), runs the emulator contexts on the raw NHWC
// batch in the DFC container and the device when one is given, lines every output up in the same
// element order (NHWC, as the HN and the device return them) and builds the table (oracles.ts).
// Float, emulator and device come in as functions, so tests inject the fakes and the CLI/extension
// the real ones (onnxruntime-node in its own process, docker, DeviceClient).
import { FileRoots } from '../../core/common/confined';
import { limit } from '../../core/common/limits';
import { join } from 'node:path';
import { readNormalizations, type Normalization } from '../../core/alls/normalization';
import { readHar, type HarArchive } from '../../core/har/harReader';
import { readOnnxFile } from '../../core/onnx/reader';
import { inputsFromHn } from '../../core/calib/modelInput';
import { readCalibrationSet, reportOf } from '../../core/calib/inspect';
import { readNpyFile, writeNpyFloat32 } from '../../core/calib/npyRead';
import { onnxToHef, planLayout, transpose, NHWC_TO_NCHW } from '../../core/accuracy/layout';
import { normalize } from '../../core/accuracy/preprocess';
import { buildAccuracyDocument, type AccuracyDocument, type OracleRun } from '../../core/accuracy/oracles';
import type { FloatTensor, Infer } from '../../core/accuracy/reference';
import type { EmulatorContext, EmulatorRequest, EmulatorRun } from './emulator';
import { prng } from '../../core/common/prng';

export interface CompareInputs {
  onnx: string;
  /** The optimized HAR (for the emulator and the input/output layers). */
  har: string;
  alls?: string;
  calib?: string;
  /** Inputs from a .npy (N, H, W, C) in the scale the device gets (before normalization). */
  inputsNpy?: string;
  /** Else N seeded draws (default 8, seed 1171). */
  count?: number;
  seed?: number;
  contexts: readonly EmulatorContext[];
  /** Folder for the inputs file and the emulator's staging folder. */
  workDir: string;
  threshold?: number;
}

export interface CompareDeps {
  infer?: Infer;
  emulate?: (req: EmulatorRequest) => Promise<EmulatorRun>;
  /** Device outputs per input, by HN output layer name (NHWC), or why there are none. */
  device?: (inputs: { shape: number[]; data: Float32Array }) => Promise<{ outputs: Record<string, Float32Array[]> } | { unavailable: string }>;
  log?(text: string): void;
  /** The sweep's ONNX reader (one parse per model); default: a fresh parse. */
  readOnnx?: (path: string) => ReturnType<typeof readOnnxFile>;
}

export class CompareError extends Error {}

function gaussian(rand: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
}

export async function compareOracles(req: CompareInputs, deps: CompareDeps): Promise<AccuracyDocument> {
  let har: HarArchive;
  try {
    har = await readHar(req.har);
  } catch (err) {
    throw new CompareError(`The HAR ${req.har} cannot be read: ${(err as Error).message}`);
  }
  const hnInputs = inputsFromHn(har.hn.layers);
  if (hnInputs.length !== 1) throw new CompareError(`The HAR has ${hnInputs.length} input layers; the accuracy table handles single-input models.`);
  const entry = hnInputs[0].nhwc;
  const model = (deps.readOnnx ?? readOnnxFile)(req.onnx);
  const inits = new Set(model.graph.initializers.map((t) => t.name));
  const onnxInputs = model.graph.inputs.filter((v) => !inits.has(v.name));
  if (onnxInputs.length !== 1) throw new CompareError(`The ONNX model has ${onnxInputs.length} inputs; the accuracy table handles single-input models.`);
  const onnxIn = onnxInputs[0];
  const onnxInDims = onnxIn.type.kind === 'tensor' && onnxIn.type.shape ? onnxIn.type.shape : [];

  // Calibration: its distribution is stated beside every quantised figure; draws follow it.
  let calibration = 'unknown: no calibration set given';
  let calibChannels: { mean: number; std: number; min: number; max: number }[] | undefined;
  let calibIntegers = false;
  if (req.calib) {
    try {
      const a = await readCalibrationSet(req.calib, { inputs: hnInputs });
      const r = reportOf(a);
      calibration = `${r.distribution.text} (${r.label}, ${r.count} entries${r.sampled ? ', sampled' : ''})`;
      if (r.layout === 'NHWC') {
        calibChannels = r.channels.map((c) => ({ mean: c.mean, std: c.std, min: c.min, max: c.max }));
        calibIntegers = a.stats.allIntegers;
      }
    } catch (err) {
      calibration = `unknown: ${req.calib} cannot be read (${(err as Error).message})`;
    }
  }

  // The N inputs, NHWC, in the scale the device and the emulator get.
  const per = entry.reduce((a, b) => a * b, 1);
  let n: number;
  let data: Float32Array;
  let inputsText: string;
  if (req.inputsNpy) {
    // The shape is checked from the header, before a byte of data is read, and only the N entries used are read.
    const v = readNpyFile(req.inputsNpy, {
      check: (h) => {
        if (h.shape.length !== entry.length + 1 || h.shape.slice(1).some((d, i) => d !== entry[i])) {
          throw new CompareError(`The inputs ${req.inputsNpy} have shape (${h.shape.join(', ')}); the model wants (N, ${entry.join(', ')}).`);
        }
      },
      firstItems: req.count,
    });
    n = Math.min(v.shape[0], req.count ?? v.shape[0]);
    data = v.data.subarray(0, n * per);
    inputsText = `${n} entries of ${req.inputsNpy}`;
  } else {
    n = req.count ?? 8;
    const seed = req.seed ?? 1171;
    const rand = prng(seed);
    const g = gaussian(rand);
    data = new Float32Array(n * per);
    const c = entry[entry.length - 1];
    for (let i = 0; i < data.length; i++) {
      const ch = calibChannels?.[i % c];
      if (ch) {
        let x = ch.mean + ch.std * g();
        x = Math.min(ch.max, Math.max(ch.min, x));
        data[i] = calibIntegers ? Math.round(x) : x;
      } else data[i] = g();
    }
    inputsText = calibChannels
      ? `${n} seeded draws (seed ${seed}) per channel normal with the calibration set's mean/std, clipped to its range${calibIntegers ? ', rounded' : ''}`
      : `${n} seeded standard-normal draws (seed ${seed})`;
  }
  const inputsPath = join(req.workDir, 'accuracy-inputs.npy');
  writeNpyFloat32(inputsPath, [n, ...entry], data);

  // Float: normalization as the script says, then the ONNX's layout.
  let norms: Normalization[] = [];
  if (req.alls) norms = readNormalizations(FileRoots.named(req.alls).readSync(req.alls, limit('documentChars')).toString('utf8')).normalizations;
  const norm =
    norms.find((x) => x.inputLayer === hnInputs[0].name) ?? norms.find((x) => x.inputLayer === undefined) ?? (norms.length === 1 ? norms[0] : undefined);
  const hefIn = { height: entry.length === 3 ? entry[0] : 1, width: entry.length === 3 ? entry[1] : entry[0], features: entry[entry.length - 1] };
  const inPlan = planLayout(hefIn, onnxInDims, onnxIn.name);
  if (inPlan.kind === 'error') throw new CompareError(inPlan.message);

  const outputLayers = har.hn.outputLayersOrder.length
    ? har.hn.outputLayersOrder
    : har.hn.layers.filter((l) => l.type === 'output_layer').map((l) => l.fullName);
  const onnxOutputs = model.graph.outputs.map((o) => ({ name: o.name, dims: o.type.kind === 'tensor' && o.type.shape ? o.type.shape : [] }));
  const runs: OracleRun[] = [];
  const names = outputLayers.map((l) => l.slice(l.lastIndexOf('/') + 1));

  // Emulator first: its output shapes say how the float outputs line up.
  let emu: EmulatorRun | undefined;
  if (req.contexts.length) {
    if (!deps.emulate) for (const c of req.contexts) runs.push({ id: c, status: 'unavailable', message: 'no docker runner' });
    else emu = await deps.emulate({ har: req.har, inputs: inputsPath, contexts: req.contexts, workDir: req.workDir });
  }
  const shapes: Record<string, number[]> = {};
  for (const c of req.contexts) {
    if (!emu) break;
    const r = emu.contexts[c];
    if (emu.status !== 'finished' || !r) {
      runs.push({ id: c, status: 'unavailable', message: emu.message ?? 'the emulator did not run' });
      continue;
    }
    if (r.status !== 'ok') {
      runs.push({ id: c, status: r.status, message: r.message });
      continue;
    }
    const outputs: Record<string, Float32Array[]> = {};
    for (const o of r.outputs) {
      const name = o.name.slice(o.name.lastIndexOf('/') + 1);
      const each = o.values.data.length / n;
      shapes[name] ??= o.shape.slice(1);
      outputs[name] = Array.from({ length: n }, (_, k) => o.values.data.slice(k * each, (k + 1) * each));
    }
    runs.push({ id: c, status: 'ok', outputs });
  }

  if (deps.infer) {
    try {
      const outputs: Record<string, Float32Array[]> = {};
      for (let k = 0; k < n; k++) {
        let x: Float32Array = data.slice(k * per, (k + 1) * per);
        if (norm) {
          // one mean/std pair applies to every channel as it is: no array sized by the HEF's feature count
          x = normalize(x, norm.mean, norm.std);
        }
        const feed: FloatTensor = {
          dims: inPlan.onnxDims,
          data: inPlan.kind === 'nhwc-nchw' ? transpose(x, [1, hefIn.height, hefIn.width, hefIn.features], NHWC_TO_NCHW) : x,
        };
        const res = await deps.infer({ [onnxIn.name]: feed });
        for (let i = 0; i < names.length; i++) {
          const layer = har.hn.layers.find((l) => l.fullName === outputLayers[i]);
          const onnxName =
            onnxOutputs.length === 1 && names.length === 1
              ? onnxOutputs[0].name
              : (onnxOutputs.find((o) => layer?.originalNames.includes(o.name))?.name ?? onnxOutputs[i]?.name);
          const y = onnxName ? res[onnxName] : undefined;
          if (!y) throw new CompareError(`onnxruntime returned no output for ${names[i]}`);
          const s = shapes[names[i]] ?? (layer?.outputShapes[0]?.slice(1) as number[] | undefined) ?? [];
          const hefOut = {
            height: s.length === 3 ? s[0] : 1,
            width: s.length === 3 ? s[1] : s.length === 2 ? s[0] : 1,
            features: s[s.length - 1] ?? y.data.length,
          };
          const plan = planLayout(hefOut, y.dims, onnxName!);
          (outputs[names[i]] ??= []).push(plan.kind === 'error' ? y.data : onnxToHef(y.data, plan));
        }
      }
      runs.push({ id: 'float', status: 'ok', outputs });
    } catch (err) {
      runs.push({ id: 'float', status: 'crashed', message: (err as Error).message });
    }
  } else runs.push({ id: 'float', status: 'unavailable', message: 'onnxruntime-node was not found' });

  if (deps.device) {
    try {
      const d = await deps.device({ shape: [n, ...entry], data });
      runs.push('unavailable' in d ? { id: 'device', status: 'unavailable', message: d.unavailable } : { id: 'device', status: 'ok', outputs: d.outputs });
    } catch (err) {
      runs.push({ id: 'device', status: 'crashed', message: (err as Error).message });
    }
  } else runs.push({ id: 'device', status: 'unavailable', message: 'not run: no compiled HEF given (a .hef beside the model, or --hef)' });

  return buildAccuracyDocument({ outputs: names, runs, inputs: { count: n, text: inputsText }, calibration, threshold: req.threshold });
}
