// Access to ../shared (real corpora). It exists in this workspace and in CI, not on a user's
// machine: tests that need it call `sharedPath()` and skip with a visible note when it is absent.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const repoRoot = resolve(__dirname, '..', '..', '..');

export function sharedRoot(): string | undefined {
  const candidates = [process.env.HAILO_SHARED_DIR, join(repoRoot, '..', 'shared')].filter(Boolean) as string[];
  return candidates.find((p) => existsSync(join(p, 'corpus')));
}

/** Path inside ../shared, or undefined (and a note on stderr) when the folder is not here. */
export function sharedPath(...parts: string[]): string | undefined {
  const root = sharedRoot();
  if (!root) {
    process.stderr.write(`NOTE: ../shared is absent; skipping tests that read ${parts.join('/')}\n`);
    return undefined;
  }
  const p = join(root, ...parts);
  return existsSync(p) ? p : undefined;
}

export const SKIP_NO_SHARED = '../shared is absent (it exists only in the dev workspace and CI)';
