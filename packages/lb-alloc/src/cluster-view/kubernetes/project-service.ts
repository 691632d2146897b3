import type { Namespace } from '@ipamkit/models';
import type { IPFamily, LbService } from '../../service/lb-service.js';

interface RawService {
  metadata?: { name?: string; namespace?: string; uid?: string; annotations?: Record<string, string> };
  spec?: { type?: string; loadBalancerClass?: string; loadBalancerIP?: string; ipFamilies?: string[]; ipFamilyPolicy?: string };
  status?: { loadBalancer?: { ingress?: { ip?: string }[] } };
}

/** The fields design/calico-callers.md#service-inputs reads of a Service. */
export function projectService(obj: unknown): LbService | undefined {
  const svc = obj as RawService | null;
  const meta = svc?.metadata;
  if (meta?.name === undefined) return undefined;
  const spec = svc?.spec ?? {};
  return {
    uid: meta.uid ?? '',
    name: meta.name,
    namespace: meta.namespace ?? '',
    type: spec.type ?? 'ClusterIP',
    ...(spec.loadBalancerClass === undefined ? {} : { loadBalancerClass: spec.loadBalancerClass }),
    ...(spec.loadBalancerIP === undefined ? {} : { loadBalancerIP: spec.loadBalancerIP }),
    annotations: { ...(meta.annotations ?? {}) },
    ipFamilies: (spec.ipFamilies ?? []).filter((f): f is IPFamily => f === 'IPv4' || f === 'IPv6'),
    ...(spec.ipFamilyPolicy === undefined ? {} : { ipFamilyPolicy: spec.ipFamilyPolicy }),
    ingressIPs: (svc?.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? ''),
  };
}

export function projectNamespace(obj: unknown): Namespace | undefined {
  const meta = (obj as { metadata?: { name?: string; labels?: Record<string, string> } } | null)?.metadata;
  return meta?.name === undefined ? undefined : { name: meta.name, labels: { ...(meta.labels ?? {}) } };
}
