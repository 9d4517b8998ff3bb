// The device failure's sentence as an error message whose buttons do what they say — one place for
// Run on Device, Chat with Model and Transcribe Audio (failures.ts decides the buttons, purely).
import * as vscode from 'vscode';
import type { DeviceError } from '@hailo/api';
import { CHECK_SETUP_COMMAND, failureMessage, type FailureAction } from './failures';
import { HEF_VIEW_TYPE } from '../hef/hefEditor';

export interface FailureContext {
  log: vscode.LogOutputChannel;
  hef?: vscode.Uri;
  /** What Retry does (the command again, usually). */
  retry: () => Thenable<unknown>;
  /** What Change Input does, where the command has options. */
  changeOptions?: () => Thenable<unknown>;
}

export async function showDeviceFailure(err: DeviceError, ctx: FailureContext): Promise<void> {
  const { text, actions } = failureMessage(err);
  const chosen = await vscode.window.showErrorMessage(text, ...actions.map((a) => a.label));
  const action = actions.find((a) => a.label === chosen);
  if (action) await perform(action, ctx);
}

async function perform(action: FailureAction, ctx: FailureContext): Promise<void> {
  switch (action.kind) {
    case 'open-settings':
      await vscode.commands.executeCommand('workbench.action.openSettings', action.setting);
      break;
    case 'show-log':
      ctx.log.show(true);
      break;
    case 'manage-trust':
      await vscode.commands.executeCommand('workbench.trust.manage');
      break;
    case 'open-inspector':
      if (ctx.hef) await vscode.commands.executeCommand('vscode.openWith', ctx.hef, HEF_VIEW_TYPE);
      break;
    case 'retry':
      await ctx.retry();
      break;
    case 'change-options':
      await (ctx.changeOptions ?? ctx.retry)();
      break;
    case 'check-setup':
      await vscode.commands.executeCommand(CHECK_SETUP_COMMAND);
      break;
  }
}
