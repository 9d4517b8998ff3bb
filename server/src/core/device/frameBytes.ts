// The bytes a frame takes on the host in the format a model is opened with, and the one check of
// them against LIMITS.deviceFrameBytes — asked by the pre-run gate (runGate.ts, on our HEF reader's
// streams, before HailoRT opens anything) and by the worker (hailortSession.ts, on the streams
// HailoRT reports after the open). The shim allocates (slots + 1) frames of every stream inside
// hts_open (native/hailo_shim.cpp) in that format (and refuses past the bound itself, on HailoRT's
// sizes, for a body our reader could not decode), so the bound must be on these bytes, not on the
// HEF's own host format: a float32 open sets FLOAT32 on every input and output
// (InferStream::set_format_type, docs/research/hailort5-api.md), and InferStream::get_frame_size is
// then the element count times the bytes of that type — a uint8 frame grows 4×, a uint16 one 2×
// (the fake HailoRT, test/fake-hailort/src/fake_hailort.cpp, answers by the same rule). An NMS
// output's host frame is counted in float32 already (classes × (1 + 5 · boxes) floats,
// core/hef/facts.ts nmsByClassFrameSize) and does not change. Pure.
import { limit } from '../common/limits';
import type { IoFormat } from './protocol';

const TYPE_BYTES: Record<string, number> = { UINT8: 1, UINT16: 2, FLOAT32: 4 };

/** What a frame-size computation needs of a stream: our reader's VStreamInfo and the worker's streams both have it. */
export interface FrameStream {
  name: string;
  /** Bytes of one frame in the stream's own host type. */
  frameSize: number;
  /** Host format type: `UINT8`, `UINT16`, `FLOAT32` (anything else counts as 1 byte an element). */
  type: string;
  /** Host format order; `HAILO_NMS…` orders are float32 frames already. */
  order: string;
  shape: readonly number[];
}

/** The bytes of one frame of `stream` when the model is opened with host format `format`. */
export function hostFrameBytes(stream: FrameStream, format: IoFormat): number {
  if (format === 'uint8' || stream.order.startsWith('HAILO_NMS')) return stream.frameSize;
  const elements = stream.frameSize / (TYPE_BYTES[stream.type] ?? 1);
  return Math.ceil(elements) * 4;
}

/**
 * The input or output frame (all streams of one direction, summed as the shim's inputBytes and
 * outputBytes are) over LIMITS.deviceFrameBytes in `format`, as the words of a sentence
 * ("float32 input frame (… bytes; 'x' 4096x4096x3)"), or undefined. NaN (a size the reader could
 * not compute) is not over: the worker's check after the open has HailoRT's sizes.
 */
export function frameOverLimit(groups: readonly { inputs: readonly FrameStream[]; outputs: readonly FrameStream[] }[], format: IoFormat): string | undefined {
  const max = limit('deviceFrameBytes');
  for (const group of groups) {
    for (const [direction, streams] of [
      ['input', group.inputs],
      ['output', group.outputs],
    ] as const) {
      if (streams.length === 0) continue;
      const sizes = streams.map((s) => hostFrameBytes(s, format));
      const bytes = sizes.reduce((n, b) => n + b, 0);
      if (!(bytes > max)) continue;
      let largest = 0;
      for (let i = 1; i < sizes.length; i++) if (sizes[i] > sizes[largest]) largest = i;
      const s = streams[largest];
      // three 32-bit dims can pass 2⁵³, where a number is no longer exact
      const said = Number.isSafeInteger(bytes) ? bytes.toLocaleString('en-US') : `more than ${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')}`;
      return `${format === 'float32' ? 'float32 ' : ''}${direction} frame (${said} bytes; '${s.name}' ${s.shape.join('x')})`;
    }
  }
  return undefined;
}
