// Comments cite what a reader can open: a public URL or a file in the repository. Every `*.md` a
// comment in the product's code names (server/src, client/src, driver, native, scripts) must exist —
// resolved from the repository root, docs/ or docs/research/ — and a `#anchor` after it must be a
// heading of that file, not a section number (`§3.5`) of a note. Research notes that live only beside the repository (../shared/docs) fail
// here: their facts belong in docs/research/ with their public sources (CONTRIBUTING.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../../helpers/shared';
import { anchorsOf, slugOf } from '../../helpers/headings';

const ROOTS = ['server/src', 'client/src', 'driver', 'native', 'scripts'];
const CODE = /\.(?:ts|mts|cts|js|mjs|cjs|cpp|cc|hpp|h|py)$/;
/** Where a cited name is looked up, in order. */
const BASES = ['', 'docs', 'docs/research'];

function* sourceFiles(dir: string): Generator<string> {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* sourceFiles(path);
    else if (CODE.test(name)) yield path;
  }
}

/** The comments of a file, each with the line it starts on: `//` and block comments (JS/TS/C++), or
 *  `#` comments and triple-quoted strings (Python). String literals are skipped; a quote left open at
 *  the end of a line (a regular expression holding one) closes there. */
export function commentsOf(text: string, python: boolean): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let line = 1;
  let i = 0;
  const take = (start: number, end: number, startLine: number) => out.push({ line: startLine, text: text.slice(start, end) });
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (python && (text.startsWith('"""', i) || text.startsWith("'''", i))) {
      const q = text.slice(i, i + 3);
      const end = text.indexOf(q, i + 3);
      const stop = end < 0 ? text.length : end + 3;
      take(i + 3, end < 0 ? text.length : end, line);
      line += text.slice(i, stop).split('\n').length - 1;
      i = stop;
    } else if ((python && c === '#') || (!python && text.startsWith('//', i))) {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      take(i, stop, line);
      i = stop;
    } else if (!python && text.startsWith('/*', i)) {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      take(i, stop, line);
      line += text.slice(i, stop).split('\n').length - 1;
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      let j = i + 1;
      while (j < text.length && text[j] !== c && (c === '`' || text[j] !== '\n')) {
        if (text[j] === '\\') j++;
        j++;
      }
      line += text.slice(i, j).split('\n').length - 1;
      i = j < text.length && text[j] === c ? j + 1 : j;
    } else i++;
  }
  return out;
}

/** `*.md` names in a comment with their `#anchor`, leaving out URLs and templates (`${dir}/X.md`,
 *  `<name>.md`, `OUT_DIR/X.md`: a placeholder names no file). */
export function citationsIn(comment: string): { path: string; anchor?: string; section?: string }[] {
  const noUrls = comment.replace(/\b[a-z][a-z+.-]*:\/\/\S+/gi, ' ');
  const found: { path: string; anchor?: string; section?: string }[] = [];
  for (const m of noUrls.matchAll(/(?<![\w./$}>*-])((?:[\w.-]+\/)*[\w.-]*\w\.md)\b(#[\w-]+)?(\s*§\s?[\d.]+)?/g)) {
    if (/^[A-Z][A-Z0-9_]*\//.test(m[1])) continue;
    found.push({ path: m[1], anchor: m[2]?.slice(1), section: m[3]?.trim() });
  }
  return found;
}

function resolve(path: string): string | undefined {
  for (const base of BASES) {
    const full = join(repoRoot, base, path);
    if (existsSync(full) && statSync(full).isFile()) return full;
  }
  return undefined;
}

/** Every broken citation under the given roots, as `file:line: what`. */
export function brokenCitations(roots: string[]): string[] {
  const broken: string[] = [];
  for (const root of roots) {
    for (const file of sourceFiles(join(repoRoot, root))) {
      const rel = relative(repoRoot, file);
      for (const c of commentsOf(readFileSync(file, 'utf8'), file.endsWith('.py'))) {
        for (const cite of citationsIn(c.text)) {
          const target = resolve(cite.path);
          if (!target) broken.push(`${rel}:${c.line}: ${cite.path} is not in the repository`);
          else if (cite.section) broken.push(`${rel}:${c.line}: ${cite.path} ${cite.section}: name the section by its heading's #anchor`);
          else if (cite.anchor && !anchorsOf(target).has(cite.anchor)) broken.push(`${rel}:${c.line}: ${cite.path} has no heading #${cite.anchor}`);
        }
      }
    }
  }
  return broken;
}

test('citations: the comment reader finds comments, not strings or URLs', () => {
  const ts = commentsOf('const a = \'x.md // no\'; // see docs/cli.md\n/* a\n b.md */ const u = "http://x/y.md";', false);
  assert.deepEqual(
    ts.map((c) => [c.line, c.text]),
    [
      [1, '// see docs/cli.md'],
      [2, '/* a\n b.md */'],
    ],
  );
  const py = commentsOf('x = "#not.md"  # dfc-flow.md\n"""doc\nhef-format.md"""\n', true);
  assert.deepEqual(
    py.map((c) => [c.line, c.text]),
    [
      [1, '# dfc-flow.md'],
      [2, 'doc\nhef-format.md'],
    ],
  );
  assert.deepEqual(citationsIn('(docs/research/dfc-flow.md#environment; https://github.com/onnx/onnx/blob/main/docs/Operators.md)'), [
    { path: 'docs/research/dfc-flow.md', anchor: 'environment', section: undefined },
  ]);
  assert.deepEqual(citationsIn('../shared/docs/hef-format.md §2, `${FIXTURES}/SOURCES.md`, OUT_DIR/SOURCES.md, <net>.md'), [
    { path: '../shared/docs/hef-format.md', anchor: undefined, section: '§2' },
  ]);
  assert.equal(slugOf('Architecture (`hailo.hwArch`, `--hw-arch`)'), 'architecture-hailohwarch---hw-arch');
});

test('citations: every .md a comment names is in the repository, with the heading it names', () => {
  const broken = brokenCitations(ROOTS);
  assert.deepEqual(broken, [], `comments cite files or headings the repository lacks:\n${broken.join('\n')}`);
});
