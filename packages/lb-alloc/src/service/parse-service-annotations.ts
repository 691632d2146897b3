import { canonicalAddress, canonicalCidr, definedFields, isIPv4, isIPv6, parseCidr, type IPPool, type IPVersion } from '@ipamkit/models';
import { IPV4_POOLS_ANNOTATION, IPV6_POOLS_ANNOTATION, LOAD_BALANCER_IPS_ANNOTATION } from '../constants.js';
import { ServiceAnnotationError } from '../errors.js';
import { namespacedName, type LbService } from './lb-service.js';

/**
 * The Service's Calico requests, parsed (design/calico-callers.md#service-inputs). An empty JSON array is reported as absent
 * (`undefined`): upstream treats `'[]'` as "present with nothing in it" for pools, which causes
 * release-and-reassign churn (design/calico-callers.md#loadbalancer-defects); see design/lb-alloc.md "Fixed defects".
 */
export interface ServiceRequests {
  /** Requested addresses, canonical; from the annotation, else from `spec.loadBalancerIP`. */
  readonly addresses?: readonly string[];
  /** Where `addresses` came from (the annotation wins over the spec field). */
  readonly addressSource?: 'annotation' | 'spec';
  readonly ipv4Pools?: readonly string[];
  readonly ipv6Pools?: readonly string[];
}

function stringArray(svc: LbService, annotation: string): string[] | undefined {
  const text = svc.annotations[annotation];
  if (text === undefined || text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new ServiceAnnotationError(namespacedName(svc.namespace, svc.name), `${annotation}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    throw new ServiceAnnotationError(namespacedName(svc.namespace, svc.name), `${annotation}: expected a JSON array of strings`);
  }
  return value.length === 0 ? undefined : value;
}

function resolvePools(svc: LbService, entries: string[] | undefined, version: IPVersion, lbPools: readonly IPPool[]): string[] | undefined {
  if (entries === undefined) return undefined;
  const id = namespacedName(svc.namespace, svc.name);
  return entries.map((entry) => {
    // Names are resolved only against LoadBalancer pools (design/calico-callers.md#pool-cache).
    const named = lbPools.find((p) => p.name === entry);
    const text = named?.cidr ?? entry;
    let cidr: ReturnType<typeof parseCidr>;
    try {
      cidr = parseCidr(text);
    } catch (err) {
      throw new ServiceAnnotationError(id, `error parsing pool "${entry}": invalid CIDR address: ${entry}`, { cause: err });
    }
    if (cidr.version !== version) throw new ServiceAnnotationError(id, `"${entry}" isn't a IPv${version} address`);
    return canonicalCidr(text);
  });
}

function parseAddresses(svc: LbService, entries: string[]): string[] {
  const id = namespacedName(svc.namespace, svc.name);
  const out = entries.map((ip) => {
    if (!isIPv4(ip) && !isIPv6(ip)) throw new ServiceAnnotationError(id, `could not parse ${ip} as a valid IP address`);
    return canonicalAddress(ip);
  });
  const n4 = out.filter((ip) => isIPv4(ip)).length;
  const n6 = out.length - n4;
  if (n4 > 1 || n6 > 1) {
    throw new ServiceAnnotationError(id, `at max only one ipv4 and one ipv6 address can be specified. Received ${n4} ipv4 and ${n6} ipv6 addresses`);
  }
  return out;
}

/** Parses all three annotations and `spec.loadBalancerIP`; throws ServiceAnnotationError. */
export function parseServiceAnnotations(svc: LbService, lbPools: readonly IPPool[]): ServiceRequests {
  const ipv4Pools = resolvePools(svc, stringArray(svc, IPV4_POOLS_ANNOTATION), 4, lbPools);
  const ipv6Pools = resolvePools(svc, stringArray(svc, IPV6_POOLS_ANNOTATION), 6, lbPools);
  const annotated = stringArray(svc, LOAD_BALANCER_IPS_ANNOTATION);
  let addresses: string[] | undefined;
  let addressSource: 'annotation' | 'spec' | undefined;
  if (annotated !== undefined) {
    addresses = parseAddresses(svc, annotated);
    addressSource = 'annotation';
  } else if (svc.loadBalancerIP !== undefined && svc.loadBalancerIP !== '') {
    if (!isIPv4(svc.loadBalancerIP) && !isIPv6(svc.loadBalancerIP)) {
      throw new ServiceAnnotationError(namespacedName(svc.namespace, svc.name), `invalid IP in spec.loadBalancerIP: ${svc.loadBalancerIP}`);
    }
    addresses = [canonicalAddress(svc.loadBalancerIP)];
    addressSource = 'spec';
  }
  return definedFields({ addresses, addressSource, ipv4Pools, ipv6Pools });
}
