// Issue 14, HEF: 200,000 vstreams overflowed the stack of the text output; hef_padding_size, which
// no checksum covers, moved the CCW section and the file still read "Integrity: OK".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bufferSource, describeHef, readHef } from '../../../server/src/core/hef';
import { buildHef, type StreamSpec } from '../../helpers/hefBuilder';
import { paddedV3Spec } from '../../helpers/inlineHefs';

async function v3(): Promise<Uint8Array> {
  return buildHef(paddedV3Spec());
}

/** The same file with hef_padding_size (offset 28) grown by `delta`: the CCW section moves, no hash changes. */
function movePadding(bytes: Uint8Array, delta: number): Uint8Array {
  const out = Uint8Array.from(bytes);
  const view = new DataView(out.buffer);
  view.setUint32(28, view.getUint32(28, false) + delta, false);
  return out;
}

test('a V3 HEF whose hef_padding_size moved the CCW section is not "Integrity: OK" (no checksum covers the field)', async () => {
  const good = await v3();
  const ok = await readHef(bufferSource(good));
  assert.equal(ok.integrity.ok, true, ok.integrity.detail);
  assert.deepEqual(
    ok.integrity.checks.map((c) => [c.name, c.ok]),
    [
      ['proto-xxh3', true],
      ['length', true],
      ['xxh3', true],
      ['layout', true],
    ],
  );

  const moved = movePadding(good, 16);
  const r = await readHef(bufferSource(moved));
  // Every hash and the length still match: only the layout check sees it.
  assert.deepEqual(
    r.integrity.checks.map((c) => [c.name, c.ok]),
    [
      ['proto-xxh3', true],
      ['length', true],
      ['xxh3', true],
      ['layout', false],
    ],
  );
  assert.equal(r.integrity.ok, false);
  const p = r.problems.find((x) => x.code === 'hef/implausible-header');
  assert.ok(p);
  assert.equal(p.area, 'integrity');
  assert.equal(p.offset, 28);
  assert.match(
    p.message,
    /^The header places the CCW section at [\d,]+: hef_padding_size \(offset 28\) is [\d,]+, but every V3 HEF pads the protobuf body to the next 4 KiB boundary/,
  );
  const text = describeHef(r);
  assert.match(text, /^Integrity: FAILED \(xxh3\) — layout: hef_padding_size is/m);
  assert.doesNotMatch(text, /Integrity: OK/);

  // Data in the padding (the CCW section moved the other way, or bytes were smuggled in) fails too.
  const dirty = Uint8Array.from(good);
  const view = new DataView(dirty.buffer);
  const bodyEnd = 56 + view.getUint32(8, false);
  if (view.getUint32(28, false) > 0) {
    dirty[bodyEnd] = 0x42; // inside the padding: no hash covers... the full xxh3 does; the layout check names it
    const d = await readHef(bufferSource(dirty));
    assert.ok(d.problems.some((x) => x.code === 'hef/implausible-header' && /holds data \(a non-zero byte at offset/.test(x.message)));
  }
});

test('more vstreams than HailoRT configures: the reader keeps the first 1,024 edge layers of a group and says how many there are', async () => {
  const outputs: StreamSpec[] = [];
  for (let i = 0; i < 5000; i++) outputs.push({ name: `net/out${i}`, shape: [1, 1, 8] });
  const bytes = await buildHef({
    version: 3,
    hwArch: 103,
    networkGroups: [{ name: 'net', inputs: [{ name: 'net/input_layer1', shape: [8, 8, 3] }], outputs }],
  });
  const r = await readHef(bufferSource(bytes), { verify: false });
  const text = describeHef(r);
  assert.equal(text.split('\n').filter((l) => /^\s+Output net\/out\d+ /.test(l)).length, 1023, 'the first 1,024 edge layers: 1 input and 1,023 outputs');
  assert.ok(
    r.problems.some(
      (p) =>
        p.code === 'hef/limit' &&
        p.message ===
          "Network group 'net' has 5,001 edge layers, over the limit of 1,024 items: the first ones are read; one error says how many were left out.",
    ),
    JSON.stringify(r.problems.slice(0, 3)),
  );
});

test("the text output of 200,000 vstreams does not overflow the stack (a report built directly, past the reader's limit)", async () => {
  const r = await readHef(bufferSource(await v3()), { verify: false });
  const g = r.networkGroups[0];
  const v = g.outputs[0];
  g.outputs = Array.from({ length: 200_000 }, (_, i) => ({ ...v, name: `net/out${i}` }));
  const text = describeHef(r);
  assert.equal(text.split('\n').filter((l) => /^\s+net\/out\d+: scale/.test(l)).length, 200_000);
});
