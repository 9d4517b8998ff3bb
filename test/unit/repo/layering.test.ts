// The folder rules of ARCHITECTURE.md, checked on the sources: the client reaches the server side
// only through `@hailo/api` (server/src/api.ts), and the pure cores import no `vscode*` package.
// Each rule is a function over source text, shown to fire on a bad sample first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { repoRoot } from '../../helpers/shared';
import { sourceFiles, stripComments, type SourceFile } from '../../helpers/securityScan';

const IMPORT = /(?:\bfrom\s+|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm;

function importsOf(f: SourceFile): { spec: string; line: number }[] {
  const text = stripComments(f.text);
  return [...text.matchAll(IMPORT)].map((m) => ({ spec: m[1], line: text.slice(0, m.index).split('\n').length }));
}

/** Client files that import a server file by path instead of `@hailo/api`. */
export function clientReachesIntoServer(files: SourceFile[]): string[] {
  return files
    .filter((f) => f.path.startsWith('client/'))
    .flatMap((f) =>
      importsOf(f)
        .filter((i) => /(^|\/)server\/src(\/|$)/.test(i.spec))
        .map((i) => `${f.path}:${i.line} ${i.spec}`),
    );
}

const CORES = /^server\/src\/(?!lsp\/|cli\/|api\.ts$|protocol\.ts$|server\.ts$)/;

/** Core files (everything under server/src but lsp/, cli/ and the entry modules) importing vscode*. */
export function coreImportsVscode(files: SourceFile[]): string[] {
  return files
    .filter((f) => CORES.test(f.path))
    .flatMap((f) =>
      importsOf(f)
        .filter((i) => /^vscode(-|$)/.test(i.spec))
        .map((i) => `${f.path}:${i.line} ${i.spec}`),
    );
}

test('layering rules fire on bad samples', () => {
  const bad: SourceFile[] = [
    { path: 'client/src/x.ts', text: "import { readHef } from '../../server/src/core/hef';\nconst y = require('../../../server/src/cli/main');\n" },
    {
      path: 'server/src/core/hef/x.ts',
      text: "import type { Diagnostic } from 'vscode-languageserver';\n// import * as vscode from 'vscode' in a comment is fine\n",
    },
  ];
  assert.deepEqual(clientReachesIntoServer(bad), ['client/src/x.ts:1 ../../server/src/core/hef', 'client/src/x.ts:2 ../../../server/src/cli/main']);
  assert.deepEqual(coreImportsVscode(bad), ['server/src/core/hef/x.ts:1 vscode-languageserver']);
  const good: SourceFile[] = [
    { path: 'client/src/x.ts', text: "import { readHef } from '@hailo/api';\n" },
    { path: 'server/src/lsp/x.ts', text: "import { TextDocuments } from 'vscode-languageserver/node';\n" },
    { path: 'server/src/protocol.ts', text: "import { RequestType } from 'vscode-languageserver-protocol';\n" },
  ];
  assert.deepEqual([...clientReachesIntoServer(good), ...coreImportsVscode(good)], []);
});

test('layering: the client imports the server side only through @hailo/api', () => {
  assert.deepEqual(clientReachesIntoServer(sourceFiles(repoRoot, ['client'])), []);
});

test('layering: the pure cores import no vscode* package', () => {
  assert.deepEqual(coreImportsVscode(sourceFiles(repoRoot, ['server'])), []);
});
