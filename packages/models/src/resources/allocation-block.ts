/** Who a block (or an affinity) belongs to: a node, or a virtual owner such as `load-balancer`. */
export type AffinityType = 'host' | 'virtual';

/** The block's `affinity` field, parsed from its wire form `"<type>:<host>"`. */
export interface BlockOwner {
  type: AffinityType;
  host: string;
}

/** One element of a block's `attributes` array (design/calico-stored-formats.md#allocation-attributes). */
export interface AllocationAttribute {
  handleId?: string;
  /** Wire name `secondary`. */
  activeOwnerAttrs?: Record<string, string>;
  alternateOwnerAttrs?: Record<string, string>;
  /** RFC 3339; present only on the cooldown attribute of a released ordinal. */
  releasedAt?: string;
}

/**
 * An IPAM block, storage-neutral (design/calico-stored-formats.md#blocks). Sequence numbers are bigint because
 * Calico seeds them from Unix nanoseconds.
 */
export interface AllocationBlock {
  /** Canonical masked CIDR. */
  cidr: string;
  affinity?: BlockOwner;
  /** RFC 3339, when the current affinity was claimed. */
  affinityClaimTime?: string;
  /** Index = ordinal; `null` = free, a number = index into `attributes`. */
  allocations: (number | null)[];
  /** FIFO of free ordinals: allocate from the head, free to the tail. */
  unallocated: number[];
  attributes: AllocationAttribute[];
  sequenceNumber: bigint;
  /** Key: ordinal as a decimal string; value: the block sequence number when it was allocated. */
  sequenceNumberForAllocation: Record<string, bigint>;
  deleted: boolean;
}
