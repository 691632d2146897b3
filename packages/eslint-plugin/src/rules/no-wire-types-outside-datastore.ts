import { AST_NODE_TYPES, type TSESTree } from '@typescript-eslint/utils';
import { memberName, staticPropertyName } from '../utils/ast.js';
import { createRule } from '../utils/create-rule.js';
import { optionsObject, STRING_LIST } from '../utils/options-schema.js';
import { filenameMatchesAny } from '../utils/glob.js';
import { visitModuleReferences } from '../utils/module-visitor.js';

export interface NoWireTypesOptions {
  /** Files that may use the wire codecs. Replaces the default list. */
  allow?: string[];
  /** Extra allowed files on top of `allow` (e.g. the CLI's datastore migration). */
  additionalAllow?: string[];
  /** Exported names that are wire codecs. */
  names?: string[];
  /** The package that exports them. */
  package?: string;
  /** Subpaths of the package that are wire modules as a whole (`codecs` → `@ipamkit/models/codecs/...`). */
  modules?: string[];
}

export const WIRE_DEFAULTS = {
  allow: ['packages/models/**', 'packages/ipam-datastore/**'],
  names: ['encodeV1', 'decodeV1', 'encodeV3', 'decodeV3', 'encodeEtcd', 'decodeEtcd'],
  package: '@ipamkit/models',
  modules: ['codecs'],
};

type MessageIds = 'wireName' | 'wireModule';

export const noWireTypesOutsideDatastore = createRule<NoWireTypesOptions, MessageIds>({
  name: 'no-wire-types-outside-datastore',
  description: 'Disallow using the wire codecs outside models and the datastore backends',
  rubric: 'design/architecture.md#layers; design/README.md layering paragraph',
  messages: {
    wireName:
      'Do not use the wire codec `{{name}}` here: wire formats are parsed and written only in models and the datastore; work with the models.',
    wireModule:
      'Do not import the wire module `{{module}}` here: wire formats are parsed and written only in models and the datastore.',
  },
  schema: optionsObject({ allow: STRING_LIST, additionalAllow: STRING_LIST, names: STRING_LIST, package: { type: 'string' }, modules: STRING_LIST }),
  create(context, [options]) {
    const allow = [...(options.allow ?? WIRE_DEFAULTS.allow), ...(options.additionalAllow ?? [])];
    if (filenameMatchesAny(context.filename, allow)) return {};
    const names = new Set(options.names ?? WIRE_DEFAULTS.names);
    const pkg = options.package ?? WIRE_DEFAULTS.package;
    const wireModules = (options.modules ?? WIRE_DEFAULTS.modules).map((m) => `${pkg}/${m}`);
    /** Local names bound to the whole package (`import * as models from ...`). */
    const namespaces = new Set<string>();

    const reportName = (node: TSESTree.Node, name: string): void => {
      if (names.has(name)) context.report({ node, messageId: 'wireName', data: { name } });
    };

    const listener = visitModuleReferences((node, source) => {
      const value = source.value;
      if (wireModules.some((m) => value === m || value.startsWith(`${m}/`))) {
        context.report({ node: source, messageId: 'wireModule', data: { module: value } });
        return;
      }
      if (value !== pkg && !value.startsWith(`${pkg}/`)) return;
      if (node.type === AST_NODE_TYPES.ImportDeclaration) {
        for (const spec of node.specifiers) {
          if (spec.type === AST_NODE_TYPES.ImportSpecifier) {
            const imported = staticPropertyName(spec.imported);
            if (imported !== undefined) reportName(spec.imported, imported);
          } else if (spec.type === AST_NODE_TYPES.ImportNamespaceSpecifier) {
            namespaces.add(spec.local.name);
          }
        }
      } else if (node.type === AST_NODE_TYPES.ExportNamedDeclaration) {
        for (const spec of node.specifiers) {
          const local = staticPropertyName(spec.local);
          if (local !== undefined) reportName(spec.local, local);
        }
      }
    });

    return {
      ...listener,
      MemberExpression(node) {
        if (node.object.type !== AST_NODE_TYPES.Identifier || !namespaces.has(node.object.name)) return;
        const name = memberName(node);
        if (name !== undefined) reportName(node.property, name);
      },
    };
  },
});
