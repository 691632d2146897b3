// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Files no package lints. */
const ignored = {
  name: 'ipamkit/ignores',
  ignores: ['**/dist/**', '**/node_modules/**', '**/coverage/**', '**/.nx/**', '**/*.config.*', '**/fixtures/**', 'vitest.shared.mts'],
};

/** typescript-eslint strict type-checked, for every TypeScript file. */
const typescript = tseslint.config({
  name: 'ipamkit/typescript',
  files: ['**/*.ts', '**/*.mts'],
  extends: [js.configs.recommended, ...tseslint.configs.strictTypeChecked],
  languageOptions: {
    parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
  },
  rules: {
    '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true, allowNullish: false }],
    '@typescript-eslint/no-confusing-void-expression': 'off',
    '@typescript-eslint/no-unnecessary-condition': ['error', { allowConstantLoopConditions: true }],
  },
});

/** Tests may poke at internals and use non-null assertions on values they just asserted. */
const tests = {
  name: 'ipamkit/tests',
  files: ['**/*.test.ts', '**/tests/**/*.ts', '**/bench/**/*.ts'],
  rules: {
    '@typescript-eslint/no-non-null-assertion': 'off',
    '@typescript-eslint/no-unsafe-member-access': 'off',
    '@typescript-eslint/no-unsafe-assignment': 'off',
    '@typescript-eslint/no-unsafe-call': 'off',
    '@typescript-eslint/no-unsafe-argument': 'off',
    '@typescript-eslint/no-floating-promises': 'error',
  },
};

/** Plain JavaScript scripts (scripts/, .mjs bins). */
const scripts = {
  name: 'ipamkit/scripts',
  files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
  extends: [js.configs.recommended],
  languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
};

export default tseslint.config(ignored, ...typescript, tests, scripts);
