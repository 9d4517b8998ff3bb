// Issue 29: the frame sizes HailoRT computes from a HEF (its shapes, an NMS output's classes × boxes
// per class) size every buffer the device worker makes — Buffer.alloc(outputBytes) five times per
// run, the inputs at 8 bytes a value — so the worker checks them against LIMITS.deviceFrameBytes as
// soon as the model is opened, and closes it. The Bridge is a stand-in answering what the shim's
// hts_model_json answers (native/hailo_shim.cpp: inputBytes/outputBytes are the sums of
// get_frame_size() over the streams).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DeviceFailure, HailortSession } from '../../../server/src/processes/device/worker/hailortSession';
import { ShimError, type Bridge, type ShimModel, type ShimStream } from '../../../server/src/processes/device/worker/bridge';
import type { RuntimeInfo } from '../../../server/src/core/device/protocol';

const stream = (name: string, shape: [number, number, number], frameSize: number): ShimStream => ({
  name,
  shape,
  order: 1,
  type: 1,
  flags: 0,
  frameSize,
  nms: false,
  quant: [[0, 1, 0, 255]],
});

function sessionWith(model: ShimModel) {
  const calls: string[] = [];
  const bridge = {
    open: () => (calls.push('open'), 5),
    model: () => (calls.push('model'), model),
    close: (h: number) => void calls.push(`close ${h}`),
    infer: () => void calls.push('infer'),
  };
  const session = new HailortSession(bridge as unknown as Bridge, { hailortVersion: '5.2.0' } as RuntimeInfo, {});
  const open = () =>
    session.openModel({ hef: '/m/net.hef', format: 'uint8', batch: 0, queue: 0, groupId: 'UNIQUE', timeoutMs: 1000 }, {
      device: { architecture: 'HAILO8' },
    } as never);
  return { session, calls, open };
}

const modelOf = (input: ShimStream, output: ShimStream): ShimModel => ({
  inputs: [input],
  outputs: [output],
  queueSize: 4,
  slots: 4,
  inputBytes: input.frameSize,
  outputBytes: output.frameSize,
  resources: [],
  archs: [],
});

test('device worker: an output frame of 8 GiB is refused when the model opens, and the model is closed', async () => {
  const { calls, open } = sessionWith(modelOf(stream('in', [224, 224, 3], 150_528), stream('nms', [1, 1, 1], 2 ** 33)));
  await assert.rejects(
    open,
    (e: unknown) =>
      e instanceof DeviceFailure &&
      e.error.sentence ===
        "net.hef's output frame (8,589,934,592 bytes; 'nms' 1x1x1) is over the limit of 128 MiB: the HEF is not opened, or is closed before any frame is made (one sentence); nothing runs.",
  );
  assert.deepEqual(calls, ['open', 'model', 'close 5']);
});

test('device worker: an input whose shape names 10¹⁰ values is refused before its frame is made (its values are generated one by one)', async () => {
  // a frame size that disagrees with its shape: the values the inputs are made from are bounded too
  const { calls, open } = sessionWith(modelOf(stream('in', [100_000, 100_000, 1], 1000), stream('out', [1, 1, 10], 10)));
  await assert.rejects(
    open,
    (e: unknown) => e instanceof DeviceFailure && /^net\.hef's input 'in' \(100000x100000x1 values\) is over the limit of 128 MiB/.test(e.error.sentence),
  );
  assert.deepEqual(calls, ['open', 'model', 'close 5']);
});

test('device worker: a real-sized model opens (a 640×640×3 input, float32 outputs of 8 MB)', async () => {
  const { calls, open } = sessionWith(modelOf(stream('in', [640, 640, 3], 1_228_800), stream('out', [80, 80, 320], 8_192_000)));
  const opened = await open();
  assert.equal(opened.handle, 5);
  assert.deepEqual(
    opened.outputs.map((o) => o.frameSize),
    [8_192_000],
  );
  assert.deepEqual(calls, ['open', 'model']);
});

test("device worker: the shim's own refusal of a frame over the bound (hts_open, before any buffer) is the limit's sentence, in the format opened", async () => {
  const calls: string[] = [];
  const bridge = {
    open: (...args: unknown[]) => {
      calls.push(`open ${String(args[6])} ${String(args[7])}`);
      throw new ShimError(
        2,
        'HAILO_INVALID_ARGUMENT',
        'open: the input frame is 536870912 bytes, over the bound of 134217728 bytes; refused before any frame is allocated',
      );
    },
    model: () => void calls.push('model'),
    close: () => void calls.push('close'),
  };
  const session = new HailortSession(bridge as unknown as Bridge, { hailortVersion: '5.2.0' } as RuntimeInfo, {});
  await assert.rejects(
    session.openModel({ hef: '/m/net.hef', format: 'float32', batch: 0, queue: 0, groupId: 'UNIQUE', timeoutMs: 1000 }, {
      device: { architecture: 'HAILO10H' },
    } as never),
    (e: unknown) =>
      e instanceof DeviceFailure &&
      e.error.sentence ===
        "net.hef's input frame (536,870,912 bytes as float32) is over the limit of 128 MiB: the HEF is not opened, or is closed before any frame is made (one sentence); nothing runs.",
  );
  // the bounds the worker gives the shim are LIMITS.deviceFrameBytes and deviceSlotBytes; nothing was opened to close
  assert.deepEqual(calls, [`open ${128 * 1024 * 1024} ${1024 * 1024 * 1024}`]);
});
