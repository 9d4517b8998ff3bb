// The only place in the extension that starts a process. It takes an argument array (never a
// command string) and never a shell, so a path or name from a file or setting is one argv entry
// and cannot inject commands; and it demands a TrustToken, so it runs only in trusted workspaces.
import { spawn } from 'node:child_process';
import { KILL_GRACE_MS, signalGroup } from '@hailo/api';
import type { TrustToken } from './workspaceTrust';

export interface ToolResult {
  /** Exit code, or undefined when the process could not start or was killed. */
  code: number | undefined;
  stdout: string;
  stderr: string;
  /** Start failure (e.g. ENOENT: executable not found) or timeout. */
  error?: { code: string; message: string };
}

export interface RunToolOptions {
  timeoutMs?: number;
  cwd?: string;
  /** Cap on captured output per stream, so a chatty tool cannot exhaust memory. */
  maxOutputBytes?: number;
}

export function runTool(_trust: TrustToken, file: string, args: readonly string[], options: RunToolOptions = {}): Promise<ToolResult> {
  const { timeoutMs = 30_000, cwd, maxOutputBytes = 4 << 20 } = options;
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    const finish = (result: ToolResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    // Its own process group (POSIX), so the timeout ends the tool's children too (SIGTERM, then SIGKILL).
    const group = process.platform !== 'win32';
    const child = spawn(file, [...args], { cwd, shell: false, detached: group, windowsHide: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      if (!group || !signalGroup(child.pid, 'SIGTERM')) child.kill('SIGTERM');
      setTimeout(() => {
        if (!group || !signalGroup(child.pid, 'SIGKILL')) child.kill('SIGKILL');
      }, KILL_GRACE_MS).unref();
      child.stdout.destroy();
      child.stderr.destroy();
      finish({ code: undefined, stdout, stderr, error: { code: 'ETIMEDOUT', message: `${file} did not finish within ${timeoutMs} ms` } });
    }, timeoutMs);
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      if (stdout.length < maxOutputBytes) stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      if (stderr.length < maxOutputBytes) stderr += d;
    });
    child.on('error', (err: NodeJS.ErrnoException) =>
      finish({ code: undefined, stdout, stderr, error: { code: err.code ?? 'EUNKNOWN', message: err.message } }),
    );
    child.on('close', (code) => finish({ code: code ?? undefined, stdout, stderr }));
  });
}
