/** Facts of design/calico-callers.md#loadbalancer-controller kept in one place. */

/** The virtual host LoadBalancer allocations are made for (block affinity `virtual:load-balancer`). */
export const LOAD_BALANCER_HOST = 'load-balancer';

export const IPV4_POOLS_ANNOTATION = 'projectcalico.org/ipv4pools';
export const IPV6_POOLS_ANNOTATION = 'projectcalico.org/ipv6pools';
export const LOAD_BALANCER_IPS_ANNOTATION = 'projectcalico.org/loadBalancerIPs';

/** `spec.loadBalancerClass` value that names this controller. */
export const CALICO_LOAD_BALANCER_CLASS = 'calico';

/** Periodic full sync (design/calico-callers.md#loadbalancer-configuration). */
export const FULL_SYNC_INTERVAL_MS = 5 * 60_000;

/** Retry period of the start-up host upgrade (design/calico-callers.md#cold-start-and-events step 2). */
export const UPGRADE_RETRY_MS = 10_000;

/** Default port of `/metrics` and `/healthz` for the bin. */
export const DEFAULT_METRICS_PORT = 9095;
