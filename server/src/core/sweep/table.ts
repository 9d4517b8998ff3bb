// The one table of a sweep: a row per variant (outcome and failed stage from the log reader, stage
// times, the docker context it ran on, the network's contexts and utilisation, HEF size, the mtmd
// contract, accuracy against float, FPS/latency) plus the docker contexts' state. The same document
// is `hailo-tools sweep --json`, `<out>/sweep.json`, the webview's data and its JSON export; CSV and
// the terminal table are written from it. Pure.
import type { SweepPlan } from './plan';
import type { VariantResult, VariantState } from './results';
import { maxOf } from '../common/arrays';
import { reportLines } from '../common/escape';

export interface SweepRow extends Omit<VariantResult, 'state'> {
  state: VariantState;
  /** While running: the stage (and progress) the log reader last saw. */
  stage?: string;
  /** For a reused row: the folder (under out) whose finished result it is. */
  reusedFrom?: string;
}

export interface ContextRow {
  /** '' = docker's current context. */
  name: string;
  width: number;
  state: 'unknown' | 'up' | 'down';
  /** Its endpoint is this machine (unix socket): bind mounts work, the emulator can run there. */
  local: boolean;
  /** Why it is down (one sentence). */
  message: string | null;
  /** Variants compiled there in this run. */
  ran: number;
}

export interface SweepDocument {
  version: 1;
  plan: string;
  name: string;
  out: string;
  /** Columns of the axes that vary, in plan order (each row's `values` has them). */
  axes: string[];
  contexts: ContextRow[];
  rows: SweepRow[];
  summary: Record<VariantState, number> & { variants: number; finished: number };
  startedAt: string;
  endedAt: string | null;
}

export const STATES: readonly VariantState[] = ['waiting', 'running', 'done', 'reused', 'failed', 'invalid', 'cancelled', 'lost'];

export function buildDocument(
  plan: SweepPlan,
  axes: string[],
  rows: SweepRow[],
  contexts: ContextRow[],
  startedAt: string,
  endedAt: string | null,
): SweepDocument {
  const summary = Object.fromEntries(STATES.map((s) => [s, 0])) as Record<VariantState, number>;
  for (const r of rows) summary[r.state]++;
  return {
    version: 1,
    plan: plan.path,
    name: plan.name,
    out: plan.out,
    axes,
    contexts: contexts.map(({ name, width, state, local, message, ran }) => ({ name, width, state, local, message, ran })),
    rows,
    summary: { ...summary, variants: rows.length, finished: rows.filter((r) => r.finished || r.state === 'reused').length },
    startedAt,
    endedAt,
  };
}

/** Every variant has a result standing for its inputs (a DFC failure is a result too). */
export function allFinished(doc: SweepDocument): boolean {
  return doc.rows.every((r) => r.state === 'reused' || (r.finished && (r.state === 'done' || r.state === 'failed')));
}

/** The columns of the table (CSV names), with how to read each from a row. */
export interface Column {
  id: string;
  title: string;
  /** A number to sort by, or a string; null sorts last. */
  value(r: SweepRow): number | string | null;
}

export function columns(axes: readonly string[]): Column[] {
  const util = (k: 'control' | 'compute' | 'memory') => (r: SweepRow) => r.utilization[k];
  const stage = (k: 'parse' | 'optimize' | 'compile') => (r: SweepRow) => r.stages[k];
  const acc = (r: SweepRow) => (r.accuracy?.status === 'ok' ? r.accuracy.relativeError : null);
  const dev = (r: SweepRow) => (r.device?.status === 'ok' ? r.device : null);
  return [
    { id: 'variant', title: 'variant', value: (r) => r.label },
    ...axes.map((a) => ({ id: `axis:${a}`, title: a, value: (r: SweepRow) => axisValue(r.values[a]) })),
    { id: 'state', title: 'state', value: (r) => r.state },
    { id: 'outcome', title: 'outcome', value: (r) => r.outcome },
    { id: 'failed_stage', title: 'failed stage', value: (r) => r.failedStage },
    { id: 'parse_s', title: 'parse s', value: stage('parse') },
    { id: 'optimize_s', title: 'optimize s', value: stage('optimize') },
    { id: 'compile_s', title: 'compile s', value: stage('compile') },
    { id: 'total_s', title: 'total s', value: (r) => r.seconds },
    { id: 'docker_context', title: 'docker context', value: (r) => (r.dockerContext === null ? null : r.dockerContext || 'current') },
    { id: 'image', title: 'image', value: (r) => r.image },
    { id: 'hw_arch', title: 'arch', value: (r) => r.hwArch },
    { id: 'dfc_version', title: 'DFC', value: (r) => r.dfcVersion },
    { id: 'contexts', title: 'contexts', value: (r) => r.contexts },
    { id: 'control_util_pct', title: 'control %', value: util('control') },
    { id: 'compute_util_pct', title: 'compute %', value: util('compute') },
    { id: 'memory_util_pct', title: 'memory %', value: util('memory') },
    { id: 'hef_bytes', title: 'HEF bytes', value: (r) => r.hefBytes },
    { id: 'mtmd', title: 'mtmd', value: (r) => (r.mtmd ? (r.mtmd.pass ? 'pass' : 'fail') : null) },
    { id: 'accuracy_context', title: 'accuracy oracle', value: (r) => r.accuracy?.context ?? null },
    { id: 'rel_error', title: 'rel. error vs float', value: acc },
    { id: 'cosine', title: 'cosine vs float', value: (r) => (r.accuracy?.status === 'ok' ? r.accuracy.cosine : null) },
    { id: 'max_abs_error', title: 'max |err|', value: (r) => (r.accuracy?.status === 'ok' ? r.accuracy.maxAbsError : null) },
    { id: 'fps', title: 'FPS', value: (r) => dev(r)?.fps ?? null },
    { id: 'latency_p50_ms', title: 'latency p50 ms', value: (r) => dev(r)?.latencyP50Ms ?? null },
    { id: 'latency_p99_ms', title: 'latency p99 ms', value: (r) => dev(r)?.latencyP99Ms ?? null },
    {
      id: 'message',
      title: 'message',
      value: (r) => r.message ?? (r.accuracy && r.accuracy.status !== 'ok' ? `accuracy: ${r.accuracy.message ?? r.accuracy.status}` : null),
    },
    { id: 'folder', title: 'folder', value: (r) => r.files.folder },
    { id: 'log', title: 'log', value: (r) => r.files.log },
    { id: 'hef', title: 'HEF', value: (r) => r.files.hef },
  ];
}

/** Numbers sort as numbers (`2` before `10`), `base` first, everything else as text. */
function axisValue(v: string | undefined): number | string | null {
  if (v === undefined) return null;
  const n = Number(v);
  return v.trim() !== '' && Number.isFinite(n) ? n : v;
}

/** Rows sorted by one column; nulls last in both directions; ties keep plan order. */
export function sortRows(rows: readonly SweepRow[], column: Column, descending = false): SweepRow[] {
  const indexed = rows.map((r, i) => ({ r, i, v: column.value(r) }));
  indexed.sort((a, b) => {
    if (a.v === null || b.v === null) return a.v === b.v ? a.i - b.i : a.v === null ? 1 : -1;
    const c = typeof a.v === 'number' && typeof b.v === 'number' ? a.v - b.v : String(a.v).localeCompare(String(b.v), 'en', { numeric: true });
    return (descending ? -c : c) || a.i - b.i;
  });
  return indexed.map((x) => x.r);
}

/**
 * RFC 4180 CSV. A cell that a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR at
 * its start, from a file name or a message) gets a leading `'`; numbers stay numbers.
 */
export function sweepCsv(doc: SweepDocument): string {
  const cols = columns(doc.axes);
  const cell = (v: number | string | null) => {
    if (v === null) return '';
    if (typeof v === 'number') return Number.isFinite(v) ? String(v) : '';
    let s = v;
    if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  const lines = [cols.map((c) => cell(c.id.startsWith('axis:') ? c.title : c.id)).join(',')];
  for (const r of doc.rows) lines.push(cols.map((c) => cell(c.value(r))).join(','));
  return lines.join('\r\n') + '\r\n';
}

const num = (v: number | null, digits = 1) => (v === null ? '–' : v.toFixed(digits));

/** The table for a terminal: one line per variant, then the contexts, then what went wrong. */
export function sweepText(doc: SweepDocument): string {
  const head = ['variant', 'state', 'stage', 'parse/opt/comp s', 'on', 'ctx', 'ctrl/comp/mem %', 'HEF', 'mtmd', 'vs float', 'FPS'];
  const body = doc.rows.map((r) => [
    r.label,
    r.state,
    r.failedStage ?? (r.state === 'running' ? (r.stage ?? '') : ''),
    [r.stages.parse, r.stages.optimize, r.stages.compile].map((s) => num(s)).join('/'),
    r.dockerContext === null ? '' : r.dockerContext || 'current',
    r.contexts === null ? '' : String(r.contexts),
    r.utilization.control === null && r.utilization.compute === null && r.utilization.memory === null
      ? ''
      : [r.utilization.control, r.utilization.compute, r.utilization.memory].map((u) => num(u)).join('/'),
    r.hefBytes === null ? '' : bytes(r.hefBytes),
    r.mtmd ? (r.mtmd.pass ? 'pass' : 'FAIL') : '',
    r.accuracy
      ? r.accuracy.status === 'ok' && r.accuracy.relativeError !== null
        ? `${(100 * r.accuracy.relativeError).toFixed(2)} %`
        : r.accuracy.status
      : '',
    r.device ? (r.device.status === 'ok' ? r.device.fps.toFixed(1) : 'n/a') : '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, maxOf(body.map((b) => b[i].length))));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  const out = [`sweep ${doc.name}: ${summaryLine(doc)}`, '', line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line), ''];
  out.push('docker contexts:');
  for (const c of doc.contexts)
    out.push(
      `  ${c.name || 'current'} (width ${c.width}${c.local ? ', this machine' : ''}): ${c.state}${c.message ? ` — ${c.message}` : ''}${c.ran ? `, ran ${c.ran}` : ''}`,
    );
  const problems = doc.rows.filter((r) => r.message || (r.accuracy && r.accuracy.status !== 'ok') || r.notes.length);
  if (problems.length) {
    out.push('', 'notes:');
    for (const r of problems) {
      if (r.message) out.push(`  ${r.label}: ${r.message}`);
      if (r.accuracy && r.accuracy.status !== 'ok') out.push(`  ${r.label}: accuracy ${r.accuracy.status}: ${r.accuracy.message ?? ''}`);
      for (const n of r.notes) out.push(`  ${r.label}: ${n}`);
    }
  }
  out.push('', `results: ${doc.out}`);
  return reportLines(out);
}

export function summaryLine(doc: SweepDocument): string {
  const s = doc.summary;
  const parts = [`${s.variants} variant${s.variants === 1 ? '' : 's'}`];
  for (const k of STATES) if (s[k]) parts.push(`${s[k]} ${k}`);
  return parts.join(', ');
}

function bytes(b: number): string {
  return b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KB` : `${b} B`;
}
