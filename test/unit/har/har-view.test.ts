// The HAR view's document (`hailo-tools har --json`): layers in dataflow order, the arrays each layer
// holds in the archive's npz members (read by tar position, never loaded whole), HN quantization
// params, and the per-layer noise figures worst first. Expected values come from the files
// themselves as other tools read them: the real DFC 3.33 HAR's npz as hn-har-format.md §1 records it
// (conv1 kernel float32 [3,1,80,128], 64 arrays with params_kind), the fixture generator's inputs,
// and numpy's percentile for the outlier threshold (Q1 − 1.5·IQR of the fixture's figures = 9.25).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readHarView, dataflowOrder } from '../../../server/src/core/har/harView';
import { readHarParams, splitParamKey } from '../../../server/src/core/har/harParams';
import { noiseReport, percentile, sixteenBitLine } from '../../../server/src/core/har/noise';
import { runHarCommand } from '../../../server/src/cli/har';
import { repoRoot, sharedPath, SKIP_NO_SHARED } from '../../helpers/shared';
import type { HnLayer } from '../../../server/src/core/har/hn';

const FIX = join(repoRoot, 'test', 'fixtures', 'har');
const QUANT = join(FIX, 'tinycnn_quantized.har');
const PARSED = join(FIX, 'tinycnn_hailo_model.har');

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out, err };
}

test('har view: a quantized archive shows state, precision modes, bits and ranges per layer, and the noise figures worst first', async () => {
  const d = await readHarView(QUANT);
  assert.equal(d.state, 'quantized_model');
  assert.equal(d.network, 'tinycnn');
  assert.equal(d.layers.length, 15);
  assert.deepEqual(d.inputs, ['input_layer1']);
  assert.deepEqual(d.outputs, ['output_layer1']);
  assert.deepEqual(
    d.paramMembers.map((m) => m.name),
    ['tinycnn.npz', 'tinycnn.q.npz'],
  );
  const conv1 = d.layers.find((l) => l.name === 'conv1')!;
  assert.equal(conv1.precisionMode, 'a16_w16');
  const q = (key: string) => conv1.arrays.find((a) => a.member === 'tinycnn.q.npz' && a.key === key);
  assert.deepEqual(q('weight_bits')?.values, [16]);
  assert.deepEqual(q('kernel')?.shape, [3, 3, 3, 8]);
  assert.equal(q('kernel')?.dtype, 'int16');
  assert.equal(q('kernel')?.values, undefined, 'a kernel of 216 values is described, not listed');
  assert.equal(q('stats/output_0/stats_limvals')?.values?.length, 2);
  const conv3 = d.layers.find((l) => l.name === 'conv3')!;
  assert.equal(conv3.precisionMode, 'a8_w8');
  assert.deepEqual(conv3.arrays.find((a) => a.key === 'weight_bits')?.values, [8]);
  assert.deepEqual(d.archiveArrays.find((a) => a.key === 'params_kind')?.values, [2]);
  // noise: the sidecar beside the archive, worst first, I/O layers not ranked
  const n = d.noise!;
  assert.match(n.source, /tinycnn_quantized\.noise\.json$/);
  assert.deepEqual(
    n.layers.slice(0, 3).map((l) => [l.name, l.snrDb]),
    [
      ['conv3', 6.3],
      ['deconv1', 9.7],
      ['fc1', 21.2],
    ],
  );
  assert.equal(n.layers.at(-1)!.name, 'output_layer1');
  assert.ok(n.layers.at(-1)!.unranked);
  assert.ok(Math.abs(n.outlierBelowDb! - 9.25) < 1e-9, `numpy: Q1 − 1.5·IQR = 9.25, got ${n.outlierBelowDb}`);
  assert.deepEqual(n.chosen, ['conv3', 'deconv1']);
  assert.equal(conv3.noise?.snrDb, 6.3);
  assert.equal(conv3.noise?.perOutput[0].output, 'output_layer1');
  assert.match(n.calibration!, /tinycnn_calib\.npy/);
});

test('har view: dataflow order puts producers first even when the HN lists a consumer earlier', () => {
  const l = (name: string, input: string[]): HnLayer => ({
    fullName: `n/${name}`,
    name,
    scope: 'n',
    type: 'conv',
    input: input.map((i) => `n/${i}`),
    output: [],
    inputShapes: [],
    outputShapes: [],
    originalNames: [],
    params: {},
    quantizationParams: {},
  });
  // file order as in the real whisper HN: a consumer (conv10) before its producer (conv9)
  const order = dataflowOrder([l('conv10', ['conv9']), l('input_layer1', []), l('conv9', ['input_layer1']), l('loop', ['loop2']), l('loop2', ['loop'])]);
  assert.deepEqual(
    order.map((x) => x.name),
    ['input_layer1', 'conv9', 'conv10', 'loop', 'loop2'],
  );
});

test('har params: npz keys split by the HN scope; a gzip-compressed archive says its arrays are not read', async () => {
  assert.deepEqual(splitParamKey('whisper-hailo8l/conv1/kernel:0.npy', ['whisper-hailo8l']), { layer: 'whisper-hailo8l/conv1', key: 'kernel' });
  assert.deepEqual(splitParamKey('net/conv1/stats/output_0/stats_limvals:0.npy', ['net']), { layer: 'net/conv1', key: 'stats/output_0/stats_limvals' });
  assert.deepEqual(splitParamKey('params_kind.npy', ['net']), { layer: '', key: 'params_kind' });
  const dir = mkdtempSync(join(tmpdir(), 'har-params-'));
  try {
    const gz = join(dir, 'x.har');
    writeFileSync(gz, gzipSync(readFileSync(QUANT)));
    const p = await readHarParams(gz, ['tinycnn']);
    assert.equal(p.arrays.length, 0);
    assert.match(p.notes[0], /gzip-compressed/);
    // a truncated archive: what precedes the damage is still read, nothing throws
    const cut = join(dir, 'cut.har');
    writeFileSync(cut, readFileSync(QUANT).subarray(0, 30000));
    const c = await readHarParams(cut, ['tinycnn']);
    assert.deepEqual(
      c.arrays.map((a) => a.key),
      ['kernel'],
      'tinycnn.npz (bytes 18,944–20,086) precedes the cut at 30,000',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const realHar = sharedPath('corpus', 'har', 'whisper-hailo8l_hailo_model.har');
test('har view: the real DFC 3.33 HAR — its npz arrays land on their layers (hn-har-format.md §1)', { skip: !realHar && SKIP_NO_SHARED }, async () => {
  const path = realHar!;
  const d = await readHarView(path);
  assert.equal(d.state, 'hailo_model');
  assert.equal(d.layers.length, 50);
  assert.deepEqual(d.paramMembers, [{ name: 'whisper-hailo8l.npz', arrays: 64 }]);
  const kernel = d.layers.find((l) => l.name === 'conv1')!.arrays.find((a) => a.key === 'kernel')!;
  assert.equal(kernel.dtype, 'float32');
  assert.deepEqual(kernel.shape, [3, 1, 80, 128]);
  assert.ok(d.archiveArrays.some((a) => a.key === 'params_kind'));
  // producers before consumers, as in the file itself (its layer counters are not in order, its edges are)
  const at = (n: string) => d.layers.findIndex((l) => l.name === n);
  for (const l of d.layers) for (const p of l.inputs) assert.ok(at(p) < at(l.name), `${p} before ${l.name}`);
  assert.equal(d.noise, undefined);
});

test('noise report: the figure per layer is the lowest SNR over outputs, else snr, else partial_snr; numpy percentile', () => {
  // numpy.percentile([1, 2, 3, 4], 25) == 1.75; ([5], 50) == 5
  assert.equal(percentile([1, 2, 3, 4], 25), 1.75);
  assert.equal(percentile([5], 50), 5);
  const r = noiseReport(
    {
      'n/a/layer_noise_analysis/noise_results/n/out1': [12],
      'n/a/layer_noise_analysis/noise_results/n/out2': [8],
      'n/a/layer_noise_analysis/partial_snr': [1],
      'n/b/layer_noise_analysis/snr': [15],
      'n/b/layer_noise_analysis/partial_snr': [2],
      'n/c/layer_noise_analysis/partial_snr': [30],
      'n/in/layer_noise_analysis/partial_snr': [3],
      'n/c/other_stat': [0],
    },
    { source: 'x', mode: 'simple' },
    new Map([['n/in', 'input_layer']]),
  );
  const by = new Map(r.layers.map((l) => [l.name, l]));
  assert.equal(by.get('a')!.snrDb, 8);
  assert.equal(by.get('a')!.basis, 'noise_results');
  assert.deepEqual(by.get('a')!.perOutput, [
    { output: 'out1', snrDb: 12 },
    { output: 'out2', snrDb: 8 },
  ]);
  assert.equal(by.get('b')!.basis, 'snr');
  assert.equal(by.get('c')!.basis, 'partial_snr');
  assert.ok(by.get('in')!.unranked);
  assert.deepEqual(r.chosen, ['a'], 'only a is at or below 10 dB; with 3 ranked layers there is no IQR rule');
  assert.equal(sixteenBitLine(['conv3', 'deconv1']), 'quantization_param([conv3, deconv1], precision_mode=a16_w16)');
});

test('hailo-tools har: text and --json; an unreadable archive exits 2 with one sentence', async () => {
  const t = capture();
  assert.equal(await runHarCommand([QUANT], t.io), 0);
  const text = t.out.join('');
  assert.match(text, /state quantized_model, DFC 3\.33\.0, hw_arch hailo8l/);
  assert.match(text, /6\.30 dB {2}conv3 {2}← SNR 6\.30 dB ≤ 10 dB/);
  assert.match(text, /16-bit line: quantization_param\(\[conv3, deconv1\], precision_mode=a16_w16\)/);
  const j = capture();
  assert.equal(await runHarCommand(['--json', PARSED], j.io), 0);
  const doc = JSON.parse(j.out.join('')) as { layers: unknown[]; state: string };
  assert.equal(doc.layers.length, 15);
  assert.equal(doc.state, 'hailo_model');
  const b = capture();
  assert.equal(await runHarCommand([join(FIX, 'broken.har')], b.io), 2);
  assert.match(b.err.join(''), /not a readable \.har|holds no files/);
  assert.equal(await runHarCommand([], capture().io), 2);
});

test('har view: a sidecar that is not ours is a note, never a crash', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'har-view-'));
  try {
    copyFileSync(QUANT, join(dir, 'm.har'));
    writeFileSync(join(dir, 'm.noise.json'), '{"format":"something else"}');
    const d = await readHarView(join(dir, 'm.har'));
    assert.equal(d.noise, undefined);
    assert.match(d.notes.join(' '), /not a hailo-tools noise-analysis result/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('har params: hostile tar headers end the walk without a crash — a member claiming a terabyte, a pax size past the file, a zip listing a bomb', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'har-hostile-'));
  const header = (name: string, size: string, type = '0') => {
    const h = Buffer.alloc(512);
    h.write(name, 0);
    h.write(size, 124);
    h.write(type, 156);
    h.write('ustar\u000000', 257, 'latin1');
    return h;
  };
  try {
    // 1. a member that claims 1 TB in a 1.5 KB file
    const big = join(dir, 'big.har');
    writeFileSync(big, Buffer.concat([header('x.npz', '17777777777\0'), Buffer.alloc(1024)]));
    const a = await readHarParams(big, ['x']);
    assert.deepEqual(a.arrays, []);
    // 2. a pax header whose size record points past the end
    const paxBody = Buffer.from('30 size=99999999999999999999\n');
    const pax = join(dir, 'pax.har');
    writeFileSync(
      pax,
      Buffer.concat([header('pax', '00000000035\0', 'x'), paxBody, Buffer.alloc(512 - paxBody.length), header('y.npz', '00000000010\0'), Buffer.alloc(1536)]),
    );
    assert.deepEqual((await readHarParams(pax, ['x'])).arrays, []);
    // 3. an npz member that is not a zip: one note, nothing thrown
    const notZip = join(dir, 'nz.har');
    writeFileSync(notZip, Buffer.concat([header('z.npz', '00000001000\0'), Buffer.alloc(512, 7), Buffer.alloc(1024)]));
    const c = await readHarParams(notZip, ['x']);
    assert.match(c.notes.join(' '), /z\.npz is not a readable \.npz/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
