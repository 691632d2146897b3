// The read-scale shape (design/ipam-core.md, "Utilization at scale"), shared by the ipam-core and
// CLI read benches: one pool of /26 blocks (a /8; a /7 past the 262,144 blocks a /8 holds), every
// block empty as `newBlock` makes it (every ordinal free in order, the sequence number seeded from
// the time in Unix nanoseconds; `newBlock` is internal, so `emptyBlock` spells the same value out)
// and written with `blocks.create` semantics (transactions of creates, to keep setup time sane), and
// `reservations` IPReservations spread evenly over the blocks: nine in ten a /29 inside one block,
// one in ten a /25 spanning two blocks.

const BASE = 10 * 2 ** 24;

const dotted = (n) => [24, 16, 8, 0].map((s) => Math.floor(n / 2 ** s) % 256).join('.');

export function poolFor(blocks) {
  return { name: 'read-scale', cidr: blocks * 64 > 2 ** 24 ? '10.0.0.0/7' : '10.0.0.0/8', blockSize: 26 };
}

export function blockCidr(i) {
  return `${dotted(BASE + i * 64)}/26`;
}

export function reservationAt(r, blocks, reservations) {
  const i = Math.floor((r * blocks) / reservations);
  const spanning = r % 10 === 9;
  const start = BASE + i * 64 + (spanning ? 0 : 8);
  return { name: `read-scale-${r}`, reservedCIDRs: [`${dotted(start)}/${spanning ? 25 : 29}`] };
}

/** An empty, unaffine /26 as `newBlock({ cidr, now })` returns it (design/calico-ipam.md#new-blocks). */
export function emptyBlock(cidr, now) {
  return {
    cidr,
    allocations: new Array(64).fill(null),
    unallocated: Array.from({ length: 64 }, (_, o) => o),
    attributes: [],
    sequenceNumber: BigInt(now.getTime()) * 1_000_000n,
    sequenceNumberForAllocation: {},
    deleted: false,
  };
}

/**
 * Writes the shape into an empty datastore: `batch` creates per transaction, `parallel`
 * transactions in flight (etcd allows 128 operations per transaction).
 */
export async function seedReadScale(ds, { blocks, reservations, batch = 1000, parallel = 1 }) {
  const now = new Date('2026-12-01T00:00:00Z');
  await ds.ipPools.create(poolFor(blocks));
  for (let r = 0; r < reservations; r += 1) await ds.ipReservations.create(reservationAt(r, blocks, reservations));
  let next = 0;
  const worker = async () => {
    for (;;) {
      const start = next;
      if (start >= blocks) return;
      const end = Math.min(blocks, start + batch);
      next = end;
      await ds.transact(async (tx) => {
        for (let i = start; i < end; i += 1) tx.write({ op: 'create', kind: 'block', value: emptyBlock(blockCidr(i), now) });
      });
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
}
