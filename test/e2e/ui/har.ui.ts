// The HAR view (custom editor, webview) as a user sees it: the example quantized HAR renders the
// layers and the noise figures `hailo-tools har --json` reads (same core, no VS Code), worst first
// with the calibration set beside them; the search filters on the host; "Write 16-bit Line" puts
// the line into the script beside the HAR (checked by the .alls checker) and the scripts column
// then links to it; from the script, "Show Layer in HAR View" comes back to the layer.
import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { e2e } from './context';
import { closeAllEditors, deadlineMs, execute, fileArg, goTo, openFile, openWorkbench, waitForEqual, waitForMatch, webview } from './workbench';

/** textContent of the first match (one read; the waits around it retry). */
const textOf = (view: FrameLocator, selector: string) => view.locator(selector).first().textContent({ timeout: 2000 });
const layerRows = (view: FrameLocator) => view.locator('[data-testid="har-layer-row"]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-layer')));

const repoRoot = join(__dirname, '..', '..', '..');

interface CliHar {
  layers: { name: string }[];
  noise: { layers: { name: string; snrDb: number; unranked?: string }[]; chosen: string[] };
}

function cliHar(relativePath: string): CliHar {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'har', '--json', join(e2e().workspace, relativePath)], { encoding: 'utf8' });
  return JSON.parse(r.stdout) as CliHar;
}

async function openHarView(page: Page, relativePath: string): Promise<FrameLocator> {
  await openFile(page, relativePath);
  const view = webview(page);
  await view.locator('[data-testid="har-view"]').waitFor({ timeout: deadlineMs(2) });
  return view;
}

describe('HAR view', () => {
  let page: Page;
  const script = () => join(e2e().workspace, 'model', 'tinycnn.alls');
  let original = '';
  before(async () => {
    original = readFileSync(script(), 'utf8');
    page = await openWorkbench();
  });
  after(async () => {
    writeFileSync(script(), original); // the scenarios after this one see the example as shipped
    await page?.close();
  });

  it('shows the layers and the noise figures worst first, as the CLI reads them, with the calibration set beside them', async () => {
    const cli = cliHar('model/tinycnn_quantized.har');
    const view = await openHarView(page, 'model/tinycnn_quantized.har');
    await waitForEqual(
      'the layer rows (as the CLI reads them)',
      () => layerRows(view),
      cli.layers.map((l) => l.name),
    );
    await waitForEqual('the HAR state', () => textOf(view, '[data-testid="har-state"]'), 'quantized_model');
    await waitForEqual(
      'the SNR column (as the CLI reads it)',
      () => view.locator('[data-testid="har-noise-row"] [data-testid="har-noise-snr"]').allTextContents(),
      cli.noise.layers.map((l) => `${l.snrDb.toFixed(2)} dB`),
    );
    const ranked = cli.noise.layers.filter((l) => !l.unranked).length;
    await view.locator(`[data-testid="har-noise-chart"][data-bars="${ranked}"]`).waitFor();
    await waitForMatch(
      'the calibration line',
      async () => (await textOf(view, '[data-testid="har-noise-calibration"]')) ?? '',
      /calibration set — .*tinycnn_calib\.npy/,
    );
    await waitForEqual(
      'the 16-bit line',
      () => textOf(view, '[data-testid="har-noise-line"]'),
      `quantization_param([${cli.noise.chosen.join(', ')}], precision_mode=a16_w16)`,
    );
  });

  it('search filters the layers on the host', async () => {
    const view = webview(page);
    await view.locator('#search').fill('deconv');
    await view.locator('[data-testid="har-match-count"]', { hasText: '1 of 15 layers' }).waitFor();
    await waitForEqual('the layer rows matching "deconv"', () => layerRows(view), ['deconv1']);
    await view.locator('#search').fill('');
    await view.locator('[data-testid="har-match-count"]', { hasText: '15 of 15 layers' }).waitFor();
  });

  it('Write 16-bit Line puts the checked layers into the script beside the HAR; its line is then linked from the layer', async () => {
    const view = webview(page);
    await view.locator('#write-sixteen').click();
    await view.locator('#status', { hasText: 'Wrote quantization_param([conv3, deconv1], precision_mode=a16_w16) into tinycnn.alls' }).waitFor();
    await waitForMatch(
      'the script beside the HAR',
      () => readFileSync(script(), 'utf8'),
      /\nquantization_param\(\[conv3, deconv1\], precision_mode=a16_w16\)\n$/,
    );
    // the view re-reads the scripts beside it (the *.alls watcher rebuilds the page): conv3's row
    // links to the new line, and the status line still says what was written
    await view.locator('[data-testid="har-layer-row"][data-layer="conv3"] a.goto-script').first().waitFor();
    await waitForMatch(
      'the status line after the page was rebuilt',
      async () => (await textOf(view, '#status')) ?? '',
      /^Wrote quantization_param\(\[conv3, deconv1\]/,
    );
    await openHarView(page, 'model/tinycnn_quantized.har');
    const link = webview(page).locator('[data-testid="har-layer-row"][data-layer="conv3"] a.goto-script');
    await link.first().waitFor();
    const lines = original.split('\n').length; // the new line's number (1-based)
    await waitForEqual("conv3's link to the script", () => link.first().textContent({ timeout: 2000 }), `tinycnn.alls:${lines}`);
  });

  it('a layer row goes to the script line that names it, and from there Show Layer in HAR View comes back to the layer', async () => {
    await closeAllEditors(page);
    const view = await openHarView(page, 'model/tinycnn_quantized.har');
    // conv1's row links to `quantization_param(conv1, …)` on line 3 of the script
    await view.locator('[data-testid="har-layer-row"][data-layer="conv1"] a.goto-script', { hasText: 'tinycnn.alls:3' }).click();
    await page.locator('.tabs-container .tab.active[aria-label^="tinycnn.alls"]').first().waitFor();
    await page.locator('.monaco-editor .cursor-line-number, .monaco-editor .active-line-number', { hasText: /^3$/ }).first().waitFor();
    await execute(page, 'workbench.action.closeEditorsInOtherGroups');
    await goTo(page, 'model/tinycnn.alls', 3, 22); // inside `conv1`
    await execute(page, 'hailo.showLayerInHarView');
    await webview(page)
      .locator('tr.layer.focus[data-layer="conv1"]')
      .waitFor({ timeout: deadlineMs(2) });
  });
});

// Hailo: Analyze Layer Noise from the palette on the example quantized HAR, against the fake docker
// (test/fakes/docker, the noise scenario: its fake DFC fills get_params_statistics() as the real
// one does): the view goes from "not run yet" to the SNR column and chart `hailo-tools har --json`
// then reads from the written sidecar; two layers checked by hand become the 16-bit line, and the
// script then has no error (the CLI's checker, the same core as the editor's).
describe('HAR view: the noise run', () => {
  let page: Page;
  const script = () => join(e2e().workspace, 'model', 'tinycnn.alls');
  const sidecar = () => join(e2e().workspace, 'model', 'tinycnn_quantized.noise.json');
  const config = () => join(e2e().fakeDockerState, 'config.json');
  let original = { script: '', sidecar: '', config: '' };
  const scriptErrors = () => {
    const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'check', '--json', script()], { encoding: 'utf8' });
    const report = JSON.parse(r.stdout) as { files: { diagnostics: { severity: string; message: string }[] }[] };
    return report.files.flatMap((f) => f.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message));
  };
  before(async () => {
    original = { script: readFileSync(script(), 'utf8'), sidecar: readFileSync(sidecar(), 'utf8'), config: readFileSync(config(), 'utf8') };
    rmSync(sidecar());
    writeFileSync(config(), JSON.stringify({ scenario: join(repoRoot, 'test', 'fixtures', 'compile', 'scenarios', 'noise.json') }));
    page = await openWorkbench();
  });
  after(async () => {
    writeFileSync(script(), original.script);
    writeFileSync(sidecar(), original.sidecar);
    writeFileSync(config(), original.config);
    await page?.close();
  });

  const argvCount = () => {
    const f = join(e2e().fakeDockerState, 'argv.jsonl');
    return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).length : 0;
  };

  if (!e2e().trust) {
    it('is refused in Restricted Mode: docker is never called and nothing is written', async () => {
      const calls = argvCount();
      await openHarView(page, 'model/tinycnn_quantized.har');
      assert.equal(await execute(page, 'hailo.analyzeNoise', [fileArg('model/tinycnn_quantized.har')]), null);
      await page
        .locator('.notifications-toasts .notification-list-item')
        .filter({ hasText: 'Hailo: Analyze Layer Noise runs programs on this machine' })
        .first()
        .waitFor();
      assert.equal(argvCount(), calls);
      assert.equal(existsSync(sidecar()), false);
    });
    return;
  }

  it('runs in the container, shows the SNR column and chart, and writes the two checked layers into the script without a new error', async () => {
    assert.deepEqual(scriptErrors(), [], 'the example script has no error to begin with');
    const view = await openHarView(page, 'model/tinycnn_quantized.har');
    await view.locator('[data-testid="har-noise-none"]', { hasText: 'Not run yet for this HAR' }).waitFor();
    // No argument: the HAR of the active view. The command ends once the run has ended and the view
    // has been told; its result is the sidecar beside the HAR (written by one rename). The "done"
    // banner is not waited for: the view re-renders when the sidecar appears and the banner can go
    // with it (seen in CI, the figures on the page and no banner).
    await execute(page, 'hailo.analyzeNoise', [], { steps: 4 });
    assert.ok(existsSync(sidecar()), 'the noise sidecar beside the HAR');
    const cli = cliHar('model/tinycnn_quantized.har'); // reads the sidecar the run wrote
    assert.ok(cli.noise.layers.length > 0, 'the run wrote figures beside the HAR');
    const after = webview(page);
    await waitForEqual(
      'the SNR column (as the CLI reads the new sidecar)',
      () => after.locator('[data-testid="har-noise-row"] [data-testid="har-noise-snr"]').allTextContents(),
      cli.noise.layers.map((l) => `${l.snrDb.toFixed(2)} dB`),
    );
    await after.locator(`[data-testid="har-noise-chart"][data-bars="${cli.noise.layers.filter((l) => !l.unranked).length}"]`).waitFor();
    assert.equal(cli.noise.layers.find((l) => l.name === 'conv3')?.snrDb.toFixed(2), '6.30', "the scenario's figure for conv3");
    // The view renders again when the sidecar appears (its watcher), and a render rebuilds the page
    // and its boxes. So the boxes are set and Write is clicked in one task of the page: no render
    // can come between them, whichever page is there (the row order is the page's, worst first).
    const wanted = cli.noise.layers.map((l) => !l.unranked && (l.name === 'conv3' || l.name === 'conv2'));
    await after.locator('#write-sixteen').evaluate((button, want) => {
      const doc = (button as unknown as { ownerDocument: { querySelectorAll(s: string): ArrayLike<unknown> } }).ownerDocument;
      for (const el of Array.from(doc.querySelectorAll('input.sixteen'))) {
        const box = el as { checked: boolean; disabled: boolean; getAttribute(n: string): string | null; dispatchEvent(e: unknown): boolean };
        const on = want[Number(box.getAttribute('data-noise-index'))] === true;
        if (box.disabled || box.checked === on) continue;
        box.checked = on;
        box.dispatchEvent(new (globalThis as unknown as { Event: new (t: string, o: object) => unknown }).Event('change', { bubbles: true }));
      }
      (button as unknown as { click(): void }).click();
    }, wanted);
    // the view re-renders when the script changes (its watcher), so the state waited for is the file itself
    await waitForMatch(
      'the script beside the HAR',
      () => readFileSync(script(), 'utf8'),
      /\nquantization_param\(\[conv3, conv2\], precision_mode=a16_w16\)\n$/,
    );
    assert.deepEqual(scriptErrors(), [], 'the written line adds no error');
    assert.deepEqual(
      (existsSync(join(e2e().fakeDockerState, 'containers')) ? readdirSync(join(e2e().fakeDockerState, 'containers')) : []).filter((n) => n.endsWith('.json')),
      [],
      'no container left on docker',
    );
  });
});
