// The calibration set beside a script, in the .alls editor, over the real bundled server: the
// diagnostics where set and script disagree sit on `calibset_size` and the `normalization`
// statement, hover on them shows what the set holds, an edit that makes them agree clears the
// diagnostic, and a script whose set fits it (examples/model/tinycnn.alls) gets none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HoverRequest, type Hover, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { startTestServer } from '../helpers/lsp';
import { repoRoot } from '../helpers/shared';

const SCRIPT = join(repoRoot, 'test', 'fixtures', 'calib', 'lsp', 'model.alls');

test('a uniform [0,1) set of 8 entries beside a script with a 0–255 normalization and calibset_size=64', async () => {
  const server = await startTestServer();
  try {
    const uri = pathToFileURL(SCRIPT).href;
    const text = readFileSync(SCRIPT, 'utf8');
    const first = server.nextDiagnostics(uri, 1, 30000);
    server.open(uri, 'alls', text, 1);
    const calib = (await first).diagnostics.filter((d) => String(d.code).startsWith('calib/'));
    const byCode = Object.fromEntries(calib.map((d) => [d.code, d]));
    assert.deepEqual(Object.keys(byCode).sort(), ['calib/too-few', 'calib/uniform-unit']);
    // calibset_size=64: the diagnostic sits on the value "64" of line 2.
    const size = byCode['calib/too-few'];
    assert.equal(size.severity, 2);
    assert.deepEqual(size.range, { start: { line: 1, character: 67 }, end: { line: 1, character: 69 } });
    assert.match(size.message, /^Calibration set model\.npy: The set has 8 entries, fewer than the script's calibset_size=64/);
    const uni = byCode['calib/uniform-unit'];
    assert.equal(uni.range.start.line, 0);
    assert.match(uni.message, /np\.random\.rand.*expects 0–255 pixels/);

    // Hover on calibset_size shows the set.
    const h = (await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 55 } })) as Hover;
    const md = (h.contents as MarkupContent).value;
    assert.match(md, /\*\*Calibration set\*\* `model\.npy`: float32 \(8, 16, 16, 3\), \*\*8 entries\*\*, layout NHWC/);
    assert.ok(md.includes('uniform \\[0, 1) (np.random.rand-like)'), md);
    assert.match(md, /\| 0 \| /);

    // The script now asks for 8 entries and has no normalization: both diagnostics go.
    const second = server.nextDiagnostics(uri, 2, 30000);
    server.change(uri, 'model_optimization_config(calibration, batch_size=8, calibset_size=8)\n', 2);
    const after = (await second).diagnostics.filter((d) => String(d.code).startsWith('calib/'));
    assert.deepEqual(after, []);
  } finally {
    await server.stop();
  }
});

test('examples/model/tinycnn.alls: 64 uint8 NHWC frames for a 0–255 normalization — no calibration diagnostic, hover on normalization shows the set', async () => {
  const server = await startTestServer();
  try {
    const path = join(repoRoot, 'examples', 'model', 'tinycnn.alls');
    const uri = pathToFileURL(path).href;
    const d = server.nextDiagnostics(uri, 1, 30000);
    server.open(uri, 'alls', readFileSync(path, 'utf8'), 1);
    assert.deepEqual(
      (await d).diagnostics.filter((x) => String(x.code).startsWith('calib/')),
      [],
    );
    const h = (await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 20 } })) as Hover;
    const md = (h.contents as MarkupContent).value;
    // The layout was checked against the HAR's HN input layer [-1,64,64,3].
    assert.match(md, /`tinycnn_calib\.npy`: uint8 \(64, 64, 64, 3\), \*\*64 entries\*\*, layout NHWC/);
    assert.match(md, /integers in 0–255/);
  } finally {
    await server.stop();
  }
});
