// Is a HEF a speech-to-text (Whisper) model that HailoRT's Speech2Text can run? Decided from what
// HailoRT's Speech2Text server looks for (hailort/hailort_server/genai/speech2text/
// speech2text_server.cpp, v5.1.1 and v5.2.0), read with our HEF reader before anything is opened:
//  * 5.1.x opens two fixed network groups, `base-whisper-encoder-10s` and
//    `base-whisper-decoder-10s-out-seq-64` (Hailo's Whisper-Base HEF);
//  * 5.2.0 reads hailo-config.json (required: its absence fails get_external_resources); with the
//    old `embeddings_output_layers_names` key it opens the fixed names again, else it CHECKs its
//    keys (HAILO_INVALID_ARGUMENT, status 2) and takes the groups whose names end in `encoder` and
//    `decoder` (HAILO_INTERNAL_FAILURE, 8, without one; Whisper-Base's decoder group ends in
//    `out-seq-64`, so its HEF carries the old key);
//  * a HEF with a prefill group is an LLM/VLM (classify.ts), never a speech model.
// Pure: takes the report and the config's text.
import { readHefFile, type HefReport } from '../hef';
import { readHailoConfig } from './classify';

/** The keys speech2text_server.cpp's parse_config_json CHECKs (5.2.0), in its order. */
export const SPEECH_CONFIG_KEYS = [
  'decoder_start_token_id',
  'task_transcribe_token_id',
  'task_translate_token_id',
  'timestamp_begin_token_id',
  'eos_token_id',
  'first_language_token_id',
  'last_language_token_id',
  'chunk_size_seconds',
  'num_mel_bins',
  'n_audio_ctx',
  'repetition_penalty_window_size',
  'repetition_penalty_default_value',
  'special_tokens_ids_to_suppress',
  'decoder_ordered_outputs_names__embeddings',
] as const;

/** The old config format's key; with it, 5.2.0 uses the fixed 5.1 group names. */
const OLD_CONFIG_KEY = 'embeddings_output_layers_names';
export const WHISPER_FIXED_GROUPS = { encoder: 'base-whisper-encoder-10s', decoder: 'base-whisper-decoder-10s-out-seq-64' } as const;

export interface SpeechClass {
  /** true: HailoRT's Speech2Text would be asked to create it. */
  speech: boolean;
  confidence: 'certain' | 'likely' | 'unlikely';
  summary: string;
  evidence: string[];
  /** What HailoRT would refuse, for 5.2 and later (empty when certain). */
  problems: string[];
  encoder?: string;
  decoder?: string;
  /** Seconds of audio per encoder pass (chunk_size_seconds; 10 for Hailo's Whisper-Base). */
  chunkSeconds?: number;
  /** Whether 5.1.x's fixed group names are present (5.1 opens only those). */
  opensOn51: boolean;
}

function lastWithSuffix(groups: string[], suffix: string): string | undefined {
  // get_model_name_from_suffix keeps the last match (hailort_server/genai/utils.hpp).
  let found: string | undefined;
  for (const g of groups) if (g.endsWith(suffix)) found = g;
  return found;
}

export function classifySpeech(report: HefReport, configText?: string, configError?: string): SpeechClass {
  const groups = report.networkGroups.map((g) => g.name);
  const evidence: string[] = [];
  const problems: string[] = [];
  const opensOn51 = groups.includes(WHISPER_FIXED_GROUPS.encoder) && groups.includes(WHISPER_FIXED_GROUPS.decoder);
  const not = (why: string): SpeechClass => ({
    speech: false,
    confidence: 'unlikely',
    summary: `This HEF is not a speech-to-text model for HailoRT's Speech2Text: ${why}.`,
    evidence,
    problems,
    opensOn51,
  });

  if (groups.some((g) => g.endsWith('prefill'))) return not(`it has a prefill network group, so it is an LLM or VLM (chat with it instead)`);
  const byEncoder = lastWithSuffix(groups, 'encoder');
  const byDecoder = lastWithSuffix(groups, 'decoder');
  const bySuffix = byEncoder !== undefined && byDecoder !== undefined;
  if (!opensOn51 && !bySuffix) {
    const list = groups.join(', ') || 'none';
    return not(
      `it needs a network group ending in 'encoder' and one ending in 'decoder' (or Hailo's Whisper-Base groups), and its ${groups.length === 1 ? 'group is' : 'groups are'} ${list}`,
    );
  }
  let encoder: string | undefined = opensOn51 ? WHISPER_FIXED_GROUPS.encoder : byEncoder;
  let decoder: string | undefined = opensOn51 ? WHISPER_FIXED_GROUPS.decoder : byDecoder;
  evidence.push(`network groups: ${encoder} (encoder), ${decoder} (decoder)`);
  if (opensOn51) evidence.push("Hailo's Whisper-Base group names: HailoRT 5.1 opens these and no others");

  let chunkSeconds: number | undefined;
  if (configText === undefined) {
    problems.push(
      configError ?? "hailo-config.json is not embedded; HailoRT 5.2's Speech2Text server reads the model's token ids from it and refuses the HEF without it",
    );
    if (opensOn51) chunkSeconds = 10;
  } else {
    let json: unknown;
    try {
      json = JSON.parse(configText);
    } catch {
      json = undefined;
    }
    if (!json || typeof json !== 'object' || Array.isArray(json)) problems.push('hailo-config.json is not a JSON object');
    else {
      const o = json as Record<string, unknown>;
      evidence.push('embedded: hailo-config.json');
      if (OLD_CONFIG_KEY in o) {
        evidence.push(`hailo-config.json has ${OLD_CONFIG_KEY} (the first Whisper HEFs' format: HailoRT opens the fixed group names)`);
        encoder = WHISPER_FIXED_GROUPS.encoder;
        decoder = WHISPER_FIXED_GROUPS.decoder;
        if (!opensOn51) problems.push(`with ${OLD_CONFIG_KEY} in its config HailoRT opens the groups ${encoder} and ${decoder}, which this HEF lacks`);
        chunkSeconds = 10;
      } else {
        const missing = SPEECH_CONFIG_KEYS.filter((k) => !(k in o));
        if (missing.length) problems.push(`hailo-config.json lacks ${missing.join(', ')} (HailoRT's Speech2Text server refuses it: status 2)`);
        if (!bySuffix) {
          problems.push(
            `with this hailo-config.json HailoRT 5.2 takes the groups whose names end in 'encoder' and 'decoder', and ${byEncoder ? `no group ends in 'decoder'` : `no group ends in 'encoder'`} (status 8)`,
          );
        } else {
          encoder = byEncoder;
          decoder = byDecoder;
        }
        const c = o.chunk_size_seconds;
        if (typeof c === 'number' && c > 0) chunkSeconds = c;
      }
    }
  }
  const confidence = problems.length ? 'likely' : 'certain';
  const summary =
    confidence === 'certain'
      ? `This HEF is a speech-to-text model for HailoRT's Speech2Text: an encoder and a decoder group and the hailo-config.json its server needs.`
      : `This HEF looks like a speech-to-text model (by its encoder and decoder groups), but HailoRT's Speech2Text server will refuse it: ${problems[0]}.`;
  return { speech: true, confidence, summary, evidence, problems, encoder, decoder, chunkSeconds, opensOn51 };
}

/** Reads a HEF's header and groups (not its whole body) and classifies it. */
export async function classifySpeechFile(path: string): Promise<{ report: HefReport; speech: SpeechClass }> {
  const report = await readHefFile(path, { verify: false, verifyResources: false });
  const { text, error } = await readHailoConfig(path, report);
  return { report, speech: classifySpeech(report, text, error) };
}
