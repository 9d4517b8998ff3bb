// The speech core without a device: which HEFs HailoRT's Speech2Text opens (expected from
// speech2text_server.cpp's rules, v5.1.1 and v5.2.0), and WAV recordings turned into 16 kHz mono
// float32 (expected from the tones written into them: their pitch, times and amplitude).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AudioError, classifySpeechFile, decodeSpeechAudio, SPEECH_SAMPLE_RATE } from '../../../server/src/core/genai';
import { limit } from '../../../server/src/core/common/limits';
import { writeGenAiHefs, type GenAiHefs } from '../../helpers/genaiFixtures';
import { toneSamples, wavBytes } from '../../helpers/wavWriter';

let dir: string;
let hefs: GenAiHefs;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'speech-core-'));
  hefs = await writeGenAiHefs(dir);
});
after(() => rmSync(dir, { recursive: true, force: true }));

test('speech HEFs: Whisper-Base layout is certain and opens on 5.1; other encoder/decoder names only on 5.2', async () => {
  const base = (await classifySpeechFile(hefs.speech.whisper)).speech;
  assert.equal(base.speech, true);
  assert.equal(base.confidence, 'certain', base.summary);
  assert.equal(base.opensOn51, true);
  assert.equal(base.encoder, 'base-whisper-encoder-10s');
  assert.equal(base.decoder, 'base-whisper-decoder-10s-out-seq-64');
  assert.equal(base.chunkSeconds, 10);
  const tiny = (await classifySpeechFile(hefs.speech.whisperTiny)).speech;
  assert.equal(tiny.confidence, 'certain', tiny.summary);
  assert.equal(tiny.opensOn51, false);
  assert.equal(tiny.encoder, 'whisper_tiny_encoder');
});

test('speech HEFs: what HailoRT 5.2 refuses is said, by the key or resource it lacks', async () => {
  const none = (await classifySpeechFile(hefs.speech.noConfig)).speech;
  assert.equal(none.speech, true);
  assert.equal(none.confidence, 'likely');
  assert.match(none.summary, /hailo-config\.json is not embedded/);
  const partial = (await classifySpeechFile(hefs.speech.partialConfig)).speech;
  assert.equal(partial.confidence, 'likely');
  assert.match(partial.summary, /lacks chunk_size_seconds \(HailoRT's Speech2Text server refuses it: status 2\)/);
});

test('speech HEFs: an LLM, a VLM and a classifier are not speech models, in one sentence', async () => {
  for (const [hef, why] of [
    [hefs.llm, /prefill network group/],
    [hefs.vlm, /prefill network group/],
    [
      hefs.classifier,
      /needs a network group ending in 'encoder' and one ending in 'decoder' \(or Hailo's Whisper-Base groups\), and its group is efficientnet_lite0/,
    ],
  ] as const) {
    const s = (await classifySpeechFile(hef)).speech;
    assert.equal(s.speech, false, hef);
    assert.match(s.summary, why);
  }
});

/** Pitch from zero crossings over [from, to) seconds of 16 kHz samples. */
function pitch(samples: Float32Array, from: number, to: number): number {
  let crossings = 0;
  const a = Math.round(from * SPEECH_SAMPLE_RATE);
  const b = Math.round(to * SPEECH_SAMPLE_RATE);
  for (let i = a + 1; i < b; i++) if (samples[i - 1] < 0 !== samples[i] < 0) crossings++;
  return crossings / (2 * (to - from));
}

function rms(samples: Float32Array, from: number, to: number): number {
  let sum = 0;
  const a = Math.round(from * SPEECH_SAMPLE_RATE);
  const b = Math.round(to * SPEECH_SAMPLE_RATE);
  for (let i = a; i < b; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / (b - a));
}

test('audio: every PCM depth and float, any rate and channel count → 16 kHz mono with the same tones', () => {
  const tones = [
    { start: 0.2, end: 0.7, hz: 440 },
    { start: 1.0, end: 1.4, hz: 1000 },
  ];
  for (const [rate, channels, format] of [
    [44_100, 2, 'pcm16'],
    [48_000, 1, 'pcm24'],
    [22_050, 2, 'float32'],
    [16_000, 1, 'pcm16'],
    [8_000, 1, 'pcm8'],
    [96_000, 6, 'pcm32'],
  ] as const) {
    const wav = wavBytes(toneSamples(tones, 1.6, rate, channels), rate, channels, format);
    const a = decodeSpeechAudio(wav, 'tones.wav');
    const what = `${rate} Hz ${channels} ch ${format}`;
    // wavefile's resampler may drop the last partial sample (96 kHz → 16 kHz: 25,599 of 25,600).
    assert.ok(Math.abs(a.samples.length - Math.round(1.6 * SPEECH_SAMPLE_RATE)) <= 1, `${what}: ${a.samples.length} samples`);
    assert.equal(a.source.sampleRate, rate);
    assert.equal(a.source.channels, channels);
    assert.ok(Math.abs(a.source.seconds - 1.6) < 1e-3, what);
    // The pitch survives resampling: within 2 % (8 kHz input is band-limited to 4 kHz; both tones are below).
    assert.ok(Math.abs(pitch(a.samples, 0.25, 0.65) / 440 - 1) < 0.02, `${what}: ${pitch(a.samples, 0.25, 0.65)} Hz`);
    assert.ok(Math.abs(pitch(a.samples, 1.05, 1.35) / 1000 - 1) < 0.02, `${what}: ${pitch(a.samples, 1.05, 1.35)} Hz`);
    // Channels are averaged (a 0.3-rad phase shift per channel lowers the mix a little), silence stays silent.
    const level = rms(a.samples, 0.25, 0.65);
    assert.ok(level > 0.25 && level < 0.36, `${what}: rms ${level}`);
    assert.ok(rms(a.samples, 0.8, 0.9) < 0.01, `${what}: silence ${rms(a.samples, 0.8, 0.9)}`);
    assert.ok(
      a.samples.every((v) => v >= -1 && v < 1),
      what,
    );
  }
});

test('audio: other containers and damaged files are refused in one sentence naming the conversion, without their bytes', () => {
  const cases: [Uint8Array, RegExp][] = [
    [
      new Uint8Array([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0, 0x53, 0x45, 0x43, 0x52, 0x45, 0x54]),
      /^talk\.wav is MP3 audio; only WAV files are read here: convert it first, e\.g\. `ffmpeg/,
    ],
    [new TextEncoder().encode('fLaC\0\0\0\x22SECRET'), /is FLAC audio/],
    [new TextEncoder().encode('OggS\0SECRET-BYTES'), /is Ogg audio/],
    [new TextEncoder().encode('hello SECRET text'), /is not a WAV file \(no RIFF\/WAVE header\)/],
    [new TextEncoder().encode('RIFF\x04\0\0\0WAVEjunkSECRET'), /is a damaged or unsupported WAV file/],
  ];
  for (const [bytes, re] of cases) {
    assert.throws(
      () => decodeSpeechAudio(bytes, 'talk.wav'),
      (e: unknown) => e instanceof AudioError && re.test(e.message) && !e.message.includes('SECRET'),
    );
  }
  const empty = wavBytes(new Float64Array(0), 16_000, 1, 'pcm16');
  assert.throws(() => decodeSpeechAudio(empty, 'empty.wav'), /empty\.wav holds no audio samples/);
});

test('audio: a file over the audioFileBytes limit is refused before it is decoded', () => {
  const big = Buffer.alloc(limit('audioFileBytes') + 1);
  assert.throws(() => decodeSpeechAudio(big, 'long.wav'), /long\.wav has .* bytes, over the limit of 128 MiB/);
});

test('audio: the 16 kHz output a header makes of few bytes is bounded (LIMITS.audioSamples) before it is allocated', () => {
  // 300 kB of 8-bit samples declared at 1 Hz: 300,000 s of audio, 4.8·10⁹ samples at 16 kHz
  const slow = wavBytes(new Float64Array(300_000), 1, 1, 'pcm8');
  assert.throws(
    () => decodeSpeechAudio(slow, 'slow.wav'),
    (e: unknown) =>
      e instanceof AudioError &&
      /^slow\.wav \(300000 frames at 1 Hz\) resampled to 16 kHz has 4,800,000,000 items, over the limit of 67,108,864 items: the file is not read/.test(
        e.message,
      ),
  );
  // a data chunk claiming 2³¹ bytes holds what the file holds (wavefile reads the chunk within the file)
  const claims = Buffer.from(wavBytes(toneSamples([{ start: 0, end: 0.5, hz: 440 }], 0.5, 16_000, 1), 16_000, 1, 'pcm16'));
  claims.writeUInt32LE(2 ** 31, 40);
  assert.equal(decodeSpeechAudio(claims, 'claims.wav').samples.length, 8000);
  // a real low rate stays readable: 8 kHz telephone audio doubles
  assert.equal(decodeSpeechAudio(wavBytes(new Float64Array(8000), 8000, 1, 'pcm16'), 'phone.wav').samples.length, 16_000);
});
