// Finds an installed HailoRT (4.18 … 4.23 or 5.x) and compiles the extern "C" shim (native/hailo_shim.cpp) against
// it with the system C++ compiler. The shim is built once per (HailoRT library, shim source,
// compiler) into a cache folder and reused; a failed or interrupted build leaves no file behind
// (compiled to a temporary name, renamed when complete).
//
// HailoRT is looked for, in order: the `hailo.hailort.path` setting / `--hailort` flag, the
// HAILORT_ROOT environment variable, a `HailoRT` CMake package config (HailoRT_DIR, then the
// usual prefixes), and the usual install paths (/usr/include/hailo + /usr/lib/libhailort.so*).
// HailoRT's CMake target passes HAILORT_{MAJOR,MINOR,REVISION}_VERSION to its users; a plain
// compiler call does not, so they are read from the library's file name or the package's
// ConfigVersion file and passed with -D.
import { spawn } from 'node:child_process';
import { signalGroup } from '../compile/process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { TrustToken } from '../../core/common/trust';
import { errorFromKind } from '../../core/device/errors';
import type { DeviceError } from '../../core/device/protocol';

export interface HailoRTVersion {
  major: number;
  minor: number;
  revision: number;
}

export interface HailoRTInstall {
  includeDir: string;
  libraryPath: string;
  version: HailoRTVersion;
  foundBy: 'setting' | 'HAILORT_ROOT' | 'cmake-config' | 'usual-paths';
}

export interface ShimLocation {
  shimPath: string;
  libraryPath: string;
  hailortVersion: string;
}

export interface FindOptions {
  /** Install prefix from the setting or flag (has include/hailo and lib/libhailort.so*). */
  hailortRoot?: string;
  env?: Record<string, string | undefined>;
  /** Prefixes searched for CMake configs and usual paths (default /usr, /usr/local, /opt/hailort). */
  prefixes?: string[];
}

export interface EnsureOptions extends FindOptions {
  /** Use this built shim instead of building one. */
  shimPath?: string;
  /** Folder holding hailo_shim.cpp (default: dist/native beside this bundle, else native/). */
  sourceDir?: string;
  /** Build cache (default HAILO_TOOLS_CACHE_DIR, else $XDG_CACHE_HOME/hailo-tools, else ~/.cache/hailo-tools). */
  cacheDir?: string;
  log?: (message: string) => void;
}

const DEFAULT_PREFIXES = ['/usr', '/usr/local', '/opt/hailort'];
const LIB_SUBDIRS = ['lib', 'lib64', 'lib/x86_64-linux-gnu', 'lib/aarch64-linux-gnu'];
export const SHIM_SOURCE = 'hailo_shim.cpp';
/** Every translation unit of the bridge (devices + InferModel, GenAI, speech, device state), compiled into one library. */
export const SHIM_SOURCES = [SHIM_SOURCE, 'hailo_genai.cpp', 'hailo_speech.cpp', 'hailo_health.cpp'];
/** Headers the sources include: part of the cache key. */
const SHIM_HEADERS = ['shim_common.hpp'];
export const SHIM_LIBRARY = 'libhailo_tools_shim.so';

/** `libhailort.so.5.2.0` → 5.2.0 (CMake's VERSION property names the real file so). */
export function versionFromLibraryName(name: string): HailoRTVersion | undefined {
  const m = /^libhailort\.so\.(\d+)\.(\d+)\.(\d+)$/.exec(name);
  return m ? { major: Number(m[1]), minor: Number(m[2]), revision: Number(m[3]) } : undefined;
}

/** The library in `libDir`: the versioned file if there is one (it carries the version). */
function libraryIn(libDir: string): { path: string; version?: HailoRTVersion } | undefined {
  let names: string[];
  try {
    names = readdirSync(libDir);
  } catch {
    return undefined;
  }
  const versioned = names.map((n) => ({ n, v: versionFromLibraryName(n) })).filter((x) => x.v);
  versioned.sort((a, b) => b.v!.major - a.v!.major || b.v!.minor - a.v!.minor || b.v!.revision - a.v!.revision);
  if (versioned.length > 0) return { path: join(libDir, versioned[0].n), version: versioned[0].v };
  if (names.includes('libhailort.so')) return { path: join(libDir, 'libhailort.so') };
  return undefined;
}

/** `set(PACKAGE_VERSION "5.2.0")` in HailoRTConfigVersion.cmake. */
function versionFromCmakeConfig(configDir: string): HailoRTVersion | undefined {
  for (const file of ['HailoRTConfigVersion.cmake', 'hailortConfigVersion.cmake', 'HailoRT-config-version.cmake']) {
    try {
      const m = /PACKAGE_VERSION\s+"(\d+)\.(\d+)\.(\d+)"/.exec(readFileSync(join(configDir, file), 'utf8'));
      if (m) return { major: Number(m[1]), minor: Number(m[2]), revision: Number(m[3]) };
    } catch {
      // not this file name
    }
  }
  return undefined;
}

function fromPrefix(prefix: string, foundBy: HailoRTInstall['foundBy'], searched: string[]): HailoRTInstall | undefined {
  const includeDir = join(prefix, 'include');
  searched.push(join(includeDir, 'hailo', 'hailort.hpp'));
  if (!existsSync(join(includeDir, 'hailo', 'hailort.hpp'))) return undefined;
  for (const sub of LIB_SUBDIRS) {
    const libDir = join(prefix, sub);
    searched.push(join(libDir, 'libhailort.so*'));
    const lib = libraryIn(libDir);
    if (!lib) continue;
    const version = lib.version ?? versionFromCmakeConfig(join(libDir, 'cmake', 'HailoRT'));
    if (!version) continue;
    return { includeDir, libraryPath: lib.path, version, foundBy };
  }
  return undefined;
}

/** Finds HailoRT, or says exactly where it looked. */
export function findHailoRT(options: FindOptions = {}): HailoRTInstall | { error: DeviceError; searched: string[] } {
  const env = options.env ?? process.env;
  const searched: string[] = [];
  if (options.hailortRoot) {
    const found = fromPrefix(resolve(options.hailortRoot), 'setting', searched);
    if (found) return found;
    return missing(
      searched,
      `hailo.hailort.path is set to '${options.hailortRoot}' but it holds no include/hailo/hailort.hpp with a versioned lib/libhailort.so.X.Y.Z`,
    );
  }
  if (env.HAILORT_ROOT) {
    const found = fromPrefix(resolve(env.HAILORT_ROOT), 'HAILORT_ROOT', searched);
    if (found) return found;
  }
  const prefixes = options.prefixes ?? DEFAULT_PREFIXES;
  const configDirs = [...(env.HailoRT_DIR ? [env.HailoRT_DIR] : []), ...prefixes.flatMap((p) => LIB_SUBDIRS.map((sub) => join(p, sub, 'cmake', 'HailoRT')))];
  for (const configDir of configDirs) {
    searched.push(join(configDir, 'HailoRTConfig.cmake'));
    if (!existsSync(join(configDir, 'HailoRTConfig.cmake')) && !existsSync(join(configDir, 'hailortConfig.cmake'))) continue;
    // <prefix>/<lib...>/cmake/HailoRT → the prefix is above the lib folder.
    const libDir = dirname(dirname(configDir));
    const lib = libraryIn(libDir);
    const prefix = libDir.includes('/lib/') ? libDir.slice(0, libDir.indexOf('/lib/')) : dirname(libDir);
    const includeDir = join(prefix, 'include');
    const version = versionFromCmakeConfig(configDir) ?? lib?.version;
    if (lib && version && existsSync(join(includeDir, 'hailo', 'hailort.hpp'))) {
      return { includeDir, libraryPath: lib.path, version, foundBy: 'cmake-config' };
    }
  }
  for (const prefix of prefixes) {
    const found = fromPrefix(prefix, 'usual-paths', searched);
    if (found) return found;
  }
  return missing(
    searched,
    `no HailoRT found: looked for include/hailo/hailort.hpp with lib/libhailort.so.X.Y.Z under ${[...(env.HAILORT_ROOT ? [env.HAILORT_ROOT] : []), ...prefixes].join(', ')}, and for HailoRT's CMake package config`,
  );
}

function missing(searched: string[], why: string): { error: DeviceError; searched: string[] } {
  return { error: errorFromKind('hailort-missing', why), searched };
}

export function versionString(v: HailoRTVersion): string {
  return `${v.major}.${v.minor}.${v.revision}`;
}

/** The compiler's arguments (an array: no shell ever sees them). */
export function compilerArgs(install: HailoRTInstall, source: string | string[], output: string, extra: string[] = []): string[] {
  const libDir = dirname(install.libraryPath);
  return [
    '-std=c++17',
    '-O2',
    '-fPIC',
    '-shared',
    '-pthread',
    '-fvisibility=hidden',
    '-Wall',
    `-DHAILORT_MAJOR_VERSION=${install.version.major}`,
    `-DHAILORT_MINOR_VERSION=${install.version.minor}`,
    `-DHAILORT_REVISION_VERSION=${install.version.revision}`,
    '-I',
    install.includeDir,
    ...extra,
    ...(Array.isArray(source) ? source : [source]),
    '-o',
    output,
    install.libraryPath,
    `-Wl,-rpath,${libDir}`,
  ];
}

export function defaultCacheDir(env: Record<string, string | undefined> = process.env): string {
  if (env.HAILO_TOOLS_CACHE_DIR) return env.HAILO_TOOLS_CACHE_DIR;
  const base = env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'hailo-tools');
}

export function shimSourceDir(explicit?: string): string {
  if (explicit) return explicit;
  const candidates = [join(__dirname, 'native'), join(__dirname, '..', 'native')];
  return candidates.find((d) => existsSync(join(d, SHIM_SOURCE))) ?? candidates[0];
}

/** Runs a program with an argument array; resolves with its exit code and output. */
export function runProgram(
  _trust: TrustToken,
  file: string,
  args: string[],
  timeoutMs = 300_000,
  env?: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string; spawnError?: string; spawnCode?: string }> {
  return new Promise((done) => {
    let output = '';
    // Its own process group (POSIX): the timeout ends the compiler's children (cc1plus, ld) too.
    const group = process.platform !== 'win32';
    const child = spawn(file, args, { shell: false, detached: group, stdio: ['ignore', 'pipe', 'pipe'], ...(env ? { env } : {}) });
    const timer = setTimeout(() => {
      if (!group || !signalGroup(child.pid, 'SIGKILL')) child.kill('SIGKILL');
    }, timeoutMs);
    const take = (d: Buffer) => {
      if (output.length < 1 << 20) output += d.toString('utf8');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('error', (err) => {
      clearTimeout(timer);
      done({ code: null, output, spawnError: err.message, spawnCode: (err as NodeJS.ErrnoException).code });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/** Compiles the shim for `install` unless the cache has it; answers where it is. */
export async function buildShim(
  trust: TrustToken,
  install: HailoRTInstall,
  options: { sourceDir?: string; cacheDir?: string; env?: Record<string, string | undefined>; log?: (m: string) => void; extraArgs?: string[] } = {},
): Promise<ShimLocation | { error: DeviceError }> {
  const env = options.env ?? process.env;
  const dir = shimSourceDir(options.sourceDir);
  const sources = SHIM_SOURCES.map((f) => join(dir, f));
  const sourceHash = createHash('sha256');
  for (const file of [...sources, ...SHIM_HEADERS.map((f) => join(dir, f))]) {
    try {
      sourceHash.update(file.slice(dir.length)).update(readFileSync(file));
    } catch (err) {
      return { error: errorFromKind('build-failed', `the shim source ${file} is missing: ${(err as Error).message}`) };
    }
  }
  const sourceText = sourceHash.digest();
  const compiler = env.CXX || 'c++';
  const lib = statSync(install.libraryPath);
  // One shim per library: the key is the real files, not the route that found them (a setting,
  // HAILORT_ROOT, the CMake config, a symlinked lib folder all name the same libhailort).
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  const key = createHash('sha256')
    .update(sourceText)
    .update(JSON.stringify([compiler, real(install.libraryPath), real(install.includeDir), install.version, lib.size, lib.mtimeMs, options.extraArgs ?? []]))
    .digest('hex')
    .slice(0, 16);
  const outDir = join(options.cacheDir ?? defaultCacheDir(env), 'shim', `${versionString(install.version)}-${key}`);
  const output = join(outDir, SHIM_LIBRARY);
  const location = { shimPath: output, libraryPath: install.libraryPath, hailortVersion: versionString(install.version) };
  if (existsSync(output)) return location;
  mkdirSync(outDir, { recursive: true });
  const partial = `${output}.${process.pid}.partial`;
  options.log?.(`compiling the HailoRT bridge against HailoRT ${versionString(install.version)} (${install.libraryPath}) with ${compiler}`);
  // The compiler is looked up on the caller's PATH (env), as a shell would.
  const result = await runProgram(trust, compiler, compilerArgs(install, sources, partial, options.extraArgs), undefined, env);
  if (result.code !== 0 || !existsSync(partial)) {
    rmSync(partial, { force: true });
    // Raspberry Pi OS Lite has no compiler: say which command installs one (issue 37).
    if (result.spawnCode === 'ENOENT') return { error: compilerMissing(compiler, env.CXX !== undefined && env.CXX !== '', result.spawnError ?? '') };
    const detail = result.spawnError
      ? `the C++ compiler '${compiler}' could not be started (${result.spawnError}); install g++ (or set CXX)`
      : `${compiler} exited with ${result.code}: ${result.output.trim().split('\n').slice(-12).join('\n')}`;
    return { error: errorFromKind('build-failed', detail) };
  }
  renameSync(partial, output);
  return location;
}

function compilerMissing(compiler: string, fromCxx: boolean, detail: string): DeviceError {
  const error = errorFromKind('compiler-missing', `the C++ compiler '${compiler}' could not be started (${detail})`);
  if (!fromCxx) return error;
  return {
    ...error,
    sentence: `The C++ compiler the CXX variable names ('${compiler}') is not installed, and the HailoRT bridge is compiled on this machine on first use: install it, or unset CXX and install g++ ("sudo apt install g++").`,
  };
}

/** The shim to load: the given one, or one built for the HailoRT found on this machine. */
export async function ensureShim(trust: TrustToken, options: EnsureOptions = {}): Promise<ShimLocation | { error: DeviceError }> {
  const env = options.env ?? process.env;
  const given = options.shimPath ?? env.HAILO_TOOLS_SHIM;
  if (given) {
    if (!existsSync(given)) return { error: errorFromKind('build-failed', `the shim ${given} does not exist`) };
    return { shimPath: given, libraryPath: env.HAILO_TOOLS_HAILORT_LIBRARY ?? '', hailortVersion: '' };
  }
  const install = findHailoRT(options);
  if ('error' in install) return { error: install.error };
  return buildShim(trust, install, { sourceDir: options.sourceDir, cacheDir: options.cacheDir, env, log: options.log });
}
