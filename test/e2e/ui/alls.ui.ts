// What a user sees of the .alls language server: problems in the Problems panel, a hover with the
// command's documentation, and precision modes in the completion list.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { e2e } from './context';
import { goTo, mod, openFile, openWorkbench, problemsRows, screenshot, waitForTextThat, waitUntil, waitUntilStill } from './workbench';

interface CliReport {
  files: { path: string; diagnostics: { line: number; severity: string; code: string; message: string }[] }[];
}

function expectedFor(relativePath: string) {
  const report = JSON.parse(readFileSync(e2e().expectedDiagnostics, 'utf8')) as CliReport;
  const entry = report.files.find((f) => f.path.replace(/\\/g, '/').endsWith(relativePath));
  assert.ok(entry, `the CLI report has ${relativePath}`);
  return entry.diagnostics;
}

/** Runs `attempt` until it succeeds (calling `reset` between tries), for up to `timeoutMs`. */
async function retry(attempt: () => Promise<unknown>, reset: () => Promise<unknown>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await attempt();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await reset();
    }
  }
}

describe('.alls in the editor', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  it('a broken script: the Problems panel lists each problem the CLI finds', async () => {
    const expected = expectedFor('broken/typos.alls');
    await openFile(page, 'broken/typos.alls');
    const rows = await problemsRows(page);
    for (const d of expected) {
      const word = /`([^`]+)`/.exec(d.message)?.[1] ?? d.message.slice(0, 20);
      await rows.filter({ hasText: word }).first().waitFor();
    }
    await waitUntil(
      `at least ${expected.length} rows in the Problems panel`,
      () => rows.allInnerTexts(),
      (texts) => texts.length >= expected.length,
    );
    // The file's row in the panel counts its problems.
    const fileRow = page.locator('.markers-panel .monaco-list-row', { hasText: 'typos.alls' }).first();
    await fileRow.locator('.monaco-count-badge', { hasText: new RegExp(`^${expected.length}$`) }).waitFor();
    if (e2e().trust) await screenshot(page, 'problems');
  });

  it('hovering a command shows its documentation', async () => {
    await openFile(page, 'e2e-fixtures/e2e-minimal.alls');
    await goTo(page, 1, 22);
    const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content, .monaco-hover .hover-contents').filter({ hasText: 'normalization' }).first();
    // "Show Hover" (Ctrl+K Ctrl+I) asks once; if the server had not analysed the file yet, ask again.
    await retry(
      async () => {
        await page.keyboard.press(`${mod}+K`);
        await page.keyboard.press(`${mod}+I`);
        await hover.waitFor({ timeout: 3000 });
      },
      () => page.keyboard.press('Escape'),
    );
    // Documentation, not just a name.
    await waitForTextThat(hover, (text) => text.length > 60, 'the hover to show documentation (more than 60 characters)');
    await waitUntilStill(hover);
    if (e2e().trust) await screenshot(page, 'hover');
    await page.keyboard.press('Escape');
  });

  it('completion after precision_mode= offers the precision modes', async () => {
    await openFile(page, 'e2e-fixtures/e2e-minimal.alls');
    await goTo(page, 3, 1);
    await page.keyboard.type('quantization_param(conv1, precision_mode=');
    const rows = page.locator('.suggest-widget .monaco-list-row');
    await retry(
      async () => {
        await page.keyboard.press(`${mod}+Space`);
        await rows.filter({ hasText: 'a8_w8' }).first().waitFor({ timeout: 3000 });
      },
      () => page.keyboard.press('Escape'),
    );
    await waitUntil(
      'a16_w16 among the completion labels',
      async () => (await rows.allInnerTexts()).map((t) => t.split('\n')[0].trim()),
      (labels) => labels.some((l) => l.startsWith('a16_w16')),
    );
    if (e2e().trust) await screenshot(page, 'completion');
    await page.keyboard.press('Escape');
    // Leave the file as it was: undo the typing (nothing was saved).
    for (let i = 0; i < 5; i++) await page.keyboard.press(`${mod}+Z`);
  });
});
