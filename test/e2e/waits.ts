// Waits for a state, never a read at a moment. Whatever an e2e assertion reads that settles on its
// own time (the DOM of a page, diagnostics, a file another process writes) is read again until it
// holds or its deadline passes; then the test fails naming what it waited for and the last value it
// saw. Plain node, no VS Code or playwright: both halves of the suite use it.
import { inspect, isDeepStrictEqual } from 'node:util';

export interface WaitOptions {
  /** The deadline (default: deadlineMs(), the suite's one deadline scaled by the load factor). */
  timeoutMs?: number;
  /** Pause between reads. */
  intervalMs?: number;
}

/**
 * The suite's one setting for time: how long any awaited state may take on a quiet machine
 * (HAILO_E2E_DEADLINE_MS, default 30 s). Every wait's deadline is this, times the number of steps
 * the state takes (a page, a container run — said where it is used), times the load factor
 * run.mjs measured when the suite started (HAILO_E2E_LOAD_FACTOR, loadFactor.mjs).
 */
export function deadlineMs(steps = 1): number {
  const base = Number(process.env.HAILO_E2E_DEADLINE_MS) || 30_000;
  return Math.round(base * steps * loadFactor());
}

/** The load factor the driver measured (≥ 1; 1 when the suite runs without it). */
export function loadFactor(): number {
  const f = Number(process.env.HAILO_E2E_LOAD_FACTOR);
  return Number.isFinite(f) && f >= 1 ? f : 1;
}

export function shown(value: unknown): string {
  return inspect(value, { depth: 6, breakLength: 160, maxArrayLength: 60, maxStringLength: 3000 });
}

function errorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0];
}

/**
 * Reads `read` until `accept` holds and returns that value. A read that throws counts as "not yet"
 * (the element may not exist yet); past the deadline it throws with `what` and the last value or
 * error seen.
 */
export async function waitUntil<T>(what: string, read: () => T | Promise<T>, accept: (value: T) => boolean, options: WaitOptions = {}): Promise<T> {
  const timeoutMs = options.timeoutMs ?? deadlineMs();
  const deadline = Date.now() + timeoutMs;
  let last = 'nothing (no read finished)';
  for (;;) {
    try {
      const value = await read();
      if (accept(value)) return value;
      last = shown(value);
    } catch (err) {
      last = `an error: ${errorText(err)}`;
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last seen: ${last}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
}

/** Waits until `read()` deep-equals `expected` (strictly); the failure shows both. */
export function waitForEqual<T>(what: string, read: () => T | Promise<T>, expected: T, options?: WaitOptions): Promise<T> {
  return waitUntil(`${what} to be ${shown(expected)}`, read, (value) => isDeepStrictEqual(value, expected), options);
}

/** Waits until the text `read()` returns matches `pattern` (or equals it, for a string). */
export function waitForMatch(what: string, read: () => string | Promise<string>, pattern: RegExp | string, options?: WaitOptions): Promise<string> {
  const accept = typeof pattern === 'string' ? (text: string) => text === pattern : (text: string) => pattern.test(text);
  return waitUntil(`${what} to ${typeof pattern === 'string' ? 'be' : 'match'} ${shown(pattern)}`, read, accept, options);
}
