// `npm run package`: one VS Code platform-specific package per platform HailoRT runs on
// (server/src/core/device/packagedPlatforms.json: linux-x64, linux-arm64), each carrying koffi's
// binary for its platform and nothing of the others, plus a universal package without native code
// (macOS, Windows: everything but the device). From any machine: koffi's binaries come in npm
// packages of their own (@koromix/koffi-<platform>, optional dependencies of koffi), and npm
// installs only this machine's, so the others are fetched from the npm registry with `npm pack`
// and checked against the integrity package-lock.json records for them (issue 37).
//
// Usage: node scripts/package.mjs [--target KEY]... [--no-build] [--out-dir DIR]
//   --target linux-x64|linux-arm64|universal  only these (default: all)
//   --no-build    package dist/ as it is (the tests; default: node esbuild.mjs --production first)
//   --out-dir     where the .vsix files go (default: the repository root)
// Prints the path of each package it wrote, one a line.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import tarStream from 'tar-stream';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const PLATFORMS = JSON.parse(readFileSync(join(root, 'server', 'src', 'core', 'device', 'packagedPlatforms.json'), 'utf8')).targets;
export const UNIVERSAL = 'universal';

/** The file a target's package is written to. */
export function packageFile(target) {
  return `hailo-tools-${target}.vsix`;
}

/** koffi's glibc binary of a platform inside its package (`linux_arm64/koffi.node`): what its index.js loads. */
function koffiBinary(key) {
  return `${key.replace('-', '_')}/koffi.node`;
}

/** One sentence for what stopped the packaging (printed by the command line; nothing half-made is left). */
class PackageError extends Error {}

function fail(message) {
  throw new PackageError(message);
}

/** Runs npm's own client (the one running this script under `npm run`, else `npm` on the PATH). */
function npm(args, cwd) {
  const cli = process.env.npm_execpath;
  return cli && cli.endsWith('.js')
    ? spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8' })
    : spawnSync('npm', args, { cwd, encoding: 'utf8' });
}

async function extractTgz(file, into) {
  const extract = tarStream.extract();
  const done = new Promise((ok, ko) => {
    extract.on('entry', (header, stream, next) => {
      const chunks = [];
      stream.on('data', (c) => chunks.push(c));
      stream.on('end', () => {
        // npm tarballs hold `package/…`; nothing may land outside `into`.
        const rel = header.name.replace(/^package\//, '');
        if (header.type === 'file' && !rel.split('/').includes('..') && !rel.startsWith('/')) {
          mkdirSync(dirname(join(into, rel)), { recursive: true });
          writeFileSync(join(into, rel), Buffer.concat(chunks));
        }
        next();
      });
      stream.resume();
    });
    extract.on('finish', ok);
    extract.on('error', ko);
  });
  extract.end(gunzipSync(readFileSync(file)));
  await done;
}

/**
 * The folder of @koromix/koffi-<key> at koffi's version: node_modules when npm installed it (this
 * machine's platform), else a copy fetched once into node_modules/.cache/hailo-tools/.
 */
async function koffiPlatformPackage(key) {
  const version = JSON.parse(readFileSync(join(root, 'node_modules', 'koffi', 'package.json'), 'utf8')).version;
  const name = `@koromix/koffi-${key}`;
  const installed = join(root, 'node_modules', name);
  if (existsSync(join(installed, koffiBinary(key))) && JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')).version === version) return installed;
  const cached = join(root, 'node_modules', '.cache', 'hailo-tools', `koffi-${key}-${version}`);
  if (existsSync(join(cached, koffiBinary(key)))) return cached;
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages?.[`node_modules/${name}`];
  if (!lock || lock.version !== version || !lock.integrity) fail(`package-lock.json records no ${name}@${version} with its integrity: run npm install`);
  const tmp = `${cached}.${process.pid}.partial`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    return await fetchVerified(name, version, lock.integrity, key, tmp, cached);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** `npm pack` into `tmp`, the tarball checked against `integrity`, unpacked and renamed to `cached`. */
async function fetchVerified(name, version, integrity, key, tmp, cached) {
  const r = npm(['pack', `${name}@${version}`, '--pack-destination', tmp, '--json', '--silent'], tmp);
  if (r.status !== 0) fail(`npm pack ${name}@${version} failed: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' ')}`);
  const tgz = readdirSync(tmp).find((n) => n.endsWith('.tgz'));
  if (!tgz) fail(`npm pack ${name}@${version} wrote no tarball`);
  const [algorithm, expected] = integrity.split('-');
  const actual = createHash(algorithm)
    .update(readFileSync(join(tmp, tgz)))
    .digest('base64');
  if (actual !== expected) fail(`${name}@${version} from the registry does not match package-lock.json's integrity (${integrity})`);
  const unpacked = join(tmp, 'package');
  await extractTgz(join(tmp, tgz), unpacked);
  try {
    renameSync(unpacked, cached);
  } catch (err) {
    // Another packaging run (a test beside this one) put the same verified copy there first.
    if (!existsSync(join(cached, koffiBinary(key)))) throw err;
  }
  return cached;
}

/** dist/@koromix/koffi-<key>/: the loader, its manifest and the glibc binary — what the package carries. */
function stage(key, from) {
  const to = join(root, 'dist', '@koromix', `koffi-${key}`);
  for (const f of ['package.json', 'index.js', koffiBinary(key)]) {
    mkdirSync(dirname(join(to, f)), { recursive: true });
    // Renamed into place: a package made at the same time (tests) never reads half a file.
    const partial = `${join(to, f)}.${process.pid}.partial`;
    copyFileSync(join(from, f), partial);
    renameSync(partial, join(to, f));
  }
}

/** .vscodeignore with its koffi line narrowed to one platform's files (none for the universal one). */
function ignoreFileFor(target, dir) {
  const base = readFileSync(join(root, '.vscodeignore'), 'utf8').split('\n');
  const line = base.findIndex((l) => l.trim() === '!dist/@koromix/**');
  if (line < 0) fail(".vscodeignore has no '!dist/@koromix/**' line to narrow per platform");
  const koffi = target === UNIVERSAL ? [] : [`!dist/@koromix/koffi-${target}/{package.json,index.js,${koffiBinary(target)}}`];
  const file = join(dir, `vscodeignore-${target}-${process.pid}`);
  writeFileSync(file, [...base.slice(0, line), ...koffi, ...base.slice(line + 1)].join('\n'));
  return file;
}

export async function packageAll({ targets = [...PLATFORMS, UNIVERSAL], build = true, outDir = root } = {}) {
  for (const t of targets) if (t !== UNIVERSAL && !PLATFORMS.includes(t)) fail(`unknown target '${t}' (${[...PLATFORMS, UNIVERSAL].join(', ')})`);
  if (build) {
    const r = spawnSync(process.execPath, [join(root, 'esbuild.mjs'), '--production'], { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) fail('node esbuild.mjs --production failed');
  }
  for (const t of targets) if (t !== UNIVERSAL) stage(t, await koffiPlatformPackage(t));
  const work = join(root, 'out', 'package');
  mkdirSync(work, { recursive: true });
  mkdirSync(outDir, { recursive: true });
  const vsce = join(root, 'node_modules', '@vscode', 'vsce', 'vsce');
  const written = [];
  for (const t of targets) {
    const out = join(outDir, packageFile(t));
    const ignoreFile = ignoreFileFor(t, work);
    const args = ['package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--ignoreFile', ignoreFile, '--out', out];
    if (t !== UNIVERSAL) args.push('--target', t);
    const r = spawnSync(process.execPath, [vsce, ...args], { cwd: root, encoding: 'utf8' });
    rmSync(ignoreFile, { force: true });
    if (r.status !== 0) fail(`vsce ${args.join(' ')} failed:\n${r.stdout}${r.stderr}`);
    written.push(out);
  }
  return written;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const argv = process.argv.slice(2);
  const targets = argv.flatMap((a, i) => (argv[i - 1] === '--target' ? [a] : []));
  const outAt = argv.indexOf('--out-dir');
  try {
    const written = await packageAll({
      targets: targets.length ? targets : undefined,
      build: !argv.includes('--no-build'),
      outDir: outAt >= 0 ? resolve(argv[outAt + 1]) : root,
    });
    for (const f of written) console.log(f);
  } catch (err) {
    if (!(err instanceof PackageError)) throw err;
    console.error(`package: ${err.message}`);
    process.exitCode = 1;
  }
}
