// The client's reader of `hailo.*` settings: the same definitions (defaults, validation) as the
// language server's (server/src/core/common/settings.ts), over VS Code's configuration API. The model
// path settings a folder can set go through the same confinement as the server's
// (common/settingPaths.ts): absolute, inside the workspace folders or the model's folder, else
// emptied with one line in the Hailo log.
import * as vscode from 'vscode';
import { confineModelPaths, modelFolderOf, resolveSettings, type HailoSettings } from '@hailo/api';

let note: (sentence: string, once: string) => void = () => undefined;
const noted = new Set<string>();

/**
 * Where a refused path setting is reported (the Hailo output channel): once per setting value and
 * session, not once per model folder that asks for it (that filled the log in a 40-folder workspace).
 */
export function setSettingsNote(log: (sentence: string) => void): void {
  note = (sentence, once) => {
    if (noted.size > 500) noted.clear();
    if (!noted.has(once)) log(sentence);
    noted.add(once);
  };
}

/** Every `hailo.*` setting for a resource (a file or folder URI), or the window's when omitted. */
export function hailoSettings(scope?: vscode.Uri): HailoSettings {
  const config = vscode.workspace.getConfiguration('hailo', scope);
  const settings = resolveSettings((key) => config.get(key));
  const opened = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  // No file resource, no model folder: model paths are not for the window (no caller reads them so).
  if (scope?.scheme !== 'file') return confineModelPaths(settings, undefined, opened, () => undefined);
  return confineModelPaths(settings, modelFolderOf(scope.fsPath), opened, note);
}
