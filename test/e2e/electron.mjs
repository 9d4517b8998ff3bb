// The same in-host suite under @vscode/test-electron (desktop VS Code), for machines that have
// VS Code or may download it. Gated: runs only with VSCODE_EXECUTABLE=/path/to/code (nothing is
// downloaded then) or with --download (test-electron fetches VS Code 1.100.3; needs internet).
// Otherwise prints a NOTE and exits 0. On a headless Linux box wrap it: xvfb-run -a node ...
// Like the code-server run, it installs the packaged .vsix and loads the extension from the
// installed folder, so what is tested is what ships.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSuites, makeWorkspace, packageVsix, printHostResults, totals, writeExpectedDiagnostics } from './build.mjs';

const VSCODE_VERSION = '1.100.3';
const log = (s) => process.stdout.write(`${s}\n`);

async function main() {
  const { downloadAndUnzipVSCode, resolveCliArgsFromVSCodeExecutablePath, runTests } = await import('@vscode/test-electron');
  let executable = process.env.VSCODE_EXECUTABLE;
  if (!executable) {
    if (!process.argv.includes('--download')) {
      log('NOTE: test-electron run skipped: set VSCODE_EXECUTABLE=/path/to/code, or pass --download on a machine with internet');
      return 0;
    }
    executable = await downloadAndUnzipVSCode(VSCODE_VERSION);
  }
  if (!existsSync(executable)) throw new Error(`VSCODE_EXECUTABLE does not exist: ${executable}`);
  const vsix = packageVsix({ reuse: process.argv.includes('--no-package') });
  const bundles = await bundleSuites();
  const { hostSuite } = bundles;
  const tmp = mkdtempSync(join(tmpdir(), 'hailo-e2e-electron-'));
  const extensionsDir = join(tmp, 'extensions');
  const userDataDir = join(tmp, 'user-data');
  mkdirSync(extensionsDir, { recursive: true });
  const workspace = await makeWorkspace(join(tmp, 'workspace'), bundles);
  const [cli, ...cliArgs] = resolveCliArgsFromVSCodeExecutablePath(executable);
  const install = spawnSync(cli, [...cliArgs, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--install-extension', vsix], {
    encoding: 'utf8',
  });
  if (install.status !== 0) throw new Error(`installing the .vsix failed:\n${install.stdout}\n${install.stderr}`);
  const folder = readdirSync(extensionsDir).find((n) => n.startsWith('hailo-tools.hailo-tools-'));
  if (!folder) throw new Error(`the .vsix did not install into ${extensionsDir}`);
  const resultsFile = join(tmp, 'host-results.json');
  const expectedFile = writeExpectedDiagnostics(workspace, join(tmp, 'expected-diagnostics.json'));
  let code = 0;
  try {
    code = await runTests({
      vscodeExecutablePath: executable,
      extensionDevelopmentPath: join(extensionsDir, folder),
      extensionTestsPath: hostSuite,
      // test-electron adds --disable-workspace-trust: the trusted half of the suite runs here.
      extensionTestsEnv: { HAILO_E2E_RESULTS: resultsFile, HAILO_E2E_EXPECTED: expectedFile, HAILO_E2E_TRUST: 'trusted' },
      launchArgs: [workspace, '--extensions-dir', extensionsDir, '--user-data-dir', userDataDir, '--skip-welcome'],
    });
  } catch (err) {
    code = 1;
    log(`test-electron: ${err}`);
  }
  if (existsSync(resultsFile)) printHostResults(JSON.parse(readFileSync(resultsFile, 'utf8')));
  if (code !== 0 && totals.failed === 0) totals.failed++;
  rmSync(tmp, { recursive: true, force: true });
  log(`e2e (electron): ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  return totals.failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
