// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import ipamkit from '@ipamkit/eslint-plugin';

/** Files no package lints. */
const ignored = {
  name: 'ipamkit/ignores',
  ignores: ['**/dist/**', '**/.hammer-*/**', '**/node_modules/**', '**/coverage/**', '**/.nx/**', '**/*.config.*', '**/fixtures/**', 'vitest.shared.mts', 'tsup.shared.mts'],
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

/** The review rubric (design/README.md), enforced by @ipamkit/eslint-plugin on the code it guards. */
const rubric = {
  name: 'ipamkit/rubric',
  files: ['packages/*/src/**/*.ts', 'packages/*/tests/**/*.ts', 'packages/*/bench/**/*.ts'],
  ignores: ['packages/eslint-plugin/**'],
  plugins: { ipamkit },
  rules: {
    'ipamkit/layering': 'error',
    // The controllers' informer-backed cluster views, and tests that drive them against a fake API server.
    'ipamkit/no-kubernetes-client-outside-datastore': [
      'error',
      { additionalAllow: ['packages/*/src/cluster-view/kubernetes/**', 'packages/kube-runtime/src/kubernetes/**', 'packages/*/tests/**'] },
    ],
    'ipamkit/no-wire-types-outside-datastore': ['error', { additionalAllow: ['packages/cli/src/migrate/**'] }],
    'ipamkit/require-release-sequence-number': 'error',
    'ipamkit/no-raw-handle-id': 'error',
    // The Kubernetes backend reads through one KubeCollection per kind and filters with
    // visibleRows (lists) / isVisible (gets).
    'ipamkit/require-soft-delete-filter': [
      'error',
      {
        listFunctions: ['list'],
        getFunctions: ['get'],
        receiverPattern: '[cC]ollection$',
        checkUnknownPlural: true,
        listHelpers: ['visibleRows', 'withoutSoftDeleted'],
        getHelpers: ['isVisible', 'isDeleted', 'visibleOrNotFound'],
      },
    ],
    'ipamkit/gc-state-through-tracker': 'error',
  },
};

/** Block fields are written only by the pure block operations; tests may build broken fixtures. */
const rubricSource = {
  name: 'ipamkit/rubric-source',
  files: ['packages/*/src/**/*.ts'],
  ignores: ['packages/eslint-plugin/**', '**/*.test.ts'],
  plugins: { ipamkit },
  rules: {
    'ipamkit/no-block-mutation': 'error',
    // The first toISOString of a process sets up the host's time zone (design/models.md, "ISO time without the time zone").
    'no-restricted-properties': ['error', { property: 'toISOString', message: "Use isoUtc from @ipamkit/models: Date's toISOString sets up the time zone." }],
  },
};

export default tseslint.config(ignored, ...typescript, tests, scripts, rubric, rubricSource);
