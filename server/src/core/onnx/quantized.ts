// Quantized ONNX models (onnxruntime's quantize_static in QDQ or QOperator form, quantize_dynamic,
// QAT exports): which form a file is in and what the DFC pre-flight can say about it.
//
// What the evidence carries (docs/onnx-preflight.md, "Quantized models"): no quantization operator
// is in the DFC 5.3.0 supported-layer or activation tables (docs/research/dfc-flow.md#onnx-measurements), and the DFC
// quantizes by itself — `hailo optimize` turns float32 parameters into 8-bit ones from a
// calibration set (docs/research/dfc-flow.md#calibration; the DFC user guide's Model Optimization chapter); Hailo's QAT
// is its own flow (user guide §4.7 "Quantization Aware Training Tutorial"). No public DFC log of a
// quantized ONNX was found, so no finding here is an error and none claims the exact message.
import type { NodeInfo } from './model';
import type { Finding } from './types';

/** Integer-arithmetic operators (QOperator and dynamic forms), by domain-qualified name. */
const INTEGER_OPS = new Set([
  'ConvInteger',
  'MatMulInteger',
  'QLinearConv',
  'QLinearMatMul',
  'DynamicQuantizeLinear',
  'com.microsoft.QLinearConv',
  'com.microsoft.QLinearAdd',
  'com.microsoft.QLinearMul',
  'com.microsoft.QLinearSigmoid',
  'com.microsoft.QLinearLeakyRelu',
  'com.microsoft.QLinearSoftmax',
  'com.microsoft.QLinearGlobalAveragePool',
  'com.microsoft.QLinearAveragePool',
  'com.microsoft.QLinearConcat',
  'com.microsoft.QLinearWhere',
  'com.microsoft.QGemm',
  'com.microsoft.QAttention',
  'com.microsoft.QEmbedLayerNormalization',
  'com.microsoft.MatMulIntegerToFloat',
  'com.microsoft.MatMulInteger16',
  'com.microsoft.DynamicQuantizeMatMul',
  'com.microsoft.DynamicQuantizeLSTM',
  'com.microsoft.MatMulNBits',
  'com.microsoft.NhwcMaxPool',
]);
const QDQ_OPS = new Set(['QuantizeLinear', 'DequantizeLinear', 'com.microsoft.QuantizeLinear', 'com.microsoft.DequantizeLinear']);

const key = (n: NodeInfo) => (n.domain === '' || n.domain === 'ai.onnx' ? n.opType : `${n.domain}.${n.opType}`);

export type QuantForm = 'qdq' | 'qoperator' | 'dynamic' | 'none';

export interface QuantSummary {
  form: QuantForm;
  /** Quantize/Dequantize nodes. */
  qdq: number;
  /** Integer-arithmetic nodes (ConvInteger, QLinear*, MatMulIntegerToFloat, ...). */
  integer: number;
  /** DynamicQuantizeLinear / DynamicQuantize* nodes (activations quantized at run time). */
  dynamic: number;
}

export function isQuantizationOp(n: NodeInfo): boolean {
  const k = key(n);
  return INTEGER_OPS.has(k) || QDQ_OPS.has(k);
}

export function quantSummary(nodes: NodeInfo[]): QuantSummary {
  let qdq = 0;
  let integer = 0;
  let dynamic = 0;
  for (const n of nodes) {
    const k = key(n);
    if (QDQ_OPS.has(k)) qdq++;
    else if (INTEGER_OPS.has(k)) {
      integer++;
      if (/DynamicQuantize/.test(k)) dynamic++;
    }
  }
  const form: QuantForm = dynamic > 0 ? 'dynamic' : integer > 0 ? 'qoperator' : qdq > 0 ? 'qdq' : 'none';
  return { form, qdq, integer, dynamic };
}

const TABLES = 'no quantization operator is in the DFC 5.3.0 supported-layer or activation tables (dfc-flow.md §4.1)';
const DFC_QUANTIZES =
  'the DFC quantizes by itself: `hailo optimize` converts float32 parameters to 8-bit from a calibration set (dfc-flow.md §3; DFC user guide, Model Optimization); Hailo QAT is its own flow (user guide §4.7)';

const FORM_TEXT: Record<Exclude<QuantForm, 'none'>, string> = {
  qdq: 'QDQ form (QuantizeLinear/DequantizeLinear pairs around float operators: quantize_static QDQ or a QAT export)',
  qoperator: 'QOperator form (integer operators such as QLinearConv / QLinearMatMul)',
  dynamic: 'dynamically quantized (DynamicQuantizeLinear + ConvInteger/MatMulInteger, weights stored as 8-bit: quantize_dynamic)',
};

/** The model-level finding, or none for a float model. */
export function quantizedModelFinding(s: QuantSummary): Finding | undefined {
  if (s.form === 'none') return undefined;
  return {
    code: 'onnx/quantized-model',
    severity: 'warning',
    node: null,
    message: `the model is ${FORM_TEXT[s.form]}: ${s.qdq} quantize/dequantize and ${s.integer} integer nodes; the DFC expects a float model and quantizes it itself`,
    evidence: `${TABLES}; ${DFC_QUANTIZES}. No public DFC run on a quantized ONNX was found, so what its parser prints is not known`,
    fix: 'translate the float model this one was quantized from (before quantize_static/quantize_dynamic or the QAT export) and let `hailo optimize` quantize it with a calibration set',
    confidence: s.form === 'qdq' ? 'low' : 'medium',
  };
}

/** Per integer-arithmetic node (QDQ pairs get only the model-level finding: there are hundreds). */
export function quantizedOpFinding(n: NodeInfo, label: string): Finding | undefined {
  if (!INTEGER_OPS.has(key(n))) return undefined;
  return {
    code: 'onnx/quantized-op',
    severity: 'warning',
    node: label,
    nodeIndex: n.index,
    message: `${key(n)} computes on integers; no such layer is in the DFC's supported tables`,
    evidence: `${TABLES}; ${DFC_QUANTIZES}`,
    fix: 'translate the float model instead (see onnx/quantized-model)',
    confidence: 'medium',
  };
}
