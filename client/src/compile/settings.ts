// The compile settings as the runner wants them, read through the shared settings reader
// (client/src/settings.ts over server/src/common/settings.ts). `hailo.dfc.dockerPath` and
// `hailo.dfc.extraRunArgs` are machine-scoped (VS Code ignores them in a folder's settings: they
// choose what runs); the image, memory limit, GPUs and docker context may be set per folder.
import type * as vscode from 'vscode';
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

/** `hailo.compile.hailoConfig`, relative to the model's folder; undefined: the runner looks beside the model. */
export function hailoConfigSetting(scope?: vscode.Uri): string | undefined {
  return hailoSettings(scope).compile.hailoConfig || undefined;
}

/** `hailo.compile.outputFolder`, relative to the model's folder; undefined: the model's folder. */
export function outputFolderSetting(scope?: vscode.Uri): string | undefined {
  return hailoSettings(scope).compile.outputFolder || undefined;
}
