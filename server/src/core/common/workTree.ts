// The git work tree a path lies in, found the way git itself finds it (the nearest folder above
// with a `.git` entry — a folder, or a file in a linked worktree or submodule: see "GIT_DIR" in
// https://git-scm.com/docs/git#_environment_variables), without starting a `git` process.
// `hailo-tools check` reads the files a script names inside that tree (issue 34).
import { lstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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

function hasGitEntry(dir: string): boolean {
  try {
    const st = lstatSync(join(dir, '.git'));
    return st.isDirectory() || st.isFile();
  } catch {
    return false;
  }
}
