// Any LSP client, not only VS Code: a client that declares no optional capability (no pull
// configuration, no dynamic registration, no workspace folders request) still gets diagnostics,
// settings from initializationOptions or from didChangeConfiguration, and HEF checks of the
// folders it named in initialize — and the server never sends it a request it did not declare
// (the harness answers those with an error, as an editor would). `hailo-tools lsp --stdio` is the
// same server; without a transport both entry points print one usage line, not a stack trace.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DidChangeConfigurationNotification, HoverRequest, type MarkupContent } from 'vscode-languageserver-protocol/node';
import { startTestServer } from '../helpers/lsp';
import { repoRoot } from '../helpers/shared';

// Cluster 3 is above what hailo15l scripts use (2) but within hailo10h's (4): alls/out-of-range on hailo15l only.
const SCRIPT = 'context_0 = context([conv1])\ncontext_0.place(3, [conv1])\nquantizaton_param(conv1, precision_mode=a8_w8)\n';
const codes = (d: { code?: string | number }[]) => d.map((x) => String(x.code)).sort();

test('lsp any client: no optional capability declared → diagnostics, settings from initializationOptions, no undeclared request', async () => {
  const server = await startTestServer({ capabilities: {}, initializationOptions: { hailo: { hwArch: 'hailo15l' } } });
  try {
    const uri = 'file:///tmp/any-client/a.alls';
    const first = server.nextDiagnostics(uri, 1);
    server.open(uri, 'alls', SCRIPT, 1);
    assert.deepEqual(codes((await first).diagnostics), ['alls/out-of-range', 'alls/unknown-command']);
    const hover = await server.connection.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line: 1, character: 12 } });
    assert.match((hover?.contents as MarkupContent).value, /place/);

    // Settings pushed by didChangeConfiguration win over initializationOptions.
    const second = server.nextDiagnostics(uri, 1);
    void server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { hailo: { hwArch: 'hailo10h' } } });
    assert.deepEqual(codes((await second).diagnostics), ['alls/unknown-command']);
    assert.deepEqual(
      server.requests.map((r) => r.method),
      [],
      'the server asked nothing the client did not declare',
    );

    // An editor that does not know the language: `.alls` by file name.
    const plain = 'file:///tmp/any-client/c.alls';
    const third = server.nextDiagnostics(plain, 1);
    server.open(plain, 'plaintext', SCRIPT, 1);
    assert.deepEqual(codes((await third).diagnostics), ['alls/unknown-command']);
  } finally {
    await server.stop();
  }
});

test('lsp any client: HEF checks run on the folders sent in initialize, without watchers or a folders request', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'any-client-hef-'));
  copyFileSync(join(repoRoot, 'test', 'fixtures', 'hef', 'mtmd-fail-four-outputs.hef'), join(dir, 'three.hef'));
  const server = await startTestServer({ capabilities: {}, folders: [dir] });
  try {
    const p = await server.diagnostics(pathToFileURL(join(dir, 'three.hef')).toString());
    assert.ok(codes(p.diagnostics).includes('mtmd/four-outputs'), codes(p.diagnostics).join());
    assert.deepEqual(
      server.requests.map((r) => r.method),
      [],
    );
    assert.ok(
      server.log.some((l) => /cannot watch files/.test(l.message)),
      'the log says HEFs are not watched',
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('lsp: `hailo-tools lsp --stdio` is the same server (a VS Code-like client gets diagnostics)', async () => {
  const server = await startTestServer({ command: [join(repoRoot, 'bin', 'hailo-tools.js'), 'lsp', '--stdio'], settings: { hwArch: 'hailo15l' } });
  try {
    const uri = 'file:///tmp/any-client/b.alls';
    const first = server.nextDiagnostics(uri, 1);
    server.open(uri, 'alls', SCRIPT, 1);
    assert.deepEqual(codes((await first).diagnostics), ['alls/out-of-range', 'alls/unknown-command']);
    assert.ok(
      server.requests.some((r) => r.method === 'workspace/configuration'),
      'a client that declares pull configuration is asked',
    );
  } finally {
    await server.stop();
  }
});

test('lsp: without a transport, both entry points print one usage line and exit 2', () => {
  for (const args of [[join(repoRoot, 'dist', 'server.js')], [join(repoRoot, 'bin', 'hailo-tools.js'), 'lsp']]) {
    const r = spawnSync(process.execPath, args, { encoding: 'utf8', timeout: 20_000 });
    assert.equal(r.status, 2, args.join(' '));
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /no transport given/);
    assert.match(r.stderr, /hailo-tools lsp --stdio/);
    assert.ok(r.stderr.length < 800, `a usage message, not source code: ${r.stderr.length} characters`);
  }
});
