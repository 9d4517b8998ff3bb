// Hailo: Run Sweep as a user meets it, against the fake docker (test/fakes/docker) and the fake DFC:
// a plan of four variants opened in the editor, run (through the command bridge, awaited to its end), to a page whose
// table fills as the variants end (two at once on the context's width 2), sorts by a column, draws
// accuracy against compile time, and opens a variant's HEF from its cell; run again, nothing
// compiles twice. In Restricted Mode the command is refused and docker is never called.
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { writeNpyFloat32 } from '../../../server/src/core/calib/npyRead';
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
  waitUntil,
  webview,
} from './workbench';

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

/**
 * The plan, its model files, its inputs and a fake-DFC scenario whose emulator replays the float
 * model's own logits (computed here with onnxruntime-node) 0.1 % too large for a16_w16 and 3 % too
 * large for a8_w8: the page then shows relative errors of 0.1 % and 3 %.
 */
async function setUp(): Promise<{ plan: string; out: string }> {
  const { workspace, fakeDockerState, repo } = e2e();
  const dir = join(workspace, 'e2e-fixtures', 'sweep');
  mkdirSync(dir, { recursive: true });
  for (const f of ['tinycnn_hailo_model.har', 'tinycnn.onnx', 'tinycnn.alls', 'tinycnn_calib.npy']) copyFileSync(join(workspace, 'model', f), join(dir, f));
  const N = 2;
  const per = 64 * 64 * 3;
  const x = new Float32Array(N * per);
  let seed = 11;
  for (let i = 0; i < x.length; i++) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    x[i] = (seed >>> 16) % 256;
  }
  writeNpyFloat32(join(dir, 'inputs.npy'), [N, 64, 64, 3], x);
  const ort = createRequire(join(repo, 'package.json'))('onnxruntime-node') as typeof import('onnxruntime-node');
  const session = await ort.InferenceSession.create(join(dir, 'tinycnn.onnx'));
  const logits: Float32Array[] = [];
  for (let k = 0; k < N; k++) {
    // tinycnn.alls: normalization x/255; NHWC → NCHW
    const nchw = new Float32Array(per);
    for (let h = 0; h < 64; h++) for (let w = 0; w < 64; w++) for (let c = 0; c < 3; c++) nchw[c * 4096 + h * 64 + w] = x[k * per + (h * 64 + w) * 3 + c] / 255;
    const r = await session.run({ input: new ort.Tensor('float32', nchw, [1, 3, 64, 64]) });
    logits.push(Float32Array.from(r.logits.data as Float32Array));
  }
  const replay = (name: string, factor: number) => {
    const data = new Float32Array(N * 10);
    logits.forEach((l, k) => l.forEach((v, j) => (data[k * 10 + j] = v * factor)));
    writeNpyFloat32(join(fakeDockerState, name), [N, 1, 1, 10], data);
    return join(fakeDockerState, name);
  };
  const scenario = join(fakeDockerState, 'sweep-scenario.json');
  writeFileSync(
    scenario,
    JSON.stringify({
      log: join(repo, 'test', 'fixtures', 'compile', 'logs', 'success-dfc5.log'),
      emulate: { SDK_QUANTIZED: { outputs: [replay('q16.npy', 1.001)] } },
      byScript: [{ match: '\\nquantization_param\\(conv1, precision_mode=a8_w8\\)', emulate: { SDK_QUANTIZED: { outputs: [replay('q8.npy', 1.03)] } } }],
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
        accuracy: { inputs: 'inputs.npy' },
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
      await setUp();
      const calls = argvLines().length;
      await openFile(page, 'e2e-fixtures/sweep/tiny.sweep.json');
      assert.deepEqual(await execute(page, 'hailo.runSweep', [fileArg('e2e-fixtures/sweep/tiny.sweep.json')]), { ran: false, reason: 'untrusted' });
      await page
        .locator('.notifications-toasts .notification-list-item')
        .filter({ hasText: 'Hailo: Run Sweep runs programs on this machine' })
        .first()
        .waitFor();
      assert.equal(argvLines().length, calls);
      // Opening results only reads, so it works here — and says there are none yet.
      const opened = await execute<{ shown: boolean; message?: string }>(page, 'hailo.openSweepResults', [fileArg('e2e-fixtures/sweep/tiny.sweep.json')]);
      assert.equal(opened.shown, false);
      assert.match(opened.message ?? '', /No results yet: .*tiny\.sweep\.json has not been run/);
      await page
        .locator('.notifications-toasts .notification-list-item')
        .filter({ hasText: /No results yet: .*tiny\.sweep\.json has not been run/ })
        .first()
        .waitFor();
    });
    return;
  }

  it('runs a plan to one sortable table with the accuracy chart; a cell opens the variant’s HEF; run again, nothing compiles twice', async function () {
    // Eight containers (four compiles, four emulator runs) and the float model: 18 of the suite's steps.
    this.timeout(deadlineMs(20));
    await closeAllEditors(page);
    await page.locator('iframe.webview').first().waitFor({ state: 'detached' });
    const { out } = await setUp();
    const before = compiles();
    await openFile(page, 'e2e-fixtures/sweep/tiny.sweep.json');
    // Started, not awaited yet: the page is watched while the sweep runs.
    const ran = execute<{ ran: boolean; doc?: { summary: { variants: number; done: number } } }>(
      page,
      'hailo.runSweep',
      [fileArg('e2e-fixtures/sweep/tiny.sweep.json')],
      {
        steps: 18,
      },
    );
    const view = webview(page);
    const rows = view.locator('[data-testid="sweep-row"]');
    // The table lists every variant at once and fills in as they end.
    await rows.nth(3).waitFor({ timeout: deadlineMs(2) });
    const result = await ran;
    assert.equal(result.ran, true);
    assert.deepEqual([result.doc?.summary.variants, result.doc?.summary.done], [4, 4]);
    await view.locator('[data-testid="sweep-summary"][data-running="false"]').waitFor();
    await view.locator('[data-testid="sweep-row"][data-state="done"]').nth(3).waitFor();
    await waitForCount(rows, 4, 'variant rows');
    await waitForEqual('the compiles the fake docker ran', () => compiles() - before, 4);
    type SweepDoc = { rows: { id: string; accuracy: { relativeError: number; status: string; message?: string } | null; dockerContext: string }[] };
    const doc = await waitUntil(
      `${join(out, 'sweep.json')} with its four rows`,
      () => (existsSync(join(out, 'sweep.json')) ? (JSON.parse(readFileSync(join(out, 'sweep.json'), 'utf8')) as SweepDoc) : undefined),
      (d) => d?.rows.length === 4,
    ).then((d) => d!);
    assert.ok(doc.rows.every((r) => r.dockerContext === 'default' && r.accuracy));
    // The emulator replayed the float logits ×1.001 (a16_w16) and ×1.03 (a8_w8): relative errors 0.1 % and 3 %.
    for (const r of doc.rows)
      assert.ok(
        Math.abs(r.accuracy!.relativeError - (r.id.endsWith('a8_w8') ? 0.03 : 0.001)) < 1e-5,
        `${r.id}: ${r.accuracy!.relativeError} (${r.accuracy!.status}: ${r.accuracy!.message ?? ''})`,
      );
    // Sort by the relative error: the page's order is the document's order by that value.
    const relHead = view.locator('th[data-col="rel_error"]');
    await relHead.click();
    await view.locator('th[data-col="rel_error"][aria-sort="ascending"]').waitFor();
    const ids = () => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-id')));
    const byError = [...doc.rows].sort((a, b) => a.accuracy!.relativeError - b.accuracy!.relativeError).map((r) => r.id);
    await waitForEqual('the rows sorted by relative error, ascending', ids, byError);
    await relHead.click();
    await view.locator('th[data-col="rel_error"][aria-sort="descending"]').waitFor();
    // Descending: larger errors first; equal errors keep the plan's order (as ascending does).
    await waitForEqual(
      'the rows sorted by relative error, descending',
      ids,
      [...doc.rows].sort((a, b) => b.accuracy!.relativeError - a.accuracy!.relativeError).map((r) => r.id),
    );
    // The cell shows the document's figure.
    const first = doc.rows.find((r) => r.id === byError[byError.length - 1])!;
    await waitForEqual(
      `the relative error cell of ${first.id}`,
      () => view.locator(`[data-testid="sweep-row"][data-id="${first.id}"] td[data-col="rel_error"]`).textContent({ timeout: 2000 }),
      `${(100 * first.accuracy!.relativeError).toPrecision(3)} %`,
    );
    // The chart: one point per variant, drawn by uPlot under the nonce CSP.
    await view.locator('[data-testid="sweep-chart"][data-drawn="true"][data-points="4"]').waitFor();
    await view.locator('[data-testid="sweep-context"][data-state="up"]').first().waitFor();
    await screenshot(page, 'sweep-results');
    // Run Again: every variant is finished with the same inputs, so none compiles.
    await view.locator('[data-testid="sweep-run-again"]').click();
    await view.locator('[data-testid="sweep-summary"]', { hasText: '4 variants, 4 reused' }).waitFor({ timeout: deadlineMs(2) });
    await view.locator('[data-testid="sweep-summary"][data-running="false"]').waitFor();
    assert.equal(compiles() - before, 4, 'nothing compiled twice');
    // Hailo: Open Sweep Results… on the plan shows the table again from <out>/sweep.json (a new page).
    await closeAllEditors(page);
    await page.locator('iframe.webview').first().waitFor({ state: 'detached' });
    await openFile(page, 'e2e-fixtures/sweep/tiny.sweep.json');
    // No argument: the command takes the plan from the active editor.
    assert.deepEqual(await execute(page, 'hailo.openSweepResults'), { shown: true });
    await view.locator('[data-testid="sweep-row"][data-state="reused"]').nth(3).waitFor();
    // A cell of the HEF column opens that variant's HEF in the HEF inspector.
    await view.locator(`[data-testid="sweep-row"][data-id="${first.id}"] td[data-col="hef_bytes"]`).click();
    await page.locator('.tabs-container .tab', { hasText: 'tinycnn_hailo_model.hef' }).first().waitFor();
    assert.equal(compiles() - before, 4);
  });
});
