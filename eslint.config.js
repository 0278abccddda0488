// Lint rules: typescript-eslint's recommended set, plus the house rule that library code throws
// EngramError (or a subclass), never a bare Error, and that SQL on SQLite binds no bare LIMIT ?.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NO_BARE_ERROR = {
  selector: "ThrowStatement > NewExpression[callee.name='Error']",
  message: 'Throw an EngramError (src/spec/errors.ts) with a code and field, not a bare Error.',
};

export default tseslint.config(
  {
    ignores: [
      '.dependency-cruiser.cjs',
      'dist/',
      'node_modules/',
      'coverage/',
      'scratch/',
      'bench/results/',
      '.engram/',
      '.test-build-*/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': ['error', NO_BARE_ERROR],
      'no-console': 'error',
    },
  },
  {
    // SQL run on SQLite binds a row limit through BOUND_LIMIT (src/storage/shared/rows.ts): a bare
    // `LIMIT ?` makes SQLite compile the statement again on every run.
    files: ['src/storage/sqlite/**/*.ts', 'src/storage/shared/**/*.ts'],
    ignores: ['src/**/*.test.ts'],
    rules: {
      // Replaces the list above for these files, so it repeats the bare-Error rule.
      'no-restricted-syntax': [
        'error',
        NO_BARE_ERROR,
        {
          selector: 'TemplateElement[value.raw=/LIMIT\\s+\\?/i], Literal[value=/LIMIT\\s+\\?/i]',
          message:
            'Bind a row limit with ${BOUND_LIMIT} (src/storage/shared/rows.ts): SQLite recompiles a statement with a bare LIMIT ? on every run.',
        },
      ],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
