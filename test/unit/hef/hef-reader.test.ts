// The HEF reader on built files: every container version and its checksum, each container error
// with its offset, the extension rules, post-process ops hiding streams, per-feature quantisation,
// resources, lenient decoding of a damaged body, and bounded reads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { bufferSource, readHef, isIntact, type ByteSource, type HefReport } from '../../../server/src/core/hef';
import { HASH_CHUNK } from '../../../server/src/core/hef/integrity';
import { buildHef, utf8, type HefSpec } from '../../helpers/hefBuilder';
import { repoRoot } from '../../helpers/shared';

const fx = (name: string) => new Uint8Array(readFileSync(join(repoRoot, 'test', 'fixtures', 'hef', name)));
const read = (bytes: Uint8Array) => readHef(bufferSource(bytes));
const codes = (r: HefReport) => r.problems.map((p) => p.code);

const tiny: HefSpec = {
  networkGroups: [{ name: 't', inputs: [{ name: 't/in', shape: [8, 8, 3] }], outputs: [{ name: 't/out', shape: [1, 1, 4], format: 2 }] }],
};

test('reader: each container version verifies with its own checksum', async () => {
  for (const [file, version, check, headerSize] of [
    ['container-v0.hef', 0, 'md5', 32],
    ['container-v1.hef', 1, 'crc32', 28],
    ['container-v2.hef', 2, 'xxh3', 44],
    ['mtmd-pass.hef', 3, 'xxh3', 56],
    ['container-v3-full-hash.hef', 3, 'xxh3', 56],
  ] as const) {
    const r = await read(fx(file));
    assert.equal(r.container!.version, version, file);
    assert.equal(r.container!.headerSize, headerSize, file);
    assert.equal(r.integrity.check, check, file);
    assert.equal(r.integrity.ok, true, `${file}: ${r.integrity.detail}`);
    assert.deepEqual(codes(r), [], file);
    assert.ok(isIntact(r), file);
  }
  // With a populated proto hash, V3 reports both HailoRT 5.x's check and 4.x's stricter ones.
  const v3 = await read(fx('mtmd-pass.hef'));
  assert.deepEqual(
    v3.integrity.checks.map((c) => c.name),
    ['proto-xxh3', 'length', 'xxh3', 'layout'],
  );
  const v3full = await read(fx('container-v3-full-hash.hef'));
  assert.deepEqual(
    v3full.integrity.checks.map((c) => c.name),
    ['length', 'xxh3', 'layout'],
  );
  assert.equal(v3full.container!.protoXxh3, '0000000000000000');
});

test('reader: a flipped bit in the hashed region fails the checksum of every version, naming the offset of the stored hash', async () => {
  for (const [file, expectCode, offset] of [
    ['container-v0.hef', 'hef/checksum', 16],
    ['container-v1.hef', 'hef/checksum', 12],
    ['container-v2.hef', 'hef/checksum', 12],
    ['container-v3-full-hash.hef', 'hef/checksum', 12],
  ] as const) {
    const b = fx(file);
    b[b.length - 1] ^= 0x80; // last byte: CCWs / additional info / (V0) body
    const r = await read(b);
    assert.equal(r.integrity.ok, false, file);
    const p = r.problems.find((x) => x.code === expectCode)!;
    assert.ok(p, `${file}: ${codes(r)}`);
    assert.equal(p.offset, offset);
    assert.match(p.message, /does not match/);
  }
  // V3 with a proto hash: damage in the body is caught by the proto hash (HailoRT 5.x's check).
  const b = fx('mtmd-pass.hef');
  b[60] ^= 0x01;
  const r = await read(b);
  assert.ok(codes(r).includes('hef/proto-checksum'));
  assert.match(r.problems.find((p) => p.code === 'hef/proto-checksum')!.message, /HEF proto xxhash does not match/);
});

test('reader: container errors are precise', async () => {
  const notHef = await read(utf8('PK\x03\x04 this is a zip file, not a HEF'));
  assert.deepEqual(codes(notHef), ['hef/bad-magic']);
  assert.match(notHef.problems[0].message, /magic at offset 0 is 0x504B0304, expected 0x01484546/);
  assert.equal(notHef.container, undefined);

  const short = await read(new Uint8Array([1, 0x48, 0x45, 0x46, 0, 0]));
  assert.deepEqual(codes(short), ['hef/too-short']);
  assert.match(short.problems[0].message, /File is 6 bytes.*Missing: version @4 \(4 bytes\), hef_proto_size @8 \(4 bytes\)/);

  const b = fx('container-v2.hef');
  const v9 = b.slice();
  new DataView(v9.buffer).setUint32(4, 9);
  const r9 = await read(v9);
  assert.deepEqual(codes(r9), ['hef/unsupported-version']);
  assert.match(r9.problems[0].message, /version 9 at offset 4/);

  const hdr = await read(b.subarray(0, 30));
  assert.deepEqual(codes(hdr), ['hef/truncated-header']);
  assert.match(hdr.problems[0].message, /version-2 header is 44 bytes but the file has only 30/);

  const longer = new Uint8Array(b.length + 10);
  longer.set(b);
  const rl = await read(longer);
  assert.ok(codes(rl).includes('hef/trailing-bytes'));
  // The extra bytes start where the fixture ended.
  const end = b.length.toLocaleString('en-US');
  assert.match(rl.problems.find((p) => p.code === 'hef/trailing-bytes')!.message, new RegExp(`10 unexpected bytes after offset ${end}`));
});

test('reader: V3 padding larger than the CCW size is refused like HailoRT does', async () => {
  const b = fx('mtmd-pass.hef');
  new DataView(b.buffer).setBigUint64(20, 10n); // ccws_size_with_padding < hef_padding_size
  const r = await read(b);
  const p = r.problems.find((x) => x.code === 'hef/bad-padding')!;
  assert.match(p.message, /Invalid HEF - ccws size is smaller than padding size/);
  assert.equal(p.offset, 20);
});

test('reader: the extension rules — unknown required extension and missing extension 26', async () => {
  const r = await read(await buildHef({ ...tiny, extensions: [0, 7, 26] }));
  const p = r.problems.find((x) => x.code === 'hef/unsupported-extension')!;
  assert.match(p.message, /unsupported extensions: TEST_ONE \(type 7\)/);
  assert.equal(p.area, 'compat');
  assert.ok(isIntact(r), 'a refused extension does not make the file damaged');
  const old = await read(await buildHef({ ...tiny, extensions: [0, 3] }));
  assert.match(old.problems.find((x) => x.code === 'hef/outdated')!.message, /this HEF is outdated and no longer supported/);
  // Proto format version 0: only included_features count, so extension 26 cannot be on.
  const v0 = await read(await buildHef({ ...tiny, protoVersion: 0 }));
  assert.ok(codes(v0).includes('hef/outdated'));
});

test('reader: post-process ops hide the streams they consume and add their own output', async () => {
  const r = await read(fx('netflow-yolov8-nms.hef'));
  // Its heads carry per-feature scales and no per-feature zero points: fill_layer_info before 5.0.0
  // refuses that (26), 5.0.0 on takes the single zero point — a warning for this Hailo-15H file.
  // Its input has no per-feature lists at all: HailoRT before 5.0 crashes reading them (the real
  // libhailort 4.23.0 died so on this very file, ../shared/corpus/hef/libhailort-4.23.0/README.md).
  assert.deepEqual(codes(r), new Array(7).fill('hef/structure'));
  assert.match(
    r.problems[0].message,
    /^Input 'yolov8n\/input_layer1' has 0 per-feature zero points .* crashes \(SIGSEGV in Hef::create\).* HailoRT before 5\.0\.0 only/,
  );
  for (const p of r.problems.slice(1))
    assert.match(p.message, /has 0 zero points .* HailoRT before 5\.0\.0 only; the target HailoRT 5\.1–5\.2 does not refuse it/);
  assert.ok(r.problems.every((p) => p.severity === 'warning'));
  const ng = r.networkGroups[0];
  assert.equal(ng.streams.filter((s) => s.direction === 'output').length, 6);
  assert.ok(ng.streams.filter((s) => s.direction === 'output').every((s) => s.hiddenBy === 'yolov8n/yolov8_nms_postprocess'));
  assert.equal(ng.outputs.length, 1);
  const nms = ng.outputs[0];
  assert.deepEqual([nms.name, nms.order, nms.type], ['yolov8n/yolov8_nms_postprocess', 'HAILO_NMS_BY_CLASS', 'FLOAT32']);
  assert.deepEqual(nms.nmsShape, { numberOfClasses: 80, maxBboxesPerClass: 100, maxBboxesTotal: 8000 });
  assert.equal(nms.frameSize, 80 * (1 + 5 * 100) * 4);
  assert.deepEqual(nms.from, { op: 'yolov8n/yolov8_nms_postprocess' });
  const op = ng.ops[0];
  assert.equal(op.kind, 'nms');
  assert.equal(op.nmsType, 'yolov8');
  assert.equal(op.params.classes, 80);
  assert.equal(op.params.imageHeight, 640);
  assert.deepEqual(
    op.inputs.map((i) => i.stream),
    ['yolov8n/conv41', 'yolov8n/conv42', 'yolov8n/conv52', 'yolov8n/conv53', 'yolov8n/conv62', 'yolov8n/conv63'],
  );

  const a = await read(fx('netflow-argmax.hef'));
  assert.deepEqual(codes(a), []);
  const ag = a.networkGroups[0];
  assert.deepEqual(
    ag.outputs.map((o) => [o.name, o.order, o.type, o.shape]),
    [
      ['seg/argmax1', 'NHW', 'UINT8', [128, 128, 1]],
      ['seg/conv31', 'NC', 'UINT8', [1, 1, 10]],
    ],
  );
  assert.equal(ag.streams.find((s) => s.name === 'seg/conv30')!.hiddenBy, 'seg/argmax1');
  assert.equal(ag.ops[0].kind, 'argmax');
});

test('reader: per-feature quantisation (extension 25) on outputs; inputs must agree per feature', async () => {
  const spec: HefSpec = {
    extensions: [0, 3, 12, 25, 26],
    networkGroups: [
      {
        name: 'q',
        inputs: [{ name: 'q/in', shape: [4, 4, 3], qpScales: [1, 1, 1] }],
        outputs: [
          { name: 'q/a', shape: [2, 2, 3], zp: 5, scale: 0.5, qpScales: [0.1, 0.2, 0.3], qpZps: [1, 2, 3] },
          { name: 'q/b', shape: [2, 2, 2], zp: 7, scale: 0.25 }, // empty lists fall back to the scalar
        ],
      },
    ],
  };
  const r = await read(await buildHef(spec));
  // Empty lists are one per feature only from 5.0.0 (hef.cpp fill_layer_info): q/b is a warning for this
  // Hailo-15H file, and so is q/in's missing zero-point list (before 5.0 a crash, as the real 4.23.0 showed).
  assert.deepEqual(
    r.problems.map((p) => [p.code, p.severity]),
    [
      ['hef/structure', 'warning'],
      ['hef/structure', 'warning'],
    ],
  );
  assert.match(r.problems[0].message, /^Input 'q\/in' has 0 per-feature zero points and 3 scales/);
  assert.match(r.problems[1].message, /Output 'q\/b' has 0 zero points and 0 scales for 2 features: HailoRT before 5\.0 needs one of each per feature/);
  const [a, b] = r.networkGroups[0].outputs;
  assert.deepEqual(a.quant.perFeature, { zp: [1, 2, 3], scale: [0.1, 0.2, 0.3] });
  assert.equal(a.quant.scale, 0);
  assert.deepEqual(b.quant.perFeature, { zp: [7, 7], scale: [0.25, 0.25] });
  assert.equal(r.networkGroups[0].inputs[0].quant.perFeature, undefined);

  const bad = await read(
    await buildHef({
      ...spec,
      networkGroups: [
        {
          ...spec.networkGroups[0],
          inputs: [{ name: 'q/in', shape: [4, 4, 3], qpScales: [1, 2, 1] }],
          outputs: [{ name: 'q/a', shape: [2, 2, 3], qpScales: [0.1, 0.2] }],
        },
      ],
    }),
  );
  const msgs = bad.problems.map((p) => p.message).join('\n');
  assert.match(msgs, /Different quantization infos are not allowed for input streams/);
  assert.match(msgs, /Invalid quantization infos vector in HEF! Output 'q\/a' has 0 zero points and 2 scales for 3 features/);
});

test('reader: external resources — located, verified, out of range, duplicate, unchecked', async () => {
  const r = await read(
    await buildHef({
      ...tiny,
      resources: [
        { name: 'tokenizer.json', data: utf8('{"a":1}') },
        { name: 'embeddings.bin', data: new Uint8Array(100).fill(3), checksum: 'none' },
        { name: 'tokenizer.json', data: utf8('dup') },
        { name: 'huge.bin', data: utf8('x'), sizeOverride: 1 << 30 },
      ],
    }),
  );
  const [tok, emb, dup, huge] = r.externalResources;
  assert.equal(tok.checksumOk, true);
  assert.equal(tok.fileOffset, r.container!.zeroPoint + tok.offset);
  assert.equal(emb.checksumOk, undefined);
  assert.match(emb.detail, /no checksum stored/);
  assert.equal(dup.checksumOk, true);
  assert.equal(huge.checksumOk, false);
  assert.deepEqual(codes(r).sort(), ['hef/duplicate-resource', 'hef/resource-out-of-range']);
  assert.match(r.problems.find((p) => p.code === 'hef/resource-out-of-range')!.message, /beyond the end of the file/);
});

test('reader: a damaged body is decoded around the damage, with the offset of the damage', async () => {
  const bytes = await buildHef({ ...tiny, version: 2 });
  const r0 = await read(bytes);
  assert.deepEqual(codes(r0), []);
  // Find the network group's name and overwrite the length byte of the network_groups field's
  // first sub-message with an impossible value; the header (field 1) is before it.
  const body = bytes.subarray(44);
  const ngTag = body.indexOf(0x12); // field 2, wire type 2 — the first network_groups entry
  const damaged = bytes.slice();
  damaged[44 + ngTag + 1] = 0xff; // length varint continues: garbage length
  damaged[44 + ngTag + 2] = 0xff;
  damaged[44 + ngTag + 3] = 0xff;
  damaged[44 + ngTag + 4] = 0x0f;
  const r = await read(damaged);
  assert.equal(r.integrity.ok, false, 'the XXH3 notices');
  assert.equal(r.protoComplete, false);
  assert.ok(r.header, 'the header before the damage is kept');
  assert.equal(r.header!.sdkVersion, '5.4.0');
  const p = r.problems.find((x) => x.code === 'hef/proto' && /declares/.test(x.message))!;
  assert.equal(p.offset, 44 + ngTag);
  assert.match(p.message, /ProtoHEFHef\.network_groups\[0\] at offset/);
  assert.ok(r.problems.some((x) => /Failed parsing HEF file/.test(x.message)));
});

test('reader: CCW sections are streamed, never read whole', async () => {
  const bytes = await buildHef({ ...tiny, ccwsSize: 5 * HASH_CHUNK + 123 });
  let largest = 0;
  let total = 0;
  const inner = bufferSource(bytes);
  const counting: ByteSource = {
    ...inner,
    size: inner.size,
    name: inner.name,
    read: async (o, l) => {
      const b = await inner.read(o, l);
      largest = Math.max(largest, b.length);
      total += b.length;
      return b;
    },
  };
  const r = await readHef(counting);
  assert.ok(isIntact(r));
  assert.ok(largest <= HASH_CHUNK, `largest single read ${largest} > ${HASH_CHUNK}`);
  assert.ok(total < 3 * bytes.length, 'each byte is read a bounded number of times');
});
