// DFC diagnostics in VS Code: a DfcReport's diagnostics on the files they are about — the log,
// the `.alls` script, the ONNX graph view (`hailo-onnx:<model>.onnx.graph`) — with their quick
// fixes as code actions. One view per kind of caller ("Explain DFC Log", the compile command);
// showing a report again for the same key replaces what that report showed before. A caller may add
// its own actions for a fix (the compile command: compile again with the recommended end nodes).
import * as path from 'path';
import * as vscode from 'vscode';
import type { DfcDiagnostic, DfcReport } from '@hailo/api';
import { graphUri } from '../onnx/graphView';

export const USE_END_NODES_COMMAND = 'hailo.dfcLog.useEndNodes';
export const COPY_LINES_COMMAND = 'hailo.dfcLog.copyLines';

export interface ReportFiles {
  log?: vscode.Uri;
  alls?: string;
  onnx?: string;
}

interface Entry {
  d: DfcDiagnostic;
  files: ReportFiles;
}

export interface ViewOptions {
  /** The diagnostics' `source` (default 'Hailo DFC log'). */
  source?: string;
  /** More quick fixes for one diagnostic, after the view's own. */
  extraActions?: (d: DfcDiagnostic, files: ReportFiles, diagnostic: vscode.Diagnostic) => vscode.CodeAction[];
}

const SEVERITY: Record<DfcDiagnostic['severity'], vscode.DiagnosticSeverity> = {
  error: vscode.DiagnosticSeverity.Error,
  warning: vscode.DiagnosticSeverity.Warning,
  info: vscode.DiagnosticSeverity.Information,
};

function range(line: number, column: number, endLine: number, endColumn: number): vscode.Range {
  return new vscode.Range(Math.max(0, line - 1), Math.max(0, column - 1), Math.max(0, endLine - 1), Math.max(0, endColumn - 1));
}

export class DfcDiagnosticsView implements vscode.CodeActionProvider {
  private readonly collection: vscode.DiagnosticCollection;
  private readonly entries = new WeakMap<vscode.Diagnostic, Entry>();
  /** URIs each report key put diagnostics on, to clear them when the key is shown again. */
  private readonly byKey = new Map<string, Map<string, vscode.Diagnostic[]>>();

  constructor(
    context: vscode.ExtensionContext,
    name: string,
    private readonly options: ViewOptions = {},
  ) {
    this.collection = vscode.languages.createDiagnosticCollection(name);
    context.subscriptions.push(
      this.collection,
      vscode.languages.registerCodeActionsProvider([{ scheme: 'file' }, { scheme: 'hailo-onnx' }], this, {
        providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
      }),
    );
    registerFixCommands(context);
  }

  /** The URI a diagnostic belongs on. */
  uriOf(d: DfcDiagnostic, files: ReportFiles): vscode.Uri {
    if (files.onnx && d.path === files.onnx && d.node !== undefined) return graphUri(vscode.Uri.file(files.onnx));
    if (files.alls && d.path === files.alls) return vscode.Uri.file(files.alls);
    if (files.log && (d.path === files.log.fsPath || !path.isAbsolute(d.path))) return files.log;
    return vscode.Uri.file(d.path);
  }

  show(key: string, report: DfcReport, files: ReportFiles): void {
    const previous = this.byKey.get(key);
    const next = new Map<string, vscode.Diagnostic[]>();
    for (const d of report.diagnostics) {
      const uri = this.uriOf(d, files);
      const diag = new vscode.Diagnostic(range(d.line, d.column, d.endLine, d.endColumn), this.message(d), SEVERITY[d.severity]);
      diag.code = d.code;
      diag.source = this.options.source ?? 'Hailo DFC log';
      if (files.log && uri.toString() !== files.log.toString()) {
        diag.relatedInformation = [
          new vscode.DiagnosticRelatedInformation(new vscode.Location(files.log, range(d.logLine, 1, d.logLine, 1)), 'the DFC reports it here'),
        ];
      }
      this.entries.set(diag, { d, files });
      const k = uri.toString();
      next.set(k, [...(next.get(k) ?? []), diag]);
    }
    // Replace what this key showed before; keep other keys' diagnostics on the same files.
    const touched = new Set([...(previous?.keys() ?? []), ...next.keys()]);
    this.byKey.set(key, next);
    this.refresh(touched);
  }

  /** Removes what `key` showed (e.g. before a new run of the same model). */
  clear(key: string): void {
    const previous = this.byKey.get(key);
    if (!previous) return;
    this.byKey.delete(key);
    this.refresh(previous.keys());
  }

  private refresh(uris: Iterable<string>): void {
    for (const k of uris) {
      const all: vscode.Diagnostic[] = [];
      for (const m of this.byKey.values()) for (const d of m.get(k) ?? []) all.push(d);
      this.collection.set(vscode.Uri.parse(k), all);
    }
  }

  private message(d: DfcDiagnostic): string {
    const head = d.node !== undefined && !d.message.includes(d.node) ? `[${d.node}] ` : '';
    const lines = d.excerpt?.length ? `\n${d.excerpt.map((l) => `  | ${l}`).join('\n')}` : '';
    return `${head}${d.message} (${d.confidence} confidence)${lines}`;
  }

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, ctx: vscode.CodeActionContext): vscode.CodeAction[] {
    const out: vscode.CodeAction[] = [];
    for (const diag of ctx.diagnostics) {
      const e = this.entries.get(diag);
      if (!e) continue;
      const { d, files } = e;
      const fix = d.fix;
      if (fix?.kind === 'scriptEdit' && files.alls) {
        const a = new vscode.CodeAction(`Change to ${fix.newText}`, vscode.CodeActionKind.QuickFix);
        a.edit = new vscode.WorkspaceEdit();
        a.edit.replace(vscode.Uri.file(files.alls), range(fix.line, fix.column, fix.line, fix.endColumn), fix.newText);
        a.diagnostics = [diag];
        a.isPreferred = true;
        out.push(a);
      } else if (fix?.kind === 'endNodes') {
        const a = new vscode.CodeAction(`Use the parser's recommended end nodes (${fix.nodes.length})`, vscode.CodeActionKind.QuickFix);
        a.command = { title: a.title, command: USE_END_NODES_COMMAND, arguments: [{ nodes: fix.nodes, model: files.onnx }] };
        a.diagnostics = [diag];
        a.isPreferred = true;
        out.push(a);
      } else if (fix?.kind === 'replaceName') {
        const a = new vscode.CodeAction(`Use node '${fix.to}' instead of '${fix.from}'`, vscode.CodeActionKind.QuickFix);
        a.command = { title: a.title, command: USE_END_NODES_COMMAND, arguments: [{ replace: { from: fix.from, to: fix.to }, model: files.onnx }] };
        a.diagnostics = [diag];
        a.isPreferred = true;
        out.push(a);
      } else if (fix?.kind === 'setting') {
        const a = new vscode.CodeAction(`Open the setting ${fix.key}`, vscode.CodeActionKind.QuickFix);
        a.command = { title: a.title, command: 'workbench.action.openSettings', arguments: [fix.key] };
        a.diagnostics = [diag];
        out.push(a);
      }
      if (this.options.extraActions) for (const a of this.options.extraActions(d, files, diag)) out.push(a);
      if (d.excerpt?.length) {
        const a = new vscode.CodeAction('Copy the log lines to report', vscode.CodeActionKind.QuickFix);
        a.command = { title: a.title, command: COPY_LINES_COMMAND, arguments: [d.excerpt] };
        a.diagnostics = [diag];
        out.push(a);
      }
    }
    void document;
    return out;
  }
}

interface TaskLike {
  type?: string;
  command?: string;
  model?: string;
  endNodes?: string[];
  [k: string]: unknown;
}

function taskModel(folder: vscode.WorkspaceFolder, t: TaskLike): string | undefined {
  if (typeof t.model !== 'string' || !t.model) return undefined;
  const p = t.model.replace(/\$\{workspaceFolder\}/g, folder.uri.fsPath);
  return path.resolve(folder.uri.fsPath, p);
}

let registered = false;

/**
 * End nodes go where the user keeps them: the `endNodes` of the `hailo` compile task for this model
 * in tasks.json (written through VS Code's own tasks configuration); with no such task they are
 * copied for `end_node_names=[…]` or `hailo-tools compile --end-nodes`.
 */
function registerFixCommands(context: vscode.ExtensionContext): void {
  if (registered) return;
  registered = true;
  context.subscriptions.push(
    vscode.commands.registerCommand(USE_END_NODES_COMMAND, async (arg: { nodes?: string[]; replace?: { from: string; to: string }; model?: string }) => {
      for (const folder of vscode.workspace.workspaceFolders ?? []) {
        const cfg = vscode.workspace.getConfiguration('tasks', folder.uri);
        const tasks = [...(cfg.get<TaskLike[]>('tasks') ?? [])];
        const i = tasks.findIndex((t) => t?.type === 'hailo' && t.command === 'compile' && (!arg.model || taskModel(folder, t) === path.resolve(arg.model)));
        if (i < 0) continue;
        const t = { ...tasks[i] };
        if (arg.nodes) t.endNodes = [...arg.nodes];
        else if (arg.replace) t.endNodes = (t.endNodes ?? []).map((n) => (n === arg.replace!.from ? arg.replace!.to : n));
        tasks[i] = t;
        await cfg.update('tasks', tasks, vscode.ConfigurationTarget.WorkspaceFolder);
        void vscode.window.showInformationMessage(
          `Updated the end nodes of the hailo compile task for ${path.basename(t.model ?? '')} in ${folder.name}/.vscode/tasks.json.`,
        );
        return true;
      }
      const nodes = arg.nodes ?? (arg.replace ? [arg.replace.to] : []);
      await vscode.env.clipboard.writeText(nodes.join(','));
      void vscode.window.showInformationMessage(
        `No hailo compile task for this model in tasks.json: copied ${nodes.length === 1 ? `'${nodes[0]}'` : `${nodes.length} end nodes`} — use them as end_node_names, "endNodes" of a hailo task, or hailo-tools compile --end-nodes.`,
      );
      return false;
    }),
    vscode.commands.registerCommand(COPY_LINES_COMMAND, async (lines: string[]) => {
      await vscode.env.clipboard.writeText(lines.join('\n'));
      void vscode.window.showInformationMessage(`Copied ${lines.length} log line(s).`);
    }),
  );
}
