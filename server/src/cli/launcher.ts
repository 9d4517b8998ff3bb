// The CLI's process launcher for the compile runner: node's spawn with an argument array, never a
// shell. The CLI runs in a terminal the user controls (no workspace to trust). Each child gets its
// own process group (detached), so the terminal's Ctrl+C reaches only hailo-tools, which then
// removes the container itself instead of docker forwarding the signal into the DFC.
import { spawn } from 'node:child_process';
import { PassThrough } from 'node:stream';
import type { LaunchedProcess, ProcessLauncher, ProcessExit } from '../compile/process';

export const spawnLauncher: ProcessLauncher = (file, args, options = {}): LaunchedProcess => {
  const child = spawn(file, [...args], {
    shell: false,
    detached: process.platform !== 'win32',
    windowsHide: true,
    cwd: options.cwd,
    stdio: [options.stdin === 'pipe' ? 'pipe' : 'ignore', 'pipe', 'pipe'],
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
