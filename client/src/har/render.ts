// HTML of the HAR view (a readonly custom editor for .har). Pure, no vscode import, unit-tested
// directly. Same rules as the HEF inspector: the nonce CSP is checked before anything is rendered,
// every string from the archive goes through `esc`, the SNR chart is SVG built from numbers only,
// and its page script (client/src/webview/pages/har.ts) only posts clicks and the search text back (data-* attributes carry indexes,
// never names the script would have to trust). Big HNs stay bounded: layers are shown a page at a
// time, filtered by the search on the host.
import type { DivergenceResults, DivergenceRow, HarViewDocument, HarViewLayer, LayerNoise, NoiseReport } from '@hailo/api';
import { esc, messagePage, pageShell, type PageOptions } from '../webview/html';

export const PAGE_SIZE = 200;

/** Where a script names a layer: the script's index in `scripts` and 0-based lines. */
export interface ScriptRefs {
  scripts: string[];
  /** layer name → [script index, line][] */
  lines: Map<string, [number, number][]>;
}

export interface HarPageModel {
  doc: HarViewDocument;
  title: string;
  /** Case-insensitive substring over name, type and ONNX names; '' shows all. */
  query: string;
  page: number;
  /** A layer to scroll to and mark (from "Show Layer in HAR View"). */
  focus?: string;
  refs: ScriptRefs;
  /** The ONNX the HAR was parsed from, when it is beside it (its nodes link to the graph view). */
  onnx?: string;
  /** A message for the top of the page (a finished or failed run). */
  banner?: { kind: 'ok' | 'bad'; text: string };
  /** The last action's one line, shown in the status line (it outlives a re-render of the page). */
  status?: string;
  /** media/har.css (the chart, the marked layer) beside hef.css. */
  extraStyleUri?: string;
}

const shape = (s: readonly (number | string | null)[]) => `[${s.map((d) => (d === null ? '?' : String(d))).join(', ')}]`;
const db = (v: number) => `${v.toFixed(2)} dB`;

export function matches(l: HarViewLayer, q: string): boolean {
  if (!q) return true;
  const s = q.toLowerCase();
  return l.name.toLowerCase().includes(s) || l.type.toLowerCase().includes(s) || l.originalNames.some((n) => n.toLowerCase().includes(s));
}

/** Which page shows `focus` under `query` (0 when it is not shown). */
export function pageOf(doc: HarViewDocument, query: string, focus: string | undefined): number {
  if (!focus) return 0;
  const i = doc.layers.filter((l) => matches(l, query)).findIndex((l) => l.name === focus);
  return i < 0 ? 0 : Math.floor(i / PAGE_SIZE);
}

/** Bars of SNR, worst first: numbers in, SVG out (names stay in the table beside it). */
export function snrChartSvg(layers: readonly LayerNoise[], thresholdDb: number): string {
  const shown = layers.filter((l) => !l.unranked).slice(0, 40);
  if (!shown.length) return '<p class="muted" data-testid="har-noise-chart-empty">No ranked layer.</p>';
  const W = 480;
  const row = 14;
  const H = shown.length * row;
  const max = shown.reduce((m, l) => Math.max(m, l.snrDb), thresholdDb * 2);
  const min = shown.reduce((m, l) => Math.min(m, l.snrDb), 0);
  const x = (v: number) => ((v - min) / (max - min || 1)) * (W - 60);
  const bars = shown
    .map((l, i) => {
      const w = Math.max(1, x(l.snrDb) - x(min));
      return `<rect class="${l.reasons.length ? 'bad' : 'ok'}" x="0" y="${i * row + 2}" width="${w.toFixed(1)}" height="${row - 4}"><title>${i + 1}: ${esc(db(l.snrDb))}</title></rect><text x="${(w + 4).toFixed(1)}" y="${i * row + row - 3}" font-size="10" fill="currentColor">${esc(l.snrDb.toFixed(1))}</text>`;
    })
    .join('');
  const t = x(thresholdDb);
  return `<svg class="snr" data-testid="har-noise-chart" data-bars="${shown.length}" viewBox="0 0 ${W} ${H + 12}" width="${W}" height="${H + 12}" role="img" aria-label="SNR per layer, worst first"><g fill="currentColor">${bars}</g><line x1="${t.toFixed(1)}" x2="${t.toFixed(1)}" y1="0" y2="${H}" stroke="currentColor" stroke-dasharray="3 3"/><text x="${t.toFixed(1)}" y="${H + 10}" font-size="10" fill="currentColor">${esc(thresholdDb)} dB</text></svg>`;
}

function noiseSection(n: NoiseReport): string {
  const chosenSet = new Set(n.chosen);
  const rows = n.layers
    .map((l, i) => {
      const outs = l.perOutput.length ? l.perOutput.map((o) => `${esc(o.output)}: ${esc(db(o.snrDb))}`).join(', ') : esc(l.basis);
      const chosen = chosenSet.has(l.name);
      return `<tr data-testid="har-noise-row" data-layer-index="${i}"><td><input type="checkbox" class="sixteen" data-noise-index="${i}" ${chosen ? 'checked' : ''} ${l.unranked ? 'disabled' : ''} aria-label="16 bits"></td><td><a href="#" class="goto-layer" data-noise-index="${i}"><code>${esc(l.name)}</code></a></td><td class="nowrap ${l.reasons.length ? 'bad' : ''}" data-testid="har-noise-snr">${esc(db(l.snrDb))}</td><td class="muted">${outs}</td><td>${l.unranked ? `<span class="muted">${esc(l.unranked)}</span>` : esc(l.reasons.join('; '))}</td></tr>`;
    })
    .join('');
  const rule = `${esc(n.thresholdDb)} dB${n.outlierBelowDb !== undefined ? `, or a low outlier at or below ${esc(db(n.outlierBelowDb))} (Q1 − 1.5·IQR)` : ''}`;
  return `<details class="section" open data-testid="har-noise"><summary><h2>Noise analysis</h2></summary>
<p data-testid="har-noise-calibration"><strong>Measured on:</strong> ${esc(n.mode)} analysis${n.dataCount !== undefined ? ` of ${esc(n.dataCount)} entries` : ''}${n.calibration ? ` of the calibration set — ${esc(n.calibration)}` : ''}. <span class="muted">Every figure depends on this distribution: a set unlike the deployment inputs gives different layers.</span></p>
<p class="muted">From ${esc(n.source)}. A layer needs more bits at or below ${rule} (the rule of Hailo's optimization diagnostic tool); input/output layers, NMS and argmax are not ranked.</p>
${snrChartSvg(n.layers, n.thresholdDb)}
<p><button id="write-sixteen" type="button">Write 16-bit Line for Checked Layers</button> <code data-testid="har-noise-line">${n.chosen.length ? esc(`quantization_param([${n.chosen.join(', ')}], precision_mode=a16_w16)`) : 'no layer needs more bits'}</code></p>
<table data-testid="har-noise-table"><thead><tr><th scope="col">16-bit</th><th scope="col">layer</th><th scope="col">SNR</th><th scope="col">per output</th><th scope="col">why</th></tr></thead><tbody>${rows}</tbody></table>
${n.notes.map((x) => `<p class="muted">${esc(x)}</p>`).join('')}</details>`;
}

const pct = (x: number) => (Number.isFinite(x) ? `${(x * 100).toFixed(2)} %` : '∞ (float tensor all zeros)');

/** Relative error per layer in dataflow order: numbers in, SVG out (names stay in the table). Compared layers only. */
export function errorChartSvg(rows: readonly DivergenceRow[], threshold: number, first: string | undefined): string {
  const shown = rows
    .map((r, i) => ({ r, i }))
    .filter(({ r }) => r.relativeError !== undefined)
    .slice(0, 60);
  if (!shown.length) return '<p class="muted" data-testid="har-diverge-chart-empty">No layer could be compared.</p>';
  const W = 480;
  const row = 14;
  const H = shown.length * row;
  const finite = shown.map(({ r }) => r.relativeError!).filter(Number.isFinite);
  const max = finite.reduce((m, v) => Math.max(m, v), threshold * 2);
  const x = (v: number) => (Math.min(v, max) / max) * (W - 70);
  const bars = shown
    .map(({ r, i }, k) => {
      const w = Math.max(1, x(r.relativeError!));
      const cls = r.layer === first ? 'first' : r.relativeError! > threshold ? 'bad' : 'ok';
      return `<rect class="${cls}" data-row="${i}" x="0" y="${k * row + 2}" width="${w.toFixed(1)}" height="${row - 4}"><title>${esc(pct(r.relativeError!))}</title></rect><text x="${(w + 4).toFixed(1)}" y="${k * row + row - 3}" font-size="10" fill="currentColor">${esc(pct(r.relativeError!))}</text>`;
    })
    .join('');
  const t = x(threshold);
  return `<svg class="snr diverge" data-testid="har-diverge-chart" data-bars="${shown.length}" viewBox="0 0 ${W} ${H + 12}" width="${W}" height="${H + 12}" role="img" aria-label="relative error per layer, dataflow order"><g fill="currentColor">${bars}</g><line x1="${t.toFixed(1)}" x2="${t.toFixed(1)}" y1="0" y2="${H}" stroke="currentColor" stroke-dasharray="3 3"/><text x="${t.toFixed(1)}" y="${H + 10}" font-size="10" fill="currentColor">${esc(pct(threshold))}</text></svg>`;
}

/** The first-divergent-layer results (`<net>.diverge.json`): verdict, inputs and distribution, chart, one row per layer. */
export function divergenceSection(v: DivergenceResults & { source: string }, onnxLinks: boolean): string {
  const rows = v.layers
    .map((r, i) => {
      const isFirst = v.first?.layer === r.layer;
      const tensor = r.tensor
        ? onnxLinks
          ? `<a href="#" class="goto-tensor" data-row="${i}"><code>${esc(r.tensor)}</code></a>`
          : `<code>${esc(r.tensor)}</code>`
        : '';
      const err = r.relativeError !== undefined ? esc(pct(r.relativeError)) : '—';
      const bad = r.relativeError !== undefined && r.relativeError > v.threshold;
      return `<tr data-testid="har-diverge-row" data-row="${i}" class="${isFirst ? 'first' : ''}"${isFirst ? ' data-first="true"' : ''}><td><a href="#" class="goto-diverge-layer" data-row="${i}"><code>${esc(r.layer)}</code></a>${isFirst ? ' <strong data-testid="har-diverge-first">← first divergent layer</strong>' : ''}</td><td>${esc(r.type)}</td><td>${tensor}</td><td class="nowrap${bad ? ' bad' : ''}" data-testid="har-diverge-error">${err}</td><td class="nowrap muted">${r.inputError !== undefined ? esc(pct(r.inputError)) : ''}</td><td class="muted">${r.why ? esc(r.why) : ''}</td></tr>`;
    })
    .join('');
  const i = v.inputs;
  const measured = `the first ${i.count === 1 ? 'entry' : `${esc(i.count)} entries`} of <code>${esc(i.file)}</code>${i.of !== undefined ? ` (${esc(i.of)} in the set)` : ''}`;
  return `<details class="section" open data-testid="har-diverge"><summary><h2>First divergent layer</h2></summary>
<p data-testid="har-diverge-verdict"><strong>${esc(v.verdict)}</strong></p>
<p data-testid="har-diverge-calibration"><strong>Measured on:</strong> ${measured}, float <code>${esc(v.onnx)}</code> against the emulator's ${esc(v.context)} context. <strong>Distribution:</strong> ${esc(i.distribution ?? 'not measured')}. <span class="muted">Every figure depends on these inputs: frames unlike the deployment inputs give different errors.</span></p>
<p class="muted">From ${esc(v.source)}${v.finishedAt ? ` (${esc(v.finishedAt)})` : ''}. Relative error ‖emulator − float‖₂ / ‖float‖₂ over the frames; the first divergent layer is the first in dataflow order above ${esc(pct(v.threshold))} and at least ${esc(v.jump)}× its inputs' error. Layers that could not be compared say why.</p>
${errorChartSvg(v.layers, v.threshold, v.first?.layer)}
<table data-testid="har-diverge-table"><thead><tr><th scope="col">layer</th><th scope="col">type</th><th scope="col">ONNX tensor</th><th scope="col">error vs float</th><th scope="col">its inputs'</th><th scope="col">not compared because</th></tr></thead><tbody>${rows}</tbody></table></details>`;
}

function arraysCell(l: HarViewLayer): string {
  if (!l.arrays.length) return '';
  const items = l.arrays
    .slice(0, 40)
    .map(
      (a) =>
        `<li><code>${esc(a.key)}</code> ${esc(a.dtype)} ${esc(shape(a.shape))}${a.values ? ` = ${esc(a.values.slice(0, 8).join(', '))}${a.values.length > 8 ? ' …' : ''}` : ''} <span class="muted">${esc(a.member)}</span></li>`,
    )
    .join('');
  return `<details><summary>${l.arrays.length} array${l.arrays.length === 1 ? '' : 's'}</summary><ul class="arrays">${items}</ul>${l.arrays.length > 40 ? `<p class="muted">${l.arrays.length - 40} more: Copy JSON has them all.</p>` : ''}</details>`;
}

function kv(r: Record<string, string>): string {
  const e = Object.entries(r);
  return e.length ? e.map(([k, v]) => `<code>${esc(k)}=${esc(v)}</code>`).join(' ') : '';
}

export function renderHarPage(m: HarPageModel, o: PageOptions): string {
  const d = m.doc;
  const filtered = d.layers.map((l, i) => ({ l, i })).filter(({ l }) => matches(l, m.query));
  const pages = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
  const page = Math.min(Math.max(0, m.page), pages - 1);
  const shown = filtered.slice(page * PAGE_SIZE, (page + 1) * PAGE_SIZE);
  const onnxLinks = !!m.onnx;
  const rows = shown
    .map(({ l, i }) => {
      const refs = (m.refs.lines.get(l.name) ?? [])
        .slice(0, 6)
        .map(
          ([s, line]) =>
            `<a href="#" class="goto-script" data-script="${s}" data-line="${line}">${esc(m.refs.scripts[s].split(/[\\/]/).pop())}:${line + 1}</a>`,
        )
        .join(' ');
      const onnx = l.originalNames
        .map((n, k) => (onnxLinks ? `<a href="#" class="goto-onnx" data-layer="${i}" data-name="${k}"><code>${esc(n)}</code></a>` : `<code>${esc(n)}</code>`))
        .join(', ');
      const focus = m.focus === l.name ? ' focus' : '';
      return `<tr id="layer-${i}" class="layer${focus}" data-testid="har-layer-row" data-layer="${esc(l.name)}"><td><code>${esc(l.name)}</code></td><td>${esc(l.type)}</td><td class="nowrap">${esc(l.inputShapes.map(shape).join(' '))} → ${esc(l.outputShapes.map(shape).join(' '))}</td><td>${onnx}</td><td>${l.precisionMode ? `<code>${esc(l.precisionMode)}</code>` : ''} ${kv(l.quantization)}</td><td class="nowrap${l.noise?.reasons.length ? ' bad' : ''}" data-testid="har-layer-snr">${l.noise ? esc(db(l.noise.snrDb)) : ''}</td><td>${refs}</td><td>${kv(l.params)}${arraysCell(l)}</td></tr>`;
    })
    .join('');
  const summary: [string, string][] = [
    ['Network', `<code>${esc(d.network)}</code>${d.stage ? ` <span class="muted">(stage ${esc(d.stage)})</span>` : ''}`],
    ['State', `<span data-testid="har-state">${esc(d.state ?? 'not recorded')}</span>`],
    ['DFC', esc(d.sdkVersion ?? 'not recorded')],
    ['Architecture', esc(d.hwArch ?? 'not recorded')],
    ['Layers', `<span data-testid="har-layer-count">${d.layers.length}</span>`],
    [
      'Inputs / outputs',
      `${d.inputs.map((x) => `<code>${esc(x)}</code>`).join(', ') || '—'} → ${d.outputs.map((x) => `<code>${esc(x)}</code>`).join(', ') || '—'}`,
    ],
    ['Members', d.members.map((x) => `${esc(x.name)} (${x.size.toLocaleString('en-US')} bytes)`).join(', ')],
    [
      'ONNX',
      m.onnx
        ? `${esc(m.onnx.split(/[\\/]/).pop())} (its nodes open in the graph view)`
        : d.originalModel
          ? `${esc(d.originalModel)} (not beside the HAR)`
          : 'not recorded',
    ],
    ['Scripts beside it', m.refs.scripts.length ? m.refs.scripts.map((s) => esc(s.split(/[\\/]/).pop())).join(', ') : 'none'],
  ];
  const outline = d.types.map((t) => `<li><a href="#" class="filter-type" data-type="${esc(t.type)}"><code>${esc(t.type)}</code></a> ${t.count}</li>`).join('');
  const banner = m.banner ? `<p class="banner ${m.banner.kind}" data-testid="har-banner" role="status">${esc(m.banner.text)}</p>` : '';
  const pager =
    pages > 1
      ? `<p class="pager" data-testid="har-pager"><button class="page-prev" type="button" ${page === 0 ? 'disabled' : ''}>Previous</button> page ${page + 1} of ${pages} <button class="page-next" type="button" ${page >= pages - 1 ? 'disabled' : ''}>Next</button></p>`
      : '';
  const noise = d.noise
    ? noiseSection(d.noise)
    : `<details class="section" open data-testid="har-noise"><summary><h2>Noise analysis</h2></summary><p data-testid="har-noise-none">${d.state === 'quantized_model' || d.state === 'compiled_model' ? "Not run yet for this HAR: <strong>Analyze Layer Noise</strong> runs the DFC's layer noise analysis in its container on the calibration set beside it and shows the SNR of every layer here." : `This is a ${esc(d.state ?? 'parsed')} archive: noise analysis needs the optimized HAR (after optimize).`}</p></details>`;
  const diverge = d.divergence
    ? divergenceSection(d.divergence, onnxLinks)
    : `<details class="section" open data-testid="har-diverge"><summary><h2>First divergent layer</h2></summary><p data-testid="har-diverge-none">${d.state === 'quantized_model' || d.state === 'compiled_model' ? `Not run yet for this HAR: <strong>Find First Divergent Layer</strong> runs ${onnxLinks ? 'the ONNX beside it' : 'its float ONNX'} and the DFC emulator on the same inputs and compares them layer by layer.` : `This is a ${esc(d.state ?? 'parsed')} archive: the comparison needs the optimized HAR (after optimize).`}</p></details>`;
  return pageShell(o, {
    title: m.title,
    styles: m.extraStyleUri ? [o.styleUri, m.extraStyleUri] : [o.styleUri],
    bodyAttrs: { 'data-testid': 'har-view', 'data-page': page, 'data-pages': pages },
    body: `<div class="top"><h1>${esc(m.title)}</h1><div class="actions"><button id="analyze-noise" type="button">Analyze Layer Noise…</button><button id="find-divergence" type="button">Find First Divergent Layer…</button><button id="copy-json" type="button">Copy JSON</button><button id="reload" type="button">Reload</button></div></div>
<p id="status" class="status" role="status">${esc(m.status ?? '')}</p>${banner}
${d.notes.map((x) => `<p class="muted">${esc(x)}</p>`).join('')}
<details class="section" open data-testid="har-summary"><summary><h2>Summary</h2></summary><dl class="grid">${summary.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join('')}</dl></details>
<details class="section" data-testid="har-outline"><summary><h2>Outline</h2></summary><ul class="outline">${outline}</ul></details>
${noise}
${diverge}
<details class="section" open data-testid="har-layers"><summary><h2>Layers</h2></summary>
<p><label>Search <input id="search" type="search" value="${esc(m.query)}" placeholder="name, type or ONNX node" aria-label="search layers"></label> <span class="muted" data-testid="har-match-count">${filtered.length} of ${d.layers.length} layers</span></p>${pager}
<table data-testid="har-layer-table"><thead><tr><th scope="col">layer</th><th scope="col">type</th><th scope="col">shapes (NHWC)</th><th scope="col">ONNX nodes</th><th scope="col">quantization</th><th scope="col">SNR</th><th scope="col">scripts</th><th scope="col">params</th></tr></thead><tbody>${rows}</tbody></table>${pager}</details>`,
  });
}

export function renderHarMessage(title: string, text: string, o: PageOptions): string {
  return messagePage(title, text, o, 'har-view-message');
}

/** Layer names a script's lines mention (identifiers outside comments), for the scripts column. */
export function scriptRefs(scripts: { path: string; text: string }[], layerNames: ReadonlySet<string>): ScriptRefs {
  const lines = new Map<string, [number, number][]>();
  scripts.forEach((s, si) => {
    s.text.split(/\r?\n/).forEach((line, li) => {
      const code = line.replace(/#.*$/, '');
      const seen = new Set<string>();
      for (const m of code.matchAll(/[A-Za-z_][\w/-]*/g)) {
        const name = m[0].slice(m[0].lastIndexOf('/') + 1);
        if (!layerNames.has(name) || seen.has(name)) continue;
        seen.add(name);
        (lines.get(name) ?? lines.set(name, []).get(name)!).push([si, li]);
      }
    });
  });
  return { scripts: scripts.map((s) => s.path), lines };
}
