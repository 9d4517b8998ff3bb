// docs/cli.md is what scripts/cli-reference.mjs makes from the built CLI's own help: a command or an
// option added without regenerating the page (`node scripts/cli-reference.mjs`) fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../helpers/projectRoot';

test('docs/cli.md equals the output of scripts/cli-reference.mjs (regenerate it with that script)', () => {
  const r = spawnSync(process.execPath, [join(projectRoot, 'scripts', 'cli-reference.mjs'), '--stdout'], { cwd: projectRoot, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const committed = readFileSync(join(projectRoot, 'docs', 'cli.md'), 'utf8');
  assert.ok(committed === r.stdout, 'docs/cli.md is stale: run `npm run build && node scripts/cli-reference.mjs`');
});

test('docs/cli.md has a section for every command the dispatcher lists, with its usage line', () => {
  const page = readFileSync(join(projectRoot, 'docs', 'cli.md'), 'utf8');
  const top = spawnSync(process.execPath, [join(projectRoot, 'bin', 'hailo-tools.js'), '--help'], { encoding: 'utf8' }).stdout;
  const commands = [...top.split('\ncommands:\n')[1].matchAll(/^ {2}([a-z][a-z-]*) {2,}/gm)].map((m) => m[1]);
  assert.ok(commands.length >= 16, top);
  for (const c of commands) {
    assert.match(page, new RegExp(`^## ${c}\\n\\n\`\`\`text\\nusage: hailo-tools ${c}`, 'm'), c);
  }
});
