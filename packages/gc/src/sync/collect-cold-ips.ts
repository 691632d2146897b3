import { ConflictError, NotFoundError } from '@ipamkit/models';
import type { SyncDeps } from './sync-deps.js';

/**
 * Cold-IP GC (design/calico-callers.md#cold-ip-gc): a released address stays in cooldown until some write to its block
 * frees it, so an idle block would keep it forever. Visits only blocks that hold a cooling
 * address whose cooldown has run out; costs nothing when none do. The IPAM config is read per pass
 * (not cached), and a failure to read it aborts the pass.
 */
export async function collectColdIPs(deps: SyncDeps): Promise<number> {
  const { state } = deps;
  if (state.coldBlocks.size === 0) return 0;
  const config = await deps.ipam.getIPAMConfig();
  const cooldownMs = config.ipCooldownSeconds * 1000;
  const nowMs = deps.clock.now().getTime();
  let visited = 0;
  for (const [cidr, earliest] of [...state.coldBlocks]) {
    if (earliest + cooldownMs > nowMs) continue;
    if (!state.allBlocks.has(cidr)) continue;
    try {
      await deps.ipam.garbageCollectColdIPs(cidr);
      visited++;
    } catch (err) {
      // A stale cache or a vanished block: the next block update tells us what happened.
      if (err instanceof ConflictError || err instanceof NotFoundError) continue;
      throw err;
    }
  }
  return visited;
}
