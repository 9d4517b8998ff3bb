// Hailo: Run Sweep as a user meets it, against the fake docker (test/fakes/docker) and the fake DFC:
// a plan of four variants opened in the editor, run from the Command Palette, to a page whose
// table fills as the variants end (two at once on the context's width 2), sorts by a column, draws
// accuracy against compile time, and opens a variant's HEF from its cell; run again, nothing
// compiles twice. In Restricted Mode the command is refused and docker is never called.
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { writeNpyFloat32 } from '../../../server/src/calib/npyRead';
import { e2e } from './context';
import { closeAllEditors, openFile, openWorkbench, runCommand, screenshot, webview } from './workbench';

const argvLines = () => {
  const f = join(e2e().fakeDockerState, 'argv.jsonl');
  return existsSync(f)
    ? readFileSync(f, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as string[])
    : [];
};
const compiles = () =>
  argvLines().filter((a) => (a[0] === '--context' ? a[2] : a[0]) === 'run' && a.includes('/tmp/hailo-tools/driver/hailo_compile.py')).length;

/** The plan, its model files and a fake-DFC scenario whose emulator replays a different error per precision mode. */
function setUp(): { plan: string; out: string } {
  const { workspace, fakeDockerState, repo } = e2e();
  const dir = join(workspace, 'e2e-fixtures', 'sweep');
  mkdirSync(dir, { recursive: true });
  for (const f of ['tinycnn_hailo_model.har', 'tinycnn.onnx', 'tinycnn.alls', 'tinycnn_calib.npy']) copyFileSync(join(workspace, 'model', f), join(dir, f));
  const N = 2;
  const replay = (name: string, scale: number) => {
    const data = new Float32Array(N * 10).map((_, i) => scale * (((i * 7919) % 23) - 11));
    writeNpyFloat32(join(fakeDockerState, name), [N, 1, 1, 10], data);
    return join(fakeDockerState, name);
  };
  const scenario = join(fakeDockerState, 'sweep-scenario.json');
  writeFileSync(
    scenario,
    JSON.stringify({
      log: join(repo, 'test', 'fixtures', 'compile', 'logs', 'success-dfc5.log'),
      emulate: { SDK_QUANTIZED: { outputs: [replay('q16.npy', 1)] } },
      byScript: [{ match: '\\nquantization_param\\(conv1, precision_mode=a8_w8\\)', emulate: { SDK_QUANTIZED: { outputs: [replay('q8.npy', 3)] } } }],
    }),
  );
  writeFileSync(join(fakeDockerState, 'config.json'), JSON.stringify({ scenario }));
  const plan = join(dir, 'tiny.sweep.json');
  writeFileSync(
    plan,
    JSON.stringify(
      {
        name: 'tiny e2e',
        model: 'tinycnn_hailo_model.har',
        onnx: 'tinycnn.onnx',
        alls: 'tinycnn.alls',
        calibration: 'tinycnn_calib.npy',
        hwArch: 'hailo10h',
        axes: { optimization_level: [0, 1], precision_mode: { layers: ['conv1'], values: ['a16_w16', 'a8_w8'] } },
        contexts: [{ name: 'default', width: 2 }],
        accuracy: { count: N },
      },
      null,
      2,
    ),
  );
  return { plan, out: join(dir, 'tiny.sweep') };
}

describe('Hailo: Run Sweep', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  if (!e2e().trust) {
    it('is refused in Restricted Mode, and docker is never called', async () => {
      setUp();
      const calls = argvLines().length;
      await openFile(page, 'e2e-fixtures/sweep/tiny.sweep.json');
      await runCommand(page, 'Hailo: Run Sweep');
      await page
        .locator('.notifications-toasts .notification-list-item')
        .filter({ hasText: 'Hailo: Run Sweep runs programs on this machine' })
        .first()
        .waitFor();
      assert.equal(argvLines().length, calls);
    });
    return;
  }

  it('runs a plan to one sortable table with the accuracy chart; a cell opens the variant’s HEF; run again, nothing compiles twice', async function () {
    // Eight containers (four compiles, four emulator runs) and the float model: minutes on a loaded machine.
    this.timeout(600_000);
    await closeAllEditors(page);
    await page.locator('iframe.webview').first().waitFor({ state: 'detached' });
    const { out } = setUp();
    const before = compiles();
    await openFile(page, 'e2e-fixtures/sweep/tiny.sweep.json');
    await runCommand(page, 'Hailo: Run Sweep');
    const view = webview(page);
    const rows = view.locator('[data-testid="sweep-row"]');
    // The table lists every variant at once and fills in as they end.
    await rows.nth(3).waitFor({ timeout: 60_000 });
    await view.locator('[data-testid="sweep-summary"][data-running="false"]').waitFor({ timeout: 540_000 });
    await view.locator('[data-testid="sweep-row"][data-state="done"]').nth(3).waitFor();
    assert.equal(await rows.count(), 4);
    assert.equal(compiles() - before, 4);
    const doc = JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as {
      rows: { id: string; accuracy: { relativeError: number } | null; dockerContext: string }[];
    };
    assert.ok(doc.rows.every((r) => r.dockerContext === 'default' && r.accuracy && r.accuracy.relativeError > 0));
    // Sort by the relative error: the page's order is the document's order by that value.
    const relHead = view.locator('th[data-col="rel_error"]');
    await relHead.click();
    await view.locator('th[data-col="rel_error"][aria-sort="ascending"]').waitFor();
    const ids = () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
    const byError = [...doc.rows].sort((a, b) => a.accuracy!.relativeError - b.accuracy!.relativeError).map((r) => r.id);
    assert.deepEqual(await ids(), byError);
    await relHead.click();
    await view.locator('th[data-col="rel_error"][aria-sort="descending"]').waitFor();
    // Descending: larger errors first; equal errors keep the plan's order (as ascending does).
    assert.deepEqual(
      await ids(),
      [...doc.rows].sort((a, b) => b.accuracy!.relativeError - a.accuracy!.relativeError).map((r) => r.id),
    );
    // The cell shows the document's figure.
    const first = doc.rows.find((r) => r.id === byError[byError.length - 1])!;
    assert.equal(
      await view.locator(`[data-testid="sweep-row"][data-id="${first.id}"] td[data-col="rel_error"]`).textContent(),
      `${(100 * first.accuracy!.relativeError).toPrecision(3)} %`,
    );
    // The chart: one point per variant, drawn by uPlot under the nonce CSP.
    await view.locator('[data-testid="sweep-chart"][data-drawn="true"][data-points="4"]').waitFor();
    await view.locator('[data-testid="sweep-context"][data-state="up"]').first().waitFor();
    await screenshot(page, 'sweep-results');
    // Run Again: every variant is finished with the same inputs, so none compiles.
    await view.locator('[data-testid="sweep-run-again"]').click();
    await view.locator('[data-testid="sweep-summary"]', { hasText: '4 variants, 4 reused' }).waitFor({ timeout: 60_000 });
    await view.locator('[data-testid="sweep-summary"][data-running="false"]').waitFor();
    assert.equal(compiles() - before, 4, 'nothing compiled twice');
    // A cell of the HEF column opens that variant's HEF in the HEF inspector.
    await view.locator(`[data-testid="sweep-row"][data-id="${first.id}"] td[data-col="hef_bytes"]`).click();
    await page.locator('.tabs-container .tab', { hasText: 'tinycnn_hailo_model.hef' }).first().waitFor({ timeout: 30_000 });
  });
});
