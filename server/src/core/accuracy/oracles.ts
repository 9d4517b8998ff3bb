// One table of every oracle: on the same inputs, the float ONNX (onnxruntime), each DFC emulator
// context (SDK_NATIVE, SDK_FP_OPTIMIZED, SDK_QUANTIZED, SDK_BIT_EXACT) and the device, compared
// with the float model and with each other, per output. A context that crashed is a row that says
// so (the a8_w8 SDK_BIT_EXACT `pow` InferenceError, docs/research/dfc-flow.md#error-classes); a pair that disagrees beyond
// the threshold is flagged (SDK_QUANTIZED vs SDK_BIT_EXACT disagreed by six orders of magnitude on
// one published model, docs/research/dfc-flow.md#emulator-contexts, with no third oracle to say which was right). Every figure that
// depends on quantisation carries the calibration distribution beside it (docs/research/dfc-flow.md#calibration). Pure.
import { compareArrays, type ErrorMetrics } from './metrics';
import { maxOf } from '../common/arrays';
import { reportLines } from '../common/escape';

export const ORACLES = ['float', 'native', 'fp_optimized', 'quantized', 'bit_exact', 'device'] as const;
export type OracleId = (typeof ORACLES)[number];

export const ORACLE_LABELS: Record<OracleId, string> = {
  float: 'float ONNX (onnxruntime)',
  native: 'emulator SDK_NATIVE',
  fp_optimized: 'emulator SDK_FP_OPTIMIZED',
  quantized: 'emulator SDK_QUANTIZED',
  bit_exact: 'emulator SDK_BIT_EXACT',
  device: 'device (HailoRT)',
};

/** Oracles whose figures depend on the calibration set (after optimize). */
export const QUANTIZED_ORACLES: ReadonlySet<OracleId> = new Set(['fp_optimized', 'quantized', 'bit_exact', 'device']);

export interface OracleRun {
  id: OracleId;
  /** ok: outputs present; crashed: the oracle ran and failed; unavailable: it could not run (no device, no docker…). */
  status: 'ok' | 'crashed' | 'unavailable';
  /** One sentence for crashed/unavailable (e.g. `InferenceError: … conv2_1/act_op_1/pow`). */
  message?: string;
  /** Output name → one array per input, in the float model's element order. */
  outputs?: Record<string, Float32Array[]>;
}

export interface AccuracyRequest {
  /** Output names (the float model's), in order. */
  outputs: string[];
  runs: OracleRun[];
  /** How the N inputs were made, in words (e.g. "8 inputs drawn like the calibration set, seed 1171"). */
  inputs: { count: number; text: string };
  /** The calibration set's distribution in words (calib/distribution.ts), or why it is unknown. */
  calibration: string;
  /** Relative error above which a pair is flagged (default 0.1). */
  threshold?: number;
}

export interface ErrorHistogram {
  /** |error| bin edges, from 0 to max|err|. */
  edges: number[];
  counts: number[];
}

export interface OracleRow {
  oracle: OracleId;
  label: string;
  status: OracleRun['status'];
  message?: string;
  /** Against the float model, over every input. */
  vsFloat?: ErrorMetrics;
  /** The calibration distribution, for rows whose figures depend on it. */
  calibration?: string;
  errorHistogram?: ErrorHistogram;
  flag?: string;
}

export interface PairCell {
  /** The earlier oracle in ORACLES order is the reference. */
  reference: OracleId;
  other: OracleId;
  metrics: ErrorMetrics;
  flag?: string;
}

export interface OutputTable {
  name: string;
  /** Elements per input. */
  size: number;
  rows: OracleRow[];
  pairs: PairCell[];
}

export interface AccuracyDocument {
  version: 1;
  inputs: { count: number; text: string };
  calibration: string;
  threshold: number;
  oracles: { id: OracleId; label: string; status: OracleRun['status']; message?: string }[];
  outputs: OutputTable[];
  /** Every flag, one sentence each, for a summary. */
  flags: string[];
}

export const DEFAULT_THRESHOLD = 0.1;
const HIST_BINS = 32;

function concat(parts: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(parts.reduce((a, p) => a + p.length, 0));
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

function errorHistogram(a: Float32Array, ref: Float32Array, maxAbs: number): ErrorHistogram {
  const top = Number.isFinite(maxAbs) && maxAbs > 0 ? maxAbs : 1;
  const counts = new Array<number>(HIST_BINS).fill(0);
  for (let i = 0; i < a.length; i++) {
    const e = Math.abs(a[i] - ref[i]);
    if (!Number.isFinite(e)) continue;
    counts[Math.min(HIST_BINS - 1, Math.floor((e / top) * HIST_BINS))]++;
  }
  return { edges: Array.from({ length: HIST_BINS + 1 }, (_, i) => (i * top) / HIST_BINS), counts };
}

const pct = (v: number | null) => (v === null ? 'n/a' : `${(v * 100).toPrecision(3)} %`);

function disagreement(m: ErrorMetrics, threshold: number): string | undefined {
  if (m.nonFinite.device || m.nonFinite.reference) return `${m.nonFinite.device + m.nonFinite.reference} NaN/inf values`;
  if (m.relativeError === null) return m.maxAbsError > 0 ? `the reference is all zeros, max|err| ${m.maxAbsError.toPrecision(3)}` : undefined;
  if (m.relativeError > threshold) return `relative error ${pct(m.relativeError)} > ${pct(threshold)}`;
  return undefined;
}

/** Builds the tables. Throws only on a caller bug (an oracle's output with another length than float's). */
export function buildAccuracyDocument(req: AccuracyRequest): AccuracyDocument {
  const threshold = req.threshold ?? DEFAULT_THRESHOLD;
  const runs = [...req.runs].sort((a, b) => ORACLES.indexOf(a.id) - ORACLES.indexOf(b.id));
  const float = runs.find((r) => r.id === 'float');
  const flags: string[] = [];
  const outputs: OutputTable[] = [];
  for (const name of req.outputs) {
    const joined = new Map<OracleId, Float32Array>();
    for (const r of runs) {
      const parts = r.status === 'ok' ? r.outputs?.[name] : undefined;
      if (parts && parts.length === req.inputs.count) joined.set(r.id, concat(parts));
    }
    const ref = joined.get('float');
    const size = ref ? ref.length / Math.max(1, req.inputs.count) : (joined.values().next().value?.length ?? 0) / Math.max(1, req.inputs.count);
    const rows: OracleRow[] = [];
    for (const r of runs) {
      const row: OracleRow = { oracle: r.id, label: ORACLE_LABELS[r.id], status: r.status };
      if (r.message) row.message = r.message;
      if (QUANTIZED_ORACLES.has(r.id)) row.calibration = req.calibration;
      const mine = joined.get(r.id);
      if (r.status === 'ok' && !mine) {
        row.status = 'unavailable';
        row.message = r.outputs?.[name] ? `returned ${r.outputs[name].length} results for ${req.inputs.count} inputs` : `returned no '${name}'`;
      }
      if (r.id !== 'float' && mine && ref) {
        if (mine.length !== ref.length) {
          row.status = 'unavailable';
          row.message = `${mine.length / req.inputs.count} values per input, the float model ${size}: not the same tensor`;
        } else {
          row.vsFloat = compareArrays(mine, ref);
          row.errorHistogram = errorHistogram(mine, ref, row.vsFloat.maxAbsError);
          const d = disagreement(row.vsFloat, threshold);
          if (d) {
            row.flag = `${ORACLE_LABELS[r.id]} vs float: ${d}`;
            flags.push(`${name}: ${row.flag}${row.calibration ? ` (calibration: ${row.calibration})` : ''}`);
          }
        }
      }
      if (r.status === 'crashed') flags.push(`${name}: ${ORACLE_LABELS[r.id]} crashed: ${r.message ?? 'no message'}`);
      rows.push(row);
    }
    const pairs: PairCell[] = [];
    const ids = runs.map((r) => r.id).filter((id) => id !== 'float' && joined.has(id) && (!ref || joined.get(id)!.length === ref.length));
    for (let i = 0; i < ids.length; i++) {
      for (let j = i + 1; j < ids.length; j++) {
        const a = joined.get(ids[i])!;
        const b = joined.get(ids[j])!;
        if (a.length !== b.length) continue;
        const metrics = compareArrays(b, a);
        const cell: PairCell = { reference: ids[i], other: ids[j], metrics };
        const d = disagreement(metrics, threshold);
        if (d) {
          cell.flag = `${ORACLE_LABELS[ids[j]]} vs ${ORACLE_LABELS[ids[i]]}: ${d}`;
          flags.push(`${name}: ${cell.flag}`);
        }
        pairs.push(cell);
      }
    }
    outputs.push({ name, size, rows, pairs });
  }
  if (!float || float.status !== 'ok')
    flags.unshift(`float ONNX ${float ? `${float.status}: ${float.message ?? ''}` : 'did not run'}: no figure against float`);
  return {
    version: 1,
    inputs: req.inputs,
    calibration: req.calibration,
    threshold,
    oracles: runs.map((r) => ({ id: r.id, label: ORACLE_LABELS[r.id], status: r.status, ...(r.message ? { message: r.message } : {}) })),
    outputs,
    flags,
  };
}

const fig = (v: number | null) =>
  v === null ? 'n/a' : Number.isNaN(v) ? 'NaN' : Math.abs(v) >= 1e4 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(3) : v.toFixed(4);

/** Text form (the CLI without --json). */
export function accuracyText(doc: AccuracyDocument): string {
  const out: string[] = [];
  out.push(`inputs: ${doc.inputs.text}`, `calibration: ${doc.calibration}`, `threshold: relative error ${pct(doc.threshold)}`);
  for (const t of doc.outputs) {
    out.push('', `output ${t.name} (${t.size} values per input)`);
    const head = ['oracle', 'max|err|', 'rel. error', 'cosine', 'corr', 'calibration', ''];
    const rows = t.rows.map((r) =>
      r.oracle === 'float'
        ? [r.label, 'reference', '', '', '', '', r.status === 'ok' ? '' : `${r.status.toUpperCase()}: ${r.message ?? ''}`]
        : r.vsFloat
          ? [
              r.label,
              fig(r.vsFloat.maxAbsError),
              pct(r.vsFloat.relativeError),
              fig(r.vsFloat.cosine),
              fig(r.vsFloat.correlation),
              r.calibration ?? '',
              r.flag ? `FLAG: ${r.flag}` : '',
            ]
          : [r.label, '—', '—', '—', '—', r.calibration ?? '', `${r.status.toUpperCase()}${r.message ? `: ${r.message}` : ''}`],
    );
    const w = head.map((h, k) => Math.max(h.length, maxOf(rows.map((r) => (k === 5 || k === 6 ? 0 : r[k].length)))));
    out.push(
      head
        .map((h, k) => h.padEnd(w[k]))
        .join('  ')
        .trimEnd(),
    );
    for (const r of rows)
      out.push(
        r
          .map((x, k) => (k === 5 || k === 6 ? x : x.padEnd(w[k])))
          .join('  ')
          .trimEnd(),
      );
    if (t.pairs.length) {
      out.push('pairwise (reference → other): max|err|, rel. error, cosine');
      for (const p of t.pairs)
        out.push(
          `  ${ORACLE_LABELS[p.reference]} → ${ORACLE_LABELS[p.other]}: ${fig(p.metrics.maxAbsError)}, ${pct(p.metrics.relativeError)}, ${fig(p.metrics.cosine)}${p.flag ? `  FLAG` : ''}`,
        );
    }
  }
  out.push('', doc.flags.length ? `${doc.flags.length} flag${doc.flags.length === 1 ? '' : 's'}:` : 'no flags');
  for (const f of doc.flags) out.push(`  ${f}`);
  return reportLines(out);
}
