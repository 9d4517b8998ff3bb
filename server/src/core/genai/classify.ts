// Is a HEF an LLM or VLM that HailoRT's GenAI API can run, and how sure are we? Decided from what
// HailoRT's GenAI server looks for (docs/research/hailort5-api.md#genai; hailort_server/genai/llm/llm_server.cpp,
// vlm/vlm_server.cpp, utils.hpp), read with our HEF reader before anything is opened:
//  * the prefill network group: "prefill" when the HEF has ≤ 2 groups, else
//    "base_model__prefill" or "<lora>__prefill" (llm_server.cpp:46-56) — so LoRA adapters are the
//    X of every "X__prefill" group except base_model; "…tbt" groups are optional;
//  * a VLM: a group whose name ends in "encoder"; its first input is the frame (vlm_server.cpp:285-294);
//  * hailo-config.json embedded, with eos_token_id (and image_pad for a VLM), else the server refuses
//    the model; tokenizer.json / embeddings.bin are further evidence.
// Pure: takes the report and the config's text.
import { readHefFile, readResource, withFileSource, type HefReport } from '../hef';
import type { GeneratorParams } from '../device/protocol';
import { parseFileJson } from '../common/json';

export type GenAiConfidence = 'certain' | 'likely' | 'unlikely';

export interface GenAiFrameInput {
  group: string;
  stream: string;
  shape: [number, number, number];
  order: string;
  type: string;
  frameSize: number;
}

export interface GenAiConfig {
  eosTokenId?: number;
  imagePad?: number;
  kvCacheSize?: number;
  chatTemplate: boolean;
  defaults: GeneratorParams;
}

export interface GenAiClass {
  /** What HailoRT would be asked to create; null: not a GenAI HEF. */
  kind: 'llm' | 'vlm' | null;
  /**
   * certain: the groups and the config are what HailoRT's GenAI server needs; likely: the groups
   * fit but something the server needs is missing or unreadable (it will refuse); unlikely: no prefill group.
   */
  confidence: GenAiConfidence;
  /** One sentence for the user. */
  summary: string;
  evidence: string[];
  /** What HailoRT's server would refuse (empty when confidence is certain). */
  problems: string[];
  /** The base model's prefill group, as HailoRT will look it up. */
  prefillGroup?: string;
  /** LoRA adapters the HEF carries. */
  loras: string[];
  /** A VLM's frame as our reader sees the encoder's first input (the device reports the same). */
  frame?: GenAiFrameInput;
  config?: GenAiConfig;
}

export const GENAI_RESOURCES = ['hailo-config.json', 'tokenizer.json', 'embeddings.bin', 'rope_theta_data.bin'];

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The fields of hailo-config.json the GenAI server reads (llm_server.cpp:108-190). */
export function parseGenAiConfig(text: string): GenAiConfig | { error: string } {
  let json: unknown;
  try {
    json = parseFileJson(text, 'hailo-config.json');
  } catch (err) {
    return { error: (err as Error).message };
  }
  if (!json || typeof json !== 'object' || Array.isArray(json)) return { error: 'hailo-config.json is not a JSON object' };
  const o = json as Record<string, unknown>;
  const d = (o.default_generation_params && typeof o.default_generation_params === 'object' ? o.default_generation_params : {}) as Record<string, unknown>;
  const p = (o.pre_process_params && typeof o.pre_process_params === 'object' ? o.pre_process_params : {}) as Record<string, unknown>;
  const defaults: GeneratorParams = {};
  if (num(d.temperature) !== undefined) defaults.temperature = num(d.temperature);
  if (num(d.top_p) !== undefined) defaults.topP = num(d.top_p);
  if (num(d.top_k) !== undefined) defaults.topK = num(d.top_k);
  if (num(d.repetition_penalty) !== undefined) defaults.frequencyPenalty = num(d.repetition_penalty);
  if (num(d.max_new_tokens) !== undefined) defaults.maxTokens = num(d.max_new_tokens);
  if (typeof d.do_sample === 'boolean') defaults.doSample = d.do_sample;
  return {
    eosTokenId: num(o.eos_token_id),
    imagePad: num(o.image_pad),
    kvCacheSize: num(p.kv_cache_size),
    chatTemplate: typeof o.chat_template === 'string' && o.chat_template.length > 0,
    defaults,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** Classifies a read HEF; `configText` is its hailo-config.json (undefined: absent or unreadable, `configError` says which). */
export function classifyGenAi(report: HefReport, configText?: string, configError?: string): GenAiClass {
  const groups = report.networkGroups.map((g) => g.name);
  const evidence: string[] = [];
  const problems: string[] = [];
  const prefills = groups.filter((g) => g.endsWith('prefill'));
  const encoder = report.networkGroups.find((g) => g.name.endsWith('encoder'));
  const tbts = groups.filter((g) => g.endsWith('tbt'));
  const resources = report.externalResources.map((r) => r.name);
  const loras = groups
    .filter((g) => g.endsWith('__prefill'))
    .map((g) => g.slice(0, -'__prefill'.length))
    .filter((x) => x && x !== 'base_model');
  const base: Omit<GenAiClass, 'kind' | 'confidence' | 'summary'> = { evidence, problems, loras };

  if (prefills.length === 0) {
    const hasConfig = resources.includes('hailo-config.json');
    evidence.push(`network groups: ${groups.join(', ') || 'none'} — none is a prefill group`);
    const summary = hasConfig
      ? `This HEF embeds hailo-config.json but has no prefill network group: it is a vision encoder for llama.cpp's mtmd loader or another single model, not an LLM or VLM for HailoRT's GenAI API.`
      : `This HEF is not an LLM or VLM for HailoRT's GenAI API: none of its ${plural(groups.length, 'network group')} (${groups.join(', ') || 'none'}) is a prefill group.`;
    return { ...base, kind: null, confidence: 'unlikely', summary };
  }

  const kind: 'llm' | 'vlm' = encoder ? 'vlm' : 'llm';
  // HailoRT's lookup (llm_server.cpp:46-56): by the group count, not by what exists.
  const prefillGroup = kind === 'vlm' ? prefills[0] : groups.length <= 2 ? 'prefill' : 'base_model__prefill';
  evidence.push(`prefill network group${prefills.length > 1 ? 's' : ''}: ${prefills.join(', ')}`);
  if (tbts.length) evidence.push(`token-by-token group${tbts.length > 1 ? 's' : ''}: ${tbts.join(', ')}`);
  if (kind === 'llm' && !groups.includes(prefillGroup)) {
    problems.push(`HailoRT looks for the network group '${prefillGroup}' in a HEF with ${plural(groups.length, 'group')}, and this HEF has none of that name`);
  }
  let frame: GenAiFrameInput | undefined;
  if (encoder) {
    const input = encoder.inputs[0];
    evidence.push(`vision encoder group: ${encoder.name}`);
    if (input) {
      frame = { group: encoder.name, stream: input.name, shape: input.shape, order: input.order, type: input.type, frameSize: input.frameSize };
      evidence.push(`frame: ${input.shape.join('x')} ${input.type} ${input.order} (${input.frameSize} bytes), the encoder's first input`);
    } else problems.push(`the encoder group ${encoder.name} has no input`);
  }
  const found = GENAI_RESOURCES.filter((r) => resources.includes(r));
  if (found.length) evidence.push(`embedded: ${found.join(', ')}`);

  let config: GenAiConfig | undefined;
  if (configText === undefined) {
    problems.push(configError ?? "hailo-config.json is not embedded; HailoRT's GenAI server reads the model's eos_token_id from it");
  } else {
    const parsed = parseGenAiConfig(configText);
    if ('error' in parsed) problems.push(parsed.error);
    else {
      config = parsed;
      if (parsed.eosTokenId === undefined) problems.push("hailo-config.json has no eos_token_id (HailoRT's server refuses the model: status 2)");
      if (kind === 'vlm' && parsed.imagePad === undefined)
        problems.push("hailo-config.json has no image_pad, which a VLM needs (HailoRT's server refuses it: status 2)");
      if (parsed.kvCacheSize !== undefined) evidence.push(`context: ${parsed.kvCacheSize} tokens (pre_process_params.kv_cache_size)`);
    }
  }
  if (loras.length) evidence.push(`LoRA adapters: ${loras.join(', ')}`);
  const what = kind === 'vlm' ? 'a VLM (vision language model)' : 'an LLM';
  const confidence: GenAiConfidence = problems.length ? 'likely' : 'certain';
  const summary =
    confidence === 'certain'
      ? `This HEF is ${what} for HailoRT's GenAI API: it has the network groups and the hailo-config.json HailoRT's GenAI server needs.`
      : `This HEF looks like ${what} (by its network groups), but HailoRT's GenAI server will refuse it: ${problems[0]}.`;
  return { ...base, kind, confidence, summary, prefillGroup, frame, config };
}

/** A HEF's embedded hailo-config.json as text, or why it could not be read (both undefined: not embedded). */
export async function readHailoConfig(path: string, report: HefReport): Promise<{ text?: string; error?: string }> {
  if (!report.externalResources.some((r) => r.name === 'hailo-config.json')) return {};
  try {
    const got = await withFileSource(path, (src) => readResource(src, report.externalResources, 'hailo-config.json', 4 << 20));
    return 'bytes' in got ? { text: new TextDecoder('utf-8').decode(got.bytes) } : { error: got.error };
  } catch (err) {
    return { error: `hailo-config.json could not be read: ${(err as Error).message}` };
  }
}

/** Reads a HEF (without hashing the whole file: a GenAI HEF is gigabytes) and classifies it. */
export async function classifyGenAiFile(path: string): Promise<{ report: HefReport; genai: GenAiClass }> {
  const report = await readHefFile(path, { verify: false, verifyResources: false });
  const { text, error } = await readHailoConfig(path, report);
  return { report, genai: classifyGenAi(report, text, error) };
}
