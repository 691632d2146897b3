import type { AllocationBlock, Datastore } from '@ipamkit/models';

/** A block holding `ordinal` for `handleId`, everything else free. */
function blockWith(cidr: string, size: number, ordinal: number, handleId: string): AllocationBlock {
  const allocations: (number | null)[] = Array.from({ length: size }, () => null);
  allocations[ordinal] = 0;
  return {
    cidr,
    allocations,
    unallocated: Array.from({ length: size }, (_, i) => i).filter((i) => i !== ordinal),
    attributes: [{ handleId, activeOwnerAttrs: { namespace: 'default', pod: handleId, node: 'nowhere' } }],
    sequenceNumber: 1n,
    sequenceNumberForAllocation: { [String(ordinal)]: 0n },
    deleted: false,
  };
}

/**
 * Writes the state a double allocation leaves: 10.99.0.1 held in two overlapping blocks by two
 * handles, each with its handle object (so only the duplicate is wrong).
 */
export async function injectDuplicate(ds: Datastore): Promise<string> {
  await ds.blocks.create(blockWith('10.99.0.0/26', 64, 1, 'injected-a'));
  await ds.blocks.create(blockWith('10.99.0.0/28', 16, 1, 'injected-b'));
  await ds.handles.create({ handleId: 'injected-a', block: { '10.99.0.0/26': 1 }, deleted: false });
  await ds.handles.create({ handleId: 'injected-b', block: { '10.99.0.0/28': 1 }, deleted: false });
  return '10.99.0.1';
}
