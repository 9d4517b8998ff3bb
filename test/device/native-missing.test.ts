// Issue 37: what a machine lacks to run native code at all is one sentence. A package of another
// platform (koffi's binary for this platform absent) names the package to install — said by the
// client before anything is compiled, and by the worker itself when it runs under a launcher; a
// machine without a C++ compiler (Raspberry Pi OS Lite) gets the command that installs one.
// The expected package names come from VS Code's target names (`vsce package --target`), the
// expected command from Debian (the g++ package provides c++ through update-alternatives).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DeviceClient, DeviceRequestError } from '../../server/src/processes/device/client';
import { nativeBindingProblem } from '../../server/src/processes/device/nativeBinding';
import { commandLineTrust } from '../../server/src/core/common/trust';
import { fakeHailortPrefix, fakeShim, tempDir } from '../fakes/fakeHailort';
import { repoRoot } from '../helpers/shared';

const DIST = join(repoRoot, 'dist');
const here = `${process.platform}-${process.arch}`;
/** A platform we package that is not this one (the package a user of this machine must not get). */
const other = here === 'linux-arm64' ? 'linux-x64' : 'linux-arm64';
let dir: string;
const clients: DeviceClient[] = [];

/** dist/ as a package carries it: the bundles, koffi's loader, and koffi's binary of `carried` only. */
function packageTree(name: string, carried: string[]): string {
  const dist = join(dir, name, 'dist');
  mkdirSync(dist, { recursive: true });
  for (const f of readdirSync(DIST).filter((n) => n.endsWith('.js'))) cpSync(join(DIST, f), join(dist, f));
  cpSync(join(DIST, 'koffi'), join(dist, 'koffi'), { recursive: true });
  for (const key of carried) {
    const triplet = join(dist, '@koromix', `koffi-${key}`, key.replace('-', '_'));
    mkdirSync(triplet, { recursive: true });
    // Another platform's binary cannot be loaded here anyway: its presence is what is checked.
    writeFileSync(join(triplet, 'koffi.node'), 'not for this machine');
  }
  return dist;
}

function client(dist: string, env: Record<string, string | undefined> = {}, hailortRoot?: string) {
  const c = new DeviceClient({ trust: commandLineTrust('test'), workerPath: join(dist, 'deviceWorker.js'), hailortRoot, env });
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof DeviceRequestError, `expected a DeviceRequestError, got ${String(err)}`);
    return err.error;
  }
  assert.fail('expected the request to fail');
}

before(() => {
  assert.ok(existsSync(join(DIST, 'deviceWorker.js')), 'dist/deviceWorker.js is missing: run `npm run build` first');
  dir = tempDir('native-missing');
});
after(() => {
  for (const c of clients) c.dispose();
  rmSync(dir, { recursive: true, force: true });
});

test(`another platform's package: the client says which platform it was built for and which package to install, before compiling anything`, async () => {
  const dist = packageTree('other', [other]);
  // No HailoRT where it points: were the package not checked first, this would be the answer.
  const e = await failure(client(dist, {}, join(dir, 'no-hailort')).scan());
  assert.equal(e.kind, 'native-missing', e.sentence);
  assert.match(e.sentence, new RegExp(`was built for ${other}`));
  assert.match(e.sentence, new RegExp(`on ${here}: install hailo-tools-${here}\\.vsix`));
  assert.doesNotMatch(e.sentence, /Node\.js v\d/);
});

test('the universal package (no native code): the same sentence says so', async () => {
  const e = await failure(client(packageTree('universal', []), {}, join(dir, 'no-hailort')).scan());
  assert.equal(e.kind, 'native-missing');
  assert.match(e.sentence, /This hailo-tools package carries no native code \(as the universal package\), so the device worker cannot load its native code on/);
  assert.match(e.sentence, new RegExp(`install hailo-tools-${here}\\.vsix`));
});

test('under a launcher the worker checks for itself: every request answers the sentence, the worker stays up', async () => {
  const dist = packageTree('launched', [other]);
  const shim = await fakeShim();
  const c = new DeviceClient({
    trust: commandLineTrust('test'),
    workerPath: join(dist, 'deviceWorker.js'),
    shim,
    // The launcher is this Node itself: the client leaves the check to the worker.
    env: { HAILO_TOOLS_WORKER_LAUNCHER: JSON.stringify([process.execPath]) },
  });
  clients.push(c);
  for (const request of [() => c.scan(), () => c.hello()]) {
    const e = await failure(request());
    assert.equal(e.kind, 'native-missing', `${e.kind}: ${e.sentence} (${e.message})`);
    assert.match(e.sentence, new RegExp(`was built for ${other}.*install hailo-tools-${here}\\.vsix`));
  }
  assert.equal(c.restarts, 0, 'the worker did not die');
});

test('hailo-tools devices from an unpacked package of another platform: one sentence, no stack, exit 2', () => {
  const dist = packageTree('cli', [other]);
  const r = spawnSync(process.execPath, ['-e', `require(${JSON.stringify(join(dist, 'cli.js'))}).main(['devices']).then((c) => { process.exitCode = c; })`], {
    encoding: 'utf8',
    env: { ...process.env, HAILO_TOOLS_SHIM: '', HAILORT_ROOT: join(dir, 'no-hailort') },
  });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, new RegExp(`This hailo-tools package was built for ${other}.*install hailo-tools-${here}\\.vsix`));
  assert.doesNotMatch(r.stderr, /\n\s+at |stopped unexpectedly/);
});

/** `hailo-tools devices` from dist/ (where the shim's sources are) with this environment. */
function devicesCli(env: Record<string, string | undefined>, dist = DIST) {
  const merged: Record<string, string | undefined> = { ...process.env, HAILO_TOOLS_SHIM: undefined, HAILO_TOOLS_HAILORT_LIBRARY: undefined, ...env };
  for (const k of Object.keys(merged)) if (merged[k] === undefined) delete merged[k];
  return spawnSync(
    process.execPath,
    ['-e', `require(${JSON.stringify(join(dist, 'cli.js'))}).main(process.argv.slice(1)).then((c) => { process.exitCode = c; })`, 'devices'],
    {
      encoding: 'utf8',
      env: merged as NodeJS.ProcessEnv,
    },
  );
}

test('no C++ compiler on the PATH (Raspberry Pi OS Lite): the command that installs one, and no half-built shim', () => {
  const empty = join(dir, 'empty-bin');
  mkdirSync(empty, { recursive: true });
  const cache = join(dir, 'cache');
  const r = devicesCli({ PATH: empty, CXX: undefined, HAILORT_ROOT: fakeHailortPrefix(), HAILO_TOOLS_CACHE_DIR: cache });
  assert.equal(r.status, 2, r.stderr);
  assert.match(
    r.stderr,
    /No C\+\+ compiler is installed, and the HailoRT bridge is compiled on this machine on first use: install one \("sudo apt install g\+\+"\)/,
  );
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  const built = existsSync(join(cache, 'shim')) ? readdirSync(join(cache, 'shim')).flatMap((d) => readdirSync(join(cache, 'shim', d))) : [];
  assert.deepEqual(built, [], 'no half-built shim');
});

test('CXX names a compiler that is not installed: the sentence names it and the usual install', () => {
  const r = devicesCli({ CXX: 'aarch64-no-such-g++', HAILORT_ROOT: fakeHailortPrefix(), HAILO_TOOLS_CACHE_DIR: join(dir, 'cache-cxx') });
  assert.equal(r.status, 2, r.stderr);
  assert.match(r.stderr, /the CXX variable names \('aarch64-no-such-g\+\+'\) is not installed.*"sudo apt install g\+\+"/);
});

test('a platform without a package (macOS): the sentence says where the device path runs', () => {
  const e = nativeBindingProblem(packageTree('mac', []), 'darwin', 'arm64');
  assert.equal(e?.kind, 'native-missing');
  assert.match(e!.sentence, /there is no build for darwin-arm64: running on the device needs Linux on x64 or arm64 \(linux-x64, linux-arm64\).*Remote-SSH/);
  assert.equal(nativeBindingProblem(packageTree('mine', [here]), process.platform, process.arch), undefined);
});
