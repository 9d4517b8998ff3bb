// The files a HAR's commands use, found beside it: the model scripts, the one the 16-bit line goes
// into, and the calibration set (hailo.model.calibrationSet, else the .npy beside the HAR, else asked).
import * as path from 'path';
import * as vscode from 'vscode';
import { calibrationBeside, FileRoots } from '@hailo/api';
import { hailoSettings } from '../settings';

export const scriptsBeside = (har: string): string[] => {
  try {
    return FileRoots.of([path.dirname(har)])
      .list(path.dirname(har))
      .filter((f) => f.toLowerCase().endsWith('.alls'))
      .sort()
      .map((f) => path.join(path.dirname(har), f));
  } catch {
    return [];
  }
};

/** The script of this HAR: same base name as the HAR's network or file, else the only one. */
export function targetScript(har: string, net: string, scripts: string[]): string | undefined {
  const base = path.basename(har).replace(/\.har$/i, '');
  const names = scripts.map((s) => path.basename(s, '.alls'));
  const i = names.findIndex((n) => n === net || n === base || base.startsWith(n));
  if (i >= 0) return scripts[i];
  return scripts.length === 1 ? scripts[0] : undefined;
}

/** The calibration set for a HAR: the setting, else the one beside it, else the user picks one (undefined: cancelled). */
export async function calibrationFor(har: string, purpose: string): Promise<string | undefined> {
  const setting = hailoSettings(vscode.Uri.file(har)).model.calibrationSet;
  const found = setting ? path.resolve(path.dirname(har), setting) : calibrationBeside(har);
  if (found) return found;
  const picked = await vscode.window.showOpenDialog({
    title: `The calibration set (NHWC .npy) to ${purpose}`,
    defaultUri: vscode.Uri.file(path.dirname(har)),
    filters: { 'NumPy arrays': ['npy', 'npz'] },
    canSelectMany: false,
    openLabel: 'Use',
  });
  return picked?.[0]?.fsPath;
}

/** The HAR the user is looking at: the focused HAR view's tab (a custom editor has no text editor), else a text editor's file. */
export function activeHar(): string | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputCustom && input.uri.scheme === 'file' && input.uri.fsPath.toLowerCase().endsWith('.har')) return input.uri.fsPath;
  const text = vscode.window.activeTextEditor?.document.uri;
  return text?.scheme === 'file' && text.fsPath.toLowerCase().endsWith('.har') ? text.fsPath : undefined;
}
