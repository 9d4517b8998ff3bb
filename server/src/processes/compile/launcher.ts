// The compile runner's process launcher: node's spawn with an argument array, never a shell, and
// only with a TrustToken — the extension gets one in a trusted workspace only
// (client/src/security/workspaceTrust.ts), the terminal CLI makes its own (commandLineTrust).
//
// A kill that works (issue 18: a docker CLI that never answered hung `compile` forever): each child
// starts in its own process group (POSIX), `kill()` sends SIGTERM to the whole group and SIGKILL
// after a grace period, and the exit is reported once the process has exited even if a grandchild
// still holds its stdout/stderr open (those pipes are then closed from our side).
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { TrustToken } from '../../core/common/trust';
import { KILL_GRACE_MS, signalGroup } from './process';
import type { LaunchedProcess, ProcessExit, ProcessLauncher } from './process';

export interface LauncherOptions {
  /**
   * Start each child in its own process group (POSIX; default true). The CLI wants this: the
   * terminal's Ctrl+C then reaches only hailo-tools, which removes the container itself, instead of
   * docker forwarding SIGINT into the DFC; and a kill reaches the child's own children.
   */
  newProcessGroup?: boolean;
}

/** How long after its exit a process's pipes may stay open (held by a grandchild) before we close them. */
const PIPE_GRACE_MS = 2000;

export function trustedLauncher(_trust: TrustToken, options: LauncherOptions = {}): ProcessLauncher {
  const group = options.newProcessGroup !== false && process.platform !== 'win32';
  return (file, args, launch = {}): LaunchedProcess => {
    const child = spawn(file, [...args], {
      shell: false,
      detached: group,
      windowsHide: true,
      cwd: launch.cwd,
      stdio: [launch.stdin === 'pipe' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
    });
    const stdout = child.stdout ?? new PassThrough().end();
    const stderr = child.stderr ?? new PassThrough().end();
    const exit = new Promise<ProcessExit>((resolve) => {
      child.once('error', (err: NodeJS.ErrnoException) => resolve({ code: null, signal: null, error: { code: err.code ?? 'EUNKNOWN', message: err.message } }));
      child.once('close', (code, signal) => resolve({ code, signal }));
      child.once('exit', (code, signal) => {
        // 'close' waits for the pipes; a grandchild that inherited them must not keep us waiting.
        setTimeout(() => {
          stdout.destroy();
          stderr.destroy();
          resolve({ code, signal });
        }, PIPE_GRACE_MS).unref();
      });
    });
    let killing = false;
    return {
      stdout,
      stderr,
      stdin: child.stdin,
      exit,
      kill: () => {
        const alive = () => child.exitCode === null && child.signalCode === null;
        if (killing || !alive()) return;
        killing = true;
        if (!group || !signalGroup(child.pid, 'SIGTERM')) child.kill('SIGTERM');
        const hard = setTimeout(() => {
          // The group too: a grandchild that ignores SIGTERM (or the child, if it does) ends here.
          if (!group || !signalGroup(child.pid, 'SIGKILL')) if (alive()) child.kill('SIGKILL');
        }, KILL_GRACE_MS);
        hard.unref();
        void exit.then(() => {
          // The child is gone; its group may not be (a grandchild): end it now.
          if (group) signalGroup(child.pid, 'SIGKILL');
          clearTimeout(hard);
        });
      },
    };
  };
}

/** `uid:gid` on POSIX, so files the container writes into bind mounts belong to the user. */
export function hostUser(): string | undefined {
  return typeof process.getuid === 'function' && typeof process.getgid === 'function' ? `${process.getuid()}:${process.getgid()}` : undefined;
}
