// The architecture of a HEF from its header only (server/src/core/hef/hwArch.ts, used to infer a
// script's target): the values corpus/hef/SOURCES.md records for each real file — Hailo-8 = 1,
// the Hailo-10H class = 103, also for the file truncated upstream — read from at most the container
// header and LIMITS.hefArchPrefixBytes of the body, however large the body is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { limit } from '../../../server/src/core/common/limits';
import { MAX_HEADER_SIZE, parseContainer } from '../../../server/src/core/hef/container';
import { readHefHwArch } from '../../../server/src/core/hef/hwArch';
import { bufferSource, withFileSource, type ByteSource } from '../../../server/src/core/hef/source';
import { buildHef } from '../../helpers/hefBuilder';
import { archHefSpec, ARCH_HEF_IDS } from '../../helpers/inlineHefs';
import { sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';

/** A source that counts the bytes asked of it. */
function counting(src: ByteSource): ByteSource & { bytes: number } {
  const c = {
    size: src.size,
    name: src.name,
    bytes: 0,
    async read(offset: number, length: number) {
      const r = await src.read(offset, length);
      c.bytes += r.length;
      return r;
    },
    close: () => src.close(),
  };
  return c;
}

const hefDir = sharedPath('corpus', 'hef');

test(
  'hef hw_arch: the real HEFs say what SOURCES.md records, from the header and a bounded prefix of the body',
  { skip: hefDir ? false : SKIP_NO_SHARED },
  async () => {
    const expected: Record<string, number> = {
      'arcface_mobilefacenet.hef': 1, // Hailo-8 (hw_arch 1)
      'mnist_model_v_0cd51b2.hef': 1, // Hailo-8
      'seeed10h__lightface_slim.hef': 103, // Hailo-10H class (hw_arch 103)
      'seeed10h__face_landmarks_lite.hef': 103,
      'seeed10h__mspn_regnetx_800mf.hef': 103, // truncated upstream, body intact
    };
    let largeBody = false;
    for (const [name, id] of Object.entries(expected)) {
      await withFileSource(join(hefDir!, name), async (file) => {
        const src = counting(file);
        assert.deepEqual(await readHefHwArch(src), { id }, name);
        assert.ok(src.bytes <= MAX_HEADER_SIZE + limit('hefArchPrefixBytes'), `${name}: read ${src.bytes} bytes`);
        const { container } = parseContainer(await file.read(0, MAX_HEADER_SIZE), file.size);
        if (container && container.protoSize > limit('hefArchPrefixBytes')) largeBody = true;
      });
    }
    assert.ok(largeBody, 'at least one body is larger than the prefix, so the bound was exercised');
  },
);

test('hef hw_arch: a built HEF with each architecture id; a file that is not a HEF is one sentence', async () => {
  for (const id of ARCH_HEF_IDS) {
    const hef = await buildHef(archHefSpec(id));
    // proto3 leaves a 0 out: an absent hw_arch is HAILO8 (0), as HailoRT reads it.
    assert.deepEqual(await readHefHwArch(bufferSource(hef)), { id }, `hw_arch ${id}`);
  }
  const r = await readHefHwArch(bufferSource(new TextEncoder().encode('quantization_param(conv1, precision_mode=a8_w8)\n')));
  assert.ok('error' in r && /magic|HEF/i.test(r.error), JSON.stringify(r));
});
