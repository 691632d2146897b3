import {
  applyIPPoolDefaults,
  bitsOf,
  canonicalCidr,
  cidrContains,
  type DefaultedIPPool,
  type IntendedUse,
  type IPPool,
  type IPVersion,
  type Namespace,
  NoQualifiedPoolError,
  type Node,
  ValidationError,
  isPoolEnabled,
  selectsNamespace,
  selectsNode,
} from '@ipamkit/models';
import type { HostReservedAttr } from '../block/host-reserved-attr.js';

/** All pools in name order with read-time defaults applied (what clientv3's GetAllPools returns). */
export function defaultedPools(pools: readonly IPPool[]): DefaultedIPPool[] {
  return pools.map(applyIPPoolDefaults).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

// The pool lists below are built by `push`, not `filter` or `map`: they flow into the assignment's
// hot path, which V8 would otherwise see with two array shapes (design/ipam-core.md, "Arrays of one
// elements kind").
export function enabledPools(all: readonly DefaultedIPPool[], version?: IPVersion): DefaultedIPPool[] {
  const enabled: DefaultedIPPool[] = [];
  for (const p of all) {
    if (version === undefined ? isPoolEnabled(p, 4) || isPoolEnabled(p, 6) : isPoolEnabled(p, version)) enabled.push(p);
  }
  return enabled;
}

/** The first pool of `pools` that contains `ip` (an address or a CIDR's base). */
export function poolContaining(pools: readonly DefaultedIPPool[], ip: string): DefaultedIPPool | undefined {
  return pools.find((p) => cidrContains(p.cidr, ip));
}

/**
 * The longest block prefix usable with host-reserved ordinals (design/calico-ipam.md#pool-qualification): a block must
 * leave at least one address after the reserved ones.
 */
export function maxPrefixLength(version: IPVersion, reserved: HostReservedAttr | undefined): number {
  const bits = bitsOf(version);
  if (reserved === undefined) return bits;
  const count = reserved.startOfBlock + reserved.endOfBlock;
  const result = bits - Math.ceil(Math.log2(count + 1));
  if (count <= 0 || !Number.isInteger(count) || result <= 0) throw new ValidationError('HostReservedAttr has wrong parameters');
  return result;
}

/**
 * design/calico-ipam.md#pool-qualification `determinePools`: the enabled pools, and those that select this request
 * in order (the `selecting` set). Throws NoQualifiedPoolError or ValidationError.
 */
export function determinePools(args: {
  readonly all: readonly DefaultedIPPool[];
  readonly version: IPVersion;
  readonly requested: readonly string[];
  readonly node: Node;
  readonly namespace: Namespace | undefined;
  readonly maxPrefixLen: number;
}): { readonly selecting: DefaultedIPPool[]; readonly enabled: DefaultedIPPool[] } {
  const enabled = enabledPools(args.all, args.version);
  const byCidr = new Map<string, DefaultedIPPool>();
  for (const pool of enabled) {
    if (pool.blockSize <= args.maxPrefixLen) byCidr.set(canonicalCidr(pool.cidr), pool);
  }
  if (byCidr.size === 0) throw new NoQualifiedPoolError('cannot find a qualified ippool');
  const selecting: DefaultedIPPool[] = [];
  if (args.requested.length > 0) {
    for (const cidr of args.requested) {
      const pool = byCidr.get(canonicalCidr(cidr));
      if (pool === undefined) throw new ValidationError(`the given pool (${cidr}) does not exist, or is not enabled`);
      selecting.push(pool);
    }
    return { enabled, selecting };
  }
  for (const p of enabled) {
    if (p.assignmentMode === 'Automatic' && selectsNode(p, args.node.labels) && selectsNamespace(p, args.namespace?.labels)) selecting.push(p);
  }
  return { enabled, selecting };
}

export function filterPoolsByUse(pools: readonly DefaultedIPPool[], use: IntendedUse): DefaultedIPPool[] {
  const allowed: DefaultedIPPool[] = [];
  for (const p of pools) if (p.allowedUses.includes(use)) allowed.push(p);
  return allowed;
}
