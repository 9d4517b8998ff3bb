// GenAI HEFs for the chat tests, built with the test-only HEF builder from what HailoRT's GenAI
// server looks for (hailort5-api.md §2; hailort_server/genai/{llm,vlm}/*_server.cpp): network
// groups named "prefill"/"tbt" (≤ 2 groups) or "<base_model|lora>__prefill"/"__tbt", a VLM's
// "...encoder" group whose first input is the frame, and the embedded resources hailo-config.json
// (eos_token_id, chat_template, default_generation_params, pre_process_params.kv_cache_size,
// image_pad for a VLM), tokenizer.json, embeddings.bin; speech models as speech2text_server.cpp opens
// them (WHISPER_CONFIG). Shapes are small stand-ins, not a real model's.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildHef, utf8, type HefSpec, type NetworkGroupSpec } from './hefBuilder';

export interface GenAiHefs {
  /** A Qwen2-style LLM: groups prefill + tbt, full config. */
  llm: string;
  /** An LLM with LoRA adapters: base_model__prefill/__tbt and coder__prefill/__tbt. */
  lora: string;
  /** A VLM: qwen2vl_encoder (frame 56x56x3 UINT8 NHWC) + prefill + tbt, config with image_pad. */
  vlm: string;
  /** LLM groups but no hailo-config.json (HailoRT's server cannot start it). */
  noConfig: string;
  /** A VLM whose config lacks image_pad (the server refuses it with 2). */
  vlmNoImagePad: string;
  /** A small classifier: not a GenAI HEF. */
  classifier: string;
  /** Speech-to-text HEFs for HailoRT's Speech2Text (hailort_server/genai/speech2text). */
  speech: SpeechHefs;
  all: string[];
}

export interface SpeechHefs {
  /** Hailo's Whisper-Base layout: the fixed group names (5.1) and a config in the old format (5.2 then opens the same names). */
  whisper: string;
  /** Group names ending in encoder/decoder and the full new-format config (what 5.2 looks for); 5.1 cannot open it. */
  whisperTiny: string;
  /** Whisper-Base groups but no hailo-config.json: 5.1 opens it, 5.2's server refuses it (61). */
  noConfig: string;
  /** encoder/decoder groups, a config without chunk_size_seconds (5.2's server refuses it with 2). */
  partialConfig: string;
}

/**
 * The keys and values speech2text_server.cpp (v5.2.0) reads from a Whisper HEF's hailo-config.json:
 * the token ids are Whisper's own (the server's constants for the old format: 50258
 * <|startoftranscript|>, 50359 <|transcribe|>, 50358 <|translate|>, 50364 <|0.00|>, 50257
 * <|endoftext|>, 50259 <|en|> … 50357 <|su|>), 10-second chunks, 80 mel bins.
 */
export const WHISPER_CONFIG = {
  decoder_start_token_id: 50258,
  task_transcribe_token_id: 50359,
  task_translate_token_id: 50358,
  timestamp_begin_token_id: 50364,
  eos_token_id: 50257,
  first_language_token_id: 50259,
  last_language_token_id: 50357,
  chunk_size_seconds: 10,
  num_mel_bins: 80,
  n_audio_ctx: 500,
  repetition_penalty_window_size: 16,
  repetition_penalty_default_value: 1.5,
  special_tokens_ids_to_suppress: [50257, 50358, 50359, 50360, 50361, 50362],
  decoder_ordered_outputs_names__embeddings: ['conv49', 'conv50', 'conv51', 'conv52'],
};

/** The first Whisper HEFs' config: the key 5.2 takes as "the old format" (OLD_HEF_CONFIG_JSON_PARSING_KEY) with the server's fixed output names. */
export const WHISPER_OLD_CONFIG = {
  embeddings_output_layers_names: [
    'base-whisper-decoder-10s-out-seq-64/conv49',
    'base-whisper-decoder-10s-out-seq-64/conv50',
    'base-whisper-decoder-10s-out-seq-64/conv51',
    'base-whisper-decoder-10s-out-seq-64/conv52',
  ],
};

export const LLM_CONFIG = {
  eos_token_id: 151645,
  chat_template: "{% for message in messages %}<|im_start|>{{ message['role'] }}\n{{ message['content'] }}<|im_end|>\n{% endfor %}<|im_start|>assistant\n",
  default_generation_params: { max_new_tokens: 200, temperature: 0.7, top_p: 0.8, top_k: 20, repetition_penalty: 1.1, do_sample: true },
  pre_process_params: { kv_cache_size: 1024 },
};

export const VLM_CONFIG = { ...LLM_CONFIG, image_pad: 151655, pre_process_params: { kv_cache_size: 2048 } };

/** The fixture VLM's frame: the encoder's first input. */
export const VLM_FRAME = { shape: [56, 56, 3] as [number, number, number], size: 56 * 56 * 3 };

function group(name: string, inShape: [number, number, number], outShape: [number, number, number], format = 3): NetworkGroupSpec {
  return {
    name,
    inputs: [{ name: `${name}/input_layer1`, shape: inShape, format, dataBytes: format === 3 ? 2 : 1, zp: 0, scale: 1 }],
    outputs: [{ name: `${name}/output_layer1`, shape: outShape, format: 2, zp: 0, scale: 0.01 }],
  };
}

function resources(config: object | undefined) {
  return [
    ...(config ? [{ name: 'hailo-config.json', data: utf8(JSON.stringify(config)) }] : []),
    { name: 'tokenizer.json', data: utf8(JSON.stringify({ version: '1.0', model: { type: 'BPE', vocab: { hello: 0, world: 1 } } })) },
    { name: 'embeddings.bin', data: new Uint8Array(512).fill(3) },
  ];
}

function spec(groups: NetworkGroupSpec[], config: object | undefined): HefSpec {
  return { version: 3, hwArch: 103, sdk: [5, 1, 0], ccwsSize: 512, networkGroups: groups, resources: resources(config) };
}

const prefill = (name: string) => group(name, [1, 16, 64], [1, 1, 256]);
const tbt = (name: string) => group(name, [1, 1, 64], [1, 1, 256]);
const encoder = (name: string) => group(name, VLM_FRAME.shape, [1, 16, 64], 1);

export async function writeGenAiHefs(dir: string): Promise<GenAiHefs> {
  const write = async (file: string, s: HefSpec) => {
    const path = join(dir, file);
    writeFileSync(path, await buildHef(s));
    return path;
  };
  const llm = await write('qwen2-llm.hef', spec([prefill('prefill'), tbt('tbt')], LLM_CONFIG));
  const lora = await write(
    'qwen2-lora.hef',
    spec([prefill('base_model__prefill'), tbt('base_model__tbt'), prefill('coder__prefill'), tbt('coder__tbt')], LLM_CONFIG),
  );
  const vlm = await write('qwen2vl-vlm.hef', spec([encoder('qwen2vl_encoder'), prefill('prefill'), tbt('tbt')], VLM_CONFIG));
  const noConfig = await write('llm-no-config.hef', spec([prefill('prefill'), tbt('tbt')], undefined));
  const vlmNoImagePad = await write('vlm-no-image-pad.hef', spec([encoder('qwen2vl_encoder'), prefill('prefill'), tbt('tbt')], LLM_CONFIG));
  const classifier = await write('classifier.hef', {
    version: 3,
    hwArch: 103,
    ccwsSize: 256,
    networkGroups: [group('efficientnet_lite0', [224, 224, 3], [1, 1, 1000], 1)],
  });
  const whisperGroups = (enc: string, dec: string) => [group(enc, [1, 1000, 80], [1, 500, 512]), group(dec, [1, 64, 512], [1, 64, 1024])];
  const speech: SpeechHefs = {
    whisper: await write('whisper-base.hef', spec(whisperGroups('base-whisper-encoder-10s', 'base-whisper-decoder-10s-out-seq-64'), WHISPER_OLD_CONFIG)),
    whisperTiny: await write('whisper-tiny.hef', spec(whisperGroups('whisper_tiny_encoder', 'whisper_tiny_decoder'), WHISPER_CONFIG)),
    noConfig: await write('whisper-no-config.hef', spec(whisperGroups('base-whisper-encoder-10s', 'base-whisper-decoder-10s-out-seq-64'), undefined)),
    partialConfig: await write(
      'whisper-partial-config.hef',
      spec(whisperGroups('whisper_small_encoder', 'whisper_small_decoder'), { ...WHISPER_CONFIG, chunk_size_seconds: undefined }),
    ),
  };
  const all = [llm, lora, vlm, noConfig, vlmNoImagePad, classifier, ...Object.values(speech)];
  return { llm, lora, vlm, noConfig, vlmNoImagePad, classifier, speech, all };
}

/** Everything a chat test needs: GenAI HEFs, their facts, the shim built against the fake. */
export interface GenAiSetup {
  dir: string;
  hefs: GenAiHefs;
  facts: string;
  /** Unset when the setup was made without one (`withShim` false). */
  shim: import('../../server/src/processes/device/nativeBuild').ShimLocation;
  /** Environment for a worker or CLI on the fake (shim + library + facts; fast tokens unless overridden). */
  env(extra?: Record<string, string>): Record<string, string>;
  cleanup(): void;
}

export async function genaiSetup(name: string, version = '5.2.0', withShim = true): Promise<GenAiSetup> {
  const { fakeEnv, fakeShim, tempDir, writeFacts } = await import('../fakes/fakeHailort');
  const { rmSync } = await import('node:fs');
  const dir = tempDir(name);
  const hefs = await writeGenAiHefs(dir);
  const facts = join(dir, 'facts.tsv');
  await writeFacts(hefs.all, facts);
  const shim = withShim ? await fakeShim(version) : { shimPath: '', libraryPath: '', hailortVersion: version };
  return {
    dir,
    hefs,
    facts,
    shim,
    env: (extra = {}) => ({
      HAILO_TOOLS_SHIM: shim.shimPath,
      HAILO_TOOLS_HAILORT_LIBRARY: shim.libraryPath,
      ...fakeEnv(facts, { FAKE_HAILORT_TOKENS_PER_S: '1000', FAKE_HAILORT_PREFILL_MS: '5', ...extra }),
    }),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
