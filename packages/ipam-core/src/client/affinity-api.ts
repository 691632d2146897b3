import {
  type AllocationBlock,
  type BlockOwner,
  ConflictError,
  type DefaultedIPPool,
  type IPAMConfig,
  NotFoundError,
  parseCidr,
  ValidationError,
  canonicalCidr,
  cidrContains,
  blocksOf,
} from '@ipamkit/models';
import { claimAffineBlock, getPendingAffinity } from './affinity-claims.js';
import { decideHostname } from './auto-assign.js';
import type { ClientDeps } from './client-deps.js';
import { BlockClaimConflictError, InvalidSizeError, MaxRetriesError } from './client-errors.js';
import type { AffinityConfig } from './client-types.js';
import { readIpamConfig } from './ipam-config-ops.js';
import { defaultedPools, enabledPools, poolContaining } from './pool-qualification.js';
import { releaseBlockAffinityOf } from './release-block-affinity.js';
import { DATASTORE_RETRIES, withCasRetry } from './with-cas-retry.js';

const isConflict = (err: unknown): boolean => err instanceof ConflictError;
const ignorable = (err: unknown): boolean => err instanceof BlockClaimConflictError || err instanceof NotFoundError;

function ownerOf(affinity: AffinityConfig): BlockOwner {
  return { type: affinity.affinityType, host: decideHostname(affinity.host) };
}

/** The enabled pool holding `cidr`, which must be at least one block (design/calico-ipam.md#affinity-management steps 1–2). */
async function poolForRange(deps: ClientDeps, cidr: string): Promise<{ pool: DefaultedIPPool; range: string }> {
  let range: string;
  try {
    range = canonicalCidr(cidr);
  } catch (err) {
    throw new ValidationError(`invalid CIDR ${JSON.stringify(cidr)}`, { cause: err });
  }
  const pool = poolContaining(enabledPools(defaultedPools(await deps.ds.ipPools.list())), range.split('/')[0] ?? range);
  if (pool === undefined) throw new ValidationError(`The requested CIDR (${cidr}) is not within any configured pools.`);
  if (parseCidr(range).prefixLength > pool.blockSize) throw new InvalidSizeError(cidr);
  return { pool, range };
}

/** ClaimAffinity (design/calico-ipam.md#affinity-management): claim every block of `cidr`; blocks owned by others are `failed`. */
export async function claimAffinity(deps: ClientDeps, cidr: string, affinity: AffinityConfig): Promise<{ claimed: string[]; failed: string[] }> {
  const { pool, range } = await poolForRange(deps, cidr);
  const owner = ownerOf(affinity);
  const claimed: string[] = [];
  const failed: string[] = [];
  for (const blockCidr of blocksOf(range, pool.blockSize)) {
    try {
      await withCasRetry(async () => claimAffineBlock(deps, await getPendingAffinity(deps, owner, blockCidr), undefined), {
        isRetryable: isConflict,
        operation: `claim ${blockCidr}`,
      });
      claimed.push(blockCidr);
    } catch (err) {
      if (!(err instanceof BlockClaimConflictError)) throw err;
      failed.push(blockCidr);
    }
  }
  return { claimed, failed };
}

/**
 * ReleaseAffinity (design/calico-ipam.md#affinity-management): host affinities of every block in `cidr`. With
 * `mustBeEmpty`, a block with addresses stops the call with BlockNotEmptyError (blocks before it
 * stay released).
 */
export async function releaseAffinity(deps: ClientDeps, cidr: string, host: string, mustBeEmpty: boolean): Promise<void> {
  const { pool, range } = await poolForRange(deps, cidr);
  const owner: BlockOwner = { type: 'host', host: decideHostname(host) };
  const config = await readIpamConfig(deps.ds, deps.windowsHost);
  for (const blockCidr of blocksOf(range, pool.blockSize)) {
    await releaseIgnoring(deps, config, owner, blockCidr, mustBeEmpty);
  }
}

async function releaseIgnoring(deps: ClientDeps, config: IPAMConfig, owner: BlockOwner, cidr: string, requireEmpty: boolean): Promise<void> {
  try {
    await withCasRetry(() => releaseBlockAffinityOf(deps, config, owner, cidr, { requireEmpty }), {
      isRetryable: isConflict,
      operation: `release affinity ${cidr}`,
    });
  } catch (err) {
    if (!ignorable(err)) throw err;
  }
}

/**
 * ReleaseHostAffinities (design/calico-ipam.md#affinity-management): every affinity of the owner, both families; errors
 * (such as BlockNotEmptyError) are collected and the last is thrown after trying them all.
 */
export async function releaseHostAffinities(deps: ClientDeps, affinity: AffinityConfig, mustBeEmpty: boolean): Promise<void> {
  const owner = ownerOf(affinity);
  const [config, affinities] = await Promise.all([
    readIpamConfig(deps.ds, deps.windowsHost),
    deps.ds.affinities.list({ host: owner.host, type: owner.type }),
  ]);
  let last: Error | undefined;
  for (const version of [4, 6]) {
    for (const a of affinities.filter((x) => x.cidr.includes(':') === (version === 6))) {
      try {
        await releaseIgnoring(deps, config, owner, a.cidr, mustBeEmpty);
      } catch (err) {
        last = err instanceof Error ? err : new Error(String(err));
      }
    }
  }
  if (last !== undefined) throw last;
}

/**
 * ReleasePoolAffinities (design/calico-ipam.md#affinity-management): every affinity, of any owner, to a block of the pool;
 * non-empty blocks keep their addresses and become unaffine. Repeats while owners race it.
 */
export async function releasePoolAffinities(deps: ClientDeps, poolCidr: string): Promise<void> {
  const pool = canonicalCidr(poolCidr);
  const config = await readIpamConfig(deps.ds, deps.windowsHost);
  for (let round = 0; round < DATASTORE_RETRIES; round += 1) {
    const owners = new Map<string, BlockOwner>();
    for (const a of await deps.ds.affinities.list()) {
      if (cidrContains(pool, a.cidr)) owners.set(a.cidr, { type: a.type, host: a.host });
    }
    if (owners.size === 0) return;
    let again = false;
    for (const [cidr, owner] of owners) {
      try {
        await withCasRetry(() => releaseBlockAffinityOf(deps, config, owner, cidr, { requireEmpty: false }), { isRetryable: isConflict });
      } catch (err) {
        if (err instanceof BlockClaimConflictError) again = true;
        else if (!(err instanceof NotFoundError)) throw err;
      }
    }
    if (!again) return;
  }
  throw new MaxRetriesError(`release affinities of pool ${pool}`, DATASTORE_RETRIES);
}

/**
 * ReleaseBlockAffinity (design/calico-ipam.md#affinity-management): once, no retry loop. `mustBeEmpty` is a hard
 * precondition: a block with any allocation (cooldown included) throws BlockNotEmptyError.
 */
export async function releaseBlockAffinity(deps: ClientDeps, block: AllocationBlock, mustBeEmpty: boolean): Promise<void> {
  if (block.affinity === undefined) return;
  const config = await readIpamConfig(deps.ds, deps.windowsHost);
  await releaseBlockAffinityOf(deps, config, block.affinity, block.cidr, { requireEmpty: mustBeEmpty }).catch((err: unknown) => {
    if (!ignorable(err)) throw err;
  });
}

/** RemoveIPAMHost (design/calico-ipam.md#affinity-management): release the host's affinities (addresses stay allocated). */
export async function removeIPAMHost(deps: ClientDeps, affinity: AffinityConfig): Promise<void> {
  // Calico also deletes the etcd IPAMHost marker; our Datastore has no such object, so the
  // affinities are all there is to remove.
  await releaseHostAffinities(deps, affinity, false);
}
