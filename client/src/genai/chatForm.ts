// The chat page's form and figures, pure (no vscode import): the parameter fields read with
// HailoRT's ranges (the same rules as the CLI and the worker), and the line under each answer.
import { parseParam, PARAM_RULES, type Answer, type GeneratorParams, type ParamName } from '@hailo/api';

/** The figures line under an answer: tokens, time to first token, tokens/s, and why it ended early. */
export function answerInfo(a: Answer): string {
  const parts = [`${a.stats.tokens} token${a.stats.tokens === 1 ? '' : 's'}`];
  if (a.host.firstTokenMs !== null) parts.push(`first token ${a.host.firstTokenMs.toFixed(0)} ms`);
  if (a.host.tokensPerSecond !== null) parts.push(`${a.host.tokensPerSecond.toFixed(1)} tokens/s`);
  if (a.reason === 'max-tokens') parts.push('stopped at max tokens');
  else if (a.reason === 'aborted') parts.push('stopped');
  if (a.error) parts.push(a.error.sentence);
  return parts.join(' · ');
}

/** The webview's parameter fields → GeneratorParams, or each field's error (HailoRT's ranges). */
export function readParams(raw: unknown): { params: GeneratorParams; errors: Record<string, string> } {
  const fields = raw && typeof raw === 'object' ? (raw as Record<string, unknown>) : {};
  const params: GeneratorParams = {};
  const errors: Record<string, string> = {};
  for (const rule of PARAM_RULES) {
    const v = fields[rule.name];
    if (rule.kind === 'bool') {
      if (typeof v === 'boolean') params.doSample = v;
      continue;
    }
    const r = parseParam(rule.name as ParamName, typeof v === 'string' ? v : '');
    if (r.error) errors[rule.name] = r.error;
    else if (r.value !== undefined) (params as Record<string, number | boolean>)[rule.name] = r.value;
  }
  return { params, errors };
}
