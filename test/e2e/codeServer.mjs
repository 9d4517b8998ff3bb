// Starting code-server and a headless Chromium for the e2e driver and for `npm start`.
// Every process is spawned with an argument array; nothing goes through a shell.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codeServerEntry } from './setup.mjs';

export const CHROMIUM = process.env.HAILO_E2E_CHROMIUM || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

// code-server processes still running; killed if the driver exits early (Ctrl+C, a crash).
const live = new Set();
function killLive() {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
}
process.once('exit', killLive);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.once(signal, () => {
    killLive();
    process.exit(130);
  });
}

/**
 * Folders for one code-server instance under `root`: user data, extensions, and XDG config/data
 * (code-server writes config.yaml and its state there instead of ~/.config and ~/.local/share).
 */
export function instanceDirs(root) {
  const dirs = {
    userData: join(root, 'user-data'),
    extensions: join(root, 'extensions'),
    xdgConfig: join(root, 'xdg-config'),
    xdgData: join(root, 'xdg-data'),
  };
  for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
  return dirs;
}

/** User settings of the instance: quiet start (no welcome page, tips, update checks, gallery). */
export function writeUserSettings(dirs, extra = {}) {
  const settings = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'workbench.enableExperiments': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'extensions.ignoreRecommendations': true,
    'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.banner': 'always',
    'window.dialogStyle': 'custom',
    ...extra,
  };
  const dir = join(dirs.userData, 'User');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings, null, 2));
}

function instanceEnv(dirs, extraEnv = {}) {
  return { ...process.env, XDG_CONFIG_HOME: dirs.xdgConfig, XDG_DATA_HOME: dirs.xdgData, ...extraEnv };
}

/** `code-server --install-extension <vsix>` into the instance's extensions dir; returns its folder. */
export function installExtension(dirs, vsix) {
  const r = spawnSync(
    process.execPath,
    [codeServerEntry, '--user-data-dir', dirs.userData, '--extensions-dir', dirs.extensions, '--install-extension', vsix, '--force'],
    { env: instanceEnv(dirs), encoding: 'utf8' },
  );
  if (r.status !== 0) throw new Error(`code-server --install-extension failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  const folder = readdirSync(dirs.extensions).find((n) => n.startsWith('hailo-tools.hailo-tools-'));
  if (!folder) throw new Error(`the .vsix did not install into ${dirs.extensions}:\n${r.stdout}\n${r.stderr}`);
  return join(dirs.extensions, folder);
}

/**
 * Starts code-server on 127.0.0.1 (a free port unless `port` is given) on `workspace`.
 * Resolves once it listens: { url, port, remote(path) → vscode-remote URI, stop(), output() }.
 */
/** Attempts at starting code-server when its own start-up handshake times out (see startCodeServer). */
const CODE_SERVER_STARTS = 3;

export async function startCodeServer({ dirs, workspace, port = 0, trust = true, env = {}, settleTimeoutMs = 60_000 }) {
  const args = [
    codeServerEntry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--user-data-dir',
    dirs.userData,
    '--extensions-dir',
    dirs.extensions,
    '--config',
    join(dirs.xdgConfig, 'config.yaml'),
  ];
  // Untrusted runs keep workspace trust on; with the user setting
  // security.workspace.trust.startupPrompt = never (writeUserSettings) the folder opens in Restricted Mode.
  if (trust) args.push('--disable-workspace-trust');
  args.push(workspace);
  let child;
  let output = '';
  const launch = () => {
    child = spawn(process.execPath, args, { env: instanceEnv(dirs, env), stdio: ['ignore', 'pipe', 'pipe'] });
    live.add(child);
    const started = child;
    started.once('exit', () => live.delete(started));
    output = '';
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`code-server did not listen within ${settleTimeoutMs} ms:\n${output}`)), settleTimeoutMs);
      const onData = (chunk) => {
        output += chunk;
        const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:(\d+))\//.exec(output);
        if (m) {
          clearTimeout(timer);
          resolve({ url: m[1], port: Number(m[2]) });
        }
      };
      started.stdout.on('data', onData);
      started.stderr.on('data', onData);
      started.on('exit', (code) => {
        clearTimeout(timer);
        const error = new Error(`code-server exited (${code}) before listening:\n${output}`);
        // code-server's wrapper gives the server process it forks 10 s to say hello (wrapper.js
        // timeoutInterval, "matches VS Code's timeouts") and exits with "timed out" when a loaded
        // machine takes longer to load it. Nothing was started: starting again is safe.
        error.handshakeTimedOut = code === 1 && /\berror timed out\b/.test(output);
        reject(error);
      });
    });
  };
  let listening;
  for (let attempt = 1; ; attempt++) {
    try {
      listening = await launch();
      break;
    } catch (err) {
      if (!err.handshakeTimedOut || attempt === CODE_SERVER_STARTS) throw err;
      process.stdout.write(
        `NOTE: code-server's server process missed its 10 s start-up handshake (a loaded machine); starting it again (${attempt + 1} of ${CODE_SERVER_STARTS})\n`,
      );
    }
  }
  const { url, port: actualPort } = listening;
  const authority = `127.0.0.1:${actualPort}`;
  return {
    url,
    port: actualPort,
    child,
    remote: (p) => `vscode-remote://${authority}${p}`,
    /** Page URL that opens `folder` (and optionally runs an extension test module). */
    pageUrl({ folder, payload } = {}) {
      const q = new URLSearchParams();
      q.set('folder', `vscode-remote://${authority}${folder ?? workspace}`);
      if (payload) q.set('payload', JSON.stringify(payload));
      return `${url}/?${q.toString()}`;
    },
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(t);
    },
  };
}

export function haveChromium() {
  return existsSync(CHROMIUM);
}

/** Headless Debian Chromium through playwright-core (no browser download). */
export async function launchChromium() {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
