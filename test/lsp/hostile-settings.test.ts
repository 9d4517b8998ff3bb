// Issue 18, path settings a folder can set: `hailo.model.har` (and the other model files) from a
// cloned `.vscode/settings.json`, read by the language server in Restricted Mode too. Inside the
// workspace (a `../har/…` beside the script's folder) it is used; a value leading outside the
// opened folders and the script's folder — `../..`, an absolute path, a link in the folder — is
// refused with one log line and never read: the unknown-layer warning, which names the HAR it was
// checked against, is absent. And an nms_postprocess path skipped for the same reason says so in
// the log (without telling whether the file exists).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeConfigurationNotification } from 'vscode-languageserver-protocol/node';
import { startTestServer } from '../helpers/lsp';
import { repoRoot } from '../helpers/shared';

const HAR = join(repoRoot, 'test', 'fixtures', 'har', 'tinycnn_hailo_model.har');
const SCRIPT = 'quantization_param(conv_missing, precision_mode=a16_w16)\n';

test('lsp: hailo.model.har inside the workspace is used; one leading outside (.., absolute, a link) is refused in one log line and never read', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hailo-setpaths-')));
  const ws = join(root, 'ws');
  const outside = join(root, 'outside');
  mkdirSync(join(ws, 'scripts'), { recursive: true });
  mkdirSync(join(ws, 'har'));
  mkdirSync(outside);
  copyFileSync(HAR, join(ws, 'har', 'tinycnn_hailo_model.har'));
  copyFileSync(HAR, join(outside, 'tinycnn_hailo_model.har'));
  symlinkSync(join(outside, 'tinycnn_hailo_model.har'), join(ws, 'scripts', 'linked.har'));
  const server = await startTestServer({ folders: [ws] });
  try {
    let n = 0;
    const check = async (har: string) => {
      server.settings = { model: { har } };
      await server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: null });
      const path = join(ws, 'scripts', `s${++n}.alls`);
      writeFileSync(path, SCRIPT);
      const uri = pathToFileURL(path).toString();
      server.open(uri, 'alls', SCRIPT);
      const d = await server.diagnostics(uri);
      return d.diagnostics.filter((x) => x.code === 'alls/unknown-layer').map((x) => x.message);
    };
    const inside = await check('../har/tinycnn_hailo_model.har');
    assert.equal(inside.length, 1, 'the HAR inside the workspace (beside the script folder) is read');
    assert.ok(inside[0].includes(join(ws, 'har', 'tinycnn_hailo_model.har')), inside[0]);

    for (const value of ['../../outside/tinycnn_hailo_model.har', join(outside, 'tinycnn_hailo_model.har'), 'linked.har']) {
      assert.deepEqual(await check(value), [], `${value}: not read`);
      const lines = server.log.map((l) => l.message).filter((m) => m.includes(`hailo.model.har '${value}'`));
      assert.deepEqual(lines, [
        `settings: hailo.model.har '${value}' leads (links resolved) outside the opened folders and the model's folder '${join(ws, 'scripts')}'; not read: set it to a file inside the workspace folder.`,
      ]);
    }
    // A script in another folder asks for the same refused value: still one line for it (one per
    // value, not one per model folder: a workspace of 40 folders filled the log and hid the rest).
    const again = join(outside, 'tinycnn_hailo_model.har');
    await check(again);
    const linesFor = () => server.log.filter((l) => l.message.includes(`hailo.model.har '${again}'`)).length;
    const before = linesFor();
    mkdirSync(join(ws, 'other'));
    const otherUri = pathToFileURL(join(ws, 'other', 'o.alls')).toString();
    writeFileSync(join(ws, 'other', 'o.alls'), SCRIPT);
    server.open(otherUri, 'alls', SCRIPT);
    await server.diagnostics(otherUri);
    assert.equal(linesFor(), before, 'one line per refused value, not one per model folder');
    // With the setting refused the search beside the script runs, and skips the link out too.
    assert.ok(
      server.log.some(
        (l) =>
          l.message ===
          `The .har file '${join(ws, 'scripts', 'linked.har')}' was not read: it is a link leading outside the opened folders and its own folder.`,
      ),
      'the link beside the script is skipped with a note',
    );
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});

test('lsp: an nms_postprocess path skipped because it leads outside (or has a $) gets a log line saying why, the same whether the file exists', async () => {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'hailo-nmsnote-')));
  const ws = join(root, 'ws');
  mkdirSync(ws);
  mkdirSync(join(root, 'outside'));
  writeFileSync(join(root, 'outside', 'exists.json'), '{}');
  const server = await startTestServer({ folders: [ws] });
  try {
    const cases = ['../outside/exists.json', '../outside/missing.json', '${HOME}/nms.json'];
    for (const [i, p] of cases.entries()) {
      const text = `nms_postprocess("${p}", meta_arch=yolov8, engine=cpu)\n`;
      const path = join(ws, `n${i}.alls`);
      writeFileSync(path, text);
      const uri = pathToFileURL(path).toString();
      server.open(uri, 'alls', text);
      await server.diagnostics(uri);
    }
    const notes = server.log.map((l) => l.message).filter((m) => m.startsWith('The nms_postprocess path'));
    assert.deepEqual(notes.sort(), [
      `The nms_postprocess path '\${HOME}/nms.json' named in ${join(ws, 'n2.alls')} was not read: environment variables are never expanded in paths a file names; write the path itself.`,
      `The nms_postprocess path '../outside/exists.json' named in ${join(ws, 'n0.alls')} was not read: it leads (links resolved) outside the opened folders and the folder of n0.alls; put the file inside the folder.`,
      `The nms_postprocess path '../outside/missing.json' named in ${join(ws, 'n1.alls')} was not read: it leads (links resolved) outside the opened folders and the folder of n1.alls; put the file inside the folder.`,
    ]);
  } finally {
    await server.stop();
    rmSync(root, { recursive: true, force: true });
  }
});
