// The compile runner's process launcher: node's spawn with an argument array, never a shell, and
// only with a TrustToken — the extension gets one in a trusted workspace only
// (client/src/security/workspaceTrust.ts), the terminal CLI makes its own (commandLineTrust).
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { TrustToken } from '../common/trust';
import type { LaunchedProcess, ProcessExit, ProcessLauncher } from './process';

export interface LauncherOptions {
  /**
   * Start each child in its own process group (POSIX). The CLI wants this: the terminal's Ctrl+C
   * then reaches only hailo-tools, which removes the container itself, instead of docker
   * forwarding SIGINT into the DFC.
   */
  newProcessGroup?: boolean;
}

export function trustedLauncher(_trust: TrustToken, options: LauncherOptions = {}): ProcessLauncher {
  return (file, args, launch = {}): LaunchedProcess => {
    const child = spawn(file, [...args], {
      shell: false,
      detached: options.newProcessGroup === true && process.platform !== 'win32',
      windowsHide: true,
      cwd: launch.cwd,
      stdio: [launch.stdin === 'pipe' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    const exit = new Promise<ProcessExit>((resolve) => {
      child.once('error', (err: NodeJS.ErrnoException) => resolve({ code: null, signal: null, error: { code: err.code ?? 'EUNKNOWN', message: err.message } }));
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    return {
      stdout: child.stdout ?? new PassThrough().end(),
      stderr: child.stderr ?? new PassThrough().end(),
      stdin: child.stdin,
      exit,
      kill: () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      },
    };
  };
}

/** `uid:gid` on POSIX, so files the container writes into bind mounts belong to the user. */
export function hostUser(): string | undefined {
  return typeof process.getuid === 'function' && typeof process.getgid === 'function' ? `${process.getuid()}:${process.getgid()}` : undefined;
}
