// Reading a system laid out under a root folder (`/`, or a fake system in the tests): the library
// folders, small text files, folder listings, and paths resolved the way the system itself would
// resolve them — symbolic links followed inside the root (an absolute link target starts again at
// the root, `..` stops at it), so a fake system never reads the host's files through a link.
import { join, resolve } from 'node:path';
import { FileRoots, resolveInSystem } from '../common/confined';
import { isInside } from '../common/fileAccess';

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

// Every read goes through the confined file layer (issue 29): a path under the system root is
// resolved the system's way inside it (`doctor --root R`: an absolute link starts again at R, so
// R/sys/module/hailo_pci/version -> /etc/x reads R/etc/x, never the host's), a path in the workspace
// folder (Check Setup's venvs) stays inside that folder, and any other path is not read. The roots
// are a value each probe is given, never module state: two doctor runs in one process (the language
// server's Check Setup, the tests' fake systems) cannot read through each other's roots.
export class DoctorFiles {
  readonly root: string;
  private readonly system: FileRoots;
  private readonly workspace: { folder: string; roots: FileRoots } | undefined;

  /** The system root (`/`, or a fake system) and the workspace folder (Check Setup's venvs), if any. */
  constructor(root: string, folder?: string) {
    this.root = root; // as given: the probes join paths under it and name them inside the system (inRoot)
    this.system = FileRoots.system(root);
    this.workspace = folder ? { folder: resolve(folder), roots: FileRoots.of([folder]) } : undefined;
  }

  /** The roots a doctor path is read in (see above). */
  rootsFor(path: string): FileRoots {
    return this.workspace && isInside(path, this.workspace.folder) ? this.workspace.roots : this.system;
  }

  readText(path: string, max = 64 << 10): string | undefined {
    return this.rootsFor(path).readTextOrUndefined(path, max);
  }

  listDir(dir: string): string[] {
    return this.rootsFor(dir).listOrEmpty(dir);
  }

  /** A regular file (links followed inside the roots); false when missing or refused. */
  isFile(path: string): boolean {
    try {
      return this.rootsFor(path).isFile(path);
    } catch {
      return false;
    }
  }

  /** A folder (links followed inside the roots). */
  isDir(path: string): boolean {
    return this.rootsFor(path).isDirectory(path);
  }

  /** stat inside the roots, or undefined (missing or refused). */
  stat(path: string): ReturnType<FileRoots['stat']> {
    try {
      return this.rootsFor(path).stat(path);
    } catch {
      return undefined;
    }
  }

  /** The target of a link as written (a name to show, e.g. a PCI device's driver), or undefined. */
  linkTarget(path: string): string | undefined {
    return this.rootsFor(path).readlink(path);
  }

  /** Opens a regular file inside the roots (the caller closes it). */
  openSync(path: string): { fd: number; size: number } {
    return this.rootsFor(path).openSync(path);
  }
}

/**
 * The file `rooted` (an absolute path inside the system, `/usr/lib/x`) names, with every link
 * followed inside `root`: its host path and its path inside the system. Undefined when a part is
 * missing or the links loop.
 */
export function resolveInRoot(root: string, rooted: string): { host: string; rooted: string } | undefined {
  const host = resolveInSystem(root, rooted);
  if (host === undefined || !statAtSystem(root, host)) return undefined;
  return { host, rooted: inRoot(root, host) };
}

function statAtSystem(root: string, host: string): boolean {
  try {
    return FileRoots.system(root).stat(host) !== undefined;
  } catch {
    return false;
  }
}

/** `/usr/lib/x` for a host path under `root`; other paths (a venv in the workspace) as they are. */
export function inRoot(root: string, host: string): string {
  const r = root.endsWith('/') ? root : `${root}/`;
  if (root === '/' || !host.startsWith(r)) return host;
  return `/${host.slice(r.length)}`;
}
