import { describe, expect, it } from 'vitest';
import { ValidationError, type BlockOrdinalsPage, type BlockPage, type BlockPageOptions, type Datastore } from '@ipamkit/models';
import type { ContractBackend } from './contract-backend.js';
import { allocateFirst, content, sampleBlock } from './contract-fixtures.js';

const LIVE_CIDRS = ['10.0.0.0/30', '10.0.0.4/30', '10.0.0.8/30', '10.0.1.0/30', '10.0.0.16/30', 'fd00::/126', 'fd00::4/126'];
const SOFT_DELETED_CIDR = '10.0.0.12/30';

/** Every page from the first to the one without a continue token, each checked against `limit`. */
async function allPages<I>(read: (o: BlockPageOptions) => Promise<{ items: I[]; continue?: string }>, options: BlockPageOptions): Promise<I[]> {
  const out: I[] = [];
  let token: string | undefined;
  for (let pages = 0; pages < 100; pages += 1) {
    const page = await read({ ...options, ...(token === undefined ? {} : { continue: token }) });
    expect(page.items.length).toBeLessThanOrEqual(options.limit);
    out.push(...page.items);
    token = page.continue;
    if (token === undefined) return out;
  }
  throw new Error('paging did not end after 100 pages');
}

/** The seven live blocks and one soft-deleted block (behind the store's back when the backend can). */
async function seedBlocks(b: ContractBackend): Promise<void> {
  const ds = b.datastore;
  for (const cidr of LIVE_CIDRS) await ds.blocks.create(sampleBlock(cidr));
  if (b.injectSoftDeleted !== undefined) {
    await b.injectSoftDeleted({ kind: 'block', value: { ...sampleBlock(SOFT_DELETED_CIDR), deleted: true } });
  } else {
    const block = await ds.blocks.create(sampleBlock(SOFT_DELETED_CIDR));
    await ds.blocks.update({ ...block, deleted: true });
  }
}

function blockPager(ds: Datastore): (o: BlockPageOptions) => Promise<BlockPage> {
  return async (o) => {
    if (ds.blocks.listPage === undefined) throw new Error('the backend declared paging but has no blocks.listPage');
    return await ds.blocks.listPage(o);
  };
}

function ordinalsPager(ds: Datastore): (o: BlockPageOptions) => Promise<BlockOrdinalsPage> {
  return async (o) => {
    if (ds.blocks.listOrdinalsPage === undefined) throw new Error('the backend declared paging but has no blocks.listOrdinalsPage');
    return await ds.blocks.listOrdinalsPage(o);
  };
}

/**
 * Paged block reads (design/ipam-datastore.md, "Paged block reads"): the suite checks the
 * declaration, and runs the paging tests only for backends that offer them.
 */
export function blockPageContract(backend: () => ContractBackend, paging: boolean): void {
  describe('paged block reads', () => {
    it(`${paging ? 'offers' : 'does not offer'} blocks.listPage and blocks.listOrdinalsPage, as declared`, () => {
      const blocks = backend().datastore.blocks;
      expect([typeof blocks.listPage, typeof blocks.listOrdinalsPage]).toEqual(paging ? ['function', 'function'] : ['undefined', 'undefined']);
    });
    if (!paging) return;

    it('pages through every live block in list order, whatever the page size', async () => {
      const b = backend();
      await seedBlocks(b);
      const listed = (await b.datastore.blocks.list()).map(content);
      expect(listed.map((x) => x.cidr).sort()).toEqual([...LIVE_CIDRS].sort());
      for (const limit of [1, 3, 7, 10]) {
        expect((await allPages(blockPager(b.datastore), { limit })).map(content)).toEqual(listed);
      }
    });

    it('pages the ordinals of every live block in the same order', async () => {
      const b = backend();
      await seedBlocks(b);
      const first = await b.datastore.blocks.get('10.0.0.0/30');
      await b.datastore.blocks.update({ ...allocateFirst(content(first), 'handle-a'), revision: first.revision });
      const expected = (await b.datastore.blocks.list()).map((x) => ({ cidr: x.cidr, allocations: x.allocations, unallocated: x.unallocated }));
      expect(expected[0]).toEqual({ cidr: '10.0.0.0/30', allocations: [0, null, null, null], unallocated: [1, 2, 3] });
      for (const limit of [2, 7]) expect(await allPages(ordinalsPager(b.datastore), { limit })).toEqual(expected);
    });

    it('pages one IP version only when asked', async () => {
      const b = backend();
      await seedBlocks(b);
      const v6 = await allPages(ordinalsPager(b.datastore), { limit: 1, ipVersion: 6 });
      expect(v6.map((x) => x.cidr)).toEqual(['fd00::/126', 'fd00::4/126']);
      const v4 = await allPages(blockPager(b.datastore), { limit: 2, ipVersion: 4 });
      expect(v4.map((x) => x.cidr)).toEqual((await b.datastore.blocks.list({ ipVersion: 4 })).map((x) => x.cidr));
    });

    it('refuses a page limit that is not a positive integer with ValidationError', async () => {
      const ds = backend().datastore;
      for (const limit of [0, -1, 1.5]) {
        await expect(blockPager(ds)({ limit })).rejects.toBeInstanceOf(ValidationError);
        await expect(ordinalsPager(ds)({ limit })).rejects.toBeInstanceOf(ValidationError);
      }
    });
  });
}
