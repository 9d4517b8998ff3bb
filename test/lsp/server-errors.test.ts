// A crash must never look like a clean file. The bundled server is started with its test hook
// HAILO_LS_ARTIFICIAL_PANIC (prisma-style "artificial panic"): validating or answering for a
// document that contains the marker throws. Expected: one internal-error diagnostic replaces the
// previous (stale) ones, requests get an error response instead of an empty answer, the exception
// is an error line in the server's log — which the harness turns into a failed test unless the
// test expects it — and the server keeps serving other documents.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HoverRequest, MessageType } from 'vscode-languageserver-protocol/node';
import { startTestServer } from '../helpers/lsp';

const MARKER = 'hailo-test-artificial-panic';
const BROKEN = 'quantizaton_param(conv1, precision_mode=a8_w8)\n';

test('lsp: a validation that throws publishes one internal-error diagnostic and clears the stale ones', async () => {
  const server = await startTestServer({ env: { HAILO_LS_ARTIFICIAL_PANIC: MARKER }, expectErrors: /artificial panic/ });
  try {
    const uri = 'file:///tmp/panic/broken.alls';
    const first = server.nextDiagnostics(uri, 1);
    server.open(uri, 'alls', BROKEN, 1);
    assert.deepEqual(
      (await first).diagnostics.map((d) => d.code),
      ['alls/unknown-command'],
    );

    const second = server.nextDiagnostics(uri, 2);
    server.change(uri, `${BROKEN}# ${MARKER}\n`, 2);
    const p = await second;
    assert.equal(p.diagnostics.length, 1, JSON.stringify(p.diagnostics));
    assert.equal(p.diagnostics[0].code, 'hailo/internal-error');
    assert.equal(p.diagnostics[0].severity, 1);
    assert.match(p.diagnostics[0].message, /Internal error while checking this file: artificial panic/);

    // A request on the same document: an error response, not `null` ("nothing here").
    await assert.rejects(
      server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 0, character: 2 } }),
      /hover failed: artificial panic/,
    );
    const errors = server.log.filter((l) => l.type === MessageType.Error).map((l) => l.message);
    assert.ok(
      errors.some((m) => /^validate file:\/\/\/tmp\/panic\/broken\.alls failed: Error: artificial panic/.test(m)),
      errors.join('\n'),
    );
    assert.ok(
      errors.some((m) => /^hover .* failed/.test(m)),
      errors.join('\n'),
    );

    // The server survived: another document is still checked.
    const other = 'file:///tmp/panic/other.alls';
    const next = server.nextDiagnostics(other, 1);
    server.open(other, 'alls', BROKEN, 1);
    assert.deepEqual(
      (await next).diagnostics.map((d) => d.code),
      ['alls/unknown-command'],
    );
  } finally {
    await server.stop();
  }
});

test('lsp harness: a handler exception in the server log fails the test that did not expect it', async () => {
  const server = await startTestServer({ env: { HAILO_LS_ARTIFICIAL_PANIC: MARKER } });
  let stopped = false;
  try {
    const uri = 'file:///tmp/panic/x.alls';
    const published = server.nextDiagnostics(uri, 1);
    server.open(uri, 'alls', `# ${MARKER}\n`, 1);
    assert.equal((await published).diagnostics[0]?.code, 'hailo/internal-error');
    stopped = true;
    await assert.rejects(server.stop(), /the server logged 1 error\(s\) \(a handler threw\):\nvalidate .* failed: Error: artificial panic/);
  } finally {
    if (!stopped) await server.stop().catch(() => undefined);
  }
});
