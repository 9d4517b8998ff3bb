// Test runner: builds the product first (dist/ — the LSP and CLI tests run the bundles, which
// must never be stale), bundles every test/**/*.test.ts with esbuild into out/test-<pid>/, runs
// them with node's built-in test runner, then (whole runs) prints coverage of server/src and client/src (c8
// over V8's own coverage, mapped back to the TypeScript sources; it counts the bundled server and
// CLI processes the tests start, too).
// Usage: node test/run.mjs [--no-build] [--coverage | --no-coverage] [filter-substring ...]
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const argv = process.argv.slice(2);
const flags = new Set(argv.filter((a) => a.startsWith('--')));
const filters = argv.filter((a) => !a.startsWith('--'));

function walk(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (name === 'fixtures' || name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const entries = walk(join(root, 'test')).filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (entries.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}

if (!flags.has('--no-build')) {
  const build = spawnSync(process.execPath, [join(root, 'esbuild.mjs')], { stdio: 'inherit', cwd: root });
  if (build.status !== 0) {
    console.error('test: the build failed; nothing was tested');
    process.exit(1);
  }
}

// One folder per run: several runs (editors, CI, parallel sessions) must not delete each other's bundles.
const outdir = join(root, 'out', `test-${process.pid}`);
const coverageDir = join(outdir, 'v8-coverage');
process.on('exit', () => rmSync(outdir, { recursive: true, force: true }));
rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: entries,
  outdir,
  outbase: join(root, 'test'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'inline',
  packages: 'external',
  // keep unused functions in the test bundles, so coverage counts them as not run (not as absent)
  treeShaking: false,
  logLevel: 'warning',
});
const files = entries.map((f) => join(outdir, relative(join(root, 'test'), f)).replace(/\.ts$/, '.js'));
// Coverage for whole runs (npm test); a focused run (a filter) skips it unless asked: collecting
// it makes the tests about twice as slow.
const coverage = flags.has('--coverage') || (filters.length === 0 && !flags.has('--no-coverage'));
if (coverage) mkdirSync(coverageDir, { recursive: true });
const r = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  cwd: root,
  env: coverage ? { ...process.env, NODE_V8_COVERAGE: coverageDir } : process.env,
});
if (coverage) printCoverage();
process.exit(r.status ?? 1);

/** c8's summary of server/src and client/src, one line per folder, then the totals. */
function printCoverage() {
  const c8 = join(root, 'node_modules', 'c8', 'bin', 'c8.js');
  if (!existsSync(c8)) {
    console.log('coverage: c8 is not installed (npm install)');
    return;
  }
  const reportDir = join(outdir, 'coverage');
  const rep = spawnSync(
    process.execPath,
    [
      c8,
      'report',
      `--temp-directory=${coverageDir}`,
      `--report-dir=${reportDir}`,
      '--reporter=json-summary',
      // every source file counts, loaded or not; exclusions apply to the TypeScript paths
      '--all',
      '--src=server/src',
      '--src=client/src',
      '--extension=.ts',
      '--exclude-after-remap',
      ...['node_modules/**', 'test/**', 'bench/**', 'out/**', 'scripts/**', '**/*.d.ts'].map((g) => `--exclude=${g}`),
    ],
    { cwd: root, encoding: 'utf8' },
  );
  const summaryFile = join(reportDir, 'coverage-summary.json');
  if (rep.status !== 0 || !existsSync(summaryFile)) {
    console.log(`coverage: c8 report failed: ${rep.stderr || rep.stdout}`);
    return;
  }
  const summary = JSON.parse(readFileSync(summaryFile, 'utf8'));
  const folders = new Map();
  for (const [file, s] of Object.entries(summary)) {
    if (file === 'total') continue;
    const rel = relative(root, file).split('\\').join('/');
    const folder = rel
      .split('/')
      .slice(0, rel.startsWith('server/src/') || rel.startsWith('client/src/') ? 3 : 2)
      .join('/');
    const key = /\.(ts|js)$/.test(folder) ? folder.replace(/\/[^/]+$/, '') : folder;
    const f = folders.get(key) ?? { lines: 0, covered: 0, branches: 0, branchesCovered: 0, files: 0 };
    f.lines += s.lines.total;
    f.covered += s.lines.covered;
    f.branches += s.branches.total;
    f.branchesCovered += s.branches.covered;
    f.files++;
    folders.set(key, f);
  }
  const pct = (a, b) => (b ? ((100 * a) / b).toFixed(1) : '—').padStart(6);
  console.log('\ncoverage (lines % · branches % · files), from this run:');
  for (const [name, f] of [...folders].sort())
    console.log(`  ${name.padEnd(26)} ${pct(f.covered, f.lines)} ${pct(f.branchesCovered, f.branches)} ${String(f.files).padStart(4)}`);
  const t = summary.total;
  console.log(`coverage: ${t.lines.pct}% of lines, ${t.branches.pct}% of branches, ${t.functions.pct}% of functions in server/src and client/src`);
}
