// What a user sees of the .alls language server: problems in the Problems panel, a hover with the
// command's documentation, and precision modes in the completion list.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { e2e } from './context';
import { execute, fileArg, goTo, mod, openFile, openWorkbench, problemsRows, screenshot, waitForTextThat, waitUntil, waitUntilStill } from './workbench';

interface CliReport {
  files: { path: string; diagnostics: { line: number; severity: string; code: string; message: string }[] }[];
}

function expectedFor(relativePath: string) {
  const report = JSON.parse(readFileSync(e2e().expectedDiagnostics, 'utf8')) as CliReport;
  const entry = report.files.find((f) => f.path.replace(/\\/g, '/').endsWith(relativePath));
  assert.ok(entry, `the CLI report has ${relativePath}`);
  return entry.diagnostics;
}

/**
 * Waits until the language server answers `provider` (vscode.executeHoverProvider, …) at line:column
 * (1-based) with something `accept` takes: asked before the server has analysed the file, the answer
 * is empty, and the editor does not ask again by itself.
 */
function serverAnswers(
  page: import('playwright-core').Page,
  provider: string,
  file: string,
  line: number,
  column: number,
  accept: (answer: unknown) => boolean,
) {
  return waitUntil(
    `${provider} on ${file}:${line}:${column} to answer`,
    () => execute(page, provider, [fileArg(file), { line: line - 1, character: column - 1 }]),
    accept,
  );
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
    await goTo(page, 'e2e-fixtures/e2e-minimal.alls', 1, 22);
    const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content, .monaco-hover .hover-contents').filter({ hasText: 'normalization' }).first();
    // "Show Hover" (Ctrl+K Ctrl+I) asks once, so first the server must have something to say there.
    await serverAnswers(page, 'vscode.executeHoverProvider', 'e2e-fixtures/e2e-minimal.alls', 1, 22, (h) => Array.isArray(h) && h.length > 0);
    await page.keyboard.press(`${mod}+K`);
    await page.keyboard.press(`${mod}+I`);
    await hover.waitFor();
    // Documentation, not just a name.
    await waitForTextThat(hover, (text) => text.length > 60, 'the hover to show documentation (more than 60 characters)');
    await waitUntilStill(hover);
    if (e2e().trust) await screenshot(page, 'hover');
    await page.keyboard.press('Escape');
  });

  it('completion after precision_mode= offers the precision modes', async () => {
    await goTo(page, 'e2e-fixtures/e2e-minimal.alls', 3, 1);
    const typed = 'quantization_param(conv1, precision_mode=';
    await page.keyboard.type(typed);
    const rows = page.locator('.suggest-widget .monaco-list-row');
    // The typed text has reached the server and it offers the modes there; then the widget asks once.
    // Only the language server's values (the bridge names the kind: vscode.CompletionItemKind.EnumMember):
    // until it answers, VS Code falls back to words of other open documents, which may hold a8_w8 too.
    const labels = (list: unknown) =>
      ((list as { items?: { label: string | { label: string }; kind?: string }[] })?.items ?? [])
        .filter((i) => i.kind === 'EnumMember')
        .map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    await serverAnswers(page, 'vscode.executeCompletionItemProvider', 'e2e-fixtures/e2e-minimal.alls', 3, typed.length + 1, (list) =>
      labels(list).includes('a8_w8'),
    );
    await page.keyboard.press(`${mod}+Space`);
    await rows.filter({ hasText: 'a8_w8' }).first().waitFor();
    await waitUntil(
      'a16_w16 among the completion labels',
      async () => (await rows.allInnerTexts()).map((t) => t.split('\n')[0].trim()),
      (labels) => labels.some((l) => l.startsWith('a16_w16')),
    );
    if (e2e().trust) await screenshot(page, 'completion');
    await page.keyboard.press('Escape');
    // Leave the file as it was (nothing was saved): revert it, and wait until it is clean.
    await execute(page, 'workbench.action.files.revert');
    await page.locator('.tabs-container .tab.active.dirty').waitFor({ state: 'detached' });
  });
});
