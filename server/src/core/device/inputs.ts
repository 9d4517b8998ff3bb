// Input frames for a device run, in the model's host format: uniform random or normal values
// (seeded, reproducible), a .npy array, or an image (PNG via pngjs, JPEG via jpeg-js: both pure
// JavaScript, bundled, no native code) resized bilinearly to the input's height x width.
// A frame is every input's bytes concatenated in model order (what the shim takes). Every path
// encodes its values into the frame 64 Ki at a time (encodePieces): the frame, bounded by
// LIMITS.deviceFrameBytes in the format opened, is the only frame-sized allocation (issue 29).
//
// Values and the host format: a uint8 stream takes the quantised bytes the device computes on;
// a float32 stream takes real values, which HailoRT quantises with the input's quant info
// (q = v / scale + zp). So a uint8 source (image pixels, a u1 .npy) becomes v = (q - zp) * scale
// for float32 I/O and float values become round(v / scale + zp) for uint8 I/O: the device sees
// the same bytes either way.
import { FileRoots } from '../common/confined';
import { FileAccessError } from '../common/fileAccess';
import { limit, limitMessage } from '../common/limits';
import { basename } from 'node:path';
import * as jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { NpyError, openNpy } from '../common/npy';
import type { InputDescription, InputSpec, StreamInfo } from './protocol';

/** The probe's seeds (docs/research/dfc-flow.md#device-probes: seeds 1171 and 2026). */
export const DEFAULT_SEEDS = [1171, 2026];
const MAX_INPUT_FILE_BYTES = 512 << 20;

export class InputError extends Error {}

export interface InputFrames {
  /** [A, B]: A is the input under test, B a different one for the "different inputs" check. */
  frames: Uint8Array[];
  description: InputDescription;
}

import { prng } from '../common/prng';

function elements(s: StreamInfo): number {
  return s.shape[0] * s.shape[1] * s.shape[2];
}

function bytesPer(type: string): number {
  return type === 'FLOAT32' ? 4 : type === 'UINT16' ? 2 : 1;
}

function quant(s: StreamInfo): { zp: number; scale: number } {
  const q = s.quant[0];
  return { zp: q?.zp ?? 0, scale: q && q.scale !== 0 ? q.scale : 1 };
}

/** Values at a time an input is made in: no input path holds a whole frame as float64 (8 bytes a value). */
const PIECE_VALUES = 1 << 16;

/**
 * Writes a stream's values (real numbers) into its host format, PIECE_VALUES at a time:
 * `fill(values, start)` puts values start … start + values.length − 1 into `values`. The frame is
 * the only frame-sized allocation (LIMITS.deviceFrameBytes bounds it in the format opened).
 */
function encodePieces(s: StreamInfo, valuesAreQuantised: boolean, fill: (values: Float64Array, start: number) => void): Uint8Array {
  const n = elements(s);
  const out = new Uint8Array(s.frameSize);
  const view = new DataView(out.buffer);
  const { zp, scale } = quant(s);
  const max = s.type === 'UINT16' ? 65535 : 255;
  const bytes = bytesPer(s.type);
  const piece = new Float64Array(Math.min(PIECE_VALUES, n));
  for (let start = 0; start < n; start += piece.length) {
    const values = n - start < piece.length ? piece.subarray(0, n - start) : piece;
    fill(values, start); // every value is asked for, in order (a seeded generator stays in step)
    for (let j = 0; j < values.length; j++) {
      const i = start + j;
      if ((i + 1) * bytes > s.frameSize) break;
      const v = values[j];
      if (s.type === 'FLOAT32') view.setFloat32(i * 4, valuesAreQuantised ? (v - zp) * scale : v, true);
      else {
        const q = valuesAreQuantised ? v : v / scale + zp;
        const c = Math.min(max, Math.max(0, Math.round(q)));
        if (s.type === 'UINT16') view.setUint16(i * 2, c, true);
        else out[i] = c;
      }
    }
  }
  return out;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function randomFrame(inputs: StreamInfo[], kind: 'random' | 'normal', seed: number): Uint8Array {
  const next = prng(seed);
  const normal = () => {
    // Box-Muller
    const u = Math.max(next(), 1e-12);
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * next());
  };
  return concat(
    inputs.map((s) => {
      const max = s.type === 'UINT16' ? 65535 : 255;
      if (kind === 'random') {
        // Uniform over the quantised range: every byte value the device can receive.
        return encodePieces(s, true, (values) => {
          for (let j = 0; j < values.length; j++) values[j] = Math.floor(next() * (max + 1));
        });
      }
      if (s.type === 'FLOAT32') {
        return encodePieces(s, false, (values) => {
          for (let j = 0; j < values.length; j++) values[j] = normal();
        });
      }
      // Quantised normal around the middle of the range (σ = range / 8), clamped.
      return encodePieces(s, true, (values) => {
        for (let j = 0; j < values.length; j++) values[j] = (max + 1) / 2 + ((max + 1) / 8) * normal();
      });
    }),
  );
}

/** The whole of an input file: a regular file (never a FIFO or device) of at most 512 MiB. */
export function readLimited(path: string): Buffer {
  try {
    return FileRoots.named(path).readSync(path, MAX_INPUT_FILE_BYTES);
  } catch (err) {
    if (err instanceof FileAccessError && err.code === 'too-large')
      throw new InputError(`${basename(path)}: inputs above ${MAX_INPUT_FILE_BYTES >> 20} MiB are refused`);
    if (err instanceof FileAccessError && err.code !== 'ENOENT') throw new InputError(`cannot read the input: ${err.message}`);
    throw new InputError(`cannot read the input ${path}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}

/** Width × height from a PNG's IHDR (bytes 16–23, big-endian) or a JPEG's first SOFn marker; undefined when not found. */
export function imageSize(buf: Uint8Array): { width: number; height: number } | undefined {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (buf.length >= 24 && buf[0] === 0x89 && buf[12] === 0x49 && buf[13] === 0x48 && buf[14] === 0x44 && buf[15] === 0x52) {
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (buf[0] === 0xff && buf[1] === 0xd8) {
    for (let i = 2; i + 9 < buf.length;) {
      if (buf[i] !== 0xff) return undefined;
      const marker = buf[i + 1];
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      const length = view.getUint16(i + 2);
      // SOF0–SOF15 except DHT (C4), JPG (C8) and DAC (CC): height, then width.
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { height: view.getUint16(i + 5), width: view.getUint16(i + 7) };
      i += 2 + length;
    }
  }
  return undefined;
}

function npyFrames(path: string, inputs: StreamInfo[]): Uint8Array[] {
  if (inputs.length !== 1) throw new InputError(`a .npy input feeds one input stream, but this model has ${inputs.length}; use random or normal inputs`);
  const s = inputs[0];
  const per = elements(s);
  let arr;
  try {
    // frames 0 and 1 only, decoded a piece at a time as they are encoded: the rest of the file (up
    // to 512 MiB) is never decoded, and no frame is held at 8 bytes a value
    arr = openNpy(readLimited(path));
  } catch (err) {
    if (err instanceof NpyError) throw new InputError(`${basename(path)}: ${err.message}`);
    throw err;
  }
  const total = arr.count;
  if (total === 0 || total % per !== 0) {
    throw new InputError(
      `${basename(path)} has shape (${arr.shape.join(', ')}) = ${total} values, which is not a whole number of frames of input '${s.name}' (${s.shape.join('x')} = ${per} values)`,
    );
  }
  const count = Math.min(total / per, 2);
  const quantised = arr.dtype === 'u1' || arr.dtype === 'u2';
  const frames: Uint8Array[] = [];
  for (let f = 0; f < count; f++) frames.push(encodePieces(s, quantised, (values, start) => arr.decode(f * per + start, values)));
  return frames;
}

/** Decodes a PNG or JPEG to RGBA. */
export function decodeImage(buf: Uint8Array, name: string): { width: number; height: number; rgba: Uint8Array } {
  const isPng = buf[0] === 0x89 && buf[1] === 0x50 && buf[2] === 0x4e && buf[3] === 0x47;
  const isJpeg = buf[0] === 0xff && buf[1] === 0xd8;
  // The pixel count comes from the header, before anything is inflated (PNG had no limit; JPEG's is the same one).
  const size = imageSize(buf);
  const maxPixels = limit('imagePixels');
  if (size && size.width * size.height > maxPixels) {
    throw new InputError(limitMessage('imagePixels', `${name} (${size.width}x${size.height})`, size.width * size.height));
  }
  try {
    if (isPng) {
      const png = PNG.sync.read(Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength));
      return { width: png.width, height: png.height, rgba: new Uint8Array(png.data.buffer, png.data.byteOffset, png.data.byteLength) };
    }
    if (isJpeg) {
      const img = jpeg.decode(buf, { useTArray: true, formatAsRGBA: true, maxResolutionInMP: maxPixels / 1e6, maxMemoryUsageInMB: 1024 });
      return { width: img.width, height: img.height, rgba: img.data };
    }
  } catch (err) {
    throw new InputError(`${name} could not be decoded: ${(err as Error).message}`);
  }
  throw new InputError(`${name} is neither PNG nor JPEG (by its first bytes); give a .png, .jpg or .npy file`);
}

/**
 * Bilinear resampling (half-pixel centres, as OpenCV's INTER_LINEAR) of RGBA to `channels` 1
 * (gray: 0.299 R + 0.587 G + 0.114 B), 3 or 4: the value at flat index i of the height × width ×
 * channels result, computed on demand.
 */
function bilinearSampler(src: { width: number; height: number; rgba: Uint8Array }, width: number, height: number, channels: number): (i: number) => number {
  const sx = src.width / width;
  const sy = src.height / height;
  return (i) => {
    const c = i % channels;
    const p = (i - c) / channels;
    const x = p % width;
    const y = (p - x) / width;
    const fy = Math.min(Math.max((y + 0.5) * sy - 0.5, 0), src.height - 1);
    const y0 = Math.floor(fy);
    const y1 = Math.min(y0 + 1, src.height - 1);
    const wy = fy - y0;
    const fx = Math.min(Math.max((x + 0.5) * sx - 0.5, 0), src.width - 1);
    const x0 = Math.floor(fx);
    const x1 = Math.min(x0 + 1, src.width - 1);
    const wx = fx - x0;
    const px = (k: number) => {
      const a = src.rgba[(y0 * src.width + x0) * 4 + k];
      const b = src.rgba[(y0 * src.width + x1) * 4 + k];
      const d = src.rgba[(y1 * src.width + x0) * 4 + k];
      const e = src.rgba[(y1 * src.width + x1) * 4 + k];
      return (a * (1 - wx) + b * wx) * (1 - wy) + (d * (1 - wx) + e * wx) * wy;
    };
    return channels === 1 ? 0.299 * px(0) + 0.587 * px(1) + 0.114 * px(2) : px(c);
  };
}

/** Bilinear resize (half-pixel centres, as OpenCV's INTER_LINEAR) of RGBA to channels 1, 3 or 4, whole (the VLM frame: LIMITS.imagePixels bounds it). */
export function resizeBilinear(src: { width: number; height: number; rgba: Uint8Array }, width: number, height: number, channels: number): Float64Array {
  const out = new Float64Array(width * height * channels);
  const at = bilinearSampler(src, width, height, channels);
  for (let i = 0; i < out.length; i++) out[i] = at(i);
  return out;
}

function imageFrame(path: string, inputs: StreamInfo[]): { frame: Uint8Array; text: string } {
  if (inputs.length !== 1) throw new InputError(`an image feeds one input stream, but this model has ${inputs.length}`);
  const s = inputs[0];
  const [h, w, f] = s.shape;
  if (f !== 1 && f !== 3 && f !== 4) throw new InputError(`input '${s.name}' has ${f} features per pixel; an image gives 1 (gray), 3 (RGB) or 4 (RGBA)`);
  const img = decodeImage(readLimited(path), basename(path));
  const at = bilinearSampler(img, w, h, f);
  return {
    frame: encodePieces(s, true, (values, start) => {
      for (let j = 0; j < values.length; j++) values[j] = Math.round(at(start + j));
    }),
    text: `${basename(path)} (${img.width}x${img.height}) resized bilinearly to ${w}x${h}, ${f === 1 ? 'gray' : f === 3 ? 'RGB' : 'RGBA'}, pixel values 0..255`,
  };
}

export function makeInputs(spec: InputSpec, inputs: StreamInfo[]): InputFrames {
  if (spec.kind === 'random' || spec.kind === 'normal') {
    const seeds = spec.seed !== undefined ? [spec.seed, spec.seed + 1] : DEFAULT_SEEDS;
    const what = spec.kind === 'random' ? 'uniform over the quantised range (uint8 0..255)' : 'normal (float32: standard normal; uint8: mean 128, σ 32)';
    return {
      frames: seeds.map((seed) => randomFrame(inputs, spec.kind as 'random' | 'normal', seed)),
      description: { kind: spec.kind, text: `${what}, seeds ${seeds.join(' and ')}`, seeds },
    };
  }
  if (spec.kind === 'npy') {
    const frames = npyFrames(spec.path, inputs);
    const text = `${basename(spec.path)}${frames.length > 1 ? ', frames 0 and 1' : `, frame 0 (the "different inputs" check uses random seed ${DEFAULT_SEEDS[1]})`}`;
    if (frames.length < 2) frames.push(randomFrame(inputs, 'random', DEFAULT_SEEDS[1]));
    return { frames, description: { kind: 'npy', text, source: spec.path } };
  }
  const { frame, text } = imageFrame(spec.path, inputs);
  return {
    frames: [frame, randomFrame(inputs, 'random', DEFAULT_SEEDS[1])],
    description: { kind: 'image', text: `${text} (the "different inputs" check uses random seed ${DEFAULT_SEEDS[1]})`, source: spec.path },
  };
}

/** `random`, `normal`, `*.npy`, anything else an image path. */
export function parseInputSpec(value: string, seed?: number): InputSpec {
  if (value === 'random' || value === 'normal') return { kind: value, seed };
  if (/\.npy$/i.test(value)) return { kind: 'npy', path: value };
  return { kind: 'image', path: value };
}
