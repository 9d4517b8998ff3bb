// Reading a system laid out under a root folder (`/`, or a fake system in the tests): the library
// folders, small text files, folder listings, and paths resolved the way the system itself would
// resolve them — symbolic links followed inside the root (an absolute link target starts again at
// the root, `..` stops at it), so a fake system never reads the host's files through a link.
import { lstatSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { readSmallFileSync } from '../common/fileAccess';

/** Library folders in the order the dynamic loader searches them on Debian (ld.so.conf.d, then the defaults). */
export const LIBRARY_DIRS = [
  'usr/local/lib',
  'usr/local/lib/aarch64-linux-gnu',
  'usr/local/lib/x86_64-linux-gnu',
  'lib/aarch64-linux-gnu',
  'usr/lib/aarch64-linux-gnu',
  'lib/x86_64-linux-gnu',
  'usr/lib/x86_64-linux-gnu',
  'lib',
  'usr/lib',
  'lib64',
  'usr/lib64',
  'opt/hailort/lib',
];

/** Where libraries are looked for but the loader itself does not look (only an ld.so.conf entry makes it). */
export const NOT_LOADER_DIRS = new Set(['opt/hailort/lib']);

export function readText(path: string, max = 64 << 10): string | undefined {
  try {
    return readSmallFileSync(path, max).toString('utf8');
  } catch {
    return undefined;
  }
}

export function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Symbolic links followed at most this often (Linux's MAXSYMLINKS). */
const MAX_LINKS = 40;

/**
 * The file `rooted` (an absolute path inside the system, `/usr/lib/x`) names, with every link
 * followed inside `root`: its host path and its path inside the system. Undefined when a part is
 * missing or the links loop.
 */
export function resolveInRoot(root: string, rooted: string): { host: string; rooted: string } | undefined {
  const todo = rooted.split('/').filter(Boolean);
  const done: string[] = [];
  let links = 0;
  while (todo.length > 0) {
    const part = todo.shift()!;
    if (part === '.') continue;
    if (part === '..') {
      done.pop();
      continue;
    }
    const host = join(root, ...done, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(host).isSymbolicLink();
    } catch {
      return undefined;
    }
    if (!isLink) {
      done.push(part);
      continue;
    }
    if (++links > MAX_LINKS) return undefined;
    let target: string;
    try {
      target = readlinkSync(host);
    } catch {
      return undefined;
    }
    if (target.startsWith('/')) done.length = 0;
    todo.unshift(...target.split('/').filter(Boolean));
  }
  return { host: join(root, ...done), rooted: `/${done.join('/')}` };
}

/** `/usr/lib/x` for a host path under `root`; other paths (a venv in the workspace) as they are. */
export function inRoot(root: string, host: string): string {
  const r = root.endsWith('/') ? root : `${root}/`;
  if (root === '/' || !host.startsWith(r)) return host;
  return `/${host.slice(r.length)}`;
}
