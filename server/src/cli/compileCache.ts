// V8's code cache for the CLI's sub-command bundles where Node has no compile cache of its own
// (module.enableCompileCache is Node >= 22.1; bin/hailo-tools.js turns Node's on where it exists,
// and then this steps aside). A bundle is compiled from a vm.Script with the cache of its last run;
// at exit, a run that had no usable cache writes one. It is written after the command ran, so it
// holds the functions compiled lazily during the run too, not only the top level (the
// v8-compile-cache package caches at compile time, and cost more to load than it saved here:
// README, bench). The cache is only an optimisation: where it cannot be used the bundle is
// required as usual. `NODE_DEBUG=hailo_compile_cache` says what happened; NODE_DISABLE_COMPILE_CACHE=1
// turns it off and NODE_COMPILE_CACHE=<folder> moves it, as for Node's own cache.
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { Module, createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { debuglog } from 'node:util';
import { Script } from 'node:vm';

const debug = debuglog('hailo_compile_cache');

/**
 * The folder the caches live in, or why there is none. A cache is compiled code the process runs,
 * so the folder must be this user's alone: a directory (not a link) owned by us that nobody else
 * may write to (else another user of a shared /tmp could plant code).
 */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): { dir: string } | { none: string } {
  if (env.NODE_DISABLE_COMPILE_CACHE) return { none: 'NODE_DISABLE_COMPILE_CACHE is set' };
  if ((Module as unknown as { getCompileCacheDir?: () => string | undefined }).getCompileCacheDir?.()) return { none: "Node's own compile cache is on" };
  const uid = process.getuid?.();
  const dir = env.NODE_COMPILE_CACHE || join(tmpdir(), uid === undefined ? 'hailo-tools-compile-cache' : `hailo-tools-compile-cache-${uid}`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    if (!st.isDirectory()) return { none: `${dir} is not a directory` };
    if (uid !== undefined && st.uid !== uid) return { none: `${dir} belongs to uid ${st.uid}, not ${uid}` };
    if (uid !== undefined && (st.mode & 0o022) !== 0) return { none: `${dir} is writable by others (mode ${(st.mode & 0o777).toString(8)})` };
    return { dir };
  } catch (err) {
    return { none: `${dir}: ${(err as Error).message}` };
  }
}

// The CommonJS wrapper Node puts around a file (its Module.wrap), on the source's first line so
// stack traces and source maps keep their line numbers.
const WRAP_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAP_TAIL = '\n});';

/**
 * Loads one of dist/'s self-contained bundles like require(file) does (registered in require.cache
 * under its path), through the code cache where one can be kept; `plain` is the ordinary require.
 */
export function loadCommandBundle(file: string, plain: () => unknown): unknown {
  const folder = cacheFolder();
  if ('none' in folder) {
    debug('%s: no cache (%s)', basename(file), folder.none);
    return plain();
  }
  const source = readFileSync(file, 'utf8');
  // V8 checks its own version, flags and the source's length, not the source itself. The name says
  // which file this is (device, inode) and which write of it (change and modification times in ns,
  // size): a rebuilt or reinstalled bundle never meets an old cache, even one of the same length.
  // (Not a hash of the source: loading node:crypto alone cost more than the rest of this.)
  const st = statSync(file, { bigint: true });
  const stem = basename(file, '.js');
  const cacheFile = join(folder.dir, `${stem}-${process.version}-${process.arch}-${st.dev}-${st.ino}-${st.size}-${st.ctimeNs}-${st.mtimeNs}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // No cache yet (the first run of this build): compiled from source, and one is written at exit.
  }
  const script = new Script(WRAP_HEAD + source + WRAP_TAIL, { filename: file, cachedData });
  if (cachedData && !script.cachedDataRejected) debug('%s: cache accepted (%s)', basename(file), cacheFile);
  else {
    debug('%s: %s', basename(file), cachedData ? 'cache rejected by V8; compiled from source' : 'no cache yet; compiled from source');
    process.once('exit', () => writeCache(script, cacheFile, basename(file), `${st.dev}-${st.ino}`));
  }
  const mod = new Module(file, require.main);
  mod.filename = file;
  require.cache[file] = mod;
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  mod.loaded = true;
  return mod.exports;
}

/**
 * Written whole under a temporary name, then renamed: a reader never sees half a cache. The caches
 * of earlier writes of the same file (same device and inode) go; another install's stay, so two
 * installs used in turn do not evict each other.
 */
function writeCache(script: Script, cacheFile: string, bundle: string, fileId: string): void {
  const stem = basename(bundle, '.js');
  const temporary = `${cacheFile}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
    renameSync(temporary, cacheFile);
    debug('%s: cache written (%s)', bundle, cacheFile);
    const dir = dirname(cacheFile);
    const older = new RegExp(`^${stem}-v\\d[\\d.]*-\\w+-${fileId}-\\d+-\\d+-\\d+\\.v8$`);
    for (const name of readdirSync(dir)) if (older.test(name) && join(dir, name) !== cacheFile) unlinkSync(join(dir, name));
  } catch (err) {
    // A full disk or a folder gone must not turn a finished command into a failure: next run compiles from source again.
    debug('%s: cache not written (%s)', bundle, (err as Error).message);
    try {
      unlinkSync(temporary);
    } catch {
      // never created
    }
  }
}
