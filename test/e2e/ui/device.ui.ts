// "Run on Device" as a user meets it: the results page of a device run (dfc-flow.md §5.2's
// published one, exported as JSON and opened with "Hailo: Open Device Run Results…") with its
// checks, figures, float reference and uPlot charts drawn under the nonce CSP; hostile names as
// text; and "Hailo: Run on Device" from the palette — refused in Restricted Mode, and in the
// trusted instance run on the fake HailoRT (test/e2e/fakeDevice.ts) to a results page with checks.
import * as assert from 'node:assert/strict';
import type { FrameLocator, Page } from 'playwright-core';
import { HOSTILE } from '../hostileFiles';
import { e2e } from './context';
import {
  closeAllEditors,
  deadlineMs,
  execute,
  fileArg,
  openFile,
  openWorkbench,
  screenshot,
  waitForCount,
  waitForEqual,
  waitForText,
  waitForTextThat,
  waitUntil,
  webview,
} from './workbench';

async function openResults(page: Page, relativePath: string): Promise<FrameLocator> {
  // One results page at a time: a hidden one keeps its frame (retainContextWhenHidden).
  await closeAllEditors(page);
  await page.locator('iframe.webview').first().waitFor({ state: 'detached' });
  await openFile(page, relativePath);
  await execute(page, 'hailo.openRunResults', [fileArg(relativePath)]);
  const view = webview(page);
  await view.locator('[data-testid="device-results"]').waitFor({ timeout: deadlineMs(2) });
  return view;
}

/** [check id, pass] of every check row. */
const checkRows = (view: FrameLocator) =>
  view.locator('[data-testid="run-check-row"]').evaluateAll((r) => r.map((e) => [e.getAttribute('data-check-id'), e.getAttribute('data-pass')]));

/** [drawn, all] charts of a results page. */
const drawnCharts = async (view: FrameLocator) => [
  await view.locator('.chart[data-chart][data-drawn="true"]').count(),
  await view.locator('.chart[data-chart]').count(),
];

describe('Run on Device', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  it('the results page shows the checks, the figures and the float reference, and draws its charts', async () => {
    const view = await openResults(page, 'e2e-fixtures/device/rb_batched.run.json');
    await waitForEqual('the check rows', () => checkRows(view), [
      ['different-inputs', 'true'],
      ['same-input-twice', 'true'],
      ['undersized-refused', 'true'],
    ]);
    await waitForText(view.locator('[data-testid="run-checks-status"]'), 'PASS all 3 checks pass', 'the checks status');
    await waitForText(view.locator('[data-testid="ref-relative"]'), '2.44 %', 'the relative error');
    await waitForText(view.locator('[data-testid="ref-correlation"]'), '0.99971', 'the correlation');
    await waitForText(view.locator('[data-testid="ref-calibration"]'), /66\.65 % relative error .* 2\.44 %/, 'the calibration comparison');
    // The bundled chart library ran under the page's nonce CSP: every chart is drawn on a canvas.
    const charts = view.locator('.chart[data-chart]');
    await waitForCount(charts, 4, 'charts');
    await waitForCount(view.locator('.chart[data-drawn="true"]'), 4, 'drawn charts');
    await waitForCount(view.locator('.chart[data-drawn="true"] .uplot canvas'), 4, 'chart canvases');
    await waitForCount(view.locator('.chart[data-drawn="false"]'), 0, 'charts that failed to draw');
    // uPlot's legend names the series with our fixed labels.
    await waitForTextThat(view.locator('[data-testid="chart-fps"] .u-legend'), (t) => t.includes('frames/s'), 'the FPS legend to name frames/s');
    if (e2e().trust) {
      // The README's pictures: the page alone (the export's editor closed), top and charts.
      await execute(page, 'workbench.action.closeEditorsInOtherGroups');
      await page.locator('.tabs-container .tab', { hasText: 'rb_batched.run.json' }).waitFor({ state: 'detached' });
      await view.locator('[data-testid="run-summary"]').scrollIntoViewIfNeeded();
      await screenshot(page, 'device-results');
      await view.locator('[data-testid="run-performance"]').scrollIntoViewIfNeeded();
      await screenshot(page, 'device-charts');
    }
  });

  it('a run whose names are HTML shows them as text; nothing is injected or run', async () => {
    const view = await openResults(page, 'e2e-fixtures/device/hostile.run.json');
    const body = view.locator('body');
    await view.locator('[data-testid="run-output-row"]').first().waitFor();
    const literals = [HOSTILE.networkGroup, HOSTILE.input, HOSTILE.output];
    await waitForTextThat(body, (text) => literals.every((l) => text.includes(l)), `the page to show ${literals.join(', ')} as text`);
    const injected = await body.evaluate((el) => {
      const doc = el.ownerDocument as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> };
      const win = globalThis as unknown as { __hailoPwned?: number };
      return {
        elements: doc.querySelectorAll('[data-injected], img[src="x"], svg[onload], iframe, [onerror], [onload]').length,
        scripts: doc.querySelectorAll('body script:not([nonce])').length,
        pwned: win.__hailoPwned ?? null,
      };
    });
    assert.deepEqual(injected, { elements: 0, scripts: 0, pwned: null });
    await waitUntil(
      'every chart drawn ([drawn, all])',
      () => drawnCharts(view),
      ([drawn, all]) => all > 0 && drawn === all,
    );
  });

  it(
    e2e().trust
      ? 'Run on Device asks which HEF and its options, runs the example HEF on the fake device and shows the checks'
      : 'Run on Device is refused in Restricted Mode, with the way out',
    async function () {
      this.timeout(deadlineMs(10));
      await closeAllEditors(page);
      // Started, not awaited yet: its questions are answered in the page.
      const ran = execute(page, 'hailo.runOnDevice', [], { steps: 8 });
      const toasts = page.locator('.notifications-toasts .notification-list-item');
      if (!e2e().trust) {
        const refusal = toasts.filter({ hasText: 'Hailo: Run on Device runs programs on this machine, so it is disabled in Restricted Mode' }).first();
        await refusal.waitFor();
        await refusal.getByRole('button', { name: 'Manage Workspace Trust' }).waitFor();
        // The command has ended (refused) without asking anything: no question is open.
        assert.equal(await ran, null);
        assert.equal(await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Run which HEF' }).count(), 0, 'no HEF is even asked for');
        return;
      }
      // Which HEF → the options (Enter runs with the remembered ones) → the run on the fake device
      // (the extension compiles the shim against the fake HailoRT first) → the results page.
      const input = page.locator('.quick-input-widget input');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Run which HEF on the device?' }).waitFor();
      await input.fill('qwen3vl-vision-encoder.hef');
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'qwen3vl-vision-encoder.hef' }).waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Run qwen3vl-vision-encoder.hef on the device' }).waitFor();
      // 100 frames (the row changes one option; the pick comes back with it).
      await input.fill('Frames');
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Frames' }).waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Frames to time' }).waitFor();
      await input.fill('100');
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: '100' }).waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.quick-input-widget .quick-input-title', { hasText: 'Run qwen3vl-vision-encoder.hef on the device' }).waitFor();
      await page.locator('.quick-input-list .monaco-list-row.focused', { hasText: '100 frames' }).waitFor();
      await page.keyboard.press('Enter');
      const doc = (await ran) as { kind?: string; title?: string } | null;
      assert.deepEqual([doc?.kind, doc?.title], ['hailo-tools.device-run', 'qwen3vl-vision-encoder.hef'], 'the run ended with its document');
      const view = webview(page);
      await view.locator('[data-testid="device-results"]').waitFor();
      await waitForEqual('the check rows of the run', () => checkRows(view), [
        ['different-inputs', 'true'],
        ['same-input-twice', 'true'],
        ['undersized-refused', 'true'],
      ]);
      await view.locator('[data-testid="run-fake-runtime"]').waitFor();
      // No ONNX beside this HEF: the float reference says so and offers to choose one.
      await view.locator('[data-testid="ref-status"][data-status="skipped"]').waitFor();
      await view.locator('.chart[data-drawn="true"]').first().waitFor();
      assert.equal(await toasts.filter({ hasText: 'HailoRT is not installed' }).count(), 0);
      await screenshot(page, 'device-run-fake');
    },
  );
});
