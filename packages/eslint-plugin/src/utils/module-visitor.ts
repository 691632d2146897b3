import { type TSESTree } from '@typescript-eslint/utils';
import { type RuleListener } from '@typescript-eslint/utils/ts-eslint';
import { importSource } from './ast.js';

/** Every node `importSource` reads a module specifier from. */
export type ModuleReference = Parameters<typeof importSource>[0];

/**
 * One listener for every way a file can reach another module (static and dynamic import,
 * re-export, require, `import x = require()`), so the import rules cannot be bypassed by syntax.
 */
export function visitModuleReferences(
  onReference: (node: ModuleReference, source: TSESTree.StringLiteral) => void,
): RuleListener {
  const visit = (node: ModuleReference): void => {
    const source = importSource(node);
    if (source !== undefined) onReference(node, source);
  };
  return {
    ImportDeclaration: visit,
    ExportNamedDeclaration: visit,
    ExportAllDeclaration: visit,
    ImportExpression: visit,
    CallExpression: visit,
    TSImportEqualsDeclaration: visit,
  };
}
