// The Calibration Set Inspector: a readonly custom editor for *.npy / *.npz. The extension host
// measures the file with the shared core (server/src/core/calib: streamed, sampled past 256 MiB),
// judges it against the model script and HAR/ONNX found beside it, and sends a rendered, escaped
// page (render.ts). Reading files only: works in Restricted Mode.
import * as path from 'path';
import * as vscode from 'vscode';
import { calibContext, calibJson, CalibReadError, inspectCalibrationSet, FileRoots } from '@hailo/api';
import { hailoSettings } from '../settings';
import { renderCalibMessage, renderCalibPage } from './render';
import { copyJsonToClipboard, preparePanel, ReadonlyFileDocument, registerReadonlyEditor } from '../customEditor';
import { connectPage } from '../webview/channel';
import { showPage } from '../webview/showPage';
import { unhandled } from '../webview/protocol';
import { CALIB_FROM_PAGE, type CalibFromPage, type CalibToPage } from '../webview/protocols/calib';

export const CALIB_VIEW_TYPE = 'hailo.calibInspector';

/** The script a set belongs to: one whose name starts the set's name, else the only .alls beside it. */
export function scriptBeside(setPath: string): string | undefined {
  const dir = path.dirname(setPath);
  let scripts: string[];
  try {
    scripts = FileRoots.of([dir])
      .list(dir)
      .filter((f) => f.toLowerCase().endsWith('.alls'))
      .sort();
  } catch {
    return undefined;
  }
  const base = path.basename(setPath).replace(/\.(npy|npz)$/i, '');
  const pick = scripts.find((s) => base.startsWith(s.replace(/\.alls$/i, ''))) ?? (scripts.length === 1 ? scripts[0] : undefined);
  return pick ? path.join(dir, pick) : undefined;
}

export class CalibInspectorProvider implements vscode.CustomReadonlyEditorProvider<ReadonlyFileDocument> {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  openCustomDocument(uri: vscode.Uri): ReadonlyFileDocument {
    return new ReadonlyFileDocument(uri);
  }

  async resolveCustomEditor(document: ReadonlyFileDocument, panel: vscode.WebviewPanel): Promise<void> {
    const { title, page } = preparePanel(this.context, panel, document.uri, 'calib');
    let json = '';
    const render = async () => {
      if (document.uri.scheme !== 'file') {
        void showPage(
          panel,
          renderCalibMessage(title, 'The Calibration Set Inspector reads local files only (it streams multi-GB sets from disk).', page()),
          this.log,
          'calib',
        );
        return;
      }
      const started = Date.now();
      try {
        const file = document.uri.fsPath;
        const { model } = hailoSettings(document.uri);
        const script = scriptBeside(file);
        const onnx = model.onnx;
        const har = model.har;
        const dir = path.dirname(file);
        const ctx = await calibContext({
          scriptPath: script,
          onnx: onnx ? path.resolve(dir, onnx) : undefined,
          har: har ? path.resolve(dir, har) : undefined,
          findBeside: true,
        });
        const report = await inspectCalibrationSet(file, { inputs: ctx.inputs, facts: ctx.facts });
        json = JSON.stringify(calibJson(report), null, 2);
        void showPage(panel, renderCalibPage({ report, title, sources: ctx.sources, problems: ctx.problems }, page()), this.log, 'calib');
        this.log.info(
          `calib: inspected ${document.uri.toString()} in ${Date.now() - started} ms (${report.findings.length} findings${report.sampled ? ', sampled' : ''})`,
        );
      } catch (err) {
        const message = err instanceof CalibReadError ? err.message : `unexpected error: ${(err as Error)?.message ?? err}`;
        if (!(err instanceof CalibReadError)) this.log.error(`calib: ${document.uri.toString()}: ${(err as Error)?.stack ?? err}`);
        void showPage(panel, renderCalibMessage(title, `Cannot read this calibration set: ${message}`, page()), this.log, 'calib');
      }
    };
    const channel = connectPage<CalibToPage, CalibFromPage>(panel.webview, 'calib', CALIB_FROM_PAGE, this.log, async (msg) => {
      switch (msg.type) {
        case 'copyJson':
          channel.post({ type: 'status', text: await copyJsonToClipboard(json) });
          break;
        case 'reload':
          await render();
          break;
        default:
          unhandled(msg);
      }
    });
    const disposables: vscode.Disposable[] = [channel];
    panel.onDidDispose(() => disposables.forEach((d) => d.dispose()));
    // The page is set once, when the set is measured: VS Code shows the editor's progress bar while
    // this promise is pending (showPage.ts: no page is replaced while it loads).
    await render();
  }
}

export function registerCalibInspector(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  context.subscriptions.push(registerReadonlyEditor(CALIB_VIEW_TYPE, new CalibInspectorProvider(context, log)));
}
