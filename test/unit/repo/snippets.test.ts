// Every snippet, expanded with each of its choices, must be a script our checker accepts without
// an error: a snippet that inserts a broken statement would teach users the wrong thing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkText } from '../../../server/src/core/alls';
import { resolveSettings } from '../../../server/src/core/common/settings';
import { repoRoot } from '../../helpers/shared';

interface Snippet {
  prefix: string | string[];
  body: string[];
  description: string;
}

const snippets: Record<string, Snippet> = JSON.parse(readFileSync(join(repoRoot, 'snippets', 'alls.json'), 'utf8'));

/** Expand VS Code snippet syntax; `pick(i)` chooses among the options of each `${n|a,b|}`. */
function expand(body: string, pick: (options: string[]) => string): string {
  return body
    .replace(/\$\{\d+\|([^|]*)\|\}/g, (_m, opts: string) => pick(opts.split(',')))
    .replace(/\$\{\d+:((?:\\\}|[^}])*)\}/g, (_m, def: string) => def.replace(/\\\}/g, '}'))
    .replace(/\$\d+/g, '');
}

function choiceSets(body: string): string[][] {
  return [...body.matchAll(/\$\{\d+\|([^|]*)\|\}/g)].map((m) => m[1].split(','));
}

for (const [name, s] of Object.entries(snippets)) {
  test(`snippet "${name}" expands to error-free statements for every choice`, () => {
    assert.ok(s.description.length > 10, 'every snippet says what it does');
    const body = s.body.join('\n');
    const sets = choiceSets(body);
    const variants = Math.max(1, ...sets.map((c) => c.length));
    for (let v = 0; v < variants; v++) {
      const text = expand(body, (opts) => opts[Math.min(v, opts.length - 1)]) + '\n';
      assert.doesNotMatch(text, /\$\{|\$\d/, `unexpanded placeholder in ${text}`);
      const errors = checkText(text, { settings: resolveSettings({ hwArch: 'hailo10h' }) }).filter((d) => d.severity === 'error');
      assert.deepEqual(
        errors.map((e) => `${e.code}: ${e.message}`),
        [],
        text,
      );
    }
  });
}

test('snippets: the expander handles defaults, choices and escaped braces (control)', () => {
  assert.equal(
    expand('q(${1:{conv*\\}}, p=${2|a,b|})$0', (o) => o[1]),
    'q({conv*}, p=b)',
  );
});
