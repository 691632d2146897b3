import type { CniArgs } from '../config/cni-args.js';
import type { NetConf } from '../config/net-config.js';
import { NetworkConfigError } from '../errors.js';
import { addressAnnotation, ANNOTATIONS, explicitAddresses, familiesAnnotation, poolAnnotation } from './annotations.js';

/** What one ADD must do, after every source of intent has been weighed (design/cni.md, "Annotations"). */
export type AllocationRequest =
  | { kind: 'explicit'; ips: string[]; source: 'CNI_ARGS' | 'runtimeConfig' | 'ipAddrs' }
  | { kind: 'noIpam'; ips: string[] }
  | { kind: 'auto'; assignIpv4: boolean; assignIpv6: boolean; ipv4Pools: string[]; ipv6Pools: string[] };

export interface AnnotationSources {
  /** Undefined when the pod was not looked up (not a Kubernetes pod, or no `policy.type: k8s`). */
  podAnnotations?: Record<string, string>;
  namespaceAnnotations?: Record<string, string>;
}

/**
 * Pure: CNI_ARGS `IP=` > `runtimeConfig.ips` > pod `ipAddrs` > pod `ipAddrsNoIpam` > auto-assign,
 * and for auto-assign each of ipv4pools / ipv6pools / ipFamilies independently from pod >
 * namespace > network config > default (all pools, IPv4 only).
 */
export function allocationRequest(conf: NetConf, args: CniArgs, sources: AnnotationSources): AllocationRequest {
  if (args.ip !== undefined) return { kind: 'explicit', ips: [args.ip], source: 'CNI_ARGS' };
  if (conf.runtimeIps.length > 0) return { kind: 'explicit', ips: explicitAddresses(conf.runtimeIps, 'runtimeConfig.ips'), source: 'runtimeConfig' };
  const pod = sources.podAnnotations ?? {};
  const ns = sources.namespaceAnnotations ?? {};
  const ipAddrs = addressAnnotation(pod, ANNOTATIONS.ipAddrs);
  const noIpam = addressAnnotation(pod, ANNOTATIONS.ipAddrsNoIpam);
  if (ipAddrs !== undefined && noIpam !== undefined) {
    throw new NetworkConfigError("can't have both annotations: 'ipAddrs' and 'ipAddrsNoIpam' in use at the same time");
  }
  if (ipAddrs !== undefined) return { kind: 'explicit', ips: ipAddrs, source: 'ipAddrs' };
  if (noIpam !== undefined) {
    if (!conf.featureControl.ipAddrsNoIpam) throw new NetworkConfigError('requested feature is not enabled: ip_addrs_no_ipam');
    return { kind: 'noIpam', ips: noIpam };
  }
  const families = familiesAnnotation(pod) ?? familiesAnnotation(ns);
  const assignIpv4 = families?.v4 ?? conf.ipam.assignIpv4 !== 'false';
  const assignIpv6 = families?.v6 ?? conf.ipam.assignIpv6 === 'true';
  if (!assignIpv4 && !assignIpv6) throw new NetworkConfigError('no IP family requested: both IPv4 and IPv6 are disabled');
  return {
    kind: 'auto',
    assignIpv4,
    assignIpv6,
    ipv4Pools: poolAnnotation(pod, ANNOTATIONS.ipv4Pools) ?? poolAnnotation(ns, ANNOTATIONS.ipv4Pools) ?? conf.ipam.ipv4Pools,
    ipv6Pools: poolAnnotation(pod, ANNOTATIONS.ipv6Pools) ?? poolAnnotation(ns, ANNOTATIONS.ipv6Pools) ?? conf.ipam.ipv6Pools,
  };
}
