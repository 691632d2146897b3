import { addressOf } from '@ipamkit/ipam-core';
import {
  cidrContains,
  isLoadBalancerHandleId,
  parseTunnelHandleId,
  WINDOWS_RESERVED_HANDLE,
  type AllocationBlock,
} from '@ipamkit/models';
import { compareAddresses } from '../address-order.js';

export type AllocationKind = 'workload' | 'tunnel' | 'load-balancer' | 'other';

/** One address held in the pool being migrated away from, with what its attributes say. */
export interface PoolAllocation {
  readonly ip: string;
  readonly block: string;
  readonly kind: AllocationKind;
  readonly handle: string | undefined;
  readonly namespace: string | undefined;
  readonly pod: string | undefined;
  /** The node the attributes name, else the block's affine host. */
  readonly node: string | undefined;
}

export interface PoolContents {
  readonly allocations: PoolAllocation[];
  /** Released addresses still in cooldown: not allocations, but their blocks are not empty yet. */
  readonly cooldown: number;
  readonly blocks: number;
}

function kindOf(handle: string | undefined, attrs: Readonly<Record<string, string>> | undefined): AllocationKind {
  if (handle !== undefined && parseTunnelHandleId(handle) !== undefined) return 'tunnel';
  if (handle !== undefined && isLoadBalancerHandleId(handle)) return 'load-balancer';
  if (attrs?.['pod'] !== undefined || attrs?.['namespace'] !== undefined) return 'workload';
  return 'other';
}

/** Every allocation in the blocks of `poolCidr` (Windows host-reserved ordinals left out), by address. */
export function poolContents(blocks: readonly AllocationBlock[], poolCidr: string): PoolContents {
  const allocations: PoolAllocation[] = [];
  let cooldown = 0;
  let count = 0;
  for (const block of blocks) {
    if (block.deleted || !cidrContains(poolCidr, block.cidr.split('/')[0] ?? block.cidr)) continue;
    count += 1;
    block.allocations.forEach((index, ordinal) => {
      if (index === null) return;
      const attribute = block.attributes[index];
      if (attribute?.releasedAt !== undefined) {
        cooldown += 1;
        return;
      }
      const handle = attribute?.handleId;
      if (handle?.toLowerCase() === WINDOWS_RESERVED_HANDLE) return;
      const attrs = attribute?.activeOwnerAttrs;
      allocations.push({
        ip: addressOf(block, ordinal),
        block: block.cidr,
        kind: kindOf(handle, attrs),
        handle,
        namespace: attrs?.['namespace'],
        pod: attrs?.['pod'],
        node: attrs?.['node'] ?? (block.affinity?.type === 'host' ? block.affinity.host : undefined),
      });
    });
  }
  allocations.sort((a, b) => compareAddresses(a.ip, b.ip));
  return { allocations, cooldown, blocks: count };
}

/** Workload counts by namespace (`(none)` for workloads without one), sorted by namespace. */
export function byNamespace(allocations: readonly PoolAllocation[]): { namespace: string; count: number }[] {
  const counts = new Map<string, number>();
  for (const a of allocations) {
    if (a.kind !== 'workload') continue;
    const ns = a.namespace ?? '(none)';
    counts.set(ns, (counts.get(ns) ?? 0) + 1);
  }
  return [...counts].sort(([a], [b]) => (a < b ? -1 : 1)).map(([namespace, count]) => ({ namespace, count }));
}
