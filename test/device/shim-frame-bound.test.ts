// Issue 29: hts_open (native/hailo_shim.cpp) makes (slots + 1) zero-filled copies of every frame
// before it returns, in the format the model is opened with; the pre-run gate bounds the frames by
// our HEF reader first, but a HEF whose body the reader cannot decode has no frames there. So the
// shim takes the bound itself and refuses before any buffer is made. Run on the real shim built
// against the fake HailoRT (test/fakes/fakeHailort.ts), whose frame size is HailoRT's rule: the
// element count × the bytes of the format type (InferStream::get_frame_size).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Bridge, ShimError, shimFrameRefusal } from '../../server/src/processes/device/worker/bridge';
import { commandLineTrust } from '../../server/src/core/common/trust';
import { deviceSetup, fakeEnv } from '../fakes/fakeHailort';

test('shim: hts_open refuses an input or output frame over the bound it is given (in the format opened), before any buffer is made; one within it opens', async () => {
  const setup = await deviceSetup('shim-frame-bound');
  const env = { ...fakeEnv(setup.facts), HAILORT_LOGGER_PATH: 'NONE' };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const bridge = new Bridge(commandLineTrust('test'), setup.shim.shimPath);
    const hef = setup.hefs.classifier; // 224x224x3 UINT8 in, 1000 UINT8 out
    const open = (format: 'uint8' | 'float32', bound: number) => bridge.open(hef, format, 0, 0, 'UNIQUE', 1000, bound, 0);
    const refused = (format: 'uint8' | 'float32', bound: number, direction: 'input' | 'output', bytes: number) =>
      assert.throws(
        () => open(format, bound),
        (err: unknown) => err instanceof ShimError && err.status === 2 && JSON.stringify(shimFrameRefusal(err)) === JSON.stringify({ direction, bytes }),
        `${format} at ${bound}`,
      );
    const input = 224 * 224 * 3;
    refused('uint8', input - 1, 'input', input);
    // float32: 4 bytes an element, so the same input is 4× — refused at a bound the uint8 open passes
    refused('float32', input * 4 - 1, 'input', input * 4);
    for (const [format, bound] of [
      ['uint8', input],
      ['float32', input * 4],
      ['uint8', 0], // 0: no bound
    ] as const) {
      const handle = open(format, bound);
      assert.ok(handle > 0, `${format} at ${bound}`);
      const model = bridge.model(handle);
      assert.equal(model.inputBytes, format === 'float32' ? input * 4 : input);
      bridge.close(handle);
    }
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    setup.cleanup();
  }
});

// The async queue size is HailoRT's answer (get_async_queue_size) and every slot holds a whole input
// and output frame: the fake answers a queue of 64 (FAKE_HAILORT_QUEUE), and the shim keeps only the
// slots (slots + 1) × (input + output frame) leaves within the bound it is given.
test("shim: hts_open keeps fewer async slots when HailoRT's queue size times the frames would pass the slot bound; one slot at least", async () => {
  const setup = await deviceSetup('shim-slot-bound');
  const env = { ...fakeEnv(setup.facts), HAILORT_LOGGER_PATH: 'NONE', FAKE_HAILORT_QUEUE: '64' };
  const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    const bridge = new Bridge(commandLineTrust('test'), setup.shim.shimPath);
    const perSlot = 224 * 224 * 3 + 1000; // the classifier's input and output frame, uint8
    const slotsAt = (bound: number) => {
      const handle = bridge.open(setup.hefs.classifier, 'uint8', 0, 0, 'UNIQUE', 1000, 0, bound);
      try {
        const m = bridge.model(handle);
        return [m.queueSize, m.slots];
      } finally {
        bridge.close(handle);
      }
    };
    assert.deepEqual(slotsAt(0), [64, 64], 'no bound: the queue HailoRT answers');
    assert.deepEqual(slotsAt(20 * perSlot), [64, 19], '20 frame sets: 19 async slots + the synchronous one');
    assert.deepEqual(slotsAt(20 * perSlot - 1), [64, 18]);
    assert.deepEqual(slotsAt(perSlot), [64, 1], 'one async slot at least');
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    setup.cleanup();
  }
});
