import { cidrSize, parseCidr, type DefaultedIPPool } from '@ipamkit/models';
import { unixNanos } from '../block/new-block.js';
import { blockSearchStart, inSearchOrder, randomBlockGenerator } from '../client/block-generators.js';
import type { PlannedFailure, PlannedFamily } from './planned-node.js';
import { addPlannedBlock, usableInNewBlock, type PlannedBlock, type PlannedWorld } from './planned-world.js';
import { outOfRoom } from './out-of-room.js';

export type PlannedAllocation = { readonly ok: true; readonly block: PlannedBlock } | { readonly ok: false; readonly failure: PlannedFailure };

/** Takes one address from `block`, keeping its keeper's and its pool's counts in step. */
export function takeAddresses(world: PlannedWorld, block: PlannedBlock, count: number): void {
  block.free -= count;
  block.reclaimable = false;
  if (block.keptBy !== undefined) block.keptBy.affineFree -= count;
  if (block.pool !== undefined) world.poolAvailable.set(block.pool, (world.poolAvailable.get(block.pool) ?? 0n) - BigInt(count));
}

/**
 * A candidate CIDR that partly covers an existing block of another size (a what-if that changes a
 * pool's block size while its old blocks stay). Blocks of one size are aligned: the map suffices.
 */
function overlapsExisting(world: PlannedWorld, pool: DefaultedIPPool, cidr: string): boolean {
  const list = world.blocksByPool.get(pool.name) ?? [];
  const suffix = `/${pool.blockSize}`;
  if (list.every((b) => b.cidr.endsWith(suffix))) return false;
  const parsed = parseCidr(cidr);
  const end = parsed.network + cidrSize(parsed);
  return list.some((b) => b.base < end && parsed.network < b.end);
}

/** Claims `cidr` for the family's node as a new affine block. */
function claim(world: PlannedWorld, family: PlannedFamily, cidr: string): PlannedBlock {
  const block = addPlannedBlock(world, {
    cidr,
    free: usableInNewBlock(world, cidr, family.hostReserved),
    owner: `host:${family.node}`,
    keptBy: family,
    reclaimable: false,
  });
  family.affine.push(cidr);
  family.affineFree += block.free;
  if (block.pool !== undefined && family.hostReserved !== undefined) {
    const reserved = BigInt(family.hostReserved.startOfBlock + family.hostReserved.endOfBlock);
    world.poolAvailable.set(block.pool, (world.poolAvailable.get(block.pool) ?? 0n) - reserved);
  }
  return block;
}

/** Moves an empty block of another owner to this family (AutoAssign's reclaim of an old empty block). */
function reclaim(family: PlannedFamily, block: PlannedBlock): void {
  const previous = block.keptBy;
  if (previous !== undefined) {
    previous.affine.splice(previous.affine.indexOf(block.cidr), 1);
    previous.affineFree -= block.free;
  }
  block.owner = `host:${family.node}`;
  block.keptBy = family;
  block.reclaimable = false;
  family.affine.push(block.cidr);
  family.affineFree += block.free;
}

/** The block search of AutoAssign's claim step: a free CIDR in host-seeded order, else an old empty block. */
function claimNewBlock(world: PlannedWorld, family: PlannedFamily): PlannedBlock | undefined {
  const candidates: PlannedBlock[] = [];
  for (const pool of family.allowed) {
    if (world.noClaimablePool.has(pool.name)) continue;
    let sawReclaimable = false;
    for (const cidr of randomBlockGenerator(pool.cidr, pool.blockSize, family.node, () => unixNanos(world.now))) {
      if (world.reservations.matchesWholeCidr(cidr)) continue;
      const existing = world.blocks.get(cidr);
      if (existing === undefined) {
        if (overlapsExisting(world, pool, cidr)) continue;
        return claim(world, family, cidr);
      }
      if (existing.free > 0 && existing.owner === `host:${family.node}`) {
        if (existing.keptBy !== family) reclaim(family, existing);
        return existing;
      }
      if (existing.reclaimable) {
        sawReclaimable = true;
        candidates.push(existing);
      }
    }
    if (!sawReclaimable) world.noClaimablePool.add(pool.name);
  }
  const candidate = candidates.find((b) => b.reclaimable);
  if (candidate === undefined) return undefined;
  reclaim(family, candidate);
  return candidate;
}

/** Borrowing: the first existing block with room in the allowed pools, in the host-seeded order. */
function borrow(world: PlannedWorld, family: PlannedFamily): PlannedBlock | undefined {
  for (const pool of family.allowed) {
    const list = world.blocksByPool.get(pool.name) ?? [];
    if (!list.some((b) => b.free > 0)) continue;
    const start = blockSearchStart(pool.cidr, pool.blockSize, family.node, () => unixNanos(world.now));
    for (const cidr of inSearchOrder(pool.cidr, pool.blockSize, start, list.map((b) => b.cidr))) {
      const block = world.blocks.get(cidr);
      if (block !== undefined && block.free > 0 && !world.reservations.matchesWholeCidr(cidr)) return block;
    }
  }
  return undefined;
}

function firstAffineWithRoom(world: PlannedWorld, family: PlannedFamily): PlannedBlock | undefined {
  if (family.affineFree <= 0) return undefined;
  for (const cidr of family.affine) {
    const block = world.blocks.get(cidr);
    if (block !== undefined && block.free > 0) return block;
  }
  return undefined;
}

/**
 * One Workload address for the family's node, in AutoAssign's order (design/ipam-core.md,
 * "AutoAssign"): affine blocks, a new block under the cap, then borrowing when strict affinity is
 * off. Hitting the cap ends the request without borrowing, as AutoAssign does.
 */
export function planOneAllocation(world: PlannedWorld, family: PlannedFamily): PlannedAllocation {
  if (family.blocked !== undefined) return { ok: false, failure: family.blocked };
  const affine = firstAffineWithRoom(world, family);
  if (affine !== undefined) return take(world, affine);
  const owned = family.affine.length;
  if (owned >= family.cap) {
    return { ok: false, failure: outOfRoom('block-limit', owned, family.cap) };
  }
  if (!world.config.autoAllocateBlocks) {
    return { ok: false, failure: outOfRoom('auto-allocate-off', owned, family.cap) };
  }
  const claimed = claimNewBlock(world, family);
  if (claimed !== undefined && claimed.free > 0) return take(world, claimed);
  if (world.config.strictAffinity) {
    return { ok: false, failure: outOfRoom('strict-affinity', owned, family.cap) };
  }
  const borrowed = borrow(world, family);
  if (borrowed !== undefined) return take(world, borrowed);
  return { ok: false, failure: outOfRoom('pools-exhausted', owned, family.cap) };
}

function take(world: PlannedWorld, block: PlannedBlock): PlannedAllocation {
  takeAddresses(world, block, 1);
  return { ok: true, block };
}
