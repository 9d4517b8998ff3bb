// Shared steps of the two e2e runners (run.mjs: code-server + chromium; electron.mjs:
// @vscode/test-electron): package the .vsix, bundle the suites, lay out the workspace, print results.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PLATFORMS, UNIVERSAL, packageFile } from '../../scripts/package.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
export const root = join(here, '..', '..');
const log = (s) => process.stdout.write(`${s}\n`);

export const totals = { passed: 0, failed: 0, skipped: 0 };

/** Under CI (or HAILO_REQUIRE_ALL=1) a missing real part fails the run (test/helpers/shared.ts). */
export function requireAllParts(env = process.env) {
  const ci = env.CI;
  return (ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false') || env.HAILO_REQUIRE_ALL === '1';
}

/** Thrown for a real part that is missing where it must be there. */
export class MissingPartError extends Error {}

export function sharedRoot() {
  const candidates = [process.env.HAILO_SHARED_DIR, join(root, '..', 'shared')].filter(Boolean);
  return candidates.find((p) => existsSync(join(p, 'corpus')));
}

/** Bundles the in-host suite (vscode, mocha external) and the browser scenarios. */
export async function bundleSuites() {
  // A folder per run: two runs in the same tree (parallel `npm test`s) must not delete each other's bundles.
  const outdir = join(root, 'out', `e2e-${process.pid}`);
  rmSync(outdir, { recursive: true, force: true });
  process.once('exit', () => rmSync(outdir, { recursive: true, force: true }));
  const common = { bundle: true, platform: 'node', target: 'node20', format: 'cjs', sourcemap: 'inline', logLevel: 'warning' };
  await esbuild.build({ ...common, entryPoints: [join(here, 'suite', 'index.ts')], outfile: join(outdir, 'suite', 'index.js'), external: ['vscode', 'mocha'] });
  await esbuild.build({
    ...common,
    entryPoints: [join(here, 'ui', 'index.ts')],
    outfile: join(outdir, 'ui', 'index.js'),
    external: ['playwright-core', 'mocha'],
  });
  // Run-time fixture makers (HEF and ONNX with HTML in their names), bundled like a test.
  await esbuild.build({ ...common, entryPoints: [join(here, 'hostileFiles.ts')], outfile: join(outdir, 'hostileFiles.js'), packages: 'external' });
  // The fake HailoRT for the trusted instance (two folders deep, so the helpers find the repo root).
  await esbuild.build({ ...common, entryPoints: [join(here, 'fakeDevice.ts')], outfile: join(outdir, 'device', 'fakeDevice.js'), packages: 'external' });
  return {
    hostSuite: join(outdir, 'suite', 'index.js'),
    uiSuite: join(outdir, 'ui', 'index.js'),
    hostileFiles: join(outdir, 'hostileFiles.js'),
    fakeDevice: join(outdir, 'device', 'fakeDevice.js'),
  };
}

/**
 * `npm run package` for this machine only → hailo-tools-<platform>.vsix (the universal package on a
 * platform without one), skipped with reuse=true when the file exists.
 */
export function packageVsix({ reuse = false } = {}) {
  const machine = `${process.platform}-${process.arch}`;
  const target = PLATFORMS.includes(machine) ? machine : UNIVERSAL;
  const vsix = join(root, packageFile(target));
  if (!reuse || !existsSync(vsix)) {
    const t = Date.now();
    const r = spawnSync('npm', ['run', '--silent', 'package', '--', '--target', target], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`npm run package failed:\n${r.stdout}\n${r.stderr}`);
    log(`packaged ${vsix.replace(`${root}/`, '')} in ${((Date.now() - t) / 1000).toFixed(1)} s (npm run package -- --target ${target})`);
  }
  return vsix;
}

/**
 * A fresh workspace: examples/, our fixtures, a HEF and an ONNX with hostile names (built now), and a real corpus HEF when ../shared is here.
 */
export async function makeWorkspace(dir, bundles) {
  mkdirSync(dir, { recursive: true });
  if (existsSync(join(root, 'examples'))) cpSync(join(root, 'examples'), dir, { recursive: true });
  cpSync(join(here, 'fixtures'), join(dir, 'e2e-fixtures'), { recursive: true });
  // The project's own ONNX and HAR fixtures (graph view, .alls → ONNX links).
  const fixtures = join(root, 'test', 'fixtures');
  for (const [from, to] of [
    ['onnx/cnn.onnx', 'onnx/cnn.onnx'],
    ['onnx/rejected.onnx', 'onnx/rejected.onnx'],
    ['har', 'har'],
    ['dfc/gpu-oom', 'dfc/gpu-oom'],
    ['dfc/parse-unsupported-shuffle', 'dfc/parse-unsupported-shuffle'],
    ['nms/custom', 'nms/custom'],
  ]) {
    if (existsSync(join(fixtures, from))) cpSync(join(fixtures, from), join(dir, 'e2e-fixtures', to), { recursive: true });
  }
  // Compile Model against the fake docker (test/fakes/docker): a model and its script, whose third
  // line has the model-script error of the DFC log fixture the compile scenarios replay.
  const compile = join(dir, 'e2e-fixtures', 'compile');
  mkdirSync(compile, { recursive: true });
  cpSync(join(root, 'examples', 'model', 'tinycnn.onnx'), join(compile, 'tinycnn.onnx'));
  cpSync(join(fixtures, 'dfc', 'model-script-syntax', 'model.alls'), join(compile, 'tinycnn.alls'));
  // A cloned repo that tries to choose the program the extension runs: machine-scoped settings
  // must ignore it (test/e2e/suite/trust.e2e.ts). The script leaves a marker if it ever runs.
  const evil = join(dir, 'e2e-fixtures', 'evil-docker.sh');
  writeFileSync(evil, '#!/bin/sh\ntouch "$(dirname "$0")/EVIL-DOCKER-RAN"\necho pwned\n');
  chmodSync(evil, 0o755);
  mkdirSync(join(dir, '.vscode'), { recursive: true });
  // A resource-scoped setting from the same file IS honoured: check every HEF inline.
  writeFileSync(
    join(dir, '.vscode', 'settings.json'),
    // hailo.model.calibrationSet names a private file: a restricted configuration (ignored in Restricted Mode; trusted, the
    // extension and the server refuse it as leading outside the folder, common/settingPaths.ts).
    JSON.stringify(
      {
        'hailo.dfc.dockerPath': evil,
        'hailo.dfc.extraRunArgs': ['--privileged'],
        'hailo.hef.inlineChecks': 'always',
        'hailo.model.calibrationSet': '/etc/passwd',
      },
      null,
      2,
    ),
  );
  // tasks.json with a `hailo` task (Tasks: Run Task → "e2e: compile tinycnn").
  writeFileSync(
    join(dir, '.vscode', 'tasks.json'),
    JSON.stringify(
      {
        version: '2.0.0',
        tasks: [
          {
            label: 'e2e: compile tinycnn',
            type: 'hailo',
            command: 'compile',
            model: 'e2e-fixtures/compile/tinycnn.onnx',
            calibration: 'random',
            problemMatcher: ['$hailo-dfc'],
          },
        ],
      },
      null,
      2,
    ),
  );
  const { writeHostileHef, writeHostileOnnx, writeRunExports, writeHostileSetupHef, HOSTILE_SETUP_HEF } = require(bundles.hostileFiles);
  mkdirSync(join(dir, 'e2e-fixtures', 'device'), { recursive: true });
  writeRunExports(join(dir, 'e2e-fixtures', 'device'));
  await writeHostileHef(join(dir, 'e2e-fixtures', 'hostile-names.hef'));
  // Check Setup (ui/checkSetup.ui.ts): a Hailo-8L HEF named like HTML, which the doctor warns about.
  mkdirSync(join(dir, 'e2e-fixtures', 'setup'), { recursive: true });
  await writeHostileSetupHef(join(dir, 'e2e-fixtures', 'setup', HOSTILE_SETUP_HEF));
  mkdirSync(join(dir, 'e2e-fixtures', 'onnx'), { recursive: true });
  writeHostileOnnx(join(dir, 'e2e-fixtures', 'onnx', 'hostile-names.onnx'));
  const shared = sharedRoot();
  const hef = shared && join(shared, 'corpus', 'hef', 'mnist_model_v_0cd51b2.hef');
  if (hef && existsSync(hef)) cpSync(hef, join(dir, 'e2e-fixtures', 'corpus', 'mnist.hef'));
  else if (requireAllParts()) throw new MissingPartError(`${hef || '../shared'} is missing, and under CI a missing real part fails the run`);
  else log("NOTE: ../shared's corpus HEF is missing; the HEF scenarios use the project's own example HEF");
  return dir;
}

/** Prints the in-host suite's JSON results and adds them to `totals`. */
export function printHostResults(results) {
  for (const r of results) {
    if (r.state === 'passed') log(`  ✔ ${r.title} (${r.durationMs ?? 0} ms)`);
    else if (r.state === 'pending') log(`  - ${r.title} (skipped)`);
    else
      log(
        `  ✖ ${r.title}\n${String(r.error)
          .split('\n')
          .map((l) => `      ${l}`)
          .join('\n')}`,
      );
    totals[r.state === 'passed' ? 'passed' : r.state === 'pending' ? 'skipped' : 'failed']++;
  }
}

/**
 * What the CLI (same analysis core, no VS Code) reports for the workspace's broken scripts: the
 * e2e suite checks that VS Code shows exactly these. Written next to the workspace; its path goes
 * to the extension host in HAILO_E2E_EXPECTED.
 */
export function writeExpectedDiagnostics(workspace, file) {
  // Every example script (broken/, good/, model/): the in-host suite compares each with VS Code.
  const files = ['broken', 'good', 'model'].map((d) => join(workspace, d)).filter((d) => existsSync(d));
  if (files.length < 3) throw new Error(`the e2e workspace lacks example folders: ${files.join(', ')}`);
  const r = spawnSync(process.execPath, [join(root, 'bin', 'hailo-tools.js'), 'check', '--json', ...files], { cwd: workspace, encoding: 'utf8' });
  let parsed = { files: [] };
  try {
    parsed = JSON.parse(r.stdout);
  } catch {
    throw new Error(`hailo-tools check --json gave no JSON (exit ${r.status}):\n${r.stdout}\n${r.stderr}`);
  }
  // The mtmd rules each top-level HEF fails, as `hailo-tools hef --json --mtmd` reports them.
  parsed.hef = {};
  for (const name of readdirSync(workspace).filter((n) => n.endsWith('.hef'))) {
    const h = spawnSync(process.execPath, [join(root, 'bin', 'hailo-tools.js'), 'hef', '--json', '--mtmd', join(workspace, name)], { encoding: 'utf8' });
    const report = JSON.parse(h.stdout);
    parsed.hef[name] = report.mtmd.rules.filter((r) => r.pass === false).map((r) => r.id);
  }
  writeFileSync(file, JSON.stringify(parsed, null, 2));
  return file;
}

/** The fake docker's state folder for one code-server instance: it starts on the success scenario. */
export function fakeDockerState(dir) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ scenario: join(root, 'test', 'fixtures', 'compile', 'scenarios', 'success.json') }, null, 1));
  return dir;
}

export const FAKE_DOCKER = join(root, 'test', 'fakes', 'docker', 'docker');
