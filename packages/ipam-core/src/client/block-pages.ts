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

/** Hands every block's ordinals to `visit`, page by page from `first` on: one page held at a time. */
export async function visitOrdinalsPages(
  blocks: OrdinalsReader,
  first: BlockOrdinalsPage,
  visit: (block: BlockOrdinals) => void,
  limit = BLOCK_PAGE_LIMIT,
): Promise<void> {
  let page = first;
  for (;;) {
    for (const block of page.items) visit(block);
    const token = page.continue;
    if (token === undefined || blocks.listOrdinalsPage === undefined) return;
    page = await blocks.listOrdinalsPage({ limit, continue: token });
  }
}
