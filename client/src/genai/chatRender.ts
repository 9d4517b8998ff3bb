// HTML shell of the "Hailo: Chat with Model" page. Pure (no vscode import), unit-tested directly.
// Only the shell is HTML: the model's answers, the prompts, image names and every later status
// arrive as messages and are written by the page script with textContent, answers as Markdown built
// from allowed elements (chatMarkdown.ts, client/src/webview/pages/chat.ts) — never as markup. What is rendered here from the model or the file (HEF name, LoRA, runtime, the
// defaults) goes through `esc`. Stable `data-testid`s for the e2e.
import { esc, pageShell, type PageOptions } from '../webview/html';
import { PARAM_RULES, type ChatModelInfo } from '@hailo/api';

export interface ChatPageModel {
  /** The HEF's file name. */
  name: string;
  info: ChatModelInfo;
}

function paramField(rule: (typeof PARAM_RULES)[number], info: ChatModelInfo): string {
  const id = `param-${rule.name}`;
  const def = info.defaults[rule.name];
  if (rule.kind === 'bool') {
    return (
      `<label class="param" for="${id}"><input type="checkbox" id="${id}" data-param="${esc(rule.name)}" data-testid="${id}"${def ? ' checked' : ''}> ${esc(rule.label)}` +
      ` <span class="muted">(${esc(rule.range)})</span></label>`
    );
  }
  return (
    `<label class="param" for="${id}">${esc(rule.label)} <span class="muted">${esc(rule.range)}</span>` +
    `<input type="text" inputmode="decimal" id="${id}" data-param="${esc(rule.name)}" data-testid="${id}" placeholder="${esc(def)}" aria-describedby="${id}-error">` +
    `<span class="field-error" id="${id}-error" data-testid="${id}-error" role="alert"></span></label>`
  );
}

export function renderChat(model: ChatPageModel, page: PageOptions): string {
  const i = model.info;
  const kind = i.kind === 'vlm' ? 'VLM' : 'LLM';
  const runtime = `HailoRT ${i.runtime.hailortVersion}${i.runtime.fake ? ' — FAKE (test/fake-hailort, not a device)' : ''}`;
  const frame = i.frame ? `frame ${i.frame.shape.join('x')} ${i.frame.type} ${i.frame.order}, ${i.frame.size.toLocaleString('en-US')} bytes` : '';
  const context = i.context
    ? `<div class="context" data-testid="chat-context"><progress id="context-bar" data-testid="chat-context-bar" max="${i.context.capacity}" value="${i.context.usage}"></progress>` +
      ` <span id="context-text" data-testid="chat-context-text">${i.context.usage} of ${i.context.capacity} tokens</span></div>`
    : `<div class="context muted" data-testid="chat-context">Context usage needs HailoRT 5.1.1 or newer (installed: ${esc(i.runtime.hailortVersion)}).</div>`;
  return pageShell(page, {
    title: `Chat: ${model.name}`,
    bodyAttrs: { class: 'chat', 'data-kind': i.kind },
    body: `<header>
<h1 data-testid="chat-title">Chat: ${esc(model.name)}</h1>
<p class="muted" data-testid="chat-model"><span class="badge na">${kind}</span>${i.lora ? ` LoRA ${esc(i.lora)} ·` : ''} ${esc(runtime)}${frame ? ` · ${esc(frame)}` : ''}</p>
${context}
<div id="health" class="health muted" data-testid="chat-health" aria-live="polite"></div>
<div id="health-warnings" class="health-warnings" data-testid="chat-health-warnings" role="alert"></div>
</header>
<main>
<div id="log" class="log" data-testid="chat-log" aria-live="polite"></div>
<div id="status" class="status" data-testid="chat-status" role="status"></div>
<form id="ask" data-testid="chat-form">
${i.kind === 'vlm' ? '<div id="images" class="images" data-testid="chat-images"></div><p id="drop" class="drop muted" data-testid="chat-drop">Drop PNG/JPEG images here, or <button type="button" id="attach" data-testid="chat-attach">Attach Image…</button></p>' : ''}
<textarea id="prompt" data-testid="chat-prompt" rows="3" placeholder="Ask ${esc(model.name)}… (Enter sends, Shift+Enter breaks the line)" aria-label="Message"></textarea>
<div class="buttons">
<button type="submit" id="send" data-testid="chat-send">Send</button>
<button type="button" id="stop" data-testid="chat-stop" disabled>Stop</button>
<button type="button" id="clear" data-testid="chat-clear">Clear</button>
<button type="button" id="save" data-testid="chat-save"${i.context ? '' : ' disabled'}>Save Context…</button>
<button type="button" id="load" data-testid="chat-load"${i.context ? '' : ' disabled'}>Load Context…</button>
<button type="button" id="export" data-testid="chat-export">Export Transcript…</button>
</div>
</form>
<details class="section params" data-testid="chat-params"><summary><h2>Parameters</h2></summary>
<p class="muted">Empty fields use the model's defaults (shown greyed, from its hailo-config.json). Ranges are HailoRT's.</p>
${PARAM_RULES.map((r) => paramField(r, i)).join('\n')}
<label class="param" for="param-system">System prompt <span class="muted">sent at the start of a fresh context</span><textarea id="param-system" data-testid="param-system" rows="2"></textarea></label>
</details>
</main>`,
  });
}
