// Runs a few lines of TypeScript that import the test helpers (the corpus scorer, the logger-shape
// generator) as the test runner would: bundled with esbuild two folders below out/, so the helpers'
// repoRoot (three levels above the bundle) is the repository; the bundle is removed afterwards.
import * as esbuild from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;

/** Bundles `entry` (TypeScript, resolved from the repository) as `name` and runs it with `args`; returns its exit status. */
export async function runTsEntry(name, entry, args) {
  mkdirSync(join(root, 'out'), { recursive: true });
  const out = mkdtempSync(join(root, 'out', `${name}-`));
  try {
    const outfile = join(out, name, `${name}.js`);
    await esbuild.build({
      stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: `${name}.ts` },
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      packages: 'external',
      logLevel: 'warning',
    });
    return spawnSync(process.execPath, [outfile, ...args], { stdio: 'inherit', cwd: root }).status ?? 1;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * A tree's DFC log reader (`server/src/core/dfc/index.ts` of a checkout, e.g. a worktree of an older commit), bundled
 * into `outDir` as `name.cjs` and loaded: how the reader-diff and reader-costs scripts compare or time two readers.
 */
export async function loadTreeReader(tree, outDir, name) {
  const file = join(outDir, `${name}.cjs`);
  await esbuild.build({
    entryPoints: [join(tree, 'server/src/core/dfc/index.ts')],
    outfile: file,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    logLevel: 'warning',
  });
  return createRequire(import.meta.url)(file);
}

/**
 * The seeded runners' arguments (`--seeds FIRST[..LAST]`, `--per-log K`, flags): the seeds and per-log count checked,
 * an option's value, whether a flag is given. Exits with the usage line on a malformed seed range or count.
 */
export function seedArgs(argv, perLogDefault, usage) {
  const opt = (name, dflt) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : dflt;
  };
  const m = /^(\d+)(?:\.\.(\d+))?$/.exec(opt('--seeds', '1'));
  const perLog = opt('--per-log', perLogDefault);
  if (!m || !/^\d+$/.test(perLog)) {
    console.error(`usage: ${usage}`);
    process.exit(2);
  }
  return { first: m[1], last: m[2] ?? m[1], perLog, opt, flag: (name) => argv.includes(name) };
}
