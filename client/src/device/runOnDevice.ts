// "Hailo: Run on Device" for a .hef (HEF inspector button, explorer context menu, palette):
// trusted workspaces only; options picked in one quick pick and remembered per workspace folder;
// the pre-run gate (server/src/core/device/runGate.ts, the one the CLI and the worker ask) judges
// the file, the scanned device and the pair before anything is opened; the run shows progress with Cancel (which stops the worker); then the float
// reference; then the results page. Every failure is one sentence with its fix as a button.
import * as path from 'path';
import * as vscode from 'vscode';
import { hailoSettings } from '../settings';
import { DEFAULT_OPEN_OPTIONS, type DeviceError, gateBeforeRun, readHefFile, type RunReport } from '@hailo/api';
import { requireWorkspaceTrust, type TrustToken } from '../security/workspaceTrust';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { HEF_VIEW_TYPE } from '../hef/hefEditor';
import { asDeviceError, DeviceConnection } from './deviceConnection';
import { showDeviceFailure } from './failureActions';
import { floatReference } from './floatReference';
import { ResultsPanels } from './resultsPanel';
import {
  auto,
  BATCH_CHOICES,
  describeChoices,
  describeInput,
  FRAME_CHOICES,
  MAX_FRAMES,
  parseChoices,
  QUEUE_CHOICES,
  toRunOptions,
  type RunChoices,
} from './runChoices';
import type { RunDocument } from './runDocument';

export const RUN_COMMAND = 'hailo.runOnDevice';
export const RUN_ACTION = 'Hailo: Run on Device';

/** Arguments the command accepts besides a Uri (tests and "Run Again" skip the options pick). */
export interface RunArgs {
  choices?: Partial<RunChoices>;
  prompt?: boolean;
}

const stateKey = (hef: vscode.Uri) => `hailo.device.runChoices:${(vscode.workspace.getWorkspaceFolder(hef)?.uri ?? vscode.Uri.joinPath(hef, '..')).toString()}`;

/** The .hef the command is about: its argument, the active HEF inspector or editor, else a pick. */
/** The HEF a command acts on: its argument, the active inspector or editor, else a pick from the workspace. */
export async function resolveHef(
  arg: unknown,
  words = { none: 'There is no .hef file in this workspace to run on the device.', title: 'Run which HEF on the device?' },
): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg;
  const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (tab instanceof vscode.TabInputCustom && tab.viewType === HEF_VIEW_TYPE) return tab.uri;
  const editor = vscode.window.activeTextEditor?.document.uri;
  if (editor && editor.path.toLowerCase().endsWith('.hef')) return editor;
  const hefs = await vscode.workspace.findFiles('**/*.hef', '**/node_modules/**', 500);
  if (hefs.length === 0) {
    void vscode.window.showErrorMessage(words.none);
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    hefs
      .sort((a, b) => a.fsPath.localeCompare(b.fsPath))
      .map((uri) => ({ label: path.posix.basename(uri.path), description: vscode.workspace.asRelativePath(uri, false), uri })),
    { title: words.title, placeHolder: 'Type to filter the HEF files of this workspace' },
  );
  return picked?.uri;
}

type Item = vscode.QuickPickItem & { id: string };

async function pickOne<T>(title: string, options: { label: string; value: T; description?: string }[], current: T): Promise<T | undefined> {
  const items = options.map((o) => ({
    ...o,
    picked: o.value === current,
    description: `${o.description ?? ''}${o.value === current ? ' (current)' : ''}`.trim(),
  }));
  return (await vscode.window.showQuickPick(items, { title }))?.value;
}

/** One quick pick: Enter runs with the shown options; any other row changes that option. */
async function pickChoices(hef: vscode.Uri, start: RunChoices): Promise<RunChoices | undefined> {
  let c = { ...start };
  for (;;) {
    const items: Item[] = [
      { id: 'run', label: '$(play) Run', description: describeChoices(c), alwaysShow: true },
      { id: 'frames', label: 'Frames', description: c.frames.toLocaleString('en-US') },
      { id: 'input', label: 'Input', description: describeInput(c) },
      { id: 'format', label: 'Format', description: c.format },
      { id: 'batch', label: 'Batch', description: auto(c.batch) },
      { id: 'queue', label: 'Queue depth', description: auto(c.queue) },
    ];
    const choice = await vscode.window.showQuickPick(items, {
      title: `Run ${path.posix.basename(hef.path)} on the device`,
      placeHolder: 'Enter runs; choose a row to change it (remembered for this folder)',
    });
    if (!choice) return undefined;
    if (choice.id === 'run') return c;
    if (choice.id === 'frames') {
      const v = await pickOne(
        'Frames to time',
        [...FRAME_CHOICES.map((n) => ({ label: n.toLocaleString('en-US'), value: n })), { label: 'Other…', value: -1 }],
        c.frames,
      );
      if (v === -1) {
        const typed = await vscode.window.showInputBox({
          title: 'Frames to time',
          value: String(c.frames),
          validateInput: (s) =>
            /^\d+$/.test(s) && +s >= 1 && +s <= MAX_FRAMES ? undefined : `A whole number from 1 to ${MAX_FRAMES.toLocaleString('en-US')}.`,
        });
        if (typed) c = { ...c, frames: Number(typed) };
      } else if (v !== undefined) c = { ...c, frames: v };
    } else if (choice.id === 'input') {
      const v = await pickOne<RunChoices['input']>(
        'Input',
        [
          { label: 'random', value: 'random', description: 'uniform over the format’s range, seeded' },
          { label: 'normal', value: 'normal', description: 'standard normal, seeded' },
          { label: '.npy file…', value: 'npy', description: 'one frame, or the first of a batch' },
          { label: 'image file…', value: 'image', description: 'PNG or JPEG, resized to the input' },
        ],
        c.input,
      );
      if (v === 'npy' || v === 'image') {
        const file = await vscode.window.showOpenDialog({
          defaultUri: vscode.Uri.joinPath(hef, '..'),
          canSelectMany: false,
          filters: v === 'npy' ? { NumPy: ['npy'] } : { Images: ['png', 'jpg', 'jpeg'] },
        });
        if (file?.[0]) c = { ...c, input: v, inputPath: file[0].fsPath };
      } else if (v) c = { ...c, input: v, inputPath: undefined };
    } else if (choice.id === 'format') {
      const v = await pickOne(
        'I/O format',
        [
          { label: 'uint8', value: 'uint8' as const, description: 'quantised bytes, as the chip sees them' },
          { label: 'float32', value: 'float32' as const, description: 'HailoRT (de)quantises on the host' },
        ],
        c.format,
      );
      if (v) c = { ...c, format: v };
    } else if (choice.id === 'batch') {
      const v = await pickOne(
        'Batch size',
        BATCH_CHOICES.map((n) => ({ label: auto(n), value: n })),
        c.batch,
      );
      if (v !== undefined) c = { ...c, batch: v };
    } else if (choice.id === 'queue') {
      const v = await pickOne(
        'Frames in flight (queue depth)',
        QUEUE_CHOICES.map((n) => ({ label: auto(n), value: n, description: n === 0 ? 'the model’s async queue size' : '' })),
        c.queue,
      );
      if (v !== undefined) c = { ...c, queue: v };
    }
  }
}

export class RunOnDevice {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly service: DeviceConnection,
    private readonly panels: ResultsPanels,
  ) {}

  /** The whole command. Resolves when the results are shown or the run ended. */
  async run(arg?: unknown, args: RunArgs = {}): Promise<RunDocument | undefined> {
    const trust = await requireWorkspaceTrust(RUN_ACTION, vscodeTrustHost(this.log));
    if (!trust) return undefined;
    const hef = await resolveHef(arg);
    if (!hef) return undefined;
    if (hef.scheme !== 'file') {
      void vscode.window.showErrorMessage(`${path.posix.basename(hef.path)} is not on this machine's disk (${hef.scheme}:); HailoRT opens local files only.`);
      return undefined;
    }
    const key = stateKey(hef);
    let choices = parseChoices({ ...(this.context.workspaceState.get(key) as object | undefined), ...args.choices });
    if (args.prompt !== false) {
      const picked = await pickChoices(hef, choices);
      if (!picked) return undefined;
      choices = picked;
    }
    await this.context.workspaceState.update(key, choices);
    return this.execute(trust, hef, choices);
  }

  private async execute(trust: TrustToken, hef: vscode.Uri, choices: RunChoices): Promise<RunDocument | undefined> {
    const title = path.posix.basename(hef.path);
    const options = toRunOptions(hef.fsPath, choices, {
      groupId: hailoSettings(hef).device.groupId,
      timeoutMs: DEFAULT_OPEN_OPTIONS.timeoutMs,
    });
    this.log.info(`device: ${RUN_ACTION} ${hef.fsPath}: ${describeChoices(choices)}`);
    try {
      const doc = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Running ${title} on the device`, cancellable: true },
        async (progress, token) => {
          progress.report({ message: 'reading the HEF…' });
          const report = await readHefFile(hef.fsPath);
          // The file first (a missing or damaged HEF is said before the device is asked), then the scan.
          const check = await gateBeforeRun(
            title,
            report,
            () => {
              progress.report({ message: 'looking for the device…' });
              return this.service.scan(trust);
            },
            options.format,
          );
          if (check.action === 'refuse') throw check.error;
          if (token.isCancellationRequested) return undefined;
          this.panels.showProgress(hef, `Running on ${check.device.architecture} ${check.device.id}…`);
          let last = 0;
          const result: RunReport = await this.service.run(
            trust,
            options,
            (e) => {
              if (e.type !== 'progress') return;
              const pct = e.total ? Math.min(100, (100 * (e.done ?? 0)) / e.total) : undefined;
              progress.report({
                message: `${e.phase}${e.total ? ` ${e.done ?? 0}/${e.total}` : ''}`,
                increment: pct !== undefined && pct > last ? pct - last : undefined,
              });
              if (pct !== undefined) last = Math.max(last, pct);
            },
            token,
          );
          progress.report({ message: 'float reference…' });
          const ac = new AbortController();
          const sub = token.onCancellationRequested(() => ac.abort());
          try {
            const reference = await this.reference(trust, hef, result, ac.signal);
            return { kind: 'hailo-tools.device-run', version: 1, title, options, arch: check.arch, report: result, reference } satisfies RunDocument;
          } finally {
            sub.dispose();
          }
        },
      );
      if (!doc) {
        this.panels.dropEmpty(hef);
        return undefined;
      }
      this.panels.show(hef, doc);
      const failed = doc.report.checks.filter((c) => !c.pass);
      this.log.info(
        `device: ${title}: ${doc.report.fps.fps.toFixed(1)} frames/s, p50 ${doc.report.latency.p50Ms.toFixed(2)} ms, ${failed.length} of ${doc.report.checks.length} checks failed, float reference ${doc.reference.status}`,
      );
      return doc;
    } catch (err) {
      this.panels.dropEmpty(hef);
      const e: DeviceError = isDeviceError(err) ? err : asDeviceError(err);
      this.log.error(
        `device: ${RUN_ACTION} ${hef.fsPath}: [${e.kind}${e.status !== null ? ` ${e.status}` : ''}] ${e.message}${e.gate ? ` (gate ${e.gate})` : ''}`,
      );
      void this.showFailure(e, hef);
      return undefined;
    }
  }

  async reference(trust: TrustToken, hef: vscode.Uri, report: RunReport, signal?: AbortSignal) {
    const settings = hailoSettings(hef);
    return floatReference(trust, hef.fsPath, report, {
      onnxSetting: settings.model.onnx,
      harSetting: settings.model.har,
      onnxRuntimePath: hailoSettings().onnxruntime.path,
      extensionPath: this.context.extensionPath,
      signal,
      log: (m) => this.log.info(m),
    });
  }

  async rerunReference(hef: vscode.Uri, doc: RunDocument): Promise<RunDocument> {
    const trust = await requireWorkspaceTrust(RUN_ACTION, vscodeTrustHost(this.log));
    if (!trust) return doc;
    return { ...doc, reference: await this.reference(trust, hef, doc.report) };
  }

  /** The failure's sentence as an error message; its buttons do what they say. */
  async showFailure(err: DeviceError, hef?: vscode.Uri): Promise<void> {
    await showDeviceFailure(err, {
      log: this.log,
      hef,
      retry: () => vscode.commands.executeCommand(RUN_COMMAND, hef, { prompt: false }),
      changeOptions: () => vscode.commands.executeCommand(RUN_COMMAND, hef),
    });
  }
}

function isDeviceError(v: unknown): v is DeviceError {
  return typeof v === 'object' && v !== null && typeof (v as DeviceError).kind === 'string' && typeof (v as DeviceError).sentence === 'string';
}
