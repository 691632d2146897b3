import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { type RuleListener } from '@typescript-eslint/utils/ts-eslint';
import { memberName, unwrapExpression } from './ast.js';

/**
 * One listener for every way code writes through an expression: assignment (`x.a = …`, `x.a += …`),
 * `++`/`--`, `delete`, and a call of one of `methods` on it (`x.a.push(…)`). The rules that forbid
 * writes to some values (design/eslint-plugin.md, "no-block-mutation" and "gc-state-through-tracker")
 * differ only in which targets they report.
 */
export function visitWrites(
  methods: ReadonlySet<string>,
  onWrite: (target: TSESTree.Node) => void,
  onMutatingCall: (call: TSESTree.CallExpression, receiver: TSESTree.Node, method: string) => void,
): RuleListener {
  return {
    AssignmentExpression(node) {
      onWrite(node.left);
    },
    UpdateExpression(node) {
      onWrite(node.argument);
    },
    UnaryExpression(node) {
      if (node.operator === 'delete') onWrite(node.argument);
    },
    CallExpression(node) {
      const callee = unwrapExpression(node.callee);
      if (callee.type !== AST_NODE_TYPES.MemberExpression) return;
      const method = memberName(callee);
      if (method !== undefined && methods.has(method)) onMutatingCall(node, callee.object, method);
    },
  };
}
