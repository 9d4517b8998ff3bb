// What is known about how Hailo's Dataflow Compiler (DFC) parser treats each ONNX operator, with
// the evidence for it. Sources are the research notes in the repository's shared docs
// (docs/research/onnx-notes.md#parser-refusals, docs/research/dfc-flow.md#error-classes, docs/research/dfc-flow.md#onnx-measurements); the official supported-layer table is under NDA, so
// every entry names where it was seen. Nothing here is a guess presented as a fact.

export type OpStatus = 'supported' | 'activation' | 'pattern-only' | 'rejected' | 'restricted' | 'seen-parsed' | 'absorbed' | 'not-listed';

export interface OpKnowledge {
  status: OpStatus;
  /** One line for hover. */
  summary: string;
  evidence: string;
}

/** DFC 5.3.0 supported-layer table (hailo_ops.usda, opset 17), as recorded in docs/research/dfc-flow.md#onnx-measurements. */
export const DFC53_LAYERS = new Set(
  'Add ArgMax AveragePool BatchNormalization Concat Conv ConvTranspose DepthToSpace Div Dropout GRU Gemm LSTM LayerNormalization LogSoftmax MatMul Max MaxPool Min Mul Neg OneHot Pad Pow RNN ReduceL2 ReduceMax ReduceMean ReduceMin ReduceSum ReduceSumSquare Reshape Resize Slice Softmax SpaceToDepth Split Sub Transpose Upsample'.split(
    ' ',
  ),
);
/** DFC 5.3.0 supported-activation table (same source). */
export const DFC53_ACTIVATIONS = new Set(
  'Abs Clip Elu Equal Exp Greater HardSigmoid LeakyRelu Less Log Min PRelu Relu Sigmoid Softplus Softsign Sqrt Tanh'.split(' '),
);
/** Supported only inside a pattern (same source): Gelu = Mul+Erf, HardSwish = Mul+HardSigmoid, ... */
export const PATTERN_ONLY: Record<string, string> = {
  Erf: 'GELU as Mul+Erf (a standalone Erf is rejected)',
};

const TABLE_EVIDENCE = 'DFC 5.3.0 supported-layer/activation tables (hailo_ops.usda, opset 17), recorded in dfc-flow.md §4.1';

/** Operators a real DFC run parsed: every node of whisper-hailo8l.onnx is covered by its HAR (DFC 3.33, hailo8l). */
export const SEEN_PARSED: Record<string, string> = {
  InstanceNormalization: 'whisper-hailo8l HAR (DFC 3.33): Reshape→InstanceNormalization→Reshape (GroupNorm) became layer_normalization1',
  ReduceSum: 'whisper-hailo8l HAR (DFC 3.33): ReduceSum over axis 3 of a rank-5 tensor parsed',
};

/** Shape-only ops the parser folds into neighbouring layers (InvalidHNError on lone test graphs shows they leave no layer). */
const ABSORBED = new Set(['Identity', 'Flatten', 'Unsqueeze', 'Constant', 'Cast', 'Shape']);

export interface Rejection {
  /** The exception the DFC raises. */
  error: string;
  evidence: string;
  confidence: 'high' | 'medium' | 'low';
}

/** Operators refused in real parser output, independent of context. */
export const REJECTED: Record<string, Rejection> = {
  GatherElements: {
    error: 'UnsupportedOperationError … operation is unsupported',
    evidence: 'YOLO26n head, DFC 3.x, Hailo-8L; refused again in rf-detr (DFC 5.3.0)',
    confidence: 'high',
  },
  TopK: {
    error: 'UnsupportedOperationError … operation is unsupported',
    evidence: 'YOLO26n head, DFC 3.x, Hailo-8L; refused again in rf-detr (DFC 5.3.0)',
    confidence: 'high',
  },
  Mod: { error: 'UnsupportedOperationError … operation is unsupported', evidence: 'YOLO26n head, DFC 3.x, Hailo-8L', confidence: 'high' },
  GridSample: {
    error: 'refused by the parser',
    evidence: 'rf-detr (DFC 5.3.0); Hailo staff: unsupported with no plan to add it',
    confidence: 'high',
  },
  ScatterND: { error: 'refused by the parser', evidence: 'rf-detr (DFC 5.3.0)', confidence: 'high' },
  ScatterElements: {
    error: 'refused by the parser',
    evidence: 'Scatter* listed among refusals (onnx-notes §3); ScatterElements itself not seen',
    confidence: 'low',
  },
  NonZero: { error: 'refused by the parser (data-dependent shape)', evidence: 'onnx-notes §3 "Other refusals"', confidence: 'high' },
  NonMaxSuppression: { error: 'refused by the parser (data-dependent shape)', evidence: 'onnx-notes §3 "Other refusals"', confidence: 'high' },
  Einsum: { error: 'not in the supported tables', evidence: TABLE_EVIDENCE, confidence: 'low' },
};

export function opKnowledge(op: string, domain = ''): OpKnowledge {
  if (domain !== '' && domain !== 'ai.onnx') {
    return { status: 'not-listed', summary: `custom domain '${domain}': the DFC parses the ai.onnx domain`, evidence: TABLE_EVIDENCE };
  }
  const r = REJECTED[op];
  if (r && r.confidence !== 'low') return { status: 'rejected', summary: `rejected: ${r.error}`, evidence: r.evidence };
  if (op === 'Expand' || op === 'Where' || op === 'Squeeze') {
    return {
      status: 'restricted',
      summary: 'UnexpectedNodeError unless folded away (constant at fixed input shapes)',
      evidence: 'GQA repeat_kv, attention-mask Where/Expand, LSTM-adjacent Squeeze (onnx-notes §3); Expand scaffolding in rf-detr',
    };
  }
  if (op === 'Tile') {
    return {
      status: 'restricted',
      summary: 'becomes a concat; over the batch axis: UnsupportedConcatLayerError',
      evidence: 'rf-detr CLS-per-window Tile (DFC 5.3.0); onnxsim did not remove it',
    };
  }
  if (op === 'Gather') {
    return {
      status: 'restricted',
      summary: 'UnsupportedGatherLayerError "Can\'t find index" for embedding lookups and data-dependent indices',
      evidence: 'BERT word_embeddings Gather; YOLO26 head',
    };
  }
  if (op === 'ConstantOfShape') {
    return {
      status: 'restricted',
      summary: 'parse_raw_data IndexError on an empty value attribute unless folded away',
      evidence: 'onnx-notes §3 "Other refusals"',
    };
  }
  if (PATTERN_ONLY[op]) return { status: 'pattern-only', summary: `supported only as ${PATTERN_ONLY[op]}`, evidence: TABLE_EVIDENCE };
  if (op === 'ReduceMax') {
    return {
      status: 'restricted',
      summary: 'only on the features axis with keepdims=1 (UnsupportedReduceMaxLayerError)',
      evidence: 'parser message quoted in onnx-notes §3',
    };
  }
  if (DFC53_LAYERS.has(op)) return { status: 'supported', summary: 'in the DFC 5.3 supported-layer table', evidence: TABLE_EVIDENCE };
  if (DFC53_ACTIVATIONS.has(op)) return { status: 'activation', summary: 'in the DFC 5.3 supported-activation table', evidence: TABLE_EVIDENCE };
  if (SEEN_PARSED[op]) return { status: 'seen-parsed', summary: 'not in the table, but seen parsed', evidence: SEEN_PARSED[op] };
  if (ABSORBED.has(op))
    return {
      status: 'absorbed',
      summary: 'shape-only: folded into neighbouring layers or removed by simplification',
      evidence: 'dfc-flow.md §3.5 (InvalidHNError on one-operator graphs)',
    };
  if (r) return { status: 'not-listed', summary: `not in the DFC 5.3 tables (${r.error})`, evidence: r.evidence };
  return { status: 'not-listed', summary: 'not in the DFC 5.3 supported tables; may still be absorbed into a recognised pattern', evidence: TABLE_EVIDENCE };
}
