import { isPoolEnabled, selectsNamespace, selectsNode, type BlockAffinity, type DefaultedIPPool, type IPVersion, type Node } from '@ipamkit/models';
import type { HostReservedAttr } from '../block/host-reserved-attr.js';
import { blockCap } from '../client/auto-assign.js';
import { maxPrefixLength, poolContaining } from '../client/pool-qualification.js';
import type { ClusterSnapshot } from './cluster-snapshot.js';
import { addPlannedBlock, usableInNewBlock, WINDOWS_HOST_RESERVED, type PlannedWorld, type WorldOptions } from './planned-world.js';

/**
 * Why an allocation fails (design/ipam-core.md, "Foresight"), one value per rule of AutoAssign that
 * can end it: no pool for the node, a Windows node without strict affinity, the per-host block
 * cap, automatic block allocation off, strict affinity with no block left to claim, and nothing
 * left to borrow.
 */
export type RunwayLimit = 'no-pool' | 'windows-needs-strict-affinity' | 'block-limit' | 'auto-allocate-off' | 'strict-affinity' | 'pools-exhausted';

export interface PlannedFailure {
  readonly limit: RunwayLimit;
  /** In the words `ipam explain --node` uses. */
  readonly reason: string;
}

/** One node and address family: the pools it may use and the blocks it holds affinities for. */
export interface PlannedFamily {
  readonly node: string;
  readonly version: IPVersion;
  readonly allowed: readonly DefaultedIPPool[];
  readonly hostReserved: HostReservedAttr | undefined;
  /** Set when this node can never allocate in this family under the snapshot's rules. */
  readonly blocked: PlannedFailure | undefined;
  /** Affine block CIDRs in the allowed pools, in datastore order (what AutoAssign calls `kept`). */
  readonly affine: string[];
  /** Free addresses in the blocks of `affine`. */
  affineFree: number;
  readonly cap: number;
}

export interface PlannedNode {
  readonly name: string;
  readonly windows: boolean;
  readonly families: PlannedFamily[];
}

/** The Kubernetes label a Windows node carries; the CNI on it reserves addresses in new blocks. */
export function isWindowsNode(node: Pick<Node, 'labels'>): boolean {
  return node.labels?.['kubernetes.io/os'] === 'windows';
}

function safely(test: () => boolean): boolean {
  try {
    return test();
  } catch {
    // A selector that does not parse selects nothing, as AutoAssign's selection would abort.
    return false;
  }
}

function familyBlock(world: PlannedWorld, node: Node, version: IPVersion, windows: boolean): { allowed: DefaultedIPPool[]; blocked: PlannedFailure | undefined } {
  if (windows && !world.config.strictAffinity) {
    return {
      allowed: [],
      blocked: { limit: 'windows-needs-strict-affinity', reason: 'strict affinity is off and a Windows node refuses to allocate without it (global strict affinity should not be false for Windows node)' },
    };
  }
  const noPool: PlannedFailure = { limit: 'no-pool', reason: `no enabled IPv${version} pool selects node ${node.name} for workloads` };
  const enabled = world.pools.filter((p) => isPoolEnabled(p, version));
  const hostReserved = windows && version === 4 ? WINDOWS_HOST_RESERVED : undefined;
  const maxPrefix = maxPrefixLength(version, hostReserved);
  if (enabled.length === 0) return { allowed: [], blocked: { limit: 'no-pool', reason: `${noPool.reason} (cannot find a qualified ippool)` } };
  if (!enabled.some((p) => p.blockSize <= maxPrefix)) {
    return { allowed: [], blocked: { limit: 'no-pool', reason: `no enabled IPv${version} pool has blocks of /${maxPrefix} or larger, which the node's host-reserved addresses need (cannot find a qualified ippool)` } };
  }
  const allowed = enabled.filter(
    (p) =>
      p.assignmentMode === 'Automatic' &&
      p.allowedUses.includes('Workload') &&
      safely(() => selectsNode(p, node.labels)) &&
      safely(() => selectsNamespace(p, undefined)),
  );
  return { allowed, blocked: allowed.length === 0 ? noPool : undefined };
}

/** The node's families as AutoAssign would see them for a Workload in an unlabelled namespace. */
export function planNodeFamilies(
  world: PlannedWorld,
  snapshot: ClusterSnapshot,
  node: Node,
  options: WorldOptions,
  affinities: readonly BlockAffinity[],
): PlannedNode {
  const windows = isWindowsNode(node);
  const families = options.ipVersions.map((version): PlannedFamily => {
    const { allowed, blocked } = familyBlock(world, node, version, windows);
    const hostReserved = windows && version === 4 ? WINDOWS_HOST_RESERVED : undefined;
    const family: PlannedFamily = {
      node: node.name,
      version,
      allowed,
      hostReserved,
      blocked,
      affine: [],
      affineFree: 0,
      cap: blockCap(snapshot.config.maxBlocksPerHost, options.requestMaxBlocksPerHost),
    };
    const owner = `host:${node.name}`;
    for (const affinity of affinities) {
      if (affinity.type !== 'host' || affinity.host !== node.name) continue;
      if (poolContaining(allowed, affinity.cidr.split('/')[0] ?? affinity.cidr) === undefined) continue;
      let block = world.blocks.get(affinity.cidr);
      // An affinity without its block: AutoAssign re-creates the block on its next visit.
      block ??= addPlannedBlock(world, { cidr: affinity.cidr, free: usableInNewBlock(world, affinity.cidr, hostReserved), owner, keptBy: undefined, reclaimable: false });
      // An affinity its block disagrees with is deleted by AutoAssign, not used.
      if (block.owner !== owner || block.keptBy !== undefined) continue;
      block.keptBy = family;
      family.affine.push(block.cidr);
      family.affineFree += block.free;
    }
    return family;
  });
  return { name: node.name, windows, families };
}
