// DeviceConnection: the extension's one connection to the device worker — its DeviceClient
// (server/src/processes/device/client.ts: the crash-isolated worker that loads HailoRT), created
// on first use with a TrustToken and the settings, recreated when the HailoRT setting changes or
// a run is cancelled (cancelling kills the worker: HailoRT releases the device when its process
// ends). Knows whether a run is in progress, for the status bar.
import * as vscode from 'vscode';
import { hailoSettings } from '../settings';
import {
  DeviceClient,
  type DeviceClientEvent,
  type DeviceError,
  DeviceRequestError,
  errorFromKind,
  type RunOptions,
  type RunReport,
  type ScanResult,
} from '@hailo/api';
import type { TrustToken } from '../security/workspaceTrust';

/** Any failure of a device request, as the DeviceError the UI explains. */
export function asDeviceError(err: unknown): DeviceError {
  if (err instanceof DeviceRequestError) return err.error;
  return errorFromKind('hailort-error', err instanceof Error ? err.message : String(err));
}

export class DeviceConnection implements vscode.Disposable {
  private client: DeviceClient | undefined;
  private running: string | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly progress = new Set<(e: DeviceClientEvent) => void>();
  /** Fires when a run starts or ends. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {
    context.subscriptions.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('hailo.hailort')) this.reset();
      }),
    );
  }

  /** The HEF being run, if any. */
  get busyWith(): string | undefined {
    return this.running;
  }

  private get(trust: TrustToken): DeviceClient {
    if (this.client) return this.client;
    const root = hailoSettings().hailort.path;
    this.client = new DeviceClient({
      trust,
      hailortRoot: root || undefined,
      // HailoRT's own log goes to the extension's log folder, never into the workspace.
      hailortLogDir: this.context.logUri.fsPath,
      onEvent: (e) => {
        if (e.type === 'stderr') this.log.debug(`device worker: ${e.line}`);
        else if (e.type === 'build') this.log.info(`device: ${e.message}`);
        else if (e.type === 'crash') this.log.error(`device worker crashed (${e.restarts}): ${e.error.message}`);
        for (const l of this.progress) l(e);
      },
    });
    return this.client;
  }

  /** The shared worker client, for other features that talk to the device (Compare Accuracy). */
  clientFor(trust: TrustToken): DeviceClient {
    return this.get(trust);
  }

  scan(trust: TrustToken): Promise<ScanResult> {
    return this.get(trust).scan();
  }

  /** One run; `token` cancels it by stopping the worker. Progress events go to `onProgress`. */
  async run(trust: TrustToken, options: RunOptions, onProgress: (e: DeviceClientEvent) => void, token: vscode.CancellationToken): Promise<RunReport> {
    const client = this.get(trust);
    this.running = options.hef;
    this.changed.fire();
    this.progress.add(onProgress);
    const cancel = token.onCancellationRequested(() => {
      this.log.info(`device: run of ${options.hef} cancelled; stopping the worker`);
      this.reset();
    });
    try {
      return await client.run(options);
    } finally {
      cancel.dispose();
      this.progress.delete(onProgress);
      this.running = undefined;
      this.changed.fire();
    }
  }

  /** Stops the worker; the next request starts a fresh one. */
  reset(): void {
    const c = this.client;
    this.client = undefined;
    c?.dispose();
  }

  dispose(): void {
    this.reset();
    this.changed.dispose();
  }
}
