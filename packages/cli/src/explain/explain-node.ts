import { createReservationFilter, numFree, blockCap, outOfRoom } from '@ipamkit/ipam-core';
import {
  blockCountOf,
  cidrContains,
  ipVersionOfCidr,
  orUndefined,
  selectsNamespace,
  selectsNode,
  type IPVersion,
  type Node,
} from '@ipamkit/models';
import { compareCidrs } from '../address-order.js';
import type { CommandContext } from '../cli-io.js';
import { loadExplainWorld } from './explain-ip.js';
import { isEnabled } from './pool-facts.js';

export interface FamilyVerdict {
  readonly version: IPVersion;
  readonly selectingPools: string[];
  /** Enabled pools of the family that do not select the node, with why. */
  readonly rejectedPools: { readonly pool: string; readonly why: string }[];
  readonly affineBlocks: { readonly cidr: string; readonly free: number }[];
  /** Blocks of this family the node holds affinities for, in any pool (what the cap counts). */
  readonly ownedBlocks: number;
  readonly blockCap: number;
  readonly unclaimedBlocks: bigint;
  readonly borrowableAddresses: number;
  readonly wouldSucceed: boolean;
  readonly reason: string;
}

export interface NodeExplanation {
  readonly node: string;
  readonly nodeExists: boolean;
  readonly strictAffinity: boolean;
  readonly autoAllocateBlocks: boolean;
  readonly families: FamilyVerdict[];
}

/**
 * `ipam explain --node`: would the next Workload allocation on this node succeed, and why, in the
 * order AutoAssign tries things (design/calico-ipam.md#autoassign): free space in affine blocks, a new block under
 * the cap, then borrowing when strict affinity is off. A pod's namespace is not known here, so
 * namespaceSelectors are evaluated against a namespace without labels.
 */
export async function explainNode(ctx: CommandContext, nodeName: string): Promise<NodeExplanation> {
  const world = await loadExplainWorld(ctx, undefined);
  const node: Node | undefined = await orUndefined(ctx.datastore.nodes.get(nodeName));
  const [affinities, reservations] = await Promise.all([
    ctx.datastore.affinities.list({ host: nodeName, type: 'host' }),
    ctx.datastore.ipReservations.list(),
  ]);
  const filter = createReservationFilter(reservations);
  const { config } = world;
  const cap = blockCap(config.maxBlocksPerHost, 0);
  const families: FamilyVerdict[] = [];
  for (const version of [4, 6] as const) {
    const enabled = world.pools.filter((p) => isEnabled(p) && ipVersionOfCidr(p.cidr) === version);
    if (enabled.length === 0) continue;
    const rejectedPools: { pool: string; why: string }[] = [];
    const selecting = enabled.filter((p) => {
      const why =
        p.assignmentMode !== 'Automatic'
          ? 'assignmentMode is Manual'
          : !p.allowedUses.includes('Workload')
            ? `allowedUses ${p.allowedUses.join(',')} excludes Workload`
            : !selectsNode(p, node?.labels)
              ? `nodeSelector ${JSON.stringify(p.nodeSelector)} does not select the node`
              : !selectsNamespace(p, undefined)
                ? `namespaceSelector ${JSON.stringify(p.namespaceSelector ?? '')} needs namespace labels`
                : undefined;
      if (why !== undefined) rejectedPools.push({ pool: p.name, why });
      return why === undefined;
    });
    const inSelecting = (cidr: string): boolean => selecting.some((p) => cidrContains(p.cidr, cidr.split('/')[0] ?? cidr));
    const affineCidrs = new Set(affinities.filter((a) => ipVersionOfCidr(a.cidr) === version && a.state !== 'pendingDeletion').map((a) => a.cidr));
    const affineBlocks = world.blocks
      .filter((b) => affineCidrs.has(b.cidr) && inSelecting(b.cidr))
      .sort((a, b) => compareCidrs(a.cidr, b.cidr))
      .map((b) => ({ cidr: b.cidr, free: numFree(b, filter) }));
    const ownedInFamily = affineCidrs.size;
    let unclaimed = 0n;
    for (const p of selecting) {
      const existing = world.blocks.filter((b) => cidrContains(p.cidr, b.cidr.split('/')[0] ?? b.cidr)).length;
      const total = blockCountOf(p.cidr, p.blockSize);
      if (total > BigInt(existing)) unclaimed += total - BigInt(existing);
    }
    const borrowable = world.blocks
      .filter((b) => !affineCidrs.has(b.cidr) && inSelecting(b.cidr))
      .reduce((sum, b) => sum + numFree(b, filter), 0);
    const freeAffine = affineBlocks.reduce((sum, b) => sum + b.free, 0);
    // AutoAssign's order, as the planner walks it (design/ipam-core.md, "AutoAssign"), in the planner's words.
    let wouldSucceed = true;
    let reason: string;
    if (selecting.length === 0) {
      wouldSucceed = false;
      reason = `no enabled IPv${version} pool selects node ${nodeName} for workloads`;
    } else if (freeAffine > 0) {
      reason = `${freeAffine} free addresses in ${affineBlocks.length} affine blocks`;
    } else if (ownedInFamily >= cap) {
      wouldSucceed = false;
      reason = outOfRoom('block-limit', ownedInFamily, cap).reason;
    } else if (!config.autoAllocateBlocks) {
      wouldSucceed = false;
      reason = outOfRoom('auto-allocate-off', ownedInFamily, cap).reason;
    } else if (unclaimed > 0n) {
      reason = `no free address in affine blocks; would claim a new block (${ownedInFamily} of ${cap} owned)`;
    } else if (config.strictAffinity) {
      wouldSucceed = false;
      reason = outOfRoom('strict-affinity', ownedInFamily, cap).reason;
    } else if (borrowable > 0) {
      reason = `no unclaimed blocks left in the selecting pools (${ownedInFamily} of ${cap} owned); would borrow one of ${borrowable} free addresses in other nodes' blocks`;
    } else {
      wouldSucceed = false;
      reason = outOfRoom('pools-exhausted', ownedInFamily, cap).reason;
    }
    families.push({
      version,
      selectingPools: selecting.map((p) => p.name),
      rejectedPools,
      affineBlocks,
      ownedBlocks: ownedInFamily,
      blockCap: cap,
      unclaimedBlocks: unclaimed,
      borrowableAddresses: borrowable,
      wouldSucceed,
      reason,
    });
  }
  return { node: nodeName, nodeExists: node !== undefined, strictAffinity: config.strictAffinity, autoAllocateBlocks: config.autoAllocateBlocks, families };
}
