// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**', 'src/database/migrations/**', 'src/openapi-metadata.ts', 'clients/**', '*.js', '*.mjs'] },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  prettier,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // Plain CommonJS scripts that run before anything is compiled.
    files: ['scripts/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly', Buffer: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // One reader of the environment: the config module's schema (src/config).
    files: ['src/**/*.ts', 'libs/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['src/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/config (Env, loadEnv).' },
      ],
    },
  },
  {
    // One clock and one scheduler (issue 36): the time is the injected Clock's (tests move it),
    // periodic work is `@Scheduled`/`@Retention`, a lease's renewal is `repeatEvery`.
    files: ['src/**/*.ts'],
    ignores: [
      'src/common/time/clock.ts',
      'src/common/time/repeat.ts',
      'src/scheduler/**',
      '**/*.spec.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'Read the time from the injected Clock (src/common/time/clock.ts).' },
        { selector: "MemberExpression[object.name='Date'][property.name='now']", message: 'Read the time from the injected Clock (src/common/time/clock.ts).' },
        { selector: "CallExpression[callee.name='Date']", message: 'Read the time from the injected Clock (src/common/time/clock.ts).' },
        { selector: "Identifier[name='setInterval']", message: 'Periodic work is @Scheduled/@Retention (src/scheduler); a lease renewal is repeatEvery.' },
      ],
      'no-restricted-imports': ['error', { paths: [{ name: '@nestjs/schedule', message: 'Use @Scheduled/@Retention from src/scheduler.' }] }],
    },
  },
  {
    files: ['test/**/*.ts', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
