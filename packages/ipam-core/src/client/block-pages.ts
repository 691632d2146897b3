import type { BlockOrdinals, BlockOrdinalsPage, BlockStore } from '@ipamkit/models';

/** Blocks per page when a reader walks every block (design/ipam-core.md, "Utilization at scale"). */
export const BLOCK_PAGE_LIMIT = 1000;

type OrdinalsReader = Pick<BlockStore, 'list' | 'listOrdinalsPage'>;

/**
 * The first page of every block's ordinals. A backend without `listOrdinalsPage` answers with one
 * page holding all of `list()` (full blocks carry the ordinals too), soft-deleted ones left out.
 */
export async function firstOrdinalsPage(blocks: OrdinalsReader, limit = BLOCK_PAGE_LIMIT): Promise<BlockOrdinalsPage> {
  if (blocks.listOrdinalsPage === undefined) return { items: (await blocks.list()).filter((b) => !b.deleted) };
  return await blocks.listOrdinalsPage({ limit });
}

/**
 * Hands every block's ordinals to `visit`, page by page from `first` on. The next page is asked
 * for before the one in hand is folded, so on a remote backend (etcd) the fold overlaps the round
 * trip instead of following it (design/ipam-core.md, "Utilization at scale"): at most two pages
 * are held at a time.
 */
export async function visitOrdinalsPages(
  blocks: OrdinalsReader,
  first: BlockOrdinalsPage,
  visit: (block: BlockOrdinals) => void,
  limit = BLOCK_PAGE_LIMIT,
): Promise<void> {
  let page = first;
  for (;;) {
    const token = page.continue;
    const next = token === undefined || blocks.listOrdinalsPage === undefined ? undefined : blocks.listOrdinalsPage({ limit, continue: token });
    try {
      for (const block of page.items) visit(block);
    } catch (err) {
      // The read in flight is abandoned: its failure, if any, must not go unhandled.
      next?.catch(() => undefined);
      throw err;
    }
    if (next === undefined) return;
    page = await next;
  }
}
