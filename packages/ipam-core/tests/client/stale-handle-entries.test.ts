import { createDatastore } from '@ipamkit/ipam-datastore';
import { type AllocationBlock, ConflictError, type Datastore, DatastoreUnavailableError, type IPAMHandle, NotFoundError, type Versioned } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { createIpamClient, type IpamClient } from '../../src/index.js';
import { countingDatastore } from '../../src/client/counting-datastore.js';
import { FakeClock } from '@ipamkit/test-utils';
import { assertConsistent } from './fixtures.js';

/** What a SIGKILLed process does to the store: every call from now on fails before reaching it. */
class KilledError extends Error {
  constructor() {
    super('process killed');
    this.name = 'KilledError';
  }
}

interface Store {
  /** The shared store, with transactions (what another process sees through `fresh()`). */
  readonly inner: Datastore;
  /** The Kubernetes write order (no transact) over `inner`, with hooks on block and handle writes. */
  readonly ds: Datastore;
  readonly hooks: {
    /** Runs before a block update reaches the store; may throw or wait. */
    beforeBlockUpdate?: ((block: Versioned<AllocationBlock>) => Promise<void>) | undefined;
    /** Runs before a handle write (create, update, delete) reaches the store. */
    beforeHandleWrite?: ((handle: IPAMHandle) => Promise<void>) | undefined;
  };
  /** A client of another process on the same store (no transact, no hooks). */
  fresh(): IpamClient;
}

async function store(): Promise<Store> {
  const inner = await createDatastore({ type: 'memory' });
  await inner.ipPools.create({ name: 'lb', cidr: '10.201.0.0/24', blockSize: 28 });
  await inner.nodes.create({ name: 'node-a' });
  const base = countingDatastore(inner, { asKind: 'kubernetes', withoutTransact: true }).datastore;
  const hooks: Store['hooks'] = {};
  const blocks = Object.create(base.blocks) as Datastore['blocks'];
  blocks.update = async (block) => {
    await hooks.beforeBlockUpdate?.(block);
    return base.blocks.update(block);
  };
  const handles = Object.create(base.handles) as Datastore['handles'];
  handles.create = async (handle) => {
    await hooks.beforeHandleWrite?.(handle);
    return base.handles.create(handle);
  };
  handles.update = async (handle) => {
    await hooks.beforeHandleWrite?.(handle);
    return base.handles.update(handle);
  };
  handles.delete = async (handle) => {
    await hooks.beforeHandleWrite?.(handle);
    return base.handles.delete(handle);
  };
  const ds: Datastore = { ...base, blocks, handles };
  const fresh = (): IpamClient =>
    createIpamClient({ datastore: countingDatastore(inner, { asKind: 'kubernetes', withoutTransact: true }).datastore, clock: new FakeClock(), windowsHost: false });
  return { inner, ds, hooks, fresh };
}

const lbRequest = (handleId: string) => ({ num4: 1, handleId, hostname: 'node-a', intendedUse: 'Workload' as const });

/** Kills the "process" of `s.ds` at its next block update: the handle is already counted, the block never written, the undo never runs. */
function killAtNextBlockWrite(s: Store): void {
  let dead = false;
  s.hooks.beforeBlockUpdate = () => {
    dead = true;
    return Promise.reject(new KilledError());
  };
  s.hooks.beforeHandleWrite = () => (dead ? Promise.reject(new KilledError()) : Promise.resolve());
}

describe('handle entries for blocks that hold none of the handle\'s addresses (no transact)', () => {
  it('a kill between the handle increment and the block write leaves a count that releaseByHandle removes', async () => {
    const s = await store();
    const ipam = createIpamClient({ datastore: s.ds, clock: new FakeClock(), windowsHost: false });
    const { ipv4 } = await ipam.autoAssign(lbRequest('lb-live'));
    const [cidr] = Object.keys((await s.inner.handles.get('lb-live')).block);
    expect(cidr).toBe('10.201.0.0/28');
    killAtNextBlockWrite(s);
    await expect(ipam.autoAssign(lbRequest('lb-killed'))).rejects.toBeInstanceOf(KilledError);
    // The drift the hammer found: the handle counts an allocation the block does not have.
    expect((await s.inner.handles.get('lb-killed')).block).toEqual({ [cidr ?? '']: 1 });
    await expect(assertConsistent(s.inner)).rejects.toThrow(/lb-killed/);

    await s.fresh().releaseByHandle('lb-killed');

    await expect(s.inner.handles.get('lb-killed')).rejects.toBeInstanceOf(NotFoundError);
    expect(await s.fresh().ipsByHandle('lb-live')).toEqual([ipv4?.ips[0]?.split('/')[0]]);
    expect(await assertConsistent(s.inner)).toEqual({ allocated: 1, handles: 1 });
  });

  it('a kill between the block write and the handle decrement of a release is repaired by the next releaseByHandle', async () => {
    const s = await store();
    const ipam = createIpamClient({ datastore: s.ds, clock: new FakeClock(), windowsHost: false });
    await ipam.autoAssign(lbRequest('lb-a'));
    s.hooks.beforeHandleWrite = () => Promise.reject(new KilledError());
    // Release paths only log a failed decrement (Calico's order): the block is written, the count stays.
    await ipam.releaseByHandle('lb-a');
    s.hooks.beforeHandleWrite = undefined;
    expect(Object.values((await s.inner.handles.get('lb-a')).block)).toEqual([1]);
    expect(await s.fresh().ipsByHandle('lb-a')).toEqual([]);

    await s.fresh().releaseByHandle('lb-a');

    await expect(s.inner.handles.get('lb-a')).rejects.toBeInstanceOf(NotFoundError);
    expect(await assertConsistent(s.inner)).toEqual({ allocated: 0, handles: 0 });
  });

  it('releases the real addresses and drops the stale entries (one in a live block, one for a deleted block) in one call', async () => {
    const s = await store();
    const ipam = s.fresh();
    await ipam.autoAssign(lbRequest('other'));
    await ipam.autoAssign(lbRequest('lb-b'));
    const real = Object.keys((await s.inner.handles.get('lb-b')).block);
    const stored = await s.inner.handles.get('lb-b');
    await s.inner.handles.update({ ...stored, block: { ...stored.block, '10.201.0.16/28': 2, '10.201.0.240/28': 1 } });
    expect((await ipam.claimAffinity('10.201.0.16/28', { host: 'node-a', affinityType: 'host' })).claimed).toEqual(['10.201.0.16/28']);

    await ipam.releaseByHandle('lb-b');

    expect(real).toHaveLength(1);
    await expect(s.inner.handles.get('lb-b')).rejects.toBeInstanceOf(NotFoundError);
    // The empty affine block is only fenced, never given up or deleted.
    expect((await s.inner.blocks.get('10.201.0.16/28')).affinity).toEqual({ type: 'host', host: 'node-a' });
    expect(await assertConsistent(s.inner)).toEqual({ allocated: 1, handles: 1 });
  });

  it('fences the block so that an assignment in flight under the same handle cannot land uncounted', async () => {
    const s = await store();
    const assigner = createIpamClient({ datastore: s.ds, clock: new FakeClock(), windowsHost: false });
    await assigner.autoAssign(lbRequest('lb-first'));
    // A stale count for the handle, as after a kill (the first test).
    await s.inner.handles.create({ handleId: 'lb-race', block: { '10.201.0.0/28': 1 }, deleted: false });
    let reachedBlockWrite: () => void = () => undefined;
    const atBlockWrite = new Promise<void>((resolve) => {
      reachedBlockWrite = resolve;
    });
    let resume: () => void = () => undefined;
    const resumed = new Promise<void>((resolve) => {
      resume = resolve;
    });
    let paused = false;
    s.hooks.beforeBlockUpdate = async () => {
      if (paused) return;
      paused = true;
      reachedBlockWrite();
      await resumed;
    };
    const assignment = assigner.autoAssign(lbRequest('lb-race'));
    await atBlockWrite;
    // The handle now counts 2 (stale 1 + the one in flight); the block holds none of them yet.
    expect((await s.inner.handles.get('lb-race')).block).toEqual({ '10.201.0.0/28': 2 });

    await s.fresh().releaseByHandle('lb-race');
    resume();
    const { ipv4 } = await assignment;

    // The in-flight write lost its CAS to the fence, undid its increment and retried.
    expect(ipv4?.ips).toHaveLength(1);
    expect((await s.inner.handles.get('lb-race')).block).toEqual({ '10.201.0.0/28': 1 });
    expect(await assertConsistent(s.inner)).toEqual({ allocated: 2, handles: 2 });
  });

  it('an unknown handle is still NotFound', async () => {
    const s = await store();
    await expect(s.fresh().releaseByHandle('lb-none')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('the undo of an increment after a failed block write (no transact)', () => {
  it('retries the decrement through transient errors instead of leaving the count', async () => {
    const s = await store();
    const ipam = createIpamClient({ datastore: s.ds, clock: new FakeClock(), windowsHost: false });
    await ipam.autoAssign(lbRequest('lb-first'));
    let blockFailures = 1;
    s.hooks.beforeBlockUpdate = (block) => {
      if (blockFailures === 0) return Promise.resolve();
      blockFailures -= 1;
      // Not a conflict: AutoAssign gives up on it, so only the undo can fix the count.
      return Promise.reject(new TypeError(`socket hang up writing ${block.cidr}`));
    };
    let handleWrites = 0;
    s.hooks.beforeHandleWrite = () => {
      handleWrites += 1;
      // The increment goes through; the undo's first two attempts hit a 500 and a lost CAS.
      if (handleWrites === 2) return Promise.reject(new DatastoreUnavailableError('HTTP 500'));
      if (handleWrites === 3) return Promise.reject(new ConflictError('lb-undo'));
      return Promise.resolve();
    };
    await expect(ipam.autoAssign(lbRequest('lb-undo'))).rejects.toThrow(/socket hang up/);
    expect(handleWrites).toBe(4);
    await expect(s.inner.handles.get('lb-undo')).rejects.toBeInstanceOf(NotFoundError);
    expect(await assertConsistent(s.inner)).toEqual({ allocated: 1, handles: 1 });
  });
});
