import { applyWhatIf, computeRunway, loadClusterSnapshot, type WhatIfChange } from '@ipamkit/ipam-core';
import { ipVersionOfCidr, type IPPool } from '@ipamkit/models';
import type { CommandContext } from '../cli-io.js';
import { CliUsageError } from '../errors.js';
import { readMigrationPools, targetPool } from './migration-pools.js';
import { byNamespace, poolContents, type PoolAllocation } from './pool-allocations.js';

export interface MigrationNodePlan {
  readonly node: string;
  /** Workloads on the old pool that would be re-added on this node. */
  readonly workloads: number;
  readonly fits: boolean;
  readonly reason: string | undefined;
}

export interface MigrationPlan {
  readonly from: { readonly name: string; readonly cidr: string; readonly disabled: boolean };
  readonly to: { readonly name: string; readonly cidr: string; readonly exists: boolean; readonly disabled: boolean };
  /** Every workload on the old pool: the list of pods to restart, the operator's choice when. */
  readonly workloads: readonly PoolAllocation[];
  readonly byNamespace: readonly { namespace: string; count: number }[];
  /** Tunnel, LoadBalancer and other addresses: moved by their controllers, not by restarting pods. */
  readonly others: readonly PoolAllocation[];
  readonly cooldown: number;
  /** The new pool's free addresses once the migration has started (old pool disabled). */
  readonly toAvailable: bigint;
  readonly nodes: readonly MigrationNodePlan[];
  /** Every node can re-add all its workloads in the new pool. */
  readonly fits: boolean;
}

/** The change `start` will make, as a what-if: the new pool enabled or created, the old disabled. */
export function startChange(fromName: string, to: IPPool, toExists: boolean): WhatIfChange {
  return toExists ? { disablePools: [fromName], enablePools: [to.name] } : { disablePools: [fromName], addPools: [to] };
}

/**
 * `ipam migrate-pool plan` (design/cli.md "migrate-pool"): the workloads on the old pool, and
 * whether the new pool has the runway to take them back, node by node, once the old one is
 * disabled. Read-only.
 */
export async function planPoolMigration(ctx: CommandContext, args: { from: string; to: string; toFile?: readonly IPPool[] }): Promise<MigrationPlan> {
  const pools = await readMigrationPools(ctx.datastore, args.from, args.to);
  if (pools.from === undefined) throw new CliUsageError(`pool ${args.from} does not exist`);
  const from = pools.from;
  const to = targetPool(pools, args.to, args.toFile, from);
  const snapshot = await loadClusterSnapshot(ctx.datastore, ctx.clock.now());
  const contents = poolContents(snapshot.blocks, from.cidr);
  const workloads = contents.allocations.filter((a) => a.kind === 'workload');
  const perNode = new Map<string, number>();
  for (const w of workloads) if (w.node !== undefined) perNode.set(w.node, (perNode.get(w.node) ?? 0) + 1);
  const after = applyWhatIf(snapshot, startChange(from.name, to, pools.to !== undefined));
  const runway = computeRunway(after, { ipVersions: [ipVersionOfCidr(from.cidr)], podsByNode: perNode });
  const nodes = [...perNode].sort(([a], [b]) => (a < b ? -1 : 1)).map(([node, count]): MigrationNodePlan => {
    const row = runway.nodes.find((n) => n.node === node);
    if (row === undefined) return { node, workloads: count, fits: false, reason: `node ${node} does not exist` };
    const fits = row.reachesTarget === true;
    return { node, workloads: count, fits, reason: fits ? undefined : (row.reasonInFill ?? row.reason) };
  });
  return {
    from: { name: from.name, cidr: from.cidr, disabled: from.disabled === true },
    to: { name: to.name, cidr: to.cidr, exists: pools.to !== undefined, disabled: to.disabled === true },
    workloads,
    byNamespace: byNamespace(workloads),
    others: contents.allocations.filter((a) => a.kind !== 'workload'),
    cooldown: contents.cooldown,
    toAvailable: runway.pools.find((p) => p.pool === to.name)?.available ?? 0n,
    nodes,
    fits: nodes.every((n) => n.fits),
  };
}
