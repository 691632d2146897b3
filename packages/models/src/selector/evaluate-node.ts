import type { SelectorNode } from './selector-node.js';

function labelValue(labels: Readonly<Record<string, string>>, label: string): string | undefined {
  // Own properties only: a label named "constructor" or "__proto__" must not hit the prototype.
  return Object.hasOwn(labels, label) ? labels[label] : undefined;
}

/** Truth of a selector tree over a label map (design/calico-ipam.md#selectors). */
export function evaluateNode(node: SelectorNode, labels: Readonly<Record<string, string>>): boolean {
  switch (node.kind) {
    case 'all':
    case 'global':
      return true;
    case 'has':
      return labelValue(labels, node.label) !== undefined;
    case 'equals':
      return labelValue(labels, node.label) === node.value;
    case 'notEquals':
      return labelValue(labels, node.label) !== node.value;
    case 'contains':
      return labelValue(labels, node.label)?.includes(node.value) ?? false;
    case 'startsWith':
      return labelValue(labels, node.label)?.startsWith(node.value) ?? false;
    case 'endsWith':
      return labelValue(labels, node.label)?.endsWith(node.value) ?? false;
    case 'in': {
      const value = labelValue(labels, node.label);
      return value !== undefined && node.values.includes(value);
    }
    case 'notIn': {
      const value = labelValue(labels, node.label);
      return value === undefined || !node.values.includes(value);
    }
    case 'not':
      return !evaluateNode(node.operand, labels);
    case 'and':
      return node.operands.every((op) => evaluateNode(op, labels));
    case 'or':
      return node.operands.some((op) => evaluateNode(op, labels));
  }
}
