// The device status bar item: present / busy / none / HailoRT missing. It asks the device rarely:
// once shortly after activation in a trusted workspace (and when trust is granted), then every
// few minutes, and when the user clicks it (→ device details) — never while a run holds the
// device. In Restricted Mode it loads nothing and says so, neutrally.
import * as vscode from 'vscode';
import { requireWorkspaceTrust } from '../security/workspaceTrust';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { asDeviceError, type DeviceConnection } from './deviceConnection';
import { RUN_COMMAND, type RunOnDevice } from './runOnDevice';
import { stateFromScan, statusView, type DeviceState } from './statusView';
import { CHECK_SETUP_COMMAND, setupReport, summary } from './checkSetup';

export const DETAILS_COMMAND = 'hailo.deviceDetails';
/** First look after activation (lets the window settle), then this often. */
const FIRST_CHECK_MS = 4_000;
export const CHECK_INTERVAL_MS = 5 * 60_000;

export class DeviceStatusBar implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('hailo.device', vscode.StatusBarAlignment.Right, 50);
  private state: DeviceState = { kind: 'restricted' };
  private timers: NodeJS.Timeout[] = [];
  private checking: Promise<DeviceState> | undefined;

  constructor(
    private readonly log: vscode.LogOutputChannel,
    private readonly service: DeviceConnection,
    private readonly runner: RunOnDevice,
  ) {
    this.item.name = 'Hailo Device';
    this.item.command = DETAILS_COMMAND;
    this.service.onDidChange(() => {
      const hef = this.service.busyWith;
      if (hef) this.set({ kind: 'running', hef: vscode.workspace.asRelativePath(hef), devices: 'devices' in this.state ? this.state.devices : [] });
      else void this.refresh('after a run');
    });
    if (vscode.workspace.isTrusted) this.schedule();
    else this.set({ kind: 'restricted' });
    vscode.workspace.onDidGrantWorkspaceTrust(() => this.schedule());
    this.item.show();
  }

  private schedule(): void {
    this.set({ kind: 'checking' });
    const first = setTimeout(() => void this.refresh('activation'), FIRST_CHECK_MS);
    const every = setInterval(() => void this.refresh('interval'), CHECK_INTERVAL_MS);
    first.unref?.();
    every.unref?.();
    this.timers.push(first, every);
  }

  get current(): DeviceState {
    return this.state;
  }

  private set(s: DeviceState): void {
    this.state = s;
    const v = statusView(s);
    this.item.text = v.text;
    this.item.tooltip = v.tooltip;
    this.item.backgroundColor = v.warning ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  /** Scans now (one at a time; never during a run, never untrusted). */
  refresh(reason: string): Promise<DeviceState> {
    if (!vscode.workspace.isTrusted) return Promise.resolve(this.state);
    if (this.service.busyWith) return Promise.resolve(this.state);
    this.checking ??= (async () => {
      const trust = await requireWorkspaceTrust('Hailo: device status', vscodeTrustHost(this.log));
      if (!trust) return this.state;
      let next: DeviceState;
      try {
        const scan = await this.service.scan(trust);
        next = stateFromScan(scan);
        // Files only, and the scan just made: whether the installed pieces agree.
        if (next.kind === 'present' || next.kind === 'none') next.setup = summary(await setupReport(this.service, this.log, scan));
      } catch (err) {
        next = stateFromScan({ error: asDeviceError(err) });
      }
      this.log.info(`device status (${reason}): ${statusView(next).text.replace(/\$\([^)]*\)\s*/, '')}`);
      if (!this.service.busyWith) this.set(next);
      return next;
    })().finally(() => (this.checking = undefined));
    return this.checking;
  }

  /** The click: identify what is attached (or why nothing is) and offer what to do next. */
  async showDetails(): Promise<void> {
    if (!vscode.workspace.isTrusted) {
      await requireWorkspaceTrust('Hailo: device details', vscodeTrustHost(this.log));
      return;
    }
    const s = this.service.busyWith ? this.state : await this.refresh('details');
    if (s.kind === 'hailort-missing' || s.kind === 'error' || s.kind === 'busy') {
      await this.runner.showFailure(s.error);
      return;
    }
    type Item = vscode.QuickPickItem & { run?: boolean; again?: boolean; setup?: boolean };
    const items: Item[] = [];
    const setup = s.kind === 'present' || s.kind === 'none' ? s.setup : undefined;
    if (setup && setup.errors + setup.warnings > 0)
      items.push({ label: `$(checklist) Check Setup: ${setup.errors} error(s), ${setup.warnings} warning(s)`, detail: setup.first, setup: true });
    if (s.kind === 'present' || s.kind === 'running') {
      for (const d of s.devices) {
        items.push({
          label: `$(circuit-board) ${d.architecture}  ${d.id}`,
          description: d.productName || d.boardName,
          detail: [
            d.firmware && `firmware ${d.firmware}`,
            d.serial && `serial ${d.serial}`,
            d.partNumber && `part ${d.partNumber}`,
            d.identifyError && `identify failed: ${d.identifyError.sentence}`,
          ]
            .filter(Boolean)
            .join(' · '),
        });
      }
      if (s.kind === 'present')
        items.push({ label: `HailoRT ${s.runtime.hailortVersion}${s.runtime.fake ? ' (FAKE test library)' : ''}`, detail: s.runtime.libraryPath });
      items.push({ label: '$(play) Run a HEF on the device…', run: true });
    } else {
      items.push({
        label: '$(circle-slash) No Hailo device was found',
        detail: 'Check that the Hailo device is connected and powered, and that "hailortcli scan" lists it.',
      });
    }
    if (!items.some((i) => i.setup))
      items.push({ label: '$(checklist) Check Setup…', detail: 'Driver, libhailort, firmware, Python wheel and HEFs side by side', setup: true });
    items.push({ label: '$(refresh) Check again', again: true });
    const picked = await vscode.window.showQuickPick(items, { title: 'Hailo device', placeHolder: statusView(s).tooltip.split('\n')[0] });
    if (picked?.run) await vscode.commands.executeCommand(RUN_COMMAND);
    else if (picked?.setup) await vscode.commands.executeCommand(CHECK_SETUP_COMMAND);
    else if (picked?.again) await this.showDetails();
  }

  dispose(): void {
    this.timers.forEach((t) => clearTimeout(t));
    this.item.dispose();
  }
}
