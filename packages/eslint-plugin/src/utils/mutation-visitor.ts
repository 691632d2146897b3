import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { type RuleListener } from '@typescript-eslint/utils/ts-eslint';
import { memberName, unwrapExpression } from './ast.js';

/**
 * One listener for every way code writes through an expression: assignment (`x.a = …`, `x.a += …`),
 * `++`/`--`, `delete`, and a call of one of `methods` on it (`x.a.push(…)`). `find` names what a
 * written expression reaches (undefined: nothing the rule guards); `report` gets the write, that name
 * and, for a call, the method. The rules that forbid writes to some values (design/eslint-plugin.md,
 * "no-block-mutation" and "gc-state-through-tracker") differ only in `find` and their messages.
 */
export function visitWrites(
  methods: ReadonlySet<string>,
  find: (target: TSESTree.Node) => string | undefined,
  report: (node: TSESTree.Node, name: string, method?: string) => void,
): RuleListener {
  const onWrite = (node: TSESTree.Node, target: TSESTree.Node, method?: string): void => {
    const name = find(target);
    if (name !== undefined) report(node, name, method);
  };
  return {
    AssignmentExpression: (node) => onWrite(node.left, node.left),
    UpdateExpression: (node) => onWrite(node.argument, node.argument),
    UnaryExpression: (node) => {
      if (node.operator === 'delete') onWrite(node.argument, node.argument);
    },
    CallExpression: (node) => {
      const callee = unwrapExpression(node.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression) return;
      const method = memberName(callee);
      if (method !== undefined && methods.has(method)) onWrite(node, callee.object, method);
    },
  };
}
