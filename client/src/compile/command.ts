// Registers Hailo: Compile Model (palette, explorer and editor title on .onnx/.har/.alls), the
// end-node quick fix's re-compile, Hailo: Remove Leftover Compile Containers and the `hailo` task
// type (the DFC diagnostics and their quick fixes are the compiler's DfcDiagnosticsView, shared with
// Explain DFC Log). Everything that runs passes the workspace-trust guard first.
import { type CompileInputs, pathForGraphUri, FileRoots } from '@hailo/api';
import { basename, dirname, extname, isAbsolute, join } from 'node:path';
import * as vscode from 'vscode';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { requireWorkspaceTrust } from '../security/workspaceTrust';
import { companions, type FolderChoice } from './companions';
import { Compiler, RECOMPILE_WITH_END_NODES, type CompileResult } from './compiler';
import { dockerSettings, hailoConfigSetting, hwArch, isUserPathSetting, outputFolderSetting } from './settings';
import { registerCompileTasks } from './task';
import type { CompileRequest } from './types';

export const COMPILE_COMMAND = 'hailo.compileModel';
export const REMOVE_LEFTOVERS_COMMAND = 'hailo.removeLeftoverContainers';
export const RANDOM_CALIBRATION = 'random';

export type CompileCommandResult = { ran: false; reason: 'untrusted' | 'no-model' | 'cancelled' } | CompileResult;

const FOLDER_KEY = (folder: string) => `hailo.compile.folder:${folder}`;

export function registerCompile(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Compiler {
  const compiler = new Compiler(context, log);
  context.subscriptions.push(compiler);

  const run = async (target: vscode.Uri | undefined, request: CompileRequest = {}): Promise<CompileCommandResult> => {
    const trust = await requireWorkspaceTrust('Hailo: Compile Model', vscodeTrustHost(log));
    if (!trust) return { ran: false, reason: 'untrusted' };
    const file = request.model ?? fileOf(target) ?? activeFile() ?? (await pickModel());
    if (!file) return { ran: false, reason: 'no-model' };
    const inputs = await gather(file, request, context.workspaceState);
    if (!inputs) return { ran: false, reason: 'cancelled' };
    return compiler.compile(trust, inputs);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand(COMPILE_COMMAND, (uri?: unknown, request?: CompileRequest) =>
      run(uri instanceof vscode.Uri ? uri : undefined, isRequest(request) ? request : {}),
    ),
    vscode.commands.registerCommand(RECOMPILE_WITH_END_NODES, (model: string, nodes: string[], replacing?: string) => {
      const previous = compiler.endNodes.get(model) ?? [];
      const endNodes = replacing && previous.includes(replacing) ? previous.map((n) => (n === replacing ? nodes[0] : n)) : nodes;
      return run(vscode.Uri.file(model), { model, endNodes });
    }),
    vscode.commands.registerCommand(REMOVE_LEFTOVERS_COMMAND, async () => {
      const trust = await requireWorkspaceTrust('Hailo: Remove Leftover Compile Containers', vscodeTrustHost(log));
      if (!trust) return { ran: false, reason: 'untrusted' };
      const removed = await compiler.offerLeftoverRemoval(trust, dockerSettings(), true);
      return { ran: true, removed };
    }),
  );
  registerCompileTasks(context, log, compiler, (file, request) => gather(file, request, context.workspaceState, false));
  return compiler;
}

function isRequest(v: unknown): v is CompileRequest {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A file URI, or the model behind a graph-view URI. */
function fileOf(uri: vscode.Uri | undefined): string | undefined {
  if (!uri) return undefined;
  if (uri.scheme === 'file') return uri.fsPath;
  return pathForGraphUri(uri.toString());
}

const COMPILABLE = new Set(['.onnx', '.har', '.alls']);

/** The file in the active editor (text or custom editor), if it is a model or a script. */
function activeFile(): string | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const uri = input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputText ? input.uri : vscode.window.activeTextEditor?.document.uri;
  const file = fileOf(uri);
  return file && COMPILABLE.has(extname(file).toLowerCase()) ? file : undefined;
}

async function pickModel(): Promise<string | undefined> {
  const picked = await vscode.window.showOpenDialog({
    title: 'Hailo: Compile Model — choose the model',
    canSelectMany: false,
    filters: { 'ONNX or HAR model': ['onnx', 'har'], 'Model script': ['alls'] },
  });
  return picked?.[0]?.fsPath;
}

/**
 * The compile's inputs: what the request gives, else what was chosen for this folder before, else
 * what lies beside the file, else (interactive only) one question each for the model and the
 * calibration set, remembered per folder.
 */
export async function gather(file: string, request: CompileRequest, state: vscode.Memento, interactive = true): Promise<CompileInputs | undefined> {
  const folder = dirname(file);
  let names: string[] = [];
  try {
    names = FileRoots.of([folder]).list(folder);
  } catch {
    names = [];
  }
  const remembered = state.get<FolderChoice>(FOLDER_KEY(folder)) ?? {};
  const found = companions(file, folder, names);
  const fromScript = extname(file).toLowerCase() === '.alls';
  let model = request.model ?? (fromScript ? (remembered.model ?? found.model) : file);
  if (!model && interactive) {
    const picked = await vscode.window.showOpenDialog({
      title: `Hailo: which model does ${basename(file)} compile? (asked once for this folder)`,
      defaultUri: vscode.Uri.file(folder),
      canSelectMany: false,
      filters: { 'ONNX or HAR model': ['onnx', 'har'] },
    });
    model = picked?.[0]?.fsPath;
    if (model) await state.update(FOLDER_KEY(folder), { ...remembered, model });
  }
  if (!model) return undefined;
  const modelFolder = dirname(model);
  const forModel = fromScript ? companions(model, modelFolder, safeNames(modelFolder)) : found;
  const modelScript = request.modelScript ?? (fromScript ? file : forModel.modelScript);
  // The folders the compile may read from and write into (the folder rule, server/src/processes/compile/inputs.ts):
  // the workspace folders, plus the folders of files the user picked here or earlier (remembered in
  // this machine's workspace state) and of path settings from the user's own settings — never a
  // folder a task, a request or a folder's settings name.
  const folders = (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath);
  folders.push(dirname(file)); // the file the command was run on
  const chosen = (p: string | undefined) => p && p !== RANDOM_CALIBRATION && folders.push(dirname(isAbsolute(p) ? p : join(dirname(model!), p)));
  if (remembered.model) chosen(remembered.model);
  let calibration = request.calibration ?? remembered.calibration ?? found.calibration ?? forModel.calibration;
  if (request.calibration === undefined && remembered.calibration) chosen(remembered.calibration);
  if (!calibration) {
    if (!interactive) return undefined;
    calibration = await pickCalibration(basename(model, extname(model)), modelFolder, safeNames(modelFolder));
    if (!calibration) return undefined;
    chosen(calibration);
    await state.update(FOLDER_KEY(folder), { ...remembered, ...(fromScript ? { model } : {}), calibration });
  }
  const scope = vscode.Uri.file(model);
  const relative = (p: string | undefined) => (p ? (isAbsolute(p) ? p : join(modelFolder, p)) : undefined);
  const hailoConfig = relative(request.hailoConfig ?? hailoConfigSetting(scope));
  const outDir = relative(request.outDir ?? outputFolderSetting(scope));
  if (request.hailoConfig === undefined && hailoConfig && isUserPathSetting('compile.hailoConfig', scope)) folders.push(dirname(hailoConfig));
  if (request.outDir === undefined && outDir && isUserPathSetting('compile.outputFolder', scope)) folders.push(outDir);
  return {
    model,
    modelScript,
    calibration: calibration === RANDOM_CALIBRATION ? undefined : relative(calibration),
    hailoConfig,
    hwArch: request.hwArch ?? hwArch(scope),
    startNodes: request.startNodes,
    endNodes: request.endNodes,
    outDir,
    folders,
  };
}

function safeNames(folder: string): string[] {
  try {
    return FileRoots.of([folder]).list(folder);
  } catch {
    return [];
  }
}

async function pickCalibration(net: string, folder: string, names: string[]): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { value: string };
  const sets = names.filter((n) => /\.(npy|npz)$/i.test(n));
  const items: Item[] = [
    ...sets.map((n) => ({ label: n, description: 'beside the model', value: join(folder, n) })),
    { label: '$(folder-opened) Choose a calibration set…', value: 'browse' },
    { label: '$(warning) Use random data', description: 'the HEF runs, but its accuracy is meaningless', value: RANDOM_CALIBRATION },
  ];
  const choice = await vscode.window.showQuickPick(items, {
    title: `Hailo: calibration set for ${net} (NHWC .npy; asked once for this folder)`,
    placeHolder: 'Calibrate with data drawn from the real inputs: the distribution decides the accuracy',
    ignoreFocusOut: true,
  });
  if (!choice) return undefined;
  if (choice.value !== 'browse') return choice.value;
  const picked = await vscode.window.showOpenDialog({
    defaultUri: vscode.Uri.file(folder),
    canSelectMany: false,
    filters: { 'NumPy calibration set': ['npy', 'npz'] },
  });
  return picked?.[0]?.fsPath;
}
