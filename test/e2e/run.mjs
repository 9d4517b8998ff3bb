// End-to-end driver: the packaged extension in a real VS Code (code-server 4.100.3, VS Code 1.100)
// driven by headless Debian Chromium through playwright-core, fully offline.
//   1. set up code-server in the cache (first run only, see setup.mjs)
//   2. `npm run package -- --target <this platform>` → hailo-tools-<platform>.vsix, and install THAT file into a temp extensions dir
//   3. a temp copy of examples/ (+ test/e2e/fixtures, + a corpus HEF when ../shared exists)
//   4. in-host suite (test/e2e/suite, mocha through the run() contract) in a trusted window
//   5. browser scenarios (test/e2e/ui, mocha here, asserting the DOM a user sees) + screenshots
//   6. the same two halves again in an untrusted (Restricted Mode) instance
// Ends with one countable line: `e2e: N passed, N failed, N skipped`.
// Usage: node test/e2e/run.mjs [--no-package] [--only host|ui] [--grep TEXT] [--screenshots]
//   --screenshots writes the README pictures to docs/screenshots/ (else they stay in the temp folder)
// Env: HAILO_E2E_KEEP=1 keeps the temp folder; HAILO_E2E_CACHE moves the code-server cache.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { haveChromium, installExtension, instanceDirs, launchChromium, startCodeServer, writeUserSettings, CHROMIUM } from './codeServer.mjs';
import { ensureCodeServer } from './setup.mjs';
import { describeLoad, measureLoadFactor } from './loadFactor.mjs';
import {
  bundleSuites,
  fakeDockerState,
  makeWorkspace,
  packageVsix,
  printHostResults,
  requireAllParts,
  root,
  sharedRoot,
  totals,
  writeExpectedDiagnostics,
  FAKE_DOCKER,
} from './build.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const argv = process.argv.slice(2);
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
const grep = argv.includes('--grep') ? argv[argv.indexOf('--grep') + 1] : undefined;
// The in-host suite's whole run, in the suite's deadlines (waits.ts deadlineMs: 30 s × the load
// factor): about 2 min on a quiet machine; its tests' own deadlines add up to more.
const HOST_SUITE_STEPS = 24;
// mocha's per-test backstop behind the browser scenarios' own waits, in the same deadlines.
const UI_TEST_STEPS = 10;

/** The suite's one deadline (waits.ts deadlineMs, the same rule: base × steps × load factor). */
function deadlineMs(steps) {
  return Math.round((Number(process.env.HAILO_E2E_DEADLINE_MS) || 30_000) * steps * Number(process.env.HAILO_E2E_LOAD_FACTOR || 1));
}

const log = (s) => process.stdout.write(`${s}\n`);

/** Runs the in-host mocha suite in a window of `server`; resolves with its JSON results. */
async function runHostSuite({ browser, server, extensionFolder, hostSuite, resultsFile, label }) {
  log(`\ne2e: in-host suite (${label})`);
  rmSync(resultsFile, { force: true });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const hostLog = [];
  const exited = new Promise((resolve) => {
    page.exposeFunction('codeAutomationLog', (type, args) => hostLog.push(`${type} ${JSON.stringify(args)}`));
    page.exposeFunction('codeAutomationExit', (code) => resolve(code));
  });
  const payload = [
    ['extensionDevelopmentPath', server.remote(extensionFolder)],
    ['extensionTestsPath', server.remote(hostSuite)],
    ['skipWelcome', 'true'],
  ];
  await page.goto(server.pageUrl({ payload }));
  const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), deadlineMs(HOST_SUITE_STEPS)));
  const code = await Promise.race([exited, timeout]);
  await page.close().catch(() => {});
  let results = [];
  if (existsSync(resultsFile)) results = JSON.parse(readFileSync(resultsFile, 'utf8'));
  printHostResults(results);
  if (code === 'timeout' || (code !== 0 && !results.some((r) => r.state === 'failed'))) {
    // The runner itself failed (did not load, or hung): count it so the run cannot look green.
    totals.failed++;
    log(`  ✖ in-host suite (${label}) did not complete: exit ${code}\n${hostLog.slice(-30).join('\n')}\n${server.output().slice(-3000)}`);
  }
}

/** Runs the browser scenarios (mocha in this process) with a context on globalThis. */
async function runUiSuite({ uiSuite, context, label }) {
  log(`\ne2e: browser scenarios (${label})`);
  globalThis.__hailoE2E = context;
  const Mocha = require('mocha');
  // Every wait in a scenario has its own deadline and says what it waited for; mocha's per-test
  // timeout is only the backstop behind them, so it must not cut a scenario's waits short on a
  // loaded machine (it would fail with "Timeout of N ms exceeded" instead of the condition).
  const mocha = new Mocha({ ui: 'bdd', timeout: deadlineMs(UI_TEST_STEPS), reporter: 'spec', color: false, grep });
  mocha.suite.emit('pre-require', globalThis, uiSuite, mocha);
  delete require.cache[uiSuite];
  require(uiSuite);
  const stats = await new Promise((resolve) => {
    const runner = mocha.run(() => resolve(runner.stats));
  });
  totals.passed += stats.passes;
  totals.failed += stats.failures;
  totals.skipped += stats.pending;
}

async function runInstance({ trust, vsix, bundles, browser, tmp }) {
  const label = trust ? 'trusted workspace' : 'untrusted workspace (Restricted Mode)';
  const base = join(tmp, trust ? 'trusted' : 'untrusted');
  // Measured before each instance (the machine is shared): both halves read it from the environment.
  const load = measureLoadFactor();
  process.env.HAILO_E2E_LOAD_FACTOR = String(load.factor);
  log(`\ne2e: ${label}: ${describeLoad(load)} → deadline ${(deadlineMs(1) / 1000).toFixed(0)} s per step`);
  // The command bridge's sockets (client/src/testing/commandBridge.ts): a folder only this user can reach.
  const bridgeDir = join(base, 'bridge');
  mkdirSync(bridgeDir, { recursive: true });
  chmodSync(bridgeDir, 0o700);
  const dirs = instanceDirs(base);
  writeUserSettings(dirs);
  // The machine-scoped docker path is the fake docker CLI, whose state (scenario, recorded argv,
  // containers) lives in the instance's folder. code-server is a remote window: machine-scoped
  // settings come from the remote machine's settings (user-data/Machine/settings.json) — VS Code
  // drops them from the user settings at its first configuration update.
  mkdirSync(join(dirs.userData, 'Machine'), { recursive: true });
  writeFileSync(
    join(dirs.userData, 'Machine', 'settings.json'),
    JSON.stringify({ 'hailo.dfc.dockerPath': FAKE_DOCKER, 'hailo.onnxruntime.path': root }, null, 2),
  );
  const fakeDocker = fakeDockerState(join(base, 'fake-docker'));
  const workspace = await makeWorkspace(join(base, 'workspace'), bundles);
  const extensionFolder = installExtension(dirs, vsix);
  const resultsFile = join(base, 'host-results.json');
  const expectedFile = writeExpectedDiagnostics(workspace, join(base, 'expected-diagnostics.json'));
  // The trusted instance has a (fake) Hailo-10H: HailoRT at a machine-scoped path, the simulated
  // device configured through the environment the extension host inherits.
  let fakeDevice = {};
  if (trust) {
    const fake = await require(bundles.fakeDevice).setupFakeDevice(workspace, base);
    writeUserSettings(dirs, { 'hailo.hailort.path': fake.prefix });
    fakeDevice = fake.env;
  }
  const server = await startCodeServer({
    settleTimeoutMs: deadlineMs(2),
    dirs,
    workspace,
    trust,
    env: {
      HAILO_E2E_RESULTS: resultsFile,
      HAILO_E2E_EXPECTED: expectedFile,
      HAILO_E2E_TRUST: trust ? 'trusted' : 'untrusted',
      HAILO_E2E_REPO: root,
      HAILO_E2E_FAKE_DOCKER: FAKE_DOCKER,
      HAILO_FAKE_DOCKER_STATE: fakeDocker,
      HAILO_TOOLS_E2E_BRIDGE: bridgeDir,
      HAILO_E2E_LOAD_FACTOR: String(load.factor),
      ...fakeDevice,
    },
  });
  try {
    if (only !== 'ui') await runHostSuite({ browser, server, extensionFolder, hostSuite: bundles.hostSuite, resultsFile, label });
    if (only !== 'host') {
      await runUiSuite({
        uiSuite: bundles.uiSuite,
        label,
        context: {
          browser,
          server,
          workspace,
          trust,
          // README pictures are refreshed only on request, so a normal run leaves the tree clean.
          screenshotsDir: argv.includes('--screenshots') ? join(root, 'docs', 'screenshots') : join(base, 'screenshots'),
          failuresDir: join(base, 'failures'),
          pages: [],
          extensionFolder,
          expectedDiagnostics: expectedFile,
          fakeDockerState: fakeDocker,
          repo: root,
          shared: sharedRoot(),
          bridgeDir,
        },
      });
    }
  } finally {
    await server.stop();
  }
}

async function main() {
  if (!haveChromium()) {
    const missing = `${CHROMIUM} is missing (apt-get install chromium ripgrep; see .ci/run)`;
    if (requireAllParts()) {
      log(`✖ e2e: ${missing}; under CI (or HAILO_REQUIRE_ALL=1) a missing real part fails the run`);
      log('e2e: 0 passed, 1 failed, 0 skipped');
      return 1;
    }
    log(`NOTE: e2e skipped: ${missing}`);
    log('e2e: 0 passed, 0 failed, 1 skipped (the whole suite; CI would fail here)');
    return 0;
  }
  const t0 = Date.now();
  ensureCodeServer();
  const vsix = packageVsix({ reuse: argv.includes('--no-package') });
  const bundles = await bundleSuites();
  const tmp = mkdtempSync(join(tmpdir(), 'hailo-e2e-'));
  const browser = await launchChromium();
  try {
    await runInstance({ trust: true, vsix, bundles, browser, tmp });
    await runInstance({ trust: false, vsix, bundles, browser, tmp });
  } catch (err) {
    totals.failed++;
    log(`✖ e2e driver error: ${err?.stack ?? err}`);
  } finally {
    await browser.close().catch(() => {});
    if (process.env.HAILO_E2E_KEEP || totals.failed) log(`e2e: temp folder kept at ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
  log(`\ne2e: finished in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  log(`e2e: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
  return totals.failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    log(`e2e: ${totals.passed} passed, ${totals.failed + 1} failed, ${totals.skipped} skipped`);
    process.exit(1);
  },
);
