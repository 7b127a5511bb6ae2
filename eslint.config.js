// ESLint flat config: typescript-eslint's recommended rules for TypeScript, eslint-plugin-svelte for the
// Svelte 5 components, and eslint-config-prettier last so formatting is left to Prettier alone.
import js from '@eslint/js';
import ts from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

export default ts.config(
  { ignores: ['dist/', 'node_modules/', 'test/models/', 'reports/', 'bench/out/', 'test-results/', 'playwright-report/', 'dev-dist/'] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs['flat/recommended'],
  prettier,
  ...svelte.configs['flat/prettier'],
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node, ...globals.worker } },
    rules: {
      // `_`-prefixed names are deliberately unused (positional parameters, destructured leftovers).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // `cond ? a++ : b++` and `x && f()` are the house style for counting and guarded calls.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      // Control characters in patterns are deliberate: Python's whitespace set, terminal escapes in hostile data.
      'no-control-regex': 'off',
    },
  },
  {
    // No import cycles between the project's modules (src/tree.test.ts also follows type-only imports, which
    // this rule leaves out).
    files: ['src/**/*.ts', 'workers/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json'] })],
      // The modules a file imports are read with the TypeScript parser too (else their imports are not followed).
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js', '.mjs'],
    },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      // Layers point one way: core → runtime → session → app and cli (workers host the session). A module imports
      // only from its own layer and the ones below it.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            { target: './src/core', from: ['./src/runtime', './src/session', './src/app', './src/cli', './workers'] },
            { target: './src/runtime', from: ['./src/session', './src/app', './src/cli', './workers'] },
            { target: './src/session', from: ['./src/app', './src/cli', './workers'] },
            { target: './src/cli', from: ['./src/app', './workers'] },
            { target: './src/app', from: ['./src/cli'] },
          ],
        },
      ],
    },
  },
  {
    // The same layers for components: a .svelte file imports nothing from the CLI or the workers (import cycles are
    // the .ts rule's: components are leaves).
    files: ['src/**/*.svelte'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs', '.json', '.svelte'] })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [{ target: './src/app', from: ['./src/cli', './workers'] }] }],
    },
  },
  {
    // One error convention at the session's edge: what it refuses is a VerityError with a code (core/types.ts),
    // which settle() (core/errors.ts) turns into the { ok: false, error } the page gets.
    files: ['src/session/**/*.ts', 'workers/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "ThrowStatement > NewExpression[callee.name='Error']",
          message: 'Throw a VerityError with a kind and a code (core/types.ts), not a plain Error.',
        },
      ],
    },
  },
  {
    // One input pipeline: the surfaces read files through core/io/prepare.ts (prepareInput, planInput), never by
    // calling its steps themselves.
    files: ['src/cli/**/*.ts', 'src/app/**/*.ts', 'src/app/**/*.svelte', 'src/session/**/*.ts', 'workers/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/core/io/fields.ts', '**/core/io/gold-separator.ts'],
              importNames: ['chooseGoldSeparator', 'createRowMapper', 'detectGoldSeparator'],
              message: 'Plan the input with planInput or prepareInput (core/io/prepare.ts), as every surface does.',
            },
          ],
        },
      ],
    },
  },
  {
    // A test may set up what its module needs from any layer (WordNet from the runtime, the app's presets).
    files: ['**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': 'off' },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: ['.svelte'] } },
    rules: {
      // Keyed each blocks throw on a repeated key, and the lists here are replaced whole (columns, issues, rows
      // of a page) and may repeat values (two columns with one name): unkeyed is the safe choice.
      'svelte/require-each-key': 'off',
    },
  },
);
