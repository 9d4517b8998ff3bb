// The client's reader of `hailo.*` settings: the same definitions (defaults, validation) as the
// language server's (server/src/common/settings.ts), over VS Code's configuration API.
import * as vscode from 'vscode';
import { resolveSettings, type HailoSettings } from '@hailo/api';

/** Every `hailo.*` setting for a resource (a file or folder URI), or the window's when omitted. */
export function hailoSettings(scope?: vscode.Uri): HailoSettings {
  const config = vscode.workspace.getConfiguration('hailo', scope);
  return resolveSettings((key) => config.get(key));
}
