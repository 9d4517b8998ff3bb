// What fills a variant's row (docs/sweep.md "The table", "The accuracy column"): the empty row of a
// variant that waits, the row of one reused from a finished result, the columns a compile session's
// report gives (outcome, failed stage, stage times, context, DFC version, contexts and utilisation,
// HEF bytes, mtmd contract, and whether it is finished), the accuracy cell from the accuracy table's
// document (worst output), and the record a live row leaves. Pure.
import { relative } from 'node:path';
import type { AccuracyDocument } from '../accuracy/oracles';
import type { DfcReport, StageName } from '../dfc/types';
import { RESULT_VERSION, type AccuracyCell, type VariantResult } from './results';
import type { SweepRow } from './table';
import type { PlannedVariant } from './variantPlan';

/**
 * What a compile session says about a run (processes/compile/session.ts's CompileReport carries
 * all of it; `driverStages` is the driver's manifest, used where the log shows no timing line).
 */
export interface CompileFacts {
  report: DfcReport & {
    outputs: { har: string | null; optimizedHar: string | null; hef: string | null };
    container: { image: string } | null;
    hef: { bytes: number; contract: { pass: boolean; failed: string[] } | null } | null;
    log: string | null;
    notes: string[];
  };
  driverStages?: Partial<Record<StageName, { seconds?: number }>>;
}

/** The row of a variant that has not run (yet): its values and notes, every column empty. */
export function emptyRow(p: PlannedVariant, folder: string): SweepRow {
  const v = p.variant;
  return {
    version: RESULT_VERSION,
    key: p.key,
    id: v.id,
    label: v.label,
    values: v.values,
    finished: false,
    state: 'waiting',
    message: null,
    outcome: null,
    failedStage: null,
    stages: { parse: null, optimize: null, compile: null },
    seconds: null,
    dockerContext: null,
    image: v.image ?? null,
    hwArch: v.hwArch,
    dfcVersion: null,
    contexts: null,
    utilization: { control: null, compute: null, memory: null },
    hefBytes: null,
    mtmd: null,
    accuracy: null,
    device: null,
    files: { folder, alls: null, log: null, har: null, optimizedHar: null, hef: null },
    notes: p.notes,
    startedAt: null,
    endedAt: null,
  };
}

/** A variant whose inputs key has a finished result under `out`: that result's columns, under this variant's name. */
export function reusedRow(p: PlannedVariant, prior: VariantResult, out: string): SweepRow {
  return {
    ...prior,
    id: p.variant.id,
    label: p.variant.label,
    values: p.variant.values,
    state: 'reused',
    reusedFrom: relative(out, prior.files.folder) || '.',
  };
}

/**
 * The row of a compile that ran: `done` on success, else `failed` with the first error's first
 * sentence. Finished (kept for its inputs) when the DFC gave its own verdict: success, or a failure
 * in parse, optimize or compile — never docker's refusal, a kill or a log that just stops.
 */
export function resultFrom(
  p: PlannedVariant,
  folder: string,
  facts: CompileFacts,
  ctx: string,
  seconds: number,
  startedAt: string,
  alls: string | null,
): VariantResult {
  const r = facts.report;
  const stage = (n: StageName) => r.stages.find((s) => s.name === n)?.seconds ?? facts.driverStages?.[n]?.seconds ?? null;
  const success = r.outcome === 'success';
  const dfcVerdict = r.outcome === 'failed' && (r.failedStage === 'parse' || r.failedStage === 'optimize' || r.failedStage === 'compile');
  const firstError = r.diagnostics.find((d) => d.severity === 'error');
  return {
    version: RESULT_VERSION,
    key: p.key,
    id: p.variant.id,
    label: p.variant.label,
    values: p.variant.values,
    finished: success || dfcVerdict,
    state: success ? 'done' : 'failed',
    message: success ? null : firstError ? firstSentence(firstError.message) : `The compile ended ${r.outcome}${r.failedStage ? ` in ${r.failedStage}` : ''}.`,
    outcome: r.outcome,
    failedStage: r.failedStage,
    stages: { parse: stage('parse'), optimize: stage('optimize'), compile: stage('compile') },
    seconds,
    dockerContext: ctx,
    image: r.container?.image ?? p.variant.image ?? null,
    hwArch: p.variant.hwArch,
    dfcVersion: r.dfcVersion,
    contexts: r.summary.contexts,
    utilization: { control: r.summary.controlUtilization, compute: r.summary.computeUtilization, memory: r.summary.memoryUtilization },
    hefBytes: r.hef?.bytes ?? null,
    mtmd: r.hef?.contract ?? null,
    accuracy: null,
    device: null,
    files: { folder, alls, log: r.log, har: r.outputs.har, optimizedHar: r.outputs.optimizedHar, hef: r.outputs.hef },
    notes: [...p.notes, ...r.notes],
    startedAt,
    endedAt: null,
  };
}

/**
 * The accuracy cell of the emulator context `context` against float: the worst output (largest
 * relative and max |err|, smallest cosine); unavailable or crashed as soon as one output's row is,
 * or when the float model did not run.
 */
export function accuracyCellFrom(doc: AccuracyDocument, context: string): Partial<AccuracyCell> {
  let rel: number | null = null;
  let cos: number | null = null;
  let max: number | null = null;
  for (const t of doc.outputs) {
    const row = t.rows.find((r) => r.oracle === context);
    if (!row || row.status !== 'ok') return { status: row?.status ?? 'unavailable', message: row?.message ?? `no ${context} row`, inputs: doc.inputs.text };
    const m = row.vsFloat;
    if (!m) return { status: 'unavailable', message: 'the float model did not run', inputs: doc.inputs.text };
    if (m.relativeError !== null) rel = Math.max(rel ?? 0, m.relativeError);
    if (m.cosine !== null) cos = Math.min(cos ?? 1, m.cosine);
    max = Math.max(max ?? 0, m.maxAbsError);
  }
  const floatRow = doc.outputs[0]?.rows.find((r) => r.oracle === 'float');
  if (floatRow && floatRow.status !== 'ok')
    return { status: 'unavailable', message: `the float model did not run: ${floatRow.message ?? ''}`, inputs: doc.inputs.text };
  return { status: 'ok', relativeError: rel, cosine: cos, maxAbsError: max, inputs: doc.inputs.text };
}

/**
 * The full accuracy cell. A figure (or the emulator's own crash) is kept under the accuracy key; a
 * cell that is only unavailable (cancelled, docker refused, the float model missing) has none, so
 * the next start measures it again without compiling.
 */
export function accuracyCell(context: string, accuracyKey: string | null, c: Partial<AccuracyCell>): AccuracyCell {
  const status = c.status ?? 'unavailable';
  return {
    context,
    relativeError: null,
    cosine: null,
    maxAbsError: null,
    inputs: '',
    ...c,
    status,
    key: status === 'unavailable' ? '' : (accuracyKey ?? ''),
  };
}

/** What a live row leaves in its record: no stage, no reused-from, and a state a result may have. */
export function stripLive(r: SweepRow): VariantResult {
  const { stage: _stage, reusedFrom: _from, ...rest } = r;
  return { ...rest, state: r.state === 'reused' || r.state === 'waiting' || r.state === 'running' ? 'done' : r.state };
}

/** The progress line of an ended variant: `done in 1 min 4 s, HEF 1.2 MB, 2 contexts, quantized vs float 0.50 %`, or `FAILED at optimize: …`. */
export function endedLine(result: VariantResult): string {
  return result.state === 'done'
    ? `done in ${fmtSeconds(result.seconds)}${result.hefBytes !== null ? `, HEF ${fmtBytes(result.hefBytes)}` : ''}${result.contexts !== null ? `, ${result.contexts} context${result.contexts === 1 ? '' : 's'}` : ''}${result.accuracy?.relativeError != null ? `, ${result.accuracy.context} vs float ${(100 * result.accuracy.relativeError).toFixed(2)} %` : ''}`
    : `${result.state.toUpperCase()}${result.failedStage ? ` at ${result.failedStage}` : ''}: ${result.message ?? ''}`;
}

const firstSentence = (s: string) => {
  const m = /^(.*?[.!?])(\s|$)/s.exec(s);
  return (m ? m[1] : s).slice(0, 400);
};
export const fmtSeconds = (s: number | null) => (s === null ? '–' : s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`);
export const fmtBytes = (b: number) => (b >= 1 << 20 ? `${(b / (1 << 20)).toFixed(1)} MB` : b >= 1024 ? `${(b / 1024).toFixed(1)} KB` : `${b} B`);
