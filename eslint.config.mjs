// `npm run lint` (part of `npm test`): typescript-eslint with type information, a few rules that
// catch real bugs here and nothing about style (formatting is not the linter's job):
// - no-floating-promises / no-misused-promises: a promise nobody awaits loses its rejection (an
//   unhandled rejection ends the server); `void` marks the ones left running on purpose, with a
//   comment saying why. node:test's test()/describe() are awaited by the runner itself.
// - no-explicit-any: types instead of `any` (decoded protobuf messages have interfaces for the
//   fields read; `unknown` + narrowing elsewhere).
// - no-require-imports: imports are bundled; a require() is a run-time load that must say why.
// - no-restricted-imports: the client reaches the server side only through `@hailo/api`.
// - @typescript-eslint/no-restricted-imports: node:fs only in the confined file layer and the short
//   list in scripts/fs-allowlist.mjs (issue 29); nor the layer's root-less path functions elsewhere.
// - no-restricted-syntax (client/src): a webview's page is set only through client/src/webview/showPage.ts,
//   which never replaces a page that is still loading (VS Code's webview host can then keep the old one).
import tseslint from 'typescript-eslint';
import { FS_ALLOWED, UNCONFINED_FILE_ACCESS } from './scripts/fs-allowlist.mjs';

const FS_MESSAGE =
  'Files a folder, a file or a setting names are reached only through the confined file layer (FileRoots, server/src/core/common/confined.ts; SECURITY.md). A path that is not folder-derived goes in scripts/fs-allowlist.mjs with its reason.';

/** issue 29's spread calls (see the block that uses them). */
const SPREAD_CALLS = [
  {
    selector: "CallExpression[callee.object.name='Math'][callee.property.name=/^(min|max)$/] > SpreadElement",
    message: 'Math.min/max(...xs) overflows the stack on a large array: use minOf/maxOf (server/src/core/common/arrays.ts) or a loop.',
  },
  {
    selector: "CallExpression[callee.property.name='push'] > SpreadElement",
    message: 'push(...xs) overflows the stack on a large array: use pushAll (server/src/core/common/arrays.ts) or a loop.',
  },
];

/** Any `x.html = …` / `x['html'] = …` (a webview's page). */
const PAGE_SET = {
  selector: "AssignmentExpression > MemberExpression.left[property.name='html'], AssignmentExpression > MemberExpression.left[property.value='html']",
  message:
    "A webview's page is set only through showPage (client/src/webview/showPage.ts): it never replaces a page that is still loading, which VS Code's webview host can lose.",
};

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test/e2e/.cache/**', 'test/fixtures/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['server/src/**/*.ts', 'client/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: ['./tsconfig.json', './client/src/webview/pages/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-require-imports': 'error',
    },
  },
  // issue 29: an array a file sized never goes into a call as arguments — `Math.min(...xs)` and
  // `push(...xs)` overflow the stack past about 10⁵ elements (a million-entry SNR list lost the HAR
  // view's column; 400,000 dpkg rows crashed the doctor). server/src/core/common/arrays.ts has the loops.
  {
    files: ['server/src/**/*.ts', 'client/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...SPREAD_CALLS] },
  },
  // A later block's no-restricted-syntax replaces the one above for its files, so it repeats SPREAD_CALLS.
  {
    files: ['client/src/**/*.ts'],
    ignores: ['client/src/webview/showPage.ts'],
    rules: { 'no-restricted-syntax': ['error', ...SPREAD_CALLS, PAGE_SET] },
  },
  {
    files: ['client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)server/src(/|$)', message: 'The client imports the server side only through @hailo/api (server/src/api.ts).' }] },
      ],
    },
  },
  // layout rules (issue 25): core/ is the engine's pure half — it imports nothing from processes/ or the
  // front-ends (lsp/, cli/, server.ts, api.ts); processes/ never imports a front-end. Relative
  // specifiers name the folder they cross into, so the folder name is enough to match.
  {
    files: ['server/src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(processes|lsp|cli)(/|$)',
              message: 'core/ is pure: it imports nothing from processes/, lsp/ or cli/ (ARCHITECTURE.md: folders and import rules).',
            },
            {
              regex: '^(\\.\\./)+(api|server|protocol)$',
              message: 'core/ does not import the front-ends or the LSP protocol (ARCHITECTURE.md: folders and import rules).',
            },
            { regex: '^vscode', message: 'core/ is editor-neutral: no vscode* package.' },
          ],
        },
      ],
    },
  },
  {
    files: ['server/src/processes/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '(^|/)(lsp|cli)(/|$)', message: 'processes/ never imports a front-end (lsp/, cli/) (ARCHITECTURE.md: folders and import rules).' },
            { regex: '^(\\.\\./)+(api|server)$', message: 'processes/ never imports a front-end (ARCHITECTURE.md: folders and import rules).' },
            { regex: '^vscode', message: 'processes/ is editor-neutral: no vscode* package.' },
          ],
        },
      ],
    },
  },
  // The confined file layer (issue 29): no node:fs outside it (type-only imports are fine: a type opens nothing).
  {
    files: ['server/src/**/*.ts', 'client/src/**/*.ts'],
    ignores: FS_ALLOWED.map((a) => a.path),
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: ['fs', 'node:fs', 'fs/promises', 'node:fs/promises'].map((name) => ({ name, message: FS_MESSAGE, allowTypeImports: true })),
          patterns: [
            {
              group: ['**/fileAccess', '@hailo/api'],
              importNames: UNCONFINED_FILE_ACCESS,
              message: 'A path a folder names is opened through FileRoots (server/src/core/common/confined.ts), which checks it against its roots.',
            },
          ],
        },
      ],
    },
  },
);
