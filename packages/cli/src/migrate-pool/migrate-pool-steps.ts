import { applyWhatIf, createIpamClient, isEmpty, loadClusterSnapshot } from '@ipamkit/ipam-core';
import { cidrContains, type IPPool } from '@ipamkit/models';
import type { CommandContext } from '../cli-io.js';
import { CliUsageError, PoolNotDrainedError } from '../errors.js';
import { startChange } from './migrate-pool-plan.js';
import { readMigrationPools, targetPool } from './migration-pools.js';
import { byNamespace, poolContents, type PoolAllocation } from './pool-allocations.js';

export interface MigrationStart {
  readonly from: string;
  readonly to: string;
  readonly createdTo: boolean;
  readonly enabledTo: boolean;
  readonly disabledFrom: boolean;
  /** The pods to restart (the operator's choice when; the tool never deletes a pod). */
  readonly workloads: readonly PoolAllocation[];
}

/**
 * `ipam migrate-pool start`: create or enable the new pool, then disable the old one, so there is
 * never a moment with neither. Each write is skipped when already done, so a re-run resumes.
 */
export async function startPoolMigration(ctx: CommandContext, args: { from: string; to: string; toFile?: readonly IPPool[] }): Promise<MigrationStart> {
  const ds = ctx.datastore;
  const pools = await readMigrationPools(ds, args.from, args.to);
  if (pools.from === undefined) throw new CliUsageError(`pool ${args.from} does not exist`);
  const from = pools.from;
  const to = targetPool(pools, args.to, args.toFile, from);
  const snapshot = await loadClusterSnapshot(ds, ctx.clock.now());
  // The same rules a real create meets (pool rules, no overlap), checked before the first write.
  applyWhatIf(snapshot, startChange(from.name, to, pools.to !== undefined));
  let createdTo = false;
  let enabledTo = false;
  if (pools.to === undefined) {
    await ds.ipPools.create({ ...to, disabled: false });
    createdTo = true;
  } else if (pools.to.disabled === true) {
    await ds.ipPools.update({ ...pools.to, disabled: false });
    enabledTo = true;
  }
  let disabledFrom = false;
  if (from.disabled !== true) {
    await ds.ipPools.update({ ...from, disabled: true });
    disabledFrom = true;
  }
  const workloads = poolContents(snapshot.blocks, from.cidr).allocations.filter((a) => a.kind === 'workload');
  return { from: from.name, to: to.name, createdTo, enabledTo, disabledFrom, workloads };
}

export type MigrationPhase = 'not-started' | 'draining' | 'drained' | 'finished';

export interface MigrationStatus {
  readonly from: string;
  readonly phase: MigrationPhase;
  /** Allocations of every kind still in the old pool. */
  readonly remaining: number;
  readonly byNamespace: readonly { namespace: string; count: number }[];
  readonly allocations: readonly PoolAllocation[];
  readonly cooldown: number;
}

/** `ipam migrate-pool status`: what is still on the old pool, by namespace. Read-only. */
export async function poolMigrationStatus(ctx: CommandContext, args: { from: string; to: string }): Promise<MigrationStatus> {
  const pools = await readMigrationPools(ctx.datastore, args.from, args.to);
  if (pools.from === undefined) return { from: args.from, phase: 'finished', remaining: 0, byNamespace: [], allocations: [], cooldown: 0 };
  const contents = poolContents(await ctx.datastore.blocks.list(), pools.from.cidr);
  const remaining = contents.allocations.length;
  const phase: MigrationPhase = pools.from.disabled !== true ? 'not-started' : remaining > 0 || contents.cooldown > 0 ? 'draining' : 'drained';
  return { from: pools.from.name, phase, remaining, byNamespace: byNamespace(contents.allocations), allocations: contents.allocations, cooldown: contents.cooldown };
}

export interface MigrationFinish {
  readonly from: string;
  readonly alreadyFinished: boolean;
  readonly releasedAffinities: number;
  readonly deletedBlocks: number;
}

function drainedOrThrow(name: string, contents: ReturnType<typeof poolContents>): void {
  const left = contents.allocations.length;
  if (left > 0) {
    const summary = byNamespace(contents.allocations).map((n) => `${n.namespace}: ${n.count}`);
    const others = contents.allocations.filter((a) => a.kind !== 'workload').length;
    if (others > 0) summary.push(`not workloads: ${others}`);
    throw new PoolNotDrainedError(`pool ${name} still holds ${left} allocation${left === 1 ? '' : 's'} (${summary.join(', ')}); restart those pods (see status) and run finish again`);
  }
  if (contents.cooldown > 0) {
    throw new PoolNotDrainedError(`pool ${name} has ${contents.cooldown} released address${contents.cooldown === 1 ? '' : 'es'} in cooldown; run finish again once the cooldown is over`);
  }
}

/**
 * `ipam migrate-pool finish`: refuses while the old pool holds any allocation or cooldown address,
 * or was never disabled; then releases its affinities (deleting the empty affine blocks), deletes
 * its remaining empty blocks (compare-and-delete on the revision checked empty), and deletes the
 * pool on the revision read. A re-run after a failure resumes; once the pool is gone it is done.
 */
export async function finishPoolMigration(ctx: CommandContext, args: { from: string; to: string }): Promise<MigrationFinish> {
  const ds = ctx.datastore;
  const pools = await readMigrationPools(ds, args.from, args.to);
  const from = pools.from;
  if (from === undefined) return { from: args.from, alreadyFinished: true, releasedAffinities: 0, deletedBlocks: 0 };
  if (from.disabled !== true) throw new PoolNotDrainedError(`migration not started: pool ${from.name} is still enabled; run start first`);
  const contents = poolContents(await ds.blocks.list(), from.cidr);
  drainedOrThrow(from.name, contents);
  const inPool = (cidr: string): boolean => cidrContains(from.cidr, cidr.split('/')[0] ?? cidr);
  const affinities = (await ds.affinities.list()).filter((a) => !a.deleted && inPool(a.cidr));
  const ipam = createIpamClient({ datastore: ds, clock: ctx.clock });
  await ipam.releasePoolAffinities(from.cidr);
  for (const block of await ds.blocks.list()) {
    if (block.deleted || !inPool(block.cidr)) continue;
    // Unaffine leftovers: deleted on the revision just checked empty, so a late allocation wins.
    if (!isEmpty(block)) drainedOrThrow(from.name, poolContents([block], from.cidr));
    await ds.blocks.delete(block);
  }
  const stillThere = (await ds.blocks.list()).filter((b) => !b.deleted && inPool(b.cidr));
  if (stillThere.length > 0) throw new PoolNotDrainedError(`pool ${from.name} still has ${stillThere.length} blocks; run finish again`);
  await ds.ipPools.delete(from.name, from.revision);
  return { from: from.name, alreadyFinished: false, releasedAffinities: affinities.length, deletedBlocks: contents.blocks };
}
