import { cidrContains, isIPv4, isIPv6, type Node } from '@ipamkit/models';
import { lookupAllocation } from './allocation-lookup.js';
import { TunnelAddressParseError } from './errors.js';
import { assignTunnelAddress, reassignUnderHandle, releaseTunnelAddress, releaseTunnelHandle } from './ipam-calls.js';
import { tunnelAddressOf } from './node-tunnel-fields.js';
import type { TunnelContext } from './tunnel-context.js';
import type { TunnelKind } from './tunnel-kinds.js';

/** Which row of the "ensure" decision table applied (design/tunnel-alloc.md, "Ensure"). */
export type EnsureOutcome =
  | 'assigned-empty'
  | 'kept'
  | 'moved-out-of-pool'
  | 'upgraded'
  | 'upgrade-lost-race'
  | 'replaced-foreign'
  | 'replaced-unallocated'
  | 'replaced-cooldown';

export interface EnsureResult {
  /** The address the Node should record for this kind. */
  readonly address: string;
  /** Set when this run allocated `address` (rolled back if the reconcile then fails). */
  readonly newlyAssigned: boolean;
  readonly outcome: EnsureOutcome;
}

function isPlainIP(text: string): boolean {
  return isIPv4(text) || isIPv6(text);
}

function insideAny(cidrs: readonly string[], address: string): boolean {
  return cidrs.some((cidr) => {
    try {
      return cidrContains(cidr, address);
    } catch {
      return false;
    }
  });
}

/**
 * Releases whatever this node's handle holds, then assigns afresh. Releasing first is what keeps
 * one address per handle: Calico skips the release in the "someone else's address" rows and
 * leaves the earlier allocation stranded on the handle (design/calico-callers.md#tunnel-quirks).
 */
async function replace(ctx: TunnelContext, kind: TunnelKind, cidrs: readonly string[], outcome: EnsureOutcome): Promise<EnsureResult> {
  await releaseTunnelHandle(ctx, kind);
  return { address: await assignTunnelAddress(ctx, kind, cidrs), newlyAssigned: true, outcome };
}

/**
 * The tunnel type is enabled on this node: make sure the Node records an address of ours inside
 * one of `cidrs` (design/calico-callers.md#ensure). Mutates nothing; the caller writes the Node.
 */
export async function ensureTunnelAddress(
  ctx: TunnelContext,
  node: Node,
  kind: TunnelKind,
  cidrs: readonly string[],
): Promise<EnsureResult> {
  const address = tunnelAddressOf(node, kind);
  if (address === '') return replace(ctx, kind, cidrs, 'assigned-empty');
  if (!isPlainIP(address)) throw new TunnelAddressParseError(address, kind.nodeField);

  const found = await lookupAllocation(ctx, address);
  // Calico fails the whole reconcile on a cooling-down address (and its daemon then restarts until
  // the cooldown ends). The address is not ours any more, so it is replaced like a free one.
  if (found.state === 'cooldown') return replace(ctx, kind, cidrs, 'replaced-cooldown');
  if (found.state === 'unallocated') return replace(ctx, kind, cidrs, 'replaced-unallocated');

  const ours = found.attrs['type'] === kind.attributeType && found.attrs['node'] === ctx.nodeName;
  if (ours) {
    if (insideAny(cidrs, address)) return { address, newlyAssigned: false, outcome: 'kept' };
    ctx.logger.info('tunnel address no longer in a qualifying pool; moving it', { type: kind.attributeType, address });
    return replace(ctx, kind, cidrs, 'moved-out-of-pool');
  }
  if (Object.keys(found.attrs).length === 0 && found.handleId === undefined) {
    // A pre-handle allocation from an old release (design/calico-callers.md#pre-handle-allocations): re-own it in place.
    await releaseTunnelAddress(ctx, {
      address,
      ...(found.sequenceNumber === undefined ? {} : { sequenceNumber: found.sequenceNumber }),
    });
    if (await reassignUnderHandle(ctx, kind, address)) return { address, newlyAssigned: false, outcome: 'upgraded' };
    return { address: await assignTunnelAddress(ctx, kind, cidrs), newlyAssigned: true, outcome: 'upgrade-lost-race' };
  }
  ctx.logger.warn('tunnel address on the node belongs to another owner; assigning a new one', {
    type: kind.attributeType,
    address,
    ...(found.handleId === undefined ? {} : { handle: found.handleId }),
  });
  return replace(ctx, kind, cidrs, 'replaced-foreign');
}
