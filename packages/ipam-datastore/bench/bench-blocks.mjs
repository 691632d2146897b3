// The values the CAS benches write, shared with the ipam-core bench so both measure the same thing.

const SEQUENCE = 1_779_000_000_000_000_000n;

/**
 * An empty /26 (64 free ordinals, no attributes): about 0.7 KB of JSON, the small end. The
 * historical "raw CAS" figure; a block in use is several times larger.
 */
export function emptyBlock(cidr) {
  return {
    cidr,
    affinity: { type: 'host', host: 'bench-node' },
    allocations: Array.from({ length: 64 }, () => null),
    unallocated: Array.from({ length: 64 }, (_, i) => i),
    attributes: [],
    sequenceNumber: SEQUENCE,
    sequenceNumberForAllocation: {},
    deleted: false,
  };
}

/**
 * A full /26 as the CNI leaves it: 64 allocations, each with its own handle and pod attributes and a
 * per-allocation sequence number (about 17 KB of JSON). The realistic upper end of one CAS.
 */
export function fullBlock(cidr) {
  const hex = (i) => i.toString(16).padStart(8, '0').repeat(8);
  return {
    cidr,
    affinity: { type: 'host', host: 'bench-node' },
    affinityClaimTime: '2026-11-29T09:00:00Z',
    allocations: Array.from({ length: 64 }, (_, i) => i),
    unallocated: [],
    attributes: Array.from({ length: 64 }, (_, i) => ({
      handleId: `k8s-pod-network.${hex(i)}`,
      activeOwnerAttrs: {
        namespace: 'default',
        node: 'bench-node',
        pod: `bench-pod-${i}`,
        timestamp: '2026-11-29 09:00:00.000000000 +0000 UTC',
      },
    })),
    sequenceNumber: SEQUENCE + 64n,
    sequenceNumberForAllocation: Object.fromEntries(Array.from({ length: 64 }, (_, i) => [String(i), SEQUENCE + BigInt(i)])),
    deleted: false,
  };
}

/** `count` CAS updates in a row, each at the revision the previous one returned. */
export async function casLoop(ds, start, count) {
  let current = start;
  for (let i = 0; i < count; i++) {
    current = await ds.blocks.update({ ...current, sequenceNumber: current.sequenceNumber + 1n });
  }
  return current;
}
