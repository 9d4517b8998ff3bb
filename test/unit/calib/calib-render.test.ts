// The Calibration Set Inspector page (client/src/calib/render.ts): a file name full of HTML is shown
// as text, the CSP is checked before rendering, and every channel gets a histogram whose bars are
// the report's counts. The hover markdown escapes what could make links or tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { inspectCalibrationSet } from '../../../server/src/core/calib/inspect';
import { calibMarkdown, mdEscape, sparkline } from '../../../server/src/core/calib/render';
import { histogramSvg, renderCalibPage } from '../../../client/src/calib/render';
import { repoRoot } from '../../helpers/shared';

const page = {
  nonce: 'n0nce',
  cspMeta: `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src x; script-src 'nonce-n0nce'">`,
  styleUri: 'style.css',
  scriptUri: 'hef.js',
};
const file = join(repoRoot, 'test', 'fixtures', 'calib', 'constdup_nhwc_u8.npy');

test('page: hostile names are escaped, findings and one histogram per channel are shown', async () => {
  const report = await inspectCalibrationSet(file);
  report.label = '<img src=x onerror=alert(1)>.npy';
  const html = renderCalibPage({ report, title: '<script>alert(1)</script>', sources: ['script <b>x</b>.alls'], problems: [] }, page);
  assert.ok(!html.includes('<img src=x'), 'label escaped');
  assert.ok(!html.includes('<script>alert'), 'title escaped');
  assert.ok(html.includes('&lt;b&gt;x&lt;/b&gt;'));
  assert.equal((html.match(/<script/g) ?? []).length, 1, 'only the nonce script');
  assert.ok(html.includes('<script nonce="n0nce" src="hef.js">'));
  assert.ok(!/ style=/.test(html), 'no inline style');
  assert.equal((html.match(/data-testid="calib-hist-\d+"/g) ?? []).length, 3);
  assert.ok(html.includes('data-code="calib/constant-entries"') && html.includes('data-code="calib/duplicate-entries"'));
  assert.match(html, /data-testid="calib-verdict">2 WARNINGS</);
  assert.throws(
    () =>
      renderCalibPage(
        { report, title: 't', sources: [], problems: [] },
        { ...page, cspMeta: `<meta http-equiv="Content-Security-Policy" content="default-src *">` },
      ),
    /weak Content-Security-Policy/,
  );
});

test('histogram SVG: one bar per bin, heights proportional to the counts, edges as labels', () => {
  const svg = histogramSvg([0, 1, 2, 3], [10, 5, 0], 'h');
  const heights = [...svg.matchAll(/height="(\d+)"><title>/g)].map((m) => Number(m[1]));
  assert.deepEqual(heights, [78, 39, 0]);
  assert.match(svg, /\[0, 1\): 10/);
});

test('hover markdown: counts, a sparkline per channel, and escaped text', async () => {
  const report = await inspectCalibrationSet(file);
  const md = calibMarkdown(report, 'set.npy');
  assert.match(md, /`set\.npy`: uint8 \(64, 8, 8, 3\), \*\*64 entries\*\*/);
  assert.equal((md.match(/^\| \d \|/gm) ?? []).length, 3);
  assert.equal(mdEscape('[a](http://x) <b>|'), '\\[a\\](http://x) \\<b\\>\\|');
  assert.equal(sparkline([0, 1, 2, 4]), ' ▃▅█'); // ▁…█ = 8 levels: round(c/max × 7)
});
