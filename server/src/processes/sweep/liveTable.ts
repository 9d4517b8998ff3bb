// The sweep's table while it runs: a row per variant in plan order, every change told to the
// callbacks with the whole document; a variant that ran leaves its record in its folder
// (`sweep-result.json`, core/sweep/results.ts) when it ends, and `<out>/sweep.json` is rewritten
// shortly after (debounced: a burst of ends writes it once); at the end `sweep.json` and `sweep.csv`.
import { join } from 'node:path';
import type { FileRoots } from '../../core/common/confined';
import type { SweepPlan } from '../../core/sweep/plan';
import { RESULT_VERSION, writeResult, type VariantResult } from '../../core/sweep/results';
import { buildDocument, sweepCsv, type SweepDocument, type SweepRow } from '../../core/sweep/table';
import { varyingAxes } from '../../core/sweep/variants';
import type { ContextState } from '../../core/sweep/schedule';
import type { PlannedVariant } from '../../core/sweep/variantPlan';
import { endedLine, stripLive } from '../../core/sweep/columns';
import type { SweepCallbacks } from './types';

export const DOCUMENT_FILE = 'sweep.json';
export const CSV_FILE = 'sweep.csv';

export class LiveTable {
  private writeTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly plan: SweepPlan,
    /** The rows by variant id, in plan order. */
    readonly rows: Map<string, SweepRow>,
    private readonly contexts: ContextState[],
    private readonly started: string,
    private readonly roots: FileRoots,
    private readonly cb: SweepCallbacks,
  ) {}

  /** The document as it stands (no end time). */
  doc(): SweepDocument {
    return buildDocument(this.plan, varyingAxes(this.plan), [...this.rows.values()], this.contexts, this.started, null);
  }

  /** The document with its end time, rows in plan order. */
  ended(planned: readonly PlannedVariant[]): SweepDocument {
    return buildDocument(
      this.plan,
      varyingAxes(this.plan),
      planned.map((p) => this.rows.get(p.variant.id)!),
      this.contexts,
      this.started,
      new Date().toISOString(),
    );
  }

  say(line: string): void {
    this.cb.onProgress?.(line);
  }

  row(id: string): SweepRow {
    return this.rows.get(id)!;
  }

  /** Every row as it is now, to the callbacks (the first view of the table). */
  announce(): void {
    for (const r of this.rows.values()) this.cb.onRow?.(r, this.doc());
  }

  emit(row: SweepRow): void {
    this.rows.set(row.id, row);
    this.cb.onRow?.(row, this.doc());
  }

  /** A variant that has not started is cancelled (one that started ends on its own). */
  cancel(p: PlannedVariant): void {
    const row = this.row(p.variant.id);
    if (row.state === 'waiting') this.emit({ ...row, state: 'cancelled', message: 'Cancelled before it started.' });
  }

  /** A variant that never started on its context waits again. */
  revert(row: SweepRow): void {
    this.emit({ ...row, state: 'waiting', dockerContext: null, stage: undefined, startedAt: null });
  }

  /** A variant ended: its row, its record (only a variant that ran has one: `startedAt`), its progress line. */
  end(p: PlannedVariant, r: Partial<VariantResult> & Pick<VariantResult, 'state' | 'finished' | 'message'>): void {
    const folder = join(this.plan.out, p.variant.id);
    const prev = this.row(p.variant.id);
    const result: VariantResult = { ...stripLive(prev), ...r, endedAt: new Date().toISOString(), key: p.key, version: RESULT_VERSION };
    // Only a variant that ran writes its folder's record (a refused or never-started one has nothing to keep).
    if (r.startedAt) writeResult(this.roots, folder, result);
    this.emit({ ...result, state: r.state });
    this.say(`${p.variant.label}: ${endedLine(result)}`);
    clearTimeout(this.writeTimer);
    this.writeTimer = setTimeout(() => this.persist(this.doc()), 200);
  }

  /** No more debounced write (the final one follows). */
  stop(): void {
    clearTimeout(this.writeTimer);
  }

  /** `<out>/sweep.json`, and with `csv` also `<out>/sweep.csv`. */
  persist(doc: SweepDocument, csv = false): void {
    this.roots.writeSync(join(this.plan.out, DOCUMENT_FILE), JSON.stringify(doc, null, 1) + '\n');
    if (csv) this.roots.writeSync(join(this.plan.out, CSV_FILE), sweepCsv(doc));
  }
}
