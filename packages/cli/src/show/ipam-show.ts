import { createIpamClient, type BlockUtilization, type PoolUtilization } from '@ipamkit/ipam-core';
import { IPInCooldownError, NotFoundError, type IPAMConfig } from '@ipamkit/models';
import { parseIPArgument, sortedByCidr } from '../address-order.js';
import type { CommandContext } from '../cli-io.js';
import { AddressInCooldownError } from '../errors.js';
import { borrowedAllocations, type BorrowedRow } from './borrowed-allocations.js';

/** The pseudo-pool GetUtilization appends for blocks outside every pool (design/calico-ipam.md#getutilization). */
const ORPHANED_POOL_NAME = 'orphaned allocation blocks';

export interface ShowOptions {
  readonly ip?: string;
  readonly showBlocks?: boolean;
  readonly showBorrowed?: boolean;
  readonly showConfiguration?: boolean;
}

/** One row of the utilization table; every number is GetUtilization's, never re-derived. */
export interface UtilizationRow {
  readonly grouping: 'IP Pool' | 'Block';
  readonly name?: string;
  readonly cidr: string;
  readonly total: bigint;
  readonly inUse: bigint;
  readonly reserved: bigint;
  readonly free: bigint;
}

export type ShowResult =
  | { readonly mode: 'pools' | 'blocks'; readonly rows: UtilizationRow[] }
  | { readonly mode: 'borrowed'; readonly rows: BorrowedRow[]; readonly unclassified: number }
  | { readonly mode: 'configuration'; readonly config: IPAMConfig }
  | { readonly mode: 'ip'; readonly ip: string; readonly assigned: false }
  | {
      readonly mode: 'ip';
      readonly ip: string;
      readonly assigned: true;
      readonly handleId?: string;
      readonly activeOwnerAttrs: Record<string, string>;
      readonly alternateOwnerAttrs: Record<string, string>;
    };

const poolRow = (p: PoolUtilization): UtilizationRow => ({
  grouping: 'IP Pool',
  name: p.name,
  cidr: p.cidr,
  total: p.capacity,
  inUse: p.inUse,
  reserved: p.reserved,
  free: p.available,
});

const blockRow = (b: BlockUtilization): UtilizationRow => ({
  grouping: 'Block',
  cidr: b.cidr,
  total: b.capacity,
  inUse: b.inUse,
  reserved: b.reserved,
  free: b.available,
});

function utilizationRows(pools: readonly PoolUtilization[], withBlocks: boolean): UtilizationRow[] {
  const rows: UtilizationRow[] = [];
  const byAddress = (blocks: readonly BlockUtilization[]): BlockUtilization[] => sortedByCidr(blocks, (b) => b.cidr);
  for (const pool of pools) {
    // The orphan bucket has no totals of its own (design/calico-callers.md#ipam-show): only its blocks are shown.
    if (pool.name !== ORPHANED_POOL_NAME) rows.push(poolRow(pool));
    if (withBlocks) rows.push(...byAddress(pool.blocks).map(blockRow));
  }
  return rows;
}

/** `ipam show` (design/calico-callers.md#ipam-show); mode precedence: --ip, --show-blocks, --show-borrowed, --show-configuration. */
export async function ipamShow(ctx: CommandContext, options: ShowOptions = {}): Promise<ShowResult> {
  const client = createIpamClient({ datastore: ctx.datastore, clock: ctx.clock });
  if (options.ip !== undefined) {
    const ip = parseIPArgument(options.ip);
    try {
      const attrs = await client.getAssignmentAttributes(ip);
      return {
        mode: 'ip',
        ip,
        assigned: true,
        ...(attrs.handleId === undefined ? {} : { handleId: attrs.handleId }),
        activeOwnerAttrs: attrs.activeOwnerAttrs,
        alternateOwnerAttrs: attrs.alternateOwnerAttrs,
      };
    } catch (err) {
      if (err instanceof IPInCooldownError) throw new AddressInCooldownError(ip);
      if (err instanceof NotFoundError) return { mode: 'ip', ip, assigned: false };
      throw err;
    }
  }
  if (options.showBlocks === true) return { mode: 'blocks', rows: utilizationRows(await client.getUtilization(), true) };
  if (options.showBorrowed === true) return { mode: 'borrowed', ...(await borrowedAllocations(ctx.datastore)) };
  if (options.showConfiguration === true) return { mode: 'configuration', config: await client.getIPAMConfig() };
  return { mode: 'pools', rows: utilizationRows(await client.getUtilization(), false) };
}
