// Recursive file listing for tests that read a folder (corpora, examples, fixtures): sorted, so
// seeded fuzzing and snapshots see the same order on every machine.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function listFiles(dir: string, suffix: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) listFiles(p, suffix, out);
    else if (name.endsWith(suffix)) out.push(p);
  }
  return out;
}
