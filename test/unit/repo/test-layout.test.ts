// The test tree mirrors the source (test/README.md): a unit test sits in test/unit/<domain>/, where
// <domain> is a folder of server/src/core/ or server/src/processes/, or cli, client, lsp or repo;
// test/unit/ holds test files only (helpers live in test/helpers/, stand-ins in test/fakes/); a
// test's file name is unique under test/unit/ (run filters and citations name one file); and every
// test, helper or fake a document or a comment cites exists. Each rule is shown to fire on a bad
// sample first, then run over the real tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { repoRoot } from '../../helpers/shared';

/** Folders of test/ whose *.test.ts files are not unit tests; each is flat. */
const SUITES = ['lsp', 'device', 'fuzz'];
/** Folders of test/unit/ that are not a source domain. */
const NOT_A_DOMAIN = ['cli', 'client', 'lsp', 'repo'];

/** The folders a unit test may sit in: the domains of server/src/core/ and server/src/processes/, and NOT_A_DOMAIN. */
export function unitFolders(root: string): Set<string> {
  const dirs = (p: string) => readdirSync(join(root, p)).filter((n) => statSync(join(root, p, n)).isDirectory());
  return new Set([...dirs('server/src/core'), ...dirs('server/src/processes'), ...NOT_A_DOMAIN]);
}

/** Every file under test/ the runner's walk visits (test/run.mjs: no fixtures, node_modules or dot folders), relative, with '/'. */
export function testTreeFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name === 'fixtures' || name === 'node_modules' || name.startsWith('.')) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.push(relative(root, p).split('\\').join('/'));
    }
  };
  walk(join(root, 'test'));
  return out;
}

/** What is out of place in `files` (paths under test/), one sentence each. */
export function layoutProblems(files: string[], folders: Set<string>): string[] {
  const problems: string[] = [];
  const where = new Map<string, string[]>();
  for (const f of files) {
    const parts = f.split('/');
    const isTest = f.endsWith('.test.ts');
    if (parts[1] === 'unit') {
      if (!isTest) problems.push(`${f}: test/unit/ holds only *.test.ts; a helper goes in test/helpers/, a stand-in in test/fakes/`);
      else if (parts.length !== 4) problems.push(`${f}: a unit test goes in test/unit/<domain>/ (test/README.md)`);
      else if (!folders.has(parts[2]))
        problems.push(`${f}: test/unit/${parts[2]}/ is not a folder of server/src/core/ or server/src/processes/, nor ${NOT_A_DOMAIN.join(', ')}`);
      if (isTest) where.set(parts[parts.length - 1], [...(where.get(parts[parts.length - 1]) ?? []), f]);
    } else if (isTest && (!SUITES.includes(parts[1]) || parts.length !== 3)) {
      problems.push(`${f}: a test goes in test/unit/<domain>/, ${SUITES.map((s) => `test/${s}/`).join(', ')} (test/README.md)`);
    }
  }
  for (const [name, paths] of where) if (paths.length > 1) problems.push(`${name}: one name, several unit tests (${paths.join(', ')})`);
  return problems;
}

const CITED = /(?<![\w/.-])test\/(?:unit|lsp|device|fuzz|helpers|fakes)\/[\w./-]*?\.(?:ts|mjs|js)\b/g;

/** The text of a file a citation can sit in: all of a Markdown file, the comments of a source file. */
export function citingText(path: string, text: string): string {
  if (path.endsWith('.md')) return text;
  const comment = path.endsWith('.py') || path.endsWith('.sh') ? /(?:^|\s)#(.*)$/ : /(?:^\s*\*|\/\/)(.*)$/;
  return text
    .split('\n')
    .map((l) => comment.exec(l)?.[1] ?? '')
    .join('\n');
}

/** Cited test paths that do not exist, each with the unit test of that name where there is one. */
export function staleCitations(files: { path: string; text: string }[], exists: (p: string) => boolean, unitTests: string[]): string[] {
  const stale: string[] = [];
  for (const { path, text } of files) {
    for (const m of citingText(path, text).matchAll(CITED)) {
      if (exists(m[0])) continue;
      const now = unitTests.filter((t) => basename(t) === basename(m[0]));
      stale.push(`${path} cites ${m[0]}${now.length === 1 ? ` (now ${now[0]})` : ''}`);
    }
  }
  return stale;
}

/** Files that cite tests: Markdown and sources outside dependencies, builds and fixtures. */
function citingFiles(root: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  const skip = new Set(['node_modules', 'out', 'dist', 'fixtures', 'fake-hailort']);
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (skip.has(name) || name.startsWith('.')) continue;
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(md|ts|mjs|js|py|sh)$/.test(name)) out.push({ path: relative(root, p).split('\\').join('/'), text: readFileSync(p, 'utf8') });
    }
  };
  walk(root);
  return out;
}

test('layout rules fire on bad samples', () => {
  const folders = new Set(['hef', 'cli']);
  assert.deepEqual(
    layoutProblems(
      [
        'test/unit/hef/hef-reader.test.ts',
        'test/unit/cli/cli-main.test.ts',
        'test/lsp/alls-lsp.test.ts',
        'test/helpers/shared.ts',
        'test/fakes/cliIO.ts',
        'test/e2e/run.mjs',
      ],
      folders,
    ),
    [],
  );
  const bad = layoutProblems(
    [
      'test/unit/loose.test.ts',
      'test/unit/nodomain/x.test.ts',
      'test/unit/hef/deep/y.test.ts',
      'test/unit/hef/helper.ts',
      'test/unit/hef/same.test.ts',
      'test/unit/cli/same.test.ts',
      'test/genai/z.test.ts',
      'test/lsp/sub/w.test.ts',
    ],
    folders,
  );
  for (const f of ['loose', 'nodomain', 'deep/y', 'helper.ts', 'same.test.ts: one name', 'test/genai/z', 'test/lsp/sub/w'])
    assert.ok(
      bad.some((p) => p.includes(f)),
      `missed ${f} in\n${bad.join('\n')}`,
    );
  assert.equal(bad.length, 7);

  const unitTests = ['test/unit/hef/hef-cli.test.ts'];
  const exists = (p: string) => p === 'test/unit/hef/hef-cli.test.ts';
  assert.deepEqual(
    staleCitations(
      [
        { path: 'docs/x.md', text: 'see `test/unit/hef-cli.test.ts` and test/unit/hef/hef-cli.test.ts and `test/unit/*/hostile-*.test.ts`' },
        { path: 'server/src/a.ts', text: "// checked by test/unit/gone.test.ts\nconst s = 'test/unit/x.ts';\n" },
        { path: 'scripts/g.py', text: '# test/helpers/none.ts\n' },
      ],
      exists,
      unitTests,
    ),
    [
      'docs/x.md cites test/unit/hef-cli.test.ts (now test/unit/hef/hef-cli.test.ts)',
      'server/src/a.ts cites test/unit/gone.test.ts',
      'scripts/g.py cites test/helpers/none.ts',
    ],
  );
});

test('every test sits where test/README.md puts it, and test/unit/ holds only tests with unique names', () => {
  const files = testTreeFiles(repoRoot);
  assert.ok(files.filter((f) => f.endsWith('.test.ts')).length > 100, `found only ${files.length} files`);
  assert.deepEqual(layoutProblems(files, unitFolders(repoRoot)), []);
});

test('every test, helper and fake that a document or comment cites exists', () => {
  const unitTests = testTreeFiles(repoRoot).filter((f) => f.startsWith('test/unit/') && f.endsWith('.test.ts'));
  // This file's own bad samples are not citations.
  const files = citingFiles(repoRoot).filter((f) => f.path !== 'test/unit/repo/test-layout.test.ts');
  const stale = staleCitations(files, (p) => existsSync(join(repoRoot, p)), unitTests);
  assert.deepEqual(stale, [], `\n${stale.join('\n')}`);
});
