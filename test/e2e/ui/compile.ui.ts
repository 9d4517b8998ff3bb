// What a user sees of Hailo: Compile Model (fake docker, see suite/compile.e2e.ts): the command (run
// through the command bridge, its completion awaited) on an open .alls asks once for the calibration set, shows a progress notification
// per stage with the calibration progress, can be cancelled from that notification (the container
// goes, no output appears), a DFC model-script error lands on its line in the Problems panel, and a
// container an earlier (crashed) session left is offered for removal and goes with its staging folder.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { e2e } from './context';
import {
  deadlineMs,
  execute,
  fileArg,
  openFile,
  openWorkbench,
  problemsRows,
  screenshot,
  waitForEqual,
  waitForTextThat,
  waitUntil,
  waitUntilStill,
} from './workbench';

function scenario(s: Record<string, unknown>): void {
  const { fakeDockerState } = e2e();
  const file = join(fakeDockerState, 'ui-scenario.json');
  writeFileSync(file, JSON.stringify(s));
  writeFileSync(join(fakeDockerState, 'config.json'), JSON.stringify({ scenario: file }));
}
const fixture = (p: string) => join(e2e().repo, 'test', 'fixtures', p);
const containers = () => readdirSync(join(e2e().fakeDockerState, 'containers')).filter((n) => n.endsWith('.json'));
const argvCount = () => {
  const f = join(e2e().fakeDockerState, 'argv.jsonl');
  return existsSync(f) ? readFileSync(f, 'utf8').split('\n').filter(Boolean).length : 0;
};

const stagingFolders = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.hailo-compile-'));

describe('Hailo: Compile Model', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });
  const toasts = () => page.locator('.notifications-toasts .notification-list-item');

  if (!e2e().trust) {
    it('is refused in Restricted Mode, and docker is never called', async () => {
      const calls = argvCount();
      await openFile(page, 'e2e-fixtures/compile/tinycnn.alls');
      assert.deepEqual(await execute(page, 'hailo.compileModel'), { ran: false, reason: 'untrusted' });
      await toasts().filter({ hasText: 'Hailo: Compile Model runs programs on this machine' }).first().waitFor();
      assert.equal(argvCount(), calls);
    });
    return;
  }

  it('on the open script: asks for the calibration once, shows the stage and calibration progress, and Cancel stops it', async () => {
    scenario({ log: fixture('compile/logs/success-dfc5.log'), progress: { at: 'optimize', entries: 64, intervalMs: 400 } });
    const dir = join(e2e().workspace, 'e2e-fixtures', 'compile');
    // Outputs of earlier compiles (the in-host suite's) must come through a cancel untouched.
    const outputs = ['tinycnn.har', 'tinycnn_optimized.har', 'tinycnn.hef'];
    const stamp = () => outputs.map((n) => (existsSync(join(dir, n)) ? statSync(join(dir, n)).mtimeMs : null));
    const before = stamp();
    await openFile(page, 'e2e-fixtures/compile/tinycnn.alls');
    // Started, not awaited yet: its question is answered in the page. No argument: the active editor's script.
    const compiled = execute<{ cancelled?: boolean }>(page, 'hailo.compileModel', [], { steps: 4 });
    // No calibration set beside the model: one question, remembered for the folder.
    const quick = page.locator('.quick-input-widget');
    await quick.getByText('calibration set for tinycnn').first().waitFor();
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Use random data' }).first().click();
    const progress = toasts().filter({ hasText: 'Hailo: compiling tinycnn' }).first();
    await progress.filter({ hasText: /optimize \(2\/3\) · Calibration \d+\/64 · \d/ }).waitFor({ timeout: deadlineMs(2) });
    await waitUntilStill(progress);
    await screenshot(page, 'compile-progress');
    await waitUntil('one compile container', containers, (c) => c.length === 1);
    await progress.getByRole('button', { name: 'Cancel' }).click();
    const outcome = await compiled;
    assert.equal(outcome.cancelled, true, `the compile ended cancelled: ${JSON.stringify(outcome).slice(0, 300)}`);
    await waitForEqual('the containers after Cancel', containers, []);
    await progress.waitFor({ state: 'detached' });
    await waitForEqual('the staging folders after Cancel', () => stagingFolders(dir), []);
    assert.deepEqual(stamp(), before, 'a cancelled compile writes no output (parse had finished: its HAR is not delivered either)');
  });

  it('Hailo: Remove Leftover Compile Containers: a container whose owner is gone is named, and Remove takes it and its staging folder', async () => {
    const { fakeDockerState, repo, workspace } = e2e();
    const name = 'hailo-compile-tinycnn-0ld5e55';
    const staging = join(workspace, 'e2e-fixtures', 'compile', `.${name}`);
    mkdirSync(staging, { recursive: true });
    writeFileSync(join(staging, 'tinycnn.har'), 'half-written');
    // What a crashed editor leaves: a labelled container whose owner process (this host, a dead pid) is gone.
    const made = spawnSync(
      join(repo, 'test', 'fakes', 'docker', 'docker'),
      [
        'create',
        '--name',
        name,
        '--label',
        'dev.hailo-tools.compile=1',
        '--label',
        `dev.hailo-tools.owner=${hostname()}:999999`,
        '--label',
        `dev.hailo-tools.staging=${staging}`,
        '--label',
        `dev.hailo-tools.model=${join(workspace, 'e2e-fixtures', 'compile', 'tinycnn.onnx')}`,
        'hailo_ai_sw_suite_2026-04:1',
        'python3',
      ],
      { env: { ...process.env, HAILO_FAKE_DOCKER_STATE: fakeDockerState }, encoding: 'utf8' },
    );
    assert.equal(made.status, 0, made.stderr);
    assert.deepEqual(containers(), [`${name}.json`], 'the fake docker CLI has written the container when it exits');
    const removing = execute(page, 'hailo.removeLeftoverContainers');
    const offer = toasts()
      .filter({ hasText: `1 compile container from an earlier session is still on docker: ${name}.` })
      .first();
    await offer.waitFor();
    await offer.getByRole('button', { name: 'Remove' }).click();
    assert.deepEqual(await removing, { ran: true, removed: 1 });
    await toasts().filter({ hasText: 'Hailo: removed 1 leftover container.' }).first().waitFor();
    await waitForEqual('the containers after Remove', containers, []);
    await waitForEqual('whether the staging folder is still there (it goes with the container)', () => existsSync(staging), false);
  });

  it('a model-script error from the DFC lands on its line in the Problems panel', async () => {
    scenario({ log: fixture('dfc/model-script-syntax/run.log'), failAt: 'load_model_script', delay: { at: 'load_model_script', ms: 1500 } });
    await openFile(page, 'e2e-fixtures/compile/tinycnn.alls');
    // The calibration choice was remembered: no question this time, so the command runs to its end.
    const failed = await execute<{ cancelled?: boolean; failedStage?: string }>(page, 'hailo.compileModel', [], { steps: 3 });
    assert.deepEqual([failed.cancelled, failed.failedStage], [false, 'optimize'], JSON.stringify(failed).slice(0, 300));
    await toasts().filter({ hasText: 'The compile of tinycnn failed in optimize' }).first().waitFor();
    const rows = await problemsRows(page);
    // test/fixtures/dfc/model-script-syntax/expected.json: line 3, column 67.
    const row = rows.filter({ hasText: "Expected ')', found 'batch_size'" }).first();
    await waitForTextThat(
      row,
      (text) => /Hailo DFC/.test(text) && /\[Ln 3, Col 67\]/.test(text),
      'the DFC problem row to show its source (Hailo DFC) and position [Ln 3, Col 67]',
    );
    await screenshot(page, 'compile-error');
  });
});
