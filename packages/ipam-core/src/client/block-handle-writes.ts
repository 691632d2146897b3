import {
  type AllocationBlock,
  AlreadyExistsError,
  type DatastoreTx,
  type IPAMHandle,
  isTransient,
  NotFoundError,
  type Versioned,
} from '@ipamkit/models';
import { decrementHandleCount, HandleCountError, incrementHandleCount } from '../block/handle-counts.js';
import { asUpdate, type ClientDeps, ignoreNotFound, orUndefined, unversioned } from './client-deps.js';
import { inTransaction } from './transaction.js';
import { withCasRetry } from './with-cas-retry.js';

/** One block changed by an assignment: the stored version and the new content (not yet bumped). */
export interface AllocationChange {
  readonly original: Versioned<AllocationBlock>;
  readonly next: AllocationBlock;
  /** Addresses actually assigned in this block (Calico counts the requested number; we fix that). */
  readonly count: number;
}

export interface HandleRef {
  readonly handleId: string;
  /** >0 caps the handle per IP family. */
  readonly maxAlloc: number;
}

const retryHandleWrite = (err: unknown): boolean =>
  isTransient(err) || err instanceof AlreadyExistsError || err instanceof NotFoundError;

/** The handle after counting every change; throws HandleMaxAllocReachedError past the cap. */
function countedHandle(stored: IPAMHandle | undefined, ref: HandleRef, changes: readonly AllocationChange[]): IPAMHandle {
  let handle = stored;
  for (const change of changes) {
    handle = incrementHandleCount({
      handle,
      handleId: ref.handleId,
      blockCidr: change.next.cidr,
      num: change.count,
      maxAllocPerIPVersion: ref.maxAlloc,
    });
  }
  if (handle === undefined) throw new TypeError('no allocation to count');
  return handle;
}

/**
 * Buffers, in one transaction, the block updates and the single handle write for `changes`
 * (design/ipam-core.md, "No compensation window"). `storedHandle` must have been read in `tx`.
 */
export function bufferAllocations(
  tx: DatastoreTx,
  changes: readonly AllocationChange[],
  handle: { ref: HandleRef; stored: Versioned<IPAMHandle> | undefined } | undefined,
): void {
  // Count first: a cap violation must leave nothing buffered.
  const counted = handle === undefined ? undefined : countedHandle(handle.stored === undefined ? undefined : unversioned(handle.stored), handle.ref, changes);
  for (const change of changes) tx.write({ op: 'update', kind: 'block', value: asUpdate(change.original, change.next) });
  if (handle === undefined || counted === undefined) return;
  if (handle.stored === undefined) tx.write({ op: 'create', kind: 'handle', value: counted });
  else tx.write({ op: 'update', kind: 'handle', value: { ...counted, revision: handle.stored.revision } });
}

/** incrementHandle of design/calico-ipam.md#handles: CAS loop on the handle alone (backends without transact). */
async function incrementStoredHandle(deps: ClientDeps, ref: HandleRef, change: AllocationChange, cached: { value: Versioned<IPAMHandle> | undefined } | undefined): Promise<void> {
  await withCasRetry(
    async (attempt) => {
      const stored = attempt === 0 && cached !== undefined ? cached.value : await orUndefined(deps.ds.handles.get(ref.handleId));
      const next = countedHandle(stored === undefined ? undefined : unversioned(stored), ref, [change]);
      if (stored === undefined) await deps.ds.handles.create(next);
      else await deps.ds.handles.update({ ...next, revision: stored.revision });
    },
    { isRetryable: retryHandleWrite, operation: `increment handle ${ref.handleId}` },
  );
}

/**
 * decrementHandle of design/calico-ipam.md#handles for several blocks of one handle. Failures are swallowed by
 * callers on release paths (Calico only logs them); a missing entry is tolerated per block.
 */
export async function decrementStoredHandle(
  deps: ClientDeps,
  handleId: string,
  byBlock: ReadonlyMap<string, number>,
  clear = false,
  known?: Versioned<IPAMHandle>,
): Promise<void> {
  await withCasRetry(
    async (attempt) => {
      const stored = attempt === 0 && known !== undefined ? known : await orUndefined(deps.ds.handles.get(handleId));
      if (stored === undefined) return;
      const next = decrementAll(unversioned(stored), byBlock, clear);
      if (Object.keys(next.block).length === 0) await deps.ds.handles.delete(stored).catch(ignoreNotFound);
      else await deps.ds.handles.update({ ...next, revision: stored.revision });
    },
    { isRetryable: retryHandleWrite, operation: `decrement handle ${handleId}` },
  );
}

/**
 * Subtracts each block's count; entries the handle does not have (or would underflow) are left
 * alone. With `clear`, the block's entry is removed whatever it says: ReleaseByHandle released
 * every address of the handle there, so an entry over-counted by Calico must not outlive them.
 */
function decrementAll(handle: IPAMHandle, byBlock: ReadonlyMap<string, number>, clear = false): IPAMHandle {
  let next = handle;
  for (const [blockCidr, num] of byBlock) {
    if (clear) {
      const block = { ...next.block };
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the wire map is keyed by block CIDR
      delete block[blockCidr];
      next = { ...next, block };
      continue;
    }
    try {
      next = decrementHandleCount({ handle: next, blockCidr, num });
    } catch (err) {
      // A handle over- or under-counted by an older writer must not block the release.
      if (!(err instanceof HandleCountError)) throw err;
    }
  }
  return next;
}

/**
 * Persists one assignment. With transact: the block and the handle commit together. Without
 * (Kubernetes): Calico's order, increment the handle, write the block, and undo the increment if
 * the block write fails (on every failure, including the conflicts Calico's AssignIP forgets).
 */
export async function persistAllocation(
  deps: ClientDeps,
  change: AllocationChange,
  ref: HandleRef | undefined,
  cachedHandle?: { value: Versioned<IPAMHandle> | undefined },
): Promise<void> {
  if (deps.ds.transact !== undefined) {
    await inTransaction(deps, async (tx) => {
      const stored = ref === undefined ? undefined : await orUndefined(tx.handles.get(ref.handleId));
      bufferAllocations(tx, [change], ref === undefined ? undefined : { ref, stored });
    });
    return;
  }
  if (ref !== undefined) await incrementStoredHandle(deps, ref, change, cachedHandle);
  try {
    await deps.ds.blocks.update(asUpdate(change.original, change.next));
  } catch (err) {
    if (ref !== undefined) {
      await decrementStoredHandle(deps, ref.handleId, new Map([[change.next.cidr, change.count]])).catch(() => undefined);
    }
    throw err;
  }
}

/** A block after a release: written back, or deleted when it is empty and unaffine. */
export interface ReleaseChange {
  readonly original: Versioned<AllocationBlock>;
  readonly next: AllocationBlock;
  readonly deleteBlock: boolean;
  /** Released count per handle ID (all in this block). */
  readonly handleDeltas: ReadonlyMap<string, number>;
  /** Drop the handles' entries for this block instead of decrementing (ReleaseByHandle). */
  readonly clearHandleEntries?: boolean;
  /**
   * Handles as the caller read them before this block's write (without transact): the first
   * decrement compares against them instead of reading again; a handle changed since is a CAS
   * conflict, and the retry reads it.
   */
  readonly knownHandles?: ReadonlyMap<string, Versioned<IPAMHandle>>;
}

/**
 * Persists a release. With transact: block and handle decrements in one commit. Without: the
 * block first, then the handles (design/calico-ipam.md#handles: decrement failures are not errors).
 */
export async function persistRelease(deps: ClientDeps, change: ReleaseChange): Promise<void> {
  const blockWrite = change.deleteBlock
    ? ({ op: 'delete', kind: 'block', value: change.original } as const)
    : ({ op: 'update', kind: 'block', value: asUpdate(change.original, change.next) } as const);
  if (deps.ds.transact !== undefined) {
    await inTransaction(deps, async (tx) => {
      const ids = [...change.handleDeltas.keys()];
      const handles = await Promise.all(ids.map((id) => orUndefined(tx.handles.get(id))));
      tx.write(blockWrite);
      handles.forEach((stored, i) => {
        const id = ids[i];
        if (stored === undefined || id === undefined) return;
        const next = decrementAll(unversioned(stored), new Map([[change.next.cidr, change.handleDeltas.get(id) ?? 0]]), change.clearHandleEntries);
        if (Object.keys(next.block).length === 0) tx.write({ op: 'delete', kind: 'handle', value: stored });
        else tx.write({ op: 'update', kind: 'handle', value: { ...next, revision: stored.revision } });
      });
    }, { handlesExist: true });
    return;
  }
  if (change.deleteBlock) await deps.ds.blocks.delete(change.original);
  else await deps.ds.blocks.update(blockWrite.value);
  await Promise.all(
    [...change.handleDeltas].map(([id, n]) => // Without a transaction a concurrent assign may have counted itself already: only decrement.
      decrementStoredHandle(deps, id, new Map([[change.next.cidr, n]]), false, change.knownHandles?.get(id)).catch(() => undefined)),
  );
}
