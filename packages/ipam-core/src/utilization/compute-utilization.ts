import type { AllocationBlock, IPPool, IPReservation } from '@ipamkit/models';
import { createUtilizationAccumulator, type PoolUtilization } from './utilization-accumulator.js';

export { ORPHANED_BLOCKS_POOL, type BlockUtilization, type PoolUtilization } from './utilization-accumulator.js';

export interface ComputeUtilizationArgs {
  /** Every pool, disabled ones included, in datastore order. */
  pools: readonly IPPool[];
  blocks: readonly AllocationBlock[];
  reservations: readonly IPReservation[];
  /** Pool names or CIDR strings (exact match); empty or absent means all pools plus orphans. */
  poolsFilter?: readonly string[];
}

/**
 * GetUtilization's arithmetic (design/calico-ipam.md#getutilization) over blocks already read: the fold of
 * `createUtilizationAccumulator` over `blocks`, in their order.
 */
export function computeUtilization(args: ComputeUtilizationArgs): PoolUtilization[] {
  const accumulator = createUtilizationAccumulator(args);
  for (const block of args.blocks) accumulator.add(block);
  return accumulator.result();
}
