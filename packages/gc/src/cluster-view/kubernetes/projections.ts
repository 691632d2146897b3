import type { ClusterNode, PodProjection, VmiProjection } from '../cluster-view.js';

interface RawMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  ownerReferences?: { kind?: string }[];
}

interface RawPod {
  metadata?: RawMeta;
  spec?: { nodeName?: string };
  status?: { podIP?: string; podIPs?: { ip?: string }[]; phase?: string; reason?: string };
}

const metaOf = (obj: unknown): RawMeta => (obj as { metadata?: RawMeta } | null)?.metadata ?? {};

/**
 * The fields the collector keeps of a Pod (design/calico-callers.md#gc-inputs "Pod cache slimming", narrower still).
 * Addresses count as reported only when both `status.podIP` and `status.podIPs` are set, which is
 * exactly when Calico's validity check looks at them (design/calico-callers.md#validity-check row 7). `reason` is kept only for live
 * reads, as Calico's cache strips it.
 */
export function projectPod(obj: unknown, options: { live: boolean }): PodProjection | undefined {
  const pod = obj as RawPod;
  const meta = metaOf(obj);
  if (meta.name === undefined) return undefined;
  const podIP = pod.status?.podIP ?? '';
  const podIPs = (pod.status?.podIPs ?? []).map((p) => p.ip ?? '').filter((ip) => ip !== '');
  const reason = options.live ? pod.status?.reason : undefined;
  return {
    uid: meta.uid ?? '',
    name: meta.name,
    namespace: meta.namespace ?? '',
    nodeName: pod.spec?.nodeName ?? '',
    ips: podIP === '' || podIPs.length === 0 ? [] : podIPs,
    phase: pod.status?.phase ?? '',
    ...(reason === undefined ? {} : { reason }),
  };
}

export function projectNode(obj: unknown): ClusterNode | undefined {
  const meta = metaOf(obj);
  return meta.name === undefined ? undefined : { name: meta.name, labels: { ...(meta.labels ?? {}) } };
}

/** Namespace and name only: existence is all the collector asks of VMs and Services. */
export function projectKey(obj: unknown): { namespace: string; name: string } | undefined {
  const meta = metaOf(obj);
  return meta.name === undefined ? undefined : { namespace: meta.namespace ?? '', name: meta.name };
}

export function projectVmi(obj: unknown): VmiProjection | undefined {
  const meta = metaOf(obj);
  if (meta.name === undefined) return undefined;
  return { namespace: meta.namespace ?? '', name: meta.name, ownerKinds: (meta.ownerReferences ?? []).map((r) => r.kind ?? '') };
}
