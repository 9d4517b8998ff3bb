// The schedule of a sweep (docs/sweep.md "Nothing runs twice", "Hosts", "The accuracy column"):
// which variants are reused (a finished result has their inputs key), which are refused, which
// compile, and in what order the jobs go to the compile pool — plan order, a reused variant whose
// accuracy was measured with other settings getting an accuracy-only job in its place; which docker
// contexts may take a variant (up, and not known to lack its image); and where a variant's emulator
// runs. processes/sweep/queue.ts carries it out over the pool. Pure.
import type { SweepPlan } from './plan';
import type { VariantResult } from './results';
import type { ContextRow, SweepRow } from './table';
import type { PlannedVariant } from './variantPlan';
import { emptyRow, reusedRow } from './columns';
import { join } from 'node:path';

/** A docker context while the sweep runs: its row, and the images it was found to lack. */
export interface ContextState extends ContextRow {
  missingImages: Set<string>;
}

/** One job for the pool, in the order it is queued. */
export type Job =
  | { kind: 'compile'; variant: PlannedVariant }
  /** Finished earlier, measured with other accuracy settings (or none): measure it, do not compile it again. */
  | { kind: 'accuracy'; variant: PlannedVariant; har: string; alls: string | null };

/** The plan's contexts before they are asked anything. */
export function initialContexts(plan: SweepPlan): ContextState[] {
  return plan.contexts.map((c) => ({ name: c.name, width: c.width, state: 'unknown', local: false, message: null, ran: 0, missingImages: new Set() }));
}

/**
 * Each variant's first row, in plan order: `invalid` (its script was refused), `reused` (a finished
 * result under `out` has its inputs key, whatever folder it is in), else `waiting`.
 */
export function initialRows(planned: readonly PlannedVariant[], finished: ReadonlyMap<string, VariantResult>, out: string): Map<string, SweepRow> {
  const rows = new Map<string, SweepRow>();
  for (const p of planned) {
    const base = emptyRow(p, join(out, p.variant.id));
    const prior = finished.get(p.key);
    if (p.invalid) rows.set(p.variant.id, { ...base, state: 'invalid', message: p.invalid, finished: false });
    else if (prior) rows.set(p.variant.id, reusedRow(p, prior, out));
    else rows.set(p.variant.id, base);
  }
  return rows;
}

/**
 * The pool's jobs in plan order: a compile for each waiting variant; an accuracy-only job for a
 * reused one when the plan measures accuracy, its optimized HAR is still there (`exists`) and its
 * cell was measured under another accuracy key. Nothing else runs.
 */
export function jobs(plan: SweepPlan, planned: readonly PlannedVariant[], rows: ReadonlyMap<string, SweepRow>, exists: (path: string) => boolean): Job[] {
  const out: Job[] = [];
  for (const p of planned) {
    const row = rows.get(p.variant.id)!;
    if (row.state === 'waiting') out.push({ kind: 'compile', variant: p });
    else if (row.state === 'reused' && plan.accuracy && row.files.optimizedHar && exists(row.files.optimizedHar) && row.accuracy?.key !== p.accuracyKey)
      out.push({ kind: 'accuracy', variant: p, har: row.files.optimizedHar, alls: row.files.alls });
  }
  return out;
}

/** The contexts that may take a variant of `image` (undefined: the host's own pick): not down, not known to lack it. */
export function usableContexts(contexts: readonly ContextState[], image: string | undefined): ContextState[] {
  return contexts.filter((c) => c.state !== 'down' && !c.missingImages.has(image ?? ''));
}

/** Why no context of the plan can run a variant of `image`: each context's reason. */
export function noContextMessage(contexts: readonly ContextState[], image: string | undefined): string {
  const why = contexts
    .map((c) => `${contextLabel(c.name)}: ${c.missingImages.has(image ?? '') ? `no image ${image ?? '(auto)'}` : (c.message ?? 'down')}`)
    .join('; ');
  return `No docker context of the plan can run this variant (${why}).`;
}

/** The contexts an accuracy-only job may run on: those up, else docker's current one. */
export function accuracyContexts(contexts: readonly ContextState[]): string[] {
  const up = contexts.filter((c) => c.state === 'up');
  return up.length ? up.map((c) => c.name) : [''];
}

/**
 * Where the emulator runs for a variant of `image` whose pool slot is on `slotCtx`: the plan's
 * `accuracy.dockerContext`, else the slot's own context when it is this machine (the HAR is
 * bind-mounted), else a local context of the plan that is up and has the image, else — a plan of
 * remote hosts only — the slot's context, through docker cp.
 */
export function emulatorContext(plan: SweepPlan, contexts: readonly ContextState[], image: string | undefined, slotCtx: string): string {
  if (plan.accuracy!.dockerContext !== undefined) return plan.accuracy!.dockerContext;
  const own = contexts.find((c) => c.name === slotCtx);
  if (own?.local) return slotCtx;
  const local = contexts.find((c) => c.state === 'up' && c.local && !c.missingImages.has(image ?? ''));
  return local ? local.name : slotCtx;
}

/** The first progress line: how many variants on how many contexts, how many reused or refused. */
export function startLine(plan: SweepPlan, rows: Iterable<SweepRow>): string {
  const all = [...rows];
  const total = all.length;
  const reused = all.filter((r) => r.state === 'reused').length;
  const invalid = all.filter((r) => r.state === 'invalid').length;
  return `sweep ${plan.name}: ${total} variant${total === 1 ? '' : 's'} on ${plan.contexts.length} docker context${plan.contexts.length === 1 ? '' : 's'}${reused ? `, ${reused} finished earlier (not run again)` : ''}${invalid ? `, ${invalid} refused by the .alls rules` : ''}`;
}

/** A context as progress lines name it. */
export const contextLabel = (ctx: string) => (ctx ? `'${ctx}'` : "docker's current context");
