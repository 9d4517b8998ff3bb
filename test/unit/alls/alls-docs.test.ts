// Documentation stays true: every diagnostic code is in docs/alls-rules.md and every code listed
// there exists; every example script is described in examples/README.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RULES } from '../../../server/src/core/alls/codes';
import { repoRoot } from '../../helpers/shared';
import { listFiles } from '../../helpers/files';

test('docs/alls-rules.md lists exactly the codes the checker emits', () => {
  const doc = readFileSync(join(repoRoot, 'docs', 'alls-rules.md'), 'utf8');
  const rows = new Set([...doc.matchAll(/^\| `(alls\/[\w-]+)` \|/gm)].map((m) => m[1]));
  assert.deepEqual([...rows].sort(), Object.keys(RULES).sort());
});

test('examples/README.md describes every example script', () => {
  const dir = join(repoRoot, 'examples');
  const readme = readFileSync(join(dir, 'README.md'), 'utf8');
  const missing = listFiles(dir, '.alls')
    .map((f) => relative(dir, f))
    .filter((f) => !readme.includes('`' + f + '`'));
  assert.deepEqual(missing, []);
});
