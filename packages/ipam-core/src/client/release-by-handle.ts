import { ConflictError, type IPAMConfig } from '@ipamkit/models';
import { isEmpty, releaseHandleInBlock, sanitizeHandle } from '../block/index.js';
import { persistRelease } from './block-handle-writes.js';
import { type ClientDeps, collectedBlock, orUndefined } from './client-deps.js';
import { ensureConsistentAffinity } from './ensure-consistent-affinity.js';
import { readIpamConfig } from './ipam-config-ops.js';
import { withCasRetry } from './with-cas-retry.js';

async function releaseHandleFromBlock(deps: ClientDeps, config: IPAMConfig, handleId: string, cidr: string): Promise<void> {
  const block = await withCasRetry(
    async () => {
      const stored = await orUndefined(deps.ds.blocks.get(cidr));
      if (stored === undefined) return undefined;
      const now = deps.clock.now();
      const result = releaseHandleInBlock(collectedBlock(stored, config, now).block, {
        handleId,
        cooldownSeconds: config.ipCooldownSeconds,
        now,
      });
      if (result.count === 0) return undefined;
      const deleteBlock = isEmpty(result.block) && result.block.affinity === undefined;
      await persistRelease(deps, { original: stored, next: result.block, deleteBlock, handleDeltas: new Map([[handleId, result.count]]), clearHandleEntries: true });
      return result.block;
    },
    { isRetryable: (err) => err instanceof ConflictError, operation: `release handle ${handleId} in ${cidr}` },
  );
  if (block !== undefined) await ensureConsistentAffinity(deps, config, block);
}

/**
 * ReleaseByHandle (spec/core.md §11): every address of the handle, block by block (blocks in
 * parallel). Throws NotFoundError for an unknown handle; the first block error otherwise.
 */
export async function releaseByHandle(deps: ClientDeps, handleId: string): Promise<void> {
  const id = sanitizeHandle(handleId) ?? handleId;
  const [handle, config] = await Promise.all([deps.ds.handles.get(id), readIpamConfig(deps.ds, deps.windowsHost)]);
  const results = await Promise.allSettled(Object.keys(handle.block).map((cidr) => releaseHandleFromBlock(deps, config, id, cidr)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
