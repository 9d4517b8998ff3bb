// What the HAR view and `hailo-tools har` show: the HN graph as layers in dataflow order with type,
// shapes, the ONNX nodes each came from, HN params and quantization params, the arrays the archive
// holds for each layer (weights described, small arrays — bits, scales, zero points, ranges,
// statistics — with their values), and the per-layer SNR of a noise analysis when one was run
// (`<net>.noise.json` beside the HAR, or noise statistics inside the archive itself). One document,
// also `hailo-tools har --json`.
import { basename } from 'node:path';
import { readHar, type HarArchive } from './harReader';
import { distinctShapes, type HnLayer } from './hn';
import { readHarParams, type HarParamArray } from './harParams';
import { NoiseFormatError, noiseReport, noiseSidecarPath, readNoiseResults, reportFromResults, type LayerNoise, type NoiseReport } from './noise';
import type { Dim } from '../common/modelLayers';
import { shortJson } from './layers';
import { DivergenceFormatError, divergenceInputsText, divergenceSidecarPath, readDivergenceResults, type DivergenceResults } from './divergenceResults';
import { reportLines } from '../common/escape';

export interface HarViewLayer {
  name: string;
  fullName: string;
  type: string;
  /** Producers and consumers, unscoped. */
  inputs: string[];
  outputs: string[];
  inputShapes: Dim[][];
  outputShapes: Dim[][];
  originalNames: string[];
  /** HN params, each value as short JSON. */
  params: Record<string, string>;
  /** HN quantization_params, each value as short JSON. */
  quantization: Record<string, string>;
  /** `quantization_params.precision_mode`, when the HN says. */
  precisionMode?: string;
  arrays: Omit<HarParamArray, 'layer'>[];
  noise?: LayerNoise;
}

export interface HarViewDocument {
  file: string;
  members: { name: string; size: number }[];
  /** `<net>.metadata.json`: state (hailo_model, fp_optimized_model, quantized_model, compiled_model), sdk_version, hw_arch. */
  state?: string;
  sdkVersion?: string;
  hwArch?: string;
  network: string;
  stage?: string;
  inputs: string[];
  outputs: string[];
  /** Layer types with their counts, most frequent first (the page's outline). */
  types: { type: string; count: number }[];
  layers: HarViewLayer[];
  /** Arrays of the archive not tied to a layer (e.g. `params_kind`). */
  archiveArrays: Omit<HarParamArray, 'layer'>[];
  paramMembers: { name: string; arrays: number }[];
  noise?: NoiseReport;
  /** The first-divergent-layer results beside the HAR (`<net>.diverge.json`), with where they came from. */
  divergence?: DivergenceResults & { source: string };
  /** The ONNX model the HAR was parsed from (original_model_meta), as recorded. */
  originalModel?: string;
  notes: string[];
}

/**
 * Producer-before-consumer order (Kahn over `input`), ties and cycles in file order. Linear in the
 * layers and their inputs (times log V for the ready heap): an HN is a file, and 40,000 layers took
 * more than a minute with a sort of the ready list per layer. `steps`, when given, counts the work
 * (inputs visited and heap moves) for the linear-time test.
 */
export function dataflowOrder(layers: readonly HnLayer[], steps?: { n: number }): HnLayer[] {
  const n = layers.length;
  const index = new Map<string, number>();
  for (let i = 0; i < n; i++) if (!index.has(layers[i].fullName)) index.set(layers[i].fullName, i);
  // consumers as a CSR adjacency list: one edge per input that names another layer of the file
  const indeg = new Int32Array(n);
  const from: number[] = [];
  const to: number[] = [];
  for (let i = 0; i < n; i++)
    for (const p of layers[i].input) {
      const j = index.get(p);
      if (j === undefined || j === i) continue;
      from.push(j);
      to.push(i);
      indeg[i]++;
    }
  const first = new Int32Array(n + 1);
  for (const j of from) first[j + 1]++;
  for (let i = 0; i < n; i++) first[i + 1] += first[i];
  const fill = first.slice(0, n);
  const consumers = new Int32Array(from.length);
  for (let e = 0; e < from.length; e++) consumers[fill[from[e]]++] = to[e];
  if (steps) steps.n += from.length;

  const ready = new MinHeap(steps);
  for (let i = 0; i < n; i++) if (indeg[i] === 0) ready.push(i);
  const placed = new Uint8Array(n);
  const order: HnLayer[] = [];
  let unplaced = 0; // every layer before it is placed: the cycle breaker never looks back
  while (order.length < n) {
    let i: number;
    if (ready.size) i = ready.pop();
    else {
      // a cycle (or a hostile file): the first unplaced layer in file order goes next
      while (placed[unplaced]) unplaced++;
      i = unplaced;
    }
    if (placed[i]) continue;
    placed[i] = 1;
    order.push(layers[i]);
    for (let e = first[i]; e < first[i + 1]; e++) {
      const c = consumers[e];
      if (--indeg[c] === 0 && !placed[c]) ready.push(c);
    }
    if (steps) steps.n += first[i + 1] - first[i] + 1;
  }
  return order;
}

/** A binary min-heap of layer positions (the ready layers, earliest in the file first). */
class MinHeap {
  private a: number[] = [];
  constructor(private readonly steps?: { n: number }) {}
  get size(): number {
    return this.a.length;
  }
  push(v: number): void {
    const a = this.a;
    let i = a.push(v) - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p] <= v) break;
      a[i] = a[p];
      i = p;
      if (this.steps) this.steps.n++;
    }
    a[i] = v;
  }
  pop(): number {
    const a = this.a;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= a.length) break;
        if (c + 1 < a.length && a[c + 1] < a[c]) c++;
        if (a[c] >= last) break;
        a[i] = a[c];
        i = c;
        if (this.steps) this.steps.n++;
      }
      a[i] = last;
    }
    return top;
  }
}

const unscope = (n: string) => n.slice(n.lastIndexOf('/') + 1);
const strOf = (v: unknown) => (typeof v === 'string' ? v : undefined);

function shortRecord(r: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(r)) out[k] = shortJson(v, 200);
  return out;
}

export async function readHarView(path: string): Promise<HarViewDocument> {
  const har = await readHar(path);
  return buildHarView(har, await readHarParams(path, har.hn.scopes.length ? har.hn.scopes : [har.hn.name]));
}

export function buildHarView(har: HarArchive, params: Awaited<ReturnType<typeof readHarParams>>): HarViewDocument {
  const notes = [...params.notes];
  const arraysBy = new Map<string, Omit<HarParamArray, 'layer'>[]>();
  const archiveArrays: Omit<HarParamArray, 'layer'>[] = [];
  const statistics: Record<string, number[]> = {};
  for (const { layer, ...a } of params.arrays) {
    if (layer) (arraysBy.get(layer) ?? arraysBy.set(layer, []).get(layer)!).push(a);
    else archiveArrays.push(a);
    if (layer && a.key.startsWith('layer_noise_analysis/') && a.values) statistics[`${layer}/${a.key}`] = a.values;
  }
  const types = new Map(har.hn.layers.map((l) => [l.fullName, l.type]));
  // Noise figures: the sidecar our analysis run wrote, else what the archive itself holds.
  let noise: NoiseReport | undefined;
  const sidecar = noiseSidecarPath(har.path);
  try {
    const r = readNoiseResults(sidecar);
    if (r) noise = reportFromResults(r, sidecar, types);
  } catch (err) {
    notes.push(err instanceof NoiseFormatError ? err.message : `${sidecar}: ${(err as Error).message}`);
  }
  let divergence: HarViewDocument['divergence'];
  const divergenceFile = divergenceSidecarPath(har.path);
  try {
    const r = readDivergenceResults(divergenceFile);
    if (r) divergence = { ...r, source: divergenceFile };
  } catch (err) {
    notes.push(err instanceof DivergenceFormatError ? err.message : `${divergenceFile}: ${(err as Error).message}`);
  }
  if (!noise && Object.keys(statistics).length) {
    const members = [...new Set(params.arrays.filter((a) => a.key.startsWith('layer_noise_analysis/')).map((a) => a.member))];
    noise = noiseReport(statistics, { source: `${basename(har.path)}: ${members.join(', ')}`, mode: 'recorded in the archive' }, types);
  }
  const noiseBy = new Map(noise?.layers.map((l) => [l.layer, l]));
  const layers: HarViewLayer[] = dataflowOrder(har.hn.layers).map((l) => {
    const precision = strOf(l.quantizationParams.precision_mode);
    const n = noiseBy.get(l.fullName);
    return {
      name: l.name,
      fullName: l.fullName,
      type: l.type,
      inputs: l.input.map(unscope),
      outputs: l.output.map(unscope),
      inputShapes: l.inputShapes,
      outputShapes: distinctShapes(l.outputShapes),
      originalNames: l.originalNames,
      params: shortRecord(l.params),
      quantization: shortRecord(l.quantizationParams),
      ...(precision ? { precisionMode: precision } : {}),
      arrays: arraysBy.get(l.fullName) ?? [],
      ...(n ? { noise: n } : {}),
    };
  });
  const counts = new Map<string, number>();
  for (const l of layers) counts.set(l.type, (counts.get(l.type) ?? 0) + 1);
  const meta = har.metadata ?? {};
  return {
    file: har.path,
    members: har.members,
    ...(strOf(meta.state) ? { state: strOf(meta.state) } : {}),
    ...(strOf(meta.sdk_version) ? { sdkVersion: strOf(meta.sdk_version) } : {}),
    ...(strOf(meta.hw_arch) ? { hwArch: strOf(meta.hw_arch) } : {}),
    network: har.hn.name,
    ...(har.hn.stage ? { stage: har.hn.stage } : {}),
    inputs: layers.filter((l) => l.type === 'input_layer').map((l) => l.name),
    outputs: layers.filter((l) => l.type === 'output_layer').map((l) => l.name),
    types: [...counts].map(([type, count]) => ({ type, count })).sort((a, b) => b.count - a.count || a.type.localeCompare(b.type)),
    layers,
    archiveArrays,
    paramMembers: params.members,
    ...(noise ? { noise } : {}),
    ...(divergence ? { divergence } : {}),
    ...(strOf(har.originalModelMeta?.original_model_path) ? { originalModel: strOf(har.originalModelMeta?.original_model_path) } : {}),
    notes,
  };
}

const shape = (s: Dim[]) => `[${s.map((d) => (d === null ? '?' : String(d))).join(',')}]`;

/** `hailo-tools har` without --json. */
export function harViewText(d: HarViewDocument): string {
  const out: string[] = [];
  out.push(`${d.file}: network ${d.network}, ${d.layers.length} layers`);
  out.push(`  state ${d.state ?? '?'}, DFC ${d.sdkVersion ?? '?'}, hw_arch ${d.hwArch ?? '?'}`);
  out.push(`  inputs ${d.inputs.join(', ') || '—'}; outputs ${d.outputs.join(', ') || '—'}`);
  out.push(`  members ${d.members.map((m) => `${m.name} (${m.size.toLocaleString('en-US')} B)`).join(', ')}`);
  out.push(`  types ${d.types.map((t) => `${t.type} ${t.count}`).join(', ')}`);
  if (d.noise) {
    const n = d.noise;
    out.push('', `noise analysis (${n.source}): worst first, ${n.mode} analysis${n.dataCount !== undefined ? ` on ${n.dataCount} entries` : ''}`);
    if (n.calibration) out.push(`  calibration set: ${n.calibration}`);
    for (const l of n.layers.slice(0, 20)) {
      out.push(`  ${l.snrDb.toFixed(2).padStart(8)} dB  ${l.name}${l.unranked ? ' (not ranked)' : ''}${l.reasons.length ? `  ← ${l.reasons.join('; ')}` : ''}`);
    }
    if (n.layers.length > 20) out.push(`  … ${n.layers.length - 20} more (--json has them all)`);
    if (n.chosen.length) out.push(`  16-bit line: quantization_param([${n.chosen.join(', ')}], precision_mode=a16_w16)`);
    else out.push(`  no layer at or below ${n.thresholdDb} dB and no low outlier`);
  }
  if (d.divergence) {
    const v = d.divergence;
    out.push('', `first divergent layer (${v.source}): ${v.onnx} against the emulator, measured on ${divergenceInputsText(v)}`);
    out.push(`  ${v.verdict}`);
  }
  out.push('', 'layers (dataflow order):');
  for (const l of d.layers) {
    const q = l.precisionMode ? ` ${l.precisionMode}` : '';
    const snr = l.noise ? ` SNR ${l.noise.snrDb.toFixed(2)} dB` : '';
    out.push(`  ${l.name.padEnd(24)} ${l.type.padEnd(18)} ${l.inputShapes.map(shape).join(' ')} → ${l.outputShapes.map(shape).join(' ')}${q}${snr}`);
    if (l.originalNames.length) out.push(`      onnx: ${l.originalNames.join(', ')}`);
  }
  for (const n of d.notes) out.push(`note: ${n}`);
  return reportLines(out);
}
