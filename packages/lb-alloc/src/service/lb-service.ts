/**
 * What the controller reads of a Service (design/calico-callers.md#service-inputs): a projection, never the whole
 * object, so both cluster views hold the same small record.
 */
export type IPFamily = 'IPv4' | 'IPv6';

export interface LbService {
  readonly uid: string;
  readonly name: string;
  readonly namespace: string;
  /** `spec.type`, e.g. `LoadBalancer`, `ClusterIP`. */
  readonly type: string;
  readonly loadBalancerClass?: string;
  /** `spec.loadBalancerIP`; '' or absent when unset. */
  readonly loadBalancerIP?: string;
  readonly annotations: Readonly<Record<string, string>>;
  readonly ipFamilies: readonly IPFamily[];
  /** Kubernetes always defaults it; other text is kept so that design/calico-callers.md#per-service-sync's "other value" row applies. */
  readonly ipFamilyPolicy?: string;
  /** The `ip` of every `status.loadBalancer.ingress` entry (entries without one are kept as ''). */
  readonly ingressIPs: readonly string[];
}

/** Who an allocation belongs to: the tracker's key (design/calico-callers.md#allocation-tracker). */
export interface ServiceKey {
  readonly handle: string;
  readonly name: string;
  readonly namespace: string;
}

export function serviceKeyString(key: ServiceKey): string {
  return `${key.namespace}/${key.name}/${key.handle}`;
}

export function namespacedName(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}
