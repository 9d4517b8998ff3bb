// The HN ("Hailo NN") JSON: `{name, net_params, layers}` with layers keyed by scoped name
// `<net_scope>/<layer>`. Shapes are NHWC with batch -1; `output_shapes` repeats once per consumer;
// `original_names` are ONNX NodeProto names (graph input/output names for I/O layers, and
// `<consumer node>_input` for const_input layers). Unknown layer types and keys are tolerated.
import type { Dim } from '../common/modelLayers';
import { parseFileJson } from '../common/json';

export interface HnLayer {
  /** Scoped name as in the HN, e.g. `whisper-hailo8l/conv1`. */
  fullName: string;
  /** Name as written in model scripts, e.g. `conv1`. */
  name: string;
  scope: string;
  type: string;
  input: string[];
  output: string[];
  inputShapes: Dim[][];
  outputShapes: Dim[][];
  originalNames: string[];
  params: Record<string, unknown>;
  /** HN `quantization_params` (empty in a parsed HN; filled by model-script commands and optimize). */
  quantizationParams: Record<string, unknown>;
}

export interface HnModel {
  name: string;
  scopes: string[];
  outputLayersOrder: string[];
  layers: HnLayer[];
  /** `net_params.stage` (`HN` in the parsed sample). */
  stage?: string;
}

export class HnFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HnFormatError';
  }
}

export function parseHn(text: string, where: string): HnModel {
  let raw: unknown;
  try {
    raw = parseFileJson(text, where);
  } catch (err) {
    throw new HnFormatError((err as Error).message);
  }
  const o = raw as { name?: unknown; net_params?: unknown; layers?: unknown };
  if (!o || typeof o !== 'object' || typeof o.layers !== 'object' || o.layers === null || Array.isArray(o.layers)) {
    throw new HnFormatError(`${where}: not an HN model (expected an object with "layers")`);
  }
  const np = (o.net_params && typeof o.net_params === 'object' ? o.net_params : {}) as Record<string, unknown>;
  const scopes = strings(np.net_scopes);
  const name = typeof o.name === 'string' ? o.name : (scopes[0] ?? '');
  const layers: HnLayer[] = [];
  for (const [fullName, v] of Object.entries(o.layers as Record<string, unknown>)) {
    if (!v || typeof v !== 'object') continue;
    const l = v as Record<string, unknown>;
    const slash = fullName.lastIndexOf('/');
    const scope = slash >= 0 ? fullName.slice(0, slash) : '';
    layers.push({
      fullName,
      name: slash >= 0 ? fullName.slice(slash + 1) : fullName,
      scope,
      type: typeof l.type === 'string' ? l.type : 'unknown',
      input: strings(l.input),
      output: strings(l.output),
      inputShapes: shapes(l.input_shapes),
      outputShapes: shapes(l.output_shapes),
      originalNames: strings(l.original_names),
      params: record(l.params),
      quantizationParams: record(l.quantization_params),
    });
  }
  return { name, scopes, outputLayersOrder: strings(np.output_layers_order), layers, ...(typeof np.stage === 'string' ? { stage: np.stage } : {}) };
}

function record(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function shapes(v: unknown): Dim[][] {
  if (!Array.isArray(v)) return [];
  return v.filter(Array.isArray).map((s: unknown[]) => s.map((d) => (typeof d === 'number' || typeof d === 'string' ? d : null)));
}

/** Distinct shapes (output_shapes repeats one entry per consumer). */
export function distinctShapes(s: Dim[][]): Dim[][] {
  const seen = new Set<string>();
  return s.filter((x) => {
    const k = JSON.stringify(x);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
