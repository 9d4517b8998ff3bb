// The device column of the accuracy table: the same N inputs through HailoRT, via the device
// worker (DeviceClient: open with float32 I/O so HailoRT quantises inputs and de-quantises outputs
// with the HEF's own parameters, one infer per input, close). Outputs are keyed by HN layer name
// (the vstream name after its `net/` prefix) in the vstream's NHWC order, like the emulator's.
// A device that cannot run (none attached, HailoRT missing, busy) is one sentence, not an error.
import type { DeviceClient } from '../device/client';
import { DEFAULT_OPEN_OPTIONS } from '../../core/device/protocol';

export interface DeviceInputs {
  /** (N, …entry) NHWC. */
  shape: number[];
  data: Float32Array;
}

const layerOf = (vstream: string) => vstream.slice(vstream.lastIndexOf('/') + 1);

export async function deviceOutputs(
  client: Pick<DeviceClient, 'open' | 'infer' | 'close'>,
  hef: string,
  inputs: DeviceInputs,
  options: { groupId?: string; timeoutMs?: number } = {},
): Promise<{ outputs: Record<string, Float32Array[]> } | { unavailable: string }> {
  let handle: number | undefined;
  try {
    const m = await client.open(hef, {
      ...DEFAULT_OPEN_OPTIONS,
      format: 'float32',
      groupId: options.groupId ?? DEFAULT_OPEN_OPTIONS.groupId,
      timeoutMs: options.timeoutMs ?? DEFAULT_OPEN_OPTIONS.timeoutMs,
    });
    handle = m.handle;
    if (m.inputs.length !== 1) return { unavailable: `the HEF has ${m.inputs.length} inputs; the accuracy table handles single-input models` };
    const input = m.inputs[0];
    const n = inputs.shape[0];
    const per = inputs.data.length / Math.max(1, n);
    const want = input.shape[0] * input.shape[1] * input.shape[2];
    if (want !== per) return { unavailable: `the HEF's input ${input.name} is ${input.shape.join('x')} (${want} values), the inputs have ${per} per entry` };
    const outputs: Record<string, Float32Array[]> = {};
    for (let k = 0; k < n; k++) {
      const frame = inputs.data.slice(k * per, (k + 1) * per);
      const r = await client.infer(handle, { [input.name]: Buffer.from(frame.buffer, frame.byteOffset, frame.byteLength).toString('base64') });
      for (const o of m.outputs) {
        if (o.isNms) continue;
        const b = Buffer.from(r.outputs[o.name] ?? '', 'base64');
        if (b.length % 4) return { unavailable: `the device returned ${b.length} bytes for ${o.name}, not float32 values` };
        const v = new Float32Array(b.length / 4);
        for (let i = 0; i < v.length; i++) v[i] = b.readFloatLE(i * 4);
        (outputs[layerOf(o.name)] ??= []).push(v);
      }
    }
    return { outputs };
  } catch (err) {
    return { unavailable: (err as Error).message };
  } finally {
    if (handle !== undefined) await client.close(handle).catch(() => undefined);
  }
}
