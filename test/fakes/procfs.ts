// A process as /proc shows it (proc(5)): comm, NUL-separated cmdline and environ, and fd/ links
// to what it holds open — written under `root`, for code that reads `<root>/proc` instead of /proc.
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function fakeProcess(root: string, pid: number, p: { comm: string; cmdline: string[]; fds: string[]; environ?: string[] }): void {
  const dir = join(root, 'proc', String(pid));
  mkdirSync(join(dir, 'fd'), { recursive: true });
  writeFileSync(join(dir, 'comm'), `${p.comm}\n`);
  writeFileSync(join(dir, 'cmdline'), p.cmdline.join('\0') + '\0');
  writeFileSync(join(dir, 'environ'), (p.environ ?? []).join('\0'));
  p.fds.forEach((target, i) => symlinkSync(target, join(dir, 'fd', String(i + 3))));
}
