// One stored /26 block as the gc benches build it: the first `pods` ordinals allocated to pods of
// `node` (the CNI's handle and owner attributes), the rest free.
const BLOCK_SIZE = 64;

// Strings are built with join(), which makes flat strings, as decoding a listing or an informer's
// JSON does; template literals would make V8 rope strings that cost the collector (which keeps
// handles and CIDRs) 32 extra bytes each.
export const flat = (...parts) => parts.join('');

/** The block with index `index` (names and the revision derive from it) at `cidr`, affine to `node`. */
export function podBlock(index, cidr, node, pods) {
  const allocations = new Array(BLOCK_SIZE).fill(null);
  const unallocated = [];
  const attributes = [];
  const sequenceNumberForAllocation = {};
  for (let o = 0; o < pods; o++) {
    allocations[o] = attributes.length;
    attributes.push({ handleId: flat('k8s-pod-network.', index, '-', o), activeOwnerAttrs: { node, namespace: 'default', pod: flat('pod-', index, '-', o) } });
    sequenceNumberForAllocation[String(o)] = BigInt(o);
  }
  for (let o = pods; o < BLOCK_SIZE; o++) unallocated.push(o);
  return {
    cidr,
    affinity: { type: 'host', host: node },
    allocations,
    unallocated,
    attributes,
    sequenceNumber: 1n,
    sequenceNumberForAllocation,
    deleted: false,
    revision: String(index + 2),
  };
}
