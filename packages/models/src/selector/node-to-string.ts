import type { SelectorNode } from './selector-node.js';

// Literals have no escapes, so a value containing `"` can only have come from a single-quoted
// literal (and then contains no `'`).
function quote(value: string): string {
  return value.includes('"') ? `'${value}'` : `"${value}"`;
}

function grouped(node: SelectorNode, wrap: boolean): string {
  const text = nodeToString(node);
  return wrap ? `(${text})` : text;
}

/** Canonical text of a selector tree: single spaces, minimal parentheses, double quotes. */
export function nodeToString(node: SelectorNode): string {
  switch (node.kind) {
    case 'all':
      return 'all()';
    case 'global':
      return 'global()';
    case 'has':
      return `has(${node.label})`;
    case 'equals':
      return `${node.label} == ${quote(node.value)}`;
    case 'notEquals':
      return `${node.label} != ${quote(node.value)}`;
    case 'contains':
      return `${node.label} contains ${quote(node.value)}`;
    case 'startsWith':
      return `${node.label} starts with ${quote(node.value)}`;
    case 'endsWith':
      return `${node.label} ends with ${quote(node.value)}`;
    case 'in':
      return `${node.label} in {${node.values.map(quote).join(', ')}}`;
    case 'notIn':
      return `${node.label} not in {${node.values.map(quote).join(', ')}}`;
    case 'not':
      return `!${grouped(node.operand, node.operand.kind === 'and' || node.operand.kind === 'or')}`;
    case 'and':
      return node.operands.map((op) => grouped(op, op.kind === 'or')).join(' && ');
    case 'or':
      return node.operands.map((op) => nodeToString(op)).join(' || ');
  }
}
