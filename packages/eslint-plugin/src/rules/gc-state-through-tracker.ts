import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { memberName, unwrapExpression } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { optionsObject, STRING_LIST } from '../utils/options-schema.js';
import { filenameMatchesAny } from '../utils/glob.js';
import { visitWrites } from '../utils/mutation-visitor.js';

export interface GcStateThroughTrackerOptions {
  /** Files the rule applies to. */
  include?: string[];
  /** The tracker module, which owns the maps and keeps them consistent. */
  allow?: string[];
  /** Names of the GC state maps. */
  names?: string[];
  /** Methods that change a Map or Set. */
  methods?: string[];
}

export const GC_STATE_DEFAULTS = {
  include: ['packages/gc/src/**'],
  allow: ['**/gc-state*.ts', '**/state/**'],
  names: [
    'allocationState',
    'allocationsByNode',
    'allocationsByBlock',
    'allocationsByHandle',
    'allocationsByIP',
    'handleTracker',
    'confirmedLeaks',
    'leakCandidates',
    'dirtyNodes',
    'allBlocks',
    'nodesByBlock',
    'blocksByNode',
    'emptyBlocks',
    'coldBlocks',
  ],
  methods: ['set', 'delete', 'clear', 'add'],
};

type MessageIds = 'assignState' | 'mutateState';

export const gcStateThroughTracker = createRule<GcStateThroughTrackerOptions, MessageIds>({
  name: 'gc-state-through-tracker',
  description: 'Require the garbage collector state maps to change only through the tracker module',
  rubric: 'design/README.md rubric 2: every GC state map updated together',
  messages: {
    assignState: 'Do not assign to the GC state `{{name}}` here: change it through the tracker so every map stays consistent.',
    mutateState:
      'Do not call `{{method}}()` on the GC state `{{name}}` here: change it through the tracker so every map stays consistent.',
  },
  schema: optionsObject({ include: STRING_LIST, allow: STRING_LIST, names: STRING_LIST, methods: STRING_LIST }),
  create(context, [options]) {
    if (!filenameMatchesAny(context.filename, options.include ?? GC_STATE_DEFAULTS.include)) return {};
    if (filenameMatchesAny(context.filename, options.allow ?? GC_STATE_DEFAULTS.allow)) return {};
    const names = new Set(options.names ?? GC_STATE_DEFAULTS.names);
    const methods = new Set(options.methods ?? GC_STATE_DEFAULTS.methods);

    /** The state map named along `this.allocationState.byNode[x]`, if any. */
    const stateInChain = (node: TSESTree.Node): string | undefined => {
      let current = unwrapExpression(node);
      for (;;) {
        if (current.type === AST_NODE_TYPES.Identifier) return names.has(current.name) ? current.name : undefined;
        // `state.byHandle.get(h)?.delete(id)` changes the map's inner value: follow `.get()` too.
        if (
          current.type === AST_NODE_TYPES.CallExpression &&
          current.callee.type === AST_NODE_TYPES.MemberExpression &&
          memberName(current.callee) === 'get'
        ) {
          current = unwrapExpression(current.callee.object);
          continue;
        }
        if (current.type !== AST_NODE_TYPES.MemberExpression) return undefined;
        const name = memberName(current);
        if (name !== undefined && names.has(name)) return name;
        current = unwrapExpression(current.object);
      }
    };

    return visitWrites(methods, stateInChain, (node, name, method) =>
      context.report(method === undefined ? { node, messageId: 'assignState', data: { name } } : { node, messageId: 'mutateState', data: { name, method } }),
    );
  },
});
