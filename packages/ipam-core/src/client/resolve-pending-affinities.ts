import { ConflictError, NotFoundError } from '@ipamkit/models';
import { getBlockFromAffinity } from './affinity-claims.js';
import type { ClientDeps } from './client-deps.js';
import { StaleAffinityError } from './client-errors.js';
import type { AffinityConfig } from './client-types.js';

/**
 * Settles the owner's `pending` affinities (design/ipam-core.md, "Pending affinities of a killed
 * claim"): each is validated against its block as AutoAssign's slow path would when it reaches it:
 * confirmed when the block names the owner, its block created and the affinity confirmed when the
 * block is missing, deleted when the block belongs to someone else. For an owner that no other
 * process claims for at the same time (a leader-elected controller before it allocates). Returns
 * how many it settled; a race lost to another writer is left for the next caller.
 */
export async function resolvePendingAffinities(deps: ClientDeps, affinity: AffinityConfig): Promise<number> {
  const affinities = await deps.ds.affinities.list({ host: affinity.host, type: affinity.affinityType });
  let settled = 0;
  for (const pending of affinities.filter((a) => !a.deleted && a.state === 'pending')) {
    try {
      await getBlockFromAffinity(deps, pending, undefined);
      settled += 1;
    } catch (err) {
      if (err instanceof StaleAffinityError) settled += 1;
      else if (!(err instanceof ConflictError || err instanceof NotFoundError)) throw err;
    }
  }
  return settled;
}
