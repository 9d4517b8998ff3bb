import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HoverRequest } from 'vscode-languageserver-protocol/node';
import { startTestServer } from '../helpers/lsp';

test('lsp: bundled server initializes, answers for unknown documents, and shuts down', async () => {
  const server = await startTestServer();
  try {
    server.open('file:///tmp/x.txt', 'plaintext', 'hello');
    const hover = await server.connection.sendRequest(HoverRequest.type, {
      textDocument: { uri: 'file:///tmp/x.txt' },
      position: { line: 0, character: 1 },
    });
    assert.equal(hover, null);
  } finally {
    await server.stop();
  }
});
