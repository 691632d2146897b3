/** Comparisons of one label against one string (design/calico-ipam.md#selectors). */
export type StringComparisonKind = 'equals' | 'notEquals' | 'contains' | 'startsWith' | 'endsWith';
/** Comparisons of one label against a set of strings. */
export type SetComparisonKind = 'in' | 'notIn';

/** The parsed form of a Calico selector. `and`/`or` are n-ary and never directly nest themselves. */
export type SelectorNode =
  | { readonly kind: 'all' }
  | { readonly kind: 'global' }
  | { readonly kind: 'has'; readonly label: string }
  | { readonly kind: StringComparisonKind; readonly label: string; readonly value: string }
  | { readonly kind: SetComparisonKind; readonly label: string; readonly values: readonly string[] }
  | { readonly kind: 'not'; readonly operand: SelectorNode }
  | { readonly kind: 'and'; readonly operands: readonly SelectorNode[] }
  | { readonly kind: 'or'; readonly operands: readonly SelectorNode[] };

/** `!!x` is `x` (design/calico-ipam.md#selectors: repeated negations collapse). */
export function notNode(operand: SelectorNode): SelectorNode {
  return operand.kind === 'not' ? operand.operand : { kind: 'not', operand };
}

/** Join operands with one boolean operator, flattening operands of the same operator. */
export function joinNodes(kind: 'and' | 'or', operands: readonly SelectorNode[]): SelectorNode {
  const flat = operands.flatMap((op) => (op.kind === kind ? op.operands : [op]));
  const [only] = flat;
  if (flat.length === 1 && only !== undefined) return only;
  return { kind, operands: flat };
}

/** True when any node of the tree satisfies `predicate`. */
export function someNode(node: SelectorNode, predicate: (n: SelectorNode) => boolean): boolean {
  if (predicate(node)) return true;
  switch (node.kind) {
    case 'not':
      return someNode(node.operand, predicate);
    case 'and':
    case 'or':
      return node.operands.some((op) => someNode(op, predicate));
    default:
      return false;
  }
}
