import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { calleeName, memberName, staticPropertyName } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { optionsObject, STRING_LIST } from '../utils/options-schema.js';
import { filenameMatchesAny } from '../utils/glob.js';

export interface NoRawHandleIdOptions {
  /** The handle-ID modules, which are the only places allowed to build handle IDs. */
  allow?: string[];
  /** Regular expression for names (variables, properties, called functions) that take a handle ID. */
  handleNamePattern?: string;
}

export const HANDLE_ID_DEFAULTS = {
  allow: ['**/handle-id*.ts', '**/handles/**'],
  handleNamePattern: '[hH]andle',
};

/** A string being built: its static text pieces and how many computed pieces sit between them. */
interface BuiltString {
  /** Static text, with HOLE standing for each computed piece. */
  shape: string;
  expressions: number;
}

// A private-use character: it cannot occur in a handle ID, so it marks a computed piece unambiguously.
const HOLE = '\uE000';
const TUNNEL = /-tunnel-addr-/;
const LOAD_BALANCER = /^lb-\uE000/;
const CNI = /^\uE000\.\uE000$/;

type MessageIds = 'tunnelHandle' | 'loadBalancerHandle' | 'cniHandle';

export const noRawHandleId = createRule<NoRawHandleIdOptions, MessageIds>({
  name: 'no-raw-handle-id',
  description: 'Disallow building handle IDs with string templates outside the handle-ID modules',
  rubric: 'design/README.md rubric 6: handle-format changes updated everywhere',
  messages: {
    tunnelHandle: 'Build tunnel handle IDs (`<type>-tunnel-addr-<node>`) with the handle-ID module, not a string template.',
    loadBalancerHandle: 'Build LoadBalancer handle IDs (`lb-<hash>`) with the handle-ID module, not a string template.',
    cniHandle: 'Build CNI handle IDs (`<network>.<containerID>`) with the handle-ID module, not a string template.',
  },
  schema: optionsObject({ allow: STRING_LIST, handleNamePattern: { type: 'string' } }),
  create(context, [options]) {
    if (filenameMatchesAny(context.filename, options.allow ?? HANDLE_ID_DEFAULTS.allow)) return {};
    const handleName = new RegExp(options.handleNamePattern ?? HANDLE_ID_DEFAULTS.handleNamePattern);

    const check = (node: TSESTree.Expression, built: BuiltString): void => {
      if (built.expressions === 0) return;
      if (TUNNEL.test(built.shape)) {
        context.report({ node, messageId: 'tunnelHandle' });
      } else if (LOAD_BALANCER.test(built.shape)) {
        context.report({ node, messageId: 'loadBalancerHandle' });
      } else if (CNI.test(built.shape) && usedAsHandle(node, handleName)) {
        context.report({ node, messageId: 'cniHandle' });
      }
    };

    return {
      TemplateLiteral(node) {
        if (node.parent.type === AST_NODE_TYPES.TaggedTemplateExpression) return;
        check(node, {
          shape: node.quasis.map((q) => q.value.cooked ?? q.value.raw).join(HOLE),
          expressions: node.expressions.length,
        });
      },
      BinaryExpression(node) {
        // Only the outermost `+` of a chain, so `a + '.' + b` is reported once.
        if (node.operator !== '+' || isConcatenation(node.parent)) return;
        const built = flattenConcatenation(node);
        if (built !== undefined) check(node, built);
      },
    };
  },
});

function isConcatenation(node: TSESTree.Node): node is TSESTree.BinaryExpression {
  return node.type === AST_NODE_TYPES.BinaryExpression && node.operator === '+';
}

/** The shape of `a + 'x' + b`, or undefined when no piece is a string literal (numeric addition). */
function flattenConcatenation(node: TSESTree.BinaryExpression): BuiltString | undefined {
  const pieces: (string | null)[] = [];
  const visit = (part: TSESTree.Node): void => {
    if (isConcatenation(part)) {
      visit(part.left);
      visit(part.right);
    } else if (part.type === AST_NODE_TYPES.Literal && typeof part.value === 'string') {
      pieces.push(part.value);
    } else if (part.type === AST_NODE_TYPES.TemplateLiteral && part.expressions.length === 0) {
      pieces.push(part.quasis[0]?.value.cooked ?? '');
    } else {
      pieces.push(null);
    }
  };
  visit(node);
  if (!pieces.some((p) => p !== null)) return undefined;
  let shape = '';
  let expressions = 0;
  for (const piece of pieces) {
    if (piece === null) {
      shape += HOLE;
      expressions += 1;
    } else {
      shape += piece;
    }
  }
  return { shape, expressions };
}

/** True when the value lands in something named like a handle: a variable, property, parameter of a handle call. */
function usedAsHandle(node: TSESTree.Node, handleName: RegExp): boolean {
  const parent = node.parent;
  if (parent === undefined) return false;
  switch (parent.type) {
    case AST_NODE_TYPES.VariableDeclarator:
      return parent.id.type === AST_NODE_TYPES.Identifier && handleName.test(parent.id.name);
    case AST_NODE_TYPES.Property: {
      const key = parent.computed ? undefined : staticPropertyName(parent.key);
      return parent.value === node && key !== undefined && handleName.test(key);
    }
    case AST_NODE_TYPES.AssignmentExpression: {
      const left = parent.left;
      if (left.type === AST_NODE_TYPES.Identifier) return handleName.test(left.name);
      if (left.type === AST_NODE_TYPES.MemberExpression) return handleName.test(memberName(left) ?? '');
      return false;
    }
    case AST_NODE_TYPES.CallExpression: {
      const name = calleeName(parent);
      return parent.arguments.includes(node as TSESTree.CallExpressionArgument) && name !== undefined && handleName.test(name);
    }
    case AST_NODE_TYPES.AssignmentPattern:
      return parent.left.type === AST_NODE_TYPES.Identifier && handleName.test(parent.left.name);
    case AST_NODE_TYPES.ReturnStatement:
      return handleName.test(enclosingFunctionName(parent) ?? '');
    case AST_NODE_TYPES.ArrowFunctionExpression:
      return parent.body === node && handleName.test(functionName(parent) ?? '');
    default:
      return false;
  }
}

/** The name of the function a `return` belongs to. */
function enclosingFunctionName(node: TSESTree.Node): string | undefined {
  let current: TSESTree.Node | undefined = node.parent;
  while (current !== undefined) {
    if (
      current.type === AST_NODE_TYPES.FunctionDeclaration ||
      current.type === AST_NODE_TYPES.FunctionExpression ||
      current.type === AST_NODE_TYPES.ArrowFunctionExpression
    ) {
      return functionName(current);
    }
    current = current.parent;
  }
  return undefined;
}

/** `function f`, `const f = () =>`, `f() {}` in a class or object: the name `f`. */
function functionName(
  fn: TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression,
): string | undefined {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent.type === AST_NODE_TYPES.VariableDeclarator && parent.id.type === AST_NODE_TYPES.Identifier) return parent.id.name;
  if ((parent.type === AST_NODE_TYPES.MethodDefinition || parent.type === AST_NODE_TYPES.Property) && !parent.computed) {
    return staticPropertyName(parent.key);
  }
  return undefined;
}
