// What a user sees when opening an .alls file from examples/.
import type { Page } from 'playwright-core';
import { e2e } from './context';
import { languageStatus, openFile, openWorkbench, screenshot, waitUntil } from './workbench';

describe('an .alls file in the browser VS Code', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  it('opens as "Hailo Model Script" with syntax colouring', async () => {
    await openFile(page, 'e2e-fixtures/e2e-minimal.alls');
    await languageStatus(page).filter({ hasText: 'Hailo Model Script' }).waitFor();
    // The TextMate grammar gives the command name its own token colour (a distinct mtk class).
    const line = page.locator('.monaco-editor .view-line').filter({ visible: true }).first();
    await line.locator('span span', { hasText: 'normalization' }).first().waitFor();
    // Tokens may be coloured after the first paint: wait for the colours, not the first frame.
    await waitUntil(
      'several token colours (at least 3 distinct classes) on the first line',
      () => line.locator('span span').evaluateAll((spans) => spans.map((s) => s.className)),
      (classes) => new Set(classes).size >= 3,
    );
    if (e2e().trust) await screenshot(page, 'alls-editor');
  });
});
