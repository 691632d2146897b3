import { type AllocationBlock, ConflictError, type IPAMConfig, type IPAMHandle, type IPPool, NotFoundError, type Versioned } from '@ipamkit/models';
import { isEmpty } from '../block/block-queries.js';
import { sanitizeHandle } from '../block/block-state.js';
import { releaseHandleInBlock } from '../block/release-handle-in-block.js';
import { persistRelease } from './block-handle-writes.js';
import { asUpdate, type ClientDeps, collectedBlock, hintKey, orUndefined, unversioned } from './client-deps.js';
import type { ReleaseByHandleOptions } from './client-types.js';
import { ensureConsistentAffinity, giveUpAffinityIfEmpty, poolNoLongerSelectsHostAmong, selectionNeedsNodeAmong } from './ensure-consistent-affinity.js';
import { txConfig, txNode, txPools } from './cached-reads.js';
import { readIpamConfig } from './ipam-config-ops.js';
import { inTransaction } from './transaction.js';
import { withCasRetry } from './with-cas-retry.js';

/**
 * The handle's entry for a block that holds none of its addresses is stale: a writer died (or its
 * undo failed) between the handle write and the block write of the Kubernetes order. Drop it, CAS
 * on the handle as read, after fencing the block (design/ipam-core.md, "Stale handle entries"):
 * the fence bumps the block so that an assignment that counted itself in the handle but has not
 * written the block yet loses its block CAS, undoes its increment and retries, instead of landing
 * an address the handle no longer counts.
 */
async function dropStaleEntry(deps: ClientDeps, handleId: string, cidr: string, stored: Versioned<AllocationBlock> | undefined): Promise<void> {
  const handle = await orUndefined(deps.ds.handles.get(handleId));
  if (handle?.block[cidr] === undefined) return;
  if (stored !== undefined) await deps.ds.blocks.update(asUpdate(stored, unversioned(stored)));
  const remaining = withoutBlock(unversioned(handle), cidr);
  if (Object.keys(remaining.block).length === 0) await deps.ds.handles.delete(handle);
  else await deps.ds.handles.update({ ...remaining, revision: handle.revision });
}

/** What the ordered release of one handle shares between its blocks: the handle as first read, and the config and pools being read. */
interface OrderedRelease {
  readonly handleId: string;
  readonly handle: Versioned<IPAMHandle>;
  readonly config: Promise<IPAMConfig>;
  readonly pools: Promise<readonly IPPool[]>;
  /** Blocks read with the handle (the host's hinted ones): a first attempt uses one that was found. */
  readonly likely: ReadonlyMap<string, Versioned<AllocationBlock> | undefined>;
}

async function releaseHandleFromBlock(deps: ClientDeps, release: OrderedRelease, cidr: string): Promise<void> {
  const { handleId } = release;
  // A handle of one block: its first decrement compares against the handle as read, without reading it again.
  const knownHandle = Object.keys(release.handle.block).length === 1 ? release.handle : undefined;
  let config: IPAMConfig | undefined;
  const block = await withCasRetry(
    async (attempt) => {
      // A block missing from the early read is read again: only a block found is taken as read.
      const early = attempt === 0 ? release.likely.get(cidr) : undefined;
      const [stored, cfg] = await Promise.all([early === undefined ? orUndefined(deps.ds.blocks.get(cidr)) : Promise.resolve(early), release.config]);
      config = cfg;
      const now = deps.clock.now();
      const result =
        stored === undefined
          ? undefined
          : releaseHandleInBlock(collectedBlock(stored, config, now).block, { handleId, cooldownSeconds: config.ipCooldownSeconds, now });
      if (stored === undefined || result === undefined || result.count === 0) {
        await dropStaleEntry(deps, handleId, cidr, stored);
        return undefined;
      }
      const deleteBlock = isEmpty(result.block) && result.block.affinity === undefined;
      await persistRelease(deps, {
        original: stored,
        next: result.block,
        deleteBlock,
        handleDeltas: new Map([[handleId, result.count]]),
        clearHandleEntries: true,
        ...(attempt === 0 && knownHandle !== undefined ? { knownHandles: new Map([[handleId, knownHandle]]) } : {}),
      });
      return result.block;
    },
    // NotFound: the fenced block or the handle went away under us; re-read both.
    { isRetryable: (err) => err instanceof ConflictError || err instanceof NotFoundError, operation: `release handle ${handleId} in ${cidr}` },
  );
  if (block !== undefined && config !== undefined) await ensureConsistentAffinity(deps, config, block, () => release.pools);
}

/**
 * The reads an ordered release shares between the handle's blocks, started now. Each block awaits
 * the config and the pools; the catches only keep a failure no block came to await (the handle was
 * unknown) from going unhandled. A likely block that cannot be read is read again later.
 */
function orderedContext(
  deps: ClientDeps,
  likelyBlocks: readonly string[],
): { config: Promise<IPAMConfig>; pools: Promise<readonly IPPool[]>; likely: Promise<[string, Versioned<AllocationBlock> | undefined][]> } {
  const config = readIpamConfig(deps.ds, deps.windowsHost);
  const pools = deps.ds.ipPools.list();
  config.catch(() => undefined);
  pools.catch(() => undefined);
  const likely = Promise.all(likelyBlocks.map(async (cidr): Promise<[string, Versioned<AllocationBlock> | undefined]> => [cidr, await orUndefined(deps.ds.blocks.get(cidr)).catch(() => undefined)]));
  return { config, pools, likely };
}

/** The handle without its entry for `cidr`. */
function withoutBlock(handle: IPAMHandle, cidr: string): IPAMHandle {
  return { ...handle, block: Object.fromEntries(Object.entries(handle.block).filter(([c]) => c !== cidr)) };
}

/**
 * ReleaseByHandle with transact: the handle, the config, the pools, the handle's blocks and their
 * hosts' nodes are read in one transaction (config, pools and nodes through the client's cache,
 * design/ipam-core.md, "The cached assignment context"), which writes every released block and the handle
 * (deleted, or without the released blocks' entries) all or none. One transaction, where the
 * ordered path needs four waves; on etcd, one request from a warm client. Blocks whose pool no
 * longer selects their host are given up afterwards, as in the ordered path.
 */
async function releaseByHandleInTransaction(deps: ClientDeps, id: string, likelyBlocks: readonly string[]): Promise<void> {
  const outcome = await withCasRetry(
    () =>
      inTransaction(deps, async (tx) => {
        // The blocks the handle most likely lives in are read with it (etcd: one request instead of two).
        const [handle, config, pools, likely] = await Promise.all([
          tx.handles.get(id),
          txConfig(deps, tx),
          txPools(deps, tx),
          Promise.all(likelyBlocks.map(async (cidr) => [cidr, await orUndefined(tx.blocks.get(cidr))] as const)),
        ]);
        const read = new Map(likely);
        const cidrs = Object.keys(handle.block);
        const blocks = await Promise.all(cidrs.map((cidr) => (read.has(cidr) ? Promise.resolve(read.get(cidr)) : orUndefined(tx.blocks.get(cidr)))));
        const now = deps.clock.now();
        const released: AllocationBlock[] = [];
        let remaining = unversioned(handle);
        blocks.forEach((stored, i) => {
          const cidr = cidrs[i];
          if (stored === undefined || cidr === undefined) return;
          const result = releaseHandleInBlock(collectedBlock(stored, config, now).block, { handleId: id, cooldownSeconds: config.ipCooldownSeconds, now });
          if (result.count === 0) return;
          const deleteBlock = isEmpty(result.block) && result.block.affinity === undefined;
          tx.write(deleteBlock ? { op: 'delete', kind: 'block', value: stored } : { op: 'update', kind: 'block', value: asUpdate(stored, result.block) });
          remaining = withoutBlock(remaining, cidr);
          released.push(result.block);
        });
        if (released.length === 0) return { config, giveUp: [] };
        if (Object.keys(remaining.block).length === 0) tx.write({ op: 'delete', kind: 'handle', value: handle });
        else tx.write({ op: 'update', kind: 'handle', value: { ...remaining, revision: handle.revision } });
        // A host's node is read only where its block's pool selects nodes by label (selectionNeedsNode).
        const hosts = [
          ...new Set(released.flatMap((b) => (b.affinity?.type === 'host' && b.affinity.host !== '' && selectionNeedsNodeAmong(b, pools) ? [b.affinity.host] : []))),
        ];
        const nodes = new Map(await Promise.all(hosts.map(async (host) => [host, await orUndefined(txNode(deps, tx, host))] as const)));
        const giveUp = released.filter((b) => b.affinity?.type === 'host' && poolNoLongerSelectsHostAmong(b, nodes.get(b.affinity.host), pools));
        return { config, giveUp };
      }, { handlesExist: true }),
    { isRetryable: (err) => err instanceof ConflictError, operation: `release handle ${id}` },
  );
  for (const block of outcome.giveUp) await giveUpAffinityIfEmpty(deps, outcome.config, block);
}

/**
 * ReleaseByHandle (design/calico-ipam.md#releasebyhandle): every address of the handle. With transact, one transaction
 * for all its blocks; without, block by block (blocks in parallel). Throws NotFoundError for an
 * unknown handle; the first block error otherwise.
 */
export async function releaseByHandle(deps: ClientDeps, handleId: string, options: ReleaseByHandleOptions = {}): Promise<void> {
  const id = sanitizeHandle(handleId) ?? handleId;
  const host = options.host;
  const likelyBlocks = host === undefined ? [] : [4, 6].flatMap((version) => deps.affineHints.get(hintKey('host', host, version)) ?? []);
  if (deps.ds.transact !== undefined) {
    // Where a transaction holds the write lock from its start (SQLite's BEGIN IMMEDIATE), a handle
    // that seldom exists is looked up alone first: NotFoundError without taking the lock. One that
    // exists is read again inside. On etcd the transaction's first read is batched with the other
    // release's, so a lookup of its own would only add a request (design/ipam-core.md, "Releasing").
    if (options.seldomExists === true && deps.ds.kind === 'sqlite') await deps.ds.handles.get(id);
    await releaseByHandleInTransaction(deps, id, likelyBlocks);
    return;
  }
  // With likely blocks (a caller that expects the handle to exist on its host), the config, the pools
  // and those blocks are read beside the handle; otherwise beside the handle's blocks, so that an
  // unknown handle (a DEL's workload ID, usually) costs one request.
  const early = likelyBlocks.length > 0 ? orderedContext(deps, likelyBlocks) : undefined;
  const handle = await deps.ds.handles.get(id);
  const cidrs = Object.keys(handle.block);
  if (cidrs.length === 0) return;
  const context = early ?? orderedContext(deps, []);
  const release: OrderedRelease = { handleId: id, handle, config: context.config, pools: context.pools, likely: new Map(await context.likely) };
  const results = await Promise.allSettled(cidrs.map((cidr) => releaseHandleFromBlock(deps, release, cidr)));
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed !== undefined) throw failed.reason;
}
