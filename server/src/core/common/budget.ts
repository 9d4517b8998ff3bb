// A time budget for editor features that run on every edit or scroll (semantic tokens, folding,
// symbols): loops ask `expired()` now and then and stop early, so that one huge document cannot hold
// the server (one thread) away from the diagnostics of every other document. Also expires when the
// client cancelled the request.

export interface Budget {
  /** True once the time is up or the request was cancelled; cheap enough to ask every few hundred items. */
  expired(): boolean;
  /** The budget in ms (for log lines). */
  readonly ms: number;
}

export function timeBudget(ms: number, cancelled?: () => boolean): Budget {
  const end = performance.now() + ms;
  return { ms, expired: () => performance.now() > end || (cancelled?.() ?? false) };
}

/** No limit (tests, the CLI). */
export const UNLIMITED: Budget = { ms: Infinity, expired: () => false };
