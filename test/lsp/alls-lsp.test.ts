// `.alls` over a real JSON-RPC connection to the bundled server (dist/server.js; run
// `node esbuild.mjs` first): diagnostics on open and after edits, hover, completion, definition,
// signature help, code actions, symbols, folding, semantic tokens, the hwArch setting, the real
// HAR layer provider, and documents the server must survive.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CodeActionRequest,
  CompletionRequest,
  DefinitionRequest,
  DidChangeConfigurationNotification,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  SemanticTokensRequest,
  SignatureHelpRequest,
  type CodeAction,
  type CompletionItem,
  type Diagnostic,
  type DocumentSymbol,
  type Location,
  type MarkupContent,
} from 'vscode-languageserver-protocol/node';
import { startTestServer, type TestServer } from '../helpers/lsp';
import { repoRoot } from '../helpers/shared';

const BROKEN = [
  'normalization1 = normalization([123.675, 116.28, 103.53], [58.395, 57.12, 57.375]',
  'quantizaton_param(conv1, precision_mode=a8_w8)',
  'quantization_param(conv2, precision_mode=a16_w8)',
  'context_0 = context([conv1, conv2])',
  'context_0.place(0, [conv1])',
  '',
].join('\n');

async function withServer(fn: (s: TestServer) => Promise<void>, settings: Record<string, unknown> = {}): Promise<void> {
  const server = await startTestServer({ settings });
  try {
    await fn(server);
  } finally {
    await server.stop();
  }
}

function codes(diags: Diagnostic[]): string[] {
  return diags.map((d) => `${d.range.start.line}:${d.range.start.character} ${d.code}`);
}

test('lsp alls: didOpen publishes diagnostics with codes, 0-based ranges, related info; an edit re-diagnoses', async () => {
  await withServer(async (server) => {
    const uri = 'file:///tmp/alls-lsp/broken.alls';
    const first = server.nextDiagnostics(uri, 1);
    server.open(uri, 'alls', BROKEN, 1);
    const p = await first;
    assert.deepEqual(codes(p.diagnostics), ['0:30 alls/unclosed-bracket', '1:0 alls/unknown-command', '2:41 alls/dfc-known-fault']);
    const unclosed = p.diagnostics[0];
    assert.equal(unclosed.severity, 1);
    assert.equal(unclosed.source, 'alls');
    assert.equal(unclosed.message, 'unclosed `(` opened here');
    assert.equal(unclosed.relatedInformation?.[0].location.uri, uri);
    const second = server.nextDiagnostics(uri, 2);
    server.change(uri, BROKEN.replace('57.375]', '57.375])').replace('quantizaton', 'quantization'), 2);
    assert.deepEqual(codes((await second).diagnostics), ['2:41 alls/dfc-known-fault']);
  });
});

test('lsp alls: the hailo.hwArch setting drives architecture rules', async () => {
  await withServer(
    async (server) => {
      const uri = 'file:///tmp/alls-lsp/arch.alls';
      const d = server.nextDiagnostics(uri, 1);
      server.open(uri, 'alls', 'quantization_param(conv2, precision_mode=a16_w8)\n', 1);
      assert.deepEqual((await d).diagnostics, [], 'a16_w8 is fine on hailo15l');
      server.settings.hwArch = 'hailo10h';
      const again = server.nextDiagnostics(uri);
      void server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { hailo: { hwArch: 'hailo10h' } } });
      assert.deepEqual(codes((await again).diagnostics), ['0:41 alls/dfc-known-fault']);
    },
    { hwArch: 'hailo15l' },
  );
});

test('lsp alls: hover, completion, signature help, definition', async () => {
  await withServer(async (server) => {
    const uri = 'file:///tmp/alls-lsp/features.alls';
    const d = server.nextDiagnostics(uri, 1);
    server.open(uri, 'alls', BROKEN, 1);
    await d;
    const doc = { uri };

    const h = await server.connection.sendRequest(HoverRequest.type, { textDocument: doc, position: { line: 2, character: 45 } });
    assert.match((h!.contents as MarkupContent).value, /16-bit activations, 8-bit weights/);
    assert.deepEqual(h!.range, { start: { line: 2, character: 41 }, end: { line: 2, character: 47 } });

    const items = (await server.connection.sendRequest(CompletionRequest.type, {
      textDocument: doc,
      position: { line: 2, character: 45 },
    })) as CompletionItem[];
    assert.equal(items.length, 18);
    const a16 = items.find((i) => i.label === 'a16_w16')!;
    assert.deepEqual((a16.textEdit as { range: unknown }).range, { start: { line: 2, character: 41 }, end: { line: 2, character: 45 } });

    const sig = await server.connection.sendRequest(SignatureHelpRequest.type, { textDocument: doc, position: { line: 2, character: 26 } });
    const active = sig!.signatures[sig!.activeSignature ?? 0];
    const [a, b] = active.parameters![sig!.activeParameter ?? 0].label as [number, number];
    assert.match(active.label.slice(a, b), /^precision_mode=/);

    const def = (await server.connection.sendRequest(DefinitionRequest.type, { textDocument: doc, position: { line: 4, character: 3 } })) as Location[];
    assert.deepEqual(def, [{ uri, range: { start: { line: 3, character: 0 }, end: { line: 3, character: 9 } } }]);
  });
});

test('lsp alls: a quick fix for a typo, outline by stage, folding, semantic tokens', async () => {
  await withServer(async (server) => {
    const uri = 'file:///tmp/alls-lsp/fix.alls';
    const d = server.nextDiagnostics(uri, 1);
    server.open(uri, 'alls', BROKEN, 1);
    const diags = (await d).diagnostics;
    const typo = diags.find((x) => x.code === 'alls/unknown-command')!;
    const actions = (await server.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: typo.range,
      context: { diagnostics: [typo] },
    })) as CodeAction[];
    assert.equal(actions.length, 1);
    assert.equal(actions[0].title, 'Change the command to `quantization_param`');
    assert.equal(actions[0].isPreferred, true);
    assert.deepEqual(actions[0].edit!.changes![uri], [{ range: typo.range, newText: 'quantization_param' }]);

    const syms = (await server.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri } })) as DocumentSymbol[];
    assert.deepEqual(
      syms.map((s) => s.name),
      ['Model modification', 'Optimization (quantization)', 'Allocation (compiler-written)', 'Unknown commands'],
    );
    const multi = 'post_quantization_optimization(finetune,\n  epochs=4,\n  batch_size=2)\n';
    const d2 = server.nextDiagnostics('file:///tmp/alls-lsp/fold.alls', 1);
    server.open('file:///tmp/alls-lsp/fold.alls', 'alls', multi, 1);
    await d2;
    const folds = await server.connection.sendRequest(FoldingRangeRequest.type, { textDocument: { uri: 'file:///tmp/alls-lsp/fold.alls' } });
    assert.deepEqual(folds, [{ startLine: 0, endLine: 2, kind: 'region' }]);
    const tokens = await server.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri: 'file:///tmp/alls-lsp/fold.alls' } });
    // first token: `post_quantization_optimization` as function (index 0) with defaultLibrary (bit 1)
    assert.deepEqual(tokens!.data.slice(0, 5), [0, 0, 30, 0, 2]);
    assert.equal(tokens!.data.length % 5, 0);
  });
});

test('lsp alls: the real HAR provider feeds unknown-layer diagnostics and layer hover (HAR beside the script)', async () => {
  await withServer(async (server) => {
    const uri = pathToFileURL(join(repoRoot, 'test', 'fixtures', 'har', 'tinycnn.alls')).href;
    const text =
      'normalization1 = normalization([0.0, 0.0, 0.0], [255.0, 255.0, 255.0])\nquantization_param(conv1, precision_mode=a16_w16)\nquantization_param(conv9, precision_mode=a8_w8)\nquantization_param({deconv*}, precision_mode=a8_w8)\n';
    const d = server.nextDiagnostics(uri, 1);
    server.open(uri, 'alls', text, 1);
    const diags = (await d).diagnostics;
    assert.deepEqual(codes(diags), ['2:19 alls/unknown-layer']);
    assert.match(diags[0].message, /No layer `conv9` in tinycnn/);
    const h = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 21 } });
    assert.match((h!.contents as MarkupContent).value, /`conv` layer/);
    const items = (await server.connection.sendRequest(CompletionRequest.type, {
      textDocument: { uri },
      position: { line: 2, character: 23 },
    })) as CompletionItem[];
    assert.ok(
      items.some((i) => i.label === 'deconv1'),
      'layer completion from the HAR',
    );
  });
});

test('lsp alls: the server survives bad documents — 50 MB (skipped politely), binary junk, invalid UTF-8, empty', async () => {
  await withServer(async (server) => {
    const big = 'buffers(conv1, conv2, 2)\n'.repeat(Math.ceil((50 * 1024 * 1024) / 25));
    const bigUri = 'file:///tmp/alls-lsp/big.alls';
    const b = server.nextDiagnostics(bigUri, 1, 60_000);
    server.open(bigUri, 'alls', big, 1);
    const bigDiags = (await b).diagnostics;
    assert.equal(bigDiags.length, 1);
    assert.equal(bigDiags[0].code, 'hailo/too-large');
    assert.match(bigDiags[0].message, /not analysed/);
    const nothing = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri: bigUri }, position: { line: 0, character: 2 } });
    assert.equal(nothing, null);
    server.close(bigUri);

    const junk = Array.from({ length: 5000 }, (_, i) => String.fromCharCode((i * 7919) % 0xd7ff)).join('');
    const cases: [string, string, (d: Diagnostic[]) => void][] = [
      [
        'junk',
        junk,
        (d) =>
          assert.deepEqual(
            d.map((x) => x.code),
            ['alls/binary-file'],
          ),
      ],
      ['junk-no-nul', junk.replace(/\u0000/g, ''), (d) => assert.ok(d.length > 0 && d.length <= 1001)],
      [
        'bad-utf8',
        'performance_param(fps=\uFFFD)\n',
        (d) =>
          assert.deepEqual(
            d.map((x) => x.code),
            ['alls/invalid-character'],
          ),
      ],
      ['empty', '', (d) => assert.deepEqual(d, [])],
    ];
    for (const [name, text, check] of cases) {
      const uri = `file:///tmp/alls-lsp/${name}.alls`;
      const p = server.nextDiagnostics(uri, 1);
      server.open(uri, 'alls', text, 1);
      check((await p).diagnostics);
      await server.connection.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line: 0, character: 3 } });
      await server.connection.sendRequest(SemanticTokensRequest.type, { textDocument: { uri } });
    }
    // Still alive and answering.
    const ok = 'file:///tmp/alls-lsp/after.alls';
    const p = server.nextDiagnostics(ok, 1);
    server.open(ok, 'alls', 'transpose()\n', 1);
    assert.deepEqual((await p).diagnostics, []);
    assert.equal(server.process.exitCode, null);
  });
});
