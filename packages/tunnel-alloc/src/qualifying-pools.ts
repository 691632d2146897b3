import { type IPPool, type IPVersion, ipVersionOfCidr, isPoolEnabled, type Node, selectsNode } from '@ipamkit/models';
import { PoolCidrError } from './errors.js';
import type { TunnelKind } from './tunnel-kinds.js';

/** Why a pool was passed over; reported to the logger, never an error. */
export type PoolSkipReason = 'family' | 'encapsulation' | 'allowed-uses' | 'node-selector' | 'selector-parse' | 'disabled';

export interface QualifyingPoolsArgs {
  readonly node: Node;
  readonly pools: readonly IPPool[];
  readonly kind: TunnelKind;
  /** For WireGuard kinds: the outcome of `wireguardEnabled`; ignored for IPIP/VXLAN. */
  readonly wireguardEnabled: boolean;
  readonly onSkip?: (pool: IPPool, reason: PoolSkipReason) => void;
}

function versionOf(pool: IPPool): IPVersion {
  try {
    return ipVersionOfCidr(pool.cidr);
  } catch {
    // A pool CIDR that does not parse is fatal in Calico too (design/calico-callers.md#qualifying-pools).
    throw new PoolCidrError(pool.name, pool.cidr);
  }
}

function encapsulated(mode: string | undefined): boolean {
  return mode === 'Always' || mode === 'CrossSubnet';
}

function skipReason(node: Node, pool: IPPool, kind: TunnelKind): PoolSkipReason | undefined {
  const version = versionOf(pool);
  if (version !== kind.version) return 'family';
  if (kind.encapsulation !== undefined && !encapsulated(pool[kind.encapsulation])) return 'encapsulation';
  // Empty allowedUses is allowed here: the API defaults it to [Workload, Tunnel] on write.
  if (pool.allowedUses !== undefined && pool.allowedUses.length > 0 && !pool.allowedUses.includes('Tunnel')) return 'allowed-uses';
  // Disabled, being deleted or Allocatable=False: the core would refuse it as an explicit pool.
  if (!isPoolEnabled(pool, version)) return 'disabled';
  try {
    if (!selectsNode(pool, node.labels)) return 'node-selector';
  } catch {
    return 'selector-parse';
  }
  return undefined;
}

/**
 * The CIDRs of the pools `kind` may use on `node`, in pool-name order (design/calico-callers.md#qualifying-pools).
 * Empty means the tunnel type is disabled on this node. Pure: no I/O.
 */
export function qualifyingPoolCidrs(args: QualifyingPoolsArgs): string[] {
  if (args.kind.wireguard && !args.wireguardEnabled) return [];
  const sorted = [...args.pools].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: string[] = [];
  for (const pool of sorted) {
    const reason = skipReason(args.node, pool, args.kind);
    if (reason === undefined) out.push(pool.cidr);
    else args.onSkip?.(pool, reason);
  }
  return out;
}
