// DFC diagnostics (server/src/dfc DfcDiagnostic: 1-based, a path, maybe an ONNX node) in VS Code:
// an .alls or log line → that file; an ONNX node → its line in the model's graph view
// (hailo-onnx:…onnx.graph, where the reader computed the position). Each diagnostic remembers its
// machine-applicable fix; `DfcFixActions` offers it as a quick fix. Shared by Hailo: Compile Model
// and anything else that shows a DfcReport.
import { type DfcDiagnostic, type DfcFix, graphUriForPath } from '@hailo/api';
import * as vscode from 'vscode';

export const DFC_SOURCE = 'Hailo DFC';

const fixes = new WeakMap<vscode.Diagnostic, { fix: DfcFix; source: DfcDiagnostic; model?: string }>();

export function uriOf(d: DfcDiagnostic): vscode.Uri {
  return d.node ? vscode.Uri.parse(graphUriForPath(d.path)) : vscode.Uri.file(d.path);
}

/** `model`: the model the run compiled (the end-node fixes compile it again). */
export function toVscode(d: DfcDiagnostic, model?: string): vscode.Diagnostic {
  const range = new vscode.Range(Math.max(0, d.line - 1), Math.max(0, d.column - 1), Math.max(0, d.endLine - 1), Math.max(0, d.endColumn - 1));
  const severity =
    d.severity === 'error' ? vscode.DiagnosticSeverity.Error : d.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Information;
  const sure = d.confidence === 'high' ? '' : ` (${d.confidence} confidence)`;
  const out = new vscode.Diagnostic(range, `${d.message}${sure}`, severity);
  out.source = DFC_SOURCE;
  out.code = d.code;
  if (d.fix) fixes.set(out, { fix: d.fix, source: d, model });
  return out;
}

/** Groups by target URI (a file can get several). */
export function byUri(diagnostics: readonly DfcDiagnostic[], model?: string): [vscode.Uri, vscode.Diagnostic[]][] {
  const map = new Map<string, [vscode.Uri, vscode.Diagnostic[]]>();
  for (const d of diagnostics) {
    const uri = uriOf(d);
    const entry = map.get(uri.toString()) ?? [uri, []];
    entry[1].push(toVscode(d, model));
    map.set(uri.toString(), entry);
  }
  return [...map.values()];
}

export function fixOf(d: vscode.Diagnostic): { fix: DfcFix; source: DfcDiagnostic; model?: string } | undefined {
  return fixes.get(d);
}

/** (model, endNodes, replacing?) → compile again with those end nodes (registered by the compile command). */
export const RECOMPILE_WITH_END_NODES = 'hailo.compileWithEndNodes';

/** Quick fixes for diagnostics that carry a DfcFix. */
export class DfcFixActions implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(document: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const actions: vscode.CodeAction[] = [];
    for (const diagnostic of context.diagnostics) {
      const entry = fixOf(diagnostic);
      if (!entry) continue;
      const { fix, model } = entry;
      if (fix.kind === 'scriptEdit') {
        const a = new vscode.CodeAction(`Change to '${fix.newText}'`, vscode.CodeActionKind.QuickFix);
        a.edit = new vscode.WorkspaceEdit();
        a.edit.replace(document.uri, new vscode.Range(fix.line - 1, fix.column - 1, fix.line - 1, fix.endColumn - 1), fix.newText);
        a.diagnostics = [diagnostic];
        a.isPreferred = true;
        actions.push(a);
      } else if (fix.kind === 'setting') {
        const a = new vscode.CodeAction(`Open setting ${fix.key}`, vscode.CodeActionKind.QuickFix);
        a.command = { command: 'workbench.action.openSettings', title: a.title, arguments: [fix.key] };
        a.diagnostics = [diagnostic];
        actions.push(a);
      } else if (fix.kind === 'endNodes' && model) {
        const a = new vscode.CodeAction(`Compile again with end nodes ${fix.nodes.join(', ')}`, vscode.CodeActionKind.QuickFix);
        a.command = { command: RECOMPILE_WITH_END_NODES, title: a.title, arguments: [model, fix.nodes] };
        a.diagnostics = [diagnostic];
        actions.push(a);
      } else if (fix.kind === 'replaceName' && model) {
        const a = new vscode.CodeAction(`Use node name '${fix.to}' instead of '${fix.from}'`, vscode.CodeActionKind.QuickFix);
        a.command = { command: RECOMPILE_WITH_END_NODES, title: a.title, arguments: [model, [fix.to], fix.from] };
        a.diagnostics = [diagnostic];
        actions.push(a);
      }
    }
    return actions;
  }
}
