// Which platform's native code a hailo-tools package carries, and the one sentence when it lacks
// this machine's. The device worker loads koffi (https://koffi.dev), whose loader takes the binary
// of `process.platform`-`process.arch` from `@koromix/koffi-<platform>-<arch>/<platform>_<arch>/koffi.node`
// (glibc; `musl_<arch>` on musl) — node_modules/koffi/src/koffi/index.cjs `detectPlatform` and the
// platform package's index.js. Each platform-specific .vsix (scripts/package.mjs) carries exactly
// one of those; the universal one none. Pure: the caller lists what is there.
import packaged from './packagedPlatforms.json';

/** VS Code's target names of the platform-specific packages (`vsce package --target …`). */
export const PACKAGED_PLATFORMS: readonly string[] = packaged.targets;

/** `linux-arm64`: the key koffi and VS Code both use for a platform. */
export function platformKey(platform: string = process.platform, arch: string = process.arch): string {
  return `${platform}-${arch}`;
}

/** The package file `npm run package` writes for a platform. */
export function packageFileName(key: string): string {
  return `hailo-tools-${key}.vsix`;
}

/** koffi's glibc binary for a platform, relative to the folder holding `@koromix` (dist/). */
export function koffiBinaryPath(key: string): string {
  return `@koromix/koffi-${key}/${key.replace('-', '_')}/koffi.node`;
}

/**
 * The sentence for a package without koffi's binary for `here`; `carried` are the platforms whose
 * binaries it has (`linux-x64`), empty for the universal package.
 */
export function nativeMissingSentence(here: string, carried: readonly string[]): string {
  const built = carried.length ? `was built for ${carried.join(', ')}` : 'carries no native code (as the universal package)';
  if (PACKAGED_PLATFORMS.includes(here)) {
    return `This hailo-tools package ${built}, so the device worker cannot load its native code on ${here}: install ${packageFileName(here)} (npm run package makes it on any machine) or the Marketplace's build for ${here}.`;
  }
  return `This hailo-tools package ${built}, and there is no build for ${here}: running on the device needs Linux on x64 or arm64 (${PACKAGED_PLATFORMS.join(', ')}), where HailoRT runs — open the folder on that machine (e.g. over Remote-SSH) and install its package there.`;
}
