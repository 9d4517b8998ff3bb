// HAR reader (tar via tar-stream, the HN inside) and the ModelLayerIndex built from it, on the
// committed fixture and on the real DFC 3.33 HAR + ONNX pair in ../shared (skipped when absent).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync, copyFileSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { readHar, HarReadError } from '../../../server/src/core/har/harReader';
import { buildLayerIndex, resolveOriginalName } from '../../../server/src/core/har/layers';
import { findHarBeside, findOnnxBeside } from '../../../server/src/core/har/modelResolver';
import { OnnxModelCache } from '../../../server/src/lsp/onnxCache';
import { graphUriForPath } from '../../../server/src/core/onnx/viewUri';
import { repoRoot, sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';

const FIX = join(repoRoot, 'test', 'fixtures', 'har');
const HAR = join(FIX, 'tinycnn_hailo_model.har');

function onnxSide(path: string) {
  const m = new OnnxModelCache().load(path);
  assert.ok(m.ok, !m.ok ? m.error : '');
  return { path, analysis: m.analysis, view: m.view, uri: graphUriForPath(path) };
}

test('har: the fixture archive (PAX tar, like the DFC writes) yields its HN layers', async () => {
  const har = await readHar(HAR);
  assert.deepEqual(
    har.members.map((m) => m.name),
    ['tinycnn.hn', 'tinycnn.npz', 'tinycnn.original_model_meta.json', 'tinycnn.metadata.json'],
  );
  assert.equal(har.hnMember, 'tinycnn.hn');
  assert.equal(har.metadata?.state, 'hailo_model');
  assert.equal(har.hn.name, 'tinycnn');
  assert.equal(har.hn.layers.length, 15);
  const conv1 = har.hn.layers.find((l) => l.name === 'conv1')!;
  assert.equal(conv1.fullName, 'tinycnn/conv1');
  assert.deepEqual(conv1.originalNames, ['/backbone/conv1/Conv', '/backbone/bn1/BatchNormalization', '/backbone/Relu']);
  assert.deepEqual(conv1.outputShapes, [[-1, 32, 32, 8]]);
  assert.equal(har.originalModelMeta?.original_model_path, '/local/shared_with_docker/tinycnn.onnx');
  assert.equal(har.originalModelMeta?.parsing_report, undefined, 'the large parsing report is dropped');
});

test('har: a gzip-compressed archive reads the same; a non-tar file is a clear HarReadError', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'har-'));
  try {
    const gz = join(dir, 'x.har');
    writeFileSync(gz, gzipSync(readFileSync(HAR)));
    assert.equal((await readHar(gz)).hn.layers.length, 15);
    await assert.rejects(
      readHar(join(FIX, 'broken.har')),
      (e: unknown) => e instanceof HarReadError && /not a readable \.har|holds no files/.test((e as Error).message),
    );
    const truncated = join(dir, 't.har');
    writeFileSync(truncated, readFileSync(HAR).subarray(0, 4000));
    await assert.rejects(readHar(truncated), HarReadError);
    await assert.rejects(readHar(join(dir, 'missing.har')), HarReadError);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('har: layer index links every layer to its ONNX source line, with op/shape/rank detail', async () => {
  const har = await readHar(HAR);
  const onnx = onnxSide(join(FIX, 'tinycnn.onnx'));
  assert.equal(findOnnxBeside(har), join(FIX, 'tinycnn.onnx'), 'found through original_model_path');
  const index = buildLayerIndex(har, onnx);
  assert.equal(index.networkName, 'tinycnn');
  assert.equal(index.layers.size, 15);
  const lines = onnx.view.text.split('\n');
  for (const l of index.layers.values()) {
    assert.ok(l.location, `${l.name} has a location`);
    assert.equal(l.location!.uri, graphUriForPath(join(FIX, 'tinycnn.onnx')));
    const line = lines[l.location!.range.start.line];
    const named = line.slice(l.location!.range.start.character, l.location!.range.end.character);
    assert.equal(named, l.originalNames[0], `${l.name} lands on ${l.originalNames[0]}`);
  }
  const conv1 = index.layers.get('conv1')!;
  assert.equal(conv1.type, 'conv');
  assert.match(conv1.detail!, /^HN params: `kernel_shape=\[3,3,3,8\]`/);
  assert.match(conv1.detail!, /\| `\/backbone\/conv1\/Conv` \| `Conv` \| `\[1,3,64,64\] \[8,3,3,3\] \[8\]` \| `\[1,8,32,32\]` \| 4,4,1 → 4 \|/);
  assert.match(conv1.detail!, /\| `\/backbone\/Relu` \| `Relu` \|/);
  assert.deepEqual(index.layers.get('conv2')!.outputShapes, [[-1, 16, 16, 16]], 'per-consumer duplicates collapsed');
  assert.match(index.layers.get('input_layer1')!.detail!, /\| `input` \| graph input \|/);
  // without the ONNX the layers are still there, with a note instead of the table
  const bare = buildLayerIndex(har);
  assert.equal(bare.layers.get('conv1')!.location, undefined);
  assert.match(bare.layers.get('conv1')!.detail!, /ONNX file is not known/);
});

test('har: the script finds its .har beside it (same basename, then prefix, then the only one)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'har-'));
  try {
    assert.equal(findHarBeside(join(FIX, 'tinycnn.alls')), HAR, 'prefix match');
    assert.equal(findHarBeside(join(dir, 'a.alls')), undefined);
    copyFileSync(HAR, join(dir, 'zzz.har'));
    assert.equal(findHarBeside(join(dir, 'a.alls')), join(dir, 'zzz.har'), 'the only one');
    copyFileSync(HAR, join(dir, 'b.har'));
    assert.equal(findHarBeside(join(dir, 'a.alls')), undefined, 'ambiguous: none');
    copyFileSync(HAR, join(dir, 'a.har'));
    assert.equal(findHarBeside(join(dir, 'a.alls')), join(dir, 'a.har'), 'same basename wins');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const realHar = sharedPath('corpus', 'har', 'whisper-hailo8l_hailo_model.har');
test('har: the real whisper HAR (DFC 3.33) maps all 87 ONNX nodes of the model beside it', { skip: !realHar && SKIP_NO_SHARED }, async () => {
  const har = await readHar(realHar!);
  assert.equal(basename(har.path), 'whisper-hailo8l_hailo_model.har');
  assert.equal(har.hn.name, 'whisper-hailo8l');
  assert.equal(har.hn.layers.length, 50);
  assert.equal(har.metadata?.sdk_version, '3.33.0');
  const onnxPath = findOnnxBeside(har)!;
  assert.equal(basename(onnxPath), 'whisper-hailo8l.onnx');
  const onnx = onnxSide(onnxPath);
  const byName = new Map(onnx.analysis.model.graph.nodes.map((n) => [n.name, n]));
  const covered = new Set<string>();
  for (const l of har.hn.layers) {
    for (const name of l.originalNames) {
      const s = resolveOriginalName(onnx, name, byName);
      assert.notEqual(s.kind, 'missing', `${l.name}: ${name}`);
      if (s.kind === 'node') covered.add(s.node.name);
    }
  }
  assert.equal(covered.size, 87);
  const index = buildLayerIndex(har, onnx);
  const ln = index.layers.get('layer_normalization1')!;
  assert.equal(ln.type, 'layer_normalization');
  assert.match(ln.detail!, /`InstanceNormalization` \| `\[1,1,192000\]/);
  assert.equal(index.layers.get('const_input1')!.location!.range.start.line, onnx.view.nodeNameSpan.get(byName.get('node_add')!)!.line);
  assert.equal(index.layers.get('input_layer1')!.location!.range.start.line, onnx.view.inputLine.get('mel'));
});
