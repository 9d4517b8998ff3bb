// The Compare Accuracy page (client/src/accuracy/render.ts): names from files are escaped, crashed
// and flagged rows are marked, the calibration is beside the quantised rows, chart data carries
// numbers and fixed labels only, and a weak CSP is refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildAccuracyDocument } from '../../../server/src/core/accuracy/oracles';
import { renderAccuracyPage } from '../../../client/src/accuracy/render';

const page = {
  nonce: 'n0nce',
  cspMeta: `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src x; script-src 'nonce-n0nce'">`,
  styleUri: 's.css',
  chartStyleUri: 'c.css',
  scriptUri: 'w.js',
};

test('accuracy page: escaped names, crashed and flagged rows, calibration beside quantised figures, one chart per compared oracle', () => {
  const y = [Float32Array.from([1, 2, 3])];
  const doc = buildAccuracyDocument({
    outputs: ['<img src=x onerror=alert(1)>'],
    runs: [
      { id: 'float', status: 'ok', outputs: { '<img src=x onerror=alert(1)>': y } },
      { id: 'quantized', status: 'ok', outputs: { '<img src=x onerror=alert(1)>': [Float32Array.from([1, 2, 3.01])] } },
      { id: 'bit_exact', status: 'crashed', message: 'InferenceError: <b>pow</b>' },
    ],
    inputs: { count: 1, text: 'one <input>' },
    calibration: 'uniform [0, 1) <script>',
  });
  const html = renderAccuracyPage(doc, 'Accuracy: <t>', page);
  assert.ok(!html.includes('<img src=x'));
  assert.ok(!html.includes('<b>pow</b>'));
  assert.ok(!html.includes('<script>') || html.indexOf('<script>') < 0);
  assert.equal((html.match(/<script/g) ?? []).length, 1);
  assert.match(html, /data-oracle="bit_exact" data-status="crashed"/);
  assert.match(html, /data-oracle="quantized" data-status="ok"><th scope="row">emulator SDK_QUANTIZED<\/th><td>0\.0100<\/td>/);
  assert.match(html, /<td class="muted">uniform \[0, 1\) &lt;script&gt;<\/td>/);
  assert.equal((html.match(/data-testid="acc-hist-0-quantized"/g) ?? []).length, 1);
  const spec = JSON.parse(
    html
      .match(/data-chart="([^"]*)"/)![1]
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>'),
  );
  assert.equal(spec.title, '|error| vs float: emulator SDK_QUANTIZED');
  assert.ok(spec.series[0].values.every((v: unknown) => typeof v === 'number'));
  assert.throws(
    () => renderAccuracyPage(doc, 't', { ...page, cspMeta: `<meta http-equiv="Content-Security-Policy" content="default-src *">` }),
    /weak Content-Security-Policy/,
  );
});
