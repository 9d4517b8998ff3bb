// Compiles queued per docker context: one DFC container per docker host at a time (a compile
// takes most of a machine's memory and its GPU), the next waits with its place shown. Pure.

export interface QueuedJob<T> {
  /** Resolves with the job's result once it ran (undefined if withdrawn first); rejects only if the job threw. */
  result: Promise<T | undefined>;
  /** Take a waiting job out of the queue (no effect once it started). Returns whether it was waiting. */
  withdraw(): boolean;
}

interface Entry {
  start: () => void;
  onPlace: (ahead: number) => void;
  drop: () => void;
  /** The place last told (told again only when it changes). */
  told?: number;
}

export class CompileQueue {
  private readonly lines = new Map<string, { running: boolean; waiting: Entry[] }>();

  /**
   * Runs `job` when nothing else runs on `key` (the docker context; '' for the current one).
   * `onPlace(n)` tells a waiting job how many compiles are ahead of it (n ≥ 1), and 0 when it starts.
   */
  enqueue<T>(key: string, job: () => Promise<T>, onPlace: (ahead: number) => void = () => undefined): QueuedJob<T> {
    const line = this.lines.get(key) ?? { running: false, waiting: [] };
    this.lines.set(key, line);
    let entry!: Entry;
    const result = new Promise<T | undefined>((resolve, reject) => {
      entry = {
        drop: () => resolve(undefined),
        onPlace,
        start: () => {
          line.running = true;
          onPlace(0);
          job()
            .then(resolve, reject)
            .finally(() => {
              line.running = false;
              this.next(key);
            });
        },
      };
    });
    line.waiting.push(entry);
    if (!line.running) this.next(key);
    else this.announce(key);
    return {
      result,
      withdraw: () => {
        const i = line.waiting.indexOf(entry);
        if (i < 0) return false;
        line.waiting.splice(i, 1);
        entry.drop();
        this.announce(key);
        return true;
      },
    };
  }

  /** How many compiles run or wait on `key`. */
  size(key: string): number {
    const line = this.lines.get(key);
    return line ? line.waiting.length + (line.running ? 1 : 0) : 0;
  }

  private next(key: string): void {
    const line = this.lines.get(key);
    if (!line) return;
    const entry = line.waiting.shift();
    if (!entry) {
      this.lines.delete(key);
      return;
    }
    entry.start();
    this.announce(key);
  }

  private announce(key: string): void {
    const line = this.lines.get(key);
    if (!line) return;
    line.waiting.forEach((e, i) => {
      const place = i + (line.running ? 1 : 0);
      if (e.told === place) return;
      e.told = place;
      e.onPlace(place);
    });
  }
}
