// Playwright helpers that drive the VS Code workbench the way a user does (keyboard, visible
// DOM), waiting on DOM state, never on fixed sleeps.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { waitForEqual, waitForMatch, waitUntil, type WaitOptions } from '../waits';
import { e2e } from './context';

export { waitForEqual, waitForMatch, waitUntil };

/** One read of a locator may wait this long for its element; the wait around it retries. */
const READ_MS = 2000;

/** Waits until `locator` matches exactly `n` elements. */
export function waitForCount(locator: Locator, n: number, what: string, options?: WaitOptions): Promise<number> {
  return waitForEqual(`the number of ${what}`, () => locator.count(), n, options);
}

/** Waits until the element's visible text equals `expected` (a string) or matches it (a RegExp); returns the text. */
export function waitForText(locator: Locator, expected: string | RegExp, what: string, options?: WaitOptions): Promise<string> {
  return waitForMatch(`the text of ${what}`, () => locator.first().innerText({ timeout: READ_MS }), expected, options);
}

/** Waits until the element's visible text satisfies `accept`; returns the text. */
export function waitForTextThat(locator: Locator, accept: (text: string) => boolean, what: string, options?: WaitOptions): Promise<string> {
  return waitUntil(what, () => locator.first().innerText({ timeout: READ_MS }), accept, options);
}

/** The platform's command modifier for keyboard shortcuts (`${mod}+P`). */
export const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

/** Opens the workspace in a new browser page and waits until the explorer lists its files. */
export async function openWorkbench(): Promise<Page> {
  const { browser, server, pages } = e2e();
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  pages.push(page);
  await page.goto(server.pageUrl());
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  await page.locator('.explorer-folders-view .monaco-list-row').first().waitFor({ timeout: 60_000 });
  return page;
}

/**
 * Quick Open (Ctrl+P) a workspace file by its relative path; waits for its editor tab, or for the
 * tab whose label contains `opens.tab` when the file's editor hands off to another document.
 */
export async function openFile(page: Page, relativePath: string, opens?: { tab: string; timeoutMs: number }): Promise<void> {
  const name = relativePath.split('/').pop()!;
  await page.keyboard.press(`${mod}+P`);
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(relativePath);
  await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().waitFor();
  await page.keyboard.press('Enter');
  if (opens) await page.locator(`.tabs-container .tab.active[aria-label*="${opens.tab}"]`).waitFor({ timeout: opens.timeoutMs });
  else await page.locator(`.tabs-container .tab.active[aria-label^="${name}"]`).waitFor();
}

/**
 * Runs a command from the Command Palette by its visible title. Right after start-up the remote
 * extension host may still be registering contributions, and an open palette does not refresh,
 * so it reopens the palette until the command is listed (up to `timeoutMs`).
 */
export async function runCommand(page: Page, title: string, timeoutMs = 45_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await openCommandPalette(page, title);
    const row = page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title });
    const found = await row.waitFor({ timeout: 3000 }).then(
      () => true,
      () => false,
    );
    if (found) break;
    if (Date.now() > deadline) throw new Error(`"${title}" is not in the Command Palette`);
    await closeQuickInput(page);
  }
  await page.keyboard.press('Enter');
}

/** Opens the Command Palette with `text` typed; returns the visible rows' labels. */
export async function openCommandPalette(page: Page, text: string): Promise<Locator> {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`>${text}`);
  return page.locator('.quick-input-list .monaco-list-row');
}

export async function closeQuickInput(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/** Moves the cursor with Go to Line/Column (Ctrl+G, "line:column"), both 1-based. */
export async function goTo(page: Page, line: number, column: number): Promise<void> {
  await page.keyboard.press(`${mod}+G`);
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await input.fill(`:${line}:${column}`);
  // Enter before the picker has parsed the text is ignored (seen in CI): wait for its own
  // "Go to line …" answer, and press again if the widget is still open.
  const widget = page.locator('.quick-input-widget');
  await widget.getByText(`Go to line ${line}`).first().waitFor();
  for (let attempt = 1; ; attempt++) {
    await input.press('Enter');
    try {
      await widget.waitFor({ state: 'hidden', timeout: 5000 });
      return;
    } catch (err) {
      if (attempt === 3) throw err;
    }
  }
}

/** Text of the status bar's language mode item (e.g. "Hailo Model Script"). */
export function languageStatus(page: Page): Locator {
  return page.locator('[id="status.editor.mode"]');
}

/** The rows of the Problems panel (opened with Ctrl+Shift+M). */
export async function problemsRows(page: Page): Promise<Locator> {
  await page.keyboard.press(`${mod}+Shift+M`);
  await page.locator('.markers-panel').waitFor();
  return page.locator('.markers-panel .monaco-list-row');
}

/** The innermost document of a webview editor (VS Code nests the content in #active-frame). */
export function webview(page: Page): FrameLocator {
  return page.frameLocator('iframe.webview.ready').frameLocator('#active-frame');
}

export async function webviewFrame(page: Page): Promise<Frame> {
  await webview(page).locator('body').waitFor();
  const frame = page.frames().find((f) => f.name() === 'active-frame' || f.url().includes('fake.html'));
  if (!frame) throw new Error('webview frame not found');
  return frame;
}

/** Saves a screenshot under docs/screenshots/ (used by the README). */
export async function screenshot(page: Page, name: string): Promise<string> {
  const dir = e2e().screenshotsDir;
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Waits until an element stops moving and fading (toasts slide in, hovers fade in), e.g. before a screenshot. */
export async function waitUntilStill(locator: Locator, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  for (;;) {
    const opacity = await locator.evaluate((el) => {
      const style = (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle;
      let o = 1;
      for (let e: { parentElement: unknown } | null = el as unknown as { parentElement: unknown }; e; e = e.parentElement as typeof e)
        o *= Number(style(e).opacity);
      return o;
    });
    const box = JSON.stringify(await locator.boundingBox());
    if (box === last && box !== 'null' && opacity >= 0.99) return;
    if (Date.now() > deadline) return;
    last = box;
    await locator.page().waitForTimeout(100);
  }
}

/**
 * Closes every editor, discarding unsaved ones first (a dirty Untitled editor — restored by hot
 * exit from an earlier scenario — would keep "Close All Editors" behind a save dialog).
 */
export async function closeAllEditors(page: Page): Promise<void> {
  const dirty = page.locator('.tabs-container .tab.dirty');
  for (let i = 0; i < 5 && (await dirty.count()) > 0; i++) {
    await dirty.first().click();
    await runCommand(page, 'View: Revert and Close Editor');
  }
  await runCommand(page, 'View: Close All Editors');
  // The command returns when the palette takes Enter, not when the editors are gone.
  await waitForCount(page.locator('.tabs-container .tab'), 0, 'editor tabs after Close All Editors');
}
