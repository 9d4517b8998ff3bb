// The chat page's script (bundled to dist/webview/chat.js, loaded by nonce). Everything the model,
// the user or a file wrote is put on the page with textContent or createElement — never innerHTML —
// so an answer with <script> or <img onerror> is shown as text. Answers are Markdown: parsed into a
// tree of allowed elements (client/src/genai/chatMarkdown.ts) and built here, re-built while the
// answer streams (at most every RENDER_EVERY_MS). A link is opened by the host (openExternal, after
// it validates the address again); a code block's Copy button asks the host to copy. The host
// (client/src/genai/chatPanel.ts; messages: ../protocols/chat.ts) owns the conversation: it validates parameters with HailoRT's
// ranges, talks to the device worker and re-sends the whole transcript when the page is (re)loaded,
// so nothing is lost when it is hidden.
import { markdownTree, MD_TAGS, type MdNode } from '../../genai/chatMarkdown';
import { unhandled } from '../protocol';
import type { ChatFromPage, ChatToPage, TurnView } from '../protocols/chat';
import { connectHost } from './lib/channel';

/** A streaming answer is re-rendered at most this often (each render parses the whole answer). */
const RENDER_EVERY_MS = 80;

const vscode = connectHost<ChatToPage, ChatFromPage>();
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;
const log = $('log')!;
const status = $('status')!;
const prompt = $<HTMLTextAreaElement>('prompt')!;
const send = $<HTMLButtonElement>('send')!;
const stop = $<HTMLButtonElement>('stop')!;
let current: HTMLElement | undefined;
/** The Markdown of the answer that streams into `current`. */
let currentText = '';
let renderTimer: number | undefined;
let copies = 0;
let busy = false;

/** Builds the tree on the page: only allowed tags, only the attributes the tree names. */
function build(nodes: readonly MdNode[], into: Node): void {
  for (const n of nodes) {
    if (typeof n === 'string') {
      into.appendChild(document.createTextNode(n));
      continue;
    }
    if (!MD_TAGS.has(n.tag)) {
      build(n.children, into);
      continue;
    }
    const el = document.createElement(n.tag);
    if (n.attrs?.class) el.className = n.attrs.class;
    if (n.attrs?.start) el.setAttribute('start', n.attrs.start);
    const href = n.attrs?.['data-href'];
    if (n.tag === 'a' && href) {
      // No href: the webview would navigate; the host opens it instead.
      el.dataset.href = href;
      el.dataset.testid = 'chat-link';
      el.title = href;
      el.tabIndex = 0;
      el.setAttribute('role', 'link');
    }
    build(n.children, el);
    if (n.tag !== 'pre') {
      into.appendChild(el);
      continue;
    }
    const block = document.createElement('div');
    block.className = 'code-block';
    block.dataset.testid = 'chat-code';
    const copy = document.createElement('button');
    copy.type = 'button';
    copy.className = 'copy';
    copy.dataset.testid = 'chat-code-copy';
    copy.textContent = 'Copy';
    block.append(copy, el);
    into.appendChild(block);
  }
}

function renderMarkdown(text: HTMLElement, source: string): void {
  text.replaceChildren();
  build(markdownTree(source), text);
}

function renderCurrent(): void {
  if (renderTimer !== undefined) window.clearTimeout(renderTimer);
  renderTimer = undefined;
  const text = current?.querySelector<HTMLElement>('.text');
  if (text) renderMarkdown(text, currentText);
}

function setBusy(b: boolean): void {
  busy = b;
  send.disabled = b;
  stop.disabled = !b;
  for (const id of ['clear', 'save', 'load']) {
    const el = $<HTMLButtonElement>(id);
    if (el && el.dataset.always !== 'off') el.disabled = b || el.dataset.unsupported === 'true';
  }
}

function turnElement(t: TurnView): HTMLElement {
  const box = document.createElement('div');
  box.className = `turn ${t.role}`;
  box.dataset.testid = `chat-turn-${t.role}`;
  const who = document.createElement('div');
  who.className = 'who';
  who.textContent = t.role === 'user' ? 'You' : t.role === 'system' ? 'System prompt' : 'Model';
  box.append(who);
  if (t.images?.length) {
    const imgs = document.createElement('div');
    imgs.className = 'muted';
    imgs.textContent = `Images: ${t.images.join(', ')}`;
    box.append(imgs);
  }
  const text = document.createElement('div');
  text.className = t.role === 'assistant' ? 'text markdown' : 'text';
  text.dataset.testid = t.role === 'assistant' ? 'chat-answer' : 'chat-question';
  if (t.role === 'assistant') renderMarkdown(text, t.text);
  else text.textContent = t.text;
  box.append(text);
  const info = document.createElement('div');
  info.className = `info muted${t.failed ? ' error' : ''}`;
  info.dataset.testid = 'chat-answer-info';
  info.textContent = t.info ?? '';
  box.append(info);
  return box;
}

function add(t: TurnView): HTMLElement {
  const el = turnElement(t);
  log.append(el);
  el.scrollIntoView({ block: 'end' });
  return el;
}

function params(): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const el of document.querySelectorAll<HTMLInputElement>('[data-param]')) {
    out[el.dataset.param!] = el.type === 'checkbox' ? el.checked : el.value;
  }
  return out;
}

function ask(): void {
  if (busy) return;
  const text = prompt.value;
  vscode.post({ type: 'ask', text, params: params(), system: $<HTMLTextAreaElement>('param-system')?.value ?? '' });
}

$('ask')!.addEventListener('submit', (e) => {
  e.preventDefault();
  ask();
});
prompt.addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    ask();
  }
});
stop.addEventListener('click', () => vscode.post({ type: 'stop' }));

// Links and Copy buttons inside answers (the log is rebuilt while an answer streams: delegate).
function onAnswerAction(e: Event): void {
  const target = e.target instanceof Element ? e.target : null;
  const link = target?.closest<HTMLElement>('a[data-href]');
  if (link) {
    e.preventDefault();
    vscode.post({ type: 'openLink', url: link.dataset.href ?? '' });
    return;
  }
  const copy = target?.closest<HTMLButtonElement>('button.copy');
  const code = copy?.parentElement?.querySelector('pre code');
  if (copy && code && e.type === 'click') {
    copy.dataset.copyId = String(++copies);
    vscode.post({ type: 'copy', text: code.textContent ?? '', id: copies });
  }
}
log.addEventListener('click', onAnswerAction);
log.addEventListener('keydown', (e) => {
  if (e.key === 'Enter') onAnswerAction(e);
});
for (const id of ['clear', 'save', 'load', 'export', 'attach'] as const) $(id)?.addEventListener('click', () => vscode.post({ type: id }));
for (const el of document.querySelectorAll<HTMLInputElement>('[data-param]')) {
  el.addEventListener('change', () => vscode.post({ type: 'params', params: params() }));
}
for (const id of ['save', 'load']) {
  const el = $<HTMLButtonElement>(id);
  if (el?.disabled) el.dataset.unsupported = 'true';
}

// Images dropped on the page (a VLM): read here, decoded and resized to the frame in the host.
const drop = document.body;
drop.addEventListener('dragover', (e) => {
  if (document.body.dataset.kind !== 'vlm') return;
  e.preventDefault();
});
drop.addEventListener('drop', (e) => {
  if (document.body.dataset.kind !== 'vlm') return;
  e.preventDefault();
  for (const file of Array.from(e.dataTransfer?.files ?? [])) {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result ?? '');
      vscode.post({ type: 'dropImage', name: file.name, base64: url.slice(url.indexOf(',') + 1) });
    };
    reader.readAsDataURL(file);
  }
});

vscode.onMessage((m) => {
  switch (m.type) {
    case 'restore':
      log.replaceChildren();
      for (const t of m.turns) add(t);
      // Reloaded while an answer streams: its chunks go on into the last turn.
      current = m.busy ? ((log.lastElementChild as HTMLElement | null) ?? undefined) : undefined;
      currentText = m.busy ? (m.turns[m.turns.length - 1]?.text ?? '') : '';
      current?.classList.add('streaming');
      setBusy(m.busy);
      break;
    case 'turn':
      add(m.turn);
      if (m.turn.role === 'user') prompt.value = '';
      break;
    case 'start': {
      current = add({ role: 'assistant', text: '' });
      currentText = '';
      current.classList.add('streaming');
      setBusy(true);
      break;
    }
    case 'chunk': {
      currentText += m.text;
      renderTimer ??= window.setTimeout(() => {
        renderCurrent();
        current?.scrollIntoView({ block: 'end' });
      }, RENDER_EVERY_MS);
      break;
    }
    case 'end': {
      renderCurrent();
      const info = current?.querySelector<HTMLElement>('.info');
      if (info) {
        info.textContent = m.info;
        info.classList.toggle('error', m.failed);
      }
      current?.classList.remove('streaming');
      current = undefined;
      setBusy(false);
      break;
    }
    case 'context': {
      const bar = $<HTMLProgressElement>('context-bar');
      if (bar) {
        bar.max = m.capacity;
        bar.value = m.usage;
      }
      const t = $('context-text');
      if (t) t.textContent = `${m.usage} of ${m.capacity} tokens${m.usage >= m.capacity ? ' — full: Clear to go on' : ''}`;
      break;
    }
    case 'status':
      status.textContent = m.text;
      status.classList.toggle('error', !!m.error);
      break;
    case 'paramErrors':
      for (const el of document.querySelectorAll<HTMLInputElement>('[data-param]')) {
        const err = $(`param-${el.dataset.param}-error`);
        const msg = m.errors[el.dataset.param!] ?? '';
        if (err) err.textContent = msg;
        el.setAttribute('aria-invalid', msg ? 'true' : 'false');
      }
      if (Object.keys(m.errors).length) ($('chat-params') ?? document.querySelector<HTMLDetailsElement>('details.params'))?.setAttribute('open', '');
      break;
    case 'health': {
      const line = $('health');
      if (line) line.textContent = m.line;
      $('health-warnings')?.replaceChildren(
        ...m.warnings.map((w) => {
          const p = document.createElement('p');
          p.textContent = w;
          return p;
        }),
      );
      break;
    }
    case 'insert': {
      // A transcript from Hailo: Transcribe Audio: added to the prompt, not sent.
      prompt.value = prompt.value ? `${prompt.value.trimEnd()}\n${m.text}` : m.text;
      prompt.focus();
      status.textContent = m.note;
      status.classList.remove('error');
      break;
    }
    case 'copied': {
      const button = document.querySelector<HTMLButtonElement>(`button.copy[data-copy-id="${Number(m.id)}"]`);
      if (button) button.textContent = 'Copied';
      break;
    }
    case 'images': {
      const box = $('images');
      if (!box) break;
      box.replaceChildren(
        ...m.items.map((d, i) => {
          const row = document.createElement('div');
          row.className = 'image';
          row.dataset.testid = 'chat-image';
          row.textContent = d + ' ';
          const rm = document.createElement('button');
          rm.type = 'button';
          rm.textContent = 'Remove';
          rm.addEventListener('click', () => vscode.post({ type: 'removeImage', index: i }));
          row.append(rm);
          return row;
        }),
      );
      break;
    }
    default:
      unhandled(m);
  }
});

vscode.post({ type: 'ready' });
