// One esbuild entry per target (client extension, language server, CLI, workers).
// Usage: node esbuild.mjs [--watch] [--production]
import * as esbuild from 'esbuild';

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
};

export const targets = [
  // The VS Code extension host side; `vscode` is provided by the host.
  { ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] },
  // The language server (spawned by the client over IPC, or by tests over stdio).
  { ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' },
  // The command-line tool (bin/hailo-tools.js loads it).
  { ...common, entryPoints: ['server/src/cli/main.ts'], outfile: 'dist/cli.js' },
  // The float reference's worker: loads onnxruntime-node (from a folder named at run time) in its own process.
  { ...common, entryPoints: ['server/src/accuracy/ortWorker.ts'], outfile: 'dist/ortWorker.js' },
  // The device results webview's script with its chart library (uPlot) and uPlot's stylesheet
  // (→ dist/webview/deviceResults.css): loaded from the extension by nonce, never from a CDN.
  { ...common, platform: 'browser', format: 'iife', target: 'chrome114', entryPoints: ['client/webview/deviceResults.ts'], outfile: 'dist/webview/deviceResults.js' },
];

async function main() {
  if (watch) {
    const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('esbuild: watching', targets.map((t) => t.outfile).join(', '));
    return;
  }
  await Promise.all(targets.map((t) => esbuild.build(t)));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
