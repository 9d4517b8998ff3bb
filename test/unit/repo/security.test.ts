// Security rules of SECURITY.md: the workspace-trust guard, the process runner (argument arrays,
// no shell), and source scans for shell strings, ungated execution and webview CSP. Each scan is
// first shown to fire on a bad sample, then run over the real sources.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MANAGE_TRUST_BUTTON, requireWorkspaceTrust, restrictedModeMessage, type TrustToken } from '../../../client/src/security/workspaceTrust';
import { runTool } from '../../../client/src/security/runTool';
import { repoRoot } from '../../helpers/shared';
import { fakeTrustHost } from '../../fakes/trustHost';
import { FS_ALLOWED } from '../../../scripts/fs-allowlist.mjs';
import {
  describeFindings,
  findDirectFileAccess,
  findShellStrings,
  findUngatedExecution,
  findWebviewProblems,
  sourceFiles,
  type SourceFile,
} from '../../helpers/securityScan';

async function trustedToken(): Promise<TrustToken> {
  const token = await requireWorkspaceTrust('test', fakeTrustHost(true).host);
  assert.ok(token);
  return token;
}

test('trust guard: a trusted workspace gets a token and no prompt', async () => {
  const { host, calls } = fakeTrustHost(true);
  const token = await requireWorkspaceTrust('Hailo: Compile', host);
  assert.equal(token?.action, 'Hailo: Compile');
  assert.deepEqual(calls.warn, []);
  assert.deepEqual(calls.log, []);
});

test('trust guard: Restricted Mode refuses, explains, logs, and offers the trust editor', async () => {
  const { host, calls } = fakeTrustHost(false, MANAGE_TRUST_BUTTON);
  const token = await requireWorkspaceTrust('Hailo: Compile', host);
  assert.equal(token, undefined);
  assert.deepEqual(calls.warn, [[restrictedModeMessage('Hailo: Compile'), MANAGE_TRUST_BUTTON]]);
  assert.match(calls.warn[0][0], /Hailo: Compile runs programs on this machine.*Restricted Mode/);
  assert.deepEqual(calls.log, ['refused in Restricted Mode: Hailo: Compile']);
  await new Promise((r) => setImmediate(r));
  assert.equal(calls.manage, 1, 'choosing the button opens the trust editor');
});

test('trust guard: dismissing the warning does not open the trust editor', async () => {
  const { host, calls } = fakeTrustHost(false, undefined);
  assert.equal(await requireWorkspaceTrust('x', host), undefined);
  await new Promise((r) => setImmediate(r));
  assert.equal(calls.manage, 0);
});

test('runTool: arguments reach the program verbatim; shell syntax is not interpreted', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'hailo-sec-'));
  try {
    const marker = join(dir, 'pwned');
    const hostile = [`a b; touch ${marker}`, `$(touch ${marker})`, `\`touch ${marker}\``, '| cat', "'quoted'", '*'];
    const r = await runTool(await trustedToken(), process.execPath, ['-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', ...hostile]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), hostile);
    assert.equal(existsSync(marker), false, 'no shell ran the injected command');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('runTool: a missing executable is an ENOENT result, not a throw', async () => {
  const r = await runTool(await trustedToken(), '/nonexistent/hailo/docker', ['version']);
  assert.equal(r.code, undefined);
  assert.equal(r.error?.code, 'ENOENT');
});

test('runTool: a hung program is killed at the timeout', async () => {
  const start = Date.now();
  const r = await runTool(await trustedToken(), process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { timeoutMs: 300 });
  assert.equal(r.error?.code, 'ETIMEDOUT');
  assert.ok(Date.now() - start < 5000);
});

test('runTool: output is capped', async () => {
  const r = await runTool(await trustedToken(), process.execPath, ['-e', 'process.stdout.write("x".repeat(1 << 20))'], { maxOutputBytes: 1024 });
  assert.equal(r.code, 0);
  assert.ok(r.stdout.length < 128 * 1024, `captured ${r.stdout.length} chars`);
});

const sample = (path: string, text: string): SourceFile => ({ path, text });

test('scan: shell strings are caught in every form (positive controls)', () => {
  const bad = [
    "import { exec } from 'node:child_process';\nexec(`docker run ${img}`);",
    "import { execSync as run } from 'child_process';",
    "const { execSync } = require('child_process');",
    "import * as cp from 'child_process';\ncp.exec('ls ' + dir);",
    "import cp from 'node:child_process';\ncp.execSync(cmd)",
    'spawn(cmd, { shell: true })',
    "spawn('docker', args, { shell: process.platform === 'win32' })",
    "spawn('bash', ['-c', `docker run ${x}`])",
    "spawn('/bin/sh', ['-c', line])",
  ];
  for (const text of bad) assert.ok(findShellStrings(sample('client/src/x.ts', text)).length > 0, `missed: ${text}`);
  const good = [
    "import { spawn } from 'node:child_process';\nspawn('docker', ['run', image], { shell: false });",
    'const m = /a(b)/.exec(text); re.exec(line);',
    '// never use exec( or shell: true here',
    "import { spawnSync } from 'node:child_process';\nspawnSync(process.execPath, [script]);",
  ];
  for (const text of good) assert.deepEqual(findShellStrings(sample('client/src/x.ts', text)), [], `false alarm: ${text}`);
  for (const text of ['subprocess.run(cmd, shell=True)', 'os.system("protoc " + path)', 'os.popen(line)', 'subprocess.getoutput(c)']) {
    assert.equal(findShellStrings(sample('scripts/gen.py', text)).length, 1, `missed: ${text}`);
  }
  assert.deepEqual(findShellStrings(sample('scripts/gen.py', 'subprocess.run(["protoc", path], check=True)  # never shell=True')), []);
});

test('scan: no shell strings anywhere in the sources, scripts, tests or benches', () => {
  // The scanner's own files hold the bad samples above; everything else is scanned.
  const self = new Set(['test/unit/repo/security.test.ts', 'test/helpers/securityScan.ts']);
  const files = sourceFiles(repoRoot, ['client', 'server', 'bin', 'test', 'bench', 'scripts', 'media', 'esbuild.mjs']).filter((f) => !self.has(f.path));
  assert.ok(files.length > 10, `scanned only ${files.length} files`);
  const findings = files.flatMap(findShellStrings);
  assert.deepEqual(findings, [], `\n${describeFindings(findings)}`);
});

test('scan: ungated execution is caught (positive controls)', () => {
  assert.equal(findUngatedExecution(sample('client/src/compile.ts', "import { spawn } from 'node:child_process';")).length, 1);
  assert.equal(findUngatedExecution(sample('server/src/core/alls/x.ts', "const cp = require('child_process');")).length, 1);
  assert.equal(findUngatedExecution(sample('client/src/native/hailort.ts', "import koffi from 'koffi';")).length, 1);
  assert.deepEqual(findUngatedExecution(sample('client/src/native/hailort.ts', "import koffi from 'koffi';\nexport function load(t: TrustToken) {}")), []);
  assert.deepEqual(findUngatedExecution(sample('client/src/security/runTool.ts', "import { spawn } from 'node:child_process';")), []);
  assert.deepEqual(findUngatedExecution(sample('test/unit/x.ts', "import { spawn } from 'node:child_process';")), []);
  assert.equal(findUngatedExecution(sample('server/src/processes/device/x.ts', "import { fork } from 'node:child_process';")).length, 1);
  assert.deepEqual(
    findUngatedExecution(sample('server/src/processes/device/x.ts', "import { fork } from 'node:child_process';\nexport function start(t: TrustToken) {}")),
    [],
  );
  assert.equal(findUngatedExecution(sample('server/src/processes/accuracy/x.ts', "import { fork } from 'node:child_process';")).length, 1);
  assert.deepEqual(
    findUngatedExecution(sample('server/src/processes/accuracy/x.ts', "import { fork } from 'node:child_process';\nexport function run(t: TrustToken) {}")),
    [],
  );
});

test('scan: extension and server code start processes / load native code only behind the trust guard', () => {
  const files = sourceFiles(repoRoot, ['client/src', 'server/src']);
  assert.ok(files.some((f) => f.path === 'client/src/security/runTool.ts'));
  const findings = files.flatMap(findUngatedExecution);
  assert.deepEqual(findings, [], `\n${describeFindings(findings)}`);
});

test('scan: node:fs outside the confined file layer is caught (positive controls)', () => {
  const bad = [
    "import { readFileSync } from 'node:fs';",
    "import * as fs from 'fs';",
    "import { promises as fs } from 'fs';",
    "import { open } from 'node:fs/promises';",
    "const fs = require('fs');",
    "const fs = await import('node:fs');",
    "import { readSmallFileSync } from '../common/fileAccess';",
    "import { confinedOrUndefined, type X } from '@hailo/api';",
  ];
  for (const code of bad) assert.equal(findDirectFileAccess(sample('server/src/core/x.ts', code)).length, 1, code);
  assert.equal(findDirectFileAccess(sample('client/src/x.ts', "import { readdirSync } from 'fs';")).length, 1);
  // A type opens nothing; the layer itself, the allowlisted modules and the tests may import node:fs.
  assert.deepEqual(findDirectFileAccess(sample('server/src/core/x.ts', "import type { Stats } from 'node:fs';")), []);
  assert.deepEqual(findDirectFileAccess(sample('server/src/core/x.ts', "import { FileRoots } from '../common/confined';")), []);
  assert.deepEqual(findDirectFileAccess(sample('server/src/core/common/confined.ts', "import { openSync } from 'node:fs';")), []);
  assert.deepEqual(findDirectFileAccess(sample('test/unit/x.ts', "import { openSync } from 'node:fs';")), []);
});

test('scan: every file access in the extension and the server goes through the confined file layer (allowlist with reasons)', () => {
  const files = sourceFiles(repoRoot, ['client/src', 'server/src']);
  const findings = files.flatMap(findDirectFileAccess);
  assert.deepEqual(findings, [], `\n${describeFindings(findings)}`);
  // Every allowlist entry names a module that exists and says why its paths are not folder-derived.
  for (const a of FS_ALLOWED) {
    assert.ok(
      files.some((f) => f.path === a.path),
      `${a.path} (allowlisted) exists`,
    );
    assert.ok(a.reason.length > 20, `${a.path} has a reason`);
  }
});

test('scan: webview problems are caught (positive controls)', () => {
  const noCsp = 'panel.webview.html = `<html><body><script>go()</script></body></html>`;';
  assert.ok(findWebviewProblems(sample('client/src/v.ts', noCsp)).some((f) => /Content-Security-Policy/.test(f.rule)));
  const unsafe = 'panel.webview.html = `<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; script-src \'unsafe-inline\'"><script>`;';
  assert.ok(findWebviewProblems(sample('client/src/v.ts', unsafe)).some((f) => /unsafe/.test(f.rule)));
  assert.equal(findWebviewProblems(sample('client/src/v.ts', 'createWebviewPanel(id, t, c, { enableScripts: true })')).length, 1);
  const good = [
    'const opts = { enableScripts: true, localResourceRoots: [media] };',
    'panel.webview.html = `<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; script-src \'nonce-${nonce}\'"><script nonce="${nonce}">`;',
  ].join('\n');
  assert.deepEqual(findWebviewProblems(sample('client/src/v.ts', good)), []);
});

test('scan: every webview in the client has a nonce CSP and restricted resource roots', () => {
  const files = sourceFiles(repoRoot, ['client/src']);
  const findings = files.flatMap(findWebviewProblems);
  assert.deepEqual(findings, [], `\n${describeFindings(findings)}`);
  // The scan takes preparePanel's and pageOptions' pages as shared-policy pages: preparePanel's page
  // options are pageOptions', and pageOptions builds them on strictCsp.
  const editor = files.find((f) => f.path === 'client/src/customEditor.ts');
  assert.ok(editor && /page: \(\) => pageOptions\(panel\.webview,/.test(editor.text), 'customEditor.ts preparePanel builds its page options with pageOptions');
  const assets = files.find((f) => f.path === 'client/src/webview/assets.ts');
  assert.ok(assets && /return \{\s*\.\.\.strictCsp\(webview\),/.test(assets.text), 'webview/assets.ts pageOptions builds on strictCsp');
});

test('scan: the scanner sees the whole tree (no silently skipped folder)', () => {
  const top = readdirSync(repoRoot);
  for (const dir of ['client', 'server', 'test']) assert.ok(top.includes(dir));
});

test('the shared webview policy: default-src none, extension roots only, scripts by a fresh nonce (checkedCsp accepts it)', async () => {
  const { strictCsp } = await import('../../../client/src/webview/csp');
  const { checkedCsp } = await import('../../../client/src/webview/html');
  const webview = { cspSource: 'vscode-webview://abc' } as unknown as import('vscode').Webview;
  const a = strictCsp(webview);
  const b = strictCsp(webview);
  assert.notEqual(a.nonce, b.nonce);
  assert.match(a.cspMeta, /default-src 'none'/);
  assert.match(a.cspMeta, new RegExp(`script-src 'nonce-${a.nonce.replace(/[+/]/g, '\\$&')}'`));
  assert.doesNotMatch(a.cspMeta, /unsafe-|\*/);
  assert.doesNotThrow(() => checkedCsp({ ...a, styleUri: 's', scriptUri: 'j' }));
});
