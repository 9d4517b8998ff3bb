// A recording as HailoRT's Speech2Text takes it: "PCM float32 normalized to [-1.0, 1.0), mono,
// little-endian, at 16 kHz" (hailort/libhailort/include/hailo/genai/speech2text/speech2text.hpp,
// generate_all_segments). WAV is decoded by the `wavefile` package (any PCM bit depth, float, A-law,
// mu-law, IMA ADPCM), channels are averaged into one, and `wave-resampler` (the resampler wavefile
// itself uses, called on the samples directly: wavefile's toSampleRate re-packs the whole file into
// bytes around it, 15× slower) resamples with a windowed sinc and a low-pass filter. Other containers (MP3, FLAC, Ogg …) are refused in one sentence with the conversion
// command. Pure: takes the file's bytes.
import { WaveFile } from 'wavefile';
import { resample } from 'wave-resampler';
import { limit, limitMessage } from '../common/limits';

/** The sample rate Speech2Text's pre-processing assumes (speech2text_server SAMPLE_RATE). */
export const SPEECH_SAMPLE_RATE = 16_000;

export class AudioError extends Error {}

export interface AudioSource {
  /** `PCM 16-bit`, `float 32-bit`, `A-law`, `mu-law`, `IMA ADPCM` … */
  encoding: string;
  sampleRate: number;
  channels: number;
  seconds: number;
}

export interface SpeechAudio {
  /** 16 kHz mono float32 in [-1, 1). */
  samples: Float32Array;
  seconds: number;
  source: AudioSource;
}

const CONVERT = 'convert it first, e.g. `ffmpeg -i INPUT -ar 16000 -ac 1 OUTPUT.wav`';

/** What the first bytes say the file is, for the refusal of a container we do not read. */
function containerOf(bytes: Uint8Array): string | undefined {
  const ascii = (from: number, n: number) => String.fromCharCode(...bytes.subarray(from, from + n));
  if (bytes.length >= 12 && (ascii(0, 4) === 'RIFF' || ascii(0, 4) === 'RIFX' || ascii(0, 4) === 'RF64') && ascii(8, 4) === 'WAVE') return 'wav';
  if (ascii(0, 4) === 'fLaC') return 'FLAC';
  if (ascii(0, 4) === 'OggS') return 'Ogg';
  if (ascii(0, 3) === 'ID3' || (bytes[0] === 0xff && (bytes[1] & 0xe0) === 0xe0)) return 'MP3';
  if (bytes.length >= 12 && ascii(4, 4) === 'ftyp') return 'MP4/M4A';
  if (ascii(0, 4) === '\x1aE\xdf\xa3') return 'WebM/Matroska';
  return undefined;
}

function encodingOf(audioFormat: number, bitDepth: string): string {
  switch (audioFormat) {
    case 1:
      return `PCM ${bitDepth}-bit`;
    case 3:
      return `float ${bitDepth.replace('f', '')}-bit`;
    case 6:
      return 'A-law';
    case 7:
      return 'mu-law';
    case 17:
      return 'IMA ADPCM';
    case 0xfffe:
      return bitDepth.endsWith('f') || bitDepth === '64' ? `float ${bitDepth.replace('f', '')}-bit` : `PCM ${bitDepth}-bit`;
    default:
      return `format ${audioFormat}`;
  }
}

/**
 * Decodes a WAV file's bytes into Speech2Text's input. `name` is only for messages. Throws
 * AudioError with one sentence (never the file's bytes) when the file is not audio it can read.
 */
export function decodeSpeechAudio(bytes: Uint8Array, name: string): SpeechAudio {
  if (bytes.length > limit('audioFileBytes')) throw new AudioError(limitMessage('audioFileBytes', name, bytes.length));
  const container = containerOf(bytes);
  if (container !== 'wav') {
    throw new AudioError(
      container ? `${name} is ${container} audio; only WAV files are read here: ${CONVERT}.` : `${name} is not a WAV file (no RIFF/WAVE header); ${CONVERT}.`,
    );
  }
  const wav = new WaveFile();
  try {
    wav.fromBuffer(bytes);
  } catch (err) {
    throw new AudioError(`${name} is a damaged or unsupported WAV file (${(err as Error).message}); ${CONVERT}.`);
  }
  const fmt = wav.fmt as { audioFormat: number; numChannels: number; sampleRate: number };
  const encoding = encodingOf(fmt.audioFormat, wav.bitDepth);
  try {
    // The companded and ADPCM encodings become 16-bit PCM (wavefile's own decoders).
    if (fmt.audioFormat === 17) wav.fromIMAADPCM();
    else if (fmt.audioFormat === 6) wav.fromALaw();
    else if (fmt.audioFormat === 7) wav.fromMuLaw();
  } catch (err) {
    throw new AudioError(`${name}'s ${encoding} audio could not be decoded (${(err as Error).message}); ${CONVERT}.`);
  }
  const channels = fmt.numChannels;
  const rate = fmt.sampleRate;
  if (!(channels >= 1) || !(rate >= 1)) throw new AudioError(`${name} declares ${channels} channels at ${rate} Hz, which is not audio; ${CONVERT}.`);
  let planar: Float64Array | Float64Array[];
  try {
    planar = wav.getSamples(false, Float64Array) as unknown as Float64Array | Float64Array[];
  } catch (err) {
    throw new AudioError(`${name}'s ${encoding} samples could not be read (${(err as Error).message}); ${CONVERT}.`);
  }
  const planes = Array.isArray(planar) ? planar : [planar];
  const frames = planes[0]?.length ?? 0;
  if (frames === 0) throw new AudioError(`${name} holds no audio samples (an empty data chunk).`);
  // The frames are bounded by the file's bytes, the 16 kHz output is not: it grows with 16,000 over the declared rate.
  const outSamples = Math.ceil((frames * SPEECH_SAMPLE_RATE) / rate);
  if (outSamples > limit('audioSamples'))
    throw new AudioError(limitMessage('audioSamples', `${name} (${frames} frames at ${rate} Hz) resampled to 16 kHz`, outSamples));
  // getSamples answers stored values: floats as they are, 8-bit PCM unsigned (0…255), wider PCM signed.
  const depth = wav.bitDepth;
  const float = depth === '32f' || depth === '64';
  const bits = parseInt(depth, 10);
  const offset = !float && bits === 8 ? 128 : 0;
  const scale = float ? 1 : 1 / (bits === 8 ? 128 : 2 ** (bits - 1));
  const mono = new Float64Array(frames);
  const weight = scale / planes.length;
  for (const plane of planes) for (let i = 0; i < frames; i++) mono[i] += (plane[i] - offset) * weight;

  // wave-resampler (the resampler wavefile itself uses): windowed sinc, with its IIR low-pass filter below the new Nyquist rate.
  const resampled: ArrayLike<number> = rate === SPEECH_SAMPLE_RATE ? mono : resample(mono, rate, SPEECH_SAMPLE_RATE, { method: 'sinc' });
  // [-1, 1): the resampler's ringing can overshoot a full-scale input.
  const top = 1 - 2 ** -23;
  const samples = new Float32Array(resampled.length);
  for (let i = 0; i < resampled.length; i++) samples[i] = Math.max(-1, Math.min(top, resampled[i]));
  const source: AudioSource = { encoding, sampleRate: rate, channels, seconds: frames / rate };
  return { samples, seconds: samples.length / SPEECH_SAMPLE_RATE, source };
}
