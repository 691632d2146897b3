import type { BlockOrdinals, BlockOrdinalsPage, BlockPageOptions } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { firstOrdinalsPage, visitOrdinalsPages } from '../../src/client/block-pages.js';

// GetUtilization's paging (design/ipam-core.md, "Read paths at the largest scale: the second
// round"): the next page is asked for before the page in hand is folded.

const block = (i: number): BlockOrdinals => ({ cidr: `10.0.${i}.0/26`, allocations: [], unallocated: [] });

/** Pages of one block each, over `count` blocks; every event (read asked, block visited) logged. */
function pagedBlocks(count: number, log: string[], failAt?: number) {
  const listOrdinalsPage = (options: BlockPageOptions): Promise<BlockOrdinalsPage> => {
    const at = options.continue === undefined ? 0 : Number(options.continue);
    log.push(`read ${at}`);
    if (at === failAt) return Promise.reject(new Error(`page ${at} failed`));
    const next = at + 1 < count ? { continue: String(at + 1) } : {};
    return Promise.resolve({ items: [block(at)], ...next });
  };
  return { list: () => Promise.reject(new Error('not used')), listOrdinalsPage };
}

describe('visitOrdinalsPages', () => {
  it('asks for the next page before folding the one in hand, and visits every block in order', async () => {
    const log: string[] = [];
    const blocks = pagedBlocks(3, log);
    await visitOrdinalsPages(blocks, await firstOrdinalsPage(blocks), (b) => log.push(`visit ${b.cidr}`));
    expect(log).toEqual(['read 0', 'read 1', 'visit 10.0.0.0/26', 'read 2', 'visit 10.0.1.0/26', 'visit 10.0.2.0/26']);
  });

  it('rethrows a failing fold and leaves the read in flight handled', async () => {
    const log: string[] = [];
    const blocks = pagedBlocks(3, log, 1);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', onUnhandled);
    try {
      const first = await firstOrdinalsPage(blocks);
      await expect(
        visitOrdinalsPages(blocks, first, () => {
          throw new Error('fold failed');
        }),
      ).rejects.toThrow('fold failed');
      await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(log).toEqual(['read 0', 'read 1']);
    expect(unhandled).toEqual([]);
  });
});
