import fc from 'fast-check';
import type { AllocationBlock, BlockOrdinalsPage, BlockPageOptions, Datastore, IPPool, IPReservation } from '@ipamkit/models';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMemoryDatastore } from '@ipamkit/ipam-datastore/memory';
import { createSqliteDatastore } from '@ipamkit/ipam-datastore/sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { WINDOWS_RESERVED_HANDLE } from '../../src/block/host-reserved-attr.js';
import { newBlock } from '../../src/block/new-block.js';
import { addressOf } from '../../src/block/ordinals.js';
import { releaseInBlock } from '../../src/block/release-in-block.js';
import { autoAssignInBlock } from '../../src/block/take-free-addresses.js';
import { createIpamClient } from '../../src/client/create-ipam-client.js';
import { computeUtilization } from '../../src/utilization/compute-utilization.js';
import { referenceComputeUtilization, referenceGetUtilization } from './reference-utilization.js';

// The streaming GetUtilization (design/ipam-core.md, "Utilization at scale") must give exactly
// what the implementation it replaced gave, on any datastore: random pools (v4 and v6, nested and
// overlapping), blocks (nested, orphaned, Windows-reserved, in cooldown, short allocations arrays)
// and reservations (overlapping, spanning blocks, bare addresses, v6, unparsable entries).

const now = new Date('2026-08-22T13:33:20Z');

const POOL_CIDRS = ['10.0.0.0/23', '10.0.0.0/24', '10.0.1.0/25', '10.0.2.0/24', '10.0.3.0/26', 'fd00::/120', 'fd00::/122', 'fd00::100/121'];
const BLOCK_CIDRS = [
  '10.0.0.0/26', '10.0.0.64/26', '10.0.0.128/26', '10.0.0.192/26', '10.0.0.0/28', '10.0.0.80/28',
  '10.0.1.0/26', '10.0.1.64/26', '10.0.1.128/26', '10.0.2.0/26', '10.0.2.192/26', '10.0.3.0/26',
  '10.0.3.64/30', '192.168.0.0/26', '10.9.0.0/26',
  'fd00::/122', 'fd00::40/122', 'fd00::c0/122', 'fd00::100/122', 'fd00::100/124', 'fe80::/122',
];

const v4Reservation = fc
  .record({ third: fc.nat(3), fourth: fc.nat(255), prefix: fc.integer({ min: 22, max: 32 }) })
  .map(({ third, fourth, prefix }) => {
    const value = (10 << 24) | (third << 8) | fourth;
    const masked = prefix === 32 ? value : value & ~((1 << (32 - prefix)) - 1);
    const text = [24, 16, 8, 0].map((s) => (masked >>> s) & 255).join('.');
    return prefix === 32 && fourth % 2 === 0 ? text : `${text}/${prefix}`;
  });
const v6Reservation = fc
  .record({ low: fc.nat(0x1ff), prefix: fc.integer({ min: 118, max: 128 }) })
  .map(({ low, prefix }) => `fd00::${(low & ~((1 << (128 - prefix)) - 1)).toString(16)}/${prefix}`);
const reservationEntry = fc.oneof(
  { weight: 6, arbitrary: v4Reservation },
  { weight: 3, arbitrary: v6Reservation },
  { weight: 1, arbitrary: fc.constantFrom('not-a-cidr', ' ', '10.0.0.1/33', ' 10.0.0.4/30 ') },
);

const blockSpec = fc.record({
  cidr: fc.constantFrom(...BLOCK_CIDRS),
  windows: fc.boolean(),
  // Often none: a block with no allocation takes SQLite's decode without the lossless parser.
  assigned: fc.oneof(fc.constant(0), fc.nat(20)),
  owned: fc.boolean(),
  released: fc.uniqueArray(fc.nat(15), { maxLength: 5 }),
  cooldown: fc.constantFrom(0, 60),
  shortTo: fc.option(fc.nat(10), { freq: 5 }),
  // A free ordinal outside the block (a row written behind the datastore's back).
  strayFree: fc.option(fc.constantFrom(-1, 64, 70, 200), { freq: 6 }),
});

const world = fc.record({
  pools: fc.uniqueArray(fc.record({ cidr: fc.constantFrom(...POOL_CIDRS), name: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'), disabled: fc.boolean() }), {
    maxLength: 4,
    selector: (p) => p.name,
  }),
  blocks: fc.uniqueArray(blockSpec, { maxLength: 12, selector: (b) => b.cidr }),
  reservations: fc.array(fc.array(reservationEntry, { maxLength: 4 }), { maxLength: 5 }),
  filter: fc.option(fc.uniqueArray(fc.constantFrom('a', 'c', 'z', ...POOL_CIDRS), { minLength: 1, maxLength: 3 }), { freq: 3 }),
});

type World = typeof world extends fc.Arbitrary<infer T> ? T : never;
type BlockSpec = World['blocks'][number];

function buildBlock(spec: BlockSpec): AllocationBlock {
  const size = spec.cidr.endsWith('/30') ? 4 : spec.cidr.endsWith('/28') || spec.cidr.endsWith('/124') ? 16 : 64;
  const reserve = spec.windows && size >= 8 ? { startOfBlock: 3, endOfBlock: 1, handle: WINDOWS_RESERVED_HANDLE, note: 'windows' } : undefined;
  const owner = spec.owned ? { owner: { type: 'host' as const, host: 'node-1' } } : {};
  let block = autoAssignInBlock(newBlock({ cidr: spec.cidr, now, hostReserved: reserve, ...owner }), { num: spec.assigned, handleId: 'h' }).block;
  const releases = spec.released.filter((o) => o < size).map((o) => ({ address: addressOf(block, o) }));
  block = releaseInBlock(block, { releases, now, cooldownSeconds: spec.cooldown }).block;
  if (spec.strayFree !== null) block = { ...block, unallocated: [...block.unallocated, spec.strayFree] };
  return spec.shortTo === null ? block : { ...block, allocations: block.allocations.slice(0, spec.shortTo) };
}

function pools(w: World): IPPool[] {
  return w.pools.map((p) => ({ name: p.name, cidr: p.cidr, blockSize: p.cidr.includes(':') ? 122 : 26, ...(p.disabled ? { disabled: true } : {}) }));
}

function reservations(w: World): IPReservation[] {
  return w.reservations.map((entries, i) => ({ name: `r${i}`, reservedCIDRs: entries }));
}

async function seed(w: World, ds: Datastore = createMemoryDatastore()): Promise<Datastore> {
  for (const p of pools(w)) await ds.ipPools.create(p);
  for (const r of reservations(w)) await ds.ipReservations.create(r);
  for (const b of w.blocks) await ds.blocks.create(buildBlock(b));
  return ds;
}

/** The same datastore, but paged reads hand out pages of `limit` blocks at most. */
function withPageLimit(ds: Datastore, limit: number): Datastore {
  const listOrdinalsPage = async (o: BlockPageOptions): Promise<BlockOrdinalsPage> => {
    if (ds.blocks.listOrdinalsPage === undefined) throw new Error('the memory datastore pages blocks');
    return await ds.blocks.listOrdinalsPage({ ...o, limit });
  };
  return { ...ds, blocks: { ...ds.blocks, list: (o) => ds.blocks.list(o), listOrdinalsPage } };
}

/** The same datastore without paged reads: GetUtilization falls back to `list`. */
function withoutPaging(ds: Datastore): Datastore {
  return {
    ...ds,
    blocks: {
      get: (cidr) => ds.blocks.get(cidr),
      list: (o) => ds.blocks.list(o),
      create: (b) => ds.blocks.create(b),
      update: (b) => ds.blocks.update(b),
      delete: (b) => ds.blocks.delete(b),
      listWithRevision: () => ds.blocks.listWithRevision(),
      watch: (o) => ds.blocks.watch(o),
    },
  };
}

const args = (w: World): { pools?: string[] } => (w.filter === null ? {} : { pools: w.filter });

describe('getUtilization against the implementation it replaced', () => {
  it('gives identical results on random memory datastores, in pages of 1 to 3 blocks, of 1,000 or without paging', async () => {
    await fc.assert(
      fc.asyncProperty(world, fc.integer({ min: 1, max: 3 }), async (w, limit) => {
        const ds = await seed(w);
        try {
          const expected = await referenceGetUtilization(ds, args(w));
          expect(await createIpamClient({ datastore: ds }).getUtilization(args(w))).toEqual(expected);
          expect(await createIpamClient({ datastore: withPageLimit(ds, limit) }).getUtilization(args(w))).toEqual(expected);
          expect(await createIpamClient({ datastore: withoutPaging(ds) }).getUtilization(args(w))).toEqual(expected);
        } finally {
          await ds.close();
        }
      }),
      { numRuns: 300 },
    );
  });

  const sqliteFiles = mkdtempSync(join(tmpdir(), 'ipamkit-utilization-equivalence-'));
  afterAll(() => rmSync(sqliteFiles, { recursive: true, force: true }));
  let sqliteRun = 0;

  it('gives identical results on random SQLite datastores read by a fresh handle, blocks with and without allocations', async () => {
    let freeBlocks = 0;
    await fc.assert(
      fc.asyncProperty(world, fc.integer({ min: 1, max: 3 }), async (w, limit) => {
        const path = join(sqliteFiles, `run-${(sqliteRun += 1)}.db`);
        await (await seed(w, createSqliteDatastore({ path }))).close();
        // A fresh handle: the writer's decode cache would answer the reads without decoding.
        const ds = createSqliteDatastore({ path, readonly: true });
        try {
          freeBlocks += (await ds.blocks.list()).filter((b) => b.allocations.every((a) => a === null) && b.attributes.length === 0).length;
          const expected = await referenceGetUtilization(ds, args(w));
          expect(await createIpamClient({ datastore: ds }).getUtilization(args(w))).toEqual(expected);
          expect(await createIpamClient({ datastore: withPageLimit(ds, limit) }).getUtilization(args(w))).toEqual(expected);
        } finally {
          await ds.close();
        }
      }),
      { numRuns: 80 },
    );
    expect(freeBlocks).toBeGreaterThan(20);
  });

  it('gives identical results from computeUtilization for blocks in any order', () => {
    fc.assert(
      fc.property(world, (w) => {
        const blocks = w.blocks.map(buildBlock);
        const input = { pools: pools(w), blocks, reservations: reservations(w), ...(w.filter === null ? {} : { poolsFilter: w.filter }) };
        expect(computeUtilization(input)).toEqual(referenceComputeUtilization(input));
      }),
      { numRuns: 500 },
    );
  });

  it('sees the seeded data (a guard that the generators are not vacuous)', async () => {
    const w: World = {
      pools: [{ cidr: '10.0.0.0/24', name: 'a', disabled: false }],
      blocks: [{ cidr: '10.0.0.0/26', windows: true, assigned: 5, owned: false, released: [4], cooldown: 60, shortTo: null, strayFree: null }],
      reservations: [['10.0.0.0/25', '10.0.0.8/29']],
      filter: null,
    };
    const ds = await seed(w);
    const [pool] = await createIpamClient({ datastore: ds }).getUtilization();
    // 4 Windows ordinals + 5 assigned (one in cooldown) in use; the whole block is reserved.
    expect(pool).toMatchObject({ capacity: 256n, reserved: 128n, inUse: 9n, available: 128n });
    expect(pool?.blocks).toEqual([{ cidr: '10.0.0.0/26', capacity: 64n, inUse: 9n, reserved: 64n, available: 0n }]);
    await ds.close();
  });
});
