// One place that says which rule infers a node: ai.onnx rules (shapeRules.ts, then the modules
// here for the rest of the operator set up to opset 22), sequence/optional and control-flow rules,
// and the com.microsoft operators onnxruntime's tools write. Other domains have no rule.
import { isAiOnnx } from '../model';
import { RULES, type Rule } from '../shapeRules';
import { AI_ONNX_EXTRA } from './aiOnnx';
import { CONTROL_RULES } from './control';
import { MICROSOFT_RULES, simplifiedLayerNorm } from './microsoft';
import { SEQUENCE_RULES } from './sequence';
import { VALUE_RULES } from './values';

const AI_ONNX: Record<string, Rule> = {
  ...RULES,
  ...AI_ONNX_EXTRA,
  ...SEQUENCE_RULES,
  ...CONTROL_RULES,
  // onnxruntime registers these contrib ops in the default domain (cpu_contrib_kernels.cc)
  SimplifiedLayerNormalization: simplifiedLayerNorm,
};
// value folding wraps the shape rules of the ops it extends
for (const [op, wrap] of Object.entries(VALUE_RULES)) AI_ONNX[op] = wrap(AI_ONNX[op]);

const BY_DOMAIN: Record<string, Record<string, Rule>> = {
  'com.microsoft': MICROSOFT_RULES,
};

export function ruleFor(domain: string, opType: string): Rule | undefined {
  if (isAiOnnx(domain)) return Object.prototype.hasOwnProperty.call(AI_ONNX, opType) ? AI_ONNX[opType] : undefined;
  const table = BY_DOMAIN[domain];
  return table && Object.prototype.hasOwnProperty.call(table, opType) ? table[opType] : undefined;
}

export function hasRule(domain: string, opType: string): boolean {
  return ruleFor(domain, opType) !== undefined;
}

/** Number of operators with a rule, per domain (for the README and the CLI). */
export function ruleCounts(): Record<string, number> {
  return { 'ai.onnx': Object.keys(AI_ONNX).length, ...Object.fromEntries(Object.entries(BY_DOMAIN).map(([d, t]) => [d, Object.keys(t).length])) };
}
