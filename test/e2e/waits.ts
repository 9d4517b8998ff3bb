// Waits for a state, never a read at a moment. Whatever an e2e assertion reads that settles on its
// own time (the DOM of a page, diagnostics, a file another process writes) is read again until it
// holds or its deadline passes; then the test fails naming what it waited for and the last value it
// saw. Plain node, no VS Code or playwright: both halves of the suite use it.
import { inspect, isDeepStrictEqual } from 'node:util';

export interface WaitOptions {
  /** The deadline (default 30 s: the suite runs on a loaded 2-core machine). */
  timeoutMs?: number;
  /** Pause between reads. */
  intervalMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

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
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
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
