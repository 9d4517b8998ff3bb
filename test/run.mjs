// Test runner: bundles every test/**/*.test.ts with esbuild into out/test-<pid>/, then runs them
// with node's built-in test runner. Usage: node test/run.mjs [filter-substring ...]
import * as esbuild from 'esbuild';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);

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
// One folder per run: several runs (editors, CI, parallel sessions) must not delete each other's bundles.
const outdir = join(root, 'out', `test-${process.pid}`);
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
  logLevel: 'warning',
});
const files = entries.map((f) => join(outdir, relative(join(root, 'test'), f)).replace(/\.ts$/, '.js'));
const r = spawnSync(process.execPath, ['--enable-source-maps', '--test', '--test-reporter=spec', ...files], {
  stdio: 'inherit',
  cwd: root,
});
process.exit(r.status ?? 1);
