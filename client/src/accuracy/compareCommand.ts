// "Hailo: Compare Accuracy": the float ONNX, every DFC emulator context and (when wired) the device
// on the same inputs, in one webview (render.ts). Trusted workspaces only (it runs onnxruntime and
// docker). Files come from the folder of the active file or the explorer selection: the ONNX
// (`hailo.model.onnx`, else the only one), the optimized HAR (`*_optimized.har`, else
// `hailo.model.har`, else the only one), the script and the calibration set beside it; whatever
// is missing is asked for once.
import { tmpdir } from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  compareOracles,
  CompareError,
  deviceOutputs,
  EMULATOR_CONTEXTS,
  locateOnnxRuntime,
  runEmulator,
  runOnnxInWorker,
  trustedLauncher,
  type AccuracyDocument,
  type CompareInputs,
  type DeviceClient,
  type TrustToken,
  FileRoots,
} from '@hailo/api';
import { requireWorkspaceTrust } from '../security/workspaceTrust';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { hailoSettings } from '../settings';
import { renderAccuracyMessage, renderAccuracyPage } from './render';
import { pageOptions, pageRoots } from '../webview/assets';
import { connectPage, type HostChannel } from '../webview/channel';
import { showPage } from '../webview/showPage';
import type { ChartPageOptions } from '../webview/html';
import { unhandled } from '../webview/protocol';
import { ACCURACY_FROM_PAGE, type AccuracyFromPage, type AccuracyToPage } from '../webview/protocols/accuracy';

export const COMPARE_COMMAND = 'hailo.compareAccuracy';
const ACTION = 'Compare Accuracy';

function only(dir: string, test: (f: string) => boolean): string | undefined {
  try {
    const files = FileRoots.of([dir]).listOrEmpty(dir).filter(test);
    return files.length === 1 ? path.join(dir, files[0]) : undefined;
  } catch {
    return undefined;
  }
}

async function pick(title: string, dir: string, ext: string): Promise<string | undefined> {
  const r = await vscode.window.showOpenDialog({ title, defaultUri: vscode.Uri.file(dir), filters: { [ext]: [ext] }, canSelectMany: false, openLabel: 'Use' });
  return r?.[0]?.fsPath;
}

/** The files for a comparison, found beside `anchor` (a file or folder). Undefined: the user cancelled. */
async function findFiles(anchor: string): Promise<(Omit<CompareInputs, 'contexts' | 'workDir'> & { hef?: string }) | undefined> {
  const dir = /\.[a-z]+$/i.test(anchor) ? path.dirname(anchor) : anchor;
  const s = hailoSettings(vscode.Uri.file(anchor)).model;
  const from = (p: string) => (path.isAbsolute(p) ? p : path.resolve(dir, p));
  const onnx =
    (s.onnx && from(s.onnx)) ||
    (anchor.endsWith('.onnx') ? anchor : only(dir, (f) => f.endsWith('.onnx'))) ||
    (await pick('The float ONNX model', dir, 'onnx'));
  if (!onnx) return undefined;
  const har =
    only(dir, (f) => f.endsWith('_optimized.har')) ??
    ((s.har && from(s.har)) || (anchor.endsWith('.har') ? anchor : only(dir, (f) => f.endsWith('.har')))) ??
    (await pick('The optimized HAR (after optimize)', dir, 'har'));
  if (!har) return undefined;
  const alls = anchor.endsWith('.alls') ? anchor : only(dir, (f) => f.endsWith('.alls'));
  const calib = (s.calibrationSet && from(s.calibrationSet)) || (/\.(npy|npz)$/i.test(anchor) ? anchor : only(dir, (f) => /calib.*\.(npy|npz)$/i.test(f)));
  // The device column: a HEF beside the model (the one compiled from it), when there is exactly one.
  const hef = anchor.endsWith('.hef') ? anchor : only(dir, (f) => f.endsWith('.hef'));
  return { onnx, har, alls, calib, hef };
}

export function registerCompareAccuracy(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  deviceClient?: (trust: TrustToken) => DeviceClient,
): void {
  let panel: vscode.WebviewPanel | undefined;
  let channel: HostChannel<AccuracyToPage> | undefined;
  let last: { doc: AccuracyDocument; anchor: string } | undefined;

  const page = (p: vscode.WebviewPanel): ChartPageOptions => pageOptions(p.webview, context.extensionUri, 'device.css', 'accuracy');

  const onMessage = async (msg: AccuracyFromPage): Promise<void> => {
    try {
      switch (msg.type) {
        case 'runAgain':
          if (last) await run(last.anchor);
          break;
        case 'exportJson': {
          if (!last) return;
          const target = await vscode.window.showSaveDialog({
            defaultUri: vscode.Uri.file(path.join(path.dirname(last.anchor), 'accuracy.json')),
            filters: { JSON: ['json'] },
            saveLabel: 'Export',
          });
          if (!target) return;
          // One write of the whole document (the CLI's --json): nothing half-written on failure.
          await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(`${JSON.stringify(last.doc, null, 2)}\n`));
          channel?.post({ type: 'status', text: `Exported to ${target.fsPath}.` });
          break;
        }
        default:
          unhandled(msg);
      }
    } catch (err) {
      log.error(`accuracy: ${(err as Error)?.stack ?? err}`);
      channel?.post({ type: 'status', text: `That did not work: ${(err as Error)?.message ?? err}` });
    }
  };

  const show = (title: string): vscode.WebviewPanel => {
    if (!panel) {
      panel = vscode.window.createWebviewPanel('hailo.accuracy', title, vscode.ViewColumn.Beside, {
        enableScripts: true,
        retainContextWhenHidden: true,
        localResourceRoots: pageRoots(context.extensionUri),
      });
      const ch = connectPage<AccuracyToPage, AccuracyFromPage>(panel.webview, 'accuracy', ACCURACY_FROM_PAGE, log, onMessage);
      channel = ch;
      panel.onDidDispose(() => {
        ch.dispose();
        panel = undefined;
        channel = undefined;
      });
    }
    panel.title = title;
    panel.reveal(undefined, true);
    return panel;
  };

  async function run(anchor: string): Promise<void> {
    const trust = await requireWorkspaceTrust(ACTION, vscodeTrustHost(log));
    if (!trust) return;
    const found = await findFiles(anchor);
    if (!found) return;
    const { hef, ...files } = found;
    const title = `Accuracy: ${path.basename(files.onnx)}`;
    const p = show(title);
    void showPage(p, renderAccuracyMessage(title, 'Running the float model and the emulator contexts…', page(p)), log, 'accuracy');
    const settings = hailoSettings(vscode.Uri.file(anchor));
    const temp = FileRoots.makeTemp('hailo-accuracy-');
    const work = temp.folders[0];
    try {
      const doc = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: 'Hailo: Compare Accuracy', cancellable: true },
        async (progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          const ort = locateOnnxRuntime(settings.onnxruntime.path || undefined, [context.extensionPath]);
          if ('error' in ort) void vscode.window.showWarningMessage(ort.error);
          progress.report({ message: 'float model and DFC emulator…' });
          return compareOracles(
            { ...files, contexts: [...EMULATOR_CONTEXTS], workDir: work },
            {
              infer:
                'packageDir' in ort
                  ? async (feeds) =>
                      (
                        await runOnnxInWorker(
                          trust,
                          { ortPackage: ort.packageDir, onnx: files.onnx, feeds },
                          { workerPath: path.join(context.extensionPath, 'dist', 'ortWorker.js'), signal: controller.signal },
                        )
                      ).outputs
                  : undefined,
              emulate: (r) =>
                runEmulator(
                  r,
                  { dockerPath: settings.dfc.dockerPath, gpus: 'auto', extraRunArgs: [] },
                  { launch: trustedLauncher(trust), driverDir: path.join(context.extensionPath, 'driver'), signal: controller.signal },
                ),
              device: hef && deviceClient ? (inputs) => deviceOutputs(deviceClient(trust), hef, inputs, { groupId: settings.device.groupId }) : undefined,
            },
          );
        },
      );
      last = { doc, anchor };
      void showPage(p, renderAccuracyPage(doc, title, page(p)), log, 'accuracy');
      log.info(`accuracy: ${doc.outputs.length} output(s), ${doc.flags.length} flag(s)`);
    } catch (err) {
      const message = err instanceof CompareError ? err.message : `unexpected error: ${(err as Error)?.message ?? err}`;
      if (!(err instanceof CompareError)) log.error(`accuracy: ${(err as Error)?.stack ?? err}`);
      void showPage(p, renderAccuracyMessage(title, message, page(p)), log, 'accuracy');
    } finally {
      temp.removeRoot();
    }
  }

  context.subscriptions.push(
    vscode.commands.registerCommand(COMPARE_COMMAND, async (uri?: vscode.Uri) => {
      const anchor = uri?.fsPath ?? vscode.window.activeTextEditor?.document.uri.fsPath ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
      if (!anchor) {
        void vscode.window.showInformationMessage('Open a model folder (its ONNX, optimized HAR, script and calibration set) to compare accuracy.');
        return;
      }
      await run(anchor);
    }),
  );
}
