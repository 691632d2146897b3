import { MaxAllocReachedError, ValidationError, type IPAMHandle } from '@ipamkit/models';

/** The per-handle cap was hit (design/calico-ipam.md); carries the numbers the caller reports. */
export class HandleMaxAllocReachedError extends MaxAllocReachedError {
  override name = 'HandleMaxAllocReachedError';
  constructor(readonly handleId: string, readonly currentCount: number, readonly maxAlloc: number) {
    super(`handle ${handleId} already has ${currentCount} allocation(s), cannot allocate more (maxAlloc=${maxAlloc})`);
  }
}

/** A decrement that the handle cannot absorb (missing block entry or a negative result). */
export class HandleCountError extends ValidationError {
  override name = 'HandleCountError';
}

/** Block keys with a `:` are IPv6 (design/calico-ipam.md#handles). */
export function handleCountForFamily(handle: Pick<IPAMHandle, 'block'>, version: 4 | 6): number {
  return Object.entries(handle.block)
    .filter(([cidr]) => cidr.includes(':') === (version === 6))
    .reduce((sum, [, count]) => sum + count, 0);
}

export interface IncrementHandleArgs {
  /** The stored handle, or undefined when it does not exist yet. */
  handle: IPAMHandle | undefined;
  handleId: string;
  blockCidr: string;
  /** The number actually assigned (Calico adds the requested number; we fix that quirk). */
  num: number;
  /** >0 caps this handle's allocations per IP family. */
  maxAllocPerIPVersion?: number | undefined;
}

/** The handle after adding `num` to its block count; throws HandleMaxAllocReachedError past the cap. */
export function incrementHandleCount(args: IncrementHandleArgs): IPAMHandle {
  const block = { ...(args.handle?.block ?? {}) };
  const max = args.maxAllocPerIPVersion ?? 0;
  if (max > 0) {
    const current = handleCountForFamily({ block }, args.blockCidr.includes(':') ? 6 : 4);
    if (current + args.num > max) throw new HandleMaxAllocReachedError(args.handleId, current, max);
  }
  block[args.blockCidr] = (block[args.blockCidr] ?? 0) + args.num;
  return { handleId: args.handle?.handleId ?? args.handleId, block, deleted: false };
}

/**
 * The handle after subtracting `num`; an entry reaching zero is removed. When the result has no
 * entries the caller deletes the handle. Throws HandleCountError for a missing entry or underflow.
 */
export function decrementHandleCount(args: { handle: IPAMHandle; blockCidr: string; num: number }): IPAMHandle {
  const current = args.handle.block[args.blockCidr];
  if (current === undefined) {
    throw new HandleCountError(`Tried to decrement block ${args.blockCidr} by ${args.num} but it isn't linked to handle ${args.handle.handleId}`);
  }
  if (current - args.num < 0) {
    throw new HandleCountError(`Decrementing block ${args.blockCidr} by ${args.num} would leave handle ${args.handle.handleId} negative`);
  }
  const block = { ...args.handle.block };
  if (current - args.num === 0) {
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the wire map is keyed by block CIDR
    delete block[args.blockCidr];
  } else {
    block[args.blockCidr] = current - args.num;
  }
  return { ...args.handle, block };
}
