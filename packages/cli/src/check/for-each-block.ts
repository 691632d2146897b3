import type { AllocationBlock, BlockStore } from '@ipamkit/models';

/** Blocks per page (design/cli.md, "Reading at scale"). */
const PAGE_LIMIT = 500;

/**
 * Hands every live block to `visit`, a page at a time where the backend pages blocks
 * (`blocks.listPage`), else from one `list()`; only the page in hand is held.
 */
export async function forEachBlock(blocks: Pick<BlockStore, 'list' | 'listPage'>, visit: (block: AllocationBlock) => void): Promise<void> {
  if (blocks.listPage === undefined) {
    for (const block of await blocks.list()) if (!block.deleted) visit(block);
    return;
  }
  let token: string | undefined;
  do {
    const page = await blocks.listPage({ limit: PAGE_LIMIT, ...(token === undefined ? {} : { continue: token }) });
    for (const block of page.items) if (!block.deleted) visit(block);
    token = page.continue;
  } while (token !== undefined);
}
