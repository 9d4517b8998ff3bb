// The workspace HEF scan's NMS checks over JSON-RPC (dist/server.js), with nothing opened: a custom
// 1-class YOLOv8n compiled with the zoo's 80-class config (test/fixtures/nms/custom) gets, on its
// .hef URI, the config's `classes` finding (against the HAR's 1-channel cls heads) and the labels
// file's count (2 entries of a hailo-apps labels JSON = 1 class, against the HEF's 80), each naming
// its file and line with the place as related information; the zoo's own folder gets none. Opening
// the labels file moves its finding there; closing moves it back; a config saved with another value
// re-checks the HEF from the watcher event. Expected values: the fixture's facts (the HEF was built
// with classes 80, the HAR's cls convs have 1 channel, labels.json lists "unlabeled" + 1 name).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeWatchedFilesNotification, FileChangeType, type PublishDiagnosticsParams } from 'vscode-languageserver-protocol/node';
import { startTestServer, type TestServer } from '../helpers/lsp';
import { repoRoot } from '../helpers/shared';

let dir: string;
let server: TestServer;
const path = (...p: string[]) => join(dir, ...p);
const uri = (...p: string[]) => pathToFileURL(path(...p)).toString();
const read = (...p: string[]) => readFileSync(path(...p), 'utf8');
const lineOf = (text: string, needle: string) => text.split('\n').findIndex((l) => l.includes(needle));
const summary = (p: PublishDiagnosticsParams) => p.diagnostics.map((d) => `${d.code} ${d.message.split(': ')[0]}`).sort();

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nms-hef-scan-'));
  cpSync(join(repoRoot, 'test', 'fixtures', 'nms'), dir, { recursive: true, filter: (p) => !p.includes('zoo-history') });
  // A names file (one class per line, darknet form) beside the 80-class HEF, nothing else.
  mkdirSync(path('names'));
  cpSync(path('custom', 'custom.hef'), path('names', 'detector.hef'));
  writeFileSync(path('names', 'classes.names'), 'barcode\nQR code\n');
  server = await startTestServer({ folders: [dir] });
});

after(async () => {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
});

const customHef = () => uri('custom', 'custom.hef');

test('nothing opened: the custom HEF carries the config and labels findings, each naming its file and line', async () => {
  const p = await server.diagnostics(customHef(), (x) => x.diagnostics.length >= 2);
  const cfgLine = lineOf(read('custom', 'custom_nms_config.json'), '"classes"') + 1;
  assert.deepEqual(summary(p), [`nms/classes custom_nms_config.json:${cfgLine}`, 'nms/labels-count labels.json:4']);
  const classes = p.diagnostics.find((d) => d.code === 'nms/classes')!;
  assert.equal(classes.source, 'hailo-nms');
  assert.equal(classes.severity, 2);
  assert.match(classes.message, /classes is 80 but cls_layer yolov8n\/conv42 of custom\.har has 1 channel/);
  assert.deepEqual(classes.relatedInformation?.[0].location, {
    uri: uri('custom', 'custom_nms_config.json'),
    range: { start: { line: cfgLine - 1, character: 15 }, end: { line: cfgLine - 1, character: 17 } },
  });
  const labels = p.diagnostics.find((d) => d.code === 'nms/labels-count')!;
  assert.match(labels.message, /labels\.json names 1 class .* but custom\.hef's NMS output has 80 classes/);
  assert.equal(labels.relatedInformation?.[0].location.uri, uri('custom', 'labels.json'));
});

test("the zoo's own folder: its HEF, script, config and labels agree — an empty publication", async () => {
  const p = await server.diagnostics(uri('zoo', 'cfg', 'alls', 'generic', 'yolov8n.hef'));
  assert.deepEqual(p.diagnostics, []);
});

test('opening the labels file moves its finding there; closing it moves it back', async () => {
  await server.diagnostics(customHef(), (x) => x.diagnostics.length >= 2);
  const labelsUri = uri('custom', 'labels.json');
  const moved = server.diagnostics(customHef(), (x) => !x.diagnostics.some((d) => d.code === 'nms/labels-count'));
  server.open(labelsUri, 'json', read('custom', 'labels.json'));
  assert.deepEqual(
    summary(await moved).map((s) => s.split(' ')[0]),
    ['nms/classes'],
  );
  const own = await server.diagnostics(labelsUri, (x) => x.diagnostics.length > 0);
  assert.deepEqual(
    own.diagnostics.map((d) => d.code),
    ['nms/labels-count'],
  );
  const back = server.diagnostics(customHef(), (x) => x.diagnostics.some((d) => d.code === 'nms/labels-count'));
  server.close(labelsUri);
  assert.equal((await back).diagnostics.length, 2);
});

test('a config saved with another value: the watcher event re-checks the HEF beside it', async () => {
  await server.diagnostics(customHef(), (x) => x.diagnostics.length >= 2);
  const cfg = path('custom', 'custom_nms_config.json');
  const text = read('custom', 'custom_nms_config.json');
  writeFileSync(cfg, text.replace('"classes": 80', '"classes": 1'));
  const next = server.diagnostics(customHef(), (x) => x.diagnostics.some((d) => d.code === 'nms/hef-differs'));
  void server.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
    changes: [{ uri: uri('custom', 'custom_nms_config.json'), type: FileChangeType.Changed }],
  });
  const p = await next;
  // The HAR agrees now; the HEF was compiled from the 80-class version, and the labels still name 1.
  assert.deepEqual(summary(p), [`nms/hef-differs custom_nms_config.json:${lineOf(text, '"classes"') + 1}`, 'nms/labels-count labels.json:4']);
  assert.match(p.diagnostics.find((d) => d.code === 'nms/hef-differs')!.message, /classes is 1 here but 80 in custom\.hef/);
  writeFileSync(cfg, text);
});

test('a .names labels file: its count on the HEF beside it, and on its own first line once opened (as plaintext)', async () => {
  const hef = uri('names', 'detector.hef');
  const p = await server.diagnostics(hef, (x) => x.diagnostics.length > 0);
  assert.deepEqual(summary(p), ['nms/labels-count classes.names:1']);
  assert.match(p.diagnostics[0].message, /classes\.names names 2 classes but detector\.hef's NMS output has 80 classes/);
  const namesUri = uri('names', 'classes.names');
  const moved = server.diagnostics(hef, (x) => x.diagnostics.length === 0);
  server.open(namesUri, 'plaintext', read('names', 'classes.names'));
  await moved;
  const own = await server.diagnostics(namesUri, (x) => x.diagnostics.length > 0);
  assert.deepEqual(
    own.diagnostics.map((d) => [d.code, d.range.start.line]),
    [['nms/labels-count', 0]],
  );
  const back = server.diagnostics(hef, (x) => x.diagnostics.length > 0);
  server.close(namesUri);
  assert.deepEqual(summary(await back), ['nms/labels-count classes.names:1']);
});
