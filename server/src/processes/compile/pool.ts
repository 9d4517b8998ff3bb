// Compiles scheduled over docker contexts: each context (a docker host) runs as many compiles at
// once as its width (default 1: a compile takes most of a machine's memory and its GPU). A job may
// accept several contexts (a sweep's variant runs on whichever listed host frees first); waiting
// jobs start in the order they came, each on its accepted context with the most free slots. The
// extension holds one pool for single compiles and sweeps alike; the CLI's sweep makes its own. Pure.

export interface PoolJob<T> {
  /** Resolves with the job's result once it ran (undefined if withdrawn first); rejects only if the job threw. */
  result: Promise<T | undefined>;
  /** Take a waiting job out of the pool (no effect once it started). Returns whether it was waiting. */
  withdraw(): boolean;
}

interface Entry {
  keys: readonly string[];
  start: (key: string) => void;
  onPlace: (ahead: number) => void;
  drop: () => void;
  /** The place last told (told again only when it changes). */
  told?: number;
}

export class CompilePool {
  private readonly widths = new Map<string, number>();
  private readonly busy = new Map<string, number>();
  private readonly waiting: Entry[] = [];

  /** How many compiles `key` runs at once (from a sweep plan's context width); starts waiting jobs that now fit. */
  setWidth(key: string, width: number): void {
    this.widths.set(key, Math.max(1, Math.floor(width) || 1));
    this.dispatch();
  }

  width(key: string): number {
    return this.widths.get(key) ?? 1;
  }

  /** Jobs running on `key`. */
  running(key: string): number {
    return this.busy.get(key) ?? 0;
  }

  /**
   * Runs `job` on one of `keys` (docker contexts; '' for the current one) when that context has a
   * free slot. `onPlace(n)` tells a waiting job how many compiles must finish before it can start
   * (n ≥ 1), and 0 when it starts.
   */
  enqueue<T>(keys: string | readonly string[], job: (key: string) => Promise<T>, onPlace: (ahead: number) => void = () => undefined): PoolJob<T> {
    const accepted = typeof keys === 'string' ? [keys] : [...new Set(keys)];
    if (accepted.length === 0) throw new Error('CompilePool.enqueue: a job needs at least one docker context');
    let entry!: Entry;
    const result = new Promise<T | undefined>((resolve, reject) => {
      entry = {
        keys: accepted,
        drop: () => resolve(undefined),
        onPlace,
        start: (key) => {
          this.busy.set(key, this.running(key) + 1);
          onPlace(0);
          let run: Promise<T>;
          try {
            run = job(key);
          } catch (err) {
            run = Promise.reject(err as Error);
          }
          run.then(resolve, reject).finally(() => {
            const n = this.running(key) - 1;
            if (n > 0) this.busy.set(key, n);
            else this.busy.delete(key);
            this.dispatch();
          });
        },
      };
    });
    this.waiting.push(entry);
    this.dispatch();
    return {
      result,
      withdraw: () => {
        const i = this.waiting.indexOf(entry);
        if (i < 0) return false;
        this.waiting.splice(i, 1);
        entry.drop();
        this.announce();
        return true;
      },
    };
  }

  /** How many compiles run on `key` or wait for it. */
  size(key: string): number {
    return this.running(key) + this.waiting.filter((e) => e.keys.includes(key)).length;
  }

  private dispatch(): void {
    for (let i = 0; i < this.waiting.length;) {
      const e = this.waiting[i];
      let best: string | undefined;
      let bestFree = 0;
      for (const k of e.keys) {
        const free = this.width(k) - this.running(k);
        if (free > bestFree) {
          best = k;
          bestFree = free;
        }
      }
      if (best === undefined) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      e.start(best);
    }
    this.announce();
  }

  private announce(): void {
    this.waiting.forEach((e, i) => {
      let before = 0;
      for (let j = 0; j < i; j++) if (this.waiting[j].keys.some((k) => e.keys.includes(k))) before++;
      const place = before + 1;
      if (e.told === place) return;
      e.told = place;
      e.onPlace(place);
    });
  }
}
