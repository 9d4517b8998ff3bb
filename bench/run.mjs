// `npm run bench`: bundles and runs every bench/*.bench.ts in its own process, collects the
// figures each one reports, and prints one table (figure, target, measured, ratio).
// A bench reports a figure by printing a line: `##figure {"figure":"…","target":"…","measured":"…","ratio":1.23,"ok":true}`
// (use bench/report.ts). Exits non-zero when a script fails or a figure misses its target.
// Usage: node bench/run.mjs [filter ...]
import * as esbuild from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);
const entries = readdirSync(join(root, 'bench'))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .map((f) => join(root, 'bench', f));
if (entries.length === 0) {
  console.error('no bench files matched');
  process.exit(1);
}
// One folder per run: several runs (editors, CI, parallel sessions) must not delete each other's bundles.
const outdir = join(root, 'out', `bench-${process.pid}`);
process.on('exit', () => rmSync(outdir, { recursive: true, force: true }));
rmSync(outdir, { recursive: true, force: true });
await esbuild.build({
  entryPoints: entries,
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  packages: 'external',
  logLevel: 'warning',
});

const rows = [];
let failures = 0;
for (const entry of entries) {
  const name = entry.split('/').pop().replace(/\.ts$/, '.js');
  process.stderr.write(`bench: running ${name}\n`);
  const r = spawnSync(process.execPath, ['--expose-gc', join(outdir, name)], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.stderr) process.stderr.write(r.stderr);
  for (const line of (r.stdout ?? '').split('\n')) {
    if (line.startsWith('##figure ')) rows.push({ bench: name, ...JSON.parse(line.slice(9)) });
    else if (line.trim()) process.stderr.write(`  ${line}\n`);
  }
  if (r.status !== 0) {
    failures++;
    process.stderr.write(`bench: ${name} exited ${r.status}\n`);
  }
}

const header = ['figure', 'target', 'measured', 'ratio', 'ok'];
const table = rows.map((r) => [r.figure, r.target, r.measured, r.ratio === undefined ? '' : Number(r.ratio).toFixed(2), r.ok ? 'yes' : 'NO']);
console.log(`| ${header.join(' | ')} |`);
console.log(`|${header.map(() => '---').join('|')}|`);
for (const row of table) console.log(`| ${row.join(' | ')} |`);
const missed = rows.filter((r) => !r.ok).length;
console.log(`\n${rows.length - missed} figures met target, ${missed} missed; ${failures} bench scripts failed`);
// A missed target is a failed run (the table is still printed whole first).
process.exit(failures || missed ? 1 : 0);
