// The fake libhailort's own XXH3-64 (fake_xxh3.cpp; building the fake needs no xxhash.h) against
// hash-wasm's xxhash3 (seed 0) over every length class of the algorithm — 0…16, 17…128, 129…240,
// 241…2048 — and a 1 MB buffer, through the fake's test hook loaded with koffi.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import koffi from 'koffi';
import { createXXHash3 } from 'hash-wasm';
import { fakeHailortPrefix } from '../fakes/fakeHailort';

function bytes(n: number): Uint8Array {
  const out = new Uint8Array(n);
  let x = 0x9e3779b9;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    out[i] = x >>> 24;
  }
  return out;
}

test('fake: its own XXH3-64 equals hash-wasm xxhash3 at every length 0…2048 and at 1 MB', async () => {
  const lib = koffi.load(join(fakeHailortPrefix('5.2.0'), 'lib', 'libhailort.so.5.2.0'));
  const fakeXxh3 = lib.func('uint64_t fake_hailort_xxh3_64(const uint8_t *data, size_t size)') as (data: Uint8Array, size: number) => bigint;
  const reference = await createXXHash3(0, 0);
  const hex = (v: bigint) => v.toString(16).padStart(16, '0');
  const data = bytes(1 << 20);
  const lengths = [...Array.from({ length: 2049 }, (_, n) => n), data.length];
  const wrong: string[] = [];
  for (const n of lengths) {
    const slice = data.subarray(0, n);
    reference.init();
    reference.update(slice);
    const expected = reference.digest('hex');
    const actual = hex(BigInt.asUintN(64, BigInt(fakeXxh3(slice, n))));
    if (actual !== expected) wrong.push(`${n}: ${actual} != ${expected}`);
  }
  assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} of ${lengths.length} lengths differ`);
});
