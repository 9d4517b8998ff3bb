// "Hailo: Check Setup": the doctor's table (server/src/core/doctor) for this machine and the first
// workspace folder, as a read-only Markdown document shown in the preview. Files only in
// Restricted Mode; in a trusted workspace the devices are asked too (identify, native code), unless
// a run holds them. The status bar uses `setupSummary` to turn to a warning when pieces disagree.
import * as vscode from 'vscode';
import { doctorCounts, doctorMarkdown, runDoctor, type DoctorReport, type ScanResult } from '@hailo/api';
import { asDeviceError, type DeviceConnection } from './deviceConnection';
import { requireWorkspaceTrust } from '../security/workspaceTrust';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { CHECK_SETUP_COMMAND } from './failures';
import type { SetupSummary } from './statusView';

export { CHECK_SETUP_COMMAND };
const SCHEME = 'hailo-setup';
const URI = vscode.Uri.from({ scheme: SCHEME, path: '/Hailo Setup.md' });

/** The doctor over the first workspace folder; `scan` when the caller already has one. */
export async function setupReport(service: DeviceConnection, log: vscode.LogOutputChannel, scan?: ScanResult, askDevices = true): Promise<DoctorReport> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (scan) return runDoctor({ folder, scan });
  if (!askDevices || !vscode.workspace.isTrusted)
    return runDoctor({ folder, noScanReason: 'Restricted Mode: the devices are asked only in a trusted workspace' });
  if (service.busyWith) return runDoctor({ folder, noScanReason: 'a run holds the device' });
  const trust = await requireWorkspaceTrust('Hailo: Check Setup', vscodeTrustHost(log));
  if (!trust) return runDoctor({ folder, noScanReason: 'the workspace is not trusted' });
  try {
    return await runDoctor({ folder, scan: await service.scan(trust) });
  } catch (err) {
    const error = asDeviceError(err);
    return runDoctor(error.kind === 'hailort-missing' ? { folder, noScanReason: error.sentence } : { folder, scan: { error } });
  }
}

export function summary(report: DoctorReport): SetupSummary {
  const { errors, warnings } = doctorCounts(report);
  return {
    errors,
    warnings,
    first: report.findings.find((f) => f.severity === 'error')?.sentence ?? report.findings.find((f) => f.severity === 'warning')?.sentence,
  };
}

export class CheckSetup implements vscode.Disposable, vscode.TextDocumentContentProvider {
  private text = '';
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly registration: vscode.Disposable;

  constructor(
    private readonly service: DeviceConnection,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.registration = vscode.workspace.registerTextDocumentContentProvider(SCHEME, this);
  }

  provideTextDocumentContent(): string {
    return this.text;
  }

  /** Runs the doctor and shows its report. */
  async show(): Promise<DoctorReport> {
    const report = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Hailo: checking the setup…' }, () =>
      setupReport(this.service, this.log),
    );
    this.text = doctorMarkdown(report);
    this.changed.fire(URI);
    const { errors, warnings } = doctorCounts(report);
    this.log.info(`check setup: ${errors} errors, ${warnings} warnings: ${report.findings.map((f) => f.code).join(', ') || 'the pieces agree'}`);
    try {
      await vscode.commands.executeCommand('markdown.showPreview', URI);
    } catch {
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(URI), { preview: true });
    }
    return report;
  }

  dispose(): void {
    this.registration.dispose();
    this.changed.dispose();
  }
}
