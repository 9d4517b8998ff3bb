// HTML of the "Hailo: Compare Accuracy" page: one table per output (every oracle against float,
// then every pair), flags, crashed contexts as rows, the calibration distribution beside every
// quantised figure, and a |error| histogram per oracle drawn by the device results page's bundled
// script (uPlot; dist/webview/deviceResults.js draws every `.chart[data-chart]` and posts the
// Export JSON / Run Again clicks). Pure; the same escaping and CSP check as the other pages.
import type { AccuracyDocument, OutputTable } from '@hailo/api';
import { esc, messagePage, pageShell, type ChartPageOptions, type PageOptions } from '../webview/html';
import type { ChartSpec } from '../webview/protocols/charts';

const fig = (v: number | null | undefined) =>
  v === null || v === undefined ? '—' : Number.isNaN(v) ? 'NaN' : Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(3) : v.toFixed(4);
const pct = (v: number | null | undefined) => (v === null || v === undefined ? '—' : Number.isNaN(v) ? 'NaN' : `${Number((v * 100).toPrecision(3))} %`);

function chart(testid: string, spec: ChartSpec): string {
  return `<figure class="chart-box"><figcaption>${esc(spec.title)}</figcaption><div class="chart" data-testid="${esc(testid)}" data-chart="${esc(JSON.stringify(spec))}" role="img" aria-label="${esc(spec.title)}"></div></figure>`;
}

function outputSection(t: OutputTable, i: number): string {
  const rows = t.rows
    .map((r) => {
      const status =
        r.status === 'ok' ? '' : `<span class="badge ${r.status === 'crashed' ? 'bad' : 'na'}">${esc(r.status.toUpperCase())}</span> ${esc(r.message ?? '')}`;
      const m = r.vsFloat;
      const cells =
        r.oracle === 'float'
          ? `<td colspan="4">reference</td>`
          : m
            ? `<td>${fig(m.maxAbsError)}</td><td>${pct(m.relativeError)}</td><td>${fig(m.cosine)}</td><td>${fig(m.correlation)}</td>`
            : `<td colspan="4">—</td>`;
      return `<tr data-testid="acc-row" data-oracle="${esc(r.oracle)}" data-status="${esc(r.status)}"${r.flag ? ' data-flag="true" class="bad"' : ''}><th scope="row">${esc(r.label)}</th>${cells}<td class="muted">${esc(r.calibration ?? '')}</td><td>${status}${r.flag ? `<strong>FLAG</strong> ${esc(r.flag)}` : ''}</td></tr>`;
    })
    .join('');
  const pairs = t.pairs
    .map(
      (p) =>
        `<tr data-testid="acc-pair" data-ref="${esc(p.reference)}" data-other="${esc(p.other)}"${p.flag ? ' data-flag="true" class="bad"' : ''}><td>${esc(p.reference)} → ${esc(p.other)}</td><td>${fig(p.metrics.maxAbsError)}</td><td>${pct(p.metrics.relativeError)}</td><td>${fig(p.metrics.cosine)}</td><td>${fig(p.metrics.correlation)}</td><td>${p.flag ? `<strong>FLAG</strong> ${esc(p.flag)}` : ''}</td></tr>`,
    )
    .join('');
  const charts = t.rows
    .filter((r) => r.errorHistogram)
    .map((r) => {
      const h = r.errorHistogram!;
      const x = h.counts.map((_, k) => (h.edges[k] + h.edges[k + 1]) / 2);
      // Fixed labels only: the oracle's id is one of six known words, never a name from a file.
      return chart(`acc-hist-${i}-${r.oracle}`, {
        kind: 'bars',
        title: `|error| vs float: ${r.label}`,
        xLabel: '|error|',
        yLabel: 'count',
        x,
        series: [{ label: 'count', values: [...h.counts] }],
      });
    })
    .join('');
  return `<details class="section" open data-testid="acc-output" data-name="${esc(t.name)}"><summary><h2>Output <code>${esc(t.name)}</code> <span class="muted">(${t.size.toLocaleString('en-US')} values per input)</span></h2></summary>
<table data-testid="acc-table"><thead><tr><th scope="col">oracle</th><th scope="col">max|err|</th><th scope="col">relative error</th><th scope="col">cosine</th><th scope="col">correlation</th><th scope="col">calibration</th><th scope="col"></th></tr></thead><tbody>${rows}</tbody></table>
${pairs ? `<h3>Between oracles</h3><table data-testid="acc-pairs"><thead><tr><th scope="col">reference → other</th><th scope="col">max|err|</th><th scope="col">relative error</th><th scope="col">cosine</th><th scope="col">correlation</th><th scope="col"></th></tr></thead><tbody>${pairs}</tbody></table>` : ''}
<div class="charts">${charts}</div></details>`;
}

export function renderAccuracyPage(doc: AccuracyDocument, title: string, o: ChartPageOptions): string {
  const flags = doc.flags.length
    ? `<ul data-testid="acc-flags">${doc.flags.map((f) => `<li class="bad">${esc(f)}</li>`).join('')}</ul>`
    : `<p data-testid="acc-no-flags"><span class="badge ok">AGREE</span> every oracle that ran agrees within ${pct(doc.threshold)} relative error</p>`;
  return pageShell(o, {
    title,
    styles: [o.chartStyleUri, o.styleUri],
    bodyAttrs: { 'data-testid': 'accuracy-results' },
    body: `<header class="top"><h1>${esc(title)}</h1><div class="actions"><button type="button" id="export-json" data-testid="acc-export-json">Export JSON…</button><button type="button" id="run-again" data-testid="acc-run-again">Run Again</button></div></header>
<p class="status" id="status" role="status"></p>
<dl class="grid"><dt>Inputs</dt><dd data-testid="acc-inputs">${esc(doc.inputs.text)}</dd><dt>Calibration</dt><dd data-testid="acc-calibration">${esc(doc.calibration)}</dd><dt>Flag above</dt><dd>${pct(doc.threshold)} relative error</dd></dl>
${flags}
${doc.outputs.map(outputSection).join('\n')}`,
  });
}

export function renderAccuracyMessage(title: string, message: string, o: PageOptions): string {
  return messagePage(title, message, o, 'accuracy-message');
}
