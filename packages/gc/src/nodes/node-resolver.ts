import { type Datastore, type Node, NotFoundError } from '@ipamkit/models';
import type { ClusterView } from '../cluster-view/cluster-view.js';
import { KUBERNETES_ORCHESTRATOR } from '../constants.js';
import type { GcState } from '../state/gc-state.js';

/** How a Calico node name maps to a Kubernetes node (design/calico-callers.md#leak-classification). */
export type NodeResolution = { readonly knode: string } | { readonly error: 'not-kubernetes' | 'lookup-failed' };

export interface NodeResolver {
  resolve(calicoNode: string): Promise<NodeResolution>;
}

/**
 * The `k8s` orchestrator reference of a Calico node (etcd mode keeps it in `spec.orchRefs`, which
 * the models codec carries in `unknownFields`); undefined for a node that is not Kubernetes'.
 */
export function kubernetesNameOf(node: Node): string | undefined {
  const refs = node.unknownFields?.spec?.['orchRefs'];
  if (!Array.isArray(refs)) return undefined;
  for (const ref of refs as unknown[]) {
    if (typeof ref !== 'object' || ref === null) continue;
    const { orchestrator, nodeName } = ref as { orchestrator?: unknown; nodeName?: unknown };
    if (orchestrator === KUBERNETES_ORCHESTRATOR && typeof nodeName === 'string' && nodeName !== '') return nodeName;
  }
  return undefined;
}

/**
 * Kubernetes-datastore semantics: the Calico node is the Kubernetes node, so a node resolves to its
 * own name exactly while the view has it. Used with the in-memory view and in KDD.
 */
export function sameNameResolver(view: ClusterView): NodeResolver {
  return {
    resolve: (calicoNode) => {
      try {
        return Promise.resolve({ knode: view.getNode(calicoNode) === undefined ? '' : calicoNode });
      } catch {
        // A cache failure is no evidence the node is gone.
        return Promise.resolve({ knode: calicoNode });
      }
    },
  };
}

/**
 * etcd semantics: Calico nodes come from the datastore (cached by the collector from its watch),
 * and carry a `k8s` orchestrator reference naming the Kubernetes node, which may differ.
 */
export function datastoreNodeResolver(state: GcState, datastore: Datastore): NodeResolver {
  return {
    async resolve(calicoNode) {
      const cached = state.kubernetesNodesByCalicoName.get(calicoNode);
      if (cached !== undefined && cached !== '') return { knode: cached };
      let node: Node;
      try {
        node = await datastore.nodes.get(calicoNode);
      } catch (err) {
        if (err instanceof NotFoundError) return { knode: '' };
        return { error: 'lookup-failed' };
      }
      const knode = kubernetesNameOf(node);
      return knode === undefined ? { error: 'not-kubernetes' } : { knode };
    },
  };
}
