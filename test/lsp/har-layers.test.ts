// The HAR model-layer provider over a real JSON-RPC connection: the server (startServer with the
// ONNX service, which installs the provider) runs in-process; a probe service for `.alls` stands in
// for the .alls service and reports what ctx.modelLayers() returns. Settings travel through
// workspace/configuration like in VS Code.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createConnection } from 'vscode-languageserver/node';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  ConfigurationRequest,
  DefinitionRequest,
  DidOpenTextDocumentNotification,
  HoverRequest,
  InitializeRequest,
  InitializedNotification,
  type Hover,
  type Location,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import { startServer } from '../../server/src/lsp/startServer';
import { OnnxGraphService } from '../../server/src/lsp/onnxService';
import { OnnxGraphTextRequest } from '../../server/src/protocol';
import type { AttachableService } from '../../server/src/lsp/service';
import { repoRoot, sharedPath, SKIP_NO_SHARED } from '../helpers/shared';

const FIX = join(repoRoot, 'test', 'fixtures', 'har');
const realHar = sharedPath('corpus', 'har', 'whisper-hailo8l_hailo_model.har');
// The folders opened: a model path setting must stay inside them or the script's folder (issue 18).
const OPENED = [join(repoRoot, 'test', 'fixtures'), ...(realHar ? [dirname(realHar)] : [])];
let client: ProtocolConnection;
let settings: Record<string, unknown> = {};
const handlerErrors: string[] = [];

/** Stand-in consumer: hover = the layer under the cursor as the provider delivered it. */
const probe: AttachableService = {
  languageIds: ['alls'],
  async hover(doc, pos, ctx) {
    const index = await ctx.modelLayers();
    const word =
      doc
        .getText()
        .split('\n')
        [pos.line].match(/[\w/]+/g)
        ?.find((w) => doc.getText().split('\n')[pos.line].indexOf(w) <= pos.character) ?? '';
    const layer = index?.layers.get(word);
    return {
      contents: JSON.stringify({
        source: index?.source ?? null,
        networkName: index?.networkName ?? null,
        count: index?.layers.size ?? 0,
        layer: layer ?? null,
      }),
    };
  },
  async definition(doc, pos, ctx) {
    const index = await ctx.modelLayers();
    const word = doc.getText().split('\n')[pos.line].trim();
    const l = index?.layers.get(word);
    return l?.location ? [l.location] : null;
  },
};

before(async () => {
  const up = new PassThrough();
  const down = new PassThrough();
  startServer(createConnection(new StreamMessageReader(up), new StreamMessageWriter(down)), {
    services: [new OnnxGraphService(), probe],
    onError: (err, where) => handlerErrors.push(`${where}: ${(err as Error)?.stack ?? err}`),
  });
  client = createProtocolConnection(new StreamMessageReader(down), new StreamMessageWriter(up));
  client.onRequest(ConfigurationRequest.type, (p) => p.items.map((it) => (it.section === 'hailo' ? settings : null)));
  client.onRequest('client/registerCapability', () => null);
  client.listen();
  await client.sendRequest(InitializeRequest.type, {
    processId: null,
    rootUri: null,
    capabilities: { workspace: { configuration: true } },
    workspaceFolders: OPENED.map((p) => ({ uri: pathToFileURL(p).href, name: p })),
  });
  await client.sendNotification(InitializedNotification.type, {});
});
after(() => {
  client.dispose();
  // A handler exception is a failure even when the answer looked fine.
  assert.deepEqual(handlerErrors, []);
});

let version = 0;
async function probeHover(scriptPath: string, text: string) {
  const uri = pathToFileURL(scriptPath).href + `?v=${++version}`;
  await client.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'alls', version: 1, text } });
  const h = (await client.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 1 } })) as Hover;
  return { uri, value: JSON.parse(h.contents as string) };
}

test('har provider: a .har beside the script (prefix of its name) gives its layers, linked to the ONNX view', async () => {
  settings = {};
  const { value } = await probeHover(join(FIX, 'tinycnn.alls'), 'conv1');
  assert.equal(value.source, join(FIX, 'tinycnn_hailo_model.har'));
  assert.equal(value.networkName, 'tinycnn');
  assert.equal(value.count, 15);
  assert.equal(value.layer.type, 'conv');
  assert.match(value.layer.detail, /\| `\/backbone\/conv1\/Conv` \| `Conv` \|/);
  assert.match(value.layer.location.uri, /^hailo-onnx:\/.*\/test\/fixtures\/har\/tinycnn\.onnx\.graph$/);
});

test('har provider: go-to-definition lands on the node line of the graph view the server serves', async () => {
  settings = {};
  const uri = pathToFileURL(join(FIX, 'tinycnn.alls')).href + '?def';
  await client.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'alls', version: 1, text: 'deconv1' } });
  const locs = (await client.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line: 0, character: 2 } })) as Location[];
  const { text } = await client.sendRequest(OnnxGraphTextRequest, { uri: locs[0].uri });
  const line = text.split('\n')[locs[0].range.start.line];
  assert.ok(line.startsWith('  /neck/up/ConvTranspose = ConvTranspose('), line);
});

test('har provider: hailo.model.har (relative to the script, inside the workspace) overrides the search; no HAR → no layers', async () => {
  settings = { model: { har: '../har/tinycnn_hailo_model.har' } };
  const elsewhere = join(repoRoot, 'test', 'fixtures', 'onnx', 'script.alls');
  assert.equal((await probeHover(elsewhere, 'conv1')).value.count, 15);
  settings = {};
  assert.equal((await probeHover(elsewhere, 'conv1')).value.source, null);
  settings = { model: { har: 'broken.har' } };
  assert.equal((await probeHover(join(FIX, 'x.alls'), 'conv1')).value.source, null, 'an unreadable HAR gives no index, not a crash');
});

test('har provider: the real whisper pair in ../shared', { skip: !realHar && SKIP_NO_SHARED }, async () => {
  settings = { model: { harPath: realHar } };
  const { value } = await probeHover(join(FIX, 'whisper.alls'), 'layer_normalization1');
  assert.equal(value.networkName, 'whisper-hailo8l');
  assert.equal(value.count, 50);
  assert.match(value.layer.detail, /InstanceNormalization/);
  assert.match(value.layer.location.uri, /whisper-hailo8l\.onnx\.graph$/);
});
