import { CodecError, type BlockOrdinals } from '@ipamkit/models';

const isOrdinal = (x: unknown): x is number => Number.isInteger(x);

/**
 * A block's `BlockOrdinals` read from a stored value, with private copies of the two arrays. Stored
 * values were validated when written; a value of another shape (a row written behind the
 * datastore's back) is a CodecError naming the key, never a wrong count.
 */
export function blockOrdinalsOf(key: string, value: Readonly<Record<string, unknown>>): BlockOrdinals {
  const { cidr, allocations, unallocated } = value;
  if (
    typeof cidr !== 'string' ||
    !Array.isArray(allocations) ||
    !Array.isArray(unallocated) ||
    !allocations.every((a) => a === null || isOrdinal(a)) ||
    !unallocated.every(isOrdinal)
  ) {
    throw new CodecError(`block ${key}: stored value has no valid cidr, allocations and unallocated`);
  }
  return { cidr, allocations: allocations.slice(), unallocated: unallocated.slice() };
}
