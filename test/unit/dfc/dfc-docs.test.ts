// docs/dfc-log.md's code table says what server/src/core/dfc/codes.ts says: same codes, severities,
// stages, confidences and evidence — so the documentation cannot drift from the reader.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DFC_CODES } from '../../../server/src/core/dfc/codes';
import { repoRoot } from '../../helpers/shared';

test('docs/dfc-log.md: the code table equals codes.ts', () => {
  const doc = readFileSync(join(repoRoot, 'docs', 'dfc-log.md'), 'utf8');
  const table = doc.slice(doc.indexOf('<!-- codes:start -->'), doc.indexOf('<!-- codes:end -->'));
  const rows = table
    .split('\n')
    .filter((l) => l.startsWith('| `dfc/') || l.startsWith('| `hailort/'))
    .map((l) => l.split(' | ').map((c) => c.replace(/^\| /, '').replace(/ \|$/, '')));
  const fromDoc = Object.fromEntries(
    rows.map((c) => [c[0].replace(/`/g, ''), { severity: c[1], stage: c[2] === '—' ? null : c[2], confidence: c[3], evidence: c[5] }]),
  );
  assert.deepEqual(fromDoc, DFC_CODES);
});

test('README links docs/dfc-log.md', () => {
  assert.match(readFileSync(join(repoRoot, 'README.md'), 'utf8'), /\(docs\/dfc-log\.md\)/);
});
