// The 16-bit quick fix over a real JSON-RPC connection to the bundled server: a script beside a
// quantized HAR with its noise results gets the `alls/noisy-layers` diagnostic and, as a code
// action, the edit appending the 16-bit line; the layer hover carries the SNR.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeActionRequest, HoverRequest, type CodeAction, type Hover } from 'vscode-languageserver-protocol/node';
import { startTestServer } from '../helpers/lsp';
import { repoRoot } from '../helpers/shared';

test('lsp: noisy layers — the diagnostic, its 16-bit code action, the SNR in the layer hover', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'noisy-lsp-'));
  const server = await startTestServer({ folders: [dir] });
  try {
    const fix = join(repoRoot, 'test', 'fixtures', 'har');
    copyFileSync(join(fix, 'tinycnn_quantized.har'), join(dir, 'tinycnn.har'));
    copyFileSync(join(fix, 'tinycnn_quantized.noise.json'), join(dir, 'tinycnn.noise.json'));
    const text = 'quantization_param(conv3, precision_mode=a8_w8)\n';
    writeFileSync(join(dir, 'tinycnn.alls'), text);
    const uri = pathToFileURL(join(dir, 'tinycnn.alls')).toString();
    const p = server.diagnostics(uri, (d) => d.diagnostics.some((x) => x.code === 'alls/noisy-layers'), 20_000);
    server.open(uri, 'alls', text, 1);
    const diag = (await p).diagnostics.find((x) => x.code === 'alls/noisy-layers')!;
    assert.equal(diag.severity, 3, 'information');
    const actions = (await server.connection.sendRequest(CodeActionRequest.type, {
      textDocument: { uri },
      range: diag.range,
      context: { diagnostics: [diag] },
    })) as CodeAction[];
    const a = actions.find((x) => x.title.startsWith('Give 2 noisy layers 16 bits'))!;
    assert.deepEqual(a.edit!.changes![uri], [
      {
        range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } },
        newText: 'quantization_param([conv3, deconv1], precision_mode=a16_w16)\n',
      },
    ]);
    const h = (await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 21 } })) as Hover;
    assert.match((h.contents as { value: string }).value, /\*\*Noise analysis\*\*: SNR 6\.30 dB/);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
