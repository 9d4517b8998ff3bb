// The one place the `.alls` core touches the file system (used by the CLI and the LSP adapter, not
// by the pure core): where an `nms_postprocess` config path (or a labels file) points, and does it
// exist. Only `stat` here; the NMS bundle reads the file it names.
//
// Paths a file supplies (issue 18): environment variables are never expanded (a cloned script's
// `nms_postprocess("${HOME}/…")` told by its warning whether a file outside the folder exists), and
// the path, links resolved, must stay inside the folders the user opened (the language server's
// workspace folders; the CLI's current folder) or the script's own folder. Anything else is "cannot
// tell": no finding, no read.
import { basename, dirname, isAbsolute, resolve } from 'node:path';
import { currentOpenedFolders, FileRoots, setOpenedFolders } from '../common/confined';

let skippedNote: ((sentence: string) => void) | undefined;
const noted = new Set<string>();
const MAX_NOTED = 500;

/** Where "this path was not read, and why" goes (the server's log, the CLI's stderr); each sentence once. */
export function setSkippedPathNote(note: ((sentence: string) => void) | undefined): void {
  skippedNote = note;
  noted.clear();
}

export function noteSkipped(sentence: string): void {
  if (!skippedNote || noted.has(sentence)) return;
  if (noted.size >= MAX_NOTED) noted.clear();
  noted.add(sentence);
  skippedNote(sentence);
}

/** The folders the user opened: kept by the confined file layer (FileRoots.near), set by the server and the CLI. */
export { currentOpenedFolders, setOpenedFolders };

/**
 * The file an `nms_postprocess` config path (or labels path) names: a relative path resolved
 * against the script's folder (as the DFC does). `undefined` when it cannot or may not tell: a
 * path with `$` (variables are not expanded), a relative path for a script with no folder yet, or
 * a path that leads outside the opened folders and the script's folder. Those last two get a note
 * saying why it was not read — never where it leads nor whether it exists (that is what a cloned
 * file must not learn or show).
 */
export function resolveNmsConfigPath(raw: string, scriptPath: string | undefined, what = 'nms_postprocess path'): string | undefined {
  const named = scriptPath ? ` named in ${scriptPath}` : '';
  if (raw.includes('$')) {
    noteSkipped(`The ${what} '${raw}'${named} was not read: environment variables are never expanded in paths a file names; write the path itself.`);
    return undefined;
  }
  if (!isAbsolute(raw) && !scriptPath) return undefined;
  const p = isAbsolute(raw) ? raw : resolve(dirname(scriptPath!), raw);
  const roots = rootsFor(scriptPath);
  if (roots?.contains(p)) return p;
  noteSkipped(
    `The ${what} '${raw}'${named} was not read: it leads (links resolved) outside the opened folders and the folder of ${scriptPath ? basename(scriptPath) : 'the file'}; put the file inside the folder.`,
  );
  return undefined;
}

/** A `fileExists` for CheckOptions over resolveNmsConfigPath; only `stat`, never a read. */
export function nmsConfigResolver(scriptPath: string | undefined): (raw: string) => boolean | undefined {
  return (raw) => {
    const p = resolveNmsConfigPath(raw, scriptPath);
    if (p === undefined) return undefined;
    return rootsFor(scriptPath)?.isFile(p) ?? false;
  };
}

/** The opened folders and the script's folder; none (a path is never read) when there are neither. */
function rootsFor(scriptPath: string | undefined): FileRoots | undefined {
  const folders = [...currentOpenedFolders(), ...(scriptPath ? [dirname(scriptPath)] : [])];
  return folders.length ? FileRoots.of(folders) : undefined;
}
