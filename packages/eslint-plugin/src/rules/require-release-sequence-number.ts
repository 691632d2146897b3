import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { calleeName, staticPropertyName } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { optionsObject, STRING_LIST } from '../utils/options-schema.js';
import { filenameMatchesAny } from '../utils/glob.js';

export interface RequireReleaseSequenceNumberOptions {
  /** Call names treated as releases. */
  functions?: string[];
  /** Files where the rule is off (ipam-core's own tests exercise the unguarded path on purpose). */
  ignore?: string[];
}

export const RELEASE_DEFAULTS = {
  functions: ['releaseIPs'],
  ignore: ['packages/ipam-core/tests/**', 'packages/ipam-core/src/**/*.test.ts'],
};

export const requireReleaseSequenceNumber = createRule<RequireReleaseSequenceNumberOptions, 'missingSequenceNumber'>({
  name: 'require-release-sequence-number',
  description: 'Require every releaseIPs option object to carry the sequenceNumber the caller observed',
  rubric: 'design/README.md rubric 1: sequence numbers on every release path',
  messages: {
    missingSequenceNumber:
      'This release of an address lacks `sequenceNumber`: without it, an address released and re-allocated in between is freed from its new owner. Pass the sequence number you read, or disable with a reason (`-- reason`).',
  },
  schema: optionsObject({ functions: STRING_LIST, ignore: STRING_LIST }),
  create(context, [options]) {
    const functions = new Set(options.functions ?? RELEASE_DEFAULTS.functions);
    if (filenameMatchesAny(context.filename, options.ignore ?? RELEASE_DEFAULTS.ignore)) return {};

    const checkObject = (object: TSESTree.ObjectExpression): void => {
      // A spread may carry the field; we cannot see through it, so we trust it.
      const hasField = object.properties.some(
        (p) =>
          p.type === AST_NODE_TYPES.SpreadElement ||
          (!p.computed && staticPropertyName(p.key) === 'sequenceNumber'),
      );
      if (!hasField) context.report({ node: object, messageId: 'missingSequenceNumber' });
    };

    const checkOptions = (node: TSESTree.Node): void => {
      if (node.type === AST_NODE_TYPES.ObjectExpression) {
        checkObject(node);
      } else if (node.type === AST_NODE_TYPES.ArrayExpression) {
        for (const element of node.elements) if (element !== null) checkOptions(element);
      } else if (node.type === AST_NODE_TYPES.CallExpression && calleeName(node) === 'map') {
        // `ips.map((address) => ({ address }))` builds the options inline too.
        const [callback] = node.arguments;
        if (callback !== undefined) for (const returned of returnedObjects(callback)) checkObject(returned);
      }
    };

    return {
      CallExpression(node) {
        const name = calleeName(node);
        if (name === undefined || !functions.has(name)) return;
        for (const arg of node.arguments) checkOptions(arg);
      },
    };
  },
});

/** Object literals an inline arrow/function callback returns. */
function returnedObjects(callback: TSESTree.Node): TSESTree.ObjectExpression[] {
  if (callback.type !== AST_NODE_TYPES.ArrowFunctionExpression && callback.type !== AST_NODE_TYPES.FunctionExpression) {
    return [];
  }
  if (callback.body.type === AST_NODE_TYPES.ObjectExpression) return [callback.body];
  if (callback.body.type !== AST_NODE_TYPES.BlockStatement) return [];
  return callback.body.body.flatMap((statement) =>
    statement.type === AST_NODE_TYPES.ReturnStatement && statement.argument?.type === AST_NODE_TYPES.ObjectExpression
      ? [statement.argument]
      : [],
  );
}
