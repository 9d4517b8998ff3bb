// The git work tree a path lies in, found the way git itself finds it (the nearest folder above
// with a `.git` entry — a folder, or a file in a linked worktree or submodule: see "GIT_DIR" in
// https://git-scm.com/docs/git#_environment_variables), without starting a `git` process.
// `hailo-tools check` reads the files a script names inside that tree (issue 34).
import { dirname, join, resolve } from 'node:path';
import { FileRoots } from './confined';

/** The top folder of the git work tree `path` (a file or folder) lies in, or undefined. */
export function gitWorkTreeOf(path: string): string | undefined {
  let dir = resolve(path);
  for (;;) {
    if (hasGitEntry(dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** Only whether a `.git` entry is there (its lstat, in the folder's real location) — nothing is read. */
function hasGitEntry(dir: string): boolean {
  const st = FileRoots.of([dir]).lstat(join(dir, '.git'));
  return st !== undefined && (st.isDirectory() || st.isFile());
}
