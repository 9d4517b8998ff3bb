// The README is the front door (issue 34): short, the two commands exactly as CI runs them, and a
// link to every page of the manual in docs/. Every relative link in the README, the contributor
// docs and docs/ leads to a file of the repository, and a `#anchor` to one of its headings.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { repoRoot } from '../../helpers/shared';
import { anchorsOf } from '../../helpers/headings';

const readme = readFileSync(join(repoRoot, 'README.md'), 'utf8');

function markdownFiles(): string[] {
  const files = ['README.md', 'CONTRIBUTING.md', 'ARCHITECTURE.md', 'SECURITY.md', 'CHANGELOG.md'].map((f) => join(repoRoot, f));
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.md')) files.push(path);
    }
  };
  walk(join(repoRoot, 'docs'));
  return files;
}

test('README: a front door of at most 180 lines', () => {
  const lines = readme.split('\n').length;
  assert.ok(lines <= 180, `README.md has ${lines} lines; details go to docs/`);
});

test('README: the two commands exactly as .ci/run runs them', () => {
  const ci = readFileSync(join(repoRoot, '.ci', 'run'), 'utf8').split('\n');
  for (const command of ['npm install && npm start', 'npm test']) {
    assert.ok(ci.includes(command), `.ci/run runs \`${command}\``);
    assert.ok(
      readme.split('\n').some((l) => l === command || l.startsWith(command + '  ')),
      `README.md shows \`${command}\` on a line of its own`,
    );
  }
});

test('README: the feature table links every page of docs/', () => {
  const pages = readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md'));
  assert.ok(pages.length >= 20, pages.join(' '));
  const missing = pages.filter((p) => !readme.includes(`(docs/${p})`) && !readme.includes(`(docs/${p}#`));
  assert.deepEqual(missing, [], 'pages of docs/ the README does not link');
  assert.match(readme, /\(docs\/run-on-device\.md\)/);
});

test('docs: every relative link leads to a file of the repository and an existing heading', () => {
  const broken: string[] = [];
  for (const file of markdownFiles()) {
    let text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
    text = text.replace(/`[^`\n]*`/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1];
      if (/^[a-z][a-z+.-]*:/i.test(target)) continue;
      const [path, anchor] = target.split('#');
      const full = path ? join(dirname(file), decodeURI(path)) : file;
      const where = relative(repoRoot, file);
      if (!existsSync(full)) broken.push(`${where}: ${target} (no such file)`);
      else if (anchor && full.endsWith('.md') && !anchorsOf(full).has(anchor)) broken.push(`${where}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
});

test('docs: every command the extension contributes is described on a page of docs/', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
    contributes: { commands: { command: string; title: string; category?: string }[] };
  };
  const pages = readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => readFileSync(join(repoRoot, 'docs', f), 'utf8').replace(/\s+/g, ' '))
    .join('\n');
  const undocumented = pkg.contributes.commands.map((c) => `${c.category ? `${c.category}: ` : ''}${c.title}`).filter((title) => !pages.includes(title));
  assert.deepEqual(undocumented, [], 'commands no page of docs/ names');
});
