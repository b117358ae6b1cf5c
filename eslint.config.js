// Flat config. Layer rules mirror the dependency table of the architecture guide: core is pure, only the
// adapter factories touch drivers, edges never reach into a backend directly.
import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import nodePlugin from 'eslint-plugin-n';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import unicorn from 'eslint-plugin-unicorn';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const edges = ['./src/mcp', './src/hooks', './src/web'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.tmp/**'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: {
        project: ['./tsconfig.test.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: {
      'import-x': importX,
      'simple-import-sort': simpleImportSort,
      unicorn,
      n: nodePlugin,
    },
    settings: {
      'import-x/resolver-next': [
        createTypeScriptImportResolver({ project: './tsconfig.test.json' }),
      ],
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      'n/prefer-node-protocol': 'error',
      'unicorn/filename-case': ['error', { case: 'kebabCase' }],
      'max-lines': ['warn', { max: 400, skipBlankLines: true, skipComments: true }],
    },
  },
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-console': 'error',
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/core',
              from: [
                './src/ports',
                './src/store',
                './src/retrieval',
                './src/app',
                './src/cli',
                './src/config',
                './src/log',
                './src/embed',
                ...edges,
              ],
              message: 'core/ is pure: it imports only core/.',
            },
            {
              target: './src/ports',
              from: [
                './src/store',
                './src/retrieval',
                './src/app',
                './src/cli',
                './src/config',
                './src/log',
                './src/embed',
                ...edges,
              ],
              message: 'ports/ holds interfaces only and may import core/ types.',
            },
            {
              target: './src/retrieval',
              from: [
                './src/store/sqlite',
                './src/store/postgres',
                './src/app',
                './src/cli',
                ...edges,
              ],
              message: 'retrieval/ is backend-agnostic: use the MemoryStore port.',
            },
            {
              target: './src/store/sqlite',
              from: ['./src/store/postgres', './src/app', './src/cli', './src/retrieval', ...edges],
              message: 'A store adapter imports core/, ports/, store/store.ts and its driver only.',
            },
            {
              target: './src/store/postgres',
              from: ['./src/store/sqlite', './src/app', './src/cli', './src/retrieval', ...edges],
              message: 'A store adapter imports core/, ports/, store/store.ts and its driver only.',
            },
            {
              target: './src/platform',
              from: [
                './src/store',
                './src/app',
                './src/cli',
                './src/engine',
                './src/spool',
                ...edges,
              ],
              message: 'platform/ (private files, pid locks) imports core/ only.',
            },
            {
              target: './src/write',
              from: [
                './src/capture',
                './src/spool',
                './src/engine',
                './src/transcripts',
                './src/cli',
                ...edges,
              ],
              message:
                'write/ is the write service: every writer imports it, it imports no writer.',
            },
            {
              target: './src/capture',
              from: ['./src/spool', './src/engine', './src/transcripts', './src/cli', ...edges],
              message:
                'capture/ is shared by hooks, the spool drain, the engine and the transcript import; ' +
                'it imports none of them.',
            },
            {
              target: ['./src/spool', './src/transcripts'],
              from: ['./src/engine', './src/cli', ...edges],
              message: 'spool/ and transcripts/ sit below the hooks and the engine that use them.',
            },
            {
              target: './src/engine',
              // The web viewer is the one edge the engine hosts (engine-web.ts), as the CLI does.
              from: ['./src/cli', './src/mcp', './src/hooks'],
              message: 'engine/ serves hooks and MCP; it never imports them.',
            },
            {
              target: './src/pages',
              from: ['./src/store/sqlite', './src/store/postgres', './src/cli', ...edges],
              message:
                'pages/ is shared by the CLI, MCP, the web viewer and session start: the store port and the write service, no edge.',
            },
            {
              target: './src/review',
              from: ['./src/store/sqlite', './src/store/postgres', './src/cli', ...edges],
              message:
                'review/ is shared by the human channels (CLI, web): the MemoryStore port only, no edge.',
            },
            {
              target: edges,
              from: ['./src/store/sqlite', './src/store/postgres', './src/cli'],
              message:
                'Edges reach the store through app/ and the MemoryStore port, never a backend.',
            },
          ],
        },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'better-sqlite3',
              message: 'Only src/store/sqlite/open-sqlite-store.ts may import better-sqlite3.',
            },
            {
              name: 'sqlite-vec',
              message: 'Only src/store/sqlite/open-sqlite-store.ts may load sqlite-vec.',
            },
            {
              name: 'pg',
              message: 'Only src/store/postgres/open-postgres-store.ts may import pg.',
            },
          ],
        },
      ],
    },
  },
  {
    // The web viewer's front end: browser code, type-checked against its own DOM tsconfig.
    files: ['src/web/ui/src/**/*.ts', 'src/web/ui/src/**/*.tsx'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: {
        project: ['./src/web/ui/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: { 'no-console': 'error' },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['node:*', 'fs', 'path', 'os', 'crypto', 'child_process'],
              message: 'core/ is pure: no node:* or I/O.',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        { name: 'Date', message: 'core/ takes time as a parameter (ports/clock.ts).' },
        { name: 'process', message: 'core/ has no process access.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'core/ has no randomness.' },
      ],
    },
  },
  {
    files: ['src/store/sqlite/open-sqlite-store.ts', 'src/store/postgres/open-postgres-store.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['src/cli/**/*.ts', 'scripts/**', 'bench/**', 'test/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.test.ts', 'test/**/*.ts'],
    rules: {
      'no-restricted-imports': 'off',
      'max-lines': ['warn', { max: 800, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
  },
);
