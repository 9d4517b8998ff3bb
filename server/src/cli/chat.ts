// `hailo-tools chat [--json] [--image FILE]… [--max-tokens N] [--seed N] … HEF "prompt"`: one turn
// with an LLM/VLM HEF on the device, through the same worker as `run` (DeviceClient + ChatSession).
// The answer streams to stdout as the device produces it; the figures go to stderr (text) or into
// one JSON document (--json). Ctrl-C stops the answer (HailoRT's abort) instead of killing the
// worker mid-call. Exit: 0 answered (to its end or max tokens), 1 stopped (Ctrl-C), 2 could not run.
import { basename, resolve } from 'node:path';
import { errorFromKind } from '../core/device/errors';
import { InputError, readLimited } from '../core/device/inputs';
import type { DeviceError, GeneratorParams } from '../core/device/protocol';
import { deviceLine, FrameError, imageToFrame, parseParam, turnMessages, type ParamName } from '../core/genai';
import { ChatSession, type Answer } from '../processes/genai/session';
import { client, COMMON_OPTIONS, commonOf, errorOf, fail } from './device';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';

const CHAT_OPTIONS = {
  image: {
    type: 'string',
    multiple: true,
    arg: 'FILE',
    help: 'a PNG/JPEG for a VLM, resized to the frame the device reports (repeatable;\none image entry per frame)',
  },
  'max-tokens': { type: 'string', arg: 'N', help: 'at most N generated tokens (≥ 1)' },
  seed: { type: 'string', arg: 'N', help: 'sampling seed (0 … 4294967295; 4294967295 = random)' },
  temperature: { type: 'string', arg: 'X', help: '> 0' },
  'top-p': { type: 'string', arg: 'X', help: '0 … 1' },
  'top-k': { type: 'string', arg: 'N', help: '≥ 1' },
  'frequency-penalty': { type: 'string', arg: 'X', help: '≠ 0 (1 = none)' },
  greedy: { type: 'boolean', row: '--greedy, --sample', help: 'greedy decoding, or statistical sampling' },
  sample: { type: 'boolean' },
  lora: { type: 'string', default: '', empty: true, arg: 'NAME', help: 'a LoRA adapter the HEF carries (LLM only)' },
  system: { type: 'string', empty: true, arg: 'TEXT', help: 'a system prompt before the question' },
  ...COMMON_OPTIONS,
} as const;

const CHAT_USAGE = `usage: hailo-tools chat [--json] [--image FILE]… [--max-tokens N] [--seed N]
                        [--temperature X] [--top-p X] [--top-k N] [--frequency-penalty X]
                        [--greedy | --sample] [--lora NAME] [--system TEXT] HEF "prompt"

Asks an LLM or VLM HEF one question on the attached Hailo device (HailoRT's GenAI API) and streams
the answer to stdout; time to first token and tokens/s go to stderr. Unset parameters are the
model's defaults (its hailo-config.json).
${helpTable(optionRows(CHAT_OPTIONS))}
Exit: 0 answered, 1 stopped (Ctrl-C), 2 could not run (one sentence says why).
`;

const PARAM_OPTIONS = {
  'max-tokens': 'maxTokens',
  seed: 'seed',
  temperature: 'temperature',
  'top-p': 'topP',
  'top-k': 'topK',
  'frequency-penalty': 'frequencyPenalty',
} as const satisfies Partial<Record<keyof typeof CHAT_OPTIONS, ParamName>>;

export async function runChat(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('chat', CHAT_USAGE, CHAT_OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const v = parsed.values;
  const c = commonOf('chat', v, io);
  if (!c) return EXIT_USAGE;
  const params: GeneratorParams = {};
  for (const [option, param] of Object.entries(PARAM_OPTIONS)) {
    const text = v[option as keyof typeof PARAM_OPTIONS];
    if (text === undefined) continue;
    const p = parseParam(param, text);
    if (p.error || p.value === undefined) {
      io.err(`hailo-tools chat: ${p.error ?? `--${option} needs a value`}\n`);
      return EXIT_USAGE;
    }
    (params as Record<string, number | boolean>)[param] = p.value;
  }
  if (v.greedy && v.sample) return usageError(io, 'chat', CHAT_USAGE, '--greedy and --sample exclude each other: give one');
  if (v.greedy || v.sample) params.doSample = v.sample;
  const images = v.image.map((f) => resolve(f));
  const { lora, system } = v;
  const positional = parsed.positionals;
  if (positional.length !== 2)
    return usageError(io, 'chat', CHAT_USAGE, `expected a HEF and a prompt, got ${positional.length} argument${positional.length === 1 ? '' : 's'}`);
  const [hefArg, prompt] = positional;
  if (!prompt.trim() && images.length === 0) {
    io.err('hailo-tools chat: the prompt is empty\n');
    return EXIT_USAGE;
  }
  // Images are read before the device is asked for anything: a missing file costs no model load.
  const imageBytes: { name: string; bytes: Uint8Array }[] = [];
  for (const path of images) {
    try {
      imageBytes.push({ name: basename(path), bytes: readLimited(path) });
    } catch (err) {
      if (err instanceof InputError) return fail(io, c.json, errorFromKind('bad-input', err.message));
      throw err;
    }
  }

  const hef = resolve(hefArg);
  const dc = client(c, io, 'chat');
  let session: ChatSession | undefined;
  let stopped = false;
  const onSigint = () => {
    stopped = true;
    // Before the model is open there is no answer to stop: the worker (and the open) goes.
    if (session) void session.stop().catch(() => undefined);
    else dc.dispose();
  };
  process.on('SIGINT', onSigint);
  try {
    session = await ChatSession.open(dc, { hef, lora, groupId: c.groupId });
    const info = session.info;
    const frames: Uint8Array[] = [];
    if (imageBytes.length && info.kind === 'llm') {
      return fail(io, c.json, {
        ...errorFromKind('wrong-frames', `${imageBytes.length} image(s) for an LLM`),
        sentence: 'This model is an LLM: it takes text only, so the images were not sent.',
      });
    }
    for (const img of imageBytes) {
      try {
        const f = imageToFrame(img.bytes, img.name, info.frame!);
        frames.push(f.bytes);
        if (!c.json) io.err(`hailo-tools: ${f.description}\n`);
      } catch (err) {
        if (err instanceof FrameError) return fail(io, c.json, { ...errorFromKind('wrong-frames', err.message), sentence: `${capitalise(err.message)}.` });
        throw err;
      }
    }
    const contextBefore = info.context;
    if (stopped) return EXIT_FINDINGS;
    const answer = await session.ask({ messages: turnMessages(prompt, frames.length, system), frames, params }, c.json ? undefined : (t) => io.out(t));
    if (answer.error) return fail(io, c.json, answer.error);
    const health = await session.health();
    if (c.json) {
      io.out(JSON.stringify({ ...document(session, prompt, images, params, contextBefore, answer), health }, null, 2) + '\n');
    } else {
      io.out('\n');
      io.err(`hailo-tools: ${summary(answer)}\n`);
      const state = health.devices.map(deviceLine).filter(Boolean).join('; ');
      io.err(`hailo-tools: device ${state || `state not reported: ${health.unavailable ?? 'HailoRT answered no figures'}`}\n`);
      for (const w of health.warnings) io.err(`hailo-tools: warning: ${w}\n`);
    }
    return answer.reason === 'aborted' ? EXIT_FINDINGS : EXIT_OK;
  } catch (err) {
    if (stopped && !session) {
      io.err('hailo-tools chat: stopped (Ctrl-C) before the model was open\n');
      return EXIT_FINDINGS;
    }
    return fail(io, c.json, errorOf(err) as DeviceError);
  } finally {
    process.off('SIGINT', onSigint);
    await session?.close().catch(() => undefined);
    dc.dispose();
  }
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function summary(a: Answer): string {
  const parts = [`${a.stats.tokens} token${a.stats.tokens === 1 ? '' : 's'}`];
  if (a.host.firstTokenMs !== null) parts.push(`first token after ${a.host.firstTokenMs.toFixed(0)} ms`);
  if (a.host.tokensPerSecond !== null) parts.push(`${a.host.tokensPerSecond.toFixed(1)} tokens/s`);
  if (a.context) parts.push(`context ${a.context.usage} of ${a.context.capacity} tokens`);
  const why = a.reason === 'max-tokens' ? ' — stopped at max tokens' : a.reason === 'aborted' ? ' — stopped (Ctrl-C)' : '';
  return parts.join(', ') + why;
}

function document(s: ChatSession, prompt: string, images: string[], params: GeneratorParams, contextBefore: Answer['context'], a: Answer) {
  const i = s.info;
  return {
    hef: i.hef,
    kind: i.kind,
    lora: i.lora || null,
    runtime: i.runtime,
    prompt,
    images,
    params: { ...i.defaults, ...params },
    text: a.text,
    reason: a.reason,
    tokens: {
      generated: a.stats.tokens,
      chunks: a.host.chunks,
      contextBefore: contextBefore?.usage ?? null,
      contextAfter: a.context?.usage ?? null,
      capacity: a.context?.capacity ?? contextBefore?.capacity ?? null,
    },
    timings: {
      firstTokenMs: a.host.firstTokenMs,
      tokensPerSecond: a.host.tokensPerSecond,
      totalMs: a.host.totalMs,
      worker: { firstTokenMs: a.stats.firstTokenMs, tokensPerSecond: a.stats.tokensPerSecond, totalMs: a.stats.totalMs },
    },
  };
}
