import { isIPv4, isIPv6, type Node } from '@ipamkit/models';
import { lookupAllocation } from './allocation-lookup.js';
import { releaseTunnelAddress, releaseTunnelHandle } from './ipam-calls.js';
import { tunnelAddressOf, withTunnelAddress } from './node-tunnel-fields.js';
import type { TunnelContext } from './tunnel-context.js';
import { tunnelHandleOf, type TunnelKind } from './tunnel-kinds.js';

/** Which row of the "remove" decision table applied (design/tunnel-alloc.md, "Remove"). */
export type RemoveOutcome =
  | 'released-handle'
  | 'nothing'
  | 'released-pre-handle'
  | 'released-lost-handle'
  | 'left-foreign';

export interface RemoveResult<N extends Node> {
  readonly node: N;
  readonly outcome: RemoveOutcome;
}

/**
 * The tunnel type is disabled on this node: clear the Node field and free the address
 * (design/calico-callers.md#remove). Returns the Node with the field cleared; the caller writes it.
 */
export async function removeTunnelAddress<N extends Node>(ctx: TunnelContext, node: N, kind: TunnelKind): Promise<RemoveResult<N>> {
  const address = tunnelAddressOf(node, kind);
  const cleared = withTunnelAddress(node, kind, '');
  if (await releaseTunnelHandle(ctx, kind)) return { node: cleared, outcome: 'released-handle' };
  if (address === '' || !(isIPv4(address) || isIPv6(address))) return { node: cleared, outcome: 'nothing' };

  const found = await lookupAllocation(ctx, address);
  if (found.state !== 'allocated') return { node: cleared, outcome: 'nothing' };
  const seq = found.sequenceNumber === undefined ? {} : { sequenceNumber: found.sequenceNumber };
  if (Object.keys(found.attrs).length === 0 && found.handleId === undefined) {
    await releaseTunnelAddress(ctx, { address, ...seq });
    return { node: cleared, outcome: 'released-pre-handle' };
  }
  const handle = tunnelHandleOf(kind, ctx.nodeName);
  if (found.handleId === handle) {
    // The allocation is intact but its handle object was lost: release by address and handle.
    await releaseTunnelAddress(ctx, { address, handleId: handle, ...seq });
    return { node: cleared, outcome: 'released-lost-handle' };
  }
  ctx.logger.warn('tunnel address now belongs to another owner; leaving it', { type: kind.attributeType, address });
  return { node: cleared, outcome: 'left-foreign' };
}
