// The NMS checks in the real server over JSON-RPC (dist/server.js): a config opened as JSON gets the
// findings on its lines (from the script that names it, found by the workspace scan), with a quick
// fix; the script's nms_postprocess line gets the summary; an edit to the open config is what both
// see; a config under a name no pattern matches gets the schema from the server, found through the
// script; a labels JSON beside a HEF gets its count checked. On copies of test/fixtures/nms.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeActionRequest, CompletionRequest, HoverRequest, type CodeAction, type CompletionItem, type Hover } from 'vscode-languageserver-protocol/node';
import { startTestServer, type TestServer } from '../helpers/lsp';
import { repoRoot } from '../helpers/shared';

let dir: string;
let server: TestServer;
const uri = (...p: string[]) => pathToFileURL(join(dir, ...p)).toString();
const read = (...p: string[]) => readFileSync(join(dir, ...p), 'utf8');

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nms-lsp-'));
  cpSync(join(repoRoot, 'test', 'fixtures', 'nms'), dir, { recursive: true, filter: (p) => !p.includes('zoo-history') });
  server = await startTestServer({ folders: [dir] });
});

after(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

test('the config opened as JSON: the finding on its "classes" line, from the script that names it, with its quick fix', async () => {
  const cfg = uri('custom', 'custom_nms_config.json');
  server.open(cfg, 'json', read('custom', 'custom_nms_config.json'));
  // The workspace scan may land after the first publication: wait for the one with the finding.
  const p = await server.diagnostics(cfg, (x) => x.diagnostics.length > 0);
  assert.deepEqual(
    p.diagnostics.map((d) => [d.range.start.line + 1, d.code, d.source]),
    [[9, 'nms/classes', 'hailo-nms']],
  );
  assert.match(p.diagnostics[0].message, /classes is 80 but cls_layer yolov8n\/conv42 of custom\.har has 1 channel/);
  const actions = (await server.connection.sendRequest(CodeActionRequest.type, {
    textDocument: { uri: cfg },
    range: p.diagnostics[0].range,
    context: { diagnostics: p.diagnostics },
  })) as CodeAction[];
  assert.equal(actions[0].title, 'Set classes to 1');
  assert.equal(actions[0].edit?.changes?.[cfg][0].newText, '1');
});

test("the script's nms_postprocess line gets the summary, and follows an edit to the open config", async () => {
  const script = uri('custom', 'custom.alls');
  server.open(script, 'alls', read('custom', 'custom.alls'));
  const p = await server.diagnostics(script, (x) => x.diagnostics.some((d) => d.code === 'nms/config-mismatch'));
  const d = p.diagnostics.find((x) => x.code === 'nms/config-mismatch')!;
  assert.equal(d.range.start.line, 1);
  assert.match(d.message, /custom_nms_config\.json has 1 problem: line 9: classes is 80/);
  // Fix the open (unsaved) config: the model agrees now, and what is left is the HEF beside the
  // script, compiled from the old config — on the config and in the script's summary alike.
  const cfg = uri('custom', 'custom_nms_config.json');
  server.change(cfg, read('custom', 'custom_nms_config.json').replace('"classes": 80', '"classes": 1'), 2);
  const after = await server.diagnostics(cfg, (x) => x.version === 2);
  assert.deepEqual(
    after.diagnostics.map((x) => x.message),
    ['classes is 1 here but 80 in custom.hef (compiled from another version of this config): compile again, or set 80 if the HEF is right.'],
  );
  await server.diagnostics(script, (x) => x.diagnostics.some((y) => y.code === 'nms/config-mismatch' && y.message.includes('80 in custom.hef')));
});

test('a config whose name no pattern matches, named by a script: the schema and the checks from the server', async () => {
  const cfg = uri('odd-name', 'settings', 'detector.json');
  const text = read('odd-name', 'settings', 'detector.json').replace('"nms_iou_th"', '"nms_iou_threshold"');
  server.open(cfg, 'json', text);
  const p = await server.diagnostics(cfg, (x) => x.diagnostics.length >= 2);
  assert.deepEqual(p.diagnostics.map((d) => d.code).sort(), ['nms/regression-length', 'nms/schema']);
  assert.match(p.diagnostics.find((d) => d.code === 'nms/schema')!.message, /nms_iou_threshold is not allowed/);
  const line = text.split('\n').findIndex((l) => l.includes('"classes"'));
  const hover = (await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri: cfg }, position: { line, character: 8 } })) as Hover;
  assert.match(JSON.stringify(hover.contents), /Number of classes the head predicts/);
  const items = (await server.connection.sendRequest(CompletionRequest.type, {
    textDocument: { uri: cfg },
    position: { line: 1, character: 4 },
  })) as CompletionItem[];
  assert.ok(
    items.some((i) => i.label === 'nms_iou_th' || i.label === '"nms_iou_th"'),
    items.map((i) => i.label).join(','),
  );
});

test('other JSON files get nothing', async () => {
  const other = uri('custom', 'package.json');
  server.open(other, 'json', '{"name": "x", "classes": 80}');
  const p = await server.nextDiagnostics(other);
  assert.deepEqual(p.diagnostics, []);
});

test('a labels JSON beside a HEF: its count against the HEF', async () => {
  const labels = uri('custom', 'labels.json');
  server.open(labels, 'json', read('custom', 'labels.json'));
  const p = await server.diagnostics(labels, (x) => x.diagnostics.length > 0);
  assert.equal(p.diagnostics[0].code, 'nms/labels-count');
  assert.match(p.diagnostics[0].message, /custom\.hef's NMS output has 80 classes/);
});
