// Builds the ModelLayerIndex the `.alls` side consumes: one entry per HN layer, and — when the ONNX
// the HAR was parsed from is known — a hover `detail` with the ONNX source nodes' op, shapes and
// ranks, and a `location` on the source node's line of the ONNX graph view.
import type { Dim, ModelLayer, ModelLayerIndex } from '../common/modelLayers';
import { nodeLabel, nodeRanks, opKey, type OnnxAnalysis } from '../onnx/analysis';
import type { GraphView, Span } from '../onnx/graphView';
import { formatShape, type NodeInfo } from '../onnx/model';
import { distinctShapes, type HnLayer } from './hn';
import type { HarArchive } from './harReader';
import { mdCell, mdCode, oneLine } from '../common/escape';
import { calibrationText, type NoiseReport } from './noise';

export interface OnnxSide {
  path: string;
  analysis: OnnxAnalysis;
  view: GraphView;
  /** URI of the graph view document (`hailo-onnx:`). */
  uri: string;
}

/** What an HN `original_names` entry points at in the ONNX file. */
export type OnnxSource =
  { kind: 'node'; node: NodeInfo } | { kind: 'input' | 'output'; tensor: string } | { kind: 'constant'; node: NodeInfo } | { kind: 'missing'; name: string };

export function resolveOriginalName(onnx: OnnxSide, name: string, byName: Map<string, NodeInfo>): OnnxSource {
  const n = byName.get(name);
  if (n) return { kind: 'node', node: n };
  if (onnx.view.inputLine.has(name)) return { kind: 'input', tensor: name };
  if (onnx.view.outputLine.has(name)) return { kind: 'output', tensor: name };
  // const_input layers: `<consumer node>_input`
  if (name.endsWith('_input')) {
    const c = byName.get(name.slice(0, -'_input'.length));
    if (c) return { kind: 'constant', node: c };
  }
  return { kind: 'missing', name };
}

export function buildLayerIndex(har: HarArchive, onnx?: OnnxSide, noise?: NoiseReport): ModelLayerIndex {
  const noiseBy = new Map(noise?.layers.map((l) => [l.layer, l]));
  const layers = new Map<string, ModelLayer>();
  const byName = new Map<string, NodeInfo>();
  if (onnx) for (const n of onnx.analysis.model.graph.nodes) if (n.name) byName.set(n.name, n);
  for (const l of har.hn.layers) {
    if (layers.has(l.name)) continue; // two scopes with one layer name: the first wins, as scripts can't tell them apart unscoped
    const entry: ModelLayer = {
      name: l.name,
      fullName: l.fullName,
      type: l.type,
      originalNames: l.originalNames,
      inputShapes: l.inputShapes,
      outputShapes: distinctShapes(l.outputShapes),
      detail: joinDetail(layerDetail(l, onnx, byName), noise && noiseDetail(noiseBy.get(l.fullName), noise)),
    };
    if (onnx) {
      const shapes = onnxOutputShapes(onnx, l, byName);
      if (shapes.length) entry.onnxOutputShapes = shapes;
      const loc = firstLocation(onnx, l, byName);
      if (loc) entry.location = { uri: onnx.uri, range: { start: { line: loc.line, character: loc.start }, end: { line: loc.line, character: loc.end } } };
    }
    layers.set(l.name, entry);
  }
  const hwArch = har.metadata?.hw_arch;
  const sdkVersion = har.metadata?.sdk_version;
  const index: ModelLayerIndex = {
    source: har.path,
    networkName: har.hn.name,
    layers,
    ...(typeof hwArch === 'string' ? { hwArch } : {}),
    ...(typeof sdkVersion === 'string' ? { sdkVersion } : {}),
  };
  if (noise) {
    const chosen = new Set(noise.chosen);
    index.noise = {
      source: noise.source,
      calibration: calibrationText(noise),
      thresholdDb: noise.thresholdDb,
      chosen: noise.layers.filter((l) => chosen.has(l.name)).map((l) => ({ name: l.name, snrDb: l.snrDb, reasons: l.reasons })),
    };
  }
  return index;
}

/** Output shapes of the ONNX nodes an HN layer came from (the last source node first: the layer's output). */
function onnxOutputShapes(onnx: OnnxSide, l: HnLayer, byName: Map<string, NodeInfo>): Dim[][] {
  const out: Dim[][] = [];
  for (const name of [...l.originalNames].reverse()) {
    const s = resolveOriginalName(onnx, name, byName);
    if (s.kind !== 'node') continue;
    for (const t of s.node.outputs) {
      const shape = t ? onnx.analysis.shapes.facts.get(t)?.shape : undefined;
      if (shape) out.push([...shape]);
    }
    if (out.length) break;
  }
  return out;
}

const joinDetail = (a: string, b: string | undefined) => (b ? (a ? `${a}\n\n${b}` : b) : a);

/** The hover's noise line: the figure, the calibration set it was measured on, and the verdict. */
function noiseDetail(l: NoiseReport['layers'][number] | undefined, r: NoiseReport): string | undefined {
  if (!l) return undefined;
  const outputs =
    l.perOutput.length > 1
      ? ` (lowest of ${l.perOutput.map((o) => `${code(o.output)} ${o.snrDb.toFixed(2)} dB`).join(', ')})`
      : l.perOutput.length
        ? ` at ${code(l.perOutput[0].output)}`
        : '';
  const verdict = l.unranked ? ` — ${l.unranked}` : l.reasons.length ? ` — **needs more bits**: ${l.reasons.join('; ')}` : '';
  return `**Noise analysis**: SNR ${l.snrDb.toFixed(2)} dB${outputs}${verdict}\n\n*${oneLine(calibrationText(r))}; from ${code(r.source.split(/[\\/]/).pop()!)}.*`;
}

function firstLocation(onnx: OnnxSide, l: HnLayer, byName: Map<string, NodeInfo>): Span | undefined {
  for (const name of l.originalNames) {
    const s = resolveOriginalName(onnx, name, byName);
    if (s.kind === 'node' || s.kind === 'constant') return onnx.view.nodeNameSpan.get(s.node);
    if (s.kind === 'input' || s.kind === 'output') {
      const line = (s.kind === 'input' ? onnx.view.inputLine : onnx.view.outputLine).get(s.tensor)!;
      return { line, start: 2, end: 2 + oneLine(s.tensor).length };
    }
  }
  return undefined;
}

const issueCounts = new WeakMap<OnnxAnalysis, Map<number, number>>();

/** Warnings and errors per ONNX node index, counted once per analysis (a scan of the findings per layer was quadratic, issue 29). */
function issuesByNode(a: OnnxAnalysis): Map<number, number> {
  let m = issueCounts.get(a);
  if (!m) {
    m = new Map();
    for (const f of a.findings) if (f.nodeIndex !== undefined && f.severity !== 'info') m.set(f.nodeIndex, (m.get(f.nodeIndex) ?? 0) + 1);
    issueCounts.set(a, m);
  }
  return m;
}

// Names and params come from the HAR and the ONNX file: code spans only (mdCode; mdCell in tables).
const code = mdCode;

function layerDetail(l: HnLayer, onnx: OnnxSide | undefined, byName: Map<string, NodeInfo>): string {
  // The consumer already shows the layer's name, type, shapes and original names: this is the extra part.
  const lines: string[] = [];
  const params = paramSummary(l.params);
  if (params) lines.push(`HN params: ${params}`);
  if (!l.originalNames.length) return lines.join('\n');
  if (!onnx) {
    lines.push('', `ONNX sources: ${l.originalNames.map(code).join(', ')} (the ONNX file is not known; set hailo.model.onnx or put it beside the .har)`);
    return lines.join('\n');
  }
  lines.push('', `**ONNX sources** in ${code(onnx.path.split(/[\\/]/).pop()!)}:`, '', '| node | op | inputs | outputs | ranks |', '|---|---|---|---|---|');
  const cell = mdCell;
  const a = onnx.analysis;
  const shp = (t: string) => formatShape(a.shapes.facts.get(t)?.shape ?? null);
  for (const name of l.originalNames) {
    const s = resolveOriginalName(onnx, name, byName);
    if (s.kind === 'node') {
      const r = nodeRanks(a, s.node);
      const ins = s.node.inputs.filter(Boolean).map(shp).join(' ');
      const outs = s.node.outputs.filter(Boolean).map(shp).join(' ');
      const ranks = `${r.inputs
        .filter((_, i) => s.node.inputs[i])
        .map((x) => x ?? '?')
        .join(',')} → ${r.outputs.map((x) => x ?? '?').join(',')}`;
      const issues = issuesByNode(a).get(s.node.index) ?? 0;
      lines.push(`| ${cell(nodeLabel(s.node))} | ${cell(opKey(s.node))} | ${cell(ins)} | ${cell(outs)} | ${ranks} |${issues ? ` ⚠️ ${issues}` : ''}`);
    } else if (s.kind === 'input' || s.kind === 'output') {
      const sh = shp(s.tensor);
      const rank = a.shapes.facts.get(s.tensor)?.shape?.length ?? '?';
      lines.push(`| ${cell(s.tensor)} | graph ${s.kind} | ${s.kind === 'input' ? '' : cell(sh)} | ${s.kind === 'input' ? cell(sh) : ''} | ${rank} |`);
    } else if (s.kind === 'constant') {
      lines.push(`| ${cell(name)} | constant input of ${cell(nodeLabel(s.node))} | | | |`);
    } else {
      lines.push(`| ${cell(name)} | not in the ONNX file | | | |`);
    }
  }
  return lines.join('\n');
}

function paramSummary(p: Record<string, unknown>): string {
  const keys = ['kernel_shape', 'strides', 'dilations', 'padding', 'groups', 'activation', 'reduce_axes', 'concat_axis', 'method'];
  return keys
    .filter((k) => p[k] !== undefined)
    .map((k) => code(`${k}=${shortJson(p[k], 80)}`))
    .join(', ');
}

/**
 * JSON of a value from the HN, at most `max` characters, without recursion: JSON.stringify
 * recurses and a param nested 10⁵ deep (JSON.parse takes it) overflowed the stack.
 */
export function shortJson(v: unknown, max: number): string {
  let out = '';
  const stack: unknown[] = [v];
  while (stack.length && out.length <= max) {
    const x = stack.pop();
    if (x instanceof Punct) out += x.text;
    else if (Array.isArray(x)) {
      out += '[';
      stack.push(CLOSE);
      for (let i = x.length - 1; i >= 0; i--) {
        stack.push(x[i]);
        if (i > 0) stack.push(COMMA);
      }
    } else if (x !== null && typeof x === 'object') out += '{…}';
    else out += JSON.stringify(x) ?? 'null';
  }
  return out.length > max || stack.length ? out.slice(0, max) + '…' : out;
}

/** Brackets and commas on shortJson's stack (never confused with a value from the file). */
class Punct {
  constructor(readonly text: string) {}
}
const CLOSE = new Punct(']');
const COMMA = new Punct(',');
