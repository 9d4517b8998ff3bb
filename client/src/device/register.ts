// Registers the device half of the extension: "Hailo: Run on Device", the results panels, the
// device status bar item, "Hailo: Device Details" and "Hailo: Check Setup". extension.ts calls this once.
import * as path from 'path';
import * as vscode from 'vscode';
import { parseRunDocument } from './runDocument';
import { DeviceConnection } from './deviceConnection';
import { ResultsPanels } from './resultsPanel';
import { RUN_COMMAND, RunOnDevice, type RunArgs } from './runOnDevice';
import { DETAILS_COMMAND, DeviceStatusBar } from './statusBar';
import { CHECK_SETUP_COMMAND, CheckSetup } from './checkSetup';

export const OPEN_RESULTS_COMMAND = 'hailo.openRunResults';
const MAX_EXPORT_BYTES = 64 << 20;

/** Shows an exported run (Export JSON) again. Reads a file, runs nothing: allowed in Restricted Mode. */
async function openResults(panels: ResultsPanels, log: vscode.LogOutputChannel, arg: unknown): Promise<void> {
  // The argument (explorer), else the export open in the editor, else ask.
  const active = vscode.window.activeTextEditor?.document.uri;
  const uri =
    arg instanceof vscode.Uri
      ? arg
      : active && active.path.endsWith('.run.json')
        ? active
        : (
            await vscode.window.showOpenDialog({
              canSelectMany: false,
              filters: { 'Device run (JSON)': ['json'] },
              title: 'Open a run exported by Hailo: Run on Device',
            })
          )?.[0];
  if (!uri) return;
  const name = path.posix.basename(uri.path);
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > MAX_EXPORT_BYTES) {
      void vscode.window.showErrorMessage(`${name} is ${Math.round(stat.size / 2 ** 20)} MiB; a device run export is far smaller, so it is not opened.`);
      return;
    }
    const doc = parseRunDocument(new TextDecoder('utf-8').decode(await vscode.workspace.fs.readFile(uri)), name);
    if ('error' in doc) {
      void vscode.window.showErrorMessage(doc.error);
      return;
    }
    const hef = typeof doc.options.hef === 'string' && path.isAbsolute(doc.options.hef) ? vscode.Uri.file(doc.options.hef) : uri;
    panels.show(hef, doc);
  } catch (err) {
    log.error(`device results: cannot open ${uri.toString()}: ${(err as Error)?.message ?? err}`);
    void vscode.window.showErrorMessage(`${name} could not be read: ${(err as Error)?.message ?? err}`);
  }
}

export function registerDevice(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
): { runner: RunOnDevice; status: DeviceStatusBar; service: DeviceConnection } {
  const service = new DeviceConnection(context, log);
  let runner: RunOnDevice | undefined;
  const panels = new ResultsPanels(context, log, {
    runAgain: (hef) => void vscode.commands.executeCommand(RUN_COMMAND, hef, { prompt: false } satisfies RunArgs),
    rerunReference: (hef, doc) => runner!.rerunReference(hef, doc),
  });
  runner = new RunOnDevice(context, log, service, panels);
  const status = new DeviceStatusBar(log, service, runner);
  const setup = new CheckSetup(service, log);
  context.subscriptions.push(
    service,
    panels,
    status,
    setup,
    vscode.commands.registerCommand(CHECK_SETUP_COMMAND, () => setup.show()),
    vscode.commands.registerCommand(RUN_COMMAND, (arg?: unknown, args?: RunArgs) => runner!.run(arg, args ?? {})),
    vscode.commands.registerCommand(DETAILS_COMMAND, () => status.showDetails()),
    vscode.commands.registerCommand(OPEN_RESULTS_COMMAND, (arg?: unknown) => openResults(panels, log, arg)),
  );
  return { runner, status, service };
}
