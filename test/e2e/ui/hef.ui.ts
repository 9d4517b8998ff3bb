// The HEF inspector (custom editor, webview): a corpus HEF and the example encoder render with
// the same mtmd contract verdicts as the CLI, and a HEF whose names are HTML shows them as text.
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { FrameLocator, Page } from 'playwright-core';
import { HOSTILE } from '../hostileFiles';
import { e2e } from './context';
import { deadlineMs, openFile, openWorkbench, screenshot, waitForEqual, waitForTextThat, webview } from './workbench';

interface CliHef {
  networkGroups: { name: string }[];
  mtmd: { pass: boolean | null; rules: { id: string; pass: boolean | null }[] };
}

const repoRoot = join(__dirname, '..', '..', '..');

/** What `hailo-tools hef --json --mtmd` (same core, no VS Code) says about a workspace file. */
function cliReport(relativePath: string): CliHef {
  const r = spawnSync(process.execPath, [join(repoRoot, 'bin', 'hailo-tools.js'), 'hef', '--json', '--mtmd', join(e2e().workspace, relativePath)], {
    encoding: 'utf8',
  });
  return JSON.parse(r.stdout) as CliHef;
}

async function openInspector(page: Page, relativePath: string): Promise<FrameLocator> {
  await openFile(page, relativePath);
  const view = webview(page);
  await view.locator('[data-testid="hef-inspector"]').waitFor({ timeout: deadlineMs(2) });
  return view;
}

function contractRows(view: FrameLocator): Promise<{ id: string; pass: string }[]> {
  return view
    .locator('[data-testid="hef-contract-row"]')
    .evaluateAll((rows) => rows.map((r) => ({ id: r.getAttribute('data-rule-id') ?? '', pass: r.getAttribute('data-pass') ?? '' })));
}

const networkGroups = (view: FrameLocator) => view.locator('[data-testid="hef-network-group"]').evaluateAll((g) => g.map((e) => e.getAttribute('data-name')));

const passAttr = (p: boolean | null) => (p === null ? 'na' : String(p));

describe('HEF inspector', () => {
  let page: Page;
  before(async () => {
    page = await openWorkbench();
  });
  after(async () => {
    await page?.close();
  });

  const corpus = e2e().shared ? 'e2e-fixtures/corpus/mnist.hef' : 'qwen3vl-vision-encoder-no-config.hef';
  it(`renders ${e2e().shared ? 'a corpus HEF (MNIST, Hailo-8)' : 'the example HEF without config (../shared absent)'} and its contract table, as the CLI reads it`, async () => {
    const cli = cliReport(corpus);
    const view = await openInspector(page, corpus);
    await waitForEqual(
      'the network groups (as the CLI reads them)',
      () => networkGroups(view),
      cli.networkGroups.map((g) => g.name),
    );
    const rows = await waitForEqual(
      'the contract rows (as the CLI reads them)',
      () => contractRows(view),
      cli.mtmd.rules.map((r) => ({ id: r.id, pass: passAttr(r.pass) })),
    );
    assert.ok(
      rows.some((r) => r.pass === 'false'),
      'this HEF is not an mtmd encoder: some rule fails',
    );
    await view.locator('[data-testid="hef-contract-status"][data-pass="false"]').waitFor();
  });

  it('the example vision encoder meets the mtmd contract', async () => {
    const cli = cliReport('qwen3vl-vision-encoder.hef');
    assert.equal(cli.mtmd.pass, true);
    const view = await openInspector(page, 'qwen3vl-vision-encoder.hef');
    await view.locator('[data-testid="hef-contract-status"][data-pass="true"]').waitFor();
    await waitForEqual(
      'the contract rows (as the CLI reads them)',
      () => contractRows(view),
      cli.mtmd.rules.map((r) => ({ id: r.id, pass: passAttr(r.pass) })),
    );
    if (e2e().trust) await screenshot(page, 'hef-inspector');
  });

  it('a HEF whose names are HTML shows them as text; nothing is injected or run', async () => {
    const view = await openInspector(page, 'e2e-fixtures/hostile-names.hef');
    const body = view.locator('body');
    await view.locator('[data-testid="hef-network-group"]').first().waitFor();
    const literals = [HOSTILE.networkGroup, HOSTILE.input, HOSTILE.output];
    await waitForTextThat(body, (text) => literals.every((l) => text.includes(l)), `the page to show ${literals.join(', ')} as text`);
    // Runs inside the webview's document (this project's tsconfig has no DOM lib, hence the casts).
    const injected = await body.evaluate((el) => {
      const doc = el.ownerDocument as unknown as { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> };
      const win = globalThis as unknown as { __hailoPwned?: number };
      return {
        elements: doc.querySelectorAll('[data-injected], img[src="x"], svg[onload], iframe, [onerror], [onload]').length,
        // VS Code injects its own helper script into the webview's head; the page's content may
        // hold only our nonce'd script, and no script may carry the payload.
        scripts:
          doc.querySelectorAll('body script:not([nonce])').length +
          Array.from(doc.querySelectorAll('script')).filter((s) => (s.textContent ?? '').includes('__hailoPwned')).length,
        pwned: win.__hailoPwned ?? null,
      };
    });
    assert.deepEqual(injected, { elements: 0, scripts: 0, pwned: null });
    // Attributes carry the name escaped, not broken out of.
    await waitForEqual('the network group attribute', async () => (await networkGroups(view))[0], HOSTILE.networkGroup);
    if (e2e().trust) await screenshot(page, 'hef-hostile-names');
  });
});
