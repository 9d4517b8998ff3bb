// The walk of a workspace folder for the files a service checks on its own (the HEFs of the inline
// checks, the model scripts that name NMS configs): bounded in files and depth, dependency and
// version-control folders (and every dot folder) skipped, folder links not followed.
import type { Dirent } from 'node:fs';
import { FileRoots } from '../core/common/confined';
import { join } from 'node:path';

const SKIP_DIRS = new Set(['node_modules', '.git', '.hg', '.svn']);
/** Deeper than this is a link loop or a generated tree, not a model folder. */
const MAX_DEPTH = 24;

/**
 * Adds to `found` the path of every entry below `dir` that is not a folder and that `take` accepts,
 * until `found` holds `max`. An unreadable folder is skipped. Dirents of symbolic links are
 * neither folders nor files here: a link to a folder is never walked.
 */
export async function walkWorkspaceFolder(
  dir: string,
  found: string[],
  max: number,
  take: (entry: Dirent) => boolean,
  depth = 0,
  roots: FileRoots = FileRoots.of([dir]),
): Promise<void> {
  if (depth > MAX_DEPTH || found.length >= max) return;
  let entries;
  try {
    entries = await roots.listEntriesAsync(dir);
  } catch {
    return;
  }
  for (const e of entries) {
    if (found.length >= max) return;
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name) && !e.name.startsWith('.')) await walkWorkspaceFolder(join(dir, e.name), found, max, take, depth + 1, roots);
    } else if (take(e)) found.push(join(dir, e.name));
  }
}
