// What a user sees of the ONNX graph view: opening a .onnx shows the graph document, and moving
// the mouse over a node shows its hover.
import * as assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { e2e } from './context';
import { openWorkbench, screenshot } from './workbench';

const mod = process.platform === 'darwin' ? 'Meta' : 'Control';

describe('ONNX graph view in the editor', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  it('opening a .onnx shows its graph, and a node hovers with its op', async () => {
    await page.keyboard.press(`${mod}+P`);
    await page.locator('.quick-input-widget input').fill('e2e-fixtures/onnx/cnn.onnx');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'cnn.onnx' }).first().waitFor();
    await page.keyboard.press('Enter');
    // The .onnx editor hands off to the graph document (tab "cnn.onnx.graph").
    await page.locator('.tabs-container .tab.active[aria-label*="cnn.onnx.graph"]').waitFor({ timeout: 60_000 });
    // (The editor renders spaces as U+00A0; \s matches both.)
    const nodeLine = page.locator('.monaco-editor .view-line', { hasText: /=\sConv\(/ }).first();
    await nodeLine.waitFor();
    const box = await nodeLine.boundingBox();
    assert.ok(box, 'the node line is on screen');
    // Mouse over the node's name (just after the two-space indent), as a user would.
    const charWidth = box.width / Math.max(1, (await nodeLine.innerText()).length);
    await page.mouse.move(box.x + charWidth * 4.5, box.y + box.height / 2);
    const hover = page.locator('.monaco-hover:not(.hidden)').filter({ hasText: 'Conv' }).first();
    await hover.waitFor();
    assert.ok((await hover.innerText()).length > 10);
    if (e2e().trust) await screenshot(page, 'onnx-graph');
  });
});
