// The real TrustHost, backed by the VS Code API.
import * as vscode from 'vscode';
import type { TrustHost } from './workspaceTrust';

export function vscodeTrustHost(log: vscode.LogOutputChannel): TrustHost {
  return {
    isTrusted: () => vscode.workspace.isTrusted,
    warn: (message, ...buttons) => vscode.window.showWarningMessage(message, ...buttons),
    manageTrust: () => vscode.commands.executeCommand('workbench.trust.manage'),
    log: (message) => log.warn(message),
  };
}
