import type { IntendedUse, IPVersion } from '../resources/intended-use.js';
import type { AssignmentMode, EncapsulationMode, IPPool } from '../resources/ip-pool.js';
import { ipVersionOfCidr } from '../net/cidr.js';

/** A pool after the read-time defaults of design/calico-stored-formats.md#ip-pools: the fields IPAM relies on are set. */
export type DefaultedIPPool = IPPool & {
  blockSize: number;
  nodeSelector: string;
  allowedUses: IntendedUse[];
  assignmentMode: AssignmentMode;
  ipipMode: EncapsulationMode;
  vxlanMode: EncapsulationMode;
};

export const DEFAULT_BLOCK_SIZE: Readonly<Record<IPVersion, number>> = { 4: 26, 6: 122 };
export const DEFAULT_NODE_SELECTOR = 'all()';
export const DEFAULT_ALLOWED_USES: readonly IntendedUse[] = ['Workload', 'Tunnel'];

// Defaults must not throw on a bad CIDR (decoders call this on raw rows); validateIPPool reports
// the CIDR instead, so fall back to a textual guess of the family.
function guessVersion(cidr: string): IPVersion {
  try {
    return ipVersionOfCidr(cidr);
  } catch {
    return cidr.includes(':') ? 6 : 4;
  }
}

/**
 * The defaults clientv3 applies on create, update and read (design/calico-stored-formats.md#ip-pools, design/calico-ipam.md#pools).
 * Returns a new object; booleans that default to false are left as they are (absent = false) so a
 * codec round trip writes back what it read. `namespaceSelector` has no default (empty = all).
 */
export function applyIPPoolDefaults(pool: IPPool): DefaultedIPPool {
  return {
    ...pool,
    blockSize: pool.blockSize === undefined || pool.blockSize === 0 ? DEFAULT_BLOCK_SIZE[guessVersion(pool.cidr)] : pool.blockSize,
    nodeSelector: pool.nodeSelector === undefined || pool.nodeSelector.trim() === '' ? DEFAULT_NODE_SELECTOR : pool.nodeSelector,
    allowedUses: pool.allowedUses === undefined || pool.allowedUses.length === 0 ? [...DEFAULT_ALLOWED_USES] : [...pool.allowedUses],
    assignmentMode: pool.assignmentMode ?? 'Automatic',
    ipipMode: pool.ipipMode ?? 'Never',
    vxlanMode: pool.vxlanMode ?? 'Never',
  };
}
