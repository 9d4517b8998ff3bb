// `npm run lint` (part of `npm test`): typescript-eslint with type information, a few rules that
// catch real bugs here and nothing about style (formatting is not the linter's job):
// - no-floating-promises / no-misused-promises: a promise nobody awaits loses its rejection (an
//   unhandled rejection ends the server); `void` marks the ones left running on purpose, with a
//   comment saying why. node:test's test()/describe() are awaited by the runner itself.
// - no-explicit-any: types instead of `any` (decoded protobuf messages have interfaces for the
//   fields read; `unknown` + narrowing elsewhere).
// - no-require-imports: imports are bundled; a require() is a run-time load that must say why.
// - no-restricted-imports: the client reaches the server side only through `@hailo/api`.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'out/**', 'node_modules/**', 'test/e2e/.cache/**', 'test/fixtures/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  {
    files: ['server/src/**/*.ts', 'client/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { project: ['./tsconfig.json', './client/webview/tsconfig.json'], tsconfigRootDir: import.meta.dirname },
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
  {
    files: ['client/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)server/src(/|$)', message: 'The client imports the server side only through @hailo/api (server/src/api.ts).' }] },
      ],
    },
  },
);
