// The chat page's script (bundled to dist/webview/chat.js, loaded by nonce). Everything the model,
// the user or a file wrote is put on the page with textContent — never innerHTML — so an answer
// with <script> or <img onerror> is shown as text. The host (client/src/genai/chatPanel.ts) owns
// the conversation: it validates parameters with HailoRT's ranges, talks to the device worker and
// re-sends the whole transcript when the page is (re)loaded, so nothing is lost when it is hidden.
export {};

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

interface TurnView {
  role: 'system' | 'user' | 'assistant';
  text: string;
  images?: string[];
  /** The figures line under an answer. */
  info?: string;
  failed?: boolean;
}

type HostMessage =
  | { type: 'restore'; turns: TurnView[]; busy: boolean }
  | { type: 'turn'; turn: TurnView }
  | { type: 'start' }
  | { type: 'chunk'; text: string }
  | { type: 'end'; info: string; failed: boolean }
  | { type: 'context'; usage: number; capacity: number }
  | { type: 'status'; text: string; error?: boolean }
  | { type: 'paramErrors'; errors: Record<string, string> }
  | { type: 'images'; items: string[] };

const vscode = acquireVsCodeApi();
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T | null;
const log = $('log')!;
const status = $('status')!;
const prompt = $<HTMLTextAreaElement>('prompt')!;
const send = $<HTMLButtonElement>('send')!;
const stop = $<HTMLButtonElement>('stop')!;
let current: HTMLElement | undefined;
let busy = false;

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
  text.className = 'text';
  text.dataset.testid = t.role === 'assistant' ? 'chat-answer' : 'chat-question';
  text.textContent = t.text;
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
  vscode.postMessage({ type: 'ask', text, params: params(), system: $<HTMLTextAreaElement>('param-system')?.value ?? '' });
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
stop.addEventListener('click', () => vscode.postMessage({ type: 'stop' }));
for (const id of ['clear', 'save', 'load', 'export', 'attach']) $(id)?.addEventListener('click', () => vscode.postMessage({ type: id }));
for (const el of document.querySelectorAll<HTMLInputElement>('[data-param]')) {
  el.addEventListener('change', () => vscode.postMessage({ type: 'params', params: params() }));
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
      vscode.postMessage({ type: 'dropImage', name: file.name, base64: url.slice(url.indexOf(',') + 1) });
    };
    reader.readAsDataURL(file);
  }
});

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const m = event.data;
  switch (m?.type) {
    case 'restore':
      log.replaceChildren();
      for (const t of m.turns) add(t);
      // Reloaded while an answer streams: its chunks go on into the last turn.
      current = m.busy ? ((log.lastElementChild as HTMLElement | null) ?? undefined) : undefined;
      current?.classList.add('streaming');
      setBusy(m.busy);
      break;
    case 'turn':
      add(m.turn);
      if (m.turn.role === 'user') prompt.value = '';
      break;
    case 'start': {
      current = add({ role: 'assistant', text: '' });
      current.classList.add('streaming');
      setBusy(true);
      break;
    }
    case 'chunk': {
      const text = current?.querySelector<HTMLElement>('.text');
      if (text) text.textContent += m.text;
      current?.scrollIntoView({ block: 'end' });
      break;
    }
    case 'end': {
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
          rm.addEventListener('click', () => vscode.postMessage({ type: 'removeImage', index: i }));
          row.append(rm);
          return row;
        }),
      );
      break;
    }
  }
});

vscode.postMessage({ type: 'ready' });
