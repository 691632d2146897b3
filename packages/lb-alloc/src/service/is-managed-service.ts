import {
  CALICO_LOAD_BALANCER_CLASS,
  IPV4_POOLS_ANNOTATION,
  IPV6_POOLS_ANNOTATION,
  LOAD_BALANCER_IPS_ANNOTATION,
} from '../constants.js';
import type { LbService } from './lb-service.js';

/** `spec.controllers.loadBalancer.assignIPs`; any other text manages nothing (design/calico-callers.md#loadbalancer-configuration). */
export type AssignIPsMode = 'AllServices' | 'RequestedServicesOnly';

/** True when the Service carries any Calico request; only non-emptiness counts (design/calico-callers.md#managed-services note 1). */
export function hasCalicoRequest(svc: LbService): boolean {
  const nonEmpty = (v: string | undefined): boolean => v !== undefined && v !== '';
  return (
    nonEmpty(svc.annotations[IPV4_POOLS_ANNOTATION]) ||
    nonEmpty(svc.annotations[IPV6_POOLS_ANNOTATION]) ||
    nonEmpty(svc.annotations[LOAD_BALANCER_IPS_ANNOTATION]) ||
    nonEmpty(svc.loadBalancerIP)
  );
}

/** The table of design/calico-callers.md#managed-services */
export function isManagedService(svc: LbService, assignIPs: string): boolean {
  if (svc.type !== 'LoadBalancer') return false;
  const cls = svc.loadBalancerClass ?? '';
  if (assignIPs === 'AllServices') return cls === '' || cls === CALICO_LOAD_BALANCER_CLASS;
  if (assignIPs === 'RequestedServicesOnly') {
    if (cls === CALICO_LOAD_BALANCER_CLASS) return true;
    return cls === '' && hasCalicoRequest(svc);
  }
  return false;
}
