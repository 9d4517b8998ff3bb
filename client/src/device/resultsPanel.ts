// The results webview of "Run on Device": one panel per HEF, re-used by "Run Again". The page is
// rendered and escaped in the extension host (resultsRender.ts) under a nonce CSP; the page's
// script (client/src/webview/pages/deviceResults.ts, with uPlot) draws the charts and posts button
// clicks, typed by client/src/webview/protocols/deviceResults.ts:
// Export JSON (save dialog, the whole RunDocument), Run Again, and the float reference's fixes.
import * as path from 'path';
import * as vscode from 'vscode';
import { FileRoots } from '@hailo/api';
import { renderResults, renderRunMessage, type ResultsPage } from './resultsRender';
import type { RunDocument } from './runDocument';
import { pageOptions, pageRoots } from '../webview/assets';
import { connectPage, type HostChannel } from '../webview/channel';
import { showPage } from '../webview/showPage';
import { unhandled } from '../webview/protocol';
import { DEVICE_RESULTS_FROM_PAGE, type DeviceResultsFromPage, type DeviceResultsToPage } from '../webview/protocols/deviceResults';

export const RESULTS_VIEW_TYPE = 'hailo.deviceResults';

export interface ResultsActions {
  runAgain(hef: vscode.Uri): void;
  /** Re-run only the float reference of this document (after a fix). */
  rerunReference(hef: vscode.Uri, doc: RunDocument): Promise<RunDocument>;
}

interface Open {
  panel: vscode.WebviewPanel;
  channel: HostChannel<DeviceResultsToPage>;
  doc?: RunDocument;
}

export class ResultsPanels implements vscode.Disposable {
  private readonly open = new Map<string, Open>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly actions: ResultsActions,
  ) {}

  private page(panel: vscode.WebviewPanel): ResultsPage {
    return pageOptions(panel.webview, this.context.extensionUri, 'device.css', 'deviceResults');
  }

  private panelFor(hef: vscode.Uri): Open {
    const key = hef.toString();
    const existing = this.open.get(key);
    if (existing) return existing;
    const panel = vscode.window.createWebviewPanel(
      RESULTS_VIEW_TYPE,
      `Run: ${path.posix.basename(hef.path)}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      {
        enableScripts: true,
        localResourceRoots: pageRoots(this.context.extensionUri),
        retainContextWhenHidden: true,
      },
    );
    const channel = connectPage<DeviceResultsToPage, DeviceResultsFromPage>(panel.webview, 'device results', DEVICE_RESULTS_FROM_PAGE, this.log, (msg) =>
      this.onMessage(hef, entry, msg),
    );
    const entry: Open = { panel, channel };
    this.open.set(key, entry);
    panel.onDidDispose(() => {
      channel.dispose();
      this.open.delete(key);
    });
    return entry;
  }

  /** Shows "running…" in the HEF's panel (created if needed). */
  showProgress(hef: vscode.Uri, message: string): void {
    const entry = this.panelFor(hef);
    if (!entry.doc) void showPage(entry.panel, renderRunMessage(path.posix.basename(hef.path), message, this.page(entry.panel)), this.log, 'device results');
    entry.panel.reveal(undefined, true);
  }

  /** Closes a panel that never got results (the run failed or was cancelled before any). */
  dropEmpty(hef: vscode.Uri): void {
    const entry = this.open.get(hef.toString());
    if (entry && !entry.doc) entry.panel.dispose();
  }

  show(hef: vscode.Uri, doc: RunDocument): void {
    const entry = this.panelFor(hef);
    entry.doc = doc;
    void showPage(entry.panel, renderResults(doc, this.page(entry.panel)), this.log, 'device results');
    entry.panel.reveal(undefined, false);
  }

  private status(entry: Open, text: string): void {
    entry.channel.post({ type: 'status', text });
  }

  private async onMessage(hef: vscode.Uri, entry: Open, msg: DeviceResultsFromPage): Promise<void> {
    try {
      switch (msg.type) {
        case 'runAgain':
          this.actions.runAgain(hef);
          break;
        case 'exportJson':
          if (entry.doc) await this.exportJson(hef, entry);
          break;
        case 'fix':
          if (msg.fix === 'set-onnxruntime') await vscode.commands.executeCommand('workbench.action.openSettings', 'hailo.onnxruntime.path');
          else if (entry.doc) await this.chooseOnnx(hef, entry);
          break;
        default:
          unhandled(msg);
      }
    } catch (err) {
      this.log.error(`device results: ${(err as Error)?.stack ?? err}`);
      this.status(entry, `That did not work: ${(err as Error)?.message ?? err}`);
    }
  }

  private async exportJson(hef: vscode.Uri, entry: Open): Promise<void> {
    const stem = path.posix.basename(hef.path, '.hef');
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(hef, '..', `${stem}.run.json`),
      filters: { JSON: ['json'] },
      saveLabel: 'Export',
      title: 'Export the device run as JSON',
    });
    if (!target) return;
    const text = `${JSON.stringify(entry.doc, null, 2)}\n`;
    // One write of the whole document: a failure leaves no half-written file behind it.
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    this.log.info(`device results: exported ${text.length} characters to ${target.toString()}`);
    this.status(entry, `Exported to ${target.fsPath || target.toString()}.`);
  }

  private async chooseOnnx(hef: vscode.Uri, entry: Open): Promise<void> {
    const picked = await vscode.window.showOpenDialog({
      defaultUri: vscode.Uri.joinPath(hef, '..'),
      filters: { 'ONNX model': ['onnx'] },
      canSelectMany: false,
      openLabel: 'Use as float reference',
    });
    if (!picked?.[0]) return;
    const folder = vscode.workspace.getWorkspaceFolder(hef);
    const dir = path.dirname(hef.fsPath);
    const opened = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
    if (!FileRoots.of([...opened, dir]).contains(picked[0].fsPath)) {
      // hailo.model.onnx may only name a file inside them (common/settingPaths.ts): it would not be read
      this.status(
        entry,
        `${picked[0].fsPath} is outside the workspace folders and the HEF's folder; not used: copy the ONNX into the folder and choose it there.`,
      );
      return;
    }
    const rel = path.relative(dir, picked[0].fsPath);
    const value = rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : picked[0].fsPath;
    await vscode.workspace
      .getConfiguration('hailo', hef)
      .update('model.onnx', value, folder ? vscode.ConfigurationTarget.WorkspaceFolder : vscode.ConfigurationTarget.Global);
    this.status(entry, `hailo.model.onnx = ${value}; running the float reference…`);
    const doc = await this.actions.rerunReference(hef, entry.doc!);
    this.show(hef, doc);
  }

  dispose(): void {
    for (const e of this.open.values()) e.panel.dispose();
    this.open.clear();
  }
}
