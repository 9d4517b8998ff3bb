// One esbuild entry per target (client extension, language server, CLI, workers).
// Usage: node esbuild.mjs [--watch] [--production]
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: production ? false : 'linked',
  minify: production,
  logLevel: 'warning',
  // Microsoft's JSON packages ship UMD builds whose lazy require('./impl/…') esbuild cannot follow:
  // bundle their ES modules instead. hash-wasm's `main` is one UMD file with every algorithm's wasm
  // (268 KB of a `hailo-tools hef` bundle to compile at each start); its ES build tree-shakes to the
  // three we use (issue 25).
  alias: {
    'jsonc-parser': 'jsonc-parser/lib/esm/main.js',
    'vscode-json-languageservice': 'vscode-json-languageservice/lib/esm/jsonLanguageService.js',
    'hash-wasm': 'hash-wasm/dist/index.esm.js',
  },
};

export const targets = [
  // The VS Code extension host side; `vscode` is provided by the host.
  { ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] },
  // The language server (spawned by the client over IPC, or by tests over stdio).
  { ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' },
  // The command-line tool: dist/cli.js (bin/hailo-tools.js loads it) holds only the dispatcher; each
  // sub-command is its own self-contained bundle dist/cli-<module>.js, required when it runs, so a
  // small command loads only what it uses (issue 25: start-up within 1.5x of bare node).
  cliTarget(),
  // The float reference's worker: loads onnxruntime-node (from a folder named at run time) in its own process.
  { ...common, entryPoints: ['server/src/processes/accuracy/ortWorker.ts'], outfile: 'dist/ortWorker.js' },
  // Every webview page's script, one entry per file in client/src/webview/pages/ (→ dist/webview/<page>.js,
  // and <page>.css where the script imports uPlot's stylesheet): loaded by nonce, never inline or from a CDN.
  { ...common, platform: 'browser', format: 'iife', target: 'chrome114', entryPoints: webviewPages(), outdir: 'dist/webview' },
  // The device worker (forked by DeviceClient): loads the native HailoRT shim with koffi. koffi's
  // .node cannot be bundled: it is required from dist/koffi/ (copied below, with the platform
  // package's prebuilt binary), so the .vsix carries it.
  {
    ...common,
    entryPoints: ['server/src/processes/device/worker/main.ts'],
    outfile: 'dist/deviceWorker.js',
    plugins: [
      {
        name: 'koffi-beside-bundle',
        setup(build) {
          build.onResolve({ filter: /^koffi$/ }, () => ({ path: './koffi/index.cjs', external: true }));
        },
      },
    ],
  },
];

/** The page scripts: each .ts directly in client/src/webview/pages/ (lib/ holds what they share). */
export function webviewPages(root = '.') {
  const dir = join(root, 'client', 'src', 'webview', 'pages');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.ts'))
    .map((f) => join(dir, f));
}

/**
 * The sub-command modules main.ts loads lazily (`import('./check')` …), read from its source so a
 * new command needs no edit here. Each becomes an entry dist/cli-<module>.js, and the plugin makes
 * main.ts's import of it a require of that file (kept external) instead of inlining it.
 */
export function cliCommandModules(root = '.') {
  const main = readFileSync(join(root, 'server', 'src', 'cli', 'main.ts'), 'utf8');
  return [...new Set([...main.matchAll(/\bimport\(\s*'\.\/([\w-]+)'\s*\)/g)].map((m) => m[1]))];
}

function cliTarget() {
  const modules = cliCommandModules();
  const entryPoints = { cli: 'server/src/cli/main.ts' };
  for (const m of modules) entryPoints[`cli-${m}`] = `server/src/cli/${m}.ts`;
  return {
    ...common,
    entryPoints,
    outdir: 'dist',
    // import() of a sub-command becomes require(): CommonJS loading, without starting Node's ESM loader.
    supported: { 'dynamic-import': false },
    plugins: [
      {
        name: 'cli-commands-apart',
        setup(build) {
          build.onResolve({ filter: /^\.\/[\w-]+$/ }, (args) => {
            if (args.kind !== 'dynamic-import' || !args.importer.endsWith(join('server', 'src', 'cli', 'main.ts'))) return undefined;
            const name = args.path.slice(2);
            if (!modules.includes(name)) return { errors: [{ text: `cli: ${args.path} is not a sub-command module esbuild.mjs found in main.ts` }] };
            return { path: name, namespace: 'cli-command' };
          });
          // The import becomes a load of dist/cli-<name>.js through V8's code cache (compileCache.ts),
          // with the plain require of that file (kept external) where no cache can be kept.
          build.onLoad({ filter: /.*/, namespace: 'cli-command' }, (args) => ({
            contents: `module.exports = require('./compileCache').loadCommandBundle(require('path').join(__dirname, 'cli-${args.path}.js'), () => require('./cli-${args.path}.js'));`,
            resolveDir: fileURLToPath(new URL('./server/src/cli', import.meta.url)),
            loader: 'js',
          }));
          build.onResolve({ filter: /^\.\/cli-[\w-]+\.js$/ }, (args) => (args.namespace === 'cli-command' ? { path: args.path, external: true } : undefined));
        },
      },
    ],
  };
}

/** koffi's loader + the installed platform binaries → dist/koffi, dist/@koromix; the shim source → dist/native. */
export function copyNativeAssets(root = '.') {
  const copy = (from, to) => {
    mkdirSync(dirname(to), { recursive: true });
    copyFileSync(from, to);
  };
  const koffi = join(root, 'node_modules', 'koffi');
  for (const f of ['index.cjs', 'src/koffi/index.cjs', 'src/koffi/src/static.cjs', 'LICENSE.txt']) copy(join(koffi, f), join(root, 'dist', 'koffi', f));
  const scope = join(root, 'node_modules', '@koromix');
  const walk = (dir, rel) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p, join(rel, name));
      else copy(p, join(root, 'dist', '@koromix', rel, name));
    }
  };
  if (existsSync(scope)) for (const pkg of readdirSync(scope).filter((n) => n.startsWith('koffi-'))) walk(join(scope, pkg), pkg);
  for (const f of readdirSync(join(root, 'native')).filter((n) => /\.(cpp|h|hpp)$/.test(n))) copy(join(root, 'native', f), join(root, 'dist', 'native', f));
}

async function main() {
  if (watch) {
    const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
    await Promise.all(contexts.map((c) => c.watch()));
    copyNativeAssets();
    console.log('esbuild: watching', targets.map((t) => t.outfile ?? t.outdir).join(', '));
    return;
  }
  await Promise.all(targets.map((t) => esbuild.build(t)));
  copyNativeAssets();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
