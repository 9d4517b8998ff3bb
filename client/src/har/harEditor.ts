// The HAR view: a readonly custom editor for *.har. The extension host reads the archive with the
// shared core (server/src/core/har: tar by position, the HN, the npz arrays, `<net>.noise.json`) and
// sends a rendered, escaped page (render.ts); the page (client/src/webview/pages/har.ts) posts clicks
// and the search text back, typed by client/src/webview/protocols/har.ts.
// From here: Analyze Layer Noise and Find First Divergent Layer (divergeCommand.ts; the DFC in its
// container, trusted workspaces only), Write 16-bit Line (into the script beside the HAR, checked by
// the `.alls` checker first), go to the ONNX node or tensor in the graph view, go to the script lines
// that name a layer; "Hailo: Show Layer in HAR View" comes back from a script.
import * as path from 'path';
import * as vscode from 'vscode';
import {
  analyzeNoise,
  findOnnxBeside,
  hostUser,
  divergenceSidecarPath,
  noiseSidecarPath,
  readHar,
  readHarView,
  scriptTarget,
  sixteenBitEdit,
  trustedLauncher,
  type HarViewDocument,
  FileRoots,
} from '@hailo/api';
import { requireWorkspaceTrust } from '../security/workspaceTrust';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { dockerSettings } from '../compile/settings';
import { hailoSettings } from '../settings';
import { copyJsonToClipboard, preparePanel, ReadonlyFileDocument, registerReadonlyEditor } from '../customEditor';
import { connectPage } from '../webview/channel';
import { showPage } from '../webview/showPage';
import { unhandled } from '../webview/protocol';
import { HAR_FROM_PAGE, type HarFromPage, type HarToPage } from '../webview/protocols/har';
import { openGraphView } from '../onnx/graphView';
import { activeHar, calibrationFor, scriptsBeside, targetScript } from './beside';
import { FIND_DIVERGENCE_COMMAND, registerDivergeCommand } from './divergeCommand';
import { pageOf, renderHarMessage, renderHarPage, scriptRefs, type HarPageModel } from './render';

export const HAR_VIEW_TYPE = 'hailo.harView';
export const ANALYZE_NOISE_COMMAND = 'hailo.analyzeNoise';
export const SHOW_LAYER_COMMAND = 'hailo.showLayerInHarView';

interface ViewState {
  query: string;
  page: number;
  focus?: string;
  banner?: HarPageModel['banner'];
  /** The last action's one line (e.g. "Wrote … into tinycnn.alls"): kept when the page is rebuilt. */
  status?: string;
}

export class HarViewProvider implements vscode.CustomReadonlyEditorProvider<ReadonlyFileDocument> {
  /** Open views by file, so "Show Layer in HAR View" can focus one. */
  private readonly views = new Map<string, { focus(layer: string): Promise<void>; render(): Promise<void> }>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  openCustomDocument(uri: vscode.Uri): ReadonlyFileDocument {
    return new ReadonlyFileDocument(uri);
  }

  async focus(harPath: string, layer: string): Promise<boolean> {
    const v = this.views.get(harPath);
    if (!v) return false;
    await v.focus(layer);
    return true;
  }

  async refresh(harPath: string, banner?: HarPageModel['banner']): Promise<void> {
    const v = this.views.get(harPath) as { render(b?: HarPageModel['banner']): Promise<void> } | undefined;
    await v?.render(banner);
  }

  async resolveCustomEditor(document: ReadonlyFileDocument, panel: vscode.WebviewPanel): Promise<void> {
    const { title, page } = preparePanel(this.context, panel, document.uri, 'har');
    const file = document.uri.fsPath;
    const extraStyleUri = panel.webview.asWebviewUri(vscode.Uri.joinPath(this.context.extensionUri, 'media', 'har.css')).toString();
    const state: ViewState = { query: '', page: 0 };
    let doc: HarViewDocument | undefined;
    let model: HarPageModel | undefined;

    const load = async () => {
      const started = Date.now();
      doc = await readHarView(file);
      const scripts = scriptsBeside(file).map((p) => {
        try {
          return { path: p, text: FileRoots.near(file).readText(p, 64 << 20) };
        } catch {
          return { path: p, text: '' };
        }
      });
      let onnx: string | undefined;
      try {
        onnx = findOnnxBeside(await readHar(file));
      } catch {
        onnx = undefined;
      }
      this.log.info(
        `har: read ${file} in ${Date.now() - started} ms (${doc.layers.length} layers${doc.noise ? `, ${doc.noise.layers.length} noise figures` : ''})`,
      );
      return { refs: scriptRefs(scripts, new Set(doc.layers.map((l) => l.name))), onnx };
    };
    let side: Awaited<ReturnType<typeof load>> | undefined;

    const show = () => {
      if (!doc || !side) return;
      model = {
        doc,
        title,
        query: state.query,
        page: state.page,
        focus: state.focus,
        refs: side.refs,
        onnx: side.onnx,
        banner: state.banner,
        status: state.status,
        extraStyleUri,
      };
      void showPage(panel, renderHarPage(model, page()), this.log, 'har');
    };
    const render = async (banner?: HarPageModel['banner']) => {
      if (document.uri.scheme !== 'file') {
        void showPage(panel, renderHarMessage(title, 'The HAR view reads local files only (it reads the archive by position).', page()), this.log, 'har');
        return;
      }
      try {
        side = await load();
        // A re-render for a changed file beside the HAR (the script just written, the sidecar a run
        // just saved) keeps the last run's banner and the last action's status: it used to wipe both
        // 300 ms after they appeared.
        if (banner) state.banner = banner;
        show();
      } catch (err) {
        this.log.warn(`har: cannot read ${file}: ${(err as Error)?.message ?? err}`);
        void showPage(panel, renderHarMessage(title, `Cannot read this archive: ${(err as Error)?.message ?? err}`, page()), this.log, 'har');
      }
    };
    const focus = async (layer: string) => {
      if (!doc) await render();
      if (!doc) return;
      state.query = '';
      state.focus = layer;
      state.page = pageOf(doc, '', layer);
      show();
      panel.reveal();
    };

    const disposables: vscode.Disposable[] = [];
    let timer: NodeJS.Timeout | undefined;
    const later = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void render(), 300);
    };
    if (document.uri.scheme === 'file') {
      const dir = vscode.Uri.file(path.dirname(file));
      const watchers = [path.basename(file), path.basename(noiseSidecarPath(file)), path.basename(divergenceSidecarPath(file)), '*.alls'].map((g) =>
        vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(dir, g)),
      );
      for (const w of watchers) disposables.push(w, w.onDidChange(later), w.onDidCreate(later), w.onDidDelete(later));
    }
    /** The last action's line: posted to the page and kept in the state, so a rebuilt page shows it too. */
    const status = (text: string) => {
      state.status = text;
      channel.post({ type: 'status', text });
    };
    const onMessage = async (msg: HarFromPage): Promise<void> => {
      if (!doc) return;
      switch (msg.type) {
        case 'ready':
          if (state.status) status(state.status);
          break;
        case 'copyJson':
          status(await copyJsonToClipboard(JSON.stringify(doc, null, 2)));
          break;
        case 'reload':
          await render();
          break;
        case 'search':
          state.query = msg.query.slice(0, 200);
          state.page = 0;
          state.focus = undefined;
          show();
          break;
        case 'pagePrev':
        case 'pageNext':
          state.page = Math.max(0, state.page + (msg.type === 'pageNext' ? 1 : -1));
          show();
          break;
        case 'focusNoise': {
          const l = doc.noise?.layers[msg.noise];
          if (l) await focus(l.name);
          break;
        }
        case 'openScript': {
          const s = side?.refs.scripts[msg.script];
          if (!s) return;
          const editor = await vscode.window.showTextDocument(vscode.Uri.file(s), { viewColumn: vscode.ViewColumn.Beside, preview: false });
          const pos = new vscode.Position(msg.line, 0);
          editor.selection = new vscode.Selection(pos, pos);
          editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenter);
          break;
        }
        case 'openOnnx': {
          const node = doc.layers[msg.layer]?.originalNames[msg.name];
          if (node && side?.onnx) await revealInGraph(side.onnx, node);
          break;
        }
        case 'openTensor': {
          const tensor = doc.divergence?.layers[msg.row]?.tensor;
          if (tensor && side?.onnx) await revealInGraph(side.onnx, tensor);
          break;
        }
        case 'focusDiverge': {
          const l = doc.divergence?.layers[msg.row];
          if (l && doc.layers.some((x) => x.name === l.layer)) await focus(l.layer);
          break;
        }
        case 'findDivergence':
          await vscode.commands.executeCommand(FIND_DIVERGENCE_COMMAND, document.uri);
          break;
        case 'analyzeNoise':
          await vscode.commands.executeCommand(ANALYZE_NOISE_COMMAND, document.uri);
          break;
        case 'writeSixteen': {
          const layers = doc.noise?.layers ?? [];
          const names = msg.noise.flatMap((i) => (layers[i] && !layers[i].unranked ? [layers[i].name] : []));
          await writeSixteen(file, doc, names, status);
          break;
        }
        default:
          unhandled(msg);
      }
    };
    const channel = connectPage<HarToPage, HarFromPage>(panel.webview, 'har', HAR_FROM_PAGE, this.log, async (msg) => {
      try {
        await onMessage(msg);
      } catch (err) {
        this.log.error(`har: ${(err as Error)?.stack ?? err}`);
        status(`That did not work: ${(err as Error)?.message ?? err}`);
      }
    });
    disposables.push(channel);
    this.views.set(file, { focus, render });
    panel.onDidDispose(() => {
      if (timer) clearTimeout(timer);
      this.views.delete(file);
      disposables.forEach((d) => d.dispose());
    });
    // The page is set once, when the archive is read: VS Code shows the editor's progress bar while
    // this promise is pending (showPage.ts: no page is replaced while it loads).
    await render();
  }
}

/** Opens the ONNX graph view beside and selects the first line naming `name` (a node or a tensor). */
async function revealInGraph(onnx: string, name: string): Promise<void> {
  const uri = await openGraphView(vscode.Uri.file(onnx), vscode.ViewColumn.Beside);
  const view = await vscode.workspace.openTextDocument(uri);
  const lines = view.getText().split('\n');
  const at = lines.findIndex((t) => t.includes(name));
  const editor = vscode.window.activeTextEditor;
  if (at >= 0 && editor?.document.uri.toString() === uri.toString()) {
    const col = lines[at].indexOf(name);
    editor.selection = new vscode.Selection(at, col, at, col + name.length);
    editor.revealRange(new vscode.Range(at, 0, at, 0), vscode.TextEditorRevealType.InCenter);
  }
}

/** Appends the 16-bit line to the script beside the HAR, after the `.alls` checker accepted it there. */
async function writeSixteen(har: string, doc: HarViewDocument, names: string[], status: (t: string) => void): Promise<void> {
  if (!names.length) {
    status('Check at least one layer first.');
    return;
  }
  const scripts = scriptsBeside(har);
  let script = targetScript(har, doc.network, scripts);
  if (!script && scripts.length > 1) {
    const pick = await vscode.window.showQuickPick(
      scripts.map((s) => ({ label: path.basename(s), s })),
      { title: 'The model script for the 16-bit line' },
    );
    script = pick?.s;
  }
  if (!script) {
    status(`No .alls model script beside ${path.basename(har)}: create one there, then write the line again.`);
    return;
  }
  const uri = vscode.Uri.file(script);
  const text = (await vscode.workspace.openTextDocument(uri)).getText();
  // Checked as the editor checks the script: its model and the architecture it targets (a HEF
  // beside it, its HAR, its folder, then hailo.hwArch), not only the hw_arch of this HAR.
  const settings = hailoSettings(uri);
  const target = await scriptTarget(script, { hwArch: settings.hwArch, harPath: settings.model.har, onnxPath: settings.model.onnx });
  const edit = sixteenBitEdit(text, names, target.check);
  if ('error' in edit) {
    status(`Not written: ${edit.error}.`);
    return;
  }
  const td = await vscode.workspace.openTextDocument(uri);
  const we = new vscode.WorkspaceEdit();
  we.insert(uri, td.positionAt(edit.offset), edit.insert);
  if (!(await vscode.workspace.applyEdit(we))) {
    status('VS Code did not apply the edit.');
    return;
  }
  await td.save();
  const editor = await vscode.window.showTextDocument(td, { viewColumn: vscode.ViewColumn.Beside, preview: false });
  const line = td.positionAt(edit.offset + edit.insert.indexOf('quantization_param')).line;
  editor.revealRange(new vscode.Range(line, 0, line, 0));
  status(`Wrote ${edit.line} into ${path.basename(script)} (line ${line + 1}); checked for ${target.arch.arch} (${target.arch.from}).`);
}

/** The layer name at the cursor of an `.alls` editor. */
function layerAtCursor(editor: vscode.TextEditor): string | undefined {
  const range = editor.document.getWordRangeAtPosition(editor.selection.active, /[A-Za-z_][\w/]*/);
  const word = range ? editor.document.getText(range) : undefined;
  return word?.slice(word.lastIndexOf('/') + 1);
}

export function registerHarView(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): HarViewProvider {
  const provider = new HarViewProvider(context, log);
  const output = vscode.window.createOutputChannel('Hailo Noise Analysis');
  context.subscriptions.push(
    output,
    // One editor per HAR: "Show Layer in HAR View" focuses the view kept by file.
    registerReadonlyEditor(HAR_VIEW_TYPE, provider, { multipleEditorsPerDocument: false }),
    vscode.commands.registerCommand(ANALYZE_NOISE_COMMAND, async (uri?: vscode.Uri) => {
      const trust = await requireWorkspaceTrust('Hailo: Analyze Layer Noise', vscodeTrustHost(log));
      if (!trust) return;
      let har = uri?.fsPath ?? activeHar();
      if (!har) {
        const picked = await vscode.window.showOpenDialog({
          title: 'The optimized HAR to analyse',
          filters: { HAR: ['har'] },
          canSelectMany: false,
          openLabel: 'Analyze',
        });
        har = picked?.[0]?.fsPath;
      }
      if (!har) return;
      const scope = vscode.Uri.file(har);
      const calibration = await calibrationFor(har, 'analyse on');
      if (!calibration) return;
      output.appendLine(`— noise analysis of ${har} on ${calibration}`);
      const outcome = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Hailo: Analyze Layer Noise (${path.basename(har)})`, cancellable: true },
        async (progress, token) => {
          const controller = new AbortController();
          token.onCancellationRequested(() => controller.abort());
          progress.report({ message: 'running the DFC in its container…' });
          return analyzeNoise({ har: har!, calibration: calibration!, hwArch: undefined }, dockerSettings(scope), {
            launch: trustedLauncher(trust),
            driverDir: path.join(context.extensionPath, 'driver'),
            user: hostUser(),
            signal: controller.signal,
            onOutput: (text) => output.append(text),
          });
        },
      );
      if (outcome.status === 'ok') {
        const r = outcome.report!;
        const text = r.chosen.length
          ? `Noise analysis done: ${r.chosen.length} layer(s) need more bits (${r.chosen.slice(0, 5).join(', ')}${r.chosen.length > 5 ? ', …' : ''}).`
          : `Noise analysis done: no layer at or below ${r.thresholdDb} dB.`;
        log.info(`noise: ${har}: ${r.layers.length} figures, ${r.chosen.length} chosen, saved ${outcome.resultsPath}`);
        await provider.refresh(har, { kind: 'ok', text });
        void vscode.window.showInformationMessage(text, 'Open HAR View').then(async (a) => {
          if (a) await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(har!), HAR_VIEW_TYPE);
        });
      } else if (outcome.status !== 'cancelled') {
        log.warn(`noise: ${har}: ${outcome.message}`);
        await provider.refresh(har, { kind: 'bad', text: outcome.message ?? 'The noise analysis failed.' });
        void vscode.window.showErrorMessage(outcome.message ?? 'The noise analysis failed.', 'Show Output').then((a) => a && output.show());
      }
    }),
    registerDivergeCommand(
      context,
      log,
      output,
      (har, banner) => provider.refresh(har, banner),
      (har) => vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(har), HAR_VIEW_TYPE),
    ),
    vscode.commands.registerCommand(SHOW_LAYER_COMMAND, async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor) return;
      const layer = layerAtCursor(editor);
      const script = editor.document.uri.fsPath;
      const hars = FileRoots.of([path.dirname(script)])
        .listOrEmpty(path.dirname(script))
        .filter((f) => f.toLowerCase().endsWith('.har'));
      const setting = hailoSettings(editor.document.uri).model.har;
      const base = path.basename(script, '.alls');
      const pick = setting
        ? path.resolve(path.dirname(script), setting)
        : path.join(path.dirname(script), hars.find((h) => h.replace(/\.har$/i, '') === base) ?? hars.find((h) => h.startsWith(base)) ?? hars[0] ?? '');
      if (!pick.toLowerCase().endsWith('.har')) {
        void vscode.window.showInformationMessage(`No .har beside ${path.basename(script)} (or set hailo.model.har).`);
        return;
      }
      await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(pick), HAR_VIEW_TYPE, vscode.ViewColumn.Beside);
      if (layer) await provider.focus(pick, layer);
    }),
  );
  return provider;
}
