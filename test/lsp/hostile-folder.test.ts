// Issue 14 end to end: the real bundled server, started in a workspace folder that holds every
// hostile file of the issue (one crafted file in a cloned folder took the server down), must
// publish one diagnostic per problem, keep answering hover and diagnostics within a bound, honour
// cancellation, and log no handler exception.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CancellationTokenSource,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  LSPErrorCodes,
  ResponseError,
  SemanticTokensRequest,
  type Hover,
} from 'vscode-languageserver-protocol/node';
import { startTestServer, answerWithin } from '../helpers/lsp';
import { assertInert } from '../helpers/markdown';
import { buildHef } from '../helpers/hefBuilder';
import { paddedV3Spec } from '../helpers/inlineHefs';
import { graphUriForPath } from '../../server/src/core/onnx/viewUri';
import { OnnxGraphTextRequest } from '../../server/src/protocol';
import { deepSubgraphOnnx, harGzipBomb, hostileHn, hostileOnnx, makeFifo, releaseFifo, tarMember, TAR_END, tinyHn, writeHugeBodyHef } from '../helpers/hostile';

/** Every request must come back within this (a loaded 2-core CI machine; a hang is forever). */
const BOUND_MS = 30_000;
const GOOD = 'normalization1 = normalization([123.675, 116.28, 103.53], [58.395, 57.12, 57.375])\nmodel_optimization_flavor(optimization_level=0)\n';

const within = <T>(what: string, p: Promise<T>, ms = BOUND_MS): Promise<T> => answerWithin(what, p, ms);

async function hostileFolder(dir: string): Promise<{ fifos: string[] }> {
  const fifos: string[] = [];
  const sub = (name: string) => {
    const p = join(dir, name);
    mkdirSync(p, { recursive: true });
    return p;
  };
  // HEFs the start-up scan reads (inline checks: always)
  writeHugeBodyHef(join(sub('hef'), 'huge-body.hef'));
  const v3 = await buildHef(paddedV3Spec('net/in', 'net/out'));
  const moved = Uint8Array.from(v3);
  new DataView(moved.buffer).setUint32(28, new DataView(moved.buffer).getUint32(28, false) + 16, false);
  writeFileSync(join(dir, 'hef', 'padding-moved.hef'), moved);
  if (makeFifo(join(dir, 'hef', 'pipe.hef'))) fifos.push(join(dir, 'hef', 'pipe.hef'));
  // scripts
  writeFileSync(join(sub('alls'), 'deep.alls'), 'normalization1 = normalization(' + '['.repeat(20_000) + ']'.repeat(20_000) + ')\n');
  writeFileSync(join(dir, 'alls', 'commas.alls'), 'quantization_param(' + ','.repeat(1_000_000) + ')\n');
  writeFileSync(join(dir, 'alls', 'args.alls'), ('quantization_param(' + 'conv1,'.repeat(9_999) + 'conv1)\n').repeat(80));
  writeFileSync(join(dir, 'alls', 'lines.alls'), 'transpose()\n'.repeat(120_000));
  writeFileSync(join(dir, 'alls', 'good.alls'), GOOD);
  // a gzip bomb beside a script
  writeFileSync(join(sub('bomb'), 'net.har'), harGzipBomb());
  writeFileSync(join(dir, 'bomb', 'net.alls'), GOOD);
  // a FIFO where the HAR's ONNX is looked for
  writeFileSync(join(sub('fifo-onnx'), 'net.har'), Buffer.concat([tarMember('net.hn', Buffer.from(tinyHn())), TAR_END]));
  writeFileSync(join(dir, 'fifo-onnx', 'net.alls'), GOOD);
  if (makeFifo(join(dir, 'fifo-onnx', 'net.onnx'))) fifos.push(join(dir, 'fifo-onnx', 'net.onnx'));
  // hostile names in a HAR and its ONNX
  writeFileSync(join(sub('names'), 'net.har'), Buffer.concat([tarMember('net.hn', Buffer.from(JSON.stringify(hostileHn()))), TAR_END]));
  writeFileSync(join(dir, 'names', 'net.onnx'), hostileOnnx());
  writeFileSync(join(dir, 'names', 'net.alls'), 'quantization_param(conv1, precision_mode=a8_w8)\n');
  // ONNX models opened as graph views
  writeFileSync(join(sub('onnx'), 'deep.onnx'), deepSubgraphOnnx(10_000));
  return { fifos };
}

test('the real server in a folder of hostile files: one diagnostic each, and it still answers within a bound', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-hostile-folder-'));
  let fifos: string[] = [];
  const uri = (p: string) => pathToFileURL(join(dir, p)).toString();
  try {
    ({ fifos } = await hostileFolder(dir));
    const server = await startTestServer({ folders: [dir], settings: { hef: { inlineChecks: 'always' } } });
    try {
      // The start-up HEF scan: it used to abort the server 22 ms after start on the 2 GiB body.
      const huge = await within(
        'huge-body.hef',
        server.diagnostics(uri('hef/huge-body.hef'), (p) => p.diagnostics.length > 0, BOUND_MS),
      );
      assert.ok(
        huge.diagnostics.some((d) => d.code === 'hef/limit' && /over the limit of 256 MiB/.test(d.message)),
        JSON.stringify(huge.diagnostics),
      );
      const moved = await within(
        'padding-moved.hef',
        server.diagnostics(uri('hef/padding-moved.hef'), (p) => p.diagnostics.length > 0),
      );
      assert.ok(moved.diagnostics.some((d) => d.code === 'hef/implausible-header'));
      if (fifos.length) {
        const pipe = await within(
          'pipe.hef',
          server.diagnostics(uri('hef/pipe.hef'), (p) => p.diagnostics.length > 0),
        );
        assert.match(pipe.diagnostics[0].message, /is a FIFO \(named pipe\), not a regular file; not read/);
      }

      // Scripts: each answers with its limit diagnostic.
      const open = async (rel: string, text: string) => {
        const d = server.nextDiagnostics(uri(rel), 1, BOUND_MS);
        server.open(uri(rel), 'alls', text);
        return (await within(rel, d)).diagnostics;
      };
      const { readFileSync } = await import('node:fs');
      const read = (rel: string) => readFileSync(join(dir, rel), 'utf8');
      assert.ok((await open('alls/deep.alls', read('alls/deep.alls'))).some((d) => d.code === 'alls/limit'));
      assert.ok((await open('alls/commas.alls', read('alls/commas.alls'))).length <= 1000);
      assert.ok((await open('alls/lines.alls', read('alls/lines.alls'))).some((d) => d.code === 'alls/limit' && /100,000 lines/.test(d.message)));
      await open('alls/args.alls', read('alls/args.alls'));
      for (const m of [SemanticTokensRequest.method, FoldingRangeRequest.method, DocumentSymbolRequest.method]) {
        await within(`${m} on args.alls`, server.connection.sendRequest(m, { textDocument: { uri: uri('alls/args.alls') } }));
        await within(`${m} on deep.alls`, server.connection.sendRequest(m, { textDocument: { uri: uri('alls/deep.alls') } }));
      }
      // A gzip bomb and a FIFO beside scripts: diagnostics still come (without the model's layers).
      await open('bomb/net.alls', GOOD);
      await open('fifo-onnx/net.alls', GOOD);
      assert.ok(
        server.log.some((l) => /256 MiB: the HAR is not read/.test(l.message)),
        'the bomb is logged',
      );
      // Hostile names: the hover is inert markdown.
      await open('names/net.alls', read('names/net.alls'));
      const h = (await within(
        'hover on a hostile layer',
        server.connection.sendRequest(HoverRequest.method, { textDocument: { uri: uri('names/net.alls') }, position: { line: 0, character: 21 } }),
      )) as Hover;
      const value = (h.contents as { value: string }).value;
      assertInert(value, 'hover on a layer of a hostile HAR');

      // The ONNX graph view of a model nested 10,000 deep: one finding, not "unexpected error".
      const viewUri = graphUriForPath(join(dir, 'onnx', 'deep.onnx'));
      const view = await within('deep.onnx view', server.connection.sendRequest(OnnxGraphTextRequest, { uri: viewUri }));
      assert.equal(view.ok, false);
      const vd = server.nextDiagnostics(viewUri);
      server.open(viewUri, 'onnx-graph', view.text);
      const viewDiags = (await within('deep.onnx diagnostics', vd)).diagnostics;
      assert.deepEqual(
        viewDiags.map((d) => d.code),
        ['onnx/limit'],
      );

      // After all of that: a plain script gets hover and diagnostics promptly.
      const good = await open('alls/good.alls', GOOD);
      assert.deepEqual(
        good.filter((d) => d.severity === 1),
        [],
      );
      const hover = (await within(
        'hover after the hostile files',
        server.connection.sendRequest(HoverRequest.method, { textDocument: { uri: uri('alls/good.alls') }, position: { line: 0, character: 20 } }),
        10_000,
      )) as Hover;
      assert.match((hover.contents as { value: string }).value, /normalization/);
      const edited = server.nextDiagnostics(uri('alls/good.alls'), 2, 10_000);
      server.change(uri('alls/good.alls'), GOOD + 'nonsense_command()\n', 2);
      assert.ok((await within('diagnostics after an edit', edited, 10_000)).diagnostics.some((d) => d.code === 'alls/unknown-command'));
      assert.equal(server.process.exitCode, null, 'the server is alive');
    } finally {
      await server.stop(); // fails on any handler exception the server logged
    }
  } finally {
    for (const f of fifos) releaseFifo(f);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a request cancelled while it waits behind a slow one is answered RequestCancelled, without running', async () => {
  const server = await startTestServer();
  try {
    const big = 'file:///hostile/big.alls';
    const small = 'file:///hostile/small.alls';
    const bigDiags = server.nextDiagnostics(big, 1, BOUND_MS);
    server.open(big, 'alls', ('quantization_param(' + 'conv1,'.repeat(9_999) + 'conv1)\n').repeat(150));
    await within('big.alls diagnostics', bigDiags);
    const smallDiags = server.nextDiagnostics(small, 1);
    server.open(small, 'alls', GOOD);
    await smallDiags;
    // semantic tokens of 1.5 M items keep the server busy; the hover behind it is cancelled
    const slow = server.connection.sendRequest(SemanticTokensRequest.method, { textDocument: { uri: big } });
    const source = new CancellationTokenSource();
    const hover = server.connection.sendRequest(HoverRequest.method, { textDocument: { uri: small }, position: { line: 0, character: 20 } }, source.token);
    source.cancel();
    const outcome = await within(
      'the cancelled hover',
      hover.then(
        () => 'answered',
        (e: unknown) => (e instanceof ResponseError ? e.code : String(e)),
      ),
    );
    assert.equal(outcome, LSPErrorCodes.RequestCancelled);
    await within('the slow request', slow);
    // and the next hover is answered normally
    const h = (await server.connection.sendRequest(HoverRequest.method, { textDocument: { uri: small }, position: { line: 0, character: 20 } })) as Hover;
    assert.match((h.contents as { value: string }).value, /normalization/);
  } finally {
    await server.stop();
  }
});
