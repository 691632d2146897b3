import { fileURLToPath } from 'node:url';
import { RuleTester, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, it } from 'vitest';

// ESLint's RuleTester drives whatever describe/it it is handed; give it vitest's (design/toolchain.md#eslint-ruletester-under-vitest).
Object.assign(RuleTester, { describe, it, itOnly: it.only, afterAll });

/** Parses TypeScript without type information (the name-based fallback paths). */
export const ruleTester = new RuleTester({
  languageOptions: { parser: tseslint.parser, ecmaVersion: 2022, sourceType: 'module' },
});

/** Root of the typed fixture project: a tsconfig plus empty files that cases borrow the paths of. */
export const typedFixtureRoot = fileURLToPath(new URL('./fixtures/typed/', import.meta.url));

/** Parses TypeScript with a full program, so rules see types. */
export const typedRuleTester = new RuleTester({
  languageOptions: {
    parser: tseslint.parser,
    // CI=true makes typescript-eslint build each program once ("single run"), which would freeze
    // every case at the first text of its file; RuleTester feeds new text per case.
    parserOptions: { project: './tsconfig.json', tsconfigRootDir: typedFixtureRoot, disallowAutomaticSingleRunInference: true },
  },
});

/** Our rules are typescript-eslint rule modules; ESLint's RuleTester types them as its own. */
export function asEslintRule(rule: unknown): Rule.RuleModule {
  return rule as Rule.RuleModule;
}

/** A file path inside a repository, as ESLint would hand it to a rule. */
export function repoFile(relative: string): string {
  return `/repo/${relative}`;
}
