// Generator parameters checked against the ranges HailoRT enforces (llm.cpp:553-565, "2 otherwise":
// temperature > 0, top_p in [0, 1], top_k ≥ 1, frequency_penalty ≠ 0) and the C++ types they
// travel in (top_k, max tokens and seed are uint32_t; the floats are float32). Pure: the webview's
// form, the CLI and the worker use the same rules, so a value HailoRT would refuse never reaches it.
import type { GeneratorParams } from '../device/protocol';

export type ParamName = keyof GeneratorParams;

export interface ParamRule {
  name: ParamName;
  label: string;
  /** What HailoRT accepts, in words (shown beside the field). */
  range: string;
  kind: 'float' | 'int' | 'bool';
}

const UINT32_MAX = 4294967295;
/** HAILO_RANDOM_SEED (hailort.h): "a random seed will be used". */
export const RANDOM_SEED = UINT32_MAX;

export const PARAM_RULES: ParamRule[] = [
  { name: 'temperature', label: 'Temperature', range: '> 0', kind: 'float' },
  { name: 'topP', label: 'Top p', range: '0 … 1', kind: 'float' },
  { name: 'topK', label: 'Top k', range: 'integer ≥ 1', kind: 'int' },
  { name: 'frequencyPenalty', label: 'Frequency penalty', range: '≠ 0 (1 = none)', kind: 'float' },
  { name: 'maxTokens', label: 'Max tokens', range: `integer 1 … ${UINT32_MAX}`, kind: 'int' },
  { name: 'doSample', label: 'Sample', range: 'on: sampling, off: greedy', kind: 'bool' },
  { name: 'seed', label: 'Seed', range: `integer 0 … ${UINT32_MAX} (${UINT32_MAX} = random)`, kind: 'int' },
];

/** Why a value is refused, or undefined when HailoRT accepts it. */
export function paramError(name: ParamName, value: unknown): string | undefined {
  if (name === 'doSample') return typeof value === 'boolean' ? undefined : 'Sample must be on or off';
  if (typeof value !== 'number' || !Number.isFinite(value)) return `${label(name)} must be a number`;
  switch (name) {
    case 'temperature':
      return value > 0 ? undefined : 'Temperature must be greater than 0 (HailoRT refuses 0 and below with status 2)';
    case 'topP':
      return value >= 0 && value <= 1 ? undefined : 'Top p must be between 0 and 1 (HailoRT refuses other values with status 2)';
    case 'frequencyPenalty':
      return value !== 0 ? undefined : 'Frequency penalty must not be 0 (HailoRT refuses 0 with status 2; 1 means no penalty)';
    case 'topK':
      return Number.isInteger(value) && value >= 1 && value <= UINT32_MAX
        ? undefined
        : `Top k must be a whole number from 1 to ${UINT32_MAX} (HailoRT refuses 0 with status 2)`;
    case 'maxTokens':
      return Number.isInteger(value) && value >= 1 && value <= UINT32_MAX ? undefined : `Max tokens must be a whole number from 1 to ${UINT32_MAX}`;
    case 'seed':
      return Number.isInteger(value) && value >= 0 && value <= UINT32_MAX ? undefined : `Seed must be a whole number from 0 to ${UINT32_MAX}`;
  }
  return undefined;
}

function label(name: ParamName): string {
  return PARAM_RULES.find((r) => r.name === name)?.label ?? name;
}

/** Every error of a parameter set (unset fields are the model's defaults and always fine). */
export function validateParams(params: GeneratorParams): { name: ParamName; error: string }[] {
  const errors: { name: ParamName; error: string }[] = [];
  for (const rule of PARAM_RULES) {
    const v = params[rule.name];
    if (v === undefined) continue;
    const e = paramError(rule.name, v);
    if (e) errors.push({ name: rule.name, error: e });
  }
  return errors;
}

/** Reads one form field's text (the webview sends strings); undefined = empty = the default. */
export function parseParam(name: ParamName, text: string): { value?: number | boolean; error?: string } {
  const t = text.trim();
  if (t === '') return {};
  if (name === 'doSample') {
    if (/^(true|on|yes|1)$/i.test(t)) return { value: true };
    if (/^(false|off|no|0)$/i.test(t)) return { value: false };
    return { error: 'Sample must be on or off' };
  }
  const v = Number(t);
  const error = paramError(name, v);
  return error ? { error } : { value: v };
}

/** The bit mask and values hts_genai_generate takes (1 temperature … 64 seed). */
export function paramMask(p: GeneratorParams): number {
  let mask = 0;
  if (p.temperature !== undefined) mask |= 1;
  if (p.topP !== undefined) mask |= 2;
  if (p.topK !== undefined) mask |= 4;
  if (p.frequencyPenalty !== undefined) mask |= 8;
  if (p.maxTokens !== undefined) mask |= 16;
  if (p.doSample !== undefined) mask |= 32;
  if (p.seed !== undefined) mask |= 64;
  return mask;
}
