import fc from 'fast-check';
import type { AllocationBlock, IPPool } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { autoAssignInBlock } from '../../src/block/take-free-addresses.js';
import { WINDOWS_RESERVED_HANDLE } from '../../src/block/host-reserved-attr.js';
import { newBlock } from '../../src/block/new-block.js';
import { releaseInBlock } from '../../src/block/release-in-block.js';
import { ORPHANED_BLOCKS_POOL, computeUtilization } from '../../src/utilization/compute-utilization.js';

const now = new Date('2026-08-22T13:33:20Z');
const pool = (name: string, cidr: string): IPPool => ({ name, cidr, blockSize: 26 });
const allocated = (cidr: string, num: number): AllocationBlock => autoAssignInBlock(newBlock({ cidr, now }), { num, handleId: 'h' }).block;

describe('computeUtilization', () => {
  const pools = [pool('p1', '10.0.0.0/24'), pool('p2', '10.0.1.0/25'), pool('p6', 'fd00::/64')];
  const cooling = releaseInBlock(allocated('10.0.0.64/26', 3), { releases: [{ address: '10.0.0.64' }], now, cooldownSeconds: 60 }).block;
  const windows = newBlock({ cidr: '10.0.1.0/26', now, hostReserved: { startOfBlock: 3, endOfBlock: 1, handle: WINDOWS_RESERVED_HANDLE, note: 'w' } });
  const blocks = [allocated('10.0.0.0/26', 10), cooling, windows, allocated('192.168.0.0/26', 2), allocated('fd00::/122', 5), allocated('fe80::/122', 1)];
  const reservations = [{ name: 'r', reservedCIDRs: ['10.0.0.0/29', '10.0.0.4/30', '10.0.0.200/29', '10.0.1.100'] }];

  it('reports per pool and per block capacity, in-use, reserved and available, with unblocked space', () => {
    const result = computeUtilization({ pools, blocks, reservations });
    expect(result.map((p) => p.name)).toEqual(['p1', 'p2', 'p6', ORPHANED_BLOCKS_POOL.name]);
    const [p1, p2, p6, orphans] = result;
    expect(p1!.blocks).toEqual([
      // .0–.9 allocated and .0–.7 reserved: the reserved ones are all taken, so 54 stay available
      { cidr: '10.0.0.0/26', capacity: 64n, inUse: 10n, reserved: 8n, available: 54n },
      { cidr: '10.0.0.64/26', capacity: 64n, inUse: 3n, reserved: 0n, available: 61n },
    ]);
    // 256 − 16 reserved; 128 unblocked addresses minus the 8 reserved in .200/29
    expect(p1).toMatchObject({ capacity: 256n, reserved: 16n, inUse: 13n, available: 54n + 61n + 120n });
    expect(p2!.blocks).toEqual([{ cidr: '10.0.1.0/26', capacity: 64n, inUse: 4n, reserved: 0n, available: 60n }]);
    expect(p2).toMatchObject({ capacity: 128n, reserved: 1n, inUse: 4n, available: 60n + 63n });
    expect(p6).toMatchObject({ capacity: 1n << 64n, reserved: 0n, inUse: 5n, available: (1n << 64n) - 5n });
    expect(orphans).toEqual({
      name: 'orphaned allocation blocks', cidr: '0.0.0.0/0', capacity: 0n, inUse: 0n, reserved: 0n, available: 0n,
      blocks: [{ cidr: '192.168.0.0/26', capacity: 64n, inUse: 2n, reserved: 0n, available: 62n }],
    });
  });

  it('selects pools by name or exact CIDR string and then has no orphan bucket', () => {
    const result = computeUtilization({ pools, blocks, reservations, poolsFilter: ['p2', 'fd00::/64', '10.0.0.0/23'] });
    expect(result.map((p) => p.name)).toEqual(['p2', 'p6']);
  });

  it('gives a block to the first overlapping pool only', () => {
    const overlapping = [pool('wide', '10.0.0.0/23'), pool('narrow', '10.0.0.0/24')];
    const result = computeUtilization({ pools: overlapping, blocks: [allocated('10.0.0.0/26', 1)], reservations: [] });
    expect(result[0]!.blocks).toHaveLength(1);
    expect(result[1]!.blocks).toEqual([]);
    expect(result[1]!.available).toBe(256n);
  });
});

describe('computeUtilization (property: equals a brute-force count)', () => {
  // Everything lives in 10.0.0.0/24; address v is 10.0.0.v.
  const cidrIn = (lenMin: number, lenMax: number) =>
    fc.record({ offset: fc.nat(255), len: fc.integer({ min: lenMin, max: lenMax }) }).map(({ offset, len }) => {
      const size = 2 ** (32 - len);
      const base = offset - (offset % size);
      return { text: `10.0.0.${base}/${len}`, base, size };
    });
  const scenario = fc.record({
    pools: fc.array(cidrIn(24, 29), { minLength: 1, maxLength: 4 }),
    blockLen: fc.integer({ min: 27, max: 30 }),
    blocks: fc.uniqueArray(fc.record({ index: fc.nat(31), num: fc.nat(16), release: fc.nat(4) }), { selector: (b) => b.index, maxLength: 8 }),
    reservations: fc.array(cidrIn(24, 32), { maxLength: 6 }),
  });

  it('matches enumeration of every address for pools, blocks and nested reservations', () => {
    fc.assert(
      fc.property(scenario, (s) => {
        const blockSizeAddrs = 2 ** (32 - s.blockLen);
        const blocks = s.blocks
          .filter((b) => b.index * blockSizeAddrs < 256)
          .map((b) => {
            const cidr = `10.0.0.${b.index * blockSizeAddrs}/${s.blockLen}`;
            const assigned = autoAssignInBlock(newBlock({ cidr, now }), { num: b.num, handleId: 'h' });
            const releases = assigned.ips.slice(0, b.release).map((address) => ({ address }));
            return releaseInBlock(assigned.block, { releases, now, cooldownSeconds: b.release % 2 === 0 ? 0 : 60 }).block;
          });
        const pools = s.pools.map((p, i) => ({ name: `p${i}`, cidr: p.text, blockSize: s.blockLen }));
        const reservedSet = new Set<number>();
        for (const r of s.reservations) for (let v = r.base; v < r.base + r.size; v += 1) reservedSet.add(v);

        const result = computeUtilization({ pools, blocks, reservations: [{ name: 'r', reservedCIDRs: s.reservations.map((r) => r.text) }] });

        const blockBase = (b: AllocationBlock) => Number(b.cidr.split('/')[0]!.split('.')[3]);
        const owner = blocks.map((b) => s.pools.findIndex((p) => blockBase(b) < p.base + p.size && p.base < blockBase(b) + blockSizeAddrs));
        s.pools.forEach((p, i) => {
          const mine = blocks.filter((_, j) => owner[j] === i);
          const covered = new Set<number>();
          for (const b of mine) for (let v = 0; v < blockSizeAddrs; v += 1) covered.add(blockBase(b) + v);
          let capacity = 0;
          let reserved = 0;
          let outside = 0;
          for (let v = p.base; v < p.base + p.size; v += 1) {
            capacity += 1;
            if (reservedSet.has(v)) reserved += 1;
            else if (!covered.has(v)) outside += 1;
          }
          const perBlock = mine.map((b) => {
            const inUse = b.allocations.filter((a) => a !== null).length;
            const free = b.unallocated.filter((o) => !reservedSet.has(blockBase(b) + o)).length;
            const res = b.allocations.filter((_, o) => reservedSet.has(blockBase(b) + o)).length;
            return { cidr: b.cidr, capacity: BigInt(blockSizeAddrs), inUse: BigInt(inUse), reserved: BigInt(res), available: BigInt(free) };
          });
          const got = result[i]!;
          expect(got.blocks).toEqual(perBlock);
          expect(got.capacity).toBe(BigInt(capacity));
          expect(got.reserved).toBe(BigInt(reserved));
          expect(got.inUse).toBe(perBlock.reduce((sum, b) => sum + b.inUse, 0n));
          expect(got.available).toBe(perBlock.reduce((sum, b) => sum + b.available, 0n) + BigInt(outside));
        });
        expect(result.at(-1)!.blocks.map((b) => b.cidr)).toEqual(blocks.filter((_, j) => owner[j] === -1).map((b) => b.cidr));
      }),
      { numRuns: 200 },
    );
  });
});
