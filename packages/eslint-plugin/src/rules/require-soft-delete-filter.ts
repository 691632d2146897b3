import { AST_NODE_TYPES, type TSESLint, type TSESTree } from '@typescript-eslint/utils';
import { calleeName, memberName, staticPropertyName } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { optionsObject, STRING_LIST } from '../utils/options-schema.js';
import { filenameMatchesAny } from '../utils/glob.js';

export interface RequireSoftDeleteFilterOptions {
  /** Files the rule applies to. */
  include?: string[];
  /** Plurals whose objects can be soft-deleted. */
  plurals?: string[];
  /** Functions that list custom objects. */
  listFunctions?: string[];
  /** Functions that get one custom object. */
  getFunctions?: string[];
  /** Helpers that drop soft-deleted items from a list. */
  listHelpers?: string[];
  /** Helpers that turn a soft-deleted object into NotFound. */
  getHelpers?: string[];
  /**
   * Also check reads whose plural cannot be read from the call (a generic collection object whose
   * plural was fixed at construction). Default false: only the listed plurals are checked.
   */
  checkUnknownPlural?: boolean;
  /** Regular expression the read's receiver name must match (`this.collection.get()` → `collection`). */
  receiverPattern?: string;
}

export const SOFT_DELETE_DEFAULTS = {
  include: ['packages/ipam-datastore/src/kubernetes/**'],
  plurals: ['ipamblocks', 'blockaffinities', 'ipamhandles'],
  listFunctions: ['listClusterCustomObject', 'listNamespacedCustomObject'],
  getFunctions: ['getClusterCustomObject', 'getNamespacedCustomObject'],
  listHelpers: ['withoutSoftDeleted'],
  getHelpers: ['visibleOrNotFound'],
};

/** client-node's positional form: (group, version, plural, ...) and (group, version, namespace, plural, ...). */
const POSITIONAL_PLURAL_INDEX: Record<string, number> = {
  listClusterCustomObject: 2,
  getClusterCustomObject: 2,
  listNamespacedCustomObject: 3,
  getNamespacedCustomObject: 3,
};

type MessageIds = 'unfilteredList' | 'unfilteredGet';

export const requireSoftDeleteFilter = createRule<RequireSoftDeleteFilterOptions, MessageIds>({
  name: 'require-soft-delete-filter',
  description: 'Require reads of blocks, affinities and handles in the Kubernetes backend to drop soft-deleted objects',
  rubric: 'design/architecture.md#datastore-contract: soft-deleted rows are invisible to every reader',
  messages: {
    unfilteredList: 'This list of `{{plural}}` can contain soft-deleted objects: pass its items through `{{helpers}}`.',
    unfilteredGet: 'This read of `{{plural}}` can return a soft-deleted object: pass it through `{{helpers}}`.',
  },
  schema: optionsObject({
    ...Object.fromEntries(['include', 'plurals', 'listFunctions', 'getFunctions', 'listHelpers', 'getHelpers'].map((key) => [key, STRING_LIST])),
    checkUnknownPlural: { type: 'boolean' },
    receiverPattern: { type: 'string' },
  }),
  create(context, [options]) {
    if (!filenameMatchesAny(context.filename, options.include ?? SOFT_DELETE_DEFAULTS.include)) return {};
    const plurals = new Set(options.plurals ?? SOFT_DELETE_DEFAULTS.plurals);
    const listFunctions = new Set(options.listFunctions ?? SOFT_DELETE_DEFAULTS.listFunctions);
    const getFunctions = new Set(options.getFunctions ?? SOFT_DELETE_DEFAULTS.getFunctions);
    const listHelpers = new Set(options.listHelpers ?? SOFT_DELETE_DEFAULTS.listHelpers);
    const getHelpers = new Set(options.getHelpers ?? SOFT_DELETE_DEFAULTS.getHelpers);
    const receiverPattern = options.receiverPattern === undefined ? undefined : new RegExp(options.receiverPattern);

    return {
      CallExpression(node) {
        const name = calleeName(node);
        if (name === undefined) return;
        const isList = listFunctions.has(name);
        if (!isList && !getFunctions.has(name)) return;
        if (receiverPattern !== undefined && !receiverPattern.test(receiverName(node) ?? '')) return;
        const plural = pluralOf(node, name, context.sourceCode.getScope(node));
        if (plural === undefined ? options.checkUnknownPlural !== true : !plurals.has(plural)) return;
        const helpers = isList ? listHelpers : getHelpers;
        if (isList && readsOnlyListMetadata(node)) return;
        if (reachesHelper(node, helpers, context.sourceCode)) return;
        context.report({
          node,
          messageId: isList ? 'unfilteredList' : 'unfilteredGet',
          data: { plural: plural ?? 'soft-deletable objects', helpers: [...helpers].join('` / `') },
        });
      },
    };
  },
});

/** List metadata that soft-deleted items cannot affect: `(await list()).resourceVersion`. */
const LIST_METADATA = new Set(['resourceVersion', 'metadata']);

function readsOnlyListMetadata(node: TSESTree.CallExpression): boolean {
  let current: TSESTree.Node = node;
  while (current.parent.type === AST_NODE_TYPES.AwaitExpression || current.parent.type === AST_NODE_TYPES.TSAsExpression) {
    current = current.parent;
  }
  const parent = current.parent;
  if (parent.type === AST_NODE_TYPES.MemberExpression && parent.object === current) {
    return LIST_METADATA.has(memberName(parent) ?? '');
  }
  return false;
}

/** `this.collection.get()` → `collection`; `api.get()` → `api`. */
function receiverName(node: TSESTree.CallExpression): string | undefined {
  const callee = node.callee;
  if (callee.type !== AST_NODE_TYPES.MemberExpression) return undefined;
  const object = callee.object;
  if (object.type === AST_NODE_TYPES.Identifier) return object.name;
  return object.type === AST_NODE_TYPES.MemberExpression ? memberName(object) : undefined;
}

/** The plural a custom-object call reads, from its parameter object or positional argument. */
function pluralOf(node: TSESTree.CallExpression, name: string, scope: TSESLint.Scope.Scope): string | undefined {
  const [first] = node.arguments;
  let value: TSESTree.Node | undefined;
  if (first?.type === AST_NODE_TYPES.ObjectExpression) {
    for (const p of first.properties) {
      if (p.type === AST_NODE_TYPES.Property && !p.computed && staticPropertyName(p.key) === 'plural') value = p.value;
    }
  } else {
    const index = POSITIONAL_PLURAL_INDEX[name];
    value = index === undefined ? undefined : node.arguments[index];
  }
  return value === undefined ? undefined : constantString(value, scope);
}

/** A string literal, or a `const` initialised with one. */
function constantString(node: TSESTree.Node, scope: TSESLint.Scope.Scope): string | undefined {
  const direct = staticPropertyName(node);
  if (node.type !== AST_NODE_TYPES.Identifier) return direct;
  let current: TSESLint.Scope.Scope | null = scope;
  while (current !== null) {
    const variable = current.set.get(node.name);
    if (variable !== undefined) {
      const def = variable.defs[0];
      if (def?.node.type === AST_NODE_TYPES.VariableDeclarator && def.parent?.type === AST_NODE_TYPES.VariableDeclaration) {
        const init = def.node.init;
        return def.parent.kind === 'const' && init !== null ? staticPropertyName(init) : undefined;
      }
      return undefined;
    }
    current = current.upper;
  }
  return undefined;
}

/** Walks up from an expression to the statement holding it, looking for a call to a helper. */
function insideHelperCall(node: TSESTree.Node, helpers: Set<string>): boolean {
  let current: TSESTree.Node | undefined = node.parent;
  while (current !== undefined && !isBoundary(current)) {
    if (current.type === AST_NODE_TYPES.CallExpression) {
      const name = calleeName(current);
      if (name !== undefined && helpers.has(name)) return true;
    }
    current = current.parent;
  }
  return false;
}

function isBoundary(node: TSESTree.Node): boolean {
  return (
    node.type.endsWith('Statement') ||
    node.type === AST_NODE_TYPES.VariableDeclaration ||
    node.type === AST_NODE_TYPES.ArrowFunctionExpression ||
    node.type === AST_NODE_TYPES.FunctionExpression ||
    node.type === AST_NODE_TYPES.FunctionDeclaration
  );
}

/**
 * True when the read's result goes through a helper: directly (`helper(await read())`), or via the
 * variables it flows into (`const raw = await read(); const m = decode(raw); if (helper(m)) ...`),
 * following up to a few assignments.
 */
function reachesHelper(
  node: TSESTree.Node,
  helpers: Set<string>,
  sourceCode: TSESLint.SourceCode,
  depth = 0,
): boolean {
  if (insideHelperCall(node, helpers)) return true;
  if (depth > 3) return false;
  const declarator = enclosingDeclarator(node);
  if (declarator === undefined) return false;
  return sourceCode
    .getDeclaredVariables(declarator)
    .some((variable) =>
      variable.references.some((ref) => !ref.init && reachesHelper(ref.identifier, helpers, sourceCode, depth + 1)),
    );
}

/** The declarator whose initialiser holds `node` (through calls, awaits, member accesses, casts). */
function enclosingDeclarator(node: TSESTree.Node): TSESTree.VariableDeclarator | undefined {
  let current: TSESTree.Node = node;
  for (;;) {
    const parent = current.parent;
    if (parent === undefined) return undefined;
    if (parent.type === AST_NODE_TYPES.VariableDeclarator) return parent.init === current ? parent : undefined;
    if (isBoundary(parent)) return undefined;
    current = parent;
  }
}
