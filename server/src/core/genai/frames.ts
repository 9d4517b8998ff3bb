// An image (PNG or JPEG) as one VLM frame, in the shape, format type and order the device reports
// (VLM::input_frame_shape / _format_type / _format_order; HailoRT's example sends exactly
// input_frame_size() raw bytes). Decoding and resizing are the device runs' (pngjs + jpeg-js,
// bilinear with half-pixel centres); the image is stretched to the frame (no letterbox), channels
// are RGB in that order (HailoRT's VLM example converts OpenCV's BGR to RGB). Pixel values stay
// 0…255: UINT8 bytes as they are, UINT16 and FLOAT32 the same values in the wider type (the HEF's
// own normalisation runs on the device) — an inference from HailoRT's example, which sends UINT8.
import { decodeImage, InputError, resizeBilinear } from '../device/inputs';
import type { FrameFormat } from '../device/protocol';
import { limit, limitMessage } from '../common/limits';

export class FrameError extends Error {}

/** Where element (y, x, c) of an h×w×f frame lives, for the orders an image can fill. */
function indexer(order: string, h: number, w: number, f: number): ((y: number, x: number, c: number) => number) | undefined {
  switch (order) {
    case 'NHWC':
    case 'RGB888':
    case 'NHW':
    case 'AUTO':
      return (y, x, c) => (y * w + x) * f + c;
    case 'NCHW':
      return (y, x, c) => (c * h + y) * w + x;
    case 'NHCW':
      return (y, x, c) => (y * f + c) * w + x;
    default:
      return undefined;
  }
}

const BYTES: Record<string, number> = { UINT8: 1, UINT16: 2, FLOAT32: 4 };

/** Lays out RGB(A)/gray pixel values (h×w×f, interleaved) as the device's frame. */
export function layoutFrame(pixels: ArrayLike<number>, format: FrameFormat): Uint8Array {
  const [h, w, f] = format.shape;
  const bytes = BYTES[format.type];
  if (!bytes) throw new FrameError(`the VLM wants ${format.type} frames, which an image cannot be turned into`);
  const at = indexer(format.order, h, w, f);
  if (!at) throw new FrameError(`the VLM wants frames in ${format.order} order, which this chat cannot lay an image out in`);
  frameWithinLimit(format);
  if (h * w * f * bytes !== format.size) {
    throw new FrameError(`the VLM reports a ${h}x${w}x${f} ${format.type} frame of ${format.size} bytes, but that shape is ${h * w * f * bytes} bytes`);
  }
  const out = new Uint8Array(format.size);
  const view = new DataView(out.buffer);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      for (let c = 0; c < f; c++) {
        const v = Math.min(255, Math.max(0, Math.round(pixels[(y * w + x) * f + c])));
        const i = at(y, x, c);
        if (bytes === 1) out[i] = v;
        else if (bytes === 2) view.setUint16(i * 2, v, true);
        else view.setFloat32(i * 4, v, true);
      }
    }
  }
  return out;
}

export interface Frame {
  bytes: Uint8Array;
  /** e.g. `cat.png (640x480) → 56x56 RGB UINT8 NHWC, 9408 bytes`. */
  description: string;
  source: { width: number; height: number };
}

/**
 * The frame's shape comes from the HEF (through HailoRT's VLM::input_frame_shape): the image is
 * resized to it, 8 bytes a value, before it is laid out, so it is held to the images we decode.
 */
function frameWithinLimit(format: FrameFormat): void {
  const [h, w] = format.shape;
  const pixels = h * w;
  if (!Number.isSafeInteger(pixels) || pixels < 0 || pixels > limit('imagePixels'))
    throw new FrameError(limitMessage('imagePixels', `the VLM's ${h}x${w} frame`, pixels));
}

export function imageToFrame(image: Uint8Array, name: string, format: FrameFormat): Frame {
  const [h, w, f] = format.shape;
  if (f !== 1 && f !== 3 && f !== 4) throw new FrameError(`the VLM's frame has ${f} features per pixel; an image gives 1 (gray), 3 (RGB) or 4 (RGBA)`);
  frameWithinLimit(format);
  let decoded;
  try {
    decoded = decodeImage(image, name);
  } catch (err) {
    if (err instanceof InputError) throw new FrameError(err.message);
    throw err;
  }
  const pixels = resizeBilinear(decoded, w, h, f);
  const bytes = layoutFrame(pixels, format);
  const colour = f === 1 ? 'gray' : f === 3 ? 'RGB' : 'RGBA';
  return {
    bytes,
    description: `${name} (${decoded.width}x${decoded.height}) → ${w}x${h} ${colour} ${format.type} ${format.order}, ${format.size} bytes`,
    source: { width: decoded.width, height: decoded.height },
  };
}
