// First divergent layer, run for the user (`hailo-tools diverge`): the same N inputs (NHWC, in the
// scale the device gets) go (1) through the script's `normalization` and NHWC→NCHW into the float
// ONNX with every layer's tensor added as a graph output (onnxruntime-node in its own process) and
// (2) through one DFC emulator context with every layer's output kept (driver/hailo_interlayer.py
// in the container); divergence.ts compares them layer by layer. The ONNX copy with extra outputs is
// a temp file; a model with external data keeps it where it is: the worker loads the copy from
// memory with the data files' bytes (onnxruntime will not follow a copy's locations out of its folder).
import { FileRoots } from '../../core/common/confined';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { readHar } from '../../core/har/harReader';
import { dataflowOrder } from '../../core/har/harView';
import { analyzeOnnx } from '../../core/onnx/analysis';
import { readOnnxFile } from '../../core/onnx/reader';
import { readNormalizations } from '../../core/alls/normalization';
import { normalize } from '../../core/accuracy/preprocess';
import { readNpyFile, writeNpyFloat32 } from '../../core/calib/npyRead';
import type { DockerSettings } from '../compile/runner';
import type { OrtRequest, OrtResponse } from '../accuracy/ortProcess';
import { divergence, JUMP, layerTensors, withExtraOutputs, type DivergenceReport, type Tensor } from '../../core/noise/divergence';
import { DIVERGENCE_FORMAT, type DivergenceResults } from '../../core/har/divergenceResults';
import { inspectCalibrationSet } from '../../core/calib/inspect';
import { runDriverJob, type DriverJobEnv } from './driverJob';
import { parseFileJson } from '../../core/common/json';

/** A protobuf message (an ONNX model without external data) is at most 2 GiB; a script and our manifest are small. */
const ONNX_MAX_BYTES = 2 ** 31 - 1;
const SCRIPT_MAX_BYTES = 64 << 20;
const MANIFEST_MAX_BYTES = 64 << 20;

export const INTERLAYER_DRIVER = 'hailo_interlayer.py';
const MANIFEST = 'hailo-tools-interlayer.json';

export interface DivergenceRequest {
  onnx: string;
  har: string;
  /** (N, H, W, C) inputs; the first `count` entries are used. */
  inputs: string;
  count?: number;
  alls?: string;
  context?: 'quantized' | 'fp_optimized' | 'native';
  threshold?: number;
}

export interface DivergenceOutcome {
  status: 'ok' | 'refused' | 'docker-failed' | 'cancelled' | 'failed';
  message?: string;
  report?: DivergenceReport;
  inputs?: { file: string; count: number };
  /** What `<net>.diverge.json` holds (saveDivergenceResults writes it). */
  results?: DivergenceResults;
}

type Infer = (
  onnx: string,
  feeds: Record<string, { dims: number[]; data: Float32Array }>,
  externalData?: OrtRequest['externalData'],
) => Promise<(OrtResponse & { ok: true })['outputs']>;

export async function findDivergence(req: DivergenceRequest, settings: DockerSettings, env: DriverJobEnv & { infer: Infer }): Promise<DivergenceOutcome> {
  const refused = (message: string): DivergenceOutcome => ({ status: 'refused', message });
  let har, analysis;
  try {
    har = await readHar(req.har);
    analysis = analyzeOnnx(readOnnxFile(req.onnx));
  } catch (err) {
    return refused((err as Error).message);
  }
  // External data: every reference must resolve (the reader checked each: present, inside the
  // model's folder, long enough); the copy with extra outputs names the same locations.
  const externals = analysis.model.graph.initializers.map((t) => t.external).filter((e): e is NonNullable<typeof e> => !!e);
  const broken = externals.find((e) => e.problem || !e.path);
  if (broken)
    return refused(`${basename(req.onnx)}: ${broken.problem ?? `external data '${broken.location}' cannot be resolved`}, so the float model cannot run.`);
  const externalData = [...new Map(externals.map((e) => [e.location, e.path!])).entries()].map(([location, path]) => ({ location, path }));
  const inits = new Set(analysis.model.graph.initializers.map((i) => i.name));
  const ins = analysis.model.graph.inputs.filter((v) => !inits.has(v.name));
  if (ins.length !== 1) return refused(`The ONNX model has ${ins.length} inputs; this comparison handles single-input models.`);
  const input = ins[0];
  let x;
  try {
    x = readNpyFile(req.inputs);
  } catch (err) {
    return refused(`The inputs ${req.inputs} cannot be read: ${(err as Error).message}.`);
  }
  if (x.shape.length !== 4) return refused(`The inputs are (${x.shape.join(', ')}); give (N, H, W, C) as the device gets them.`);
  const n = Math.min(req.count ?? 1, x.shape[0]);
  const [, h, w, c] = x.shape;
  const per = h * w * c;
  const onnxDims = (analysis.shapes.facts.get(input.name)?.shape ?? []).map((d) => (typeof d === 'number' ? d : 1));
  if (onnxDims.length !== 4 || onnxDims[1] !== c || onnxDims[2] !== h || onnxDims[3] !== w) {
    return refused(
      `The ONNX input ${input.name} is [${onnxDims.join(', ')}]; the inputs' frames are (${h}, ${w}, ${c}) NHWC, which does not match its NCHW shape.`,
    );
  }
  const norms = req.alls ? readNormalizations(FileRoots.named(req.alls).readText(req.alls, SCRIPT_MAX_BYTES)).normalizations : [];
  const layers = dataflowOrder(har.hn.layers);
  const mapping = layerTensors(layers, analysis);
  const tensors = mapping.filter((m) => m.tensor).map((m) => m.tensor!);
  const temp = FileRoots.makeTemp('hailo-diverge-');
  const work = temp.folders[0];
  try {
    // (1) float: one frame at a time (the model's batch is 1), outputs concatenated along N
    const extended = join(work, 'extended.onnx');
    temp.writeSync(extended, withExtraOutputs(FileRoots.named(req.onnx).readSync(req.onnx, ONNX_MAX_BYTES), tensors));
    const float = new Map<string, { dims: number[]; parts: Float32Array[] }>();
    for (let k = 0; k < n; k++) {
      if (env.signal?.aborted) return { status: 'cancelled' };
      let frame: Float32Array = x.data.subarray(k * per, (k + 1) * per);
      if (norms.length) frame = normalize(frame, norms[0].mean, norms[0].std);
      const nchw = new Float32Array(per);
      for (let y = 0; y < h; y++) for (let xx = 0; xx < w; xx++) for (let q = 0; q < c; q++) nchw[(q * h + y) * w + xx] = frame[(y * w + xx) * c + q];
      let out;
      try {
        out = await env.infer(extended, { [input.name]: { dims: [1, c, h, w], data: nchw } }, externalData.length ? externalData : undefined);
      } catch (err) {
        if (env.signal?.aborted) return { status: 'cancelled' };
        return { status: 'failed', message: `The float model did not run: ${(err as Error).message}` };
      }
      for (const t of tensors) {
        const o = out[t];
        if (!o) continue;
        const e = float.get(t) ?? float.set(t, { dims: [...o.dims], parts: [] }).get(t)!;
        e.parts.push(Float32Array.from(o.data as ArrayLike<number>));
      }
    }
    const floatOf = (t: string): Tensor | undefined => {
      const e = float.get(t);
      if (!e || e.parts.length !== n) return undefined;
      const data = new Float32Array(e.parts.reduce((a, p) => a + p.length, 0));
      e.parts.reduce((at, p) => (data.set(p, at), at + p.length), 0);
      return { dims: [n, ...e.dims.slice(1)], data };
    };
    // (2) the emulator: the same raw frames
    const framesFile = join(work, 'frames.npy');
    writeNpyFloat32(framesFile, [n, h, w, c], x.data.subarray(0, n * per));
    const context = req.context ?? 'quantized';
    const run = await runDriverJob(
      {
        driverFile: INTERLAYER_DRIVER,
        label: `diverge-${basename(req.har).replace(/\.har$/i, '')}`,
        model: req.har,
        folders: [dirname(req.har), work],
        workDir: work,
        args: (at, out) => [
          '--har',
          at(0, basename(req.har)),
          '--inputs',
          at(1, 'frames.npy'),
          '--out',
          out,
          '--context',
          context,
          ...mapping.filter((m) => m.tensor).flatMap((m) => ['--layer', `${har.hn.name}/${m.layer}`]),
        ],
      },
      settings,
      env,
    );
    if (run.status !== 'finished') return { status: run.status, message: run.message };
    try {
      const mp = join(run.staging!, MANIFEST);
      const staging = FileRoots.of([run.staging!]);
      if (!staging.exists(mp)) {
        const code = run.exit?.code;
        return {
          status: 'failed',
          message: `The emulator run did not start: ${code === 3 ? 'the image has no Dataflow Compiler (hailo.dfc.image / --image)' : code === 2 ? 'the driver could not read the inputs' : `the container exited with ${code ?? run.exit?.signal}`}.`,
        };
      }
      const m = parseFileJson(staging.readText(mp, MANIFEST_MAX_BYTES), mp) as {
        status?: string;
        error?: string;
        message?: string;
        layers?: Record<string, { file: string }>;
      };
      if (m.status !== 'ok') {
        return {
          status: 'failed',
          message: `The emulator gave no per-layer outputs: ${m.error ?? 'stopped'}: ${(m.message ?? '').split('\n')[0]} (the driver uses the private get_keras_model(ctx)._model path Hailo's diagnostic tool uses; this DFC may not have it).`,
        };
      }
      const emu = new Map<string, Tensor>();
      for (const [name, v] of Object.entries(m.layers ?? {})) {
        const a = readNpyFile(join(run.staging!, basename(v.file)));
        emu.set(name.slice(name.lastIndexOf('/') + 1), { dims: a.shape, data: a.data });
      }
      const report = divergence(layers, mapping, floatOf, (l) => emu.get(l), req.threshold);
      const results: DivergenceResults = {
        format: DIVERGENCE_FORMAT,
        har: basename(req.har),
        onnx: basename(req.onnx),
        context,
        inputs: { file: basename(req.inputs), count: n, of: x.shape[0], distribution: await distributionOf(req.inputs) },
        threshold: report.threshold,
        jump: JUMP,
        layers: report.layers.map((l) => ({ ...l })),
        ...(report.first ? { first: report.first } : {}),
        verdict: report.verdict,
        finishedAt: new Date().toISOString(),
      };
      return { status: 'ok', report, inputs: { file: basename(req.inputs), count: n }, results };
    } finally {
      run.cleanup();
    }
  } finally {
    temp.removeRoot();
  }
}

/** The calibration set's distribution in the calibration core's words (stated beside every figure). */
async function distributionOf(path: string): Promise<string> {
  try {
    const c = await inspectCalibrationSet(path);
    return `${c.distribution.text}${c.sampled ? ' (sampled)' : ''}`;
  } catch (err) {
    return `not measured: ${(err as Error).message}`;
  }
}
