// Registers the device half of the extension: "Hailo: Run on Device", the results panels, the
// device status bar item and "Hailo: Device Details". extension.ts calls this once.
import * as vscode from 'vscode';
import { DeviceService } from './deviceService';
import { ResultsPanels } from './resultsPanel';
import { RUN_COMMAND, RunOnDevice, type RunArgs } from './runOnDevice';
import { DETAILS_COMMAND, DeviceStatusBar } from './statusBar';

export function registerDevice(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): { runner: RunOnDevice; status: DeviceStatusBar } {
  const service = new DeviceService(context, log);
  let runner: RunOnDevice | undefined;
  const panels = new ResultsPanels(context, log, {
    runAgain: (hef) => void vscode.commands.executeCommand(RUN_COMMAND, hef, { prompt: false } satisfies RunArgs),
    rerunReference: (hef, doc) => runner!.rerunReference(hef, doc),
  });
  runner = new RunOnDevice(context, log, service, panels);
  const status = new DeviceStatusBar(log, service, runner);
  context.subscriptions.push(
    service,
    panels,
    status,
    vscode.commands.registerCommand(RUN_COMMAND, (arg?: unknown, args?: RunArgs) => runner!.run(arg, args ?? {})),
    vscode.commands.registerCommand(DETAILS_COMMAND, () => status.showDetails()),
  );
  return { runner, status };
}
