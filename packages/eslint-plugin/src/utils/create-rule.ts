import { ESLintUtils } from '@typescript-eslint/utils';

/** Where each rule's doc page lives; every rule's `meta.docs.url` points there. */
export const DOCS_BASE_URL = 'https://example.invalid/ipamkit/blob/main/packages/eslint-plugin/docs/rules/';

/** Extra `meta.docs` fields our rules carry (typescript-eslint's plugin does the same). */
export interface IpamkitRuleDocs {
  /** The design/README.md rubric entry (or design/architecture.md#layers section) the rule enforces. */
  rubric: string;
}

export const createRule = ESLintUtils.RuleCreator<IpamkitRuleDocs>((name) => `${DOCS_BASE_URL}${name}.md`);
