import { addressOf } from '@ipamkit/ipam-core';
import type { AllocationBlock } from '@ipamkit/models';

/** One allocated ordinal of a block, as `check` sees it (design/calico-callers.md#ipam-check step 2). */
export interface AllocationRecord {
  readonly ip: string;
  readonly block: string;
  readonly ordinal: number;
  /** The per-allocation sequence number a later release must present (review rubric 1). */
  readonly sequenceNumber: bigint;
  readonly handle?: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly alternateAttrs: Readonly<Record<string, string>>;
  /** The `node` attribute, else the host of a `host:` block affinity, else empty. */
  readonly node: string;
  readonly borrowed: boolean;
  readonly coolingDown: boolean;
}

/** Every allocated ordinal of `block`, in ordinal order. */
export function allocationRecords(block: AllocationBlock): AllocationRecord[] {
  const affineHost = block.affinity?.type === 'host' ? block.affinity.host : '';
  const out: AllocationRecord[] = [];
  block.allocations.forEach((index, ordinal) => {
    if (index === null) return;
    const attribute = block.attributes[index];
    const attrs = attribute?.activeOwnerAttrs ?? {};
    const nodeAttr = attrs['node'] ?? '';
    const node = nodeAttr !== '' ? nodeAttr : affineHost;
    const handle = attribute?.handleId;
    out.push({
      ip: addressOf(block, ordinal),
      block: block.cidr,
      ordinal,
      sequenceNumber: block.sequenceNumberForAllocation[String(ordinal)] ?? 0n,
      ...(handle === undefined || handle === '' ? {} : { handle }),
      attrs,
      alternateAttrs: attribute?.alternateOwnerAttrs ?? {},
      node,
      borrowed: node !== '' && node !== affineHost,
      coolingDown: attribute?.releasedAt !== undefined,
    });
  });
  return out;
}
