// The Hailo commands in the Command Palette, and what Restricted Mode looks like to a user.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2e } from './context';
import { closeQuickInput, openCommandPalette, openWorkbench, runCommand, screenshot } from './workbench';

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { commands: { command: string; title: string; category?: string }[] };
};

describe('Hailo commands', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  it('every contributed command is in the Command Palette under "Hailo:"', async () => {
    const rows = await openCommandPalette(page, 'Hailo: ');
    const expected = manifest.contributes.commands.map((c) => `${c.category}: ${c.title}`);
    for (const label of expected) await rows.filter({ hasText: label }).first().waitFor();
    const shown = (await rows.allInnerTexts()).map((t) => t.split('\n')[0]);
    for (const label of expected) assert.ok(shown.some((s) => s.startsWith(label)), `${label} not in ${shown.join(' | ')}`);
    if (e2e().trust) await screenshot(page, 'command-palette');
    await closeQuickInput(page);
  });

  it(e2e().trust ? 'Check Docker Setup reports on docker in a trusted folder' : 'Check Docker Setup is refused in Restricted Mode, with the way out', async () => {
    await runCommand(page, 'Hailo: Check Docker Setup');
    const toast = page.locator('.notifications-toasts .notification-list-item');
    if (e2e().trust) {
      await toast.filter({ hasText: /Docker|Running/ }).first().waitFor();
      assert.equal(await toast.filter({ hasText: 'Restricted Mode' }).count(), 0);
    } else {
      const refusal = toast.filter({ hasText: 'disabled in Restricted Mode' }).first();
      await refusal.waitFor();
      await refusal.getByRole('button', { name: 'Manage Workspace Trust' }).waitFor();
      await screenshot(page, 'restricted-mode');
    }
  });
});
