// The sweep page's script (bundled with uPlot into dist/webview/sweep.js, loaded by nonce). It
// builds the table, the contexts and the chart from the view the host posts (client/src/sweep/view.ts;
// messages: ../protocols/sweep.ts)
// with textContent only, sorts on a heading click, and posts clicks: open a variant's log or HEF,
// export, cancel, run again. It never gets a path: the host resolves the row id against its own document.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { unhandled } from '../protocol';
import type { SweepFromPage, SweepToPage, SweepView, ViewRow } from '../protocols/sweep';
import { connectHost } from './lib/channel';

const vscode = connectHost<SweepToPage, SweepFromPage>();
const saved = vscode.getState<{ sort: { col: number; desc: boolean }; x: 'time' | 'fps' }>();
let sort = saved.sort ?? { col: 0, desc: false };
let xAxis: 'time' | 'fps' = saved.x ?? 'time';
let view: SweepView | undefined;
let plot: uPlot | undefined;

const $ = <T extends HTMLElement>(sel: string) => document.querySelector<T>(sel)!;
const el = (tag: string, text?: string, attrs: Record<string, string> = {}) => {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
};

function compare(a: number | string | null, b: number | string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { numeric: true });
}

function sortedRows(v: SweepView): ViewRow[] {
  const rows = v.rows.map((r, i) => ({ r, i }));
  rows.sort((x, y) => {
    const a = x.r.cells[sort.col]?.v ?? null;
    const b = y.r.cells[sort.col]?.v ?? null;
    // empty cells last in both directions
    if (a === null || b === null) return a === b ? x.i - y.i : a === null ? 1 : -1;
    const c = compare(a, b);
    return (sort.desc ? -c : c) || x.i - y.i;
  });
  return rows.map((x) => x.r);
}

function renderTable(v: SweepView): void {
  const table = $<HTMLTableElement>('[data-testid="sweep-table"]');
  const head = el('tr');
  v.columns.forEach((c, i) => {
    const th = el('th', c.title, { scope: 'col', 'data-col': c.id, tabindex: '0' });
    if (i === sort.col) th.setAttribute('aria-sort', sort.desc ? 'descending' : 'ascending');
    const pick = () => {
      sort = { col: i, desc: sort.col === i ? !sort.desc : false };
      vscode.setState({ sort, x: xAxis });
      renderTable(v);
    };
    th.addEventListener('click', pick);
    th.addEventListener('keydown', (e) => {
      if (e.key === 'Enter' || e.key === ' ') pick();
    });
    head.appendChild(th);
  });
  table.tHead!.replaceChildren(head);
  const body = document.createDocumentFragment();
  for (const r of sortedRows(v)) {
    const tr = el('tr', undefined, { 'data-id': r.id, 'data-state': r.state, 'data-testid': 'sweep-row' });
    r.cells.forEach((cell, i) => {
      const col = v.columns[i];
      const td = el('td', cell.text, { 'data-col': col.id });
      if (col.id === 'message') td.classList.add('message');
      const what = col.link === 'hef' && r.has.hef ? 'hef' : r.has.log ? 'log' : r.has.alls ? 'alls' : null;
      if (col.link && what) {
        td.classList.add('link');
        td.title = what === 'hef' ? 'Open the HEF' : what === 'log' ? 'Open the DFC log' : 'Open the derived script';
        td.addEventListener('click', () => vscode.post({ type: 'open', id: r.id, what }));
      }
      tr.appendChild(td);
    });
    body.appendChild(tr);
  }
  table.tBodies[0].replaceChildren(body);
}

function renderContexts(v: SweepView): void {
  const body = document.createDocumentFragment();
  for (const c of v.contexts) {
    const tr = el('tr', undefined, { 'data-state': c.state, 'data-testid': 'sweep-context' });
    for (const t of [c.name, String(c.width), c.state, String(c.ran), c.message]) tr.appendChild(el('td', t));
    body.appendChild(tr);
  }
  $<HTMLTableElement>('[data-testid="sweep-contexts"]').tBodies[0].replaceChildren(body);
}

function cssVar(name: string, fallback: string): string {
  return getComputedStyle(document.body).getPropertyValue(name).trim() || fallback;
}

function renderChart(v: SweepView): void {
  const box = $<HTMLElement>('#sweep-chart');
  const note = $<HTMLElement>('#chart-note');
  const pts = v.chart.filter((p) => (xAxis === 'time' ? p.seconds !== null : p.fps !== null)).sort((a, b) => xOf(a) - xOf(b));
  plot?.destroy();
  plot = undefined;
  box.replaceChildren();
  box.dataset.points = String(pts.length);
  if (pts.length === 0) {
    note.textContent = xAxis === 'fps' && v.chart.length ? 'No FPS yet: add "device" to the plan and attach a device.' : v.chartNote;
    box.dataset.drawn = 'false';
    return;
  }
  note.textContent = v.chartNote;
  const fg = cssVar('--vscode-foreground', '#cccccc');
  const grid = cssVar('--vscode-editorWidget-border', 'rgba(128,128,128,0.3)');
  const colour = cssVar('--vscode-charts-blue', '#3794ff');
  const axis = (label: string): uPlot.Axis => ({ label, stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } });
  const opts: uPlot.Options = {
    width: Math.max(280, Math.min(box.parentElement?.clientWidth ?? 560, 720)),
    height: 260,
    scales: { x: { time: false } },
    axes: [axis(xAxis === 'time' ? 'compile time (s)' : 'FPS'), axis('relative error vs float (%)')],
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    series: [
      { label: xAxis === 'time' ? 's' : 'FPS' },
      { label: 'variant #', stroke: 'transparent', paths: () => null, points: { show: false } },
      { label: 'rel. error %', stroke: colour, paths: () => null, points: { show: true, size: 9, fill: colour } },
    ],
  };
  plot = new uPlot(opts, [pts.map(xOf), pts.map((p) => p.n), pts.map((p) => p.relErrorPct)] as uPlot.AlignedData, box);
  box.dataset.drawn = 'true';
}

const xOf = (p: SweepView['chart'][number]) => (xAxis === 'time' ? p.seconds! : p.fps!);

function render(v: SweepView): void {
  view = v;
  $('[data-testid="sweep-summary"]').textContent = `${v.summary}${v.running ? ' — running' : ''}`;
  $('[data-testid="sweep-summary"]').dataset.running = String(v.running);
  $<HTMLButtonElement>('#cancel').hidden = !v.running;
  $<HTMLButtonElement>('#run-again').hidden = v.running;
  renderTable(v);
  renderContexts(v);
  try {
    renderChart(v);
  } catch (err) {
    $('#sweep-chart').textContent = `The chart could not be drawn: ${err instanceof Error ? err.message : String(err)}`;
  }
}

const xSelect = $<HTMLSelectElement>('#chart-x');
xSelect.value = xAxis;
xSelect.addEventListener('change', () => {
  xAxis = xSelect.value === 'fps' ? 'fps' : 'time';
  vscode.setState({ sort, x: xAxis });
  if (view) renderChart(view);
});
for (const [id, type] of [
  ['export-csv', 'exportCsv'],
  ['export-json', 'exportJson'],
  ['cancel', 'cancel'],
  ['run-again', 'runAgain'],
] as const)
  document.getElementById(id)?.addEventListener('click', () => vscode.post({ type }));

vscode.onMessage((m) => {
  switch (m.type) {
    case 'view':
      render(m.view);
      break;
    case 'status':
      $('#status').textContent = m.text;
      break;
    default:
      unhandled(m);
  }
});
vscode.post({ type: 'ready' });
