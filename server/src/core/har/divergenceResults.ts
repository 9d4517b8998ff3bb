// The first-divergent-layer results beside a HAR (`<net>.diverge.json`), written by the VS Code
// command and `hailo-tools diverge --save` in one rename, read back by the HAR view and `hailo-tools
// har`: per layer in dataflow order its relative error against the float ONNX and its inputs', the
// layers that could not be compared and why, the first layer whose error jumps (ambiguity said),
// and the inputs the figures were measured on with the calibration set's distribution.
import { basename, dirname, join, resolve } from 'node:path';
import { FileRoots } from '../common/confined';
import { limit } from '../common/limits';
import { parseFileJson } from '../common/json';

export const DIVERGENCE_FORMAT = 'hailo-tools-diverge/1';

/** One HN layer's row (noise/divergence.ts LayerDivergence, as stored). */
export interface DivergenceRow {
  layer: string;
  type: string;
  /** The ONNX tensor compared with it. */
  tensor?: string;
  /** Why it was not compared. */
  why?: string;
  /** ‖emu − float‖₂ / ‖float‖₂; Infinity when the float tensor is all zeros and the emulator's is not. */
  relativeError?: number;
  /** The largest error among its nearest compared producers. */
  inputError?: number;
}

export interface DivergenceResults {
  format: typeof DIVERGENCE_FORMAT;
  /** File names (the results sit beside the HAR). */
  har: string;
  onnx: string;
  /** The emulator context compared (quantized, fp_optimized, native). */
  context: string;
  /** The frames used and the calibration set they came from, its distribution in the calibration core's words. */
  inputs: { file: string; count: number; of?: number; distribution?: string };
  threshold: number;
  /** JUMP: the factor over its inputs' error that makes a jump. */
  jump: number;
  layers: DivergenceRow[];
  first?: { layer: string; relativeError: number; inputError: number; ambiguous?: string };
  verdict: string;
  finishedAt: string;
}

export class DivergenceFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DivergenceFormatError';
  }
}

/** `dir/x.har` → `dir/x.diverge.json`. */
export function divergenceSidecarPath(harPath: string): string {
  return join(dirname(harPath), `${basename(harPath).replace(/\.har$/i, '')}.diverge.json`);
}

// JSON has no Infinity: a float tensor of zeros against a non-zero emulator output is stored as "Infinity".
const encode = (_k: string, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? (Number.isNaN(v) ? null : v > 0 ? 'Infinity' : '-Infinity') : v);
const decode = (k: string, v: unknown) =>
  (k === 'relativeError' || k === 'inputError') && (v === 'Infinity' || v === '-Infinity') ? (v === 'Infinity' ? Infinity : -Infinity) : v;

/** Writes the results beside the HAR in one rename (never half a file); returns the path. */
export function saveDivergenceResults(harPath: string, results: DivergenceResults): string {
  const path = divergenceSidecarPath(harPath);
  // In the HAR's folder, in one rename; a `<net>.diverge.json` link is replaced, never written through.
  FileRoots.of([dirname(resolve(harPath))]).writeSync(path, JSON.stringify(results, encode, 1) + '\n');
  return path;
}

/** Reads `<net>.diverge.json`; undefined when there is none, a DivergenceFormatError when it is not ours. */
export function readDivergenceResults(path: string, roots: FileRoots = FileRoots.near(path)): DivergenceResults | undefined {
  let text: string;
  try {
    text = roots.readText(path, limit('noiseJsonBytes'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || /ENOENT|no such file/i.test((err as Error).message)) return undefined;
    throw new DivergenceFormatError((err as Error).message);
  }
  let v: unknown;
  try {
    v = parseFileJson(text, path, decode);
  } catch (err) {
    throw new DivergenceFormatError((err as Error).message);
  }
  const o = v as Partial<DivergenceResults> | null;
  if (!o || typeof o !== 'object' || o.format !== DIVERGENCE_FORMAT || !Array.isArray(o.layers) || typeof o.verdict !== 'string') {
    throw new DivergenceFormatError(`${path} is not a hailo-tools first-divergent-layer result (format ${DIVERGENCE_FORMAT})`);
  }
  const num = (x: unknown) => (typeof x === 'number' ? x : undefined);
  const str = (x: unknown) => (typeof x === 'string' ? x : undefined);
  // Every field is checked for its kind: the file is in the user's folder and could be anything.
  const layers: DivergenceRow[] = (o.layers as unknown[])
    .filter((r): r is Record<string, unknown> => !!r && typeof r === 'object' && typeof (r as { layer?: unknown }).layer === 'string')
    .map((r) => ({
      layer: r.layer as string,
      type: str(r.type) ?? '',
      ...(str(r.tensor) !== undefined ? { tensor: str(r.tensor) } : {}),
      ...(str(r.why) !== undefined ? { why: str(r.why) } : {}),
      ...(num(r.relativeError) !== undefined ? { relativeError: num(r.relativeError) } : {}),
      ...(num(r.inputError) !== undefined ? { inputError: num(r.inputError) } : {}),
    }));
  const f = o.first as Record<string, unknown> | undefined;
  const first =
    f && typeof f === 'object' && typeof f.layer === 'string' && typeof f.relativeError === 'number' && typeof f.inputError === 'number'
      ? { layer: f.layer, relativeError: f.relativeError, inputError: f.inputError, ...(str(f.ambiguous) ? { ambiguous: str(f.ambiguous) } : {}) }
      : undefined;
  const inputs = (o.inputs ?? {}) as Record<string, unknown>;
  return {
    format: DIVERGENCE_FORMAT,
    har: str(o.har) ?? '',
    onnx: str(o.onnx) ?? '',
    context: str(o.context) ?? '',
    inputs: {
      file: str(inputs.file) ?? '',
      count: num(inputs.count) ?? 0,
      ...(num(inputs.of) !== undefined ? { of: num(inputs.of) } : {}),
      ...(str(inputs.distribution) ? { distribution: str(inputs.distribution) } : {}),
    },
    threshold: num(o.threshold) ?? 0.1,
    jump: num(o.jump) ?? 3,
    layers,
    ...(first ? { first } : {}),
    verdict: o.verdict,
    finishedAt: str(o.finishedAt) ?? '',
  };
}

/** "the first 8 entries of tinycnn_calib.npy (64 in the set: integers in 0–255 …); emulator context quantized" */
export function divergenceInputsText(r: Pick<DivergenceResults, 'inputs' | 'context'>): string {
  const i = r.inputs;
  const set = [i.of !== undefined ? `${i.of} in the set` : '', i.distribution ?? ''].filter(Boolean).join(': ');
  return `the first ${i.count === 1 ? 'entry' : `${i.count} entries`} of ${i.file}${set ? ` (${set})` : ''}; emulator context ${r.context}`;
}
