// "Hailo: Chat with Model": a webview chat with an LLM or VLM HEF on the device, through the
// extension's one device worker (DeviceConnection.clientFor → ChatSession). Trusted workspaces only:
// opening the model loads native HailoRT. One panel per HEF; the host keeps the conversation (the
// page is re-sent the whole transcript when it is shown again, and the panel retains its context
// when hidden). The page shell is rendered and escaped by chatRender.ts under a nonce CSP; the
// model's text reaches the page only as messages: answers as Markdown built from allowed elements
// with createElement/textContent (chatMarkdown.ts, client/src/webview/pages/chat.ts), the rest as text. Links
// it asks to open are checked again here (http(s) only) before vscode.env.openExternal.
import * as path from 'path';
import * as vscode from 'vscode';
import {
  ChatSession,
  classifyGenAiFile,
  decodeContextFile,
  encodeContextFile,
  FrameError,
  imageToFrame,
  transcriptMarkdown,
  turnMessages,
  type Answer,
  type ChatContext,
  type DeviceError,
  type Frame,
  type GeneratorParams,
  type TranscriptTurn,
} from '@hailo/api';
import { hailoSettings } from '../settings';
import { vscodeTrustHost } from '../security/vscodeTrustHost';
import { requireWorkspaceTrust } from '../security/workspaceTrust';
import { asDeviceError, type DeviceConnection } from '../device/deviceConnection';
import { showDeviceFailure } from '../device/failureActions';
import { resolveHef } from '../device/runOnDevice';
import { answerInfo, readParams } from './chatForm';
import { externalLink } from './links';
import { renderChat } from './chatRender';
import { pageOptions, pageRoots } from '../webview/assets';
import { connectPage, type HostChannel } from '../webview/channel';
import { showPage } from '../webview/showPage';
import type { PageOptions } from '../webview/html';
import { unhandled } from '../webview/protocol';
import { CHAT_FROM_PAGE, type ChatFromPage, type ChatToPage, type TurnView } from '../webview/protocols/chat';

export const CHAT_COMMAND = 'hailo.chatWithModel';
export const CHAT_VIEW_TYPE = 'hailo.chat';
const CHAT_ACTION = 'Hailo: Chat with Model';
/** Images and saved contexts above this are refused before they are read. */
const MAX_IMAGE_BYTES = 64 << 20;
const MAX_CONTEXT_BYTES = 1 << 30;
/** A code block copied from an answer (answers are far smaller; the page's message is input). */
const MAX_COPY_CHARS = 1 << 20;

export class ChatPanel {
  session: ChatSession | undefined;
  private turns: TurnView[] = [];
  private transcript: TranscriptTurn[] = [];
  private images: { name: string; frame: Frame }[] = [];
  private lastParams: GeneratorParams = {};
  private generating = false;
  private readonly channel: HostChannel<ChatToPage>;

  constructor(
    readonly hef: vscode.Uri,
    readonly panel: vscode.WebviewPanel,
    private readonly owner: ChatPanels,
  ) {
    this.channel = connectPage<ChatToPage, ChatFromPage>(panel.webview, `chat ${hef.fsPath}`, CHAT_FROM_PAGE, owner.log, (m) => this.onMessage(m));
  }

  get name(): string {
    return path.posix.basename(this.hef.path);
  }

  private post(message: ChatToPage): void {
    this.channel.post(message);
  }

  status(text: string, error = false): void {
    this.post({ type: 'status', text, error });
  }

  /** Puts text into the prompt box (not sent); `note` goes to the status line. */
  insert(text: string, note: string): void {
    this.panel.reveal(undefined, false);
    this.post({ type: 'insert', text, note });
  }

  show(session: ChatSession): void {
    this.session = session;
    void showPage(this.panel, renderChat({ name: this.name, info: session.info }, this.owner.page(this.panel)), this.owner.log, 'chat');
  }

  private async onMessage(m: ChatFromPage): Promise<void> {
    try {
      switch (m.type) {
        case 'ready':
          this.post({ type: 'restore', turns: this.turns, busy: this.generating });
          this.postImages();
          if (this.session?.info.context) this.postContext(this.session.info.context);
          break;
        case 'params':
          this.post({ type: 'paramErrors', errors: readParams(m.params).errors });
          break;
        case 'ask':
          await this.ask(m.text, m.params, m.system);
          break;
        case 'stop':
          await this.session?.stop();
          break;
        case 'clear':
          await this.clear();
          break;
        case 'save':
          await this.saveContext();
          break;
        case 'load':
          await this.loadContext();
          break;
        case 'export':
          await this.exportTranscript();
          break;
        case 'attach':
          await this.attach();
          break;
        case 'dropImage':
          this.addImage(path.basename(m.name), Buffer.from(m.base64, 'base64'));
          break;
        case 'openLink': {
          // The page offers only http(s) links; a message claiming otherwise is refused here too.
          const url = externalLink(m.url);
          if (url) await vscode.env.openExternal(vscode.Uri.parse(url, true));
          else this.owner.log.warn(`chat ${this.hef.fsPath}: refused to open a link that is not http(s): ${String(m.url).slice(0, 200)}`);
          break;
        }
        case 'copy':
          if (m.text.length <= MAX_COPY_CHARS) {
            await vscode.env.clipboard.writeText(m.text);
            this.post({ type: 'copied', id: m.id });
          }
          break;
        case 'removeImage':
          this.images.splice(m.index, 1);
          this.postImages();
          break;
        default:
          unhandled(m);
      }
    } catch (err) {
      const e = asDeviceError(err);
      this.owner.log.error(`chat ${this.hef.fsPath}: [${e.kind}] ${e.message}`);
      this.status(e.sentence, true);
    }
  }

  private postContext(c: ChatContext | null): void {
    if (c) this.post({ type: 'context', usage: c.usage, capacity: c.capacity });
  }

  private postImages(): void {
    this.post({ type: 'images', items: this.images.map((i) => i.frame.description) });
  }

  private addImage(name: string, bytes: Uint8Array): void {
    const frame = this.session?.info.frame;
    if (!frame) {
      this.status('This model is an LLM: it takes text only.', true);
      return;
    }
    if (bytes.length > MAX_IMAGE_BYTES) {
      this.status(`${name} is ${Math.round(bytes.length / 2 ** 20)} MiB; images above ${MAX_IMAGE_BYTES >> 20} MiB are refused.`, true);
      return;
    }
    try {
      this.images.push({ name, frame: imageToFrame(bytes, name, frame) });
      this.status('');
    } catch (err) {
      if (!(err instanceof FrameError)) throw err;
      this.status(`${err.message.charAt(0).toUpperCase()}${err.message.slice(1)}.`, true);
    }
    this.postImages();
  }

  private async attach(): Promise<void> {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: true,
      filters: { Images: ['png', 'jpg', 'jpeg'] },
      openLabel: 'Attach',
      title: `Images for ${this.name}`,
    });
    for (const uri of picked ?? []) {
      const stat = await vscode.workspace.fs.stat(uri);
      const name = path.posix.basename(uri.path);
      if (stat.size > MAX_IMAGE_BYTES) {
        this.status(`${name} is ${Math.round(stat.size / 2 ** 20)} MiB; images above ${MAX_IMAGE_BYTES >> 20} MiB are refused.`, true);
        continue;
      }
      this.addImage(name, await vscode.workspace.fs.readFile(uri));
    }
  }

  private async ask(text: string, rawParams: unknown, system: string): Promise<void> {
    const session = this.session;
    if (!session || this.generating) return;
    const { params, errors } = readParams(rawParams);
    this.post({ type: 'paramErrors', errors });
    if (Object.keys(errors).length) {
      this.status(`${Object.values(errors)[0]}.`, true);
      return;
    }
    if (!text.trim() && this.images.length === 0) return;
    const images = this.images.splice(0);
    this.postImages();
    // The system prompt belongs at the start of a context; later turns send only their message.
    const fresh = !this.turns.some((t) => t.role === 'user');
    const sys = fresh && system.trim() ? system : undefined;
    const user: TurnView = { role: 'user', text, ...(images.length ? { images: images.map((i) => i.name) } : {}) };
    if (sys) {
      this.turns.push({ role: 'system', text: sys });
      this.transcript.push({ role: 'system', text: sys });
      this.post({ type: 'turn', turn: { role: 'system', text: sys } });
    }
    this.turns.push(user);
    this.transcript.push({ role: 'user', text, ...(user.images ? { images: user.images } : {}) });
    this.post({ type: 'turn', turn: user });
    this.status('');
    const answer: TurnView = { role: 'assistant', text: '' };
    this.turns.push(answer);
    this.generating = true;
    this.lastParams = params;
    this.post({ type: 'start' });
    let a: Answer;
    try {
      a = await session.ask({ messages: turnMessages(text, images.length, sys), frames: images.map((i) => i.frame.bytes), params }, (chunk) => {
        answer.text += chunk;
        this.post({ type: 'chunk', text: chunk });
      });
    } catch (err) {
      const e = asDeviceError(err);
      answer.info = e.sentence;
      answer.failed = true;
      this.transcript.push({ role: 'assistant', text: answer.text, reason: 'error', error: e.sentence });
      this.post({ type: 'end', info: e.sentence, failed: true });
      this.owner.log.error(`chat ${this.hef.fsPath}: [${e.kind}] ${e.message}`);
      return;
    } finally {
      this.generating = false;
    }
    answer.text = a.text;
    answer.info = answerInfo(a);
    answer.failed = !!a.error;
    this.transcript.push({
      role: 'assistant',
      text: a.text,
      reason: a.reason,
      stats: { ...a.stats, hostFirstTokenMs: a.host.firstTokenMs, tokensPerSecond: a.host.tokensPerSecond },
      ...(a.error ? { error: a.error.sentence } : {}),
    });
    this.post({ type: 'end', info: answer.info, failed: answer.failed });
    this.postContext(a.context);
    if (a.error) this.owner.log.error(`chat ${this.hef.fsPath}: [${a.error.kind}] ${a.error.message}`);
    await this.postHealth(session);
  }

  /** The devices' state and the session's rates under the chat, with warnings before the model fails. */
  private async postHealth(session: ChatSession): Promise<void> {
    const h = await session.health();
    if (h.unavailable) this.owner.log.info(`chat ${this.hef.fsPath}: device state unavailable: ${h.unavailable}`);
    for (const w of h.warnings) this.owner.log.warn(`chat ${this.hef.fsPath}: ${w}`);
    this.post({ type: 'health', line: h.line, warnings: h.warnings });
  }

  private async clear(): Promise<void> {
    if (!this.session || this.generating) return;
    const c = await this.session.clear();
    this.turns = [];
    this.transcript = [];
    this.post({ type: 'restore', turns: [], busy: false });
    this.postContext(c);
    this.status('The conversation was cleared (the device context too).');
  }

  private async saveContext(): Promise<void> {
    if (!this.session || this.generating) return;
    const stem = path.posix.basename(this.hef.path, '.hef');
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(this.hef, '..', `${stem}.chat-context`),
      filters: { 'Chat context': ['chat-context'] },
      saveLabel: 'Save Context',
      title: 'Save the conversation context (HailoRT save_context)',
    });
    if (!target) return;
    const blob = await this.session.save();
    const i = this.session.info;
    const bytes = encodeContextFile(
      { hef: this.name, kind: i.kind, ...(i.lora ? { lora: i.lora } : {}), savedAt: new Date().toISOString(), usage: i.context?.usage, turns: this.transcript },
      blob,
    );
    // One write: a failure leaves no half-written file.
    await vscode.workspace.fs.writeFile(target, bytes);
    this.status(`Saved the context (${bytes.length.toLocaleString('en-US')} bytes) to ${target.fsPath || target.toString()}.`);
  }

  private async loadContext(): Promise<void> {
    if (!this.session || this.generating) return;
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      filters: { 'Chat context': ['chat-context'], 'All files': ['*'] },
      openLabel: 'Load Context',
      title: 'Load a saved conversation context',
    });
    const uri = picked?.[0];
    if (!uri) return;
    const name = path.posix.basename(uri.path);
    const stat = await vscode.workspace.fs.stat(uri);
    if (stat.size > MAX_CONTEXT_BYTES) {
      this.status(`${name} is ${Math.round(stat.size / 2 ** 20)} MiB; a saved context is far smaller, so it is not loaded.`, true);
      return;
    }
    const decoded = decodeContextFile(await vscode.workspace.fs.readFile(uri));
    if ('error' in decoded) {
      this.status(`${name} cannot be loaded: ${decoded.error}.`, true);
      return;
    }
    if (decoded.header && decoded.header.kind !== this.session.info.kind) {
      this.status(
        `${name} was saved from ${decoded.header.kind.toUpperCase()} ${decoded.header.hef}, and this model is an ${this.session.info.kind.toUpperCase()}; it was not loaded.`,
        true,
      );
      return;
    }
    const c = await this.session.load(decoded.blob);
    this.transcript = decoded.header?.turns ?? [];
    this.turns = this.transcript.map((t) => ({ role: t.role, text: t.text, ...(t.images ? { images: t.images } : {}) }));
    this.post({ type: 'restore', turns: this.turns, busy: false });
    this.postContext(c);
    this.status(`Loaded ${name}${decoded.header ? ` (saved ${decoded.header.savedAt} from ${decoded.header.hef})` : ''}.`);
  }

  private async exportTranscript(): Promise<void> {
    const i = this.session?.info;
    if (!i) return;
    const stem = path.posix.basename(this.hef.path, '.hef');
    const target = await vscode.window.showSaveDialog({
      defaultUri: vscode.Uri.joinPath(this.hef, '..', `${stem}.chat.md`),
      filters: { Markdown: ['md'] },
      saveLabel: 'Export',
      title: 'Export the conversation as Markdown',
    });
    if (!target) return;
    const md = transcriptMarkdown({
      hef: this.hef.fsPath,
      kind: i.kind,
      lora: i.lora || undefined,
      params: this.lastParams,
      turns: this.transcript,
      at: new Date().toISOString(),
    });
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(md));
    this.status(`Exported the transcript to ${target.fsPath || target.toString()}.`);
  }

  async close(): Promise<void> {
    const s = this.session;
    this.session = undefined;
    await s?.close().catch((err) => this.owner.log.warn(`chat ${this.hef.fsPath}: close: ${(err as Error)?.message ?? err}`));
  }
}

export class ChatPanels implements vscode.Disposable {
  private readonly open = new Map<string, ChatPanel>();
  private readonly loading = new Set<string>();

  constructor(
    private readonly context: vscode.ExtensionContext,
    readonly log: vscode.LogOutputChannel,
    private readonly service: DeviceConnection,
  ) {}

  page(panel: vscode.WebviewPanel): PageOptions {
    return pageOptions(panel.webview, this.context.extensionUri, 'chat.css', 'chat');
  }

  /** The command. Resolves when the chat is shown (or could not be opened). */
  async chat(arg?: unknown): Promise<void> {
    const trust = await requireWorkspaceTrust(CHAT_ACTION, vscodeTrustHost(this.log));
    if (!trust) return;
    const hef = await resolveHef(arg, { none: 'There is no .hef file in this workspace to chat with.', title: 'Chat with which LLM or VLM HEF?' });
    if (!hef) return;
    if (hef.scheme !== 'file') {
      void vscode.window.showErrorMessage(`${path.posix.basename(hef.path)} is not on this machine's disk (${hef.scheme}:); HailoRT opens local files only.`);
      return;
    }
    const key = hef.toString();
    const existing = this.open.get(key);
    if (existing) {
      existing.panel.reveal();
      return;
    }
    // A load of this HEF already under way: its progress notification shows it; the panel opens when it is done.
    if (this.loading.has(key)) return;
    const name = path.posix.basename(hef.path);
    // A HEF with LoRA adapters (<name>__prefill groups): which one (our reader says, before HailoRT loads anything).
    let lora = '';
    const loras = await classifyGenAiFile(hef.fsPath).then(
      (c) => c.genai.loras,
      () => [] as string[],
    );
    if (loras.length) {
      const picked = await vscode.window.showQuickPick(
        [{ label: 'Base model', lora: '' }, ...loras.map((l) => ({ label: l, description: 'LoRA adapter', lora: l }))],
        { title: `${name} carries LoRA adapters: chat with which?` },
      );
      if (!picked) return;
      lora = picked.lora;
    }
    // The panel is made once the model is loaded and gets its page once (a webview whose page is replaced while
    // it still loads can keep the old one: ../webview/showPage.ts), so no loading page is shown in it — the
    // progress notification says the model is loading.
    this.loading.add(key);
    try {
      const session = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: `Loading ${name} onto the device (a GenAI HEF is gigabytes: this can take minutes the first time)`,
        },
        () => ChatSession.open(this.service.clientFor(trust), { hef: hef.fsPath, lora, groupId: hailoSettings(hef).device.groupId }),
      );
      const panel = vscode.window.createWebviewPanel(
        CHAT_VIEW_TYPE,
        `Chat: ${name}`,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
        {
          enableScripts: true,
          localResourceRoots: pageRoots(this.context.extensionUri),
          retainContextWhenHidden: true,
        },
      );
      const entry = new ChatPanel(hef, panel, this);
      this.open.set(key, entry);
      panel.onDidDispose(() => {
        this.open.delete(key);
        void entry.close();
      });
      entry.show(session);
      this.log.info(`chat: opened ${hef.fsPath} (${session.info.kind}, HailoRT ${session.info.runtime.hailortVersion})`);
    } catch (err) {
      const e = asDeviceError(err);
      this.log.error(`chat: ${hef.fsPath}: [${e.kind}${e.status !== null ? ` ${e.status}` : ''}] ${e.message}`);
      void this.showFailure(e, hef);
    } finally {
      this.loading.delete(key);
    }
  }

  private async showFailure(err: DeviceError, hef: vscode.Uri): Promise<void> {
    await showDeviceFailure(err, { log: this.log, hef, retry: () => vscode.commands.executeCommand(CHAT_COMMAND, hef) });
  }

  /** The chat a transcript goes into: the active one, else the last opened with a model loaded. */
  target(): ChatPanel | undefined {
    const ready = [...this.open.values()].filter((p) => p.session);
    return ready.find((p) => p.panel.active) ?? ready[ready.length - 1];
  }

  dispose(): void {
    for (const p of this.open.values()) p.panel.dispose();
    this.open.clear();
  }
}

/** Registers the command; `service` is the device half's (one worker for runs and chats). */
export function registerChat(context: vscode.ExtensionContext, log: vscode.LogOutputChannel, service: DeviceConnection): ChatPanels {
  const panels = new ChatPanels(context, log, service);
  context.subscriptions.push(
    panels,
    vscode.commands.registerCommand(CHAT_COMMAND, (arg?: unknown) => panels.chat(arg)),
  );
  return panels;
}
