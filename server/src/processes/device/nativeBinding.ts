// Whether this package carries koffi's native binary for the platform the device worker runs on
// (issue 37). Asked by the client before it builds the shim and forks the worker, and by the
// worker before it loads koffi, so a package of another platform ends in one sentence that names
// the package to install — not in a worker that dies with Node's version as its last words.
// The folder is the package's own dist/ (where esbuild.mjs and scripts/package.mjs put
// `@koromix/koffi-<platform>`), never a file a workspace names.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { errorFromKind } from '../../core/device/errors';
import { koffiBinaryPath, nativeMissingSentence, platformKey } from '../../core/device/nativePlatform';
import type { DeviceError } from '../../core/device/protocol';

/** The platforms whose koffi binary `distDir` holds (`linux-x64`, …). */
export function carriedPlatforms(distDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(join(distDir, '@koromix'));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.startsWith('koffi-'))
    .map((n) => n.slice('koffi-'.length))
    .filter((key) => existsSync(join(distDir, koffiBinaryPath(key))))
    .sort();
}

/** Undefined when `distDir` holds koffi's binary for this platform; else the error to report. */
export function nativeBindingProblem(distDir: string, platform: string = process.platform, arch: string = process.arch): DeviceError | undefined {
  const here = platformKey(platform, arch);
  const carried = carriedPlatforms(distDir);
  if (carried.includes(here)) return undefined;
  const error = errorFromKind('native-missing', `no ${koffiBinaryPath(here)} in ${distDir}; it carries ${carried.join(', ') || 'no native binary'}`);
  return { ...error, sentence: nativeMissingSentence(here, carried) };
}
