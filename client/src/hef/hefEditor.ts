// The HEF inspector: a readonly custom editor for *.hef. The extension host reads the file with
// the shared HEF core (positional reads, streamed checksums) and sends a fully rendered, escaped
// page to the webview (render.ts); the page (client/src/webview/pages/hef.ts) only posts button
// clicks back, typed by client/src/webview/protocols/hef.ts.
import * as path from 'path';
import * as vscode from 'vscode';
import {
  bufferSource,
  checkMtmdSource,
  fileSource,
  hefJson,
  inspectHefNms,
  readHef,
  readResource,
  setOpenedFolders,
  HefRescanNotification,
  HAILO_CONFIG,
  type ByteSource,
} from '@hailo/api';
import type { LanguageClient } from 'vscode-languageclient/node';
import { hailoSettings } from '../settings';
import { renderInspector, renderMessage } from './render';
import { copyJsonToClipboard, preparePanel, ReadonlyFileDocument, registerReadonlyEditor } from '../customEditor';
import { connectPage } from '../webview/channel';
import { showPage } from '../webview/showPage';
import { unhandled } from '../webview/protocol';
import { HEF_FROM_PAGE, type HefFromPage, type HefToPage } from '../webview/protocols/hef';

export const HEF_VIEW_TYPE = 'hailo.hefInspector';
/** client/src/device/runOnDevice.ts registers it (a string here: no import cycle). */
const RUN_ON_DEVICE_COMMAND = 'hailo.runOnDevice';

async function openSource(uri: vscode.Uri): Promise<ByteSource> {
  if (uri.scheme === 'file') return fileSource(uri.fsPath);
  // Remote or virtual file systems: no positional reads through the API, so read it once.
  return bufferSource(await vscode.workspace.fs.readFile(uri), uri.toString());
}

export class HefInspectorProvider implements vscode.CustomReadonlyEditorProvider<ReadonlyFileDocument> {
  private readonly live = new Set<() => Promise<void>>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  openCustomDocument(uri: vscode.Uri): ReadonlyFileDocument {
    return new ReadonlyFileDocument(uri);
  }

  /** Re-render every open inspector (settings changed). */
  async refreshAll(): Promise<void> {
    await Promise.all([...this.live].map((r) => r()));
  }

  async resolveCustomEditor(document: ReadonlyFileDocument, panel: vscode.WebviewPanel): Promise<void> {
    const { title, page } = preparePanel(this.context, panel, document.uri, 'hef');
    let json = '';

    const render = async () => {
      const started = Date.now();
      let src: ByteSource | undefined;
      try {
        src = await openSource(document.uri);
        const settings = hailoSettings(document.uri);
        const report = await readHef(src);
        const mtmd = await checkMtmdSource(src, report, {
          textModelWidth: settings.mtmd.textModelWidth ?? undefined,
          hefPath: document.uri.fsPath || document.uri.toString(),
        });
        const cfg = await readResource(src, report.externalResources, HAILO_CONFIG, 1 << 20);
        const configText = 'bytes' in cfg ? new TextDecoder('utf-8').decode(cfg.bytes) : undefined;
        json = JSON.stringify(hefJson(report, mtmd), null, 2);
        // The script, NMS config and labels file beside the HEF (files only: not for virtual documents).
        // Paths in those files are followed only inside the workspace folders (and the script's own folder).
        setOpenedFolders((vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath));
        const nms = document.uri.scheme === 'file' ? await inspectHefNms(document.uri.fsPath, settings.model.labels) : undefined;
        void showPage(
          panel,
          renderInspector({ report, mtmd, configText, title, targetArch: settings.hwArch, ...(nms ? { nms } : {}) }, page()),
          this.log,
          'hef',
        );
        this.log.info(
          `hef: inspected ${document.uri.toString()} in ${Date.now() - started} ms (${report.problems.length} problems, contract ${mtmd.pass ? 'passes' : 'fails'})`,
        );
      } catch (err) {
        this.log.error(`hef: cannot inspect ${document.uri.toString()}: ${(err as Error)?.stack ?? err}`);
        void showPage(panel, renderMessage(title, `Cannot read this file: ${(err as Error)?.message ?? err}`, page()), this.log, 'hef');
      } finally {
        await src?.close();
      }
    };

    const disposables: vscode.Disposable[] = [];
    let timer: NodeJS.Timeout | undefined;
    const later = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void render(), 300);
    };
    if (document.uri.scheme === 'file') {
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.joinPath(document.uri, '..'), path.basename(document.uri.fsPath)),
      );
      disposables.push(watcher, watcher.onDidChange(later), watcher.onDidCreate(later));
    }
    const channel = connectPage<HefToPage, HefFromPage>(panel.webview, 'hef', HEF_FROM_PAGE, this.log, async (msg) => {
      switch (msg.type) {
        case 'copyJson':
          channel.post({ type: 'status', text: await copyJsonToClipboard(json) });
          break;
        case 'reload':
          await render();
          break;
        case 'runOnDevice':
          // The command itself asks for workspace trust and the run options.
          await vscode.commands.executeCommand(RUN_ON_DEVICE_COMMAND, document.uri);
          break;
        default:
          unhandled(msg);
      }
    });
    disposables.push(channel);
    this.live.add(render);
    panel.onDidDispose(() => {
      if (timer) clearTimeout(timer);
      this.live.delete(render);
      disposables.forEach((d) => d.dispose());
    });
    // The page is set once, when the file is read: VS Code shows the editor's progress bar while
    // this promise is pending (showPage.ts: no page is replaced while it loads).
    await render();
  }
}

/**
 * Registers the inspector; open inspectors re-render when `hailo.hef.*`, `hailo.mtmd.*` or
 * `hailo.hwArch` change (the language server re-checks the workspace's HEFs by itself).
 */
export function registerHefInspector(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): HefInspectorProvider {
  const provider = new HefInspectorProvider(context, log);
  context.subscriptions.push(
    registerReadonlyEditor(HEF_VIEW_TYPE, provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('hailo.hef') || e.affectsConfiguration('hailo.mtmd') || e.affectsConfiguration('hailo.hwArch')) {
        provider.refreshAll().catch((err: unknown) => log.error(`hef: re-rendering the inspectors failed: ${(err as Error)?.stack ?? err}`));
      }
    }),
  );
  return provider;
}

export const RECHECK_HEFS_COMMAND = 'hailo.recheckHefFiles';

/**
 * "Hailo: Re-check HEF Files": the language server checks every workspace HEF again and publishes
 * each result (HefRescanNotification) — after a build wrote several, or where file events are lost.
 */
export function registerHefRecheck(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, client: () => LanguageClient | undefined): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(RECHECK_HEFS_COMMAND, async () => {
      const c = client();
      if (!c) {
        log.warn('hef: the language server is not running; nothing re-checked');
        return false;
      }
      await c.sendNotification(HefRescanNotification, {});
      log.info('hef: asked the language server to re-check every workspace HEF');
      return true;
    }),
  );
}
