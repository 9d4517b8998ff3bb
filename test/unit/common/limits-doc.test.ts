// SECURITY.md's limits table is LIMITS (server/src/core/common/limits.ts) written out: this test
// rebuilds the table from the module and compares. UPDATE_SECURITY=1 rewrites the section (never in CI).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatLimit, LIMITS, type LimitName } from '../../../server/src/core/common/limits';
import { repoRoot } from '../../helpers/shared';

const START = '<!-- limits:start -->';
const END = '<!-- limits:end -->';

export function limitsTable(): string {
  const rows = (Object.keys(LIMITS) as LimitName[]).map((name) => {
    const l = LIMITS[name];
    const cell = (s: string) => s.replace(/\|/g, '\\|');
    return `| \`${name}\` | ${formatLimit(name)} | ${cell(l.where)} | ${cell(l.reason)} | ${cell(l.onHit)} |`;
  });
  return ['| limit | value | applies to | why this value | when a file crosses it |', '|---|---|---|---|---|', ...rows].join('\n');
}

test('SECURITY.md lists every limit of server/src/core/common/limits.ts, with its value, reason and consequence', () => {
  const path = join(repoRoot, 'SECURITY.md');
  const doc = readFileSync(path, 'utf8');
  const a = doc.indexOf(START);
  const b = doc.indexOf(END);
  assert.ok(a >= 0 && b > a, `SECURITY.md has no ${START} … ${END} section`);
  const current = doc.slice(a + START.length, b).trim();
  const expected = limitsTable();
  if (process.env.UPDATE_SECURITY && !process.env.CI && current !== expected) {
    writeFileSync(path, doc.slice(0, a + START.length) + '\n' + expected + '\n' + doc.slice(b));
    return;
  }
  assert.equal(current, expected, 'SECURITY.md is out of date: run UPDATE_SECURITY=1 node test/run.mjs limits-doc');
});
