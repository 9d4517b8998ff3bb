// The one place the `.alls` core touches the file system (used by the CLI and the LSP adapter, not
// by the pure core): where an `nms_postprocess` config path (or a labels file) points, and does it
// exist. Only `stat` here; the NMS bundle reads the file it names.
//
// Paths a file supplies (issue 18): environment variables are never expanded (a cloned script's
// `nms_postprocess("${HOME}/…")` told by its warning whether a file outside the folder exists), and
// the path, links resolved, must stay inside the folders the user opened (the language server's
// workspace folders; the CLI's current folder) or the script's own folder. Anything else is "cannot
// tell": no finding, no read.
import { statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { confinedOrUndefined } from '../common/fileAccess';

let openedFolders: readonly string[] = [];

/** The folders the user opened (set by the language server from its workspace folders, by the CLI to its current folder). */
export function setOpenedFolders(folders: readonly string[]): void {
  openedFolders = [...folders];
}

/**
 * The file an `nms_postprocess` config path (or labels path) names: a relative path resolved
 * against the script's folder (as the DFC does). `undefined` when it cannot or may not tell: a
 * path with `$` (variables are not expanded), a relative path for a script with no folder yet, or
 * a path that leads outside the opened folders and the script's folder.
 */
export function resolveNmsConfigPath(raw: string, scriptPath: string | undefined): string | undefined {
  if (raw.includes('$')) return undefined;
  if (!isAbsolute(raw) && !scriptPath) return undefined;
  const p = isAbsolute(raw) ? raw : resolve(dirname(scriptPath!), raw);
  const roots = [...openedFolders, ...(scriptPath ? [dirname(scriptPath)] : [])];
  return confinedOrUndefined(p, roots) ? p : undefined;
}

/** A `fileExists` for CheckOptions over resolveNmsConfigPath; only `stat`, never a read. */
export function nmsConfigResolver(scriptPath: string | undefined): (raw: string) => boolean | undefined {
  return (raw) => {
    const p = resolveNmsConfigPath(raw, scriptPath);
    if (p === undefined) return undefined;
    try {
      return statSync(p).isFile();
    } catch {
      return false;
    }
  };
}
