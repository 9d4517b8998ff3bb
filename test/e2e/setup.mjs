// Installs code-server (a real VS Code 1.100 server + web client with a Node extension host) into
// a cache folder outside the project's node_modules, fully offline apart from the npm registry.
// The recipe (../shared/docs/vscode-e2e.md §5.1): code-server's own postinstall downloads ripgrep
// from GitHub, so we install with --ignore-scripts and redo its steps by hand, using Debian's rg.
// Idempotent: a marker file records a finished install; a second run returns in milliseconds.
// Usage: node test/e2e/setup.mjs [--force]     (env HAILO_E2E_CACHE overrides the cache folder)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.100.3';
const here = dirname(fileURLToPath(import.meta.url));
export const cacheRoot = process.env.HAILO_E2E_CACHE || join(here, '.cache');
export const installDir = join(cacheRoot, `code-server-${CODE_SERVER_VERSION}`);
export const codeServerRoot = join(installDir, 'node_modules', 'code-server');
export const codeServerEntry = join(codeServerRoot, 'out', 'node', 'entry.js');
const marker = join(installDir, '.complete');

/** Tools the recipe needs from the OS; returns the names that are missing. */
export function missingTools() {
  const need = { rg: '/usr/bin/rg', chromium: '/usr/bin/chromium' };
  return Object.entries(need)
    .filter(([, p]) => !existsSync(p))
    .map(([name]) => name);
}

export function isInstalled() {
  return existsSync(marker) && readFileSync(marker, 'utf8').trim() === CODE_SERVER_VERSION;
}

function run(cmd, args, cwd, extraEnv = {}) {
  const t = Date.now();
  process.stderr.write(`e2e-setup: ${cmd} ${args.join(' ')}  (in ${cwd})\n`);
  const r = spawnSync(cmd, args, {
    cwd,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, npm_config_yes: 'true', npm_config_fund: 'false', npm_config_audit: 'false', npm_config_update_notifier: 'false', ...extraEnv },
  });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal}) in ${cwd}`);
  process.stderr.write(`e2e-setup:   done in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
}

function link(target, path) {
  try {
    lstatSync(path);
    rmSync(path, { force: true, recursive: true });
  } catch {
    // absent: nothing to replace
  }
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
}

/** Installs code-server unless the cache already holds a finished install. Returns the entry path. */
export function ensureCodeServer({ force = false } = {}) {
  if (!force && isInstalled()) return codeServerEntry;
  const missing = missingTools();
  if (missing.includes('rg')) throw new Error('ripgrep is missing: apt-get install ripgrep (code-server needs /usr/bin/rg)');
  const t0 = Date.now();
  rmSync(installDir, { recursive: true, force: true });
  mkdirSync(installDir, { recursive: true });
  // A package.json of its own, so npm installs here and never touches the project's tree.
  writeFileSync(join(installDir, 'package.json'), JSON.stringify({ name: 'hailo-e2e-code-server', private: true }, null, 2));
  const npm = 'npm';
  // 1. The package without its postinstall (which would download ripgrep).
  run(npm, ['install', '--no-save', '--ignore-scripts', '--no-package-lock', `code-server@${CODE_SERVER_VERSION}`], installDir);
  // 2. VS Code's own production dependencies, then the native modules against this Node.
  const vscodeDir = join(codeServerRoot, 'lib', 'vscode');
  run(npm, ['install', '--omit=dev', '--ignore-scripts'], vscodeDir);
  // (kerberos is left out: it needs libkrb5-dev and VS Code loads it only for proxy auth.)
  run(npm, ['rebuild', '@vscode/spdlog', 'node-pty', 'native-watchdog', '@vscode/deviceid'], vscodeDir, {
    npm_config_unsafe_perm: 'true',
  });
  if (!existsSync(join(vscodeDir, 'node_modules', 'node-pty', 'build', 'Release', 'pty.node'))) {
    throw new Error('node-pty did not build (needs python3, make, g++)');
  }
  // 3. Debian's ripgrep in place of the download, and the links postinstall.sh would make.
  link('/usr/bin/rg', join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin', 'rg'));
  link('node_modules', join(vscodeDir, 'node_modules.asar'));
  link('code-linux.sh', join(vscodeDir, 'bin', 'remote-cli', 'code-server'));
  link('browser-linux.sh', join(vscodeDir, 'bin', 'helpers', 'browser.sh'));
  run(npm, ['install', '--omit=dev', '--ignore-scripts'], join(vscodeDir, 'extensions'));
  // 4. argon2 (password hashing; loaded even with --auth none) from source.
  run(npm, ['rebuild', 'argon2'], installDir, { npm_config_build_from_source: 'true' });
  writeFileSync(marker, `${CODE_SERVER_VERSION}\n`);
  process.stderr.write(`e2e-setup: code-server ${CODE_SERVER_VERSION} ready in ${((Date.now() - t0) / 1000).toFixed(0)} s at ${codeServerRoot}\n`);
  return codeServerEntry;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    const entry = ensureCodeServer({ force: process.argv.includes('--force') });
    console.log(`code-server ${CODE_SERVER_VERSION}: ${entry}`);
  } catch (err) {
    console.error(`e2e-setup: ${err.message}`);
    process.exit(1);
  }
}
