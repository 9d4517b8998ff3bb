// The options of "Run on Device" as the user picks them (frames, input, format, batch, queue),
// their defaults, how they are remembered per workspace folder (validated when read back: the
// stored value is data from disk), and how they become the worker's RunOptions. Pure.
import type { InputSpec, IoFormat, RunOptions } from '@hailo/api';

export type InputKind = InputSpec['kind'];

export interface RunChoices {
  frames: number;
  input: InputKind;
  /** The .npy or image file (absolute) when input is npy/image. */
  inputPath?: string;
  /** Seed of random/normal inputs (the published probe used 1171 and 2026). */
  seed: number;
  format: IoFormat;
  /** 0 = HailoRT's automatic batch. */
  batch: number;
  /** 0 = the model's async queue size. */
  queue: number;
}

export const DEFAULT_CHOICES: RunChoices = { frames: 1000, input: 'random', seed: 1171, format: 'uint8', batch: 0, queue: 0 };

export const FRAME_CHOICES = [100, 1000, 10000];
export const BATCH_CHOICES = [0, 1, 2, 4, 8];
export const QUEUE_CHOICES = [0, 1, 2, 4, 8, 16, 32];
export const MAX_FRAMES = 1_000_000;

const INPUT_WORDS: Record<InputKind, string> = {
  random: 'random (uniform)',
  normal: 'normal (standard normal)',
  npy: '.npy file',
  image: 'image file',
};

export function describeInput(c: Pick<RunChoices, 'input' | 'inputPath' | 'seed'>): string {
  if ((c.input === 'npy' || c.input === 'image') && c.inputPath) return `${INPUT_WORDS[c.input]} ${c.inputPath.split(/[\\/]/).pop()}`;
  return `${INPUT_WORDS[c.input]}, seed ${c.seed}`;
}

export const auto = (n: number) => (n === 0 ? 'auto' : String(n));

export function describeChoices(c: RunChoices): string {
  return `${c.frames.toLocaleString('en-US')} frames · ${describeInput(c)} · ${c.format} · batch ${auto(c.batch)} · queue ${auto(c.queue)}`;
}

const intIn = (v: unknown, lo: number, hi: number): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= lo && v <= hi ? v : undefined);

/** Choices read back from workspace state: anything malformed falls back to the default. */
export function parseChoices(raw: unknown): RunChoices {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const input = (['random', 'normal', 'npy', 'image'] as const).find((k) => k === r.input) ?? DEFAULT_CHOICES.input;
  const inputPath = typeof r.inputPath === 'string' && r.inputPath.length > 0 ? r.inputPath : undefined;
  const fileInput = (input === 'npy' || input === 'image') && inputPath !== undefined;
  return {
    frames: intIn(r.frames, 1, MAX_FRAMES) ?? DEFAULT_CHOICES.frames,
    // A file input without its file is no choice at all.
    input: (input === 'npy' || input === 'image') && !fileInput ? DEFAULT_CHOICES.input : input,
    ...(fileInput ? { inputPath } : {}),
    seed: intIn(r.seed, 0, 2 ** 31 - 1) ?? DEFAULT_CHOICES.seed,
    format: r.format === 'float32' ? 'float32' : 'uint8',
    batch: intIn(r.batch, 0, 64) ?? DEFAULT_CHOICES.batch,
    queue: intIn(r.queue, 0, 1024) ?? DEFAULT_CHOICES.queue,
  };
}

export function toInputSpec(c: RunChoices): InputSpec {
  if (c.input === 'npy' || c.input === 'image') return { kind: c.input, path: c.inputPath ?? '' };
  return { kind: c.input, seed: c.seed };
}

export function toRunOptions(hef: string, c: RunChoices, settings: { groupId: string; timeoutMs: number }): RunOptions {
  return {
    hef,
    input: toInputSpec(c),
    frames: c.frames,
    format: c.format,
    batch: c.batch,
    queue: c.queue,
    groupId: settings.groupId,
    timeoutMs: settings.timeoutMs,
    keepTensors: true,
  };
}
