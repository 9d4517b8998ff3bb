// "Hailo: Check Setup" as a user meets it in the trusted instance: the device status bar item
// turns to a warning when the doctor's pieces disagree (here: a Hailo-8L HEF in the workspace, which
// the fake HailoRT 5.2.0 does not run — hef-runtime-family), clicking it offers Check Setup with the
// counts, and Check Setup opens the doctor's table in the Markdown preview, the findings as text
// and a file named like HTML shown as its name, never as an element. Waits are for conditions.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { HOSTILE_SETUP_HEF } from '../hostileFiles';
import { e2e } from './context';
import { closeAllEditors, deadlineMs, openWorkbench, waitForCount, waitForText, webview } from './workbench';
import { waitUntil } from '../waits';

describe('Check Setup', () => {
  let page: Page;
  before(async function () {
    if (!e2e().trust) this.skip();
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  it('the status bar warns when the setup disagrees; its click opens Check Setup, whose table shows the findings and names as text', async function () {
    this.timeout(deadlineMs(10));
    await closeAllEditors(page);
    // The device item (createStatusBarItem('hailo.device')) with the warning background, once the
    // first scan and the doctor have run (the extension compiles the shim against the fake first).
    const item = page.locator('.statusbar-item.warning-kind[id$="hailo.device"]');
    await item.waitFor({ timeout: deadlineMs(8) });
    await waitForText(item, /HAILO|Hailo/, 'the device item to name the device');
    await item.click();
    const setupRow = page.locator('.quick-input-list .monaco-list-row', { hasText: /Check Setup: \d+ error\(s\), [1-9]\d* warning\(s\)/ });
    await setupRow.waitFor();
    await setupRow.click();

    const view = webview(page);
    await waitForText(view.locator('h1'), 'Hailo: Check Setup', 'the preview heading');
    // The component table: libhailort is the fake 5.2.0 hailo-tools loaded, and the hostile HEF a row.
    const rows = view.locator('table tbody tr');
    await waitUntil(
      'the table rows',
      () => rows.count(),
      (n) => n >= 3,
    );
    const cells = await rows.evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
    const lib = cells.find((c) => c[0] === 'libhailort');
    assert.ok(lib && lib[1] === '5.2.0' && /FAKE test library/.test(lib[2]), JSON.stringify(cells));
    const hostileRow = cells.find((c) => c[0].includes(HOSTILE_SETUP_HEF));
    assert.ok(hostileRow, `no row names ${HOSTILE_SETUP_HEF}: ${JSON.stringify(cells.map((c) => c[0]))}`);
    // The finding about it, as text (the name inside the sentence too).
    const finding = view.locator('li', { hasText: 'hef-runtime-family' }).filter({ hasText: HOSTILE_SETUP_HEF });
    await waitForCount(finding, 1, 'the hef-runtime-family finding naming the hostile HEF');
    await waitForText(finding.locator('li', { hasText: 'Fix:' }).first(), /Run it where HailoRT 4\.23\.0 drives a Hailo-8\/8L/, 'its fix');
    // Nothing of the name became an element or ran.
    assert.equal(await view.locator('img[onerror], table img, li img').count(), 0, 'no image element from a file name');
    assert.equal(await view.locator('body').evaluate(() => (globalThis as { __hailoPwned?: number }).__hailoPwned), undefined, 'no script ran');
  });
});
