// The HEF inspector's NMS section (client/src/hef/render.ts over server/src/core/nms inspectHefNms): the
// zoo detector's HEF agrees with its script, config and labels; the custom one shows where they
// disagree, with file and line; a HEF alone says there is nothing to compare; names from the files
// are escaped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bufferSource, checkMtmdSource, readHef } from '../../../server/src/core/hef';
import { inspectHefNms } from '../../../server/src/core/nms/bundle';
import { setOpenedFolders } from '../../../server/src/core/alls/nodeHost';
import { renderInspector } from '../../../client/src/hef/render';
import { yolov8nHef } from '../../helpers/nmsDetectors';
import { repoRoot } from '../../helpers/shared';

const fx = join(repoRoot, 'test', 'fixtures', 'nms');
const PAGE = {
  nonce: 'n0nce',
  cspMeta: `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src https://w.test; script-src 'nonce-n0nce'">`,
  styleUri: 'https://w.test/hef.css',
  scriptUri: 'https://w.test/hef.js',
};

async function page(hefPath: string, labels = ''): Promise<string> {
  setOpenedFolders([repoRoot]); // the user opened the repository (the zoo's config sits beside the script's folder, not in it)
  const bytes = readFileSync(hefPath);
  const report = await readHef(bufferSource(bytes));
  const mtmd = await checkMtmdSource(bufferSource(bytes), report, {});
  return renderInspector({ report, mtmd, title: 'x.hef', nms: await inspectHefNms(hefPath, labels) }, PAGE);
}

const status = (html: string) => /data-testid="hef-nms-status" data-pass="(\w+)">(.*?)<\/p>/.exec(html)?.slice(1);

test('the zoo HEF agrees with its script, config and labels', async () => {
  const html = await page(join(fx, 'zoo', 'cfg', 'alls', 'generic', 'yolov8n.hef'));
  const [pass, text] = status(html)!;
  assert.equal(pass, 'true');
  assert.match(text, /script <code>yolov8n\.alls<\/code>, config <code>yolov8n_nms_config\.json<\/code>, labels <code>labels\.json<\/code>/);
  assert.match(html, /stride 8: <code>yolov8n\/conv41<\/code> \+ <code>yolov8n\/conv42<\/code>/);
  assert.ok(!html.includes('hef-nms-finding'));
});

test('the custom HEF: the config against the HAR and the labels against the HEF, with file and line', async () => {
  const html = await page(join(fx, 'custom', 'custom.hef'));
  assert.equal(status(html)![0], 'false');
  const rows = [...html.matchAll(/data-testid="hef-nms-finding" data-code="([^"]+)">.*?<td class="nowrap">([^<]+)<\/td>/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(rows, [
    ['nms/classes', 'custom_nms_config.json:9'],
    ['nms/labels-count', 'labels.json:4'],
  ]);
});

test('a HEF alone: nothing to compare; a labels setting is honoured; file names are escaped', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'nms-insp-'));
  try {
    writeFileSync(join(dir, 'alone.hef'), await yolov8nHef());
    assert.equal(status(await page(join(dir, 'alone.hef')))![0], 'na');
    const evil = 'x<img src=x onerror=alert(1)>.names';
    writeFileSync(join(dir, evil), 'a\nb\n');
    const html = await page(join(dir, 'alone.hef'), evil);
    assert.ok(!html.includes('<img'), 'escaped');
    assert.match(html, /x&lt;img src=x onerror=alert\(1\)&gt;\.names/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
