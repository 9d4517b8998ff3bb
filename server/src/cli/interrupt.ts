// Ctrl+C (SIGINT) and SIGTERM for the commands that run containers: the first signal aborts, the
// cleanup (removing containers) runs to its end before the process exits.

/** Calls `stop` on SIGINT and SIGTERM; returns the unhook. */
export function hookSignals(stop: () => void): () => void {
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return () => {
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  };
}

/**
 * A `stop` that aborts `controller` on the first call with `first` on stderr, and only says `again`
 * on later calls (the containers are still being removed).
 */
export function stopOnce(controller: AbortController, say: (line: string) => void, first: string, again: string): () => void {
  let interrupted = false;
  return () => {
    if (interrupted) {
      say(again);
      return;
    }
    interrupted = true;
    say(first);
    controller.abort();
  };
}
