import type { AllocationBlock, BlockAffinity, IPAMConfig, IPAMHandle, Versioned } from '@ipamkit/models';

/** Larger than 2^53: Calico seeds sequence numbers from Unix nanoseconds (design/calico-stored-formats.md#encoding-rules). */
export const BIG_SEQUENCE_NUMBER = 1779000000000000001n;

/** An empty, host-affine block of `size` ordinals. */
export function sampleBlock(cidr: string, host = 'node-a', size = 4): AllocationBlock {
  return {
    cidr,
    affinity: { type: 'host', host },
    affinityClaimTime: '2026-08-22T13:33:20Z',
    allocations: Array.from({ length: size }, () => null),
    unallocated: Array.from({ length: size }, (_, i) => i),
    attributes: [],
    sequenceNumber: 0n,
    sequenceNumberForAllocation: {},
    deleted: false,
  };
}

/** `block` with ordinal 0 handed to `handleId` at the block's current sequence number. */
export function allocateFirst(block: AllocationBlock, handleId: string): AllocationBlock {
  return {
    ...block,
    allocations: block.allocations.map((a, i) => (i === 0 ? 0 : a)),
    unallocated: block.unallocated.filter((o) => o !== 0),
    attributes: [{ handleId, activeOwnerAttrs: { namespace: 'default', pod: 'pod-1' } }],
    sequenceNumber: block.sequenceNumber + 1n,
    sequenceNumberForAllocation: { '0': block.sequenceNumber },
  };
}

export function sampleAffinity(host: string, cidr: string, type: BlockAffinity['type'] = 'host'): BlockAffinity {
  return { host, type, cidr, state: 'confirmed', deleted: false };
}

export function sampleHandle(handleId: string, block: Record<string, number> = { '10.0.0.0/30': 1 }): IPAMHandle {
  return { handleId, block, deleted: false };
}

export const SAMPLE_IPAM_CONFIG: IPAMConfig = {
  strictAffinity: true,
  autoAllocateBlocks: true,
  maxBlocksPerHost: 4,
  kubeVirtVMAddressPersistence: 'Enabled',
  ipCooldownSeconds: 30,
};

/** The stored value without the backend's bookkeeping, for exact comparisons. */
export function content<T extends object>(v: Versioned<T>): T {
  const { revision: _revision, uid: _uid, ...rest } = v;
  return rest as unknown as T;
}
