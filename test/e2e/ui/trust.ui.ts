// The Hailo commands in the Command Palette, and what Restricted Mode looks like to a user.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2e } from './context';
import { closeQuickInput, openCommandPalette, openWorkbench, runCommand, screenshot, waitUntil, waitUntilStill } from './workbench';

interface Manifest {
  contributes: { commands: { command: string; title: string; category?: string }[]; menus?: { commandPalette?: { command: string; when?: string }[] } };
}

/** Commands of the INSTALLED extension (the .vsix's package.json) that the palette may show. */
function paletteCommands(): string[] {
  const manifest = JSON.parse(readFileSync(join(e2e().extensionFolder, 'package.json'), 'utf8')) as Manifest;
  const hidden = new Set((manifest.contributes.menus?.commandPalette ?? []).filter((m) => m.when === 'false').map((m) => m.command));
  return manifest.contributes.commands.filter((c) => !hidden.has(c.command)).map((c) => `${c.category}: ${c.title}`);
}

describe('Hailo commands', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  it('every contributed command is in the Command Palette under "Hailo:"', async () => {
    const expected = paletteCommands();
    assert.ok(expected.length >= 3, expected.join(', '));
    // The palette's list is virtual: only the rows that fit are in the page, so each command is
    // looked up by its own label (a list filtered to "Hailo: " showed 15 of 17). openWorkbench waited
    // until the window's extension host had activated the extension, so every command is registered.
    for (const label of expected) {
      const rows = await openCommandPalette(page, label);
      await waitUntil(
        `the Command Palette filtered to "${label}" to list it`,
        async () => (await rows.allInnerTexts()).map((t) => t.split('\n')[0]),
        (shown) => shown.some((s) => s.startsWith(label)),
      );
      await closeQuickInput(page);
    }
    await openCommandPalette(page, 'Hailo: ');
    if (e2e().trust) await screenshot(page, 'command-palette');
    await closeQuickInput(page);
  });

  it(
    e2e().trust ? 'Check Docker Setup reports on docker in a trusted folder' : 'Check Docker Setup is refused in Restricted Mode, with the way out',
    async () => {
      await runCommand(page, 'Hailo: Check Docker Setup');
      const toast = page.locator('.notifications-toasts .notification-list-item');
      if (e2e().trust) {
        await toast
          .filter({ hasText: /Docker|Running/ })
          .first()
          .waitFor();
        assert.equal(await toast.filter({ hasText: 'Restricted Mode' }).count(), 0);
      } else {
        const refusal = toast.filter({ hasText: 'disabled in Restricted Mode' }).first();
        await refusal.waitFor();
        await refusal.getByRole('button', { name: 'Manage Workspace Trust' }).waitFor();
        await waitUntilStill(refusal);
        await screenshot(page, 'restricted-mode');
      }
    },
  );
});
