import {
  AlreadyExistsError,
  BadHandleError,
  BadSequenceNumberError,
  definedFields,
  NotFoundError,
} from '@ipamkit/models';
import { TunnelAssignShortError, TunnelStepError } from './errors.js';
import { tunnelAttributes, tunnelHandleOf, type TunnelKind } from './tunnel-kinds.js';
import type { TunnelContext } from './tunnel-context.js';

/**
 * ReleaseByHandle of `kind`'s handle. "Does not exist" is an answer (false), not an error: the
 * defensive releases of the decision table run whether or not the handle exists.
 */
export async function releaseTunnelHandle(ctx: TunnelContext, kind: TunnelKind): Promise<boolean> {
  const handle = tunnelHandleOf(kind, ctx.nodeName);
  try {
    await ctx.ipam.releaseByHandle(handle);
    ctx.logger.info('released tunnel address handle', { type: kind.attributeType, handle });
    return true;
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw new TunnelStepError('release', `failed to release handle '${handle}'`, err);
  }
}

/**
 * Releases one address (with its handle and sequence number when known). Returns false when the
 * address moved on meanwhile (stale sequence number or handle): it is then someone else's, and is
 * left alone.
 */
export async function releaseTunnelAddress(
  ctx: TunnelContext,
  args: { readonly address: string; readonly handleId?: string; readonly sequenceNumber?: bigint },
): Promise<boolean> {
  try {
    const result = await ctx.ipam.releaseIPs([definedFields({ address: args.address, handle: args.handleId, sequenceNumber: args.sequenceNumber })]);
    return result.released.length > 0;
  } catch (err) {
    if (err instanceof BadSequenceNumberError || err instanceof BadHandleError) {
      ctx.logger.warn('tunnel address changed owner before release; leaving it', { address: args.address });
      return false;
    }
    throw new TunnelStepError('release', `failed to release address '${args.address}'`, err);
  }
}

/** AutoAssign one address of `kind` from `cidrs` (design/calico-callers.md#ensure); returns the bare IP. */
export async function assignTunnelAddress(ctx: TunnelContext, kind: TunnelKind, cidrs: readonly string[]): Promise<string> {
  const pools = [...cidrs];
  let result;
  try {
    result = await ctx.ipam.autoAssign({
      ...(kind.version === 4 ? { num4: 1, ipv4Pools: pools } : { num6: 1, ipv6Pools: pools }),
      handleId: tunnelHandleOf(kind, ctx.nodeName),
      attrs: tunnelAttributes(kind, ctx.nodeName),
      hostname: ctx.nodeName,
      intendedUse: 'Tunnel',
    });
  } catch (err) {
    throw new TunnelStepError('assign', 'unable to assign an address', err);
  }
  const assignments = kind.version === 4 ? result.ipv4 : result.ipv6;
  const first = assignments?.ips[0];
  if (first === undefined) throw new TunnelAssignShortError(kind.version, assignments?.msgs ?? []);
  const bare = first.split('/')[0] ?? first;
  ctx.logger.info('assigned tunnel address', { type: kind.attributeType, address: bare });
  return bare;
}

/**
 * Re-assigns a pre-handle address under the proper handle and attributes (design/calico-callers.md#pre-handle-allocations)
 * with no intended use, as Calico does. False when someone else took the address in between.
 */
export async function reassignUnderHandle(ctx: TunnelContext, kind: TunnelKind, address: string): Promise<boolean> {
  try {
    await ctx.ipam.assignIP({
      ip: address,
      handleId: tunnelHandleOf(kind, ctx.nodeName),
      attrs: tunnelAttributes(kind, ctx.nodeName),
      hostname: ctx.nodeName,
    });
    ctx.logger.info('upgraded pre-handle tunnel address', { type: kind.attributeType, address });
    return true;
  } catch (err) {
    if (err instanceof AlreadyExistsError) return false;
    throw new TunnelStepError('assign', `failed to re-assign address '${address}'`, err);
  }
}
