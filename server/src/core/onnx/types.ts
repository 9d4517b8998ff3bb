// Types the ONNX modules share — the pre-flight's findings (preflight.ts makes them; quantized.ts,
// transformerRules.ts and analysis.ts too) and the analysis its rules read — here, not in one of
// their consumers, so no module imports its own importer (ARCHITECTURE.md "No import cycles"). Nothing
// the shape inference imports may import this file (it imports inferShapes.ts).
import type { ShapeResult } from './inferShapes';
import type { NodeInfo, OnnxModel, ValueInfo } from './model';

export type Confidence = 'high' | 'medium' | 'low';

export interface Finding {
  /** Stable code, e.g. `onnx/unsupported-op`. */
  code: string;
  severity: 'error' | 'warning' | 'info';
  /** Node label (NodeProto.name, or `Op#index` when unnamed), graph input name, or null for the model. */
  node: string | null;
  /** Index of the node in the graph, when the finding is about a node. */
  nodeIndex?: number;
  /** Graph input or output the finding is about. */
  tensor?: string;
  message: string;
  evidence: string;
  fix: string;
  confidence: Confidence;
}

export interface PreflightOptions {
  /** Total initializer bytes above which the DFC is assumed to skip its own onnxsim retry (a guess). */
  largeModelBytes?: number;
  /** The DFC release in use, when known (e.g. from its log): pitfalls seen on another release are info. */
  dfcVersion?: string;
}

export interface OnnxAnalysis {
  model: OnnxModel;
  shapes: ShapeResult;
  /** Graph inputs that are not initializers. */
  inputs: ValueInfo[];
  /** Op counts, most frequent first; ops outside ai.onnx are written `domain.Op`. */
  operators: Record<string, number>;
  /** Tensor ranks over graph inputs and node outputs (the DFC logbooks' method); unknown ranks excluded. */
  rankHistogram: Record<string, number>;
  /** Tensors (graph inputs and node outputs) whose rank is unknown. */
  unknownRank: number;
  /** Tensors with at least one unknown (null) dim, including unknown rank. */
  unresolved: number;
  /** Nodes whose outputs are constant once input shapes are fixed (what onnxsim removes). */
  foldable: Set<NodeInfo>;
  initializerBytes: number;
  findings: Finding[];
  ms: number;
}
