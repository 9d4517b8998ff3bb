// The compile settings as the runner wants them, read through the shared settings reader
// (client/src/settings.ts over server/src/core/common/settings.ts). `hailo.dfc.dockerPath` and
// `hailo.dfc.extraRunArgs` are machine-scoped (VS Code ignores them in a folder's settings: they
// choose what runs); the image, memory limit, GPUs and docker context may be set per folder.
import * as vscode from 'vscode';
import type { DockerSettings } from '@hailo/api';
import { hailoSettings } from '../settings';

export function dockerSettings(scope?: vscode.Uri): DockerSettings {
  const { dfc } = hailoSettings(scope);
  return {
    dockerPath: dfc.dockerPath,
    context: dfc.dockerContext || undefined,
    image: dfc.image || undefined,
    memoryLimit: dfc.memoryLimit || undefined,
    gpus: dfc.gpus,
    extraRunArgs: dfc.extraRunArgs,
  };
}

export function hwArch(scope?: vscode.Uri): string {
  return hailoSettings(scope).hwArch;
}

/**
 * True when the value of a path setting is the user's own (user or remote settings), not a
 * folder's: a cloned `.vscode/settings.json` may only name paths inside the folder (the compile
 * refuses the rest), while the user's own setting may name any folder.
 */
export function isUserPathSetting(key: 'compile.hailoConfig' | 'compile.outputFolder', scope?: vscode.Uri): boolean {
  const i = vscode.workspace.getConfiguration('hailo', scope).inspect<string>(key);
  return (
    i !== undefined &&
    i.workspaceFolderValue === undefined &&
    i.workspaceValue === undefined &&
    typeof i.globalValue === 'string' &&
    i.globalValue.trim() !== ''
  );
}

/** `hailo.compile.hailoConfig`, relative to the model's folder; undefined: the runner looks beside the model. */
export function hailoConfigSetting(scope?: vscode.Uri): string | undefined {
  return hailoSettings(scope).compile.hailoConfig || undefined;
}

/** `hailo.compile.outputFolder`, relative to the model's folder; undefined: the model's folder. */
export function outputFolderSetting(scope?: vscode.Uri): string | undefined {
  return hailoSettings(scope).compile.outputFolder || undefined;
}
