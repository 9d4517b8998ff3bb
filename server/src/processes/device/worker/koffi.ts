// koffi, loaded on first use instead of at the bundle's start: a package without koffi's binary
// for this platform must still answer its requests with one sentence (nativeBinding.ts), and an
// import would throw before any of the worker's code ran (issue 37).
import type * as Koffi from 'koffi';
import type { TrustToken } from '../../../core/common/trust';

let loaded: typeof Koffi | undefined;

/** koffi itself; demands the TrustToken the worker was started with, like every native load. */
export function koffi(_trust: TrustToken): typeof Koffi {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a run-time load, after the worker checked that the binary is here (esbuild.mjs maps it to dist/koffi)
  loaded ??= require('koffi') as typeof Koffi;
  return loaded;
}
