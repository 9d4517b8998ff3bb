// `hailo-tools calib [--json] [--full] [--alls SCRIPT] [--onnx MODEL] [--har HAR] FILE.npy|.npz` —
// what a calibration set holds, and what is wrong with it for this model and script.
// Exit 0 no warning, 1 warnings (findings), 2 usage or an unreadable file.
import { basename } from 'node:path';
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, type CliIO } from './io';
import { helpTable } from './help';
import { optionRows, parseCommand, usageError } from './args';
import { calibContext } from '../core/calib/context';
import { calibJson, CalibReadError, hasProblems, inspectCalibrationSet, type CalibReport } from '../core/calib/inspect';
import { sparkline } from '../core/calib/render';
import { maxOf } from '../core/common/arrays';
import { reportLines } from '../core/common/escape';

const OPTIONS = {
  json: { type: 'boolean', help: 'print {"dtype","shape","layout","count","channels","findings"} (+ "sampled")' },
  full: { type: 'boolean', help: 'read every value (default: files over 256 MiB are sampled)' },
  alls: {
    type: 'string',
    arg: 'FILE',
    missing: '--alls needs a file',
    help: 'the model script (calibset_size, normalization); a .har beside it gives the input',
  },
  onnx: { type: 'string', arg: 'FILE', missing: '--onnx needs a file', help: 'the ONNX model, for the input shape' },
  har: { type: 'string', arg: 'FILE', missing: '--har needs a file', help: 'the parsed model (.har), for the input shape (HN input layer)' },
} as const;

const USAGE = `usage: hailo-tools calib [--json] [--full] [--alls SCRIPT] [--onnx MODEL] [--har HAR] FILE.npy|FILE.npz

Inspect a calibration set before the DFC uses it: dtype, shape, NHWC/NCHW layout against the
model's input, entries vs the script's calibset_size, per-channel min/max/mean/std and histogram,
and findings (np.random.rand-like data for a normalized input, a range the script's normalization
contradicts, NCHW, too few entries, constant or duplicated entries).

${helpTable(optionRows(OPTIONS))}

Exit 0 no warning, 1 warnings, 2 usage or unreadable file.
`;

const fmt = (v: number) =>
  !Number.isFinite(v) ? String(v) : Number.isInteger(v) ? String(v) : Math.abs(v) < 0.001 || Math.abs(v) >= 1e5 ? v.toExponential(4) : v.toFixed(4);

export function calibText(r: CalibReport, sources: string[]): string {
  const lines: string[] = [];
  lines.push(
    `${r.label}: ${r.dtype} (${r.shape.join(', ')})${r.fortranOrder ? ' Fortran order' : ''}, ${r.count.toLocaleString('en-US')} entries, layout ${r.layout} (${r.layoutHow})`,
  );
  if (sources.length) lines.push(`checked against: ${sources.join(', ')}`);
  lines.push(`distribution: ${r.distribution.text}${r.sampled ? ` — sampled: ${r.sampleNote}` : ''}`);
  const rows = r.channels.map((c, i) => [String(i), fmt(c.min), fmt(c.max), fmt(c.mean), fmt(c.std), sparkline(c.histogram.counts)]);
  const head = ['channel', 'min', 'max', 'mean', 'std', 'histogram'];
  const widths = head.map((h, k) => Math.max(h.length, maxOf(rows.slice(0, 64).map((row) => row[k].length))));
  lines.push(head.map((h, k) => h.padEnd(widths[k])).join('  '));
  for (const row of rows.slice(0, 64)) lines.push(row.map((x, k) => (k === 0 || k === 5 ? x.padEnd(widths[k]) : x.padStart(widths[k]))).join('  '));
  if (rows.length > 64) lines.push(`… ${rows.length - 64} more channels (--json lists all)`);
  if (r.findings.length) {
    lines.push('');
    for (const f of r.findings) lines.push(`${f.severity} ${f.code}: ${f.message}`);
  }
  const w = r.findings.filter((f) => f.severity !== 'info').length;
  lines.push('', `${w} warning${w === 1 ? '' : 's'}, ${r.findings.length - w} info`);
  return reportLines(lines);
}

export async function runCalib(args: string[], io: CliIO): Promise<number> {
  const parsed = parseCommand('calib', USAGE, OPTIONS, args, io);
  if (typeof parsed === 'number') return parsed;
  const { json, full, alls, onnx, har } = parsed.values;
  const files = parsed.positionals;
  if (files.length !== 1) return usageError(io, 'calib', USAGE, `expected one FILE.npy or FILE.npz, got ${files.length}`);
  const file = files[0];
  let ctx;
  try {
    ctx = await calibContext({ scriptPath: alls, onnx, har, findBeside: true });
  } catch (err) {
    io.err(
      `hailo-tools calib: ${alls ? basename(alls) : 'model'}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}\n`,
    );
    return EXIT_USAGE;
  }
  for (const p of ctx.problems) io.err(`hailo-tools calib: ${p}\n`);
  let report: CalibReport;
  try {
    report = await inspectCalibrationSet(file, { inputs: ctx.inputs, facts: ctx.facts, full });
  } catch (err) {
    if (err instanceof CalibReadError) {
      io.err(`hailo-tools calib: ${file}: ${err.message}\n`);
      return EXIT_USAGE;
    }
    io.err(`hailo-tools calib: ${file}: unexpected error: ${(err as Error)?.message ?? err}\n`);
    return EXIT_USAGE;
  }
  io.out(json ? JSON.stringify(calibJson(report)) + '\n' : calibText(report, ctx.sources));
  return hasProblems(report) ? EXIT_FINDINGS : EXIT_OK;
}
