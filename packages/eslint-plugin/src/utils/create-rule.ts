import { ESLintUtils } from '@typescript-eslint/utils';
import type { JSONSchema4 } from '@typescript-eslint/utils/json-schema';
import type { RuleContext, RuleListener, RuleModule } from '@typescript-eslint/utils/ts-eslint';

/** Where each rule's doc page lives; every rule's `meta.docs.url` points there. */
export const DOCS_BASE_URL = 'https://example.invalid/ipamkit/blob/main/packages/eslint-plugin/docs/rules/';

/** Extra `meta.docs` fields our rules carry (typescript-eslint's plugin does the same). */
export interface IpamkitRuleDocs {
  /** The design/README.md rubric entry (or design/architecture.md#layers section) the rule enforces. */
  rubric: string;
}

const ruleCreator = ESLintUtils.RuleCreator<IpamkitRuleDocs>((name) => `${DOCS_BASE_URL}${name}.md`);

/**
 * One of our rules. Each is a `problem` taking one options object, `{}` by default, so a rule
 * states only its name, docs, messages, options schema and listener; `meta` is built here.
 */
export function createRule<Options extends object, MessageIds extends string>(rule: {
  readonly name: string;
  readonly description: string;
  readonly rubric: string;
  readonly messages: Record<MessageIds, string>;
  readonly schema: JSONSchema4[];
  readonly create: (context: Readonly<RuleContext<MessageIds, [Options]>>, options: Readonly<[Options]>) => RuleListener;
}): RuleModule<MessageIds, [Options], IpamkitRuleDocs> & { name: string } {
  const { name, description, rubric, messages, schema, create } = rule;
  // Every option of every rule is optional, so `{}` is a complete default.
  const defaultOptions: [Options] = [{} as Options];
  return ruleCreator<[Options], MessageIds>({ name, meta: { type: 'problem', defaultOptions, docs: { description, rubric }, messages, schema }, create });
}
