// No module of server/src or client/src reaches itself through its imports, type-only imports
// included (scripts/import-cycles.mjs; ARCHITECTURE.md "No import cycles"): a type two modules share
// lives in their folder's types.ts, not in one of its consumers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importCycles, stronglyConnected } from '../../../scripts/import-cycles.mjs';
import { repoRoot } from '../../helpers/shared';

test('server/src and client/src have no import cycle (type-only imports count)', () => {
  const cycles = importCycles(['server/src', 'client/src'], repoRoot);
  assert.deepEqual(cycles, [], `import cycles:\n${cycles.map((c) => c.join(' ↔ ')).join('\n')}`);
});

test('the finder reports a type-only cycle, an export-from cycle and a self-import, and nothing acyclic', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
  try {
    mkdirSync(join(dir, 'a'));
    mkdirSync(join(dir, 'b'));
    // a/x ↔ a/y only through a type import; b/p → b/q → b/r → b/p through export-from and an index.
    writeFileSync(join(dir, 'a', 'x.ts'), "import type { Y } from './y';\nexport interface X { y: Y }\n");
    writeFileSync(join(dir, 'a', 'y.ts'), "import { type X } from './x';\nexport interface Y { x?: X }\n");
    writeFileSync(join(dir, 'a', 'z.ts'), "import type { X } from './x';\nexport const z = (x: X) => x;\n");
    writeFileSync(join(dir, 'b', 'p.ts'), "export * from './q';\n");
    mkdirSync(join(dir, 'b', 'q'));
    writeFileSync(join(dir, 'b', 'q', 'index.ts'), "export { r } from '../r';\n");
    writeFileSync(join(dir, 'b', 'r.ts'), "import './p';\nexport const r = 1;\n");
    writeFileSync(join(dir, 'b', 's.ts'), "import { s } from './s';\nexport { s as t };\nexport const s = 1;\n");
    writeFileSync(join(dir, 'b', 'free.ts'), "import { r } from './r';\nimport ts from 'typescript';\nexport const f = [r, ts];\n");
    assert.deepEqual(importCycles(['a', 'b'], dir), [['a/x.ts', 'a/y.ts'], ['b/p.ts', 'b/q/index.ts', 'b/r.ts'], ['b/s.ts']]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('two cycles joined through one module are one component', () => {
  const g = new Map([
    ['a', ['b']],
    ['b', ['a', 'c']],
    ['c', ['d']],
    ['d', ['b']],
    ['e', ['a']],
  ]);
  assert.deepEqual(stronglyConnected(g), [['a', 'b', 'c', 'd']]);
});
