// The HAR view's page (pure renderer): the nonce CSP is required, every name from the archive is
// text (a HAR whose layer, type, ONNX and array names are HTML renders none of it as markup), the
// SNR chart has one bar per ranked layer worst first, the 16-bit line is on the page, big HNs are
// paged and searched on the host, and the scripts column points at the lines that name a layer.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readHarView, type HarViewDocument, type HarViewLayer } from '../../../server/src/core/har/harView';
import { PAGE_SIZE, errorChartSvg, pageOf, renderHarPage, scriptRefs, snrChartSvg } from '../../../client/src/har/render';
import type { DivergenceResults } from '../../../server/src/core/har/divergenceResults';
import { repoRoot } from '../../helpers/shared';

const CSP = "default-src 'none'; style-src https://webview.test; img-src https://webview.test; font-src https://webview.test; script-src 'nonce-n0nce'";
const PAGE = {
  nonce: 'n0nce',
  cspMeta: `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
  styleUri: 'https://webview.test/hef.css',
  scriptUri: 'https://webview.test/har.js',
};
const QUANT = join(repoRoot, 'test', 'fixtures', 'har', 'tinycnn_quantized.har');
const noRefs = { scripts: [], lines: new Map() };

test('har page: quantized fixture — summary, noise chart worst first with the calibration set, the 16-bit line, SNR column', async () => {
  const doc = await readHarView(QUANT);
  const html = renderHarPage({ doc, title: 'tinycnn_quantized.har', query: '', page: 0, refs: noRefs }, PAGE);
  assert.match(html, /data-testid="har-state">quantized_model</);
  assert.match(html, /data-testid="har-layer-count">15</);
  assert.equal((html.match(/data-testid="har-layer-row"/g) ?? []).length, 15);
  assert.match(html, /data-testid="har-noise-chart" data-bars="13"/, '13 ranked layers (output_layer1 is not ranked)');
  assert.match(html, /data-testid="har-noise-line">quantization_param\(\[conv3, deconv1\], precision_mode=a16_w16\)</);
  assert.match(
    html,
    /data-testid="har-noise-calibration"><strong>Measured on:<\/strong> simple analysis of 16 entries of the calibration set — integers in 0–255 \(image pixels\)/,
  );
  const firstRow = /data-testid="har-noise-row"[^]*?<\/tr>/.exec(html)![0];
  assert.match(firstRow, /conv3/);
  assert.match(firstRow, /checked/);
  assert.match(html, /data-layer="conv3"[^]*?data-testid="har-layer-snr">6\.30 dB</);
  assert.throws(() =>
    renderHarPage(
      { doc, title: 'x', query: '', page: 0, refs: noRefs },
      { ...PAGE, cspMeta: '<meta http-equiv="Content-Security-Policy" content="default-src *">' },
    ),
  );
});

test('har page: every name from the archive stays text', () => {
  const evil = '<img src=x onerror=alert(1)>';
  const layer: HarViewLayer = {
    name: `${evil}conv1`,
    fullName: `n/${evil}`,
    type: `<script>t</script>`,
    inputs: [],
    outputs: [],
    inputShapes: [[-1, 8, 8, '<b>']],
    outputShapes: [[-1, 8, 8, 3]],
    originalNames: [`"><svg onload=x>`],
    params: { [`<i>k`]: '"<u>"' },
    quantization: { precision_mode: '<a16>' },
    precisionMode: '<a16>',
    arrays: [{ member: `${evil}.npz`, key: `<k>`, dtype: 'float32', shape: [1], values: [1] }],
    noise: { layer: `n/${evil}`, name: `${evil}conv1`, snrDb: 3, basis: 'snr', perOutput: [{ output: evil, snrDb: 3 }], reasons: [`<r>`] },
  };
  const doc: HarViewDocument = {
    file: '/x.har',
    members: [{ name: evil, size: 1 }],
    state: evil,
    sdkVersion: evil,
    hwArch: evil,
    network: evil,
    inputs: [evil],
    outputs: [evil],
    types: [{ type: evil, count: 1 }],
    layers: [layer],
    archiveArrays: [],
    paramMembers: [],
    noise: { source: evil, mode: evil, calibration: evil, layers: [layer.noise!], thresholdDb: 10, chosen: [layer.name], notes: [evil] },
    notes: [evil],
  };
  const html = renderHarPage(
    {
      doc,
      title: evil,
      query: evil,
      page: 0,
      refs: { scripts: [`/d/${evil}.alls`], lines: new Map([[layer.name, [[0, 2]]]]) },
      onnx: `/d/${evil}.onnx`,
      banner: { kind: 'bad', text: evil },
      status: evil,
    },
    PAGE,
  );
  assert.doesNotMatch(html, /<img|<script>t|<svg onload|<b>|<i>k|<u>|<a16>|<k>|<r>/);
  assert.equal((html.match(/<script/g) ?? []).length, 1, 'only the nonce script');
  assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;conv1/);
});

test("har page: the last action's status is in the page it renders, so a re-render keeps it", async () => {
  const doc = await readHarView(QUANT);
  const html = renderHarPage(
    { doc, title: 't', query: '', page: 0, refs: noRefs, status: 'Wrote quantization_param([conv3], precision_mode=a16_w16) into tinycnn.alls (line 9).' },
    PAGE,
  );
  assert.match(
    html,
    /<p id="status" class="status" role="status">Wrote quantization_param\(\[conv3\], precision_mode=a16_w16\) into tinycnn\.alls \(line 9\)\.<\/p>/,
  );
  assert.match(renderHarPage({ doc, title: 't', query: '', page: 0, refs: noRefs }, PAGE), /<p id="status" class="status" role="status"><\/p>/);
});

test('har page: a big HN is paged and searched; the focused layer is on its page; the chart stops at 40 bars', async () => {
  const base = await readHarView(QUANT);
  const many: HarViewLayer[] = Array.from({ length: 450 }, (_, i) => ({ ...base.layers[1], name: `conv${i}`, fullName: `tinycnn/conv${i}`, noise: undefined }));
  const doc: HarViewDocument = { ...base, layers: many, noise: undefined };
  const p0 = renderHarPage({ doc, title: 't', query: '', page: 0, refs: noRefs }, PAGE);
  assert.equal((p0.match(/data-testid="har-layer-row"/g) ?? []).length, PAGE_SIZE);
  assert.match(p0, /data-pages="3"/);
  const last = renderHarPage({ doc, title: 't', query: '', page: 9, refs: noRefs }, PAGE);
  assert.match(last, /data-page="2"/, 'a page past the end shows the last one');
  assert.equal((last.match(/data-testid="har-layer-row"/g) ?? []).length, 50);
  const found = renderHarPage({ doc, title: 't', query: 'CONV123', page: 0, refs: noRefs }, PAGE);
  assert.deepEqual(
    [...found.matchAll(/data-layer="([^"]+)"/g)].map((m) => m[1]),
    ['conv123'],
  );
  assert.match(found, /data-testid="har-match-count">1 of 450 layers/);
  assert.equal(pageOf(doc, '', 'conv420'), 2);
  const svg = snrChartSvg(
    Array.from({ length: 60 }, (_, i) => ({ layer: `n/l${i}`, name: `l${i}`, snrDb: i, basis: 'snr' as const, perOutput: [], reasons: [] })),
    10,
  );
  assert.match(svg, /data-bars="40"/);
});

test('har page: scripts beside the HAR — the lines that name a layer, comments ignored, scoped names too', () => {
  const refs = scriptRefs(
    [
      {
        path: '/m/a.alls',
        text: 'quantization_param(conv1, precision_mode=a16_w16)\n# conv2 in a comment\nquantization_param([tinycnn/conv2, conv1], precision_mode=a8_w8)\n',
      },
      { path: '/m/b.alls', text: 'change_output_activation(conv2, sigmoid)\n' },
    ],
    new Set(['conv1', 'conv2', 'conv3']),
  );
  assert.deepEqual(refs.lines.get('conv1'), [
    [0, 0],
    [0, 2],
  ]);
  assert.deepEqual(refs.lines.get('conv2'), [
    [0, 2],
    [1, 0],
  ]);
  assert.equal(refs.lines.get('conv3'), undefined);
});

test('har page: first divergent layer — verdict, inputs and their distribution, error chart, the jump marked, uncompared layers with why, names stay text', async () => {
  const doc = await readHarView(QUANT);
  const evil = '<img src=x onerror=alert(1)>';
  const divergence: DivergenceResults & { source: string } = {
    format: 'hailo-tools-diverge/1',
    har: 'tinycnn_quantized.har',
    onnx: `${evil}.onnx`,
    context: 'quantized',
    inputs: { file: 'tinycnn_calib.npy', count: 1, of: 64, distribution: 'integers in 0–255 (image pixels)' },
    threshold: 0.1,
    jump: 3,
    layers: [
      { layer: 'input_layer1', type: 'input_layer', why: 'input_layer layers are not compared' },
      { layer: 'conv1', type: 'conv', tensor: `relu1${evil}`, relativeError: 0.001, inputError: 0 },
      { layer: 'conv2', type: 'conv', tensor: 'relu2', relativeError: 0.002, inputError: 0.001 },
      { layer: 'conv3', type: 'conv', tensor: 'relu3', relativeError: 0.5, inputError: 0.002 },
      { layer: 'conv4', type: 'conv', tensor: 'relu4', relativeError: Infinity, inputError: 0.5 },
    ],
    first: { layer: 'conv3', relativeError: 0.5, inputError: 0.002 },
    verdict: 'First divergent layer: conv3 (relative error 50.0 %, its inputs 0.2 %).',
    finishedAt: '2026-12-02T00:00:00.000Z',
    source: '/w/tinycnn_quantized.diverge.json',
  };
  const html = renderHarPage({ doc: { ...doc, divergence }, title: 't', query: '', page: 0, refs: noRefs, onnx: '/w/tinycnn.onnx' }, PAGE);
  assert.match(html, /data-testid="har-diverge-verdict"><strong>First divergent layer: conv3 \(relative error 50\.0 %, its inputs 0\.2 %\)\.</);
  assert.match(
    html,
    /data-testid="har-diverge-calibration">.*the first entry of <code>tinycnn_calib\.npy<\/code> \(64 in the set\).*Distribution:<\/strong> integers in 0–255/,
  );
  assert.match(html, /data-testid="har-diverge-chart" data-bars="4"/, 'one bar per compared layer');
  assert.equal((html.match(/data-testid="har-diverge-row"/g) ?? []).length, 5);
  const marked = [...html.matchAll(/data-testid="har-diverge-row" data-row="(\d)" class="first" data-first="true"/g)].map((m) => m[1]);
  assert.deepEqual(marked, ['3'], 'only conv3 is marked');
  assert.match(html, /data-row="0"[^]*?<\/td><td class="muted">input_layer layers are not compared<\/td>/);
  assert.match(html, /data-testid="har-diverge-error">50\.00 %</);
  assert.match(html, /data-testid="har-diverge-error">∞ \(float tensor all zeros\)</);
  assert.match(html, /class="goto-tensor" data-row="1"/, 'the tensor links to the graph view');
  assert.match(html, /class="goto-diverge-layer" data-row="3"/);
  assert.ok(!html.includes(evil), 'hostile names are escaped');
  assert.match(html, /id="find-divergence"/);
  // without results: what the button does
  const none = renderHarPage({ doc, title: 't', query: '', page: 0, refs: noRefs }, PAGE);
  assert.match(none, /data-testid="har-diverge-none">Not run yet for this HAR: <strong>Find First Divergent Layer<\/strong>/);
  assert.equal(
    errorChartSvg([{ layer: 'a', type: 'conv', why: 'x' }], 0.1, undefined),
    '<p class="muted" data-testid="har-diverge-chart-empty">No layer could be compared.</p>',
  );
});
