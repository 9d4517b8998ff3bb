// Hailo: Transcribe Audio — a WAV recording (from the explorer, the active editor or a pick of the
// workspace's .wav files) through a speech-to-text HEF (Whisper) on the device, with HailoRT's
// Speech2Text, in the extension's one device worker (DeviceConnection.clientFor → DeviceClient.transcribe).
// Trusted workspaces only. Which HEF: our reader classifies the workspace's HEFs first
// (classifySpeechFile) and only speech models are offered; the last one used is remembered per
// folder. The transcript opens as Markdown (every model and file string escaped), and goes into the
// chat panel's prompt box when one is open ("into the chat panel", issue 33).
import * as path from 'path';
import * as vscode from 'vscode';
import { classifySpeechFile, transcribeMarkdown, transcribeSummary, type DeviceError, type TranscribeResult } from '@hailo/api';
import { asDeviceError, type DeviceConnection } from '../device/deviceConnection';
import { showDeviceFailure } from '../device/failureActions';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { requireWorkspaceTrust } from '../security/workspaceTrust';
import { hailoSettings } from '../settings';
import type { ChatPanels } from './chatPanel';

export const TRANSCRIBE_COMMAND = 'hailo.transcribeAudio';
const TRANSCRIBE_ACTION = 'Hailo: Transcribe Audio';
const LAST_HEF_KEY = 'hailo.transcribe.lastHef';

/** The command's arguments: a .wav URI (explorer), or an object (tests, other commands). */
export interface TranscribeArgs {
  audio?: vscode.Uri;
  hef?: vscode.Uri;
  /** Put the transcript into the open chat without asking. */
  toChat?: boolean;
}

async function resolveAudio(arg: vscode.Uri | undefined): Promise<vscode.Uri | undefined> {
  if (arg) return arg;
  const editor = vscode.window.activeTextEditor?.document.uri;
  if (editor && editor.path.toLowerCase().endsWith('.wav')) return editor;
  const wavs = await vscode.workspace.findFiles('**/*.wav', '**/node_modules/**', 500);
  if (wavs.length === 0) {
    void vscode.window.showErrorMessage(
      'There is no .wav recording in this workspace to transcribe (convert others with `ffmpeg -i INPUT -ar 16000 -ac 1 OUTPUT.wav`).',
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    wavs
      .sort((a, b) => a.fsPath.localeCompare(b.fsPath))
      .map((uri) => ({ label: path.posix.basename(uri.path), description: vscode.workspace.asRelativePath(uri, false), uri })),
    { title: 'Transcribe which recording?', placeHolder: 'Type to filter the WAV files of this workspace' },
  );
  return picked?.uri;
}

export class Transcriber {
  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly log: vscode.LogOutputChannel,
    private readonly service: DeviceConnection,
    private readonly chats: ChatPanels,
  ) {}

  /** The speech HEFs of the workspace, by our reader (not HailoRT): certain ones first. */
  private async speechHefs(): Promise<{ uri: vscode.Uri; summary: string; certain: boolean }[]> {
    const hefs = await vscode.workspace.findFiles('**/*.hef', '**/node_modules/**', 500);
    const found: { uri: vscode.Uri; summary: string; certain: boolean }[] = [];
    for (const uri of hefs) {
      if (uri.scheme !== 'file') continue;
      const c = await classifySpeechFile(uri.fsPath).then(
        (r) => r.speech,
        () => undefined,
      );
      if (c?.speech) found.push({ uri, summary: c.summary, certain: c.confidence === 'certain' });
    }
    return found.sort((a, b) => Number(b.certain) - Number(a.certain) || a.uri.fsPath.localeCompare(b.uri.fsPath));
  }

  private async resolveHef(audio: vscode.Uri): Promise<vscode.Uri | undefined> {
    const found = await this.speechHefs();
    if (found.length === 0) {
      void vscode.window.showErrorMessage(
        "There is no speech-to-text HEF in this workspace: Speech2Text needs one with an encoder and a decoder network group (Hailo's Whisper-Base from the GenAI model zoo).",
      );
      return undefined;
    }
    const folder = vscode.workspace.getWorkspaceFolder(audio)?.uri.toString() ?? '';
    const last = this.context.workspaceState.get<Record<string, string>>(LAST_HEF_KEY, {})[folder];
    if (found.length === 1) return found[0].uri;
    const items = found.map((f) => ({
      label: path.posix.basename(f.uri.path),
      description: `${vscode.workspace.asRelativePath(f.uri, false)}${f.uri.toString() === last ? ' (last used)' : ''}`,
      detail: f.summary,
      uri: f.uri,
    }));
    items.sort((a, b) => Number(b.uri.toString() === last) - Number(a.uri.toString() === last));
    return (await vscode.window.showQuickPick(items, { title: `Transcribe ${path.posix.basename(audio.path)} with which speech model?` }))?.uri;
  }

  /** The command. Resolves with the result (undefined when it did not run or failed). */
  async transcribe(arg?: unknown): Promise<TranscribeResult | undefined> {
    const args: TranscribeArgs = arg instanceof vscode.Uri ? { audio: arg } : ((arg as TranscribeArgs | undefined) ?? {});
    const trust = await requireWorkspaceTrust(TRANSCRIBE_ACTION, vscodeTrustHost(this.log));
    if (!trust) return undefined;
    const audio = await resolveAudio(args.audio);
    if (!audio) return undefined;
    const hef = args.hef ?? (await this.resolveHef(audio));
    if (!hef) return undefined;
    for (const u of [audio, hef]) {
      if (u.scheme !== 'file') {
        void vscode.window.showErrorMessage(`${path.posix.basename(u.path)} is not on this machine's disk (${u.scheme}:); HailoRT opens local files only.`);
        return undefined;
      }
    }
    const folder = vscode.workspace.getWorkspaceFolder(audio)?.uri.toString() ?? '';
    await this.context.workspaceState.update(LAST_HEF_KEY, {
      ...this.context.workspaceState.get<Record<string, string>>(LAST_HEF_KEY, {}),
      [folder]: hef.toString(),
    });
    const settings = hailoSettings(audio);
    const names = { audio: path.posix.basename(audio.path), hef: path.posix.basename(hef.path) };
    let result: TranscribeResult;
    try {
      result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Transcribing ${names.audio} with ${names.hef}`, cancellable: true },
        (_progress, token) => {
          // The transcription is one blocking HailoRT call: cancelling stops the worker.
          const cancel = token.onCancellationRequested(() => this.service.reset());
          return this.service
            .clientFor(trust)
            .transcribe({
              hef: hef.fsPath,
              audio: audio.fsPath,
              task: settings.transcribe.task,
              language: settings.transcribe.language || undefined,
              groupId: hailoSettings(hef).device.groupId,
            })
            .finally(() => cancel.dispose());
        },
      );
    } catch (err) {
      const e = asDeviceError(err);
      this.log.error(`transcribe: ${audio.fsPath} with ${hef.fsPath}: [${e.kind}${e.status !== null ? ` ${e.status}` : ''}] ${e.message}`);
      void this.showFailure(e, hef, audio);
      return undefined;
    }
    this.log.info(`transcribe: ${audio.fsPath} with ${hef.fsPath}: ${transcribeSummary(result)}`);
    const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: transcribeMarkdown(result, names) });
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Beside });
    this.offerToChat(result, names.audio, args.toChat);
    return result;
  }

  private offerToChat(result: TranscribeResult, audioName: string, toChat?: boolean): void {
    const text = result.text.trim();
    const chat = this.chats.target();
    if (!text || !chat) return;
    const note = `The transcript of ${audioName} is in the prompt box: edit it, then Send.`;
    if (toChat) return chat.insert(text, note);
    // Offered, not awaited: the command is done when the transcript is shown.
    const send = 'Put into Chat';
    void vscode.window.showInformationMessage(`Transcribed ${audioName}: put the text into the chat with ${chat.name}?`, send).then((choice) => {
      if (choice === send) chat.insert(text, note);
    });
  }

  private async showFailure(err: DeviceError, hef: vscode.Uri, audio: vscode.Uri): Promise<void> {
    await showDeviceFailure(err, { log: this.log, hef, retry: () => vscode.commands.executeCommand(TRANSCRIBE_COMMAND, { audio, hef }) });
  }
}

export function registerTranscribe(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, service: DeviceConnection, chats: ChatPanels): Transcriber {
  const transcriber = new Transcriber(context, log, service, chats);
  context.subscriptions.push(vscode.commands.registerCommand(TRANSCRIBE_COMMAND, (arg?: unknown) => transcriber.transcribe(arg)));
  return transcriber;
}
