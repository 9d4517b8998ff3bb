// A DfcReport for humans (the CLI's text output, VS Code's summary): outcome, stage table, summary,
// diagnostics as `file:line:col severity code message`. Every string that came from the log is
// escaped: a log is untrusted input and may carry terminal control sequences.
import { oneLine, terminalText, reportLines } from '../common/escape';
import type { DfcReport, SavedFile, SavedKind } from './types';

/** One value from the log on one line: every control, C1 and bidi character as a visible escape. */
export function escapeTerminal(s: string): string {
  return oneLine(s);
}

/** A JSON document for a terminal: JSON.stringify leaves DEL, C1 (U+009B is a one-byte CSI) and bidi raw. */
export function jsonForTerminal(value: unknown, indent?: number): string {
  return terminalText(JSON.stringify(value, null, indent));
}

function seconds(v: number | null): string {
  if (v === null) return '-';
  if (v < 60) return `${v.toFixed(v < 10 ? 2 : 1)} s`;
  const m = Math.floor(v / 60);
  const s = Math.round(v - m * 60);
  return m < 60 ? `${m}m ${s}s` : `${Math.floor(m / 60)}h ${m % 60}m`;
}

function pct(v: number | null): string {
  return v === null ? '-' : `${v}%`;
}

export const SAVED_LABEL: Record<SavedKind, string> = { har: 'HAR', hef: 'HEF', onnx: 'ONNX', directory: 'folder', file: 'file' };

/**
 * What the run saved, by kind (`saved 1 HEF, 2 HAR`), for a one-line summary; '' when nothing. The paths stay in the
 * report: a notification renders `[text](link)` in its message, and a path is the log's text.
 */
export function savedSummary(saved: readonly SavedFile[]): string {
  if (!saved.length) return '';
  const counts = new Map<SavedKind, number>();
  for (const f of saved) counts.set(f.kind, (counts.get(f.kind) ?? 0) + 1);
  return `saved ${[...counts].map(([k, n]) => `${n} ${SAVED_LABEL[k]}`).join(', ')}`;
}

/** `saved: false`: a caller that prints the saved files itself, beside its own (the compile: what it copied out). */
export function reportText(r: DfcReport, logLabel: string, opts: { saved?: boolean } = {}): string {
  const e = escapeTerminal;
  const out: string[] = [];
  const running = r.stages.find((x) => x.status === 'running')?.name;
  const outcome =
    r.outcome === 'success'
      ? 'success'
      : r.outcome === 'failed'
        ? `failed${r.failedStage === 'unknown' ? ' (the log does not show in which stage)' : r.failedStage ? ` (${r.failedStage})` : ''}`
        : r.outcome === 'killed'
          ? `killed${r.failedStage === 'unknown' ? ' (the log does not show in which stage)' : r.failedStage ? ` (during ${r.failedStage})` : ''}`
          : `incomplete (the log stops before the run ends${running ? `, during ${running}` : ''}; if you know how the run ended, pass its exit status with --exit-code, e.g. 137 for a kill)`;
  out.push(`${e(logLabel)}: ${outcome}`);
  const facts = [
    r.network ? `network ${e(r.network)}` : '',
    r.dfcVersion ? `DFC ${e(r.dfcVersion)}` : '',
    r.hailortVersion ? `HailoRT ${e(r.hailortVersion)}` : '',
    r.hwArch ? `arch ${e(r.hwArch)}` : '',
  ].filter(Boolean);
  if (facts.length) out.push(`  ${facts.join(' · ')}`);
  out.push('', '  stage      status        time');
  for (const s of r.stages) out.push(`  ${s.name.padEnd(10)} ${s.status.padEnd(13)} ${seconds(s.seconds)}`);
  const sm = r.summary;
  if (
    sm.contexts !== null ||
    sm.controlUtilization !== null ||
    sm.contextUtilization.length ||
    sm.allocationSeconds !== null ||
    sm.compilationSeconds !== null
  ) {
    out.push('', '  summary:');
    if (sm.contexts !== null) out.push(`    contexts     ${sm.contexts}`);
    if (sm.controlUtilization !== null || sm.computeUtilization !== null || sm.memoryUtilization !== null)
      out.push(
        `    utilisation  control ${pct(sm.controlUtilization)}, compute ${pct(sm.computeUtilization)}, memory ${pct(sm.memoryUtilization)}${sm.contextUtilization.length ? ` (mean of ${sm.contextUtilization.length} contexts)` : ''}`,
      );
    else if (sm.contextUtilization.length)
      out.push(`    utilisation  per context only: the log shows ${sm.contextUtilization.length} of ${sm.contexts ?? '?'} context tables`);
    for (const c of sm.contextUtilization)
      out.push(`      context_${c.context}  control ${pct(c.control)}, compute ${pct(c.compute)}, memory ${pct(c.memory)}`);
    if (sm.allocationSeconds !== null) out.push(`    allocation   ${seconds(sm.allocationSeconds)}`);
    if (sm.compilationSeconds !== null) out.push(`    compilation  ${seconds(sm.compilationSeconds)}`);
  }
  if (r.saved.length && opts.saved !== false) {
    out.push('', '  saved (as the log names them, not checked here):');
    for (const f of r.saved) out.push(`    ${SAVED_LABEL[f.kind].padEnd(10)} ${e(f.path)}  (log line ${f.logLine})`);
  }
  if (r.recommendedEndNodes.length) {
    out.push('', '  the parser recommends these end nodes:');
    for (const n of r.recommendedEndNodes) out.push(`    ${e(n)}`);
  }
  if (r.diagnostics.length) {
    out.push('');
    for (const d of r.diagnostics) {
      out.push(
        `${e(d.path)}:${d.line}:${d.column}: ${d.severity} ${d.code}${d.node ? ` [${e(d.node)}]` : ''} ${e(d.message)} (${d.confidence} confidence; log line ${d.logLine})`,
      );
      if (d.fix?.kind === 'endNodes') out.push(`    fix: end nodes ${d.fix.nodes.map((n) => e(n)).join(', ')}`);
      else if (d.fix?.kind === 'replaceName') out.push(`    fix: use '${e(d.fix.to)}' instead of '${e(d.fix.from)}'`);
      else if (d.fix?.kind === 'scriptEdit') out.push(`    fix: line ${d.fix.line}, column ${d.fix.column}: ${e(d.fix.newText)}`);
      else if (d.fix?.kind === 'setting') out.push(`    fix: setting ${d.fix.key}`);
      for (const x of d.excerpt ?? []) out.push(`    | ${e(x)}`);
    }
  }
  const errors = r.diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = r.diagnostics.filter((d) => d.severity === 'warning').length;
  out.push('', `${errors} error(s), ${warnings} warning(s)`);
  return reportLines(out);
}
