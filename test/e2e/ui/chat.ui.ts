// "Hailo: Chat with Model" as a user meets it, on the fake HailoRT's simulated LLM (10 tokens/s,
// test/e2e/fakeDevice.ts; the model answers "You said: <prompt>." and filler words): ask, see the
// tokens stream, Stop, a parameter outside HailoRT's range refused at its field, an answer with
// HTML, script, a javascript: link and an image shown as text (nothing loads or runs), an answer in
// Markdown rendered (a list, a code block with Copy, a link VS Code offers to open), the transcript
// verbatim, the conversation kept while the panel is hidden, Clear. In Restricted Mode the command
// is refused before any HEF is asked for.
import * as assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { FrameLocator, Page } from 'playwright-core';
import { e2e } from './context';
import {
  closeAllEditors,
  deadlineMs,
  execute,
  openFile,
  openWorkbench,
  screenshot,
  waitForCount,
  waitForMatch,
  waitForText,
  waitUntil,
  webview,
} from './workbench';

const HEF = 'qwen2-llm.hef';
// The fake model echoes the prompt token by token (10 tokens/s) before its filler words: a long
// prompt keeps the answer streaming for seconds, so "seen part-way" and Stop do not depend on how
// quickly a loaded machine gets from one step to the next.
const FIRST = 'hello from e2e, tell me how the device, its worker, the webview and the context cache work together when a model answers';
const LONG = `now a long story please: ${Array.from({ length: 8 }, (_, i) => `chapter ${i + 1} is about the device and the worker`).join(', ')}`;

// A prompt the fake model echoes: its answer is this Markdown (then filler words).
const MARKDOWN = 'a **bold** word, a list:\n\n- one\n- two\n\n```js\nconsole.log("hi");\n```\n\nand [Hailo](https://hailo.ai/)';

const userTurns = (view: FrameLocator) => view.locator('[data-testid="chat-turn-user"]');

/** Sends `text`; unless it is meant to be refused, returns once the question is on the page (its index). */
async function ask(view: FrameLocator, text: string, { refused = false } = {}): Promise<number> {
  const before = await userTurns(view).count();
  const prompt = view.locator('[data-testid="chat-prompt"]');
  await prompt.fill(text);
  await prompt.press('Enter');
  if (!refused) await waitForCount(userTurns(view), before + 1, 'questions on the page after sending one');
  return before;
}

interface TurnState {
  streaming: boolean;
  text: string;
  info: string;
  stopEnabled: boolean;
}

/** One consistent snapshot of the n-th answer (and the Stop button), read in the page at once. */
function answerState(view: FrameLocator, n: number): Promise<TurnState> {
  return view
    .locator('[data-testid="chat-turn-assistant"]')
    .nth(n)
    .evaluate(
      (el) => {
        const e = el as unknown as {
          classList: { contains(c: string): boolean };
          querySelector(s: string): { innerText: string } | null;
          ownerDocument: { querySelector(s: string): { disabled: boolean } | null };
        };
        return {
          streaming: e.classList.contains('streaming'),
          text: e.querySelector('[data-testid="chat-answer"]')?.innerText ?? '',
          info: e.querySelector('[data-testid="chat-answer-info"]')?.innerText ?? '',
          stopEnabled: e.ownerDocument.querySelector('[data-testid="chat-stop"]')?.disabled === false,
        };
      },
      undefined,
      { timeout: 2000 },
    );
}

/** The n-th answer once it has ended (no longer streaming, its figures line written). */
async function answer(view: FrameLocator, n: number): Promise<TurnState> {
  return waitUntil(
    `answer ${n + 1} to end`,
    () => answerState(view, n),
    (s) => !s.streaming && s.info !== '',
    // the fake model's 10 tokens/s: a long answer is a few of the suite's steps
    { timeoutMs: deadlineMs(2) },
  );
}

/** [text, address] of every link in the n-th answer; no element on the page has an href or is an image. */
async function answerLinks(view: FrameLocator, n: number): Promise<string[][]> {
  const stray = await view.locator('body').evaluate((el) => el.ownerDocument.querySelectorAll('[data-testid="chat-log"] [href], img').length);
  assert.equal(stray, 0, 'no element with an href, no image');
  return view
    .locator('[data-testid="chat-turn-assistant"]')
    .nth(n)
    .locator('[data-testid="chat-link"]')
    .evaluateAll((links) => links.map((a) => [(a as unknown as { innerText: string }).innerText, a.getAttribute('data-href') ?? '']));
}

/** Elements or scripts a hostile answer could have put on the page. */
async function injected(view: FrameLocator) {
  return view.locator('body').evaluate((el) => {
    const doc = el.ownerDocument as unknown as { querySelectorAll(s: string): ArrayLike<unknown> };
    return {
      elements: doc.querySelectorAll('[data-injected], img[src="x"], [onerror], b').length,
      scripts: doc.querySelectorAll('body script:not([nonce])').length,
      pwned: (globalThis as unknown as { __hailoPwned?: number }).__hailoPwned ?? null,
    };
  });
}

describe('Chat with Model', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  it(
    e2e().trust
      ? 'chat with the fixture LLM: tokens stream, Stop, ranges, hostile answer as text, kept when hidden, Clear'
      : 'Chat with Model is refused in Restricted Mode, with the way out',
    async function () {
      this.timeout(deadlineMs(14));
      await closeAllEditors(page);
      // Started, not awaited: the command ends once the panel is open (it asks which HEF first).
      const chat = execute(page, 'hailo.chatWithModel', [], { steps: 8 });
      const toasts = page.locator('.notifications-toasts .notification-list-item');
      if (!e2e().trust) {
        const refusal = toasts.filter({ hasText: 'Hailo: Chat with Model runs programs on this machine, so it is disabled in Restricted Mode' }).first();
        await refusal.waitFor();
        await refusal.getByRole('button', { name: 'Manage Workspace Trust' }).waitFor();
        await chat; // ended, refused, without asking anything
        assert.equal(await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Chat with which' }).count(), 0, 'no HEF is even asked for');
        return;
      }
      const input = page.locator('.quick-input-widget input');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Chat with which LLM or VLM HEF?' }).waitFor();
      await input.fill(HEF);
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: HEF }).waitFor();
      await page.keyboard.press('Enter');
      await chat;
      const view = webview(page);
      await view.locator('[data-testid="chat-prompt"]').waitFor();
      await waitForText(view.locator('[data-testid="chat-model"]'), /LLM .*HailoRT 5\.2\.0 — FAKE/, 'the model line');
      await waitForText(view.locator('[data-testid="chat-context-text"]'), '0 of 1024 tokens', 'the context bar of a fresh chat');

      // Ask: the answer grows while it streams (seen part-way, in one snapshot of the page), then ends with its figures.
      const q1 = await ask(view, FIRST);
      const partial = await waitUntil(
        'the first answer to be seen part-way (streaming, "You said" shown, Stop offered)',
        () => answerState(view, q1),
        (s) => s.streaming && s.text.includes('You said'),
      );
      assert.ok(partial.stopEnabled, 'Stop is offered while the answer streams');
      const first = await answer(view, q1);
      assert.ok(first.text.startsWith(`You said: ${FIRST}.`), first.text);
      assert.ok(partial.text.length < first.text.length, `seen part-way: ${partial.text.length} of ${first.text.length} characters`);
      assert.match(first.info, /^\d+ tokens · first token \d+ ms · \d+\.\d tokens\/s$/);
      await waitForText(view.locator('[data-testid="chat-context-text"]'), /^[1-9]\d* of 1024 tokens/, 'the context bar after an answer (it moved)');
      await screenshot(page, 'chat');

      // Stop: the next answer ends early, marked stopped.
      const q2 = await ask(view, LONG);
      await waitUntil(
        `answer ${q2 + 1} to stream`,
        () => answerState(view, q2),
        (s) => s.streaming && s.text.includes('You said'),
      );
      await view.locator('[data-testid="chat-stop"]').click();
      const stopped = await answer(view, q2);
      assert.match(stopped.info, / · stopped$/);
      assert.ok(!stopped.text.includes(LONG), 'it ended before the model had echoed the whole prompt');

      // A temperature of 0 is refused at its field (HailoRT answers 2 to it), and nothing is sent.
      await view.locator('[data-testid="chat-params"] summary').click();
      await view.locator('[data-testid="param-temperature"]').fill('0');
      await view.locator('[data-testid="param-temperature"]').press('Tab');
      await view.locator('[data-testid="param-temperature-error"]', { hasText: 'Temperature must be greater than 0' }).waitFor();
      await ask(view, 'refused?', { refused: true });
      await view.locator('[data-testid="chat-status"]', { hasText: 'Temperature must be greater than 0' }).waitFor();
      assert.equal(await userTurns(view).count(), 2, 'the refused message was not sent');
      await view.locator('[data-testid="param-temperature"]').fill('');
      await view.locator('[data-testid="param-temperature"]').press('Tab');

      // A hostile answer: the model repeats HTML, script, a javascript: link and a Markdown image.
      // The HTML is text, the javascript: link stays the text written, the image is a link naming
      // it (nothing is loaded), and nothing runs.
      const html = '<img src=x onerror="window.__hailoPwned=1"><script>window.__hailoPwned=2</script><b data-injected>bold</b>';
      const jsLink = '[click me](javascript:window.__hailoPwned=3)';
      const evil = `${html} ${jsLink} ![pwn](https://example.invalid/pwn.png)`;
      const q3 = await ask(view, evil);
      const hostile = await answer(view, q3);
      assert.ok(hostile.text.startsWith(`You said: ${html} ${jsLink} image: pwn.`), hostile.text);
      assert.deepEqual(await injected(view), { elements: 0, scripts: 0, pwned: null });
      assert.deepEqual(await answerLinks(view, q3), [['image: pwn', 'https://example.invalid/pwn.png']]);

      // Markdown as the model writes it: emphasis, a list, a code block with Copy, a link opened through VS Code.
      const q4 = await ask(view, MARKDOWN);
      await answer(view, q4);
      const rendered = view.locator('[data-testid="chat-turn-assistant"]').nth(q4).locator('[data-testid="chat-answer"]');
      await waitForText(rendered.locator('strong'), 'bold', 'the bold word');
      await waitForCount(rendered.locator('ul > li'), 2, 'list items');
      await waitForText(rendered.locator('[data-testid="chat-code"] pre code.language-js'), 'console.log("hi");\n', 'the code block');
      assert.deepEqual(await answerLinks(view, q4), [['Hailo', 'https://hailo.ai/']]);
      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
      await rendered.locator('[data-testid="chat-code-copy"]').click();
      await waitForText(rendered.locator('[data-testid="chat-code-copy"]'), 'Copied', 'the Copy button once the host has copied');
      await waitForMatch(
        'the clipboard',
        () => page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText()),
        'console.log("hi");\n',
      );
      // The link goes to the host, which opens it with vscode.env.openExternal: VS Code asks first.
      await rendered.locator('[data-testid="chat-link"]', { hasText: 'Hailo' }).click();
      const openDialog = page.locator('.monaco-dialog-box', { hasText: 'https://hailo.ai/' });
      await openDialog.waitFor();
      await openDialog.getByRole('button', { name: 'Cancel' }).click();
      await openDialog.waitFor({ state: 'detached' });
      // The page reloaded (as after a crash of the webview): the host re-sends the conversation, still as text.
      const before = await view.locator('[data-testid^="chat-turn-"]').count();
      await execute(page, 'workbench.action.webview.reloadWebviewAction');
      await view.locator('[data-testid="chat-answer"]', { hasText: 'You said: <img src=x' }).waitFor({ timeout: deadlineMs(2) });
      await waitForCount(view.locator('[data-testid^="chat-turn-"]'), before, 'turns after the page reloaded');
      assert.deepEqual(await injected(view), { elements: 0, scripts: 0, pwned: null });

      // Export Transcript…: the save dialog offers <hef>.chat.md beside the HEF; the file quotes the hostile text in fences.
      await view.locator('[data-testid="chat-export"]').click();
      const dialog = page.locator('.quick-input-widget input');
      await dialog.waitFor();
      // The simple dialog fills its path in steps: wait for the whole default name.
      await waitForMatch("the save dialog's path", () => dialog.inputValue(), /e2e-fixtures\/genai\/qwen2-llm\.chat\.md$/);
      await page.keyboard.press('Enter');
      await view.locator('[data-testid="chat-status"]', { hasText: 'Exported the transcript to' }).waitFor();
      const exported = join(e2e().workspace, 'e2e-fixtures', 'genai', 'qwen2-llm.chat.md');
      const md = await waitUntil(
        'the exported transcript',
        () => (existsSync(exported) ? readFileSync(exported, 'utf8') : ''),
        (text) => text.includes('stopped by the user'),
      );
      // The HEF's name is Markdown-escaped in the heading (it renders as qwen2-llm.hef).
      assert.match(md, /^# Chat with qwen2\\-llm\\\.hef\n/);
      assert.ok(md.includes(`## You\n\n\`\`\`text\n${FIRST}\n\`\`\``), md);
      assert.ok(md.includes(`\`\`\`text\nYou said: ${evil}.`), 'the hostile answer is fenced');
      // The transcript keeps what the model wrote, verbatim: the Markdown answer in a longer fence.
      assert.ok(md.includes(`\`\`\`\`text\nYou said: ${MARKDOWN}.`), 'the Markdown answer is quoted verbatim');
      assert.match(md, /\*\d+ tokens · first token \d+ ms · \d+\.\d tokens\/s · stopped by the user\*/);

      // Hidden and shown again: the conversation is still there.
      const turns = await view.locator('[data-testid^="chat-turn-"]').count();
      await openFile(page, 'README.md');
      // README.md opened in the chat's group (the focused one): the chat's tab is no longer shown.
      await page.locator('.tabs-container .tab.active', { hasText: `Chat: ${HEF}` }).waitFor({ state: 'detached' });
      await page.locator('.tabs-container .tab', { hasText: `Chat: ${HEF}` }).click();
      await view.locator('[data-testid="chat-prompt"]').waitFor();
      await waitForCount(view.locator('[data-testid^="chat-turn-"]'), turns, 'turns after the chat was shown again');

      // Clear: the transcript and the device context are empty.
      await view.locator('[data-testid="chat-clear"]').click();
      await waitForText(view.locator('[data-testid="chat-context-text"]'), /^0 of 1024 tokens/, 'the context bar after Clear');
      await waitForCount(view.locator('[data-testid^="chat-turn-"]'), 0, 'turns after Clear');
      assert.equal(await toasts.filter({ hasText: 'HailoRT is not installed' }).count(), 0);
    },
  );

  it('chat with the fixture VLM: a dropped image is resized to the frame the device reports and described', async function () {
    if (!e2e().trust) return this.skip();
    this.timeout(deadlineMs(10));
    // Closing the LLM's chat releases the device (one LLM/VLM at a time).
    await closeAllEditors(page);
    const chat = execute(page, 'hailo.chatWithModel', [], { steps: 4 });
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Chat with which LLM or VLM HEF?' }).waitFor();
    await input.fill('qwen2vl-vlm.hef');
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'qwen2vl-vlm.hef' }).waitFor();
    await page.keyboard.press('Enter');
    await chat;
    const view = webview(page);
    await view.locator('[data-testid="chat-prompt"]').waitFor();
    await waitForText(view.locator('[data-testid="chat-model"]'), /VLM .*frame 56x56x3 UINT8 NHWC, 9,408 bytes/, 'the model line');
    // A 40x30 PNG of one colour, dropped on the page: every pixel of the 56x56 frame keeps it.
    const png = new PNG({ width: 40, height: 30 });
    for (let i = 0; i < 40 * 30; i++) png.data.set([200, 100, 50, 255], i * 4);
    const base64 = PNG.sync.write(png).toString('base64');
    await view.locator('body').evaluate((body, b64) => {
      const w = globalThis as unknown as {
        atob(s: string): string;
        DataTransfer: new () => { items: { add(f: unknown): void } };
        File: new (parts: unknown[], name: string, o: object) => unknown;
        DragEvent: new (t: string, o: object) => unknown;
      };
      const bin = w.atob(b64);
      const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
      const dt = new w.DataTransfer();
      dt.items.add(new w.File([bytes], 'orange.png', { type: 'image/png' }));
      (body as unknown as { dispatchEvent(e: unknown): void }).dispatchEvent(new w.DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, base64);
    await view.locator('[data-testid="chat-image"]', { hasText: 'orange.png (40x30) → 56x56 RGB UINT8 NHWC, 9408 bytes' }).waitFor();
    const q = await ask(view, 'what is this?');
    const a = await answer(view, q);
    assert.match(a.text, /^You said: what is this\?\. Image 1 means 200\.0\/100\.0\/50\.0/);
    await waitForText(userTurns(view).nth(q), /Images: orange\.png/, 'the question with its image');
    await waitForCount(view.locator('[data-testid="chat-image"]'), 0, 'images waiting to be sent (the image went with the message)');
  });
});
