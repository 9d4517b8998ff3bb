// What the sweep page shows, computed in the extension host from the SweepDocument: the table's
// columns and, per row, each cell's sort value and text (the same columns as the CSV and the CLI,
// server/src/core/sweep/table.ts), which files a click opens, and the chart's points (numbers only).
// The page script sorts and draws from this without knowing what a column means. Pure.
import { columns, summaryLine, type SweepDocument } from '@hailo/api';
import type { ChartPoint, SweepView, ViewRow } from '../webview/protocols/sweep';

export type { ChartPoint, SweepView, ViewCell, ViewRow } from '../webview/protocols/sweep';

/** Columns the page shows (the CSV also has the file paths). */
const HIDDEN = new Set(['folder', 'log', 'hef', 'image', 'hw_arch']);

function text(id: string, v: number | string | null): string {
  if (v === null) return '';
  if (typeof v === 'string') return v;
  if (id === 'rel_error') return `${(100 * v).toPrecision(3)} %`;
  if (id === 'cosine') return v.toFixed(6);
  if (id === 'max_abs_error') return v.toPrecision(3);
  if (id === 'hef_bytes') return v >= 1 << 20 ? `${(v / (1 << 20)).toFixed(2)} MB` : `${(v / 1024).toFixed(1)} KB`;
  if (id.endsWith('_s')) return v.toFixed(1);
  if (id.endsWith('_pct')) return `${v.toFixed(1)}`;
  if (id === 'fps') return v.toFixed(1);
  if (id.startsWith('latency')) return v.toFixed(2);
  return String(v);
}

export function sweepView(doc: SweepDocument, running: boolean): SweepView {
  const cols = columns(doc.axes).filter((c) => !HIDDEN.has(c.id));
  const rows = doc.rows.map((r, i): ViewRow => ({
    id: r.id,
    n: i + 1,
    state: r.state,
    cells: cols.map((c) => {
      const v = c.id === 'state' && r.state === 'running' && r.stage ? `running · ${r.stage}` : c.value(r);
      return { v: c.id === 'state' ? r.state : v, text: text(c.id, v) };
    }),
    has: { log: !!r.files.log, hef: !!r.files.hef, alls: !!r.files.alls },
  }));
  const chart: ChartPoint[] = [];
  doc.rows.forEach((r, i) => {
    if (r.accuracy?.status === 'ok' && r.accuracy.relativeError !== null)
      chart.push({ n: i + 1, seconds: r.seconds, fps: r.device?.status === 'ok' ? r.device.fps : null, relErrorPct: 100 * r.accuracy.relativeError });
  });
  const oracle = doc.rows.find((r) => r.accuracy)?.accuracy?.context;
  return {
    title: `Sweep: ${doc.name}`,
    summary: summaryLine(doc),
    running,
    columns: [
      { id: 'n', title: '#', link: null },
      ...cols.map((c) => ({ id: c.id, title: c.title, link: c.id === 'hef_bytes' ? ('hef' as const) : ('log' as const) })),
    ],
    rows: rows.map((r) => ({ ...r, cells: [{ v: r.n, text: String(r.n) }, ...r.cells] })),
    contexts: doc.contexts.map((c) => ({ name: c.name || 'current', width: c.width, state: c.state, ran: c.ran, message: c.message ?? '' })),
    chart,
    chartNote: oracle
      ? `Relative error of the emulator (${oracle}) against the float model on the same inputs, per variant (the points are the table's # numbers); lower is better.`
      : 'No accuracy yet: add "accuracy" (and "onnx") to the plan to measure each variant against the float model.',
  };
}
