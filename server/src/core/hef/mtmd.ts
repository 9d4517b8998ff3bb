// The contract llama.cpp's mtmd Hailo loader (HailoVisionEncoder, Qwen3-VL vision tower) puts on
// a HEF, checked without a device (docs/research/mtmd-contract.md#contract plus the gaps listed there).
// Each rule carries the text llama.cpp would print, where it prints one, and how sure we are:
// `read` = the check is in the loader's code; `inferred` = it follows from the code paths but the
// loader does not test it by name.
import type { HefReport, VStreamInfo } from './model';
import { readResource } from './resources';
import type { ByteSource } from './source';
import { RUNTIME_LINES, verdictFor, verdictSentence } from './verdict';
import { parseFileJson } from '../common/json';

export const HAILO_CONFIG = 'hailo-config.json';
/** Slot keys in `encoder_output_layers_names_suffixes`, in slot order. */
export const MTMD_SLOTS = ['image_embeddings', 'deepstack_layer_1', 'deepstack_layer_2', 'deepstack_layer_3'] as const;
export const MTMD_OUTPUTS = 4;

export type RuleId =
  | 'hef-opens'
  | 'arch-hailo10h'
  | 'four-outputs'
  | 'one-input'
  | 'outputs-same-shape'
  | 'config-embedded'
  | 'config-parses'
  | 'patch-size'
  | 'spatial-merge-size'
  | 'suffixes-all-slots'
  | 'suffixes-distinct'
  | 'outputs-have-suffix'
  | 'suffixes-resolve'
  | 'input-uint8-rgb'
  | 'input-divisible'
  | 'token-grid'
  | 'text-model-width';

export interface MtmdRule {
  id: RuleId;
  title: string;
  /** true pass, false fail, null not checked (a rule it depends on failed; the detail says which). */
  pass: boolean | null;
  detail: string;
  /** What llama.cpp prints when the rule fails, where it has its own text. */
  llamaError?: string;
  confidence: 'read' | 'inferred';
}

export interface MtmdResult {
  pass: boolean;
  /** The network group checked (mtmd's InferModel sees the HEF's first). */
  networkGroup?: string;
  rules: MtmdRule[];
  /** The parsed hailo-config.json, when it parsed. */
  config?: unknown;
  /** Numbers the contract implies, for display (tokens per image, embedding width …). */
  derived: Record<string, number>;
}

export interface MtmdOptions {
  /** The text model's n_embd_inp (`hailo.mtmd.textModelWidth`); checked against 4 × features. */
  textModelWidth?: number;
  /** Path of a hailo-config.json found beside the HEF (it does not count; we say so). */
  configBesideHef?: string;
  /** The HEF path, for llama.cpp's messages that quote it. */
  hefPath?: string;
}

/** What the loader gets from `get_external_resources("hailo-config.json")`. */
export type ConfigBytes = { bytes: Uint8Array } | { error: string; missing?: boolean };

const TITLES: Record<RuleId, string> = {
  'hef-opens': 'HailoRT opens the HEF',
  'arch-hailo10h': 'compiled for a Hailo-10H-compatible arch',
  'four-outputs': 'exactly 4 outputs',
  'one-input': 'exactly one input',
  'outputs-same-shape': 'outputs share one shape (h, w, features)',
  'config-embedded': 'embeds hailo-config.json',
  'config-parses': 'hailo-config.json parses',
  'patch-size': 'patch_size is a non-negative integer',
  'spatial-merge-size': 'spatial_merge_size is a non-negative integer',
  'suffixes-all-slots': 'encoder_output_layers_names_suffixes names all 4 slots',
  'suffixes-distinct': 'slot suffixes are distinct',
  'outputs-have-suffix': 'every output name (after its first "/") equals exactly one suffix',
  'suffixes-resolve': 'every suffix resolves to an output',
  'input-uint8-rgb': 'input is uint8 with 3 features (frame = W·H·3 bytes)',
  'input-divisible': 'input sides are multiples of patch_size × spatial_merge_size',
  'token-grid': 'out.h = H / stride and out.w = W / stride',
  'text-model-width': '4 × features equals the text model width',
};

/** Reads hailo-config.json from the HEF (bounded) and checks the contract. */
export async function checkMtmdSource(src: ByteSource, report: HefReport, options: MtmdOptions = {}): Promise<MtmdResult> {
  const config = await readResource(src, report.externalResources, HAILO_CONFIG, 1 << 20);
  return checkMtmd(report, config, options);
}

/** Pure contract check over a report and the config resource as the loader would get it. */
export function checkMtmd(report: HefReport, config: ConfigBytes, options: MtmdOptions = {}): MtmdResult {
  const rules: MtmdRule[] = [];
  const derived: Record<string, number> = {};
  const hefPath = options.hefPath ?? report.file;
  const rule = (id: RuleId, pass: boolean | null, detail: string, confidence: MtmdRule['confidence'], llamaError?: string) => {
    const r: MtmdRule = { id, title: TITLES[id], pass, detail, confidence };
    if (pass === false && llamaError) r.llamaError = llamaError;
    rules.push(r);
    return pass === true;
  };
  const skip = (id: RuleId, because: string, confidence: MtmdRule['confidence'] = 'read') => rule(id, null, `not checked: ${because}`, confidence);

  // 1. HailoRT must open it: the loader calls create_infer_model(MemoryView) on a Hailo-10H, i.e.
  // Hef::create from a buffer in HailoRT 5.x — judged by that line's own checks (verdict.ts).
  // Resources are not read there (the config rule below covers hailo-config.json).
  const line5 = RUNTIME_LINES.find((l) => l.id === '5.1-5.2')!;
  const verdict = verdictFor(report, line5, 'buffer');
  const opens = verdict.outcome === 'loads';
  rule(
    'hef-opens',
    opens,
    opens
      ? `Hef::create from a buffer succeeds in ${line5.label}${verdict.tolerated.length ? `, although the file has ${verdict.tolerated.join('; and ')}` : ': header, checksums, body, structure and extensions pass'}`
      : verdictSentence(verdict),
    'read',
    `create_infer_model failed for '${hefPath}'`,
  );

  const ng = report.networkGroups[0];
  const devices = report.header?.hwArch.compatibleDevices ?? [];
  if (report.header) {
    rule(
      'arch-hailo10h',
      devices.includes('HAILO10H'),
      `hw_arch ${report.header.hwArch.id} (${report.header.hwArch.name}) runs on ${devices.join(', ') || 'no known device'}`,
      'read',
      'configure failed (HAILO_HEF_NOT_COMPATIBLE_WITH_DEVICE)',
    );
  } else {
    skip('arch-hailo10h', 'the HEF header was not read');
  }

  const outputs = ng?.outputs ?? [];
  const inputs = ng?.inputs ?? [];
  const groupNote = report.networkGroups.length > 1 ? ` (network group '${ng!.name}', the first of ${report.networkGroups.length})` : '';
  if (!ng) {
    for (const id of ['four-outputs', 'one-input', 'outputs-same-shape'] as const) skip(id, 'no network group was read');
  } else {
    rule(
      'four-outputs',
      outputs.length === MTMD_OUTPUTS,
      `got ${outputs.length}, mtmd requires ${MTMD_OUTPUTS}${groupNote}${outputs.length ? `: ${outputs.map((o) => o.name).join(', ')}` : ''}`,
      'read',
      `HEF must have exactly 4 outputs, but got ${outputs.length}`,
    );
    rule(
      'one-input',
      inputs.length === 1,
      inputs.length === 1
        ? `'${inputs[0].name}'`
        : `got ${inputs.length}${inputs.length ? ` (${inputs.map((i) => i.name).join(', ')})` : ''}; the loader calls the unnamed input()`,
      'inferred',
      'input() failed',
    );
    if (outputs.length === 0) {
      skip('outputs-same-shape', 'there are no outputs');
    } else {
      const first = outputs[0];
      const odd = outputs.find((o) => !sameShape(o, first));
      rule(
        'outputs-same-shape',
        !odd,
        outputs.map((o) => `${o.name} (${o.shape.join(', ')})`).join('; '),
        'read',
        odd ? `output shape mismatch at '${odd.name}'` : undefined,
      );
    }
  }

  // 8-11. hailo-config.json, embedded as an external resource.
  let cfg: Record<string, unknown> | undefined;
  let patch: number | undefined;
  let merge: number | undefined;
  let suffixes: Map<string, string> | undefined; // slot → suffix
  if ('error' in config) {
    const beside = options.configBesideHef
      ? ` A ${HAILO_CONFIG} beside the HEF (${options.configBesideHef}) does not count: the loader reads only the embedded resource.`
      : '';
    rule(
      'config-embedded',
      false,
      config.missing ? `absent from the HEF (no external resource named '${HAILO_CONFIG}').${beside}` : `${config.error}.${beside}`,
      'read',
      config.missing ? `HEF is missing required external resource '${HAILO_CONFIG}'` : `Resource '${HAILO_CONFIG}' checksum does not match`,
    );
    for (const id of ['config-parses', 'patch-size', 'spatial-merge-size', 'suffixes-all-slots', 'suffixes-distinct'] as const)
      skip(id, `${HAILO_CONFIG} is not available`);
  } else {
    rule('config-embedded', true, `${config.bytes.length.toLocaleString('en-US')} bytes`, 'read');
    const parsed = parseConfig(config.bytes);
    if ('error' in parsed) {
      rule('config-parses', false, parsed.error, 'read', `failed to parse ${HAILO_CONFIG}: ${parsed.error}`);
      for (const id of ['patch-size', 'spatial-merge-size', 'suffixes-all-slots', 'suffixes-distinct'] as const) skip(id, `${HAILO_CONFIG} does not parse`);
    } else if (!isObject(parsed.value)) {
      rule(
        'config-parses',
        false,
        `top level is ${jsonType(parsed.value)}, not an object`,
        'read',
        `[json.exception.type_error.304] cannot use at() with ${jsonType(parsed.value)}`,
      );
      for (const id of ['patch-size', 'spatial-merge-size', 'suffixes-all-slots', 'suffixes-distinct'] as const)
        skip(id, `${HAILO_CONFIG} is not a JSON object`);
    } else {
      cfg = parsed.value;
      rule('config-parses', true, `keys: ${Object.keys(cfg).sort().join(', ') || '(none)'}`, 'read');
      patch = uintRule('patch-size', 'patch_size', cfg, rule);
      merge = uintRule('spatial-merge-size', 'spatial_merge_size', cfg, rule);
      suffixes = slotsRule(cfg, rule);
    }
  }

  // 15. Stream names ↔ suffixes (the loader strips up to and including the first '/').
  if (suffixes && suffixes.size === MTMD_SLOTS.length && ng) {
    const bySuffix = new Map<string, string>();
    for (const [slot, s] of suffixes) if (!bySuffix.has(s)) bySuffix.set(s, slot);
    const unmatched = outputs.filter((o) => !bySuffix.has(streamSuffix(o.name)));
    rule(
      'outputs-have-suffix',
      outputs.length > 0 && unmatched.length === 0,
      outputs.length === 0
        ? 'there are no outputs'
        : outputs
            .map((o) => `${o.name} → ${bySuffix.has(streamSuffix(o.name)) ? bySuffix.get(streamSuffix(o.name)) : `'${streamSuffix(o.name)}' (no slot)`}`)
            .join('; '),
      'read',
      unmatched.length ? `HEF output stream '${unmatched[0].name}' has no entry in ${HAILO_CONFIG}` : undefined,
    );
    const names = new Set(outputs.map((o) => streamSuffix(o.name)));
    const missing = [...suffixes].filter(([, s]) => !names.has(s));
    rule(
      'suffixes-resolve',
      missing.length === 0,
      missing.length === 0 ? `all ${suffixes.size} resolve` : `unmatched: ${missing.map(([slot, s]) => `${slot} = '${s}'`).join(', ')}`,
      'inferred',
    );
  } else {
    const because = !ng ? 'no network group was read' : `the slot suffixes are not all known`;
    skip('outputs-have-suffix', because);
    skip('suffixes-resolve', because, 'inferred');
  }

  // 1.4 Input: uint8 RGB interleaved, sides multiples of the stride, token grid = output grid.
  const input = inputs.length === 1 ? inputs[0] : undefined;
  if (!input) {
    for (const id of ['input-uint8-rgb', 'input-divisible', 'token-grid'] as const)
      skip(id, inputs.length ? 'there is more than one input' : 'there is no input', 'inferred');
  } else {
    const [H, W, F] = input.shape;
    const want = W * H * 3;
    const ok = input.type === 'UINT8' && F === 3 && input.frameSize === want;
    rule(
      'input-uint8-rgb',
      ok,
      `'${input.name}' ${input.type} ${input.order} ${H}x${W}x${F}: frame ${input.frameSize.toLocaleString('en-US')} bytes, mtmd hands over W·H·3 = ${want.toLocaleString('en-US')}`,
      'inferred',
      `image does not fit the HEF input (${want} bytes, expected ${W}x${H}); not prefetched`,
    );
    derived.inputWidth = W;
    derived.inputHeight = H;
    const stride = patch !== undefined && merge !== undefined ? patch * merge : undefined;
    if (stride === undefined) {
      skip('input-divisible', 'patch_size and spatial_merge_size are not both known', 'inferred');
      skip('token-grid', 'patch_size and spatial_merge_size are not both known', 'inferred');
    } else if (stride === 0) {
      rule('input-divisible', false, `stride = patch_size × spatial_merge_size = ${patch} × ${merge} = 0`, 'inferred');
      rule('token-grid', false, 'stride is 0; the token grid is undefined', 'inferred');
    } else {
      derived.stride = stride;
      rule(
        'input-divisible',
        W % stride === 0 && H % stride === 0,
        `input ${W}x${H} (W x H), stride ${patch} × ${merge} = ${stride}${W % stride || H % stride ? `: ${W % stride ? `W leaves ${W % stride}` : ''}${W % stride && H % stride ? ', ' : ''}${H % stride ? `H leaves ${H % stride}` : ''}` : ''}`,
        'inferred',
      );
      const nx = Math.floor(W / stride);
      const ny = Math.floor(H / stride);
      derived.imageTokens = nx * ny;
      if (outputs.length === 0) {
        skip('token-grid', 'there are no outputs', 'inferred');
      } else {
        const [oh, ow] = outputs[0].shape;
        derived.outputTokens = oh * ow;
        const gridOk = oh === ny && ow === nx;
        rule(
          'token-grid',
          gridOk,
          `outputs are ${oh}x${ow} (h x w); input ${H}x${W} / ${stride} gives ${ny}x${nx} = ${nx * ny} tokens`,
          'inferred',
          gridOk ? undefined : `HEF/model mismatch (n_tokens=${nx * ny}/${oh * ow}, n_embd_inp=…)`,
        );
      }
    }
  }

  if (outputs.length) {
    derived.featuresPerStream = outputs[0].shape[2];
    derived.nEmbdInp = outputs[0].shape[2] * MTMD_OUTPUTS;
  }
  if (options.textModelWidth !== undefined) {
    if (!outputs.length) {
      skip('text-model-width', 'there are no outputs');
    } else {
      const hefWidth = outputs[0].shape[2] * MTMD_OUTPUTS;
      rule(
        'text-model-width',
        hefWidth === options.textModelWidth,
        `HEF n_embd_inp = 4 × ${outputs[0].shape[2]} = ${hefWidth}; text model (hailo.mtmd.textModelWidth) = ${options.textModelWidth}`,
        'read',
        `mismatch between text model (n_embd_inp = ${options.textModelWidth}) and HEF (n_embd_inp = ${hefWidth}).`,
      );
    }
  }

  return { pass: rules.every((r) => r.pass === true), networkGroup: ng?.name, rules, config: cfg, derived };
}

function sameShape(a: VStreamInfo, b: VStreamInfo): boolean {
  return a.shape[0] === b.shape[0] && a.shape[1] === b.shape[1] && a.shape[2] === b.shape[2];
}

/** The part of a stream name the loader matches: everything after the first '/'. */
export function streamSuffix(name: string): string {
  const i = name.indexOf('/');
  return i < 0 ? name : name.slice(i + 1);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function jsonType(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v;
}

/** Strict JSON like nlohmann::json::parse: UTF-8 validated, a leading BOM skipped. */
export function parseConfig(bytes: Uint8Array): { value: unknown } | { error: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return { error: 'invalid UTF-8' };
  }
  try {
    return { value: parseFileJson(text, HAILO_CONFIG) };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

type RuleFn = (id: RuleId, pass: boolean | null, detail: string, confidence: MtmdRule['confidence'], llamaError?: string) => boolean;

/** `cfg.at(key).get<uint32_t>()`: nlohmann throws for a missing key or a non-number, and silently
 * wraps or truncates negatives, fractions and values ≥ 2^32 — we fail those. */
function uintRule(id: RuleId, key: string, cfg: Record<string, unknown>, rule: RuleFn): number | undefined {
  if (!(key in cfg)) {
    rule(id, false, 'missing', 'read', `[json.exception.out_of_range.403] key '${key}' not found`);
    return undefined;
  }
  const v = cfg[key];
  if (typeof v !== 'number') {
    rule(
      id,
      false,
      `${JSON.stringify(v)} is ${jsonType(v)}, not a number`,
      'read',
      `[json.exception.type_error.302] type must be number, but is ${jsonType(v)}`,
    );
    return undefined;
  }
  if (!Number.isInteger(v) || v < 0 || v > 0xffffffff) {
    rule(id, false, `${v} is not a non-negative integer below 2^32 (llama.cpp's get<uint32_t> would not fail but silently read a different value)`, 'read');
    return undefined;
  }
  rule(id, true, String(v), 'read');
  return v;
}

/** The slot → suffix map, checked as the loader reads it. */
function slotsRule(cfg: Record<string, unknown>, rule: RuleFn): Map<string, string> | undefined {
  const parentKey = 'encoder_output_layers_names_suffixes';
  const layers = cfg[parentKey];
  if (!(parentKey in cfg)) {
    rule(
      'suffixes-all-slots',
      false,
      `'${parentKey}' is missing, so all 4 slots are: missing ${MTMD_SLOTS.join(', ')}`,
      'read',
      `[json.exception.out_of_range.403] key '${parentKey}' not found`,
    );
    rule('suffixes-distinct', null, `not checked: '${parentKey}' is missing`, 'read');
    return undefined;
  }
  if (!isObject(layers)) {
    rule(
      'suffixes-all-slots',
      false,
      `'${parentKey}' is ${jsonType(layers)}, not an object`,
      'read',
      `[json.exception.type_error.304] cannot use at() with ${jsonType(layers)}`,
    );
    rule('suffixes-distinct', null, `not checked: '${parentKey}' is not an object`, 'read');
    return undefined;
  }
  const missing = MTMD_SLOTS.filter((k) => !(k in layers));
  const notString = MTMD_SLOTS.filter((k) => k in layers && typeof layers[k] !== 'string');
  const map = new Map<string, string>();
  for (const k of MTMD_SLOTS) if (typeof layers[k] === 'string') map.set(k, layers[k] as string);
  const allOk = missing.length === 0 && notString.length === 0;
  const parts: string[] = [];
  if (missing.length) parts.push(`missing ${missing.join(', ')}`);
  if (notString.length) parts.push(`not strings: ${notString.map((k) => `${k} (${jsonType(layers[k])})`).join(', ')}`);
  const firstBad = MTMD_SLOTS.find((k) => !(k in layers) || typeof layers[k] !== 'string');
  rule(
    'suffixes-all-slots',
    allOk,
    allOk ? MTMD_SLOTS.map((k) => `${k} = '${map.get(k)}'`).join(', ') : parts.join('; '),
    'read',
    firstBad === undefined
      ? undefined
      : !(firstBad in layers)
        ? `[json.exception.out_of_range.403] key '${firstBad}' not found`
        : `[json.exception.type_error.302] type must be string, but is ${jsonType(layers[firstBad])}`,
  );
  // Duplicates among the strings present (the loader stops at the first repeat, in slot order).
  const owner = new Map<string, string>();
  let dup: { slot: string; suffix: string; first: string } | undefined;
  for (const [slot, s] of map) {
    if (owner.has(s) && !dup) dup = { slot, suffix: s, first: owner.get(s)! };
    if (!owner.has(s)) owner.set(s, slot);
  }
  if (map.size === 0) {
    rule('suffixes-distinct', null, 'not checked: no slot suffix is a string', 'read');
  } else {
    rule(
      'suffixes-distinct',
      !dup,
      dup ? `${dup.slot} repeats '${dup.suffix}' of ${dup.first}: a repeat would collapse two layers onto one slot` : `${map.size} distinct`,
      'read',
      dup ? `HailoVisionEncoder: ${dup.slot} suffix '${dup.suffix}' is already used by another layer in ${HAILO_CONFIG}` : undefined,
    );
  }
  return allOk && !dup ? map : undefined;
}
