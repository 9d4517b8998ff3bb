// The first five minutes: the walkthrough opens from the palette and its steps are there, and
// Hailo: Show Log shows the log the extension and its language server write.
import type { Page } from 'playwright-core';
import { e2e } from './context';
import { execute, mod, openFile, openWorkbench, screenshot, waitForText, webview } from './workbench';

describe('first run', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  it('Hailo: Get Started opens the walkthrough with its steps', async () => {
    await execute(page, 'hailo.openWalkthrough');
    const walkthrough = page.locator('.gettingStartedContainer');
    await walkthrough.getByText('Get started with Hailo Tools').first().waitFor();
    for (const step of ['Open a model script', 'Inspect a compiled HEF', 'Trust decides what may run', 'Read the log']) {
      await walkthrough.getByText(step).first().waitFor();
    }
    // The first step's page (media/walkthrough/script.md) renders beside the steps, in a webview.
    await webview(page).getByText('Model scripts').first().waitFor();
    if (e2e().trust) await screenshot(page, 'walkthrough');
  });

  it('Hailo: Show Log shows the log with the language server start', async () => {
    // Opening a script activates the extension, which starts the language server and logs it.
    await openFile(page, 'e2e-fixtures/e2e-minimal.alls');
    await execute(page, 'hailo.showLog');
    // The Output view shows the channel as an editor scrolled to its end, and only the lines in
    // view are in the page: go to the top, where the start-up lines are.
    const output = page.locator('.part.panel .monaco-editor').first();
    await output.waitFor();
    await output.click();
    await page.keyboard.press(`${mod}+Home`);
    // The line carries the log level.
    const line = page.locator('.part.panel .view-line', { hasText: /Hailo\slanguage\sserver\sstarted/ }).first();
    await waitForText(line, /\[info\]/, 'the language server line of the log (its level)');
  });
});
