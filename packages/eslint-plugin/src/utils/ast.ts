import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';

/** The name a property key or member property is written with, when it is static. */
export function staticPropertyName(node: TSESTree.Node): string | undefined {
  if (node.type === AST_NODE_TYPES.Identifier) return node.name;
  if (node.type === AST_NODE_TYPES.Literal && typeof node.value === 'string') return node.value;
  if (node.type === AST_NODE_TYPES.TemplateLiteral && node.expressions.length === 0) {
    return node.quasis[0]?.value.cooked ?? undefined;
  }
  return undefined;
}

/** The property name of `a.b` / `a['b']`, or undefined for computed non-literal access. */
export function memberName(node: TSESTree.MemberExpression): string | undefined {
  if (!node.computed) return node.property.type === AST_NODE_TYPES.Identifier ? node.property.name : undefined;
  return staticPropertyName(node.property);
}

/** The name a call is made with: `f()` → f, `a.b.f()` → f. */
export function calleeName(node: TSESTree.CallExpression): string | undefined {
  const callee = node.callee;
  if (callee.type === AST_NODE_TYPES.Identifier) return callee.name;
  if (callee.type === AST_NODE_TYPES.MemberExpression) return memberName(callee);
  return undefined;
}

/** Strips wrappers that do not change which value an expression denotes. */
export function unwrapExpression(node: TSESTree.Node): TSESTree.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case AST_NODE_TYPES.AwaitExpression:
      case AST_NODE_TYPES.TSAsExpression:
      case AST_NODE_TYPES.TSNonNullExpression:
      case AST_NODE_TYPES.TSSatisfiesExpression:
      case AST_NODE_TYPES.TSTypeAssertion:
        current = current.type === AST_NODE_TYPES.AwaitExpression ? current.argument : current.expression;
        break;
      case AST_NODE_TYPES.ChainExpression:
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** The module specifier of an import-like node, when it is a string literal. */
export function importSource(
  node:
    | TSESTree.ImportDeclaration
    | TSESTree.ExportNamedDeclaration
    | TSESTree.ExportAllDeclaration
    | TSESTree.ImportExpression
    | TSESTree.CallExpression
    | TSESTree.TSImportEqualsDeclaration,
): TSESTree.StringLiteral | undefined {
  switch (node.type) {
    case AST_NODE_TYPES.ImportDeclaration:
    case AST_NODE_TYPES.ExportAllDeclaration:
      return node.source;
    case AST_NODE_TYPES.ExportNamedDeclaration:
      return node.source ?? undefined;
    case AST_NODE_TYPES.ImportExpression:
      return node.source.type === AST_NODE_TYPES.Literal && typeof node.source.value === 'string'
        ? node.source
        : undefined;
    case AST_NODE_TYPES.CallExpression: {
      const [arg] = node.arguments;
      const isRequire = node.callee.type === AST_NODE_TYPES.Identifier && node.callee.name === 'require';
      return isRequire && arg?.type === AST_NODE_TYPES.Literal && typeof arg.value === 'string'
        ? arg
        : undefined;
    }
    case AST_NODE_TYPES.TSImportEqualsDeclaration: {
      const ref = node.moduleReference;
      return ref.type === AST_NODE_TYPES.TSExternalModuleReference ? ref.expression : undefined;
    }
  }
}
