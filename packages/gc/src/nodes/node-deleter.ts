import { type Datastore, NotFoundError } from '@ipamkit/models';
import type { ClusterView } from '../cluster-view/cluster-view.js';
import { kubernetesNameOf } from './node-resolver.js';

/**
 * etcd mode only (design/calico-callers.md#node-deletion): deletes Calico nodes whose `k8s` orchestrator reference names
 * a Kubernetes node that no longer exists, so their tunnel addresses and affinities can go. Nodes
 * with no such reference are left alone. Returns the names deleted.
 */
export async function deleteStaleCalicoNodes(datastore: Datastore, view: ClusterView): Promise<string[]> {
  const deleted: string[] = [];
  for (const node of await datastore.nodes.list()) {
    const knode = kubernetesNameOf(node);
    if (knode === undefined || view.getNode(knode) !== undefined) continue;
    try {
      await datastore.nodes.delete(node.name, node.revision);
      deleted.push(node.name);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
    }
  }
  return deleted;
}
