// The in-host half of the e2e suite: runs inside the VS Code extension host through the `run()`
// contract that both code-server (test/e2e/run.mjs) and @vscode/test-electron (test/e2e/electron.mjs)
// use. Scenarios are plain mocha files (`*.e2e.ts`) bundled into this module.
// HAILO_E2E_RESULTS (set by the driver) names a JSON file that receives every test's outcome,
// because the extension host's stdout is not visible from the browser driver.
import { writeFileSync } from 'node:fs';
import Mocha from 'mocha';
import { deadlineMs } from '../waits';

export interface HostTestResult {
  title: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: string;
}

export function run(): Promise<void> {
  // The backstop behind each test's own condition waits (they have their deadlines and messages).
  const mocha = new Mocha({ ui: 'bdd', timeout: deadlineMs(6), color: false, reporter: 'spec' });
  // Install describe/it on the global object, then load the bundled scenario modules.
  mocha.suite.emit('pre-require', globalThis, 'hailo-e2e', mocha);
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- after 'pre-require' has installed describe/it; an import would be hoisted above it
  require('./scenarios');
  const results: HostTestResult[] = [];
  const resultsFile = process.env.HAILO_E2E_RESULTS;
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      if (resultsFile) writeFileSync(resultsFile, JSON.stringify(results, null, 2));
      if (failures > 0) reject(new Error(`${failures} e2e tests failed`));
      else resolve();
    });
    runner.on('pass', (t) => results.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration }));
    runner.on('fail', (t, err) => results.push({ title: t.fullTitle(), state: 'failed', error: String(err?.stack ?? err) }));
    runner.on('pending', (t) => results.push({ title: t.fullTitle(), state: 'pending' }));
  });
}
