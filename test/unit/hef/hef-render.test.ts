// The inspector's HTML (client/src/hef/render.ts, pure): every file-derived string is escaped,
// the CSP is a nonce CSP without inline styles, and the stable data-testids the end-to-end
// tests rely on are present.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { bufferSource, checkMtmdSource, readHef, readResource, type HefReport, type MtmdResult } from '../../../server/src/core/hef';
import { renderInspector, renderMessage, type InspectorModel } from '../../../client/src/hef/render';
import { esc } from '../../../client/src/webview/html';
import { buildHef, utf8 } from '../../helpers/hefBuilder';
import { htmlNamesHefSpec } from '../../helpers/inlineHefs';
import { GOOD_CONFIG, SLOTS } from '../../helpers/hefBuilderFixtures';
import { repoRoot } from '../../helpers/shared';
import {
  assertNoncePage,
  assertOnlyElements,
  assertPayloadEscaped,
  cspMeta as meta,
  EVIL,
  PAGE_FRAME,
  testPage,
  WEBVIEW_CSP as CSP,
} from '../../helpers/webviewPage';

const PAGE = testPage('hef.css', 'hef.js');

async function model(bytes: Uint8Array, title = 'x.hef'): Promise<InspectorModel> {
  const src = bufferSource(bytes);
  const report: HefReport = await readHef(src);
  const mtmd: MtmdResult = await checkMtmdSource(src, report, { textModelWidth: 10240 });
  const cfg = await readResource(src, report.externalResources, 'hailo-config.json');
  return { report, mtmd, title, targetArch: 'hailo10h', configText: 'bytes' in cfg ? new TextDecoder().decode(cfg.bytes) : undefined };
}

test('render: a vstream named <img src=x onerror=alert(1)> renders as text, everywhere', async () => {
  const bytes = await buildHef(htmlNamesHefSpec(EVIL));
  const html = renderInspector(await model(bytes, `file${EVIL}.hef`), PAGE);
  assertPayloadEscaped(html);
  assert.ok(!html.includes(`"quoted'`), 'quotes are escaped too');
  // The only elements are the ones the renderer writes.
  assertOnlyElements(html, [
    ...PAGE_FRAME,
    'header',
    'h1',
    'h2',
    'h3',
    'h4',
    'div',
    'button',
    'p',
    'details',
    'summary',
    'dl',
    'dt',
    'dd',
    'span',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'code',
    'pre',
    'br',
  ]);
  // The vstream row carries the name in an attribute, escaped.
  assert.ok(html.includes(`data-name="${esc(EVIL)}"`));
});

test('render: nonce CSP, no inline styles or handlers, resources from the webview source only', async () => {
  const html = renderInspector(await model(readFileSync(join(repoRoot, 'test', 'fixtures', 'hef', 'mtmd-pass.hef'))), PAGE);
  assertNoncePage(html, 'hef.js');
  assert.ok(!/\son[a-z]+=/.test(html), 'no inline event handlers');
  const msg = renderMessage(EVIL, EVIL, PAGE);
  assert.ok(!msg.includes(EVIL));
  // A weak policy is refused rather than rendered.
  const m = await model(readFileSync(join(repoRoot, 'test', 'fixtures', 'hef', 'mtmd-pass.hef')));
  assert.throws(() => renderInspector(m, { ...PAGE, cspMeta: `${meta(CSP)}<script>x()</script>` }), /weak Content-Security-Policy/);
  for (const weak of [
    "script-src 'nonce-n0nce+/='",
    "default-src 'none'; script-src 'unsafe-inline' 'nonce-n0nce+/='",
    "default-src 'none'; script-src 'nonce-other'",
  ]) {
    assert.throws(() => renderInspector(m, { ...PAGE, cspMeta: meta(weak) }), /weak Content-Security-Policy/);
  }
});

test('render: sections and data-testids the end-to-end tests use', async () => {
  const html = renderInspector(await model(readFileSync(join(repoRoot, 'test', 'fixtures', 'hef', 'mtmd-pass.hef')), 'mtmd-pass.hef'), PAGE);
  for (const id of [
    'hef-inspector',
    'hef-copy-json',
    'hef-summary',
    'hef-contract',
    'hef-contract-status',
    'hef-contract-table',
    'hef-integrity',
    'hef-integrity-status',
    'hef-arch',
    'hef-compatible-devices',
    'hef-networks',
    'hef-vstreams-table',
    'hef-streams-table',
    'hef-quant',
    'hef-resources',
    'hef-resources-table',
    'hef-config-viewer',
    'hef-problems',
  ]) {
    assert.ok(html.includes(`data-testid="${id}"`), id);
  }
  assert.match(html, /data-testid="hef-contract-status" data-pass="true"/);
  const rows = [...html.matchAll(/data-testid="hef-contract-row" data-rule-id="([^"]+)" data-pass="([^"]+)"/g)];
  assert.equal(rows.length, 17);
  assert.ok(rows.every((r) => r[2] === 'true'));
  assert.equal([...html.matchAll(/data-testid="hef-vstream-row"/g)].length, 5);
  for (const s of SLOTS) assert.ok(html.includes(`data-name="qwen3vl_vit/${s}"`));
  // The config viewer shows the embedded JSON, pretty-printed.
  const viewer = /data-testid="hef-config-viewer">([^<]*)<\/pre>/.exec(html)![1];
  assert.deepEqual(JSON.parse(viewer.replace(/&quot;/g, '"')), GOOD_CONFIG);
});

test('render: a failing contract shows FAIL rows with llama.cpp text; a damaged file still renders', async () => {
  const html = renderInspector(await model(readFileSync(join(repoRoot, 'test', 'fixtures', 'hef', 'mtmd-fail-four-outputs.hef'))), PAGE);
  assert.match(html, /data-testid="hef-contract-status" data-pass="false"/);
  assert.match(html, /data-rule-id="four-outputs" data-pass="false"/);
  assert.ok(html.includes('HEF must have exactly 4 outputs, but got 3'));

  const cut = readFileSync(join(repoRoot, 'test', 'fixtures', 'hef', 'mtmd-pass.hef')).subarray(0, 3000);
  const damaged = renderInspector(await model(cut), PAGE);
  assert.match(damaged, /data-testid="hef-problem-row" data-code="hef\/truncated"/);
  assert.match(damaged, /data-testid="hef-integrity-status"><span class="badge bad">FAILED/);

  const garbage = renderInspector(await model(utf8('version https://git-lfs.github.com/spec/v1\noid sha256:abc\n')), PAGE);
  assert.ok(garbage.includes('Git LFS pointer'));
});

test('render: the HailoRT section gives each line its verdict — the outdated fixture is refused with 92 from 4.21, the sound one loads', async () => {
  const ok = renderInspector(await model(readFileSync(join(repoRoot, 'test', 'fixtures', 'hef', 'mtmd-pass.hef')), 'mtmd-pass.hef'), PAGE);
  const rows = (html: string) =>
    [...html.matchAll(/data-testid="hef-runtime-row" data-line="([^"]+)" data-outcome="([^"]+)" data-status="([^"]*)"/g)].map((m) => [m[1], m[2], m[3]]);
  assert.deepEqual(rows(ok), [
    // A V3 file: 4.18–4.19 read it as V1 ("HEF version does not match", 8), 4.20 has no V3 (26).
    ['4.18-4.19', 'refuses', '8'],
    ['4.20', 'refuses', '26'],
    ['4.21-4.23', 'loads', ''],
    ['5.0', 'loads', ''],
    ['5.1-5.2', 'loads', ''],
  ]);
  assert.match(ok, /data-testid="hef-summary-hailort"><span class="badge ok">HailoRT 5\.1–5\.2 loads it/);
  const outdated = renderInspector(await model(readFileSync(join(repoRoot, 'test', 'fixtures', 'hef', 'mtmd-fail-hef-opens.hef')), 'x.hef'), PAGE);
  assert.deepEqual(
    rows(outdated).map((r) => r[2]),
    ['8', '26', '92', '92', '92'],
  );
  assert.match(outdated, /data-testid="hef-summary-hailort"><span class="badge bad">HailoRT 5\.1–5\.2 refuses it: 92 HAILO_HEF_NOT_SUPPORTED/);
});
