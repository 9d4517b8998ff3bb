// The recording Hailo: Transcribe Audio is tried on in the e2e (e2e-fixtures/genai/tones.wav, written
// by fakeDevice.ts): two tones in a 44.1 kHz stereo WAV, which the fake Speech2Text hears as one
// segment each, named by its pitch (test/fake-hailort/src/fake_speech2text.cpp).
import type { Tone } from '../helpers/wavWriter';

export const E2E_TONES: Tone[] = [
  { start: 0.4, end: 1.2, hz: 440 },
  { start: 1.8, end: 2.6, hz: 1000 },
];
