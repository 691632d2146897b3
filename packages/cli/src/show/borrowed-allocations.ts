import { addressOf } from '@ipamkit/ipam-core';
import type { Datastore } from '@ipamkit/models';
import { sortedByCidr } from '../address-order.js';

/** An allocation whose `node` attribute names another node than the block's owner (design/calico-callers.md#ipam-show). */
export interface BorrowedRow {
  readonly ip: string;
  readonly borrowingNode: string;
  readonly block: string;
  readonly blockOwner: string;
  readonly type: string;
  readonly allocatedTo: string;
}

function typeAndOwner(attrs: Readonly<Record<string, string>>): { type: string; allocatedTo: string } {
  const namespace = attrs['namespace'] ?? '';
  const vmi = attrs['vmi-name'];
  if (vmi !== undefined) return { type: 'vmi', allocatedTo: `${namespace}/${vmi}` };
  const pod = attrs['pod'];
  if (pod !== undefined) return { type: 'pod', allocatedTo: `${namespace}/${pod}` };
  return { type: attrs['type'] ?? '', allocatedTo: '' };
}

/**
 * Scans every allocated ordinal. Allocations without a `node` attribute (LoadBalancer addresses,
 * Windows-reserved ordinals) cannot be judged and are only counted.
 */
export async function borrowedAllocations(ds: Datastore): Promise<{ rows: BorrowedRow[]; unclassified: number }> {
  const blocks = sortedByCidr((await ds.blocks.list()).filter((b) => !b.deleted), (b) => b.cidr);
  const rows: BorrowedRow[] = [];
  let unclassified = 0;
  for (const block of blocks) {
    const blockOwner = block.affinity?.host ?? '';
    block.allocations.forEach((index, ordinal) => {
      if (index === null) return;
      const attrs = block.attributes[index]?.activeOwnerAttrs ?? {};
      const node = attrs['node'];
      if (node === undefined || node === '') {
        unclassified++;
        return;
      }
      if (node === blockOwner) return;
      rows.push({ ip: addressOf(block, ordinal), borrowingNode: node, block: block.cidr, blockOwner, ...typeAndOwner(attrs) });
    });
  }
  return { rows, unclassified };
}
