// The Hailo commands in the Command Palette, and what Restricted Mode looks like to a user.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2e } from './context';
import { closeQuickInput, openCommandPalette, openWorkbench, runCommand, screenshot, waitUntilStill } from './workbench';

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
    // looked up by its own label (a list filtered to "Hailo: " showed 15 of 17). The palette takes
    // its commands when it opens, and right after start-up the remote extension host can still be
    // registering them, so a label not found reopens it, until a deadline per label.
    const missing: string[] = [];
    for (const label of expected) {
      const deadline = Date.now() + 60_000;
      let shown: string[] = [];
      for (;;) {
        const rows = await openCommandPalette(page, label);
        const found = await rows
          .filter({ hasText: label })
          .first()
          .waitFor({ timeout: 5000 })
          .then(
            () => true,
            () => false,
          );
        shown = (await rows.allInnerTexts()).map((t) => t.split('\n')[0]);
        if ((found && shown.some((s) => s.startsWith(label))) || Date.now() > deadline) break;
        await closeQuickInput(page);
      }
      if (!shown.some((s) => s.startsWith(label))) missing.push(`${label} (the palette showed: ${shown.join(' | ')})`);
      await closeQuickInput(page);
    }
    assert.deepEqual(missing, []);
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
