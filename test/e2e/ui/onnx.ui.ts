// What a user sees of the ONNX graph view: opening a .onnx shows the graph document, and moving
// the mouse over a node shows its hover.
import * as assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { HOSTILE_ONNX } from '../hostileFiles';
import { e2e } from './context';
import { join } from 'node:path';
import { execute, openFile, openWorkbench, screenshot, waitForTextThat, waitUntil } from './workbench';

describe('ONNX graph view in the editor', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  /** Opens a workspace .onnx; the .onnx editor hands off to "<name>.graph". */
  async function openGraph(relativePath: string): Promise<string> {
    await openFile(page, relativePath, { tab: `${relativePath.split('/').pop()}.graph`, steps: 2 });
    return relativePath;
  }

  /**
   * Moves the mouse over a node's name (just after the two-space indent), as a user would, once
   * the language server has analysed the model (its outline of the graph view has the nodes:
   * a hover asked for before that comes back empty, and VS Code does not ask again until the
   * mouse moves).
   */
  async function hoverNode(relativePath: string, op: string): Promise<Locator> {
    const view = { $uri: `hailo-onnx:${encodeURI(join(e2e().workspace, relativePath))}.graph` };
    // (The answer crosses the bridge as JSON, where VS Code's symbols keep only name, kind and
    // location: the "nodes" section is there once the server has read the model.)
    await waitUntil(
      `the server's outline of ${relativePath}.graph (its nodes section)`,
      () => execute(page, 'vscode.executeDocumentSymbolProvider', [view]),
      (symbols) => Array.isArray(symbols) && symbols.some((s: { name?: string }) => s.name === 'nodes'),
    );
    // (The editor renders spaces as U+00A0; \s matches both.)
    // Only the visible editor: a previous graph tab keeps its (hidden) lines in the DOM.
    const nodeLine = page
      .locator('.monaco-editor .view-line', { hasText: new RegExp(`=\\s${op}\\(`) })
      .filter({ visible: true })
      .first();
    await nodeLine.waitFor();
    const box = await waitUntil(`the box of the ${op} line`, () => nodeLine.boundingBox(), Boolean);
    const charWidth = box!.width / Math.max(1, (await nodeLine.innerText()).length);
    await page.mouse.move(box!.x + charWidth * 4.5, box!.y + box!.height / 2);
    const hover = page.locator('.monaco-hover:not(.hidden)').filter({ hasText: op }).first();
    await hover.waitFor();
    return hover;
  }

  it('opening a .onnx shows its graph, and a node hovers with its op', async () => {
    const hover = await hoverNode(await openGraph('e2e-fixtures/onnx/cnn.onnx'), 'Conv');
    await waitForTextThat(hover, (text) => text.length > 10, 'the Conv hover to explain the node (more than 10 characters)');
    if (e2e().trust) await screenshot(page, 'onnx-graph');
  });

  it('an ONNX whose names are HTML or markdown shows them as text in the view and the hover', async () => {
    await page.mouse.move(5, 5);
    const hover = await hoverNode(await openGraph('e2e-fixtures/onnx/hostile-names.onnx'), 'Relu');
    await waitForTextThat(hover, (text) => text.includes(HOSTILE_ONNX.node), `the hover to show the node name ${HOSTILE_ONNX.node} literally`);
    const live = await hover.evaluate((el) => ({
      images: el.querySelectorAll('img').length,
      commandLinks: Array.from(el.querySelectorAll('a') as unknown as ArrayLike<{ getAttribute(n: string): string | null }>).filter((a) =>
        /^command:/.test(a.getAttribute('href') ?? a.getAttribute('data-href') ?? ''),
      ).length,
      injected: el.querySelectorAll('[onerror], [onload]').length,
    }));
    assert.deepEqual(live, { images: 0, commandLinks: 0, injected: 0 });
    const literals = [HOSTILE_ONNX.node, HOSTILE_ONNX.input, HOSTILE_ONNX.output];
    await waitForTextThat(
      page.locator('.monaco-editor .view-lines').filter({ visible: true }),
      (view) => literals.every((l) => view.replace(/\u00a0/g, ' ').includes(l)),
      `the graph view to show ${literals.join(', ')}`,
    );
  });
});
