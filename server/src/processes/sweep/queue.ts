// The schedule (core/sweep/schedule.ts) carried out over the compile pool: each job is queued in
// plan order (the pool starts waiting jobs in the order they came), a compile on every context that
// may take its variant; a variant whose context turned out down or without its image is queued
// again on the others, as are the variants waiting only for a context that went away; cancel takes
// the waiting ones out (they never start). `drain` waits for everything, the jobs added meanwhile too.
import type { CompilePool } from '../compile/pool';
import { noContextMessage, usableContexts, type ContextState } from '../../core/sweep/schedule';
import type { PlannedVariant } from '../../core/sweep/variantPlan';

export interface QueueHooks {
  signal?: AbortSignal;
  /** Runs the variant on context `ctx`; 'retry' when that context could not take it after all. */
  run(p: PlannedVariant, ctx: string): Promise<'retry' | 'ended'>;
  /** The variant never starts (cancelled while waiting). */
  cancel(p: PlannedVariant): void;
  /** No context can run the variant: one sentence. */
  fail(p: PlannedVariant, message: string): void;
}

export class SweepQueue {
  /** Variants queued on the pool and not started, with the contexts they accept. */
  private readonly waiting = new Map<string, { variant: PlannedVariant; keys: string[]; withdraw(): boolean }>();
  private readonly tasks: Promise<void>[] = [];

  constructor(
    private readonly pool: CompilePool,
    private readonly contexts: readonly ContextState[],
    private readonly hooks: QueueHooks,
  ) {}

  /** Queues a variant's compile. */
  compile(p: PlannedVariant): void {
    this.tasks.push(this.schedule(p));
  }

  /** Queues `job` on one of `keys` (a slot of the pool); `then` gets its result unless it was withdrawn. */
  slot<T>(keys: string[], job: (ctx: string) => Promise<T>, then: (result: T) => void): void {
    this.tasks.push(
      (async () => {
        const result = await this.pool.enqueue(keys, job).result;
        if (result) then(result);
      })(),
    );
  }

  /** Context `name` went down: the variants waiting for it are queued again on the contexts left. */
  contextDown(name: string): void {
    for (const [id, w] of [...this.waiting]) {
      if (!w.keys.includes(name)) continue;
      if (w.withdraw()) {
        this.waiting.delete(id);
        this.compile(w.variant);
      }
    }
  }

  /** Cancel: the waiting variants never start. */
  cancelWaiting(): void {
    for (const [id, w] of [...this.waiting]) {
      if (w.withdraw()) {
        this.waiting.delete(id);
        this.hooks.cancel(w.variant);
      }
    }
  }

  /** Waits for every job, those queued while it waits too (a variant queued again when its context went away). */
  async drain(): Promise<void> {
    for (let i = 0; i < this.tasks.length; i++) await this.tasks[i];
  }

  private async schedule(p: PlannedVariant): Promise<void> {
    if (this.hooks.signal?.aborted) return this.hooks.cancel(p);
    const usable = usableContexts(this.contexts, p.variant.image);
    if (usable.length === 0) {
      this.hooks.fail(p, noContextMessage(this.contexts, p.variant.image));
      return;
    }
    const keys = usable.map((c) => c.name);
    const job = this.pool.enqueue(keys, (ctx) => {
      this.waiting.delete(p.variant.id);
      return this.hooks.run(p, ctx);
    });
    this.waiting.set(p.variant.id, { variant: p, keys, withdraw: job.withdraw });
    const r = await job.result;
    if (r === 'retry') await this.schedule(p);
  }
}
