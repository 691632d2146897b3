import { NotFoundError, type Namespace } from '@ipamkit/models';
import type { Workload } from '../config/workload.js';
import { AllocationError } from '../errors.js';
import type { AnnotationSources } from '../request/allocation-request.js';
import type { Invocation } from '../runtime/invocation.js';

export interface PodContext extends AnnotationSources {
  /** The namespace with its labels, for pool namespaceSelectors. */
  namespace?: Namespace;
}

/**
 * Reads the pod's and namespace's annotations and labels when the pod is a Kubernetes pod,
 * `policy.type` is `k8s` and Kubernetes access is configured (Calico's main plugin does this; we
 * have none, design/cni.md "Annotations"). The namespace is also read, for its labels, when a
 * kubeconfig is configured (design/calico-callers.md#auto-assign-path step 4).
 */
/** Which of the pod and its namespace this call reads (both only for a Kubernetes pod under `policy.type: k8s`). */
function podContextReads(inv: Invocation, workload: Workload): { readonly wantPod: boolean; readonly wantNamespace: boolean } {
  const k8sPolicy = inv.conf.policy.type === 'k8s';
  return {
    wantNamespace: (k8sPolicy || (inv.conf.kubernetes.kubeconfig ?? '') !== '') && workload.namespace !== '',
    wantPod: k8sPolicy && workload.orchestrator === 'k8s',
  };
}

/** True when the call reads the pod or its namespace from the API server, where Kubernetes access is configured. */
export function readsPodContext(inv: Invocation, workload: Workload): boolean {
  const { wantPod, wantNamespace } = podContextReads(inv, workload);
  return wantPod || wantNamespace;
}

export async function lookupPodContext(inv: Invocation, workload: Workload): Promise<PodContext> {
  const { wantPod, wantNamespace } = podContextReads(inv, workload);
  if (!wantNamespace && !wantPod) return {};
  const kube = inv.kubeReader();
  if (kube === undefined) {
    inv.log.debug('no Kubernetes access configured: annotations and namespace labels are not read');
    return {};
  }
  // The two reads go out together: a call waits for one round trip, not two. A failed pod read is
  // reported before a failed namespace read, as if they had run in turn.
  const [pod, namespace] = await Promise.allSettled([
    wantPod ? kube.getPod(workload.namespace, workload.pod) : undefined,
    wantNamespace ? kube.getNamespace(workload.namespace) : undefined,
  ]);
  const out: PodContext = {};
  if (pod.status === 'rejected') {
    const err: unknown = pod.reason;
    if (err instanceof NotFoundError) throw new AllocationError(`failed to get pod ${workload.namespace}/${workload.pod}: pod not found`, { cause: err });
    throw err;
  }
  if (pod.value !== undefined) out.podAnnotations = pod.value.annotations;
  if (namespace.status === 'rejected') {
    const err: unknown = namespace.reason;
    if (err instanceof NotFoundError) throw new AllocationError(`failed to get namespace ${workload.namespace}: ${err.message}`, { cause: err });
    throw err;
  }
  if (namespace.value !== undefined) {
    out.namespace = { name: workload.namespace, labels: namespace.value.labels };
    if (wantPod) out.namespaceAnnotations = namespace.value.annotations;
  }
  return out;
}
