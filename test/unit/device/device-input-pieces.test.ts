// Issue 29: the frame a device run sends is the only frame-sized allocation of the inputs —
// LIMITS.deviceFrameBytes bounds it in the format the model is opened with — so no input path
// (random, normal, a .npy, an image) may hold the frame as float64 on the way (8 bytes a value:
// a 128 MiB uint8 frame was a 1 GiB Float64Array, an image's another 1 GiB for its rounding). The
// largest Float64Array made while the inputs are built is watched; the frames themselves are
// checked against what the file holds (a u1 .npy's own bytes) and the image's size.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { makeInputs } from '../../../server/src/core/device/inputs';
import type { InputSpec, StreamInfo } from '../../../server/src/core/device/protocol';

const SHAPE: [number, number, number] = [512, 512, 4]; // 1,048,576 values
const VALUES = SHAPE[0] * SHAPE[1] * SHAPE[2];

/** The longest Float64Array constructed while `fn` runs. */
function largestFloat64(fn: () => void): number {
  const Real = globalThis.Float64Array;
  let largest = 0;
  class Watched extends Real {
    constructor(...args: unknown[]) {
      super(...(args as [ArrayBuffer, number, number]));
      largest = Math.max(largest, this.length);
    }
  }
  globalThis.Float64Array = Watched as unknown as Float64ArrayConstructor;
  try {
    fn();
  } finally {
    globalThis.Float64Array = Real;
  }
  return largest;
}

/** A C-order .npy of `count` uint8 values (i mod 251). */
function npyU1(path: string, shape: number[]): Uint8Array {
  const count = shape.reduce((a, b) => a * b, 1);
  let header = `{'descr': '|u1', 'fortran_order': False, 'shape': (${shape.join(', ')},), }`;
  header += ' '.repeat(63 - ((10 + header.length) % 64)) + '\n';
  const data = new Uint8Array(count);
  for (let i = 0; i < count; i++) data[i] = i % 251;
  const head = Buffer.alloc(10);
  head.write('\x93NUMPY', 0, 'latin1');
  head[6] = 1;
  head.writeUInt16LE(header.length, 8);
  writeFileSync(path, Buffer.concat([head, Buffer.from(header, 'latin1'), data]));
  return data;
}

test('device inputs: no input path holds a frame as float64 — random, normal, a .npy and an image are encoded into the frame 64 Ki values at a time', () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-input-pieces-'));
  try {
    const npy = join(dir, 'two.npy');
    const data = npyU1(npy, [2, ...SHAPE]);
    const png = new PNG({ width: 40, height: 30 });
    for (let i = 0; i < png.data.length; i++) png.data[i] = (i * 7) % 256;
    const image = join(dir, 'in.png');
    writeFileSync(image, PNG.sync.write(png));
    for (const type of ['UINT8', 'FLOAT32'] as const) {
      const s: StreamInfo = {
        name: 'in',
        direction: 'input',
        shape: SHAPE,
        order: 'NHWC',
        type,
        frameSize: VALUES * (type === 'FLOAT32' ? 4 : 1),
        quant: [{ zp: 0, scale: 1, limMin: 0, limMax: 255 }],
        isNms: false,
      };
      for (const spec of [
        { kind: 'random', seed: 3 },
        { kind: 'normal', seed: 3 },
        { kind: 'npy', path: npy },
        { kind: 'image', path: image },
      ] as InputSpec[]) {
        let frames: Uint8Array[] = [];
        const largest = largestFloat64(() => (frames = makeInputs(spec, [s]).frames));
        assert.ok(largest <= 65_536, `${type} ${spec.kind}: a Float64Array of ${largest.toLocaleString('en-US')} values`);
        assert.deepEqual(
          frames.map((f) => f.length),
          [s.frameSize, s.frameSize],
          `${type} ${spec.kind}`,
        );
        if (spec.kind === 'npy' && type === 'UINT8') {
          // a u1 file into a uint8 input: its own bytes, frame 0 then frame 1
          assert.ok(Buffer.from(frames[0]).equals(Buffer.from(data.subarray(0, VALUES))));
          assert.ok(Buffer.from(frames[1]).equals(Buffer.from(data.subarray(VALUES))));
        }
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
