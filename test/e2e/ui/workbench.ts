// Playwright helpers that drive the VS Code workbench the way a user does (keyboard, visible
// DOM), waiting on DOM state, never on fixed sleeps.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, FrameLocator, Locator, Page } from 'playwright-core';
import { deadlineMs, waitForEqual, waitForMatch, waitUntil, type WaitOptions } from '../waits';
import { attachBridge, bridgeSockets, execute, fileArg } from './commands';
import { e2e } from './context';

export { deadlineMs, execute, fileArg, waitForEqual, waitForMatch, waitUntil };

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

/**
 * Opens the workspace in a new browser page; waits until the explorer lists its files and the
 * window's extension host has activated the extension (its command bridge, ui/commands.ts: from
 * then on every Hailo command is registered and listed). Every playwright wait on the page without
 * its own deadline gets the suite's (waits.ts deadlineMs).
 */
export async function openWorkbench(): Promise<Page> {
  const { browser, server, pages } = e2e();
  const page = await browser.newPage({ viewport: { width: 1400, height: 860 } });
  page.setDefaultTimeout(deadlineMs());
  pages.push(page);
  const sockets = bridgeSockets();
  await page.goto(server.pageUrl(), { timeout: deadlineMs(2) });
  await page.locator('.monaco-workbench').waitFor({ timeout: deadlineMs(2) });
  await page
    .locator('.explorer-folders-view .monaco-list-row')
    .first()
    .waitFor({ timeout: deadlineMs(2) });
  await attachBridge(page, sockets);
  return page;
}

/**
 * Opens a workspace file in its default editor (`vscode.open` through the command bridge, which
 * resolves once the editor is open) and waits for its editor tab, or for the tab whose label
 * contains `opens.tab` when the file's editor hands off to another document.
 */
export async function openFile(page: Page, relativePath: string, opens?: { tab: string; steps?: number }): Promise<void> {
  const name = relativePath.split('/').pop()!;
  await execute(page, 'vscode.open', [fileArg(relativePath)], { steps: opens?.steps ?? 1 });
  if (opens) await page.locator(`.tabs-container .tab.active[aria-label*="${opens.tab}"]`).waitFor({ timeout: deadlineMs(opens.steps ?? 1) });
  else await page.locator(`.tabs-container .tab.active[aria-label^="${name}"]`).waitFor();
}

/**
 * Runs a command from the Command Palette by its visible title, as a user does: for the scenarios
 * about the palette itself (others run commands with `execute`). The window's extension host has
 * registered the commands (openWorkbench waited for it), so the row is there once the palette has
 * filtered.
 */
export async function runCommand(page: Page, title: string): Promise<void> {
  await openCommandPalette(page, title);
  await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: title }).waitFor();
  await page.locator('.quick-input-widget input').press('Enter');
}

/**
 * Opens the Command Palette with `text` typed; returns the visible rows. The palette is opened by
 * its command (workbench.action.quickOpen with the ">" prefix) through the bridge: a key press goes
 * to whatever has focus, and a webview that has it (or is being replaced) may not pass F1 on.
 */
export async function openCommandPalette(page: Page, text: string): Promise<Locator> {
  await execute(page, 'workbench.action.quickOpen', [`>${text}`]);
  const input = page.locator('.quick-input-widget input');
  await input.waitFor();
  await waitForEqual('the Command Palette input', () => input.inputValue(), `>${text}`);
  return page.locator('.quick-input-list .monaco-list-row');
}

export async function closeQuickInput(page: Page): Promise<void> {
  await execute(page, 'workbench.action.closeQuickOpen');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden' });
}

/**
 * Opens `relativePath` (or brings it forward) with the cursor at line:column, both 1-based
 * (`vscode.open` with a selection, through the bridge), and waits for the editor to show that line
 * as the cursor's.
 */
export async function goTo(page: Page, relativePath: string, line: number, column: number): Promise<void> {
  const at = { line: line - 1, character: column - 1 };
  await execute(page, 'vscode.open', [fileArg(relativePath), { selection: { start: at, end: at }, preview: false }]);
  const name = relativePath.split('/').pop()!;
  await page.locator(`.tabs-container .tab.active[aria-label^="${name}"]`).waitFor();
  await page
    .locator('.monaco-editor .cursor-line-number, .monaco-editor .active-line-number')
    .filter({ visible: true, hasText: new RegExp(`^${line}$`) })
    .first()
    .waitFor();
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

/**
 * Waits until an element stops moving and fading (toasts slide in, hovers fade in), e.g. before a
 * screenshot: two reads in a row with the same box, fully opaque.
 */
export async function waitUntilStill(locator: Locator): Promise<void> {
  let last = '';
  await waitUntil(
    'the element to stop moving and fading (its box the same twice, opacity 1)',
    async () => {
      const opacity = await locator.evaluate((el) => {
        const style = (globalThis as unknown as { getComputedStyle(e: unknown): { opacity: string } }).getComputedStyle;
        let o = 1;
        for (let e: { parentElement: unknown } | null = el as unknown as { parentElement: unknown }; e; e = e.parentElement as typeof e)
          o *= Number(style(e).opacity);
        return o;
      });
      const box = JSON.stringify(await locator.boundingBox());
      const still = box === last && box !== 'null' && opacity >= 0.99;
      last = box;
      return { box, opacity, still };
    },
    (r) => r.still,
  );
}

/**
 * Closes every editor, reverting unsaved ones first (a dirty Untitled editor — restored by hot exit
 * from an earlier scenario — would keep "Close All Editors" behind a save dialog), and waits until
 * no tab is left.
 */
export async function closeAllEditors(page: Page): Promise<void> {
  const dirty = page.locator('.tabs-container .tab.dirty');
  // Nothing makes an editor dirty while this runs: the ones there now are all there will be.
  for (let left = await dirty.count(); left > 0; left--) {
    await dirty.first().click();
    await page.locator('.tabs-container .tab.dirty.active').waitFor();
    await execute(page, 'workbench.action.revertAndCloseActiveEditor');
    await waitForCount(dirty, left - 1, 'unsaved editors after one was reverted and closed');
  }
  await execute(page, 'workbench.action.closeAllEditors');
  await waitForCount(page.locator('.tabs-container .tab'), 0, 'editor tabs after Close All Editors');
}
