// "Hailo: Find Where the Parser Fails": the same search as `hailo-tools bisect` (the DFC's own parser
// on growing prefixes of the model, one container, trusted workspaces only), with progress and cancel
// in a notification; the answer goes to the output channel, onto the node in the ONNX graph view (a
// diagnostic with the DFC's message and what is known, the node selected), and finished parses stay
// beside the model (`<model>.onnx.bisect.json`) so a second run resumes.
import * as path from 'path';
import * as vscode from 'vscode';
import { bisectParser, bisectText, hostUser, trustedLauncher, GRAPH_SCHEME, type BisectOutcome, type FirstRefusal } from '@hailo/api';
import { requireWorkspaceTrust } from '../security/workspaceTrust';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { dockerSettings, hwArch } from '../compile/settings';
import { graphUri, modelUri, openGraphView } from './graphView';

export const FIND_PARSER_FAILURE_COMMAND = 'hailo.findParserFailure';

function pickModel(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg.scheme === GRAPH_SCHEME ? modelUri(arg) : arg;
  const active = vscode.window.activeTextEditor?.document.uri;
  if (active?.scheme === GRAPH_SCHEME) return modelUri(active);
  return active?.path.endsWith('.onnx') ? active : undefined;
}

/** The diagnostic on the refused node: the DFC's message, then what is known about the node. */
export function refusalDiagnostic(f: FirstRefusal): vscode.Diagnostic {
  const p = f.place!;
  const known = f.known.map((k) => `${k.code}: ${k.message} Fix: ${k.fix}`).join('\n');
  const d = new vscode.Diagnostic(
    new vscode.Range(p.line - 1, p.column - 1, p.endLine - 1, p.endColumn - 1),
    `The DFC parser first refuses the model here (${f.opType}): ${f.message}${f.dfcExplanation ? `\n${f.dfcExplanation}` : ''}${known ? `\n${known}` : ''}`,
    vscode.DiagnosticSeverity.Error,
  );
  d.source = 'Hailo parser bisection';
  d.code = f.dfcCode ?? 'dfc/parser-refusal';
  return d;
}

export function registerParserBisect(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): void {
  const output = vscode.window.createOutputChannel('Hailo Parser Bisection');
  const diagnostics = vscode.languages.createDiagnosticCollection('hailo-parser-bisection');
  context.subscriptions.push(
    output,
    diagnostics,
    vscode.commands.registerCommand(FIND_PARSER_FAILURE_COMMAND, async (arg?: unknown): Promise<BisectOutcome | undefined> => {
      const trust = await requireWorkspaceTrust('Hailo: Find Where the Parser Fails', vscodeTrustHost(log));
      if (!trust) return undefined;
      const model =
        pickModel(arg) ??
        (await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'ONNX models': ['onnx'] }, openLabel: 'Find where the parser fails' }))?.[0];
      if (!model) return undefined;
      const file = model.fsPath;
      diagnostics.delete(graphUri(model));
      output.appendLine(`— where the DFC parser first refuses ${file}`);
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Hailo: Find Where the Parser Fails (${path.basename(file)})`, cancellable: true },
        async (progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          progress.report({ message: 'starting the DFC container…' });
          return bisectParser({ model: file, hwArch: hwArch(model) }, dockerSettings(model), {
            launch: trustedLauncher(trust),
            driverDir: path.join(context.extensionPath, 'driver'),
            user: hostUser(),
            signal: controller.signal,
            onOutput: (text) => output.append(text),
            onProgress: (p) =>
              progress.report({
                message: p.outcome
                  ? `parse ${p.run} of at most ${p.budget}: ${p.prefix} of ${p.nodes} nodes ${p.outcome}${p.cached ? ' (cached)' : ''}`
                  : `parse ${p.run} of at most ${p.budget}: ${p.prefix} of ${p.nodes} nodes…`,
              }),
          });
        },
      );
      if (outcome.status === 'cancelled') {
        output.appendLine('cancelled: the container was removed; finished parses are kept for the next run');
        return outcome;
      }
      if (outcome.status !== 'ok') {
        const text = outcome.message ?? 'The search did not finish.';
        log.warn(`bisect: ${file}: ${text}`);
        void vscode.window.showErrorMessage(text, 'Show Output').then((a) => a && output.show());
        return outcome;
      }
      output.append(bisectText(outcome));
      const f = outcome.firstRefusal;
      if (!f) {
        void vscode.window.showInformationMessage(`The DFC parses ${path.basename(file)} whole (${outcome.runs.length} parse).`);
        return outcome;
      }
      log.info(`bisect: ${file}: first refusal at ${f.node} after ${outcome.runs.length} parses`);
      const view = await openGraphView(model);
      if (f.place) {
        diagnostics.set(view, [refusalDiagnostic(f)]);
        const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === view.toString());
        if (editor) {
          const range = new vscode.Range(f.place.line - 1, f.place.column - 1, f.place.endLine - 1, f.place.endColumn - 1);
          editor.selection = new vscode.Selection(range.start, range.end);
          editor.revealRange(range, vscode.TextEditorRevealType.InCenter);
        }
      }
      void vscode.window
        .showWarningMessage(`The DFC parser first refuses ${f.node} (${f.opType}): ${f.message}`, 'Show Output')
        .then((a) => a && output.show());
      return outcome;
    }),
  );
}
