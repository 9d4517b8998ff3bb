// HTML of the "Run on Device" results page. Pure (no vscode import) so it is unit-tested directly,
// on the one page shell (client/src/webview/html.ts). Every string from the HEF,
// the device, the worker or a file goes through `esc`; chart data travels as escaped JSON in a
// `data-chart` attribute and is drawn by the bundled webview script (uPlot) — the charts carry
// only numbers and fixed labels, never a name from the file. Stable `data-testid`s for the e2e.
import { esc, messagePage, pageShell, type ChartPageOptions, type PageOptions } from '../webview/html';
import type { ChartSpec } from '../webview/protocols/charts';
import type { ErrorMetrics, FpsPoint, OutputStats } from '@hailo/api';
import type { RunDocument } from './runDocument';

export type { ChartSpec } from '../webview/protocols/charts';
/** The results page's options: its own stylesheet and uPlot's. */
export type ResultsPage = ChartPageOptions;

function fmt(v: number | null | undefined, sig = 4): string {
  if (v === null || v === undefined) return '—';
  if (Number.isNaN(v)) return 'NaN';
  if (!Number.isFinite(v)) return v > 0 ? '+∞' : '−∞';
  const a = Math.abs(v);
  if (a >= 1e9 || (a !== 0 && a < 1e-3)) return v.toExponential(sig - 1);
  // Recorded figures keep their digits (mean 121.917, 2,083.3 frames/s); small ones `sig` digits.
  return a >= 1 ? v.toLocaleString('en-US', { maximumFractionDigits: 3 }) : v.toLocaleString('en-US', { maximumSignificantDigits: sig });
}

const pct = (v: number | null) => (v === null ? '—' : Number.isNaN(v) ? 'NaN' : `${Number((v * 100).toPrecision(3))} %`);

function badge(ok: boolean | null, labels = ['PASS', 'FAIL', 'NOT RUN']): string {
  const [cls, text] = ok === true ? ['ok', labels[0]] : ok === false ? ['bad', labels[1]] : ['na', labels[2]];
  return `<span class="badge ${cls}">${esc(text)}</span>`;
}

function section(id: string, title: string, body: string): string {
  return `<details class="section" data-testid="run-${id}" open><summary><h2>${esc(title)}</h2></summary>${body}</details>`;
}

function table(testid: string, head: string[], rows: string[]): string {
  if (!rows.length) return `<p class="muted" data-testid="${testid}-empty">None.</p>`;
  return `<table data-testid="${testid}"><thead><tr>${head.map((h) => `<th scope="col">${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

/** A chart and, under it, the same numbers as a table (readable without the script, and by screen readers). */
function chart(testid: string, spec: ChartSpec): string {
  const head = [spec.xLabel, ...spec.series.map((s) => s.label)];
  const rows = spec.x.map((x, i) => `<tr><td>${fmt(x)}</td>${spec.series.map((s) => `<td>${fmt(s.values[i])}</td>`).join('')}</tr>`);
  return (
    `<figure class="chart-box"><figcaption>${esc(spec.title)}</figcaption>` +
    `<div class="chart" data-testid="${esc(testid)}" data-chart="${esc(JSON.stringify(spec))}" role="img" aria-label="${esc(spec.title)}"></div>` +
    `<details class="chart-data"><summary>Data</summary>${table(`${testid}-data`, head, rows)}</details></figure>`
  );
}

/** Bar centres of an equal-width histogram over [min, max]. */
export function histogramCentres(h: { min: number; max: number; counts: number[] }): number[] {
  const n = h.counts.length;
  const w = n ? (h.max - h.min) / n : 0;
  return h.counts.map((_, i) => h.min + w * (i + 0.5));
}

export function fpsChart(points: FpsPoint[]): ChartSpec {
  const sorted = [...points].sort((a, b) => a.queueDepth - b.queueDepth);
  return {
    kind: 'line',
    title: 'Throughput by queue depth (frames in flight)',
    xLabel: 'queue depth',
    yLabel: 'frames/s',
    x: sorted.map((p) => p.queueDepth),
    series: [{ label: 'frames/s', values: sorted.map((p) => p.fps) }],
    xLog2: true,
  };
}

export function msPerFrameChart(points: FpsPoint[]): ChartSpec {
  const sorted = [...points].sort((a, b) => a.queueDepth - b.queueDepth);
  return {
    kind: 'line',
    title: 'Time per frame by queue depth',
    xLabel: 'queue depth',
    yLabel: 'ms/frame',
    x: sorted.map((p) => p.queueDepth),
    series: [{ label: 'ms/frame', values: sorted.map((p) => p.msPerFrame) }],
    xLog2: true,
  };
}

export function histogramChart(title: string, xLabel: string, h: { min: number; max: number; counts: number[] }): ChartSpec {
  return { kind: 'bars', title, xLabel, yLabel: 'count', x: histogramCentres(h), series: [{ label: 'count', values: [...h.counts] }] };
}

function summary(d: RunDocument): string {
  const r = d.report;
  const dev = r.model.device;
  const items: [string, string][] = [
    ['HEF', `<code>${esc(d.title)}</code> (${esc(d.arch.hefArch)}; runs on ${esc(d.arch.compatible.join(', ') || 'no known device')})`],
    [
      'Device',
      `${esc(dev.architecture)} <code>${esc(dev.id)}</code>${dev.firmware ? `, firmware ${esc(dev.firmware)}` : ''}${dev.serial ? `, serial ${esc(dev.serial)}` : ''}${dev.productName ? ` — ${esc(dev.productName)}` : ''}`,
    ],
    [
      'HailoRT',
      `${esc(r.runtime.hailortVersion)}${r.runtime.fake ? ' <span class="badge na" data-testid="run-fake-runtime">FAKE</span> <span class="muted">the test stand-in under test/, not a device: the values are a deterministic function of the inputs, not the network</span>' : ''}`,
    ],
    [
      'I/O',
      `${esc(r.model.format)}, batch ${r.model.batch === 0 ? 'auto' : fmt(r.model.batch)}, async queue ${fmt(r.model.asyncQueueSize)}, group ${esc(d.options.groupId)}`,
    ],
    ['Inputs', esc(r.input.text)],
    ['Frames', `${fmt(d.options.frames)} at queue depth ${fmt(r.fps.queueDepth)}`],
    ['Throughput', `<strong data-testid="run-fps">${fmt(r.fps.fps, 5)}</strong> frames/s (${fmt(r.fps.msPerFrame)} ms/frame)`],
    [
      'Latency',
      `p50 <strong data-testid="run-latency-p50">${fmt(r.latency.p50Ms)}</strong> ms, p99 ${fmt(r.latency.p99Ms)} ms, mean ${fmt(r.latency.meanMs)} ms over ${fmt(r.latency.samples)} single frames`,
    ],
    ['Finished', esc(r.finishedAt)],
  ];
  return section(
    'summary',
    'Summary',
    `<dl class="grid">${items.map(([k, v]) => `<dt>${esc(k)}</dt><dd data-testid="run-summary-${esc(k.toLowerCase().replace(/[^a-z0-9]+/g, '-'))}">${v}</dd>`).join('')}</dl>`,
  );
}

function checks(d: RunDocument): string {
  const all = d.report.checks;
  const failed = all.filter((c) => !c.pass).length;
  const rows = all.map(
    (c) =>
      `<tr data-testid="run-check-row" data-check-id="${esc(c.id)}" data-pass="${c.pass}"><td>${badge(c.pass)}</td><td>${esc(c.name)}</td><td>${esc(c.detail)}</td></tr>`,
  );
  const verdict = failed === 0 ? `all ${all.length} checks pass` : `${failed} of ${all.length} checks fail`;
  return section(
    'checks',
    'Checks',
    `<p data-testid="run-checks-status" data-pass="${failed === 0}">${badge(failed === 0)} ${esc(verdict)}</p>` +
      table('run-checks-table', ['', 'check', 'detail'], rows),
  );
}

function performance(d: RunDocument): string {
  const r = d.report;
  const parts = [chart('chart-fps', fpsChart(r.fpsByQueue)), chart('chart-ms-per-frame', msPerFrameChart(r.fpsByQueue))];
  if (r.latency.histogram && r.latency.histogram.counts.length) {
    parts.push(chart('chart-latency', histogramChart(`Latency of ${fmt(r.latency.samples)} single frames`, 'ms', r.latency.histogram)));
  }
  return section('performance', 'Throughput and latency', `<div class="charts">${parts.join('')}</div>`);
}

function outputRow(o: OutputStats): string {
  return `<tr data-testid="run-output-row" data-name="${esc(o.name)}"><td><code>${esc(o.name)}</code></td><td>${o.shape.join('x')}</td><td>${esc(o.type)}</td><td>${fmt(o.mean)}</td><td>${fmt(o.std)}</td><td>${fmt(o.min)}</td><td>${fmt(o.max)}</td><td>${fmt(o.argmax)}</td><td><code>${esc(o.sha256)}</code></td></tr>`;
}

function outputs(d: RunDocument): string {
  const r = d.report;
  const hists = r.outputs.map(
    (o) =>
      `<div class="output-hist" data-testid="run-output-hist" data-name="${esc(o.name)}"><h3><code>${esc(o.name)}</code></h3>${chart('chart-output', histogramChart(`Values of the first frame (${o.type}, as HailoRT returned them)`, 'value', o.histogram))}</div>`,
  );
  return section(
    'outputs',
    `Outputs (${r.outputs.length})`,
    `<p class="muted">Statistics of the first frame's outputs as HailoRT returned them (${esc(r.model.format)}; not dequantised). sha256: the first 16 hex digits of the output bytes.</p>` +
      table('run-outputs-table', ['output', 'shape', 'type', 'mean', 'std', 'min', 'max', 'argmax', 'sha256'], r.outputs.map(outputRow)) +
      `<div class="charts">${hists.join('')}</div>`,
  );
}

function metricCells(m: ErrorMetrics): string {
  const bad = m.nonFinite.device + m.nonFinite.reference;
  return `<td>${fmt(m.maxAbsError)}</td><td>${fmt(m.meanAbsError)}</td><td data-testid="ref-relative">${pct(m.relativeError)}</td><td data-testid="ref-correlation">${fmt(m.correlation, 5)}</td><td>${fmt(m.cosine, 5)}</td><td>${fmt(m.count)}${bad ? ` <span class="badge bad">${fmt(bad)} non-finite</span>` : ''}</td>`;
}

function reference(d: RunDocument): string {
  const ref = d.reference;
  const statements =
    `<p data-testid="ref-inputs"><strong>Inputs:</strong> ${esc(ref.inputs)}</p>` +
    `<p data-testid="ref-calibration" class="calibration"><strong>Calibration:</strong> ${esc(ref.calibration)}</p>`;
  if (ref.status !== 'ok') {
    const button =
      ref.fix === 'set-onnx'
        ? `<button type="button" id="fix-onnx" data-testid="ref-fix">Choose the ONNX model…</button>`
        : ref.fix === 'set-onnxruntime'
          ? `<button type="button" id="fix-onnxruntime" data-testid="ref-fix">Set hailo.onnxruntime.path…</button>`
          : '';
    return section(
      'reference',
      'Float reference',
      `<p data-testid="ref-status" data-status="${ref.status}">${badge(null, ['', '', ref.status === 'failed' ? 'FAILED' : 'NOT RUN'])} ${esc(ref.reason)} ${button}</p>${statements}`,
    );
  }
  const c = ref.comparison;
  const rows = c.outputs.map(
    (o) =>
      `<tr data-testid="ref-row" data-name="${esc(o.name)}"><td><code>${esc(o.name)}</code></td><td><code>${esc(o.onnxName)}</code></td>${metricCells(o.metrics)}<td class="muted">${esc(o.layout)}${o.dequantized ? '; device values dequantised (q − zp) × scale' : ''}; paired ${esc(o.pairing)}</td></tr>`,
  );
  const skipped = c.skipped.map((s) => `<li data-testid="ref-skipped" data-name="${esc(s.name)}"><code>${esc(s.name)}</code>: ${esc(s.reason)}</li>`);
  return section(
    'reference',
    'Float reference',
    `<p data-testid="ref-status" data-status="ok">The first frame's inputs, preprocessed as the chip does, through <code>${esc(ref.onnx)}</code> (${esc(ref.onnxFoundBy)}) with onnxruntime-node ${esc(ref.runtime)}.</p>` +
      statements +
      table('ref-table', ['HEF output', 'ONNX output', 'max|err|', 'mean|err|', 'relative (L2)', 'correlation', 'cosine', 'values', 'how'], rows) +
      (skipped.length ? `<p>Not compared:</p><ul>${skipped.join('')}</ul>` : '') +
      `<details><summary>Preprocessing and notes</summary><ul>${[...c.preprocessing, ...c.warnings].map((p) => `<li>${esc(p)}</li>`).join('')}${ref.script ? `<li>normalization from <code>${esc(ref.script)}</code></li>` : ''}</ul></details>`,
  );
}

/** The whole results page. */
export function renderResults(d: RunDocument, o: ResultsPage): string {
  return pageShell(o, {
    title: `${d.title} on the device`,
    styles: [o.chartStyleUri, o.styleUri],
    bodyAttrs: { 'data-testid': 'device-results' },
    noDefaultContextMenu: true,
    body: `<header class="top"><h1>${esc(d.title)} <span class="muted">on ${esc(d.report.model.device.architecture)}</span></h1><div class="actions"><button type="button" id="export-json" data-testid="run-export-json">Export JSON…</button><button type="button" id="run-again" data-testid="run-again">Run Again</button></div></header>
<p class="status" id="status" data-testid="run-status" role="status"></p>
${summary(d)}
${checks(d)}
${reference(d)}
${performance(d)}
${outputs(d)}`,
  });
}

/** A minimal page while the run is in progress, or when it failed. */
export function renderRunMessage(title: string, message: string, o: PageOptions): string {
  return messagePage(title, message, o, 'device-results-message');
}
