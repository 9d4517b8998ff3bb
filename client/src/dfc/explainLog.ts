// "Hailo: Explain DFC Log": runs the DFC log reader (server/src/core/dfc, pure) on a log file — from any
// run, anywhere — and shows what it found where it was caused: the `.alls` lines, the nodes of the
// ONNX graph view, the log's own lines; plus a summary. It only reads files (no process), so it
// works in Restricted Mode. The script and model are found beside the log, or asked for once.
import * as path from 'path';
import * as vscode from 'vscode';
import { analyzeOnnx, DfcLogReader, onnxNodeIndex, readOnnxFile, reportText, savedSummary, type DfcLogContext, type DfcReport, FileRoots } from '@hailo/api';
import { DfcDiagnosticsView } from './diagnostics';

export const EXPLAIN_DFC_LOG_COMMAND = 'hailo.explainDfcLog';
export const REPORT_SCHEME = 'hailo-dfc-report';
const MAX_SCRIPT_BYTES = 64 * 1024 * 1024;
const SKIP = '';

interface Companions {
  alls?: string;
  onnx?: string;
}

/** What `Explain DFC Log` returns (tests drive the command and read this). */
export interface ExplainResult {
  report: DfcReport;
  alls?: string;
  onnx?: string;
  reportUri: vscode.Uri;
}

class ReportProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  set(uri: vscode.Uri, text: string): void {
    this.texts.set(uri.toString(), text);
    this.changed.fire(uri);
  }
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '# Run "Hailo: Explain DFC Log" on the log again.\n';
  }
}

export function registerExplainDfcLog(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): DfcDiagnosticsView {
  const view = new DfcDiagnosticsView(context, 'hailo-dfc-log');
  const reports = new ReportProvider();
  context.subscriptions.push(vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, reports));
  context.subscriptions.push(
    vscode.commands.registerCommand(EXPLAIN_DFC_LOG_COMMAND, async (arg?: vscode.Uri, options?: { quiet?: boolean; companions?: Companions }) => {
      const uri = await pickLog(arg);
      if (!uri) return undefined;
      try {
        const result = await explain(uri, context, view, reports, options?.companions);
        log.info(`Explain DFC log ${uri.fsPath}: ${result.report.outcome}, ${result.report.diagnostics.length} diagnostic(s)`);
        if (!options?.quiet) void summarise(result);
        return result;
      } catch (err) {
        const msg = `Cannot explain ${path.basename(uri.fsPath)}: ${(err as Error).message}`;
        log.error(msg);
        void vscode.window.showErrorMessage(msg);
        return undefined;
      }
    }),
  );
  return view;
}

async function pickLog(arg?: vscode.Uri): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri && arg.scheme === 'file') return arg;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === 'file' && /\.(log|txt)$/i.test(active.fsPath)) return active;
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel: 'Explain',
    filters: { 'DFC logs': ['log', 'txt'], 'All files': ['*'] },
  });
  return picked?.[0];
}

/** Streams the log through the reader: one piece in memory at a time; a FIFO or device is refused (fileAccess). */
async function readReport(uri: vscode.Uri, ctx: DfcLogContext): Promise<DfcReport> {
  const reader = new DfcLogReader(ctx);
  await FileRoots.named(uri.fsPath).streamText(uri.fsPath, (text) => reader.push(text));
  return reader.end();
}

async function explain(
  uri: vscode.Uri,
  context: vscode.ExtensionContext,
  view: DfcDiagnosticsView,
  reports: ReportProvider,
  given?: Companions,
): Promise<ExplainResult> {
  const first = await readReport(uri, { logPath: uri.fsPath });
  const companions = given ?? (await findCompanions(uri, first, context));
  const ctx: DfcLogContext = { logPath: uri.fsPath };
  if (companions.alls) {
    try {
      ctx.allsText = FileRoots.near(uri.fsPath).readText(companions.alls, MAX_SCRIPT_BYTES);
      ctx.allsPath = companions.alls;
    } catch {
      // a script we cannot read (a FIFO, too large, gone): diagnostics stay on the log lines
    }
  }
  if (companions.onnx) {
    ctx.onnxPath = companions.onnx;
    ctx.onnx = onnxNodeIndex(analyzeOnnx(readOnnxFile(companions.onnx)), companions.onnx);
  }
  const report = ctx.allsText !== undefined || ctx.onnx ? await readReport(uri, ctx) : first;
  view.show(uri.fsPath, report, { log: uri, alls: companions.alls, onnx: companions.onnx });
  const reportUri = vscode.Uri.from({ scheme: REPORT_SCHEME, path: `${uri.path}.report.txt` });
  reports.set(reportUri, reportText(report, vscode.workspace.asRelativePath(uri)));
  return { report, alls: companions.alls, onnx: companions.onnx, reportUri };
}

/** Files in the log's folder (not below it): a log never reaches outside the folder it is in. */
async function siblings(dir: string, ext: string): Promise<string[]> {
  try {
    return (await FileRoots.of([dir]).listEntriesAsync(dir)).filter((e) => e.isFile() && e.name.toLowerCase().endsWith(ext)).map((e) => path.join(dir, e.name));
  } catch {
    return [];
  }
}

/**
 * The script and model of a log: remembered for this log, else beside it — the script the DFC says
 * it loaded (by file name), `<network>.alls`/`.onnx`, or the only one there — else asked once
 * (only when the log has errors that would land on them).
 */
async function findCompanions(uri: vscode.Uri, first: DfcReport, context: vscode.ExtensionContext): Promise<Companions> {
  const key = `hailo.dfcLog.companions:${uri.fsPath}`;
  const remembered = context.workspaceState.get<Companions>(key);
  const dir = path.dirname(uri.fsPath);
  // Only the head: the script the DFC loaded is named in its first lines, and a log can be gigabytes.
  const text = await FileRoots.named(uri.fsPath)
    .readTextPrefix(uri.fsPath, 4 * 1024 * 1024)
    .catch(() => '');
  const loaded = /Loading model script commands to \S+ from (.+?)\s*$/m.exec(text)?.[1];
  const pick = async (ext: '.alls' | '.onnx', wanted: (string | undefined)[]): Promise<string | undefined> => {
    const files = await siblings(dir, ext);
    for (const w of wanted) {
      const hit = w && files.find((f) => path.basename(f) === w);
      if (hit) return hit;
    }
    return files.length === 1 ? files[0] : undefined;
  };
  const net = first.network ?? undefined;
  const found: Companions = {
    alls: remembered?.alls ?? (await pick('.alls', [loaded && path.basename(loaded.replace(/\\/g, '/')), net && `${net}.alls`])),
    onnx: remembered?.onnx ?? (await pick('.onnx', [net && `${net}.onnx`])),
  };
  const needsScript = first.diagnostics.some((d) => /^dfc\/(model-script|gpu-memory|wraparound|memory-killed)/.test(d.code));
  const needsModel = first.diagnostics.some((d) => d.node !== undefined);
  let asked = false;
  if (found.alls === undefined && needsScript && remembered?.alls === undefined) {
    found.alls = await ask('.alls', 'the model script this run used', dir);
    asked = true;
  }
  if (found.onnx === undefined && needsModel && remembered?.onnx === undefined) {
    found.onnx = await ask('.onnx', 'the ONNX model this run parsed', dir);
    asked = true;
  }
  if (asked) await context.workspaceState.update(key, { alls: found.alls ?? SKIP, onnx: found.onnx ?? SKIP });
  return { alls: found.alls || undefined, onnx: found.onnx || undefined };
}

async function ask(ext: '.alls' | '.onnx', what: string, dir: string): Promise<string | undefined> {
  const files = await siblings(dir, ext);
  const items: (vscode.QuickPickItem & { file?: string; browse?: boolean })[] = [
    ...files.map((f) => ({ label: path.basename(f), description: dir, file: f })),
    { label: `Choose a ${ext} file…`, browse: true },
    { label: `No ${ext} file`, description: 'diagnostics stay on the log lines' },
  ];
  const choice = await vscode.window.showQuickPick(items, { placeHolder: `Which ${ext} is ${what}? (asked once for this log)`, ignoreFocusOut: true });
  if (!choice) return undefined;
  if (choice.file) return choice.file;
  if (choice.browse) {
    const picked = await vscode.window.showOpenDialog({ canSelectMany: false, defaultUri: vscode.Uri.file(dir), filters: { [ext]: [ext.slice(1)] } });
    return picked?.[0]?.fsPath;
  }
  return undefined;
}

function seconds(v: number | null): string {
  if (v === null) return '–';
  if (v < 60) return `${v.toFixed(1)} s`;
  return `${Math.floor(v / 60)}m ${Math.round(v % 60)}s`;
}

async function summarise(r: ExplainResult): Promise<void> {
  const rep = r.report;
  const stages = rep.stages.map((s) => `${s.name} ${s.status === 'ok' ? seconds(s.seconds) : s.status}`).join(', ');
  const extra = [
    rep.summary.contexts !== null ? `${rep.summary.contexts} context(s)` : '',
    rep.summary.computeUtilization !== null ? `compute ${rep.summary.computeUtilization}%` : '',
    // Kinds only: the paths are in the report (Show Report), where they are shown as the log prints them.
    savedSummary(rep.saved),
  ]
    .filter(Boolean)
    .join(', ');
  const errors = rep.diagnostics.filter((d) => d.severity === 'error').length;
  const head =
    rep.outcome === 'success'
      ? 'DFC run succeeded'
      : rep.outcome === 'incomplete'
        ? 'DFC log ends before the run does'
        : `DFC run ${rep.outcome}${rep.failedStage === 'unknown' ? ' (the log does not show in which stage)' : rep.failedStage ? ` in ${rep.failedStage}` : ''}`;
  const msg = `${head}: ${stages}${extra ? `; ${extra}` : ''}${errors ? `; ${errors} error(s) in the Problems panel` : ''}.`;
  const show = rep.outcome === 'success' ? vscode.window.showInformationMessage : vscode.window.showWarningMessage;
  const choice = await show(msg, 'Show Report', 'Show Problems');
  if (choice === 'Show Report') await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(r.reportUri), { preview: true });
  else if (choice === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
}
