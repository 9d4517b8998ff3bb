// The doctor's report for a terminal (`hailo-tools doctor`) and as Markdown (Hailo: Check Setup).
// Every file-derived string goes through common/escape.ts for Markdown; the CLI's terminalText
// wrapper (cli/main.ts) escapes control characters for the terminal.
import { maxOf, pushAll } from '../common/arrays';
import { mdCell, mdText, reportLines } from '../common/escape';
import type { DoctorReport } from './index';

const LABEL = { error: 'ERROR', warning: 'WARN ', info: 'INFO ' } as const;

export function counts(report: DoctorReport): { errors: number; warnings: number } {
  return { errors: report.findings.filter((f) => f.severity === 'error').length, warnings: report.findings.filter((f) => f.severity === 'warning').length };
}

export function doctorText(report: DoctorReport): string {
  const lines: string[] = [`Hailo setup${report.root !== '/' ? ` under ${report.root}` : ''}:`];
  const rows = report.components.map((c) => [c.name, c.version ?? '', [c.where, c.detail].filter(Boolean).join(' — ')]);
  const widths = [0, 1].map((i) =>
    Math.min(
      48,
      maxOf(
        pushAll(
          rows.map((r) => r[i].length),
          [i === 0 ? 9 : 7],
        ),
      ),
    ),
  );
  lines.push(`  ${'component'.padEnd(widths[0])}  ${'version'.padEnd(widths[1])}  where / state`);
  for (const r of rows) lines.push(`  ${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2]}`.trimEnd());
  if (!report.devices.asked) lines.push(`  (devices not asked: ${report.devices.why})`);
  lines.push('');
  if (report.findings.length === 0) lines.push('The installed pieces agree.');
  else {
    lines.push('Findings:');
    for (const f of report.findings) {
      lines.push(`  ${LABEL[f.severity]}  ${f.code}: ${f.sentence}`, `         fix: ${f.fix}`, `         source: ${f.source}`);
    }
  }
  const { errors, warnings } = counts(report);
  lines.push('', `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.`);
  return reportLines(lines);
}

export function doctorMarkdown(report: DoctorReport): string {
  const { errors, warnings } = counts(report);
  const lines = [
    '# Hailo: Check Setup',
    '',
    errors + warnings === 0 ? 'The installed pieces agree.' : `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}.`,
    '',
    '| component | version | where / state |',
    '|---|---|---|',
  ];
  // mdText escapes `|` as well, so a file-derived name cannot end its table cell.
  for (const c of report.components)
    lines.push(
      `| ${mdText(c.name)} | ${c.version ? mdCell(c.version) : ''} | ${[c.where && mdCell(c.where), c.detail && mdText(c.detail)].filter(Boolean).join(' — ')} |`,
    );
  if (!report.devices.asked) lines.push('', `Devices not asked: ${mdText(report.devices.why)}.`);
  if (report.findings.length) {
    lines.push('', '## Findings', '');
    for (const f of report.findings) {
      lines.push(`- **${LABEL[f.severity].trim()}** \`${f.code}\`: ${mdText(f.sentence)}`, `  - Fix: ${mdText(f.fix)}`, `  - Source: ${mdText(f.source)}`);
    }
  }
  lines.push('', 'Every rule and its source: docs/doctor.md.');
  return reportLines(lines);
}
