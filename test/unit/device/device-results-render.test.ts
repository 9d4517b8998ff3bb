// The "Run on Device" results page (client/src/device/resultsRender.ts, pure): every string from
// the device, the HEF, the worker and the files is escaped; the page has a nonce CSP and only our
// script; the checks, figures and float reference are on it with the stable test ids; the charts'
// data is the report's numbers. The run is dfc-flow.md §5.2's published one (test/helpers/runFixtures.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { renderResults, renderRunMessage, type ChartSpec } from '../../../client/src/device/resultsRender';
import { CALIBRATION_LESSON } from '../../../client/src/device/runDocument';
import { EVIL, EVIL_SCRIPT, hostileDocument, rbBatchedDocument } from '../../helpers/runFixtures';
import { assertNoncePage, assertOnlyElements, assertPayloadEscaped, cspMeta as meta, PAGE_FRAME, testPage } from '../../helpers/webviewPage';

const PAGE = { ...testPage('device.css', 'deviceResults.js'), chartStyleUri: 'https://webview.test/deviceResults.css' };

const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&#96;/g, '`')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const charts = (html: string) =>
  [...html.matchAll(/data-testid="([^"]+)" data-chart="([^"]*)"/g)].map((m) => ({ id: m[1], spec: JSON.parse(unescape(m[2])) as ChartSpec }));

test('results: hostile names from the device, HEF and worker render as text, never as markup', () => {
  const html = renderResults(hostileDocument(), PAGE);
  assertPayloadEscaped(html);
  assert.ok(!html.includes(`"'`), 'quotes are escaped');
  assertOnlyElements(html, [
    ...PAGE_FRAME,
    'header',
    'h1',
    'h2',
    'h3',
    'div',
    'button',
    'p',
    'details',
    'summary',
    'dl',
    'dt',
    'dd',
    'span',
    'strong',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'code',
    'ul',
    'li',
    'figure',
    'figcaption',
  ]);
  // Names reach attributes escaped, and come back intact when the browser unescapes them.
  const names = [...html.matchAll(/data-testid="run-output-row" data-name="([^"]*)"/g)].map((m) => unescape(m[1]));
  assert.deepEqual(names, [`out/${EVIL}`, `out/${EVIL_SCRIPT}`]);
  // Chart data carries numbers and fixed labels only: no name from the run reaches the chart library.
  for (const c of charts(html)) {
    const text = JSON.stringify({ ...c.spec, title: '' });
    assert.ok(!text.includes('alert'), `chart ${c.id} carries a name: ${text.slice(0, 200)}`);
  }
  assert.ok(!renderRunMessage(EVIL, EVIL_SCRIPT, PAGE).includes(EVIL));
});

test('results: nonce CSP, no inline styles or handlers; a weak policy is refused', () => {
  const html = renderResults(rbBatchedDocument(), PAGE);
  assertNoncePage(html, 'deviceResults.js');
  assert.ok(!/\son[a-z]+=/.test(html), 'no inline handlers');
  for (const weak of [
    "script-src 'nonce-n0nce+/='",
    "default-src 'none'; script-src 'unsafe-inline' 'nonce-n0nce+/='",
    "default-src 'none'; script-src 'nonce-other'",
  ]) {
    assert.throws(() => renderResults(rbBatchedDocument(), { ...PAGE, cspMeta: meta(weak) }), /weak Content-Security-Policy/);
  }
});

test("results: the published run's checks, figures and float reference are on the page", () => {
  const d = rbBatchedDocument();
  const html = renderResults(d, PAGE);
  const rows = [...html.matchAll(/data-testid="run-check-row" data-check-id="([^"]+)" data-pass="(true|false)"/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(rows, [
    ['different-inputs', 'true'],
    ['same-input-twice', 'true'],
    ['undersized-refused', 'true'],
  ]);
  assert.match(html, /data-testid="run-checks-status" data-pass="true"><span class="badge ok">PASS<\/span> all 3 checks pass/);
  assert.ok(html.includes('seed 2026: mean 122.916, argmax 1004, sha ccb28aab19d2f97a'));
  assert.match(html, /data-testid="run-fps">2,083\.3<\/strong>/);
  assert.match(html, /data-testid="run-latency-p50">1\.4<\/strong>/);
  // Float reference: 2.44 % and 0.99971 (dfc-flow.md §5.2), with the calibration lesson beside them.
  assert.match(html, /data-testid="ref-relative">2\.44 %<\/td><td data-testid="ref-correlation">0\.99971<\/td>/);
  assert.ok(html.includes('data-testid="ref-calibration"'));
  const lesson = CALIBRATION_LESSON.replace(/&/g, '&amp;').replace(/'/g, '&#39;');
  assert.ok(html.includes(lesson), 'the calibration lesson is stated beside the figures');
  // Charts: FPS and ms/frame by queue depth on a log2 axis, latency and one histogram per output.
  const cs = charts(html);
  assert.deepEqual(
    cs.map((c) => c.id),
    ['chart-fps', 'chart-ms-per-frame', 'chart-latency', 'chart-output'],
  );
  assert.deepEqual(cs[0].spec.x, [1, 2, 4, 8, 16, 32]);
  assert.equal(cs[0].spec.xLog2, true);
  assert.deepEqual(
    cs[0].spec.series[0].values,
    d.report.fpsByQueue.map((p) => p.fps),
  );
  assert.deepEqual(cs[3].spec.series[0].values, d.report.outputs[0].histogram.counts);
  // 32 bins over [0, 255]: centres at 255/64, 3·255/64, …
  assert.equal(cs[3].spec.x.length, 32);
  assert.ok(Math.abs(cs[3].spec.x[0] - 255 / 64) < 1e-12 && Math.abs(cs[3].spec.x[31] - (255 - 255 / 64)) < 1e-12);
  // Each chart's numbers are also a table under it.
  assert.match(html, /data-testid="chart-fps-data"/);
});

test('results: a failed check, a fake runtime and a skipped reference say so', () => {
  const d = rbBatchedDocument();
  d.report.checks[1] = { ...d.report.checks[1], pass: false, detail: 'DIFFERS' };
  d.report.runtime.fake = true;
  d.reference = { status: 'skipped', reason: 'No ONNX model was found beside the HEF.', fix: 'set-onnx', inputs: 'x', calibration: 'y' };
  const html = renderResults(d, PAGE);
  assert.match(html, /data-testid="run-checks-status" data-pass="false"><span class="badge bad">FAIL<\/span> 1 of 3 checks fail/);
  assert.match(html, /data-check-id="same-input-twice" data-pass="false"/);
  assert.match(html, /data-testid="run-fake-runtime">FAKE/);
  assert.match(
    html,
    /data-testid="ref-status" data-status="skipped">.*No ONNX model was found beside the HEF\. <button type="button" id="fix-onnx" data-testid="ref-fix">/,
  );
});

test('an exported run reads back as the same document; a malformed export is one sentence, never a page', async () => {
  const { parseRunDocument } = await import('../../../client/src/device/runDocument');
  const d = rbBatchedDocument();
  assert.deepEqual(parseRunDocument(JSON.stringify(d, null, 2), 'a.run.json'), JSON.parse(JSON.stringify(d)));
  const skipped = { ...d, reference: { status: 'skipped', reason: 'x', fix: 'set-onnx', inputs: 'i', calibration: 'c' } };
  assert.ok(!('error' in parseRunDocument(JSON.stringify(skipped), 'a.json')));
  assert.match((parseRunDocument('{', 'a.run.json') as { error: string }).error, /^a\.run\.json is not JSON: Expected property name/);
  const broken = JSON.parse(JSON.stringify(d));
  broken.report.outputs[0].histogram.counts[3] = '<img src=x>';
  assert.deepEqual(parseRunDocument(JSON.stringify(broken), 'b.run.json'), {
    error: "b.run.json is not a Hailo Tools device run export: 'report.outputs' is missing or malformed.",
  });
  assert.match((parseRunDocument('{"kind":"something else"}', 'c.json') as { error: string }).error, /'kind' is missing or malformed/);
  const badRef = JSON.parse(JSON.stringify(d));
  badRef.reference.comparison.outputs[0].metrics.correlation = 'high';
  assert.match((parseRunDocument(JSON.stringify(badRef), 'd.json') as { error: string }).error, /'reference' is missing or malformed/);
});
