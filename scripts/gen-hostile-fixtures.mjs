// Regenerates test/fixtures/fuzz/ (issue 14's small crash reproducers) from
// test/fixtures/fuzz/generate.ts. Usage: node scripts/gen-hostile-fixtures.mjs
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
// inside the repository, so that packages resolve from node_modules
mkdirSync(join(root, 'out'), { recursive: true });
const out = mkdtempSync(join(root, 'out', 'gen-hostile-'));
try {
  await esbuild.build({
    entryPoints: [join(root, 'test/fixtures/fuzz/generate.ts')],
    outfile: join(out, 'generate.js'),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    packages: 'external',
    logLevel: 'warning',
  });
  const r = spawnSync(process.execPath, [join(out, 'generate.js'), join(root, 'test/fixtures/fuzz')], { stdio: 'inherit', cwd: root });
  process.exitCode = r.status ?? 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
