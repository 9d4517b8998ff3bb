// Last step of `npm start`: opens the PACKAGED extension in a browser VS Code (code-server) on
// examples/, so a newcomer sees it working. Packages this machine's hailo-tools-<platform>.vsix, installs it into a
// code-server instance under the cache, starts code-server on 127.0.0.1 and prints the URL.
//   - code-server not set up yet → prints the one command that sets it up, and exits 0
//   - interactive terminal → keeps serving until Ctrl+C
//   - not a terminal (CI, pipes) or --check → proves the page is served, stops, exits
// Usage: node test/e2e/open.mjs [--check] [--port N]    (env HAILO_START_PORT; default 8080)
import { existsSync } from 'node:fs';
import { get } from 'node:http';
import { join } from 'node:path';
import { installExtension, instanceDirs, startCodeServer, writeUserSettings } from './codeServer.mjs';
import { packageVsix, root } from './build.mjs';
import { cacheRoot, isInstalled, CODE_SERVER_VERSION } from './setup.mjs';

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

async function main() {
  log('');
  if (!isInstalled()) {
    log(`To open the extension in a browser VS Code on examples/, set up code-server ${CODE_SERVER_VERSION} once (about a minute, from the npm registry):`);
    log('    node test/e2e/setup.mjs && npm start');
    log('(npm test does the same set-up on its first run.)');
    return 0;
  }
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

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`npm start: ${err?.message ?? err}`);
    process.exit(1);
  },
);
