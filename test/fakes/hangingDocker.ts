// A docker CLI that never answers, the worst kind (issue 18): it ignores SIGTERM and leaves a
// grandchild holding its stdout and stderr open, so waiting for the pipes to close never ends.
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A `docker` that never answers: ignores SIGTERM, and its grandchild holds stdout/stderr open. */
export function hangingDocker(dir: string): { path: string; pids(): number[] } {
  const path = join(dir, 'docker');
  const pidFile = join(dir, 'pids');
  writeFileSync(
    path,
    `#!${process.execPath}
const { spawn } = require('node:child_process');
const fs = require('node:fs');
process.on('SIGTERM', () => {});
const g = spawn(${JSON.stringify(process.execPath)}, ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: ['ignore', 'inherit', 'inherit'] });
fs.writeFileSync(${JSON.stringify(pidFile)}, process.pid + ' ' + g.pid);
setInterval(() => {}, 1000);
`,
  );
  chmodSync(path, 0o755);
  return { path, pids: () => (existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split(' ').map(Number) : []) };
}
