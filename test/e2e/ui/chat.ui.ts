// "Hailo: Chat with Model" as a user meets it, on the fake HailoRT's simulated LLM (10 tokens/s,
// test/e2e/fakeDevice.ts; the model answers "You said: <prompt>." and filler words): ask, see the
// tokens stream, Stop, a parameter outside HailoRT's range refused at its field, an answer with
// HTML and script shown as text, the conversation kept while the panel is hidden, Clear. In
// Restricted Mode the command is refused before any HEF is asked for.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import type { FrameLocator, Page } from 'playwright-core';
import { e2e } from './context';
import { closeAllEditors, openFile, openWorkbench, runCommand, screenshot, webview } from './workbench';

const HEF = 'qwen2-llm.hef';

async function ask(view: FrameLocator, text: string): Promise<void> {
  const prompt = view.locator('[data-testid="chat-prompt"]');
  await prompt.fill(text);
  await prompt.press('Enter');
}

/** The last answer's text and info line once the answer has ended. */
async function lastAnswer(view: FrameLocator, timeout = 60_000): Promise<{ text: string; info: string }> {
  // The answer to the last question: the n-th finished answer for n questions. (`.last()` could
  // take the previous answer before the new turn appears.)
  const n = await view.locator('[data-testid="chat-turn-user"]').count();
  const turn = view.locator('[data-testid="chat-turn-assistant"]').nth(n - 1);
  await view
    .locator('[data-testid="chat-turn-assistant"]:not(.streaming)')
    .nth(n - 1)
    .waitFor({ timeout });
  await turn.locator('[data-testid="chat-answer-info"]:not(:empty)').waitFor({ timeout });
  return { text: await turn.locator('[data-testid="chat-answer"]').innerText(), info: await turn.locator('[data-testid="chat-answer-info"]').innerText() };
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
      this.timeout(400_000);
      await closeAllEditors(page);
      await runCommand(page, 'Hailo: Chat with Model');
      const toasts = page.locator('.notifications-toasts .notification-list-item');
      if (!e2e().trust) {
        const refusal = toasts.filter({ hasText: 'Hailo: Chat with Model runs programs on this machine, so it is disabled in Restricted Mode' }).first();
        await refusal.waitFor();
        await refusal.getByRole('button', { name: 'Manage Workspace Trust' }).waitFor();
        assert.equal(await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Chat with which' }).count(), 0, 'no HEF is even asked for');
        return;
      }
      const input = page.locator('.quick-input-widget input');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Chat with which LLM or VLM HEF?' }).waitFor();
      await input.fill(HEF);
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: HEF }).waitFor();
      await page.keyboard.press('Enter');
      const view = webview(page);
      await view.locator('[data-testid="chat-prompt"]').waitFor({ timeout: 240_000 });
      assert.match(await view.locator('[data-testid="chat-model"]').innerText(), /LLM .*HailoRT 5\.2\.0 — FAKE/);
      assert.equal(await view.locator('[data-testid="chat-context-text"]').innerText(), '0 of 1024 tokens');

      // Ask: the answer grows while it streams (seen part-way), then ends with its figures.
      await ask(view, 'hello from e2e');
      const answer = view.locator('[data-testid="chat-turn-assistant"]').last();
      await answer.locator('[data-testid="chat-answer"]', { hasText: 'You said' }).waitFor({ timeout: 60_000 });
      const partial = await answer.locator('[data-testid="chat-answer"]').innerText();
      assert.equal(await answer.evaluate((el) => el.classList.contains('streaming')), true, 'still streaming when the first words are shown');
      assert.ok(await view.locator('[data-testid="chat-stop"]').isEnabled(), 'Stop is offered while the answer streams');
      const first = await lastAnswer(view);
      assert.ok(first.text.startsWith('You said: hello from e2e.'), first.text);
      assert.ok(partial.length < first.text.length, `seen part-way: ${partial.length} of ${first.text.length} characters`);
      assert.match(first.info, /^\d+ tokens · first token \d+ ms · \d+\.\d tokens\/s$/);
      const usage = Number(/^(\d+) of 1024 tokens/.exec(await view.locator('[data-testid="chat-context-text"]').innerText())?.[1]);
      assert.ok(usage > 0, 'the context bar moved');
      await screenshot(page, 'chat');

      // Stop: the next answer ends early, marked stopped.
      await ask(view, 'now a long story please');
      await view
        .locator('[data-testid="chat-turn-assistant"]')
        .nth(1)
        .locator('[data-testid="chat-answer"]', { hasText: 'You said' })
        .waitFor({ timeout: 60_000 });
      await view.locator('[data-testid="chat-stop"]').click();
      const stopped = await lastAnswer(view);
      assert.match(stopped.info, / · stopped$/);

      // A temperature of 0 is refused at its field (HailoRT answers 2 to it), and nothing is sent.
      await view.locator('[data-testid="chat-params"] summary').click();
      await view.locator('[data-testid="param-temperature"]').fill('0');
      await view.locator('[data-testid="param-temperature"]').press('Tab');
      await view.locator('[data-testid="param-temperature-error"]', { hasText: 'Temperature must be greater than 0' }).waitFor();
      await ask(view, 'refused?');
      await view.locator('[data-testid="chat-status"]', { hasText: 'Temperature must be greater than 0' }).waitFor();
      assert.equal(await view.locator('[data-testid="chat-turn-user"]').count(), 2, 'the refused message was not sent');
      await view.locator('[data-testid="param-temperature"]').fill('');
      await view.locator('[data-testid="param-temperature"]').press('Tab');

      // A hostile answer: the model repeats HTML and script; the page shows them as text.
      const evil = '<img src=x onerror="window.__hailoPwned=1"><script>window.__hailoPwned=2</script><b data-injected>bold</b>';
      await ask(view, evil);
      const hostile = await lastAnswer(view);
      assert.ok(hostile.text.startsWith(`You said: ${evil}.`), hostile.text);
      assert.deepEqual(await injected(view), { elements: 0, scripts: 0, pwned: null });
      // The page reloaded (as after a crash of the webview): the host re-sends the conversation, still as text.
      const before = await view.locator('[data-testid^="chat-turn-"]').count();
      await runCommand(page, 'Developer: Reload Webviews');
      await view.locator('[data-testid="chat-answer"]', { hasText: 'You said: <img src=x' }).waitFor({ timeout: 60_000 });
      assert.equal(await view.locator('[data-testid^="chat-turn-"]').count(), before);
      assert.deepEqual(await injected(view), { elements: 0, scripts: 0, pwned: null });

      // Export Transcript…: the save dialog offers <hef>.chat.md beside the HEF; the file quotes the hostile text in fences.
      await view.locator('[data-testid="chat-export"]').click();
      const dialog = page.locator('.quick-input-widget input');
      await dialog.waitFor();
      // The simple dialog fills its path in steps: wait for the whole default name.
      for (let i = 0; i < 100 && !/qwen2-llm\.chat\.md$/.test(await dialog.inputValue()); i++) await page.waitForTimeout(100);
      assert.match(await dialog.inputValue(), /e2e-fixtures\/genai\/qwen2-llm\.chat\.md$/);
      await page.keyboard.press('Enter');
      await view.locator('[data-testid="chat-status"]', { hasText: 'Exported the transcript to' }).waitFor();
      const md = readFileSync(join(e2e().workspace, 'e2e-fixtures', 'genai', 'qwen2-llm.chat.md'), 'utf8');
      // The HEF's name is Markdown-escaped in the heading (it renders as qwen2-llm.hef).
      assert.match(md, /^# Chat with qwen2\\-llm\\\.hef\n/);
      assert.ok(md.includes('## You\n\n```text\nhello from e2e\n```'), md);
      assert.ok(md.includes(`\`\`\`text\nYou said: ${evil}.`), 'the hostile answer is fenced');
      assert.match(md, /\*\d+ tokens · first token \d+ ms · \d+\.\d tokens\/s · stopped by the user\*/);

      // Hidden and shown again: the conversation is still there.
      const turns = await view.locator('[data-testid^="chat-turn-"]').count();
      await openFile(page, 'README.md');
      // README.md opened in the chat's group (the focused one): the chat's tab is no longer shown.
      await page.locator('.tabs-container .tab.active', { hasText: `Chat: ${HEF}` }).waitFor({ state: 'detached' });
      await page.locator('.tabs-container .tab', { hasText: `Chat: ${HEF}` }).click();
      await view.locator('[data-testid="chat-prompt"]').waitFor();
      assert.equal(await view.locator('[data-testid^="chat-turn-"]').count(), turns);

      // Clear: the transcript and the device context are empty.
      await view.locator('[data-testid="chat-clear"]').click();
      await view.locator('[data-testid="chat-context-text"]', { hasText: /^0 of 1024 tokens/ }).waitFor();
      assert.equal(await view.locator('[data-testid^="chat-turn-"]').count(), 0);
      assert.equal(await toasts.filter({ hasText: 'HailoRT is not installed' }).count(), 0);
    },
  );

  it('chat with the fixture VLM: a dropped image is resized to the frame the device reports and described', async function () {
    if (!e2e().trust) return this.skip();
    this.timeout(300_000);
    // Closing the LLM's chat releases the device (one LLM/VLM at a time).
    await closeAllEditors(page);
    await runCommand(page, 'Hailo: Chat with Model');
    const input = page.locator('.quick-input-widget input');
    await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Chat with which LLM or VLM HEF?' }).waitFor();
    await input.fill('qwen2vl-vlm.hef');
    await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'qwen2vl-vlm.hef' }).waitFor();
    await page.keyboard.press('Enter');
    const view = webview(page);
    await view.locator('[data-testid="chat-prompt"]').waitFor({ timeout: 120_000 });
    assert.match(await view.locator('[data-testid="chat-model"]').innerText(), /VLM .*frame 56x56x3 UINT8 NHWC, 9,408 bytes/);
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
    await ask(view, 'what is this?');
    const a = await lastAnswer(view);
    assert.match(a.text, /^You said: what is this\?\. Image 1 means 200\.0\/100\.0\/50\.0/);
    assert.match(await view.locator('[data-testid="chat-turn-user"]').last().innerText(), /Images: orange\.png/);
    assert.equal(await view.locator('[data-testid="chat-image"]').count(), 0, 'the image went with the message');
  });
});
