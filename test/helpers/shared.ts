// Real parts the tests read: ../shared (real corpora; it exists in the dev workspace and in CI,
// not on a user's machine), tools on the path (docker), optional npm packages with real models.
// Locally a missing part skips its tests with a visible NOTE; under CI (the CI variable set, as
// CI systems do) or with HAILO_REQUIRE_ALL=1 a missing part is a failure, never a skip — a green
// run must mean everything was checked.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from './projectRoot';

/** Found by walking up from the bundle (any depth under out/test-<pid>/), not by counting `..`. */
export const repoRoot = projectRoot;

/** True when a missing real part must fail the run (CI, or HAILO_REQUIRE_ALL=1 locally). */
export function requireAllParts(env: NodeJS.ProcessEnv = process.env): boolean {
  const ci = env.CI;
  return (ci !== undefined && ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false') || env.HAILO_REQUIRE_ALL === '1';
}

/** Thrown (at test definition) for a part that must be here. */
export class MissingPartError extends Error {}

/**
 * The `skip` option for tests that need a real part: `false` when `present`, else a NOTE reason
 * (printed once) — or, under CI / HAILO_REQUIRE_ALL=1, a thrown error that fails the test file.
 */
export function skipUnless(present: unknown, part: string, env: NodeJS.ProcessEnv = process.env): false | string {
  if (present) return false;
  if (requireAllParts(env)) {
    throw new MissingPartError(`${part} is missing, and under CI (or HAILO_REQUIRE_ALL=1) a missing real part fails the run instead of skipping`);
  }
  const reason = `NOTE: ${part} is missing; skipping`;
  if (!noted.has(part)) process.stderr.write(`${reason} (CI would fail here)\n`);
  noted.add(part);
  return reason;
}
const noted = new Set<string>();

export function sharedRoot(): string | undefined {
  const candidates = [process.env.HAILO_SHARED_DIR, join(repoRoot, '..', 'shared')].filter(Boolean) as string[];
  return candidates.find((p) => existsSync(join(p, 'corpus')));
}

/**
 * Path inside ../shared, or undefined (with a note) when it is not here. Under CI a missing
 * ../shared, or a missing file inside it, throws instead.
 */
export function sharedPath(...parts: string[]): string | undefined {
  const root = sharedRoot();
  if (!root) {
    skipUnless(false, `../shared (needed for ${parts.join('/')})`);
    return undefined;
  }
  const p = join(root, ...parts);
  if (existsSync(p)) return p;
  skipUnless(false, `../shared/${parts.join('/')}`);
  return undefined;
}

export const SKIP_NO_SHARED = '../shared is absent (it exists only in the dev workspace and CI)';
