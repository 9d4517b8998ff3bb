// First-run helpers: "Hailo: Show Log" (the LogOutputChannel every part of the client writes to)
// and the walkthrough's commands. The walkthrough itself is declared in package.json
// (contributes.walkthroughs) with its pages under media/walkthrough/.
import * as vscode from 'vscode';

export const SHOW_LOG_COMMAND = 'hailo.showLog';
export const OPEN_WALKTHROUGH_COMMAND = 'hailo.openWalkthrough';
export const WALKTHROUGH_ID = 'hailo-tools.hailo-tools#hailo.gettingStarted';

export function registerGettingStarted(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(SHOW_LOG_COMMAND, () => log.show()),
    vscode.commands.registerCommand(OPEN_WALKTHROUGH_COMMAND, () => vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false)),
  );
}
