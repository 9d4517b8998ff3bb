// Inline HEF checks over LSP (bundled server): the workspace scan publishes contract failures on
// .hef URIs, file-watcher events re-check (and clear), `hailo.hef.inlineChecks` selects
// off / auto / always, and a settings change re-checks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import {
  DidChangeWatchedFilesNotification,
  DidChangeConfigurationNotification,
  FileChangeType,
  type PublishDiagnosticsParams,
} from 'vscode-languageserver-protocol/node';
import { startTestServer, type TestServer } from '../helpers/lsp';
import { repoRoot } from '../helpers/shared';

const fx = (name: string) => join(repoRoot, 'test', 'fixtures', 'hef', name);

function workspace() {
  const dir = mkdtempSync(join(tmpdir(), 'hef-lsp-'));
  copyFileSync(fx('mtmd-pass.hef'), join(dir, 'pass.hef'));
  copyFileSync(fx('mtmd-fail-four-outputs.hef'), join(dir, 'three-outputs.hef'));
  copyFileSync(fx('container-v1.hef'), join(dir, 'plain.hef')); // no hailo-config.json: not an encoder
  const uri = (name: string) => pathToFileURL(join(dir, name)).toString();
  return { dir, uri };
}

async function start(dir: string, settings: Record<string, unknown>): Promise<TestServer> {
  return startTestServer({ settings, folders: [dir] });
}

const codes = (p: PublishDiagnosticsParams) => p.diagnostics.map((d) => d.code).sort();

test('lsp hef: auto mode checks HEFs that embed hailo-config.json; watcher events re-check and clear', async () => {
  const { dir, uri } = workspace();
  const server = await start(dir, { hef: { inlineChecks: 'auto' } });
  try {
    const first = await server.nextDiagnostics(uri('three-outputs.hef'));
    assert.deepEqual(codes(first), ['mtmd/four-outputs', 'mtmd/suffixes-resolve']);
    const d = first.diagnostics.find((x) => x.code === 'mtmd/four-outputs')!;
    assert.equal(d.severity, 1);
    assert.equal(d.source, 'hailo');
    assert.match(d.message, /HEF must have exactly 4 outputs, but got 3/);

    // Damage the passing HEF: the watcher event brings an integrity diagnostic with its offset.
    const passPath = join(dir, 'pass.hef');
    const good = readFileSync(passPath);
    writeFileSync(passPath, good.subarray(0, 5000));
    const damaged = server.nextDiagnostics(uri('pass.hef'));
    void server.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('pass.hef'), type: FileChangeType.Changed }] });
    const p = await damaged;
    assert.ok(codes(p).includes('hef/truncated'), codes(p).join());
    assert.match(p.diagnostics.find((x) => x.code === 'hef/truncated')!.message, /\(byte 5,000\)/);

    // Repair it: the diagnostics are cleared.
    writeFileSync(passPath, good);
    const cleared = server.nextDiagnostics(uri('pass.hef'));
    void server.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: uri('pass.hef'), type: FileChangeType.Changed }] });
    assert.deepEqual((await cleared).diagnostics, []);

    // Delete the failing one: cleared too.
    unlinkSync(join(dir, 'three-outputs.hef'));
    const gone = server.nextDiagnostics(uri('three-outputs.hef'));
    void server.connection.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: [{ uri: uri('three-outputs.hef'), type: FileChangeType.Deleted }],
    });
    assert.deepEqual((await gone).diagnostics, []);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('lsp hef: always mode checks every HEF; switching to off in the settings clears them', async () => {
  const { dir, uri } = workspace();
  const server = await start(dir, { hef: { inlineChecks: 'always' }, mtmd: { textModelWidth: 4096 } });
  try {
    const plain = server.nextDiagnostics(uri('plain.hef'));
    const pass = server.nextDiagnostics(uri('pass.hef'));
    const pc = codes(await plain);
    assert.ok(pc.includes('mtmd/arch-hailo10h') && pc.includes('mtmd/config-embedded') && pc.includes('mtmd/four-outputs'), pc.join());
    // The configured text-model width is checked: 4 × 2560 ≠ 4096.
    assert.deepEqual(codes(await pass), ['mtmd/text-model-width']);

    server.settings.hef = { inlineChecks: 'off' };
    const off = server.nextDiagnostics(uri('plain.hef'));
    void server.connection.sendNotification(DidChangeConfigurationNotification.type, { settings: { hailo: server.settings } });
    assert.deepEqual((await off).diagnostics, []);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('lsp hef: a HEF created later is picked up from the watcher event', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hef-lsp-'));
  const server = await start(dir, {});
  try {
    copyFileSync(fx('resource-bad-checksum.hef'), join(dir, 'new.hef'));
    const u = pathToFileURL(join(dir, 'new.hef')).toString();
    const next = server.nextDiagnostics(u);
    void server.connection.sendNotification(DidChangeWatchedFilesNotification.type, { changes: [{ uri: u, type: FileChangeType.Created }] });
    const c = codes(await next);
    assert.ok(c.includes('hef/resource-checksum') && c.includes('mtmd/config-embedded'), c.join());
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
