// The ONNX graph view over LSP, against the bundled server: the view's text comes from
// `hailo/onnxGraph`, then hover, diagnostics (pre-flight findings), outline, producer/consumers.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  DefinitionRequest,
  DocumentSymbolRequest,
  HoverRequest,
  ReferencesRequest,
  type DocumentSymbol,
  type Hover,
  type Location,
} from 'vscode-languageserver-protocol/node';
import { startTestServer, type TestServer } from '../helpers/lsp';
import { repoRoot } from '../helpers/shared';
import { graphUriForPath } from '../../server/src/core/onnx/viewUri';
import { OnnxGraphTextRequest } from '../../server/src/protocol';

const FIX = join(repoRoot, 'test', 'fixtures', 'onnx');
let server: TestServer;

before(async () => {
  server = await startTestServer();
});
after(async () => {
  await server.stop();
});

async function openView(file: string) {
  const uri = graphUriForPath(join(FIX, file));
  const { text, ok } = await server.connection.sendRequest(OnnxGraphTextRequest, { uri });
  const diags = server.nextDiagnostics(uri);
  server.open(uri, 'onnx-graph', text);
  return { uri, text, ok, lines: text.split('\n'), diagnostics: (await diags).diagnostics };
}

const pos = (lines: string[], needle: string, offset = 1) => {
  const line = lines.findIndex((l) => l.includes(needle));
  assert.ok(line >= 0, `no line with ${needle}`);
  return { line, character: lines[line].indexOf(needle) + offset };
};

test('lsp onnx: the view has a summary, inputs/outputs and one line per node with op and shapes', async () => {
  const v = await openView('vit_b1_op17.onnx');
  assert.ok(v.ok);
  assert.match(v.lines[0], /^# ONNX graph view \(read-only\): vit_b1_op17\.onnx$/);
  assert.match(v.text, /# IR 8 · opsets ai\.onnx 17/);
  assert.match(v.text, /inputs:\n  x: float32\[1,50,32\]\n/);
  assert.match(v.text, /outputs:\n  y: float32\[1,50,32\]\n/);
  const nodeLines = v.lines.filter((l) => / = \w+\(/.test(l));
  assert.equal(nodeLines.length, 33);
  assert.ok(
    v.lines.includes('  /blocks.0/attn/Softmax = Softmax(/blocks.0/attn/Mul_output_0[1,4,50,50]) -> /blocks.0/attn/Softmax_output_0 float32[1,4,50,50]'),
  );
  server.close(v.uri);
});

test('lsp onnx: hover on a node shows op, inputs/outputs with shapes and ranks, attributes, DFC facts', async () => {
  const v = await openView('vit_b1_op17.onnx');
  const h = (await server.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri: v.uri },
    position: pos(v.lines, '/blocks.0/attn/Transpose ='),
  })) as Hover;
  const md = (h.contents as { value: string }).value;
  assert.match(md, /\*\*`\/blocks\.0\/attn\/Transpose`\*\* — `Transpose`/);
  assert.match(md, /\| in 0 \| `\/blocks\.0\/attn\/Reshape_output_0` \| float32 \| `\[1,50,3,4,8\]` \| 5 \|/);
  assert.match(md, /\| out 0 \| `\/blocks\.0\/attn\/Transpose_output_0` \| float32 \| `\[3,1,4,50,8\]` \| 5 \|/);
  assert.match(md, /attributes: `perm=\[2,0,3,1,4\]`/);
  assert.match(md, /\*\*DFC:\*\* in the DFC 5\.3 supported-layer table/);
  // hover on a tensor name inside the line
  const th = (await server.connection.sendRequest(HoverRequest.type, {
    textDocument: { uri: v.uri },
    position: pos(v.lines, '/blocks.0/attn/Reshape_output_0[1,50,3,4,8]) -> /blocks.0/attn/Transpose_output_0', 3),
  })) as Hover;
  assert.match(
    (th.contents as { value: string }).value,
    /\*\*`\/blocks\.0\/attn\/Reshape_output_0`\*\* — float32`\[1,50,3,4,8\]` \(rank 5\)[\s\S]*produced by `\/blocks\.0\/attn\/Reshape`/,
  );
  server.close(v.uri);
});

test('lsp onnx: pre-flight findings arrive as diagnostics on the node lines, with evidence', async () => {
  const v = await openView('rejected.onnx');
  const topk = v.diagnostics.find((d) => d.code === 'onnx/unsupported-op' && v.lines[d.range.start.line].startsWith('  /head/TopK ='))!;
  assert.ok(topk, JSON.stringify(v.diagnostics.map((d) => d.code)));
  assert.equal(topk.severity, 1);
  assert.match(topk.message, /UnsupportedOperationError[\s\S]*evidence: YOLO26n[\s\S]*confidence: high/);
  assert.equal(v.lines[topk.range.start.line].slice(topk.range.start.character, topk.range.end.character), '/head/TopK');
  const input = v.diagnostics.filter((d) => d.code === 'onnx/dynamic-input');
  assert.equal(input.length, 0);
  // the node hover lists its findings too
  const h = (await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri: v.uri }, position: pos(v.lines, '/head/Tile =') })) as Hover;
  assert.match((h.contents as { value: string }).value, /\*\*Findings\*\*[\s\S]*onnx\/batch-axis-tile/);
  server.close(v.uri);
});

test('lsp onnx: go to producer and find consumers', async () => {
  const v = await openView('cnn.onnx');
  // the Concat's first input is produced by the ConvTranspose
  const concatLine = v.lines.findIndex((l) => l.startsWith('  /neck/Concat ='));
  const ch = v.lines[concatLine].indexOf('/neck/up/ConvTranspose_output_0') + 2;
  const def = (await server.connection.sendRequest(DefinitionRequest.type, {
    textDocument: { uri: v.uri },
    position: { line: concatLine, character: ch },
  })) as Location[];
  assert.equal(def.length, 1);
  assert.ok(v.lines[def[0].range.start.line].startsWith('  /neck/up/ConvTranspose ='));
  // consumers of /backbone/pw/Conv: the down conv and the concat
  const refs = (await server.connection.sendRequest(ReferencesRequest.type, {
    textDocument: { uri: v.uri },
    position: pos(v.lines, '/backbone/pw/Conv ='),
    context: { includeDeclaration: false },
  })) as Location[];
  assert.deepEqual(refs.map((r) => v.lines[r.range.start.line].split(' = ')[0].trim()).sort(), ['/backbone/down/Conv', '/neck/Concat']);
  // a graph input goes to its declaration line
  const inLine = v.lines.findIndex((l) => l.startsWith('  /backbone/conv1/Conv ='));
  const d2 = (await server.connection.sendRequest(DefinitionRequest.type, {
    textDocument: { uri: v.uri },
    position: { line: inLine, character: v.lines[inLine].indexOf('(input') + 2 },
  })) as Location[];
  assert.equal(v.lines[d2[0].range.start.line], '  input: float32[1,3,64,64]');
  server.close(v.uri);
});

test('lsp onnx: outline by node', async () => {
  const v = await openView('cnn.onnx');
  const syms = (await server.connection.sendRequest(DocumentSymbolRequest.type, { textDocument: { uri: v.uri } })) as DocumentSymbol[];
  assert.deepEqual(
    syms.map((s) => s.name),
    ['inputs', 'outputs', 'nodes'],
  );
  const nodes = syms[2].children!;
  assert.equal(nodes.length, 17);
  assert.equal(nodes[0].name, '/backbone/conv1/Conv');
  assert.equal(nodes[0].detail, 'Conv → [1,8,32,32]');
  assert.equal(syms[1].children![0].name, 'logits');
  server.close(v.uri);
});

test('lsp onnx: a truncated model opens as a view with the reason and an error diagnostic; the server survives', async () => {
  const v = await openView('truncated.onnx');
  assert.equal(v.ok, false);
  assert.match(v.text, /not readable ONNX: file is truncated/);
  assert.equal(v.diagnostics.length, 1);
  assert.equal(v.diagnostics[0].code, 'onnx/truncated');
  const again = await openView('cnn.onnx');
  assert.ok(again.ok);
  server.close(v.uri);
  server.close(again.uri);
});
