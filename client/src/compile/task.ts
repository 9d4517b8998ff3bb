// The `hailo` task type: `{"type": "hailo", "command": "compile", "model", "modelScript",
// "calibration", "hwArch", "startNodes", "endNodes"}` in tasks.json, or Tasks: Run Task → hailo.
// It runs the same compile as the command, in a pseudo-terminal that shows the DFC's console and
// ends with the report's `file:line:col: severity code message` lines for the `$hailo-dfc` problem
// matcher; ONNX-node diagnostics (which live in the graph view, not in a file) are published by
// the extension itself. Paths are relative to the task's workspace folder.
import { TerminalStreamEscaper, type CompileInputs } from '@hailo/api';
import { isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { requireWorkspaceTrust } from '../security/workspaceTrust';
import type { Compiler } from './compiler';
import type { CompileRequest } from './types';

export const TASK_TYPE = 'hailo';
export const PROBLEM_MATCHER = '$hailo-dfc';

export interface HailoTaskDefinition extends vscode.TaskDefinition {
  command: 'compile';
  model: string;
  modelScript?: string;
  calibration?: string;
  hwArch?: string;
  startNodes?: string[];
  endNodes?: string[];
}

type Gather = (file: string, request: CompileRequest) => Promise<CompileInputs | undefined>;

export function registerCompileTasks(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, compiler: Compiler, gather: Gather): void {
  const make = (def: HailoTaskDefinition, scope: vscode.WorkspaceFolder | vscode.TaskScope): vscode.Task => {
    const folder = typeof scope === 'object' ? scope.uri.fsPath : vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    const task = new vscode.Task(
      def,
      scope,
      `compile ${def.model}`,
      TASK_TYPE,
      new vscode.CustomExecution(async (resolved) => new CompileTerminal(resolved as HailoTaskDefinition, folder, compiler, log, gather)),
      [PROBLEM_MATCHER],
    );
    task.group = vscode.TaskGroup.Build;
    return task;
  };
  context.subscriptions.push(
    vscode.tasks.registerTaskProvider(TASK_TYPE, {
      async provideTasks() {
        const tasks: vscode.Task[] = [];
        for (const folder of vscode.workspace.workspaceFolders ?? []) {
          const models = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, '**/*.{onnx,har}'), '**/{node_modules,.git}/**', 50);
          for (const m of models) tasks.push(make({ type: TASK_TYPE, command: 'compile', model: vscode.workspace.asRelativePath(m, false) }, folder));
        }
        return tasks;
      },
      resolveTask(task) {
        const def = task.definition as HailoTaskDefinition;
        if (def.command !== 'compile' || typeof def.model !== 'string') return undefined;
        return make(def, task.scope ?? vscode.TaskScope.Workspace);
      },
    }),
  );
}

class CompileTerminal implements vscode.Pseudoterminal {
  private readonly writer = new vscode.EventEmitter<string>();
  private readonly closer = new vscode.EventEmitter<number>();
  readonly onDidWrite = this.writer.event;
  readonly onDidClose = this.closer.event;
  private abort?: () => void;

  constructor(
    private readonly def: HailoTaskDefinition,
    private readonly folder: string | undefined,
    private readonly compiler: Compiler,
    private readonly log: vscode.LogOutputChannel,
    private readonly gather: Gather,
  ) {}

  open(): void {
    // VS Code's task problem matcher reads the lines its terminal has parsed; a pseudo-terminal
    // closed right after its last write loses that tail (microsoft/vscode#92868, open; seen in the
    // e2e run), so the terminal stays open a moment after the report before ending the task.
    void this.run().then((code) => setTimeout(() => this.closer.fire(code), 1500));
  }

  close(): void {
    this.abort?.();
  }

  private async run(): Promise<number> {
    // Everything this terminal shows passes one escaper: the container's raw console (and any path
    // in a message) keeps its colours, line ends and progress redraws, never an OSC, a cursor move,
    // C1 or a bidi override.
    const escaper = new TerminalStreamEscaper();
    const write = (t: string) => this.writer.fire(escaper.push(t));
    try {
      return await this.compileInTerminal(write);
    } finally {
      const rest = escaper.flush();
      if (rest) this.writer.fire(rest);
    }
  }

  private async compileInTerminal(write: (t: string) => void): Promise<number> {
    const trust = await requireWorkspaceTrust('Hailo: compile task', vscodeTrustHost(this.log));
    if (!trust) {
      write('Refused: this folder is in Restricted Mode; trust it to compile.\r\n');
      return 2;
    }
    const abs = (p: string | undefined) => (p === undefined ? undefined : isAbsolute(p) || !this.folder ? p : join(this.folder, p));
    const model = abs(this.def.model)!;
    const inputs = await this.gather(model, {
      model,
      modelScript: abs(this.def.modelScript),
      calibration: this.def.calibration === 'random' ? 'random' : abs(this.def.calibration),
      hwArch: this.def.hwArch,
      startNodes: this.def.startNodes,
      endNodes: this.def.endNodes,
    });
    if (!inputs) {
      write(`No calibration set for ${this.def.model}: set "calibration" in the task (a .npy, or "random").\r\n`);
      return 2;
    }
    write(`\x1b[1mhailo compile ${model}\x1b[0m\r\n`);
    const result = await this.compiler.compile(trust, inputs, { write, publish: 'nodes' }, (abort) => (this.abort = abort));
    if (result.inputError) return 2;
    if (result.cancelled) return 130;
    return result.outcome === 'success' && result.hef?.intact ? 0 : 1;
  }
}
