// WAV files for the speech tests, written byte by byte from the RIFF/WAVE layout (Microsoft's
// "Multimedia Programming Interface and Data Specifications 1.0", the fmt and data chunks) — not
// with the package the product decodes them with, so a decoding fault cannot hide in both.
// Tones are sines at known times and pitches: what the fake Speech2Text "hears" (fake_speech2text.cpp).

export interface Tone {
  start: number;
  end: number;
  hz: number;
  amplitude?: number;
}

/** Interleaved samples in [-1, 1] of `seconds` at `rate`, the same tones on every channel (phase-shifted per channel). */
export function toneSamples(tones: Tone[], seconds: number, rate: number, channels: number): Float64Array {
  const frames = Math.round(seconds * rate);
  const out = new Float64Array(frames * channels);
  for (const t of tones) {
    const a = t.amplitude ?? 0.5;
    for (let i = Math.round(t.start * rate); i < Math.min(frames, Math.round(t.end * rate)); i++) {
      for (let c = 0; c < channels; c++) out[i * channels + c] += a * Math.sin((2 * Math.PI * t.hz * i) / rate + c * 0.3);
    }
  }
  return out;
}

/** A PCM WAV (8-bit unsigned, 16/24/32-bit signed) or IEEE float 32-bit WAV of interleaved samples. */
export function wavBytes(samples: Float64Array, rate: number, channels: number, format: 'pcm8' | 'pcm16' | 'pcm24' | 'pcm32' | 'float32'): Uint8Array {
  const bits = { pcm8: 8, pcm16: 16, pcm24: 24, pcm32: 32, float32: 32 }[format];
  const bytesPer = bits / 8;
  const dataBytes = samples.length * bytesPer;
  const buf = Buffer.alloc(44 + dataBytes);
  buf.write('RIFF', 0, 'ascii');
  buf.writeUInt32LE(36 + dataBytes, 4);
  buf.write('WAVE', 8, 'ascii');
  buf.write('fmt ', 12, 'ascii');
  buf.writeUInt32LE(16, 16);
  buf.writeUInt16LE(format === 'float32' ? 3 : 1, 20);
  buf.writeUInt16LE(channels, 22);
  buf.writeUInt32LE(rate, 24);
  buf.writeUInt32LE(rate * channels * bytesPer, 28);
  buf.writeUInt16LE(channels * bytesPer, 32);
  buf.writeUInt16LE(bits, 34);
  buf.write('data', 36, 'ascii');
  buf.writeUInt32LE(dataBytes, 40);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.max(-1, Math.min(1, samples[i]));
    const at = 44 + i * bytesPer;
    if (format === 'float32') buf.writeFloatLE(v, at);
    else if (format === 'pcm8') buf.writeUInt8(Math.round(v * 127) + 128, at);
    else if (format === 'pcm16') buf.writeInt16LE(Math.round(v * 32767), at);
    else if (format === 'pcm24') buf.writeIntLE(Math.round(v * 8388607), at, 3);
    else buf.writeInt32LE(Math.round(v * 2147483647), at);
  }
  return new Uint8Array(buf);
}
