// Per-layer noise of a quantized model, from the DFC's layer noise analysis (`runner.analyze_noise`,
// `hailo analyze-noise`). The analysis returns nothing: its figures land in the runner's parameter
// statistics (`runner.get_params_statistics()`), keyed per layer:
//   <layer>/layer_noise_analysis/noise_results/<output layer>  SNR (dB) at that output — Hailo's
//       Layer Noise Analysis tutorial reads it this way (get_snr_results, seen in user code);
//   <layer>/layer_noise_analysis/snr          the advanced analysis' per-layer SNR, and
//   <layer>/layer_noise_analysis/partial_snr  the simple analysis' — Hailo's optimization
//       diagnostic tool (Hailo-Application-Code-Examples, HighPrecisionInspector, DFC 3.25) reads
//       both, preferring `snr`.
// Values are arrays (one figure per output of the layer; one element in every use seen). Our driver
// (driver/hailo_noise.py) copies those keys verbatim into `<net>.noise.json` beside the HAR; this
// module turns them into one figure per layer, worst first, and picks the layers to give 16 bits
// with the diagnostic tool's own rule: SNR ≤ 10 dB, or a low outlier (≤ Q1 − 1.5·IQR), input/output
// layers and NMS/argmax excluded ("SNR is a bad metric for them").
import { basename, dirname, join } from 'node:path';
import { FileRoots } from '../common/confined';
import { limit } from '../common/limits';
import { minOf } from '../common/arrays';
import { parseFileJson } from '../common/json';

export const NOISE_FORMAT = 'hailo-tools-noise/1';
/** HighPrecisionInspector.SQNR_THRESHOLD (Hailo-Application-Code-Examples, basic_optimization_diagnostic_tool). */
export const SNR_THRESHOLD_DB = 10;
const KEY = '/layer_noise_analysis/';
const UNRANKED_TYPES = new Set(['input_layer', 'output_layer', 'nms', 'argmax']);

export type AnalyzeMode = 'simple' | 'advanced';

/** `<net>.noise.json`: what the driver found, plus what the host knows about the run. */
export interface NoiseResults {
  format: typeof NOISE_FORMAT;
  /** The HAR's file name. */
  har: string;
  mode: AnalyzeMode | 'default';
  dataCount: number;
  batchSize?: number;
  /** The calibration set the analysis ran on and its distribution in words (calib core). */
  calibration: { file: string; shape?: number[]; dtype?: string; distribution: string };
  dfcVersion?: string;
  seconds?: number;
  finishedAt: string;
  /** `get_params_statistics()` keys containing `layer_noise_analysis`, verbatim, values as lists. */
  statistics: Record<string, number[]>;
}

export interface LayerNoise {
  /** Scoped name as in the statistics. */
  layer: string;
  /** As written in scripts. */
  name: string;
  type?: string;
  /** The layer's figure: its lowest SNR over what the analysis measured. */
  snrDb: number;
  basis: 'noise_results' | 'snr' | 'partial_snr';
  /** `noise_results`: the SNR at each model output. */
  perOutput: { output: string; snrDb: number }[];
  /** Why it needs more bits (empty: it does not). */
  reasons: string[];
  /** Why it is not ranked (I/O, NMS, argmax). */
  unranked?: string;
}

export interface NoiseReport {
  /** Where the figures came from (a file path, or a HAR member). */
  source: string;
  mode: string;
  dataCount?: number;
  calibration?: string;
  /** Ranked layers, worst first, then the unranked ones. */
  layers: LayerNoise[];
  thresholdDb: number;
  /** Q1 − 1.5·IQR of the ranked figures (undefined with fewer than 4). */
  outlierBelowDb?: number;
  /** Layers the fix gives 16 bits to (unscoped, worst first). */
  chosen: string[];
  notes: string[];
}

export class NoiseFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'NoiseFormatError';
  }
}

/** `dir/x.har` → `dir/x.noise.json`. */
export function noiseSidecarPath(harPath: string): string {
  return join(dirname(harPath), `${basename(harPath).replace(/\.har$/i, '')}.noise.json`);
}

/** Reads `<net>.noise.json`; undefined when there is none, a NoiseFormatError when it is not ours. */
export function readNoiseResults(path: string, roots: FileRoots = FileRoots.near(path)): NoiseResults | undefined {
  let text: string;
  try {
    text = roots.readText(path, limit('noiseJsonBytes'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || /ENOENT|no such file/i.test((err as Error).message)) return undefined;
    throw new NoiseFormatError((err as Error).message);
  }
  let v: unknown;
  try {
    v = parseFileJson(text, path);
  } catch (err) {
    throw new NoiseFormatError((err as Error).message);
  }
  const o = v as Partial<NoiseResults> | null;
  if (!o || typeof o !== 'object' || o.format !== NOISE_FORMAT || !o.statistics || typeof o.statistics !== 'object') {
    throw new NoiseFormatError(`${path} is not a hailo-tools noise-analysis result (format ${NOISE_FORMAT})`);
  }
  return o as NoiseResults;
}

const finite = (xs: unknown): number[] => (Array.isArray(xs) ? xs.filter((x): x is number => typeof x === 'number' && Number.isFinite(x)) : []);

/** numpy.percentile's default (linear interpolation between closest ranks). */
export function percentile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return NaN;
  const pos = ((sorted.length - 1) * q) / 100;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

/**
 * One figure per layer from the statistics keys. `types` (scoped name → HN type) excludes I/O,
 * NMS and argmax from the ranking; `unscoped` turns a scoped name into the script's.
 */
export function noiseReport(
  statistics: Record<string, unknown>,
  meta: { source: string; mode: string; dataCount?: number; calibration?: string },
  types: ReadonlyMap<string, string> = new Map(),
): NoiseReport {
  const per = new Map<string, { snr?: number[]; partial?: number[]; outputs: { output: string; values: number[] }[] }>();
  const notes: string[] = [];
  let unknownKeys = 0;
  for (const [key, raw] of Object.entries(statistics)) {
    const at = key.indexOf(KEY);
    if (at <= 0) continue;
    const layer = key.slice(0, at);
    const rest = key.slice(at + KEY.length);
    const values = finite(raw);
    const e = per.get(layer) ?? { outputs: [] };
    per.set(layer, e);
    if (rest === 'snr') e.snr = values;
    else if (rest === 'partial_snr') e.partial = values;
    else if (rest.startsWith('noise_results/')) e.outputs.push({ output: rest.slice('noise_results/'.length), values });
    else unknownKeys++;
  }
  if (unknownKeys) notes.push(`${unknownKeys} statistics key(s) of a kind this version does not read were kept in the file but not shown.`);
  const layers: LayerNoise[] = [];
  for (const [layer, e] of per) {
    const outputs = e.outputs.filter((o) => o.values.length).map((o) => ({ output: unscope(o.output), snrDb: minOf(o.values) }));
    let snrDb: number | undefined;
    let basis: LayerNoise['basis'] = 'noise_results';
    if (outputs.length) snrDb = minOf(outputs.map((o) => o.snrDb));
    else if (e.snr?.length) [snrDb, basis] = [minOf(e.snr), 'snr'];
    else if (e.partial?.length) [snrDb, basis] = [minOf(e.partial), 'partial_snr'];
    if (snrDb === undefined) continue;
    const type = types.get(layer);
    layers.push({
      layer,
      name: unscope(layer),
      ...(type ? { type } : {}),
      snrDb,
      basis,
      perOutput: outputs,
      reasons: [],
      ...(type && UNRANKED_TYPES.has(type) ? { unranked: `${type} layers are not ranked (Hailo's diagnostic tool: SNR is a poor measure for them)` } : {}),
    });
  }
  const ranked = layers.filter((l) => !l.unranked).sort((a, b) => a.snrDb - b.snrDb || a.name.localeCompare(b.name));
  const sorted = ranked.map((l) => l.snrDb).sort((a, b) => a - b);
  let outlierBelowDb: number | undefined;
  if (sorted.length >= 4) {
    const q1 = percentile(sorted, 25);
    const q3 = percentile(sorted, 75);
    outlierBelowDb = q1 - 1.5 * (q3 - q1);
  }
  for (const l of ranked) {
    if (l.snrDb <= SNR_THRESHOLD_DB) l.reasons.push(`SNR ${l.snrDb.toFixed(2)} dB ≤ ${SNR_THRESHOLD_DB} dB`);
    if (outlierBelowDb !== undefined && l.snrDb <= outlierBelowDb) l.reasons.push(`a low outlier (≤ Q1 − 1.5·IQR = ${outlierBelowDb.toFixed(2)} dB)`);
  }
  const unranked = layers.filter((l) => l.unranked).sort((a, b) => a.snrDb - b.snrDb);
  return {
    source: meta.source,
    mode: meta.mode,
    ...(meta.dataCount !== undefined ? { dataCount: meta.dataCount } : {}),
    ...(meta.calibration ? { calibration: meta.calibration } : {}),
    layers: [...ranked, ...unranked],
    thresholdDb: SNR_THRESHOLD_DB,
    ...(outlierBelowDb !== undefined ? { outlierBelowDb } : {}),
    chosen: ranked.filter((l) => l.reasons.length).map((l) => l.name),
    notes,
  };
}

function unscope(name: string): string {
  const slash = name.lastIndexOf('/');
  return slash >= 0 ? name.slice(slash + 1) : name;
}

/** The report of a sidecar file. */
export function reportFromResults(r: NoiseResults, source: string, types?: ReadonlyMap<string, string>): NoiseReport {
  return noiseReport(r.statistics, { source, mode: r.mode, dataCount: r.dataCount, calibration: r.calibration?.distribution }, types);
}

/** The model-script line that gives `names` 16-bit activations and weights (the zoo's list form). */
export function sixteenBitLine(names: readonly string[]): string {
  return `quantization_param([${names.join(', ')}], precision_mode=a16_w16)`;
}

/** "SNR 4.20 dB at fc1 (simple analysis, 16 entries of a standard-normal-like calibration set)" */
export function snrText(l: LayerNoise, r: Pick<NoiseReport, 'mode' | 'dataCount' | 'calibration'>): string {
  const where = l.perOutput.length === 1 ? ` at output ${l.perOutput[0].output}` : l.perOutput.length > 1 ? ` (lowest of ${l.perOutput.length} outputs)` : '';
  return `SNR ${l.snrDb.toFixed(2)} dB${where} — ${calibrationText(r)}`;
}

export function calibrationText(r: Pick<NoiseReport, 'mode' | 'dataCount' | 'calibration'>): string {
  const n = r.dataCount !== undefined ? `${r.dataCount} entries` : 'entries';
  return `${r.mode} analysis on ${n} of the calibration set${r.calibration ? ` (${r.calibration})` : ''}`;
}
