import { ASTUtils, AST_NODE_TYPES, ESLintUtils, type TSESTree } from '@typescript-eslint/utils';
import type * as ts from 'typescript';
import { memberName, unwrapExpression } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { optionsObject, STRING_LIST } from '../utils/options-schema.js';
import { filenameMatchesAny } from '../utils/glob.js';
import { visitWrites } from '../utils/mutation-visitor.js';

export interface NoBlockMutationOptions {
  /** Files that own the block and may change it in place (the pure block operations). */
  allow?: string[];
  /** Fields of AllocationBlock that must not be written from outside. */
  fields?: string[];
  /** Type names treated as an allocation block when type information is available. */
  typeNames?: string[];
  /** Regular expression for variable/property names treated as a block without type information. */
  namePattern?: string;
}

export const BLOCK_MUTATION_DEFAULTS = {
  allow: ['packages/ipam-core/src/block/**'],
  fields: [
    'allocations',
    'unallocated',
    'attributes',
    'sequenceNumber',
    'sequenceNumberForAllocation',
    'affinity',
    'affinityClaimTime',
    'deleted',
  ],
  typeNames: ['AllocationBlock'],
  namePattern: '[bB]lock$',
};

const MUTATING_ARRAY_METHODS = new Set(['push', 'pop', 'shift', 'unshift', 'splice', 'sort', 'reverse', 'fill', 'copyWithin']);
/** Wrappers whose type argument is still the block itself. */
// ts.TypeFlags.Any | ts.TypeFlags.Unknown, spelled out so the plugin needs no runtime `typescript`.
const ANY_OR_UNKNOWN = 1 | 2;
const TRANSPARENT_ALIASES = new Set(['Readonly', 'Versioned', 'Partial', 'Required', 'Mutable']);

type MessageIds = 'assignField' | 'mutateField';

export const noBlockMutation = createRule<NoBlockMutationOptions, MessageIds>({
  name: 'no-block-mutation',
  description: 'Disallow changing an AllocationBlock in place outside the block module',
  rubric: 'design/README.md rubric 5: never persist a half-mutated block',
  messages: {
    assignField:
      'Do not write the block field `{{field}}` here: block changes go through the pure block operations, which return a new block.',
    mutateField:
      'Do not call `{{method}}()` on the block field `{{field}}`: block changes go through the pure block operations, which return a new block.',
  },
  schema: optionsObject({ allow: STRING_LIST, fields: STRING_LIST, typeNames: STRING_LIST, namePattern: { type: 'string' } }),
  create(context, [options]) {
    if (filenameMatchesAny(context.filename, options.allow ?? BLOCK_MUTATION_DEFAULTS.allow)) return {};
    const fields = new Set(options.fields ?? BLOCK_MUTATION_DEFAULTS.fields);
    const typeNames = new Set(options.typeNames ?? BLOCK_MUTATION_DEFAULTS.typeNames);
    const namePattern = new RegExp(options.namePattern ?? BLOCK_MUTATION_DEFAULTS.namePattern);
    const services = ESLintUtils.getParserServices(context, true);
    const typed = services.program === null ? undefined : services;

    const isBlockType = (type: ts.Type): boolean => {
      const names = [type.getSymbol()?.getName(), type.aliasSymbol?.getName()];
      if (names.some((name) => name !== undefined && typeNames.has(name))) return true;
      if (type.isUnionOrIntersection()) return type.types.some(isBlockType);
      const alias = type.aliasSymbol?.getName();
      if (alias !== undefined && TRANSPARENT_ALIASES.has(alias)) return (type.aliasTypeArguments ?? []).some(isBlockType);
      return false;
    };

    const isBlockByName = (node: TSESTree.Node): boolean => {
      const target = unwrapExpression(node);
      if (target.type === AST_NODE_TYPES.Identifier) return namePattern.test(target.name);
      if (target.type === AST_NODE_TYPES.MemberExpression) {
        const name = memberName(target);
        return name !== undefined && namePattern.test(name);
      }
      return false;
    };

    const isBlock = (node: TSESTree.Node): boolean => {
      if (typed === undefined) return isBlockByName(node);
      const type = typed.getTypeAtLocation(node);
      // Unresolved types (an unbuilt dependency, `any`) say nothing; fall back to names then.
      if ((type.flags & ANY_OR_UNKNOWN) !== 0) return isBlockByName(node);
      return isBlockType(type);
    };

    /**
     * A local initialised with an object literal is a block being built, not one read from the
     * store: filling in its optional fields (as a codec does) is construction, not mutation.
     */
    const isUnderConstruction = (node: TSESTree.Node): boolean => {
      const target = unwrapExpression(node);
      if (target.type !== AST_NODE_TYPES.Identifier) return false;
      const variable = ASTUtils.findVariable(context.sourceCode.getScope(target), target);
      const def = variable?.defs[0];
      return (
        def?.node.type === AST_NODE_TYPES.VariableDeclarator &&
        def.node.init?.type === AST_NODE_TYPES.ObjectExpression &&
        variable?.references.every((ref) => ref.init === true || !ref.isWrite()) === true
      );
    };

    /** The block field reached along `a.b[c].d` ... , if any link is `<block>.<field>`. */
    const blockFieldInChain = (node: TSESTree.Node): string | undefined => {
      let current = unwrapExpression(node);
      while (current.type === AST_NODE_TYPES.MemberExpression) {
        const name = memberName(current);
        if (name !== undefined && fields.has(name) && isBlock(current.object)) {
          return isUnderConstruction(current.object) ? undefined : name;
        }
        current = unwrapExpression(current.object);
      }
      return undefined;
    };

    return visitWrites(MUTATING_ARRAY_METHODS, blockFieldInChain, (node, field, method) =>
      context.report(method === undefined ? { node, messageId: 'assignField', data: { field } } : { node, messageId: 'mutateField', data: { field, method } }),
    );
  },
});
