// The sweep's FPS/latency column: a finished variant's HEF run on the attached device through the
// device worker (DeviceClient.run: latency one frame at a time, FPS pipelined at the model's queue
// depth) — the numbers `hailo-tools run` prints. No device, HailoRT missing, a busy device: one
// sentence in the cell, never a failed variant.
import type { DeviceClient } from '../device/client';
import { DeviceRequestError } from '../device/client';
import { DEFAULT_OPEN_OPTIONS } from '../../core/device/protocol';
import type { DeviceMeasure } from './types';

export async function measureOnDevice(
  client: Pick<DeviceClient, 'scan' | 'run'>,
  hef: string,
  frames: number,
): Promise<DeviceMeasure | { unavailable: string }> {
  try {
    const scan = await client.scan();
    if (scan.devices.length === 0) return { unavailable: 'no Hailo device is attached' };
    const r = await client.run({ ...DEFAULT_OPEN_OPTIONS, hef, input: { kind: 'random' }, frames, queueDepths: [] });
    return { fps: r.fps.fps, latencyP50Ms: r.latency.p50Ms, latencyP99Ms: r.latency.p99Ms };
  } catch (err) {
    return { unavailable: err instanceof DeviceRequestError ? err.error.sentence : (err as Error).message };
  }
}
