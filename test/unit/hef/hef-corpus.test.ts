// Every real HEF in ../shared/corpus/hef yields the facts recorded in its SOURCES.md and in
// hef-format.md's table; the truncated ones give precise errors. Skips when ../shared is absent.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { readHefFile, isIntact, checkMtmdSource, fileSource, readHef } from '../../../server/src/core/hef';
import type { HefReport } from '../../../server/src/core/hef';
import { sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';

const dir = sharedPath('corpus', 'hef');
const skip = dir ? false : SKIP_NO_SHARED;
const read = (name: string) => readHefFile(join(dir!, name));
const only = <T>(xs: T[]): T => {
  assert.equal(xs.length, 1, `expected exactly one, got ${xs.length}`);
  return xs[0];
};

function assertIntact(r: HefReport) {
  assert.deepEqual(
    r.problems.filter((p) => p.severity === 'error'),
    [],
  );
  assert.equal(r.integrity.ok, true, r.integrity.detail);
  assert.equal(r.protoComplete, true);
  assert.equal(isIntact(r), true);
}

test('corpus: SOURCES.md lists exactly the files we test', { skip }, () => {
  const sources = readFileSync(join(dir!, 'SOURCES.md'), 'utf8');
  const listed = [...sources.matchAll(/^\| `([^`]+\.hef)`/gm)].map((m) => m[1]).sort();
  assert.deepEqual(listed, [
    'arcface_mobilefacenet.hef',
    'darrr05__New1V2.hef',
    'mnist_model_v_0cd51b2.hef',
    'seeed10h__face_landmarks_lite.hef',
    'seeed10h__lightface_slim.hef',
    'seeed10h__mspn_regnetx_800mf.hef',
  ]);
});

test('corpus: arcface_mobilefacenet.hef — V1, CRC32 OK, Hailo-8 (hw_arch 1), SDK 3.29.0, one input, one NC output', { skip }, async () => {
  const r = await read('arcface_mobilefacenet.hef');
  assertIntact(r);
  assert.equal(r.fileSize, 3_503_356);
  assert.equal(r.container!.version, 1);
  assert.equal(r.container!.headerSize, 28);
  assert.equal(r.integrity.check, 'crc32');
  assert.equal(r.header!.hwArch.id, 1);
  assert.deepEqual(r.header!.hwArch.compatibleDevices, ['HAILO8']);
  assert.equal(r.header!.sdkVersion, '3.29.0');
  const ng = only(r.networkGroups);
  assert.equal(ng.name, 'arcface_mobilefacenet');
  const input = only(ng.inputs);
  assert.equal(input.name, 'arcface_mobilefacenet/input_layer1');
  assert.deepEqual([input.type, input.order, input.shape], ['UINT8', 'NHWC', [112, 112, 3]]);
  const out = only(ng.outputs);
  assert.equal(out.name, 'arcface_mobilefacenet/fc1');
  assert.deepEqual([out.type, out.order, out.shape], ['UINT8', 'NC', [1, 1, 512]]);
  // 512 per-feature qps are stored; without extension 25 HailoRT uses the scalar ones.
  const stream = ng.streams.find((s) => s.name === out.name)!;
  assert.equal(stream.numeric.zps.length, 512);
  assert.equal(stream.numeric.scales.length, 512);
  assert.equal(out.quant.perFeature, undefined);
  assert.equal(out.quant.zp, 144);
  assert.deepEqual(r.externalResources, []);
});

test('corpus: mnist_model_v_0cd51b2.hef — V0, MD5 OK, Hailo-8, SDK 3.27.0, FCR output', { skip }, async () => {
  const r = await read('mnist_model_v_0cd51b2.hef');
  assertIntact(r);
  assert.equal(r.fileSize, 142_475);
  assert.equal(r.container!.version, 0);
  assert.equal(r.container!.headerSize, 32);
  assert.equal(r.integrity.check, 'md5');
  assert.equal(r.header!.hwArch.id, 1);
  assert.equal(r.header!.sdkVersion, '3.27.0');
  const ng = only(r.networkGroups);
  assert.equal(ng.name, 'MNIST_CNN');
  assert.deepEqual(only(ng.inputs).shape, [28, 28, 1]);
  const out = only(ng.outputs);
  assert.deepEqual([out.name, out.order, out.type, out.shape], ['MNIST_CNN/conv3', 'FCR', 'UINT8', [4, 4, 16]]);
});

test('corpus: seeed10h__lightface_slim.hef — V3, proto and full XXH3 OK, hw_arch 103, SDK 5.4.0, padding 401, 8 per-feature outputs', { skip }, async () => {
  const r = await read('seeed10h__lightface_slim.hef');
  assertIntact(r);
  const c = r.container!;
  assert.equal(r.fileSize, 630_784);
  assert.equal(c.version, 3);
  assert.equal(c.headerSize, 56);
  assert.equal(c.paddingSize, 401);
  assert.equal(c.zeroPoint, 12_288, 'CCWs start 4 KiB-aligned at 12288');
  assert.equal(c.additionalInfoSize, 80);
  assert.deepEqual(
    r.integrity.checks.map((k) => [k.name, k.ok]),
    [
      ['proto-xxh3', true],
      ['length', true],
      ['xxh3', true],
      ['layout', true], // zero padding up to the 4 KiB boundary, as every real V3 file
    ],
  );
  // The additional-info tail is all zeros.
  const src = await fileSource(join(dir!, 'seeed10h__lightface_slim.hef'));
  try {
    const tail = await src.read(r.fileSize - 80, 80);
    assert.ok(tail.every((b) => b === 0));
  } finally {
    await src.close();
  }
  assert.equal(r.header!.hwArch.id, 103);
  assert.deepEqual(r.header!.hwArch.compatibleDevices, ['HAILO15H', 'HAILO10H']);
  assert.equal(r.header!.sdkVersion, '5.4.0');
  const ng = only(r.networkGroups);
  assert.equal(ng.outputs.length, 8);
  for (const o of ng.outputs) {
    assert.equal(o.order, 'NHWC');
    assert.ok(o.quant.perFeature, `${o.name} has per-feature quantisation`);
    assert.equal(o.quant.perFeature!.scale.length, o.shape[2]);
    assert.equal(o.quant.scale, 0, 'HailoRT reports the scalar quant info as invalid (0)');
  }
  // Sorted output order comes from the file, not from the edge-layer order.
  assert.deepEqual(
    ng.outputs.map((o) => o.name),
    ng.sortedOutputNames,
  );
  assert.equal(ng.outputs[0].name, 'lightface_slim/conv23');
  assert.ok(r.extensions.some((e) => e.id === 25 && !e.optional));
});

test('corpus: seeed10h__face_landmarks_lite.hef — V3, 2 contexts, in 192x192x3, outs conv22 1x1x1404 and conv25 1x1x1', { skip }, async () => {
  const r = await read('seeed10h__face_landmarks_lite.hef');
  assertIntact(r);
  assert.equal(r.fileSize, 1_851_392);
  const ng = only(r.networkGroups);
  assert.equal(ng.contexts, 2);
  assert.equal(ng.multiContext, true);
  assert.deepEqual(only(ng.inputs).shape, [192, 192, 3]);
  assert.deepEqual(
    ng.outputs.map((o) => [o.name, o.shape]),
    [
      ['face_landmarks_lite/conv22', [1, 1, 1404]],
      ['face_landmarks_lite/conv25', [1, 1, 1]],
    ],
  );
  // The context-0 → context-1 intermediate edges are not streams.
  assert.equal(ng.streams.length, 3);
});

test('corpus: seeed10h__mspn_regnetx_800mf.hef — truncated V3: precise length error, proto intact and parsed', { skip }, async () => {
  const r = await read('seeed10h__mspn_regnetx_800mf.hef');
  assert.equal(r.fileSize, 1_355_776);
  assert.equal(r.container!.expectedFileSize, 5_799_936);
  assert.equal(r.integrity.ok, false);
  const proto = r.integrity.checks.find((k) => k.name === 'proto-xxh3')!;
  assert.equal(proto.ok, true, 'the protobuf body is intact');
  assert.equal(r.integrity.checks.find((k) => k.name === 'length')!.ok, false);
  const t = only(r.problems.filter((p) => p.code === 'hef/truncated'));
  assert.equal(t.offset, 1_355_776);
  assert.match(t.message, /promises 5,799,936 bytes but the file has 1,355,776 \(4,444,160 missing\)/);
  assert.match(t.message, /CCW section \[[\d,]+, [\d,]+\) cut after [\d,]+ of [\d,]+ bytes/);
  assert.match(t.message, /additional info \[[\d,]+, 5,799,936\) missing entirely/);
  assert.equal(r.protoComplete, true);
  const ng = only(r.networkGroups);
  assert.deepEqual(only(ng.inputs).shape, [256, 192, 3]);
  const out = only(ng.outputs);
  assert.deepEqual([out.name, out.shape], ['mspn_regnetx_800mf/conv62', [64, 48, 17]]);
  assert.equal(isIntact(r), false);
});

test('corpus: darrr05__New1V2.hef — truncated V2: header read, body cut off, reported with offsets, facts salvaged', { skip }, async () => {
  const r = await read('darrr05__New1V2.hef');
  const c = r.container!;
  assert.equal(c.version, 2);
  assert.equal(c.headerSize, 44);
  assert.equal(c.protoSize, 3_319_378);
  assert.equal(c.ccwsSize, 27_920_480);
  assert.match(c.xxh3!, /^[0-9A-F]{16}$/);
  assert.equal(r.protoComplete, false);
  assert.equal(r.integrity.ok, false);
  const t = only(r.problems.filter((p) => p.code === 'hef/truncated'));
  assert.match(t.message, /protobuf body \[44, 3,319,422\) cut after 2,883,540 of 3,319,378 bytes/);
  assert.match(t.message, /CCW section \[3,319,422, 31,239,902\) missing entirely/);
  const cut = r.problems.find((p) => p.code === 'hef/proto')!;
  assert.ok(cut.offset! > 44 && cut.offset! < r.fileSize, 'the cut is located inside the file');
  assert.match(cut.message, /declares [\d,]+ bytes but the file ends after [\d,]+/);
  // What precedes the cut is kept: the header and the network group.
  assert.ok(r.header, 'header read');
  assert.equal(r.networkGroups.length, 1);
  assert.equal(isIntact(r), false);
});

test('corpus: every file reads in one pass without throwing, and the mtmd check runs on each', { skip }, async () => {
  for (const name of [
    'arcface_mobilefacenet.hef',
    'darrr05__New1V2.hef',
    'mnist_model_v_0cd51b2.hef',
    'seeed10h__face_landmarks_lite.hef',
    'seeed10h__lightface_slim.hef',
    'seeed10h__mspn_regnetx_800mf.hef',
  ]) {
    const src = await fileSource(join(dir!, name));
    try {
      const r = await readHef(src);
      const m = await checkMtmdSource(src, r);
      // None of the real files is an mtmd encoder: each lacks hailo-config.json and 4 outputs.
      assert.equal(m.pass, false, name);
      assert.equal(m.rules.find((x) => x.id === 'config-embedded')!.pass, false, name);
      assert.equal(m.rules.find((x) => x.id === 'four-outputs')!.pass, false, name);
    } finally {
      await src.close();
    }
  }
});
