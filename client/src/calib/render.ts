// HTML of the Calibration Set Inspector (a readonly custom editor for .npy/.npz). Pure, no vscode
// import, unit-tested directly. Same rules as the HEF inspector: nonce CSP checked before anything
// is rendered, every string from a file through `esc`, histograms as inline SVG built from numbers
// only (no inline style; its page script, client/src/webview/pages/calib.ts, posts button clicks).
import type { CalibReport } from '@hailo/api';
import { esc, messagePage, pageShell, type PageOptions } from '../webview/html';

export interface CalibPageModel {
  report: CalibReport;
  title: string;
  /** What the set was checked against (script, HAR, ONNX), in words. */
  sources: string[];
  /** Files that could not be read. */
  problems: string[];
}

const num = (v: number) =>
  !Number.isFinite(v)
    ? String(v)
    : Number.isInteger(v)
      ? v.toLocaleString('en-US')
      : Math.abs(v) < 0.001 || Math.abs(v) >= 1e5
        ? v.toExponential(3)
        : v.toFixed(4);

/** A bar chart of histogram counts: numbers in, SVG out (labels are numbers too). */
export function histogramSvg(edges: readonly number[], counts: readonly number[], testid: string): string {
  const W = 320;
  const H = 80;
  if (!counts.length) return `<p class="muted" data-testid="${testid}-empty">No finite values.</p>`;
  const max = counts.reduce((m, c) => Math.max(m, c), -Infinity); // not Math.max(...counts): a spread of 10⁵ arguments overflows the stack
  const bw = W / counts.length;
  const bars = counts
    .map((c, i) => {
      const h = max ? Math.max(c ? 1 : 0, Math.round((c / max) * (H - 2))) : 0;
      return `<rect x="${(i * bw).toFixed(2)}" y="${H - h}" width="${Math.max(0.5, bw - 0.5).toFixed(2)}" height="${h}"><title>[${esc(num(edges[i]))}, ${esc(num(edges[i + 1]))}): ${c.toLocaleString('en-US')}</title></rect>`;
    })
    .join('');
  return `<svg class="hist" data-testid="${testid}" viewBox="0 0 ${W} ${H + 14}" width="${W}" height="${H + 14}" role="img" aria-label="histogram"><g fill="currentColor">${bars}</g><text x="0" y="${H + 12}" font-size="10" fill="currentColor">${esc(num(edges[0]))}</text><text x="${W}" y="${H + 12}" font-size="10" text-anchor="end" fill="currentColor">${esc(num(edges[edges.length - 1]))}</text></svg>`;
}

export function renderCalibPage(m: CalibPageModel, o: PageOptions): string {
  const r = m.report;
  const warnings = r.findings.filter((f) => f.severity !== 'info').length;
  const summary: [string, string][] = [
    ['Array', `${esc(r.label)}: ${esc(r.dtype)} (${r.shape.join(', ')})${r.fortranOrder ? ' Fortran order' : ''}`],
    ['Entries', r.count.toLocaleString('en-US')],
    ['Layout', `<span data-testid="calib-layout">${esc(r.layout)}</span> — ${esc(r.layoutHow)}`],
    ['Distribution', esc(r.distribution.text)],
    ['Read', r.sampled ? `sampled: ${esc(r.sampleNote ?? '')}` : 'every value'],
    ['Checked against', m.sources.length ? m.sources.map(esc).join(', ') : 'nothing beside it (no script, HAR or ONNX found)'],
  ];
  if (r.members && r.members.length > 1)
    summary.push([
      '.npz members',
      r.members.map((x) => `${esc(x.name)} (${x.size.toLocaleString('en-US')} bytes${x.compressed ? ', deflated' : ''})`).join(', '),
    ]);
  const findings = r.findings.length
    ? `<ul data-testid="calib-findings">${r.findings.map((f) => `<li class="${f.severity === 'info' ? 'muted' : 'bad'}" data-code="${esc(f.code)}"><strong>${esc(f.severity)}</strong> <code>${esc(f.code)}</code> ${esc(f.message)}</li>`).join('')}</ul>`
    : `<p data-testid="calib-findings-none">No findings.</p>`;
  const shown = r.channels.slice(0, 64);
  const rows = shown
    .map(
      (c, i) =>
        `<tr data-testid="calib-channel-row"><td>${i}</td><td>${num(c.min)}</td><td>${num(c.max)}</td><td>${num(c.mean)}</td><td>${num(c.std)}</td><td>${c.count.toLocaleString('en-US')}</td><td>${histogramSvg(c.histogram.edges, c.histogram.counts, `calib-hist-${i}`)}</td></tr>`,
    )
    .join('');
  const more = r.channels.length > shown.length ? `<p class="muted">${r.channels.length - shown.length} more channels: Copy JSON has them all.</p>` : '';
  const problems = m.problems.length ? `<ul>${m.problems.map((p) => `<li class="bad">${esc(p)}</li>`).join('')}</ul>` : '';
  return pageShell(o, {
    title: m.title,
    bodyAttrs: { 'data-testid': 'calib-inspector' },
    body: `<h1>${esc(m.title)} <span class="badge ${warnings ? 'bad' : 'ok'}" data-testid="calib-verdict">${warnings ? `${warnings} WARNING${warnings === 1 ? '' : 'S'}` : 'NO WARNINGS'}</span></h1>
<p><button id="copy-json" type="button">Copy JSON</button> <button id="reload" type="button">Reload</button> <span id="status" role="status"></span></p>
${problems}
<details class="section" open data-testid="calib-summary"><summary><h2>Summary</h2></summary><dl class="grid">${summary.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl></details>
<details class="section" open data-testid="calib-findings-section"><summary><h2>Findings</h2></summary>${findings}</details>
<details class="section" open data-testid="calib-channels"><summary><h2>Channels</h2></summary><table data-testid="calib-channel-table"><thead><tr><th scope="col">channel</th><th scope="col">min</th><th scope="col">max</th><th scope="col">mean</th><th scope="col">std</th><th scope="col">values</th><th scope="col">histogram</th></tr></thead><tbody>${rows}</tbody></table>${more}</details>`,
  });
}

/** A minimal page while the set is being read, or when reading failed. */
export function renderCalibMessage(title: string, message: string, o: PageOptions): string {
  return messagePage(title, message, o, 'calib-inspector-message');
}
