// The end-of-compile summary a user reads in a notification: outcome, stage times, HEF size,
// contexts, utilisation, contract verdict — or the first error. Pure.

export function seconds(v: number): string {
  if (v < 60) return `${v.toFixed(v < 10 ? 1 : 0)} s`;
  const m = Math.floor(v / 60);
  return `${m}m ${String(Math.round(v - 60 * m)).padStart(2, '0')}s`;
}

export function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}

export function stageTimes(r: CompileReport): string {
  return r.stages
    .filter((s) => s.status !== 'not-reached')
    .map((s) => `${s.name} ${s.seconds !== null ? seconds(s.seconds) : s.status === 'ok' ? 'ok' : s.status}`)
    .join(' · ');
}

export function summaryText(net: string, r: CompileReport, elapsedSeconds: number): string {
  if (r.outcome === 'success') {
    const parts = [`Compiled ${net} in ${seconds(elapsedSeconds)} (${stageTimes(r)})`];
    const facts: string[] = [];
    if (r.hef) facts.push(`HEF ${bytes(r.hef.bytes)}${r.hef.intact ? '' : ' (DAMAGED)'}`);
    if (r.summary.contexts !== null) facts.push(`${r.summary.contexts} context${r.summary.contexts === 1 ? '' : 's'}`);
    const u = r.summary;
    if (u.controlUtilization !== null || u.computeUtilization !== null || u.memoryUtilization !== null) {
      const p = (v: number | null) => (v === null ? '–' : `${v}%`);
      facts.push(`utilisation control ${p(u.controlUtilization)}, compute ${p(u.computeUtilization)}, memory ${p(u.memoryUtilization)}`);
    }
    if (r.hef?.contract)
      facts.push(
        r.hef.contract.pass
          ? 'mtmd contract passes'
          : `mtmd contract fails (${r.hef.contract.failed.length} rule${r.hef.contract.failed.length === 1 ? '' : 's'})`,
      );
    if (r.calibration === 'random') facts.push('random calibration: accuracy meaningless');
    return `${parts[0]}: ${facts.join(', ')}.`;
  }
  const first = r.diagnostics.find((d) => d.severity === 'error');
  const where = r.failedStage
    ? r.failedStage === 'docker'
      ? ' before the DFC ran (docker)'
      : r.failedStage === 'unknown'
        ? ' (the log does not show in which stage)'
        : ` in ${r.failedStage}`
    : '';
  const what = r.outcome === 'killed' ? `was stopped${where}` : r.outcome === 'incomplete' ? 'ended without finishing' : `failed${where}`;
  return `The compile of ${net} ${what}${first ? `: ${first.message}` : '.'}`;
}
import { type CompileReport } from '@hailo/api';
