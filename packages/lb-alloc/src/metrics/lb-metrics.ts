import { cidrContains, type IPPool } from '@ipamkit/models';
import { Counter, Gauge, type Registry } from 'prom-client';

/** Why a managed Service holds fewer addresses than it should (the `reason` label). */
export type PendingReason = 'no_pools' | 'invalid_request' | 'assign_failed' | 'pool_exhausted' | 'namespace_missing';

export const PENDING_REASONS: readonly PendingReason[] = ['no_pools', 'invalid_request', 'assign_failed', 'pool_exhausted', 'namespace_missing'];

/**
 * The controller's metrics (Calico has none, design/calico-callers.md#loadbalancer-metrics). Gauges are recomputed from the tracker and
 * the pending map after every sync, never incremented, so they cannot drift.
 */
export class LbMetrics {
  private readonly assigned: Gauge<'ippool'>;
  private readonly pending: Gauge<'reason'>;
  private readonly syncs: Counter<'kind'>;
  private readonly errors: Counter<'operation'>;
  private readonly seenPools = new Set<string>();

  constructor(readonly registry: Registry) {
    const registers = [registry];
    this.assigned = new Gauge({ name: 'ipamkit_lb_addresses_assigned', help: 'LoadBalancer addresses held by Services, by IP pool', labelNames: ['ippool'], registers });
    this.pending = new Gauge({ name: 'ipamkit_lb_services_pending', help: 'Managed LoadBalancer Services holding fewer addresses than they should, by reason', labelNames: ['reason'], registers });
    this.syncs = new Counter({ name: 'ipamkit_lb_syncs_total', help: 'Synchronisations run, by kind (full or service)', labelNames: ['kind'], registers });
    this.errors = new Counter({ name: 'ipamkit_lb_errors_total', help: 'Failed IPAM or status operations, by operation', labelNames: ['operation'], registers });
    for (const reason of PENDING_REASONS) this.pending.set({ reason }, 0);
  }

  countSync(kind: 'full' | 'service'): void {
    this.syncs.inc({ kind });
  }

  countError(operation: 'assign' | 'release' | 'status' | 'load'): void {
    this.errors.inc({ operation });
  }

  /** Recomputes both gauges; an address outside every pool counts under `ippool=""`. */
  update(args: { readonly ips: readonly string[]; readonly pools: readonly IPPool[]; readonly pending: Iterable<PendingReason> }): void {
    const perPool = new Map<string, number>();
    for (const pool of args.pools) perPool.set(pool.name, 0);
    for (const ip of args.ips) {
      const pool = args.pools.find((p) => safeContains(p.cidr, ip));
      const name = pool?.name ?? '';
      perPool.set(name, (perPool.get(name) ?? 0) + 1);
    }
    for (const name of this.seenPools) if (!perPool.has(name)) this.assigned.remove({ ippool: name });
    this.seenPools.clear();
    for (const [ippool, count] of perPool) {
      this.assigned.set({ ippool }, count);
      this.seenPools.add(ippool);
    }
    const counts = new Map<PendingReason, number>(PENDING_REASONS.map((r) => [r, 0]));
    for (const reason of args.pending) counts.set(reason, (counts.get(reason) ?? 0) + 1);
    for (const [reason, count] of counts) this.pending.set({ reason }, count);
  }
}

function safeContains(cidr: string, ip: string): boolean {
  try {
    return cidrContains(cidr, ip);
  } catch {
    return false;
  }
}
