// Hailo: Compile Model in VS Code: one compile = the session core (server/src/processes/compile/session.ts)
// run through a TrustToken launcher, queued per docker context, with a progress notification
// (stage, calibration/epoch progress, elapsed time, Cancel), the DFC's console in the "Hailo
// Compile" output channel, diagnostics on the .alls lines / ONNX graph-view nodes / log lines, and a
// summary with "Open HEF". The command, the task type and the quick fixes all come through here.
import {
  type DfcEvent,
  compileReportText,
  hostUser,
  trustedLauncher,
  findLeftovers,
  removeContainers,
  compileModel,
  type CompileOutcome,
  type CompileReport,
  type CompileInputs,
  type DfcDiagnostic,
} from '@hailo/api';
import { basename, extname } from 'node:path';
import * as vscode from 'vscode';
import type { TrustToken } from '../security/workspaceTrust';
import { DfcDiagnosticsView, type ReportFiles } from '../dfc/diagnostics';
import { ConsoleLines } from './consoleLines';
import { CompileQueue } from './queue';
import { dockerSettings } from './settings';
import { seconds, summaryText } from './summary';

export interface CompileResult {
  ran: true;
  cancelled: boolean;
  inputError?: string;
  outcome?: CompileReport['outcome'];
  failedStage?: CompileReport['failedStage'];
  outputs?: CompileReport['outputs'];
  /** What the run's log says it saved, as printed in the container (beside `outputs`, what was copied out). */
  saved?: CompileReport['saved'];
  hef?: CompileReport['hef'];
  container?: string | null;
  /** Where the diagnostics went: uri → codes (for tests and callers). */
  diagnostics: { uri: string; line: number; code: string; severity: string }[];
}

/** Where a run writes besides the output channel (the task's pseudo-terminal). */
export interface RunSink {
  write(text: string): void;
  /** Which diagnostics this run publishes itself ('all', or only ONNX-node ones when a problem matcher reads the rest). */
  publish: 'all' | 'nodes';
}

const STAGE_NO = { parse: 1, optimize: 2, compile: 3 } as const;

/** (model, endNodes, replacing?) → compile again with those end nodes (registered by the compile command). */
export const RECOMPILE_WITH_END_NODES = 'hailo.compileWithEndNodes';

export const DFC_SOURCE = 'Hailo DFC';

/** The compile's own quick fix beside the shared view's: compile the model again with the nodes. */
function recompileActions(d: DfcDiagnostic, files: ReportFiles, diagnostic: vscode.Diagnostic): vscode.CodeAction[] {
  const fix = d.fix;
  if (!files.onnx || (fix?.kind !== 'endNodes' && fix?.kind !== 'replaceName')) return [];
  const [title, args] =
    fix.kind === 'endNodes'
      ? [`Compile again with end nodes ${fix.nodes.join(', ')}`, [files.onnx, fix.nodes]]
      : [`Compile again with node '${fix.to}' instead of '${fix.from}'`, [files.onnx, [fix.to], fix.from]];
  const a = new vscode.CodeAction(title, vscode.CodeActionKind.QuickFix);
  a.command = { command: RECOMPILE_WITH_END_NODES, title, arguments: args };
  a.diagnostics = [diagnostic];
  return [a];
}

export class Compiler implements vscode.Disposable {
  readonly output = vscode.window.createOutputChannel('Hailo Compile');
  /** DFC diagnostics of each model's last compile (the view Explain DFC Log uses, keyed by model). */
  readonly diagnostics: DfcDiagnosticsView;
  /** The compile pool (a width per docker context) that single compiles and sweeps share. */
  readonly pool = new CompileQueue();
  private readonly active = new Set<string>();
  private readonly leftoversChecked = new Set<string>();
  /** Cancels of the compiles in flight: closing the window stops them (their containers go). */
  private readonly cancels = new Set<() => void>();
  /** End nodes last used per model (the "use node name" fix edits them). */
  readonly endNodes = new Map<string, string[]>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.diagnostics = new DfcDiagnosticsView(context, 'hailo-compile', { source: DFC_SOURCE, extraActions: recompileActions });
  }

  dispose(): void {
    for (const cancel of this.cancels) cancel();
    this.output.dispose();
  }

  /** Runs one compile (queued behind others on the same docker context). Shows progress and the summary. */
  compile(trust: TrustToken, inputs: CompileInputs, sink?: RunSink, onCancelHandle?: (cancel: () => void) => void): Promise<CompileResult> {
    const scope = vscode.Uri.file(inputs.model);
    const settings = dockerSettings(scope);
    const net = basename(inputs.model, extname(inputs.model));
    const key = settings.context ?? '';
    if (inputs.endNodes?.length) this.endNodes.set(inputs.model, inputs.endNodes);
    return Promise.resolve(
      vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Hailo: compiling ${net}`, cancellable: true },
        async (progress, token) => {
          const controller = new AbortController();
          let cancelledWhileWaiting = false;
          const job = this.pool.enqueue(
            key,
            () => this.execute(trust, inputs, settings, net, progress, controller.signal, sink),
            (ahead) => {
              if (ahead > 0) {
                const message = `waiting: ${ahead} compile${ahead === 1 ? '' : 's'} ahead on docker context '${key || 'default'}'`;
                progress.report({ message });
                sink?.write(`${message}\r\n`);
              }
            },
          );
          const cancel = () => {
            if (job.withdraw()) cancelledWhileWaiting = true;
            else controller.abort();
          };
          token.onCancellationRequested(cancel);
          onCancelHandle?.(cancel);
          this.cancels.add(cancel);
          const result = await job.result.finally(() => this.cancels.delete(cancel));
          if (!result || cancelledWhileWaiting) return { ran: true as const, cancelled: true, diagnostics: [] };
          return result;
        },
      ),
    );
  }

  private async execute(
    trust: TrustToken,
    inputs: CompileInputs,
    settings: ReturnType<typeof dockerSettings>,
    net: string,
    progress: vscode.Progress<{ message?: string }>,
    signal: AbortSignal,
    sink?: RunSink,
  ): Promise<CompileResult> {
    const started = Date.now();
    const launch = trustedLauncher(trust);
    const key = settings.context ?? '';
    if (!this.leftoversChecked.has(key)) {
      this.leftoversChecked.add(key);
      void this.offerLeftoverRemoval(trust, settings, false);
    }
    let stage = 'starting';
    let detail = '';
    const show = () => {
      const elapsed = seconds((Date.now() - started) / 1000);
      progress.report({ message: `${stage}${detail ? ` · ${detail}` : ''} · ${elapsed}` });
    };
    const timer = setInterval(show, 1000);
    show();
    const lines = new ConsoleLines();
    this.output.appendLine(`\n=== ${new Date().toLocaleString()} — compiling ${inputs.model} (${inputs.hwArch}) ===`);
    this.log.info(
      `compile ${inputs.model}: docker '${settings.dockerPath}'${settings.context ? ` --context ${settings.context}` : ''}, image ${settings.image ?? '(auto)'}, gpus ${settings.gpus}`,
    );
    this.diagnostics.clear(inputs.model);
    const onEvent = (e: DfcEvent) => {
      if (e.kind === 'stageStarted') {
        stage = `${e.stage} (${STAGE_NO[e.stage]}/3)`;
        detail = '';
      } else if (e.kind === 'progress' && e.stage) {
        detail = `${e.label} ${e.done}${e.total ? `/${e.total}` : ''}`;
      } else if (e.kind === 'stageFinished') {
        sink?.write(`\x1b[1m${e.stage} ${e.status === 'ok' ? 'ok' : 'FAILED'}${e.seconds !== null ? ` (${seconds(e.seconds)})` : ''}\x1b[0m\r\n`);
      }
      show();
    };
    let outcome: CompileOutcome;
    try {
      this.active.add(inputs.model);
      outcome = await compileModel(
        inputs,
        settings,
        { launch, driverDir: this.context.asAbsolutePath('driver'), user: hostUser(), signal },
        {
          onStep: (_s, text) => {
            stage = text;
            show();
            this.output.appendLine(`[hailo-tools] ${text}`);
          },
          onOutput: (text) => {
            this.output.append(lines.push(text));
            sink?.write(text.replace(/\r?\n/g, '\r\n'));
          },
          onEvent,
        },
      );
    } finally {
      this.active.delete(inputs.model);
      clearInterval(timer);
      this.output.append(lines.flush());
    }
    const elapsed = (Date.now() - started) / 1000;
    if (outcome.inputError) {
      void vscode.window.showErrorMessage(`Hailo: ${outcome.inputError}`);
      sink?.write(`${outcome.inputError}\r\n`);
      return { ran: true, cancelled: false, inputError: outcome.inputError, diagnostics: [] };
    }
    const report = outcome.report!;
    const text = compileReportText(report, report.log ?? inputs.model);
    this.output.append(text);
    sink?.write(text.replace(/\n/g, '\r\n'));
    const published = this.publish(report, inputs, sink?.publish ?? 'all');
    this.log.info(`compile ${inputs.model}: ${report.outcome}${report.failedStage ? ` (${report.failedStage})` : ''} in ${seconds(elapsed)}`);
    if (!outcome.cancelled) void this.summarize(net, report, elapsed, inputs);
    return {
      ran: true,
      cancelled: outcome.cancelled,
      outcome: report.outcome,
      failedStage: report.failedStage,
      outputs: report.outputs,
      saved: report.saved,
      hef: report.hef,
      container: report.container?.name ?? null,
      diagnostics: published,
    };
  }

  /** Shows the report's diagnostics (replacing the model's previous compile's) and lists where they went. */
  private publish(report: CompileReport, inputs: CompileInputs, which: 'all' | 'nodes'): CompileResult['diagnostics'] {
    const chosen = report.diagnostics.filter((d) => which === 'all' || d.node !== undefined);
    const files: ReportFiles = {
      log: report.log ? vscode.Uri.file(report.log) : undefined,
      alls: inputs.modelScript,
      onnx: extname(inputs.model).toLowerCase() === '.onnx' ? inputs.model : undefined,
    };
    this.diagnostics.show(inputs.model, { ...report, diagnostics: chosen }, files);
    return chosen.map((d) => ({ uri: this.diagnostics.uriOf(d, files).toString(), line: d.line, code: d.code, severity: d.severity }));
  }

  private async summarize(net: string, report: CompileReport, elapsed: number, inputs: CompileInputs): Promise<void> {
    const message = `Hailo: ${summaryText(net, report, elapsed)}`;
    if (report.outcome === 'success') {
      const buttons = report.outputs.hef ? ['Open HEF', 'Show Log'] : ['Show Log'];
      const warn = report.hef && (!report.hef.intact || report.hef.contract?.pass === false);
      const choice = await (warn ? vscode.window.showWarningMessage : vscode.window.showInformationMessage)(message, ...buttons);
      if (choice === 'Open HEF' && report.outputs.hef)
        await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(report.outputs.hef), 'hailo.hefInspector');
      else if (choice === 'Show Log') this.output.show(true);
      return;
    }
    const setting = report.diagnostics.find((d) => d.fix?.kind === 'setting')?.fix;
    const buttons = ['Show Problems', 'Show Log'];
    if (setting?.kind === 'setting') buttons.push('Open Setting');
    if (report.recommendedEndNodes.length && extname(inputs.model).toLowerCase() === '.onnx') buttons.push('Compile with Recommended End Nodes');
    const choice = await vscode.window.showErrorMessage(message, ...buttons);
    if (choice === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
    else if (choice === 'Show Log') this.output.show(true);
    else if (choice === 'Open Setting' && setting?.kind === 'setting') await vscode.commands.executeCommand('workbench.action.openSettings', setting.key);
    else if (choice === 'Compile with Recommended End Nodes') {
      await vscode.commands.executeCommand('hailo.compileModel', vscode.Uri.file(inputs.model), { ...inputs, endNodes: report.recommendedEndNodes });
    }
  }

  /** Finds compile containers nobody owns any more and offers to remove them (or says there are none). */
  async offerLeftoverRemoval(trust: TrustToken, settings: ReturnType<typeof dockerSettings>, explicit: boolean): Promise<number> {
    const launch = trustedLauncher(trust);
    const target = { dockerPath: settings.dockerPath, context: settings.context };
    const { leftovers, problem } = await findLeftovers(launch, target);
    if (problem) {
      if (explicit) void vscode.window.showErrorMessage(`Hailo: ${problem.message}`);
      return 0;
    }
    if (leftovers.length === 0) {
      if (explicit) void vscode.window.showInformationMessage('Hailo: no leftover compile containers on this docker host.');
      return 0;
    }
    const names = leftovers.map((c) => c.name);
    const choice = await vscode.window.showWarningMessage(
      `Hailo: ${leftovers.length} compile container${leftovers.length === 1 ? '' : 's'} from an earlier session ${leftovers.length === 1 ? 'is' : 'are'} still on docker${settings.context ? ` (context '${settings.context}')` : ''}: ${names.join(', ')}.`,
      'Remove',
      'Keep',
    );
    if (choice !== 'Remove') return 0;
    const failed = await removeContainers(launch, target, leftovers);
    if (failed.length) void vscode.window.showErrorMessage(`Hailo: could not remove ${failed.map((f) => `${f.name} (${f.reason})`).join(', ')}.`);
    else void vscode.window.showInformationMessage(`Hailo: removed ${names.length} leftover container${names.length === 1 ? '' : 's'}.`);
    return names.length - failed.length;
  }
}
