// The process interface the compile runner is written against. The runner never imports
// child_process: its caller hands it a launcher, and the only real one (launcher.ts) is made from
// a TrustToken — so the extension cannot reach docker without the workspace-trust guard, and
// tests can script docker's answers.
import type { Readable, Writable } from 'node:stream';

export interface LaunchOptions {
  cwd?: string;
  /** 'pipe' when the caller writes to stdin (docker cp - …); otherwise stdin is closed. */
  stdin?: 'pipe' | 'ignore';
}

export interface ProcessExit {
  /** Exit code, or null when the process was killed by a signal or never started. */
  code: number | null;
  signal: string | null;
  /** Start failure (ENOENT: the executable does not exist, EACCES: not executable). */
  error?: { code: string; message: string };
}

export interface LaunchedProcess {
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Present when launched with stdin: 'pipe'. */
  readonly stdin: Writable | null;
  readonly exit: Promise<ProcessExit>;
  /** Ends the process and its process group: SIGTERM, then SIGKILL after KILL_GRACE_MS (the docker client, not the container: see runner.cancel). */
  kill(): void;
}

/** Starts `file` with `args` as an argument array — never through a shell. */
export type ProcessLauncher = (file: string, args: readonly string[], options?: LaunchOptions) => LaunchedProcess;

export interface Captured extends ProcessExit {
  stdout: string;
  stderr: string;
  timedOut?: boolean;
}

/**
 * docker's read-only answers shared by the runs of a sweep: `ask` runs once per key and every run
 * waits on the same answer; an answer that did not exit 0 leaves the cache, so the next run asks again.
 */
export function sharedAnswer(cache: Map<string, Promise<Captured>>, key: string, ask: () => Promise<Captured>): Promise<Captured> {
  let answer = cache.get(key);
  if (!answer) {
    answer = ask().then((r) => {
      if (r.code !== 0) cache.delete(key);
      return r;
    });
    cache.set(key, answer);
  }
  return answer;
}

/** Time between SIGTERM and SIGKILL when a process is stopped. */
export const KILL_GRACE_MS = 3000;

/**
 * Sends `signal` to the process group led by `pid` (a child started with `detached: true`); false
 * when there is no such group (already gone, or not a group leader).
 */
export function signalGroup(pid: number | undefined, signal: NodeJS.Signals): boolean {
  if (!pid || process.platform === 'win32') return false;
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs a short command to completion, capturing (capped) output; kills it at the timeout, or at
 * once when `signal` aborts (a cancelled compile does not wait for a `docker version` that hangs).
 */
export async function capture(
  launch: ProcessLauncher,
  file: string,
  args: readonly string[],
  { timeoutMs = 30_000, maxOutputBytes = 4 << 20, signal }: { timeoutMs?: number; maxOutputBytes?: number; signal?: AbortSignal } = {},
): Promise<Captured> {
  const p = launch(file, args);
  let stdout = '';
  let stderr = '';
  p.stdout.setEncoding('utf8').on('data', (d: string) => {
    if (stdout.length < maxOutputBytes) stdout += d;
  });
  p.stderr.setEncoding('utf8').on('data', (d: string) => {
    if (stderr.length < maxOutputBytes) stderr += d;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    p.kill();
  }, timeoutMs);
  const onAbort = () => p.kill();
  if (signal?.aborted) onAbort();
  else signal?.addEventListener('abort', onAbort, { once: true });
  const exit = await p.exit;
  clearTimeout(timer);
  signal?.removeEventListener('abort', onAbort);
  // Let the pipes drain: 'exit' can precede the last 'data' events.
  await Promise.all([streamEnd(p.stdout), streamEnd(p.stderr)]);
  return { ...exit, stdout, stderr, ...(timedOut ? { timedOut } : {}) };
}

export function streamEnd(s: Readable): Promise<void> {
  if (s.readableEnded || s.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    s.once('end', resolve);
    s.once('close', resolve);
    s.once('error', () => resolve());
  });
}
