// Helpers for bench scripts: timing, memory, and the `##figure` line bench/run.mjs collects.
export interface Figure {
  figure: string;
  /** Human-readable target, e.g. "≥ 30 MB/s". */
  target: string;
  /** Human-readable measurement, e.g. "41.2 MB/s". */
  measured: string;
  /** measured / target, oriented so that ≥ 1 means the target is met. */
  ratio: number;
  ok: boolean;
}

export function report(f: Omit<Figure, 'ok'> & { ok?: boolean }): void {
  const ok = f.ok ?? f.ratio >= 1;
  process.stdout.write(`##figure ${JSON.stringify({ ...f, ok })}\n`);
}

export function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Median of `runs` timings of fn (ms), after `warmup` untimed runs. */
export function medianMs(fn: () => void, runs = 20, warmup = 3): number {
  for (let i = 0; i < warmup; i++) fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const s = nowMs();
    fn();
    t.push(nowMs() - s);
  }
  t.sort((a, b) => a - b);
  return t[Math.floor(t.length / 2)];
}

export function percentile(values: number[], p: number): number {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.min(v.length - 1, Math.floor((p / 100) * v.length))];
}

export function rssMB(): number {
  return process.memoryUsage().rss / (1024 * 1024);
}
