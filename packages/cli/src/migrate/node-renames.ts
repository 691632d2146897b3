import type { Node } from '@ipamkit/models';
import { MigrationRejectedError } from '../errors.js';

/**
 * Old → new node names from each Node's `spec.orchRefs` entry with `orchestrator: k8s`
 * (design/calico-callers.md#node-renames). Every node must have one; two nodes must not get the same name.
 */
export function kubernetesNodeRenames(nodes: readonly Node[]): Map<string, string> {
  const renames = new Map<string, string>();
  const owners = new Map<string, string>();
  for (const node of [...nodes].sort((a, b) => a.name.localeCompare(b.name))) {
    const newName = k8sNodeName(node);
    if (newName === undefined) {
      throw new MigrationRejectedError(
        `node ${node.name} missing a 'k8s' orchestrator reference. Unable to export data unless every node has a 'k8s' orchestrator reference`,
      );
    }
    const taken = owners.get(newName);
    if (taken !== undefined) throw new MigrationRejectedError(`nodes ${taken} and ${node.name} both have the Kubernetes name ${newName}`);
    owners.set(newName, node.name);
    renames.set(node.name, newName);
  }
  return renames;
}

/** `spec.orchRefs[orchestrator=k8s].nodeName`, kept by the node codec among the spec's unknown fields. */
function k8sNodeName(node: Node): string | undefined {
  const refs = node.unknownFields?.spec?.orchRefs;
  if (!Array.isArray(refs)) return undefined;
  for (const ref of refs as unknown[]) {
    if (typeof ref !== 'object' || ref === null) continue;
    const { orchestrator, nodeName } = ref as Record<string, unknown>;
    if (orchestrator === 'k8s' && typeof nodeName === 'string' && nodeName !== '') return nodeName;
  }
  return undefined;
}
