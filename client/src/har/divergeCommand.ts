// "Hailo: Find First Divergent Layer": the same run as `hailo-tools diverge` (the float ONNX in the
// onnxruntime worker, the emulator in the DFC container; trusted workspaces only), on the HAR's own
// ONNX, script and calibration set found beside it; the results go beside the HAR as
// `<net>.diverge.json` and the HAR view shows them.
import * as path from 'path';
import * as vscode from 'vscode';
import { findDivergence, findOnnxBeside, hostUser, locateOnnxRuntime, readHar, runOnnxInWorker, saveDivergenceResults, trustedLauncher } from '@hailo/api';
import { requireWorkspaceTrust } from '../security/workspaceTrust';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { dockerSettings } from '../compile/settings';
import { hailoSettings } from '../settings';
import { activeHar, calibrationFor, scriptsBeside, targetScript } from './beside';

export const FIND_DIVERGENCE_COMMAND = 'hailo.findDivergentLayer';

type Banner = { kind: 'ok' | 'bad'; text: string };

async function pickFile(title: string, filters: Record<string, string[]>, dir?: string): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title,
    filters,
    canSelectMany: false,
    openLabel: 'Use',
    ...(dir ? { defaultUri: vscode.Uri.file(dir) } : {}),
  });
  return picked?.[0]?.fsPath;
}

export function registerDivergeCommand(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  output: vscode.OutputChannel,
  refresh: (har: string, banner: Banner) => Promise<void>,
  openView: (har: string) => Thenable<unknown>,
): vscode.Disposable {
  return vscode.commands.registerCommand(FIND_DIVERGENCE_COMMAND, async (uri?: vscode.Uri) => {
    const trust = await requireWorkspaceTrust('Hailo: Find First Divergent Layer', vscodeTrustHost(log));
    if (!trust) return;
    const har = uri?.fsPath ?? activeHar() ?? (await pickFile('The optimized HAR to compare', { HAR: ['har'] }));
    if (!har) return;
    const dir = path.dirname(har);
    let archive;
    try {
      archive = await readHar(har);
    } catch (err) {
      void vscode.window.showErrorMessage(`Cannot read ${path.basename(har)}: ${(err as Error).message}`);
      return;
    }
    const settings = hailoSettings(vscode.Uri.file(har));
    const onnx =
      (settings.model.onnx ? path.resolve(dir, settings.model.onnx) : findOnnxBeside(archive)) ??
      (await pickFile('The float ONNX this HAR was parsed from', { ONNX: ['onnx'] }, dir));
    if (!onnx) return;
    const inputs = await calibrationFor(har, 'compare on');
    if (!inputs) return;
    // The script's normalization goes before the float model, as the DFC puts it on the chip.
    const alls = targetScript(har, archive.hn.name, scriptsBeside(har));
    const ort = locateOnnxRuntime(settings.onnxruntime.path || undefined, [context.extensionPath]);
    if ('error' in ort) {
      void vscode.window.showErrorMessage(ort.error);
      return;
    }
    output.appendLine(`— first divergent layer of ${har}: ${onnx} on ${inputs}${alls ? `, normalization from ${alls}` : ''}`);
    const outcome = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: `Hailo: Find First Divergent Layer (${path.basename(har)})`, cancellable: true },
      async (progress, token) => {
        const controller = new AbortController();
        token.onCancellationRequested(() => controller.abort());
        progress.report({ message: 'the float model and the DFC emulator, layer by layer…' });
        return findDivergence({ onnx, har, inputs, alls, count: 1, context: 'quantized' }, dockerSettings(vscode.Uri.file(har)), {
          launch: trustedLauncher(trust),
          driverDir: path.join(context.extensionPath, 'driver'),
          user: hostUser(),
          signal: controller.signal,
          onOutput: (text) => output.append(text),
          infer: async (model, feeds, externalData) =>
            (
              await runOnnxInWorker(
                trust,
                { ortPackage: ort.packageDir, onnx: model, feeds, ...(externalData ? { externalData } : {}) },
                { workerPath: path.join(context.extensionPath, 'dist', 'ortWorker.js'), signal: controller.signal },
              )
            ).outputs,
        });
      },
    );
    if (outcome.status === 'cancelled') return;
    if (outcome.status !== 'ok') {
      const text = outcome.message ?? 'The comparison failed.';
      log.warn(`diverge: ${har}: ${text}`);
      await refresh(har, { kind: 'bad', text });
      void vscode.window.showErrorMessage(text, 'Show Output').then((a) => a && output.show());
      return;
    }
    const saved = saveDivergenceResults(har, outcome.results!);
    const text = outcome.report!.verdict;
    log.info(`diverge: ${har}: ${outcome.report!.layers.length} layers, saved ${saved}`);
    await refresh(har, { kind: outcome.report!.first ? 'bad' : 'ok', text });
    void vscode.window.showInformationMessage(text, 'Open HAR View').then((a) => a && openView(har));
  });
}
