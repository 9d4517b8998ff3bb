// Hailo: Run Sweep (palette, the explorer's menu and the editor title on a *.sweep.json) and
// Hailo: Open Sweep Results…. A sweep runs in the extension host through the sweep core
// (server/src/processes/sweep) on the compiler's pool — the one single compiles use — so a sweep and a
// compile on the same docker context never exceed its width. The page updates as variants move;
// Cancel (the page or the notification) stops everything and keeps what finished. Running needs a
// trusted workspace; opening results only reads, so it works in Restricted Mode too.
import {
  CSV_FILE,
  DOCUMENT_FILE,
  hostUser,
  locateOnnxRuntime,
  measureOnDevice,
  PlanError,
  readPlan,
  runOnnxInWorker,
  runSweep,
  sweepCsv,
  trustedLauncher,
  type DeviceClient,
  type SweepDocument,
  type SweepPlan,
  FileRoots,
} from '@hailo/api';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Compiler } from '../compile/compiler';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { requireWorkspaceTrust, type TrustToken } from '../security/workspaceTrust';
import { hailoSettings } from '../settings';
import { renderSweepShell } from './render';
import { sweepView } from './view';
import { pageOptions, pageRoots } from '../webview/assets';
import { connectPage, type HostChannel } from '../webview/channel';
import { showPage } from '../webview/showPage';
import { unhandled } from '../webview/protocol';
import { SWEEP_FROM_PAGE, type SweepFile, type SweepFromPage, type SweepToPage } from '../webview/protocols/sweep';

export const RUN_SWEEP_COMMAND = 'hailo.runSweep';
export const OPEN_SWEEP_RESULTS_COMMAND = 'hailo.openSweepResults';
const VIEW_TYPE = 'hailo.sweepResults';
/** sweep.json documents larger than this are not shown (a thousand variants take about 4 MB). */
const MAX_DOCUMENT_BYTES = 64 << 20;

export type RunSweepResult =
  { ran: false; reason: 'untrusted' | 'no-plan' | 'bad-plan' | 'already-running'; message?: string } | { ran: true; doc: SweepDocument; cancelled: boolean };

interface Panel {
  panel: vscode.WebviewPanel;
  channel: HostChannel<SweepToPage>;
  doc?: SweepDocument;
  planPath: string;
  running?: AbortController;
  ready: boolean;
  timer?: NodeJS.Timeout;
}

export function registerSweep(
  context: vscode.ExtensionContext,
  log: vscode.LogOutputChannel,
  compiler: Compiler,
  deviceClient?: (trust: TrustToken) => DeviceClient,
): void {
  const panels = new Map<string, Panel>();

  const panelFor = (planPath: string, title: string): Panel => {
    const existing = panels.get(planPath);
    if (existing) {
      existing.panel.reveal(undefined, true);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      VIEW_TYPE,
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      { enableScripts: true, localResourceRoots: pageRoots(context.extensionUri), retainContextWhenHidden: true },
    );
    const channel = connectPage<SweepToPage, SweepFromPage>(panel.webview, 'sweep page', SWEEP_FROM_PAGE, log, (m) => onMessage(entry, m));
    const entry: Panel = { panel, channel, planPath, ready: false };
    panels.set(planPath, entry);
    void showPage(panel, renderSweepShell(title, planPath, pageOptions(panel.webview, context.extensionUri, 'sweep.css', 'sweep')), log, 'sweep');
    panel.onDidDispose(() => {
      channel.dispose();
      panels.delete(planPath);
    });
    return entry;
  };

  // At most one page update per 100 ms per panel (a tqdm bar redraws many times a second).
  const post = (entry: Panel, now = false) => {
    const send = () => {
      if (entry.ready && entry.doc) entry.channel.post({ type: 'view', view: sweepView(entry.doc, !!entry.running) });
    };
    clearTimeout(entry.timer);
    if (now) send();
    else entry.timer = setTimeout(send, 100);
  };
  const status = (entry: Panel, text: string) => entry.channel.post({ type: 'status', text });

  async function onMessage(entry: Panel, m: SweepFromPage): Promise<void> {
    try {
      switch (m.type) {
        case 'ready':
          entry.ready = true;
          post(entry, true);
          break;
        case 'cancel':
          entry.running?.abort();
          break;
        case 'runAgain':
          await vscode.commands.executeCommand(RUN_SWEEP_COMMAND, vscode.Uri.file(entry.planPath));
          break;
        case 'exportCsv':
        case 'exportJson':
          await exportDoc(entry, m.type === 'exportCsv' ? 'csv' : 'json');
          break;
        case 'open':
          if (entry.doc) await openFile(entry.doc, m.id, m.what);
          break;
        default:
          unhandled(m);
      }
    } catch (err) {
      log.error(`sweep page: ${(err as Error)?.stack ?? err}`);
      status(entry, `That did not work: ${(err as Error)?.message ?? err}`);
    }
  }

  /** The file of a row the page asked for, from the host's own document (the page never names a path). */
  async function openFile(doc: SweepDocument, id: string, what: SweepFile): Promise<void> {
    const row = doc.rows.find((r) => r.id === id);
    if (!row) return;
    const file = what === 'hef' ? row.files.hef : what === 'alls' ? row.files.alls : row.files.log;
    if (!file) return;
    const uri = vscode.Uri.file(file);
    if (what === 'hef') await vscode.commands.executeCommand('vscode.openWith', uri, 'hailo.hefInspector');
    else await vscode.window.showTextDocument(uri, { preview: true, viewColumn: vscode.ViewColumn.One });
  }

  async function exportDoc(entry: Panel, kind: 'csv' | 'json'): Promise<vscode.Uri | undefined> {
    if (!entry.doc) return undefined;
    const doc = entry.doc;
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.file(path.join(doc.out, kind === 'csv' ? CSV_FILE : DOCUMENT_FILE)),
      filters: kind === 'csv' ? { CSV: ['csv'] } : { JSON: ['json'] },
      saveLabel: 'Export',
      title: `Export the sweep table as ${kind.toUpperCase()}`,
    });
    if (!target) return undefined;
    const text = kind === 'csv' ? sweepCsv(doc) : `${JSON.stringify(doc, null, 2)}\n`;
    // One write of the whole table: a failure leaves no half-written file.
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
    status(entry, `Exported to ${target.fsPath}.`);
    return target;
  }

  async function pickPlan(): Promise<string | undefined> {
    const active = vscode.window.activeTextEditor?.document;
    if (active && active.uri.scheme === 'file' && active.fileName.endsWith('.sweep.json')) {
      if (active.isDirty) await active.save();
      return active.fileName;
    }
    const found = await vscode.workspace.findFiles('**/*.sweep.json', '**/node_modules/**', 50);
    if (found.length === 1) return found[0].fsPath;
    const picked = await vscode.window.showQuickPick(
      found.map((u) => ({ label: vscode.workspace.asRelativePath(u), uri: u })),
      { title: 'Hailo: Run Sweep — which plan?', placeHolder: found.length ? 'a *.sweep.json file' : 'no *.sweep.json in the workspace' },
    );
    return picked?.uri.fsPath;
  }

  async function run(uri: vscode.Uri | undefined): Promise<RunSweepResult> {
    const trust = await requireWorkspaceTrust('Hailo: Run Sweep', vscodeTrustHost(log));
    if (!trust) return { ran: false, reason: 'untrusted' };
    const planPath = uri?.scheme === 'file' ? uri.fsPath : await pickPlan();
    if (!planPath) return { ran: false, reason: 'no-plan' };
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.fileName === planPath && d.isDirty);
    if (open) await open.save();
    let plan: SweepPlan;
    try {
      plan = readPlan(planPath);
    } catch (err) {
      const message = err instanceof PlanError ? err.message : String(err);
      void vscode.window.showErrorMessage(`Hailo: ${message}`);
      return { ran: false, reason: 'bad-plan', message };
    }
    const entry = panelFor(planPath, `Sweep: ${plan.name}`);
    if (entry.running) {
      void vscode.window.showInformationMessage(`Hailo: the sweep ${plan.name} is already running.`);
      return { ran: false, reason: 'already-running' };
    }
    const scope = vscode.Uri.file(planPath);
    const settings = hailoSettings(scope);
    const controller = new AbortController();
    entry.running = controller;
    const ort = plan.accuracy ? locateOnnxRuntime(settings.onnxruntime.path || undefined, [context.extensionPath]) : undefined;
    log.info(`sweep ${planPath}: ${plan.contexts.map((c) => `${c.name || 'current'}×${c.width}`).join(', ')}`);
    try {
      const doc = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Hailo: sweep ${plan.name}`, cancellable: true },
        (progress, token) => {
          token.onCancellationRequested(() => controller.abort());
          return runSweep(
            plan,
            {
              launch: trustedLauncher(trust),
              driverDir: context.asAbsolutePath('driver'),
              user: hostUser(),
              dockerPath: settings.dfc.dockerPath,
              extraRunArgs: settings.dfc.extraRunArgs,
              pool: compiler.pool,
              signal: controller.signal,
              infer:
                ort && 'packageDir' in ort
                  ? (onnx) => async (feeds) =>
                      (
                        await runOnnxInWorker(
                          trust,
                          { ortPackage: ort.packageDir, onnx, feeds },
                          { workerPath: context.asAbsolutePath(path.join('dist', 'ortWorker.js')), signal: controller.signal },
                        )
                      ).outputs
                  : undefined,
              inferMissing: ort && 'error' in ort ? ort.error : undefined,
              measure: plan.device && deviceClient ? (hef, frames) => measureOnDevice(deviceClient(trust), hef, frames) : undefined,
            },
            {
              onRow: (_row, doc) => {
                entry.doc = doc;
                const s = doc.summary;
                progress.report({ message: `${s.variants - s.waiting - s.running} of ${s.variants} ended · ${s.running} running` });
                post(entry);
              },
              onContext: (_c, doc) => {
                entry.doc = doc;
                post(entry);
              },
              onProgress: (line) => log.info(`sweep ${plan.name}: ${line}`),
            },
          );
        },
      );
      entry.doc = doc;
      entry.running = undefined;
      post(entry, true);
      const s = doc.summary;
      const line = `Hailo: sweep ${plan.name}: ${s.done + s.reused} of ${s.variants} done${s.failed ? `, ${s.failed} failed` : ''}${s.lost ? `, ${s.lost} lost` : ''}${s.invalid ? `, ${s.invalid} refused` : ''}${s.cancelled ? `, ${s.cancelled} cancelled` : ''}.`;
      void (s.failed || s.lost || s.invalid ? vscode.window.showWarningMessage(line) : vscode.window.showInformationMessage(line));
      return { ran: true, doc, cancelled: controller.signal.aborted };
    } finally {
      entry.running = undefined;
    }
  }

  async function openResults(uri: vscode.Uri | undefined): Promise<{ shown: boolean; message?: string }> {
    const active = vscode.window.activeTextEditor?.document;
    let file = uri?.fsPath ?? (active?.uri.scheme === 'file' && /(\.sweep|^sweep)\.json$/.test(path.basename(active.fileName)) ? active.fileName : undefined);
    if (!file) {
      const picked = await vscode.window.showOpenDialog({
        title: 'Hailo: Open Sweep Results',
        filters: { 'Sweep plan or results': ['json'] },
        canSelectMany: false,
      });
      file = picked?.[0]?.fsPath;
    }
    if (!file) return { shown: false };
    try {
      const docPath = file.endsWith('.sweep.json') ? path.join(readPlan(file).out, DOCUMENT_FILE) : file;
      // The results document lives in the plan's folder (or is the file picked): read there, at most MAX_DOCUMENT_BYTES.
      const doc = JSON.parse(FileRoots.named(file).readText(docPath, MAX_DOCUMENT_BYTES)) as SweepDocument;
      if (doc?.version !== 1 || !Array.isArray(doc.rows) || !Array.isArray(doc.contexts))
        throw new Error(`${docPath} is not a sweep results document (sweep.json)`);
      const entry = panelFor(doc.plan, `Sweep: ${doc.name}`);
      if (!entry.running) entry.doc = doc;
      post(entry, true);
      return { shown: true };
    } catch (err) {
      const message =
        err instanceof PlanError
          ? err.message
          : (err as NodeJS.ErrnoException).code === 'ENOENT'
            ? `No results yet: ${file} has not been run (Hailo: Run Sweep).`
            : (err as Error).message;
      void vscode.window.showErrorMessage(`Hailo: ${message}`);
      return { shown: false, message };
    }
  }

  context.subscriptions.push(
    vscode.commands.registerCommand(RUN_SWEEP_COMMAND, (uri?: unknown) => run(uri instanceof vscode.Uri ? uri : undefined)),
    vscode.commands.registerCommand(OPEN_SWEEP_RESULTS_COMMAND, (uri?: unknown) => openResults(uri instanceof vscode.Uri ? uri : undefined)),
    { dispose: () => panels.forEach((p) => p.running?.abort()) },
  );
}
