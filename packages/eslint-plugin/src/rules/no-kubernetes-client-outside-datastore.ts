import { createRule } from '../utils/create-rule.js';
import { optionsObject, STRING_LIST } from '../utils/options-schema.js';
import { filenameMatchesAny } from '../utils/glob.js';
import { visitModuleReferences } from '../utils/module-visitor.js';

export interface NoKubernetesClientOptions {
  /** Files that may import the Kubernetes client. Replaces the default list. */
  allow?: string[];
  /** Extra allowed files on top of `allow` (e.g. the controllers' informer cluster views). */
  additionalAllow?: string[];
  /** Module names treated as the Kubernetes client (subpaths included). */
  modules?: string[];
}

export const KUBERNETES_CLIENT_DEFAULTS = {
  allow: ['packages/ipam-datastore/src/kubernetes/**', 'packages/ipam-datastore/tests/kubernetes/**', 'packages/test-utils/**'],
  modules: ['@kubernetes/client-node'],
};

export const noKubernetesClientOutsideDatastore = createRule<NoKubernetesClientOptions, 'kubernetesClient'>({
  name: 'no-kubernetes-client-outside-datastore',
  description: 'Disallow importing the Kubernetes client outside the Kubernetes datastore backend',
  rubric: 'design/architecture.md#layers; design/README.md layering paragraph',
  messages: {
    kubernetesClient:
      'Do not import `{{module}}` here: only the Kubernetes datastore backend (and allowed cluster views) talk to the API server; go through the Datastore interface.',
  },
  schema: optionsObject({ allow: STRING_LIST, additionalAllow: STRING_LIST, modules: STRING_LIST }),
  create(context, [options]) {
    const allow = [...(options.allow ?? KUBERNETES_CLIENT_DEFAULTS.allow), ...(options.additionalAllow ?? [])];
    if (filenameMatchesAny(context.filename, allow)) return {};
    const modules = options.modules ?? KUBERNETES_CLIENT_DEFAULTS.modules;
    return visitModuleReferences((_node, source) => {
      const match = modules.find((m) => source.value === m || source.value.startsWith(`${m}/`));
      if (match !== undefined) context.report({ node: source, messageId: 'kubernetesClient', data: { module: match } });
    });
  },
});
