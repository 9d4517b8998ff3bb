// Last step of `npm start`: opens the PACKAGED extension in a browser VS Code (code-server) on
// examples/, so a newcomer sees it working. Packages this machine's hailo-tools-<platform>.vsix, installs it into a
// code-server instance under the cache, starts code-server on 127.0.0.1 and prints the URL.
//   - code-server not set up yet → sets it up first (setup.mjs, about a minute, once), as
//     `npm test` does on its first run, so `npm install && npm start` is all a newcomer types
//   - interactive terminal → keeps serving until Ctrl+C
//   - not a terminal (CI, pipes) or --check → proves the page is served, stops, exits
// Usage: node test/e2e/open.mjs [--check] [--port N]    (env HAILO_START_PORT; default 8080)
import { existsSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { installExtension, instanceDirs, startCodeServer, writeUserSettings } from './codeServer.mjs';
import { packageVsix, root } from './build.mjs';
import { cacheRoot, ensureCodeServer, isInstalled, CODE_SERVER_VERSION } from './setup.mjs';

const argv = process.argv.slice(2);
const log = (s) => process.stdout.write(`${s}\n`);

function fetchStatus(url) {
  return new Promise((resolve) => {
    get(url, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', () => resolve(0));
  });
}

async function startOn(port, options) {
  try {
    return await startCodeServer({ ...options, port });
  } catch (err) {
    // Port taken: take any free one rather than fail a newcomer's first run.
    if (port !== 0 && /EADDRINUSE/.test(String(err))) return startCodeServer({ ...options, port: 0 });
    throw err;
  }
}

/**
 * The first-run rule: set code-server up when the cache lacks it, then open. The steps are
 * parameters so a unit test can check the order without the network (test/unit/repo/start-first-run).
 */
export async function start({ installed = isInstalled, setup = ensureCodeServer, open = openBrowserVsCode, say = log } = {}) {
  say('');
  if (!installed()) {
    say(`First run: setting up code-server ${CODE_SERVER_VERSION} in ${cacheRoot.replace(`${root}/`, '')} (about a minute, once, from the npm registry)…`);
    try {
      setup();
    } catch (err) {
      throw new Error(`setting up code-server failed: ${err?.message ?? err}. Fix that, then run \`npm start\` again (or \`node test/e2e/setup.mjs\` alone).`);
    }
  }
  return open();
}

async function openBrowserVsCode() {
  const vsix = packageVsix();
  const dirs = instanceDirs(join(cacheRoot, 'start'));
  writeUserSettings(dirs, { 'workbench.startupEditor': 'none' });
  installExtension(dirs, vsix);
  const workspace = join(root, 'examples');
  if (!existsSync(workspace)) throw new Error(`${workspace} is missing`);
  const portArg = argv.includes('--port') ? Number(argv[argv.indexOf('--port') + 1]) : Number(process.env.HAILO_START_PORT || 8080);
  const server = await startOn(portArg, { dirs, workspace, trust: true });
  // A plain folder path reads better than the vscode-remote URI, and code-server accepts both.
  const url = `${server.url}/?folder=${encodeURI(workspace)}`;
  const interactive = process.stdout.isTTY && !argv.includes('--check') && !process.env.CI;
  if (!interactive) {
    const status = await fetchStatus(url);
    await server.stop();
    log(`Browser VS Code with ${vsix.replace(`${root}/`, '')}: served ${url} → HTTP ${status}; stopped (not a terminal).`);
    log('Run `npm start` in a terminal to keep it open.');
    return status === 200 ? 0 : 1;
  }
  log(`Hailo Tools (packaged ${vsix.replace(`${root}/`, '')}) in a browser VS Code on examples/:`);
  log(`    ${url}`);
  log('Open that address in a browser. Press Ctrl+C to stop.');
  await new Promise((resolve) => server.child.once('exit', resolve));
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  start().then(
    (code) => process.exit(code),
    (err) => {
      console.error(`npm start: ${err?.message ?? err}`);
      process.exit(1);
    },
  );
}
