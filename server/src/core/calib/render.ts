// Text forms of a calibration report: a sparkline of a histogram (CLI, hover) and the markdown the
// .alls hover shows. Everything taken from a file name goes through `mdEscape`. Pure.
import type { CalibReport } from './inspect';
import { maxOf } from '../common/arrays';

const BARS = '▁▂▃▄▅▆▇█';

/** Histogram counts as `width` block characters (bins summed in groups). */
export function sparkline(counts: readonly number[], width = 16): string {
  if (!counts.length) return '';
  const groups = Math.min(width, counts.length);
  const sums: number[] = [];
  for (let g = 0; g < groups; g++) {
    const a = Math.floor((g * counts.length) / groups);
    const b = Math.floor(((g + 1) * counts.length) / groups);
    let s = 0;
    for (let i = a; i < b; i++) s += counts[i];
    sums.push(s);
  }
  const max = maxOf(sums);
  return sums.map((s) => (s === 0 ? ' ' : BARS[Math.min(BARS.length - 1, Math.floor((s / max) * (BARS.length - 1) + 0.5))])).join('');
}

/** Escapes markdown inside a line so text cannot make links, HTML, tables or emphasis. */
export function mdEscape(s: string): string {
  return s.replace(/[\\`*_[\]|<>&~]/g, (c) => `\\${c}`);
}

const fmt = (v: number) =>
  !Number.isFinite(v) ? String(v) : Number.isInteger(v) ? String(v) : Math.abs(v) < 0.001 || Math.abs(v) >= 1e5 ? v.toExponential(3) : v.toFixed(3);

/** The hover section: what the set beside the script holds. */
export function calibMarkdown(r: CalibReport, relativeName: string): string {
  const out: string[] = [];
  out.push(
    `**Calibration set** \`${relativeName.replace(/`/g, "'")}\`: ${r.dtype} (${r.shape.join(', ')}), **${r.count.toLocaleString('en-US')} entries**, layout ${r.layout}`,
  );
  out.push('');
  out.push(mdEscape(r.distribution.text) + (r.sampled ? ` _(sampled: ${mdEscape(r.sampleNote ?? '')})_` : ''));
  out.push('');
  const shown = r.channels.slice(0, 8);
  out.push('| ch | min | max | mean | std | histogram |', '|---|---|---|---|---|---|');
  shown.forEach((c, i) => out.push(`| ${i} | ${fmt(c.min)} | ${fmt(c.max)} | ${fmt(c.mean)} | ${fmt(c.std)} | \`${sparkline(c.histogram.counts, 12)}\` |`));
  if (r.channels.length > shown.length) out.push(`| … | ${r.channels.length - shown.length} more channels | | | | |`);
  const w = r.findings.filter((f) => f.severity !== 'info');
  if (r.findings.length) {
    out.push('');
    for (const f of r.findings) out.push(`- ${f.severity === 'info' ? 'ℹ️' : '⚠️'} \`${f.code}\` ${mdEscape(f.message)}`);
  } else out.push('', 'No findings.');
  if (!w.length && r.findings.length) out.push('', 'No warnings.');
  return out.join('\n');
}
