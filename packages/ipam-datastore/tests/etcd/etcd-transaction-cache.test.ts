import { Etcd3 } from 'etcd3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ConflictError, NotFoundError, type Datastore, type DatastoreTx, type IPAMHandle, type TransactOptions, type Versioned } from '@ipamkit/models';
import { sampleBlock, sampleHandle, withEtcd } from '@ipamkit/test-utils';
import { EtcdKv } from '../../src/etcd/etcd-kv.js';
import { createEtcdDatastore } from '../../src/etcd/index.js';
import { ETCD_CLIENTS, type EtcdClientName } from './support/etcd-clients.js';

// Transactions on etcd: reads batched into one request, reads served from what the client last
// saw and proved current by the commit, and every way that cache can be wrong ending in the same
// result as reading fresh (design/ipam-datastore.md, "etcd transactions").

const etcd = withEtcd();
let raw: Etcd3;
let run = 0;
const open: Datastore[] = [];

/** Requests sent to etcd by the datastores of this file (counted at the wire: the `onRequest` hook). */
let requests = 0;

beforeAll(() => {
  raw = new Etcd3({ hosts: etcd.endpoint });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((ds) => ds.close()));
});
afterAll(() => {
  raw.close();
});

let client: EtcdClientName = 'http';
const onRequest = (): void => {
  requests += 1;
};

function fresh(options: { transactionReadCache?: boolean } = {}): { ds: Datastore; other: Datastore } {
  const prefix = `/txc-${process.pid}-${++run}`;
  const ds = createEtcdDatastore({ client, endpoints: [etcd.endpoint], prefix, onRequest, ...options });
  const other = createEtcdDatastore({ client, endpoints: [etcd.endpoint], prefix, onRequest });
  open.push(ds, other);
  return { ds, other };
}

/** Requests made while `fn` runs. */
async function counted<T>(fn: () => Promise<T>): Promise<{ result: T; requests: number }> {
  const before = requests;
  const result = await fn();
  return { result, requests: requests - before };
}

function transact(ds: Datastore): <R>(body: (tx: DatastoreTx) => Promise<R>, options?: TransactOptions) => Promise<R> {
  const t = ds.transact;
  if (t === undefined) throw new Error('etcd datastore has transact');
  return t;
}

async function orUndefined<T>(p: Promise<T>): Promise<T | undefined> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof NotFoundError) return undefined;
    throw err;
  }
}

async function seed(ds: Datastore): Promise<void> {
  await ds.ipPools.create({ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 30 });
  await ds.nodes.create({ name: 'node-a' });
  await ds.blocks.create(sampleBlock('10.0.0.0/30'));
}

/**
 * What the core's steady-state AutoAssign does in one transaction: one wave of reads (config,
 * reservations, node, pools, the host's affinities, the handle, the block), then the block update
 * and the handle create. Returns what it read, for assertions.
 */
async function assignLike(ds: Datastore, handleId: string) {
  return transact(ds)(async (tx) => {
    const [config, reservations, node, pools, affinities, handle, block] = await Promise.all([
      orUndefined(tx.ipamConfig.get()),
      tx.ipReservations.list(),
      tx.nodes.get('node-a'),
      tx.ipPools.list(),
      tx.affinities.list({ host: 'node-a', type: 'host', ipVersion: 4 }),
      orUndefined(tx.handles.get(handleId)),
      tx.blocks.get('10.0.0.0/30'),
    ]);
    const seq = block.sequenceNumber + 1n;
    tx.write({ op: 'update', kind: 'block', value: { ...block, sequenceNumber: seq } });
    if (handle === undefined) tx.write({ op: 'create', kind: 'handle', value: sampleHandle(handleId) });
    else tx.write({ op: 'update', kind: 'handle', value: { ...handle, block: { ...handle.block, '10.0.0.0/30': (handle.block['10.0.0.0/30'] ?? 0) + 1 } } });
    return { config, reservations: reservations.map((r) => r.name), node: node.name, pools: pools.map((p) => p.name), affinities: affinities.length, handle, seq };
  });
}

// Both clients: the round-trip counts are the backend's, whatever carries them.
for (const name of ETCD_CLIENTS) {
  describe(`${name} client`, () => {
    beforeAll(() => {
      client = name;
    });

    describe('etcd transactions', () => {
      it('send a cold wave of reads as one request, and a warm transaction as one request in all', async () => {
        const { ds } = fresh();
        await seed(ds);
        const cold = await counted(() => assignLike(ds, 'h-1'));
        // One batched read of seven keys and ranges, then the commit.
        expect(cold.requests).toBe(2);
        const warm = await counted(() => assignLike(ds, 'h-2'));
        expect(warm.requests).toBe(1);
        expect(warm.result).toMatchObject({ pools: ['pool-a'], node: 'node-a', reservations: [], handle: undefined, seq: cold.result.seq + 1n });
        expect((await ds.blocks.get('10.0.0.0/30')).sequenceNumber).toBe(cold.result.seq + 1n);
        expect((await ds.handles.list()).map((h) => h.handleId).sort()).toEqual(['h-1', 'h-2']);
      });

      it('hand a body the block its last write left, and keep what the body changes in it from every later reader', async () => {
        const { ds } = fresh();
        await seed(ds);
        await assignLike(ds, 'h-1');
        const stored = await ds.blocks.get('10.0.0.0/30');
        // The body takes the written value (no copy), changes it in place, and commits nothing.
        await expect(
          transact(ds)(async (tx) => {
            const block = await tx.blocks.get('10.0.0.0/30');
            block.allocations[3] = 0;
            block.attributes.push({ handleId: 'never-written' });
            block.sequenceNumberForAllocation['3'] = 99n;
            const again = await tx.blocks.get('10.0.0.0/30');
            expect(again).toEqual(stored);
            throw new Error('body gives up');
          }),
        ).rejects.toThrow('body gives up');
        expect(await ds.blocks.get('10.0.0.0/30')).toEqual(stored);
        const next = await assignLike(ds, 'h-2');
        expect(next.seq).toBe(stored.sequenceNumber + 1n);
        expect(await ds.blocks.get('10.0.0.0/30')).toEqual({ ...stored, sequenceNumber: stored.sequenceNumber + 1n, revision: expect.any(String) as string });
      });

      it('read everything fresh and validate nothing with the cache turned off', async () => {
        const { ds } = fresh({ transactionReadCache: false });
        await seed(ds);
        await assignLike(ds, 'h-1');
        const again = await counted(() => assignLike(ds, 'h-2'));
        expect(again.requests).toBe(2);
      });

      it('fail with ConflictError when a cached block changed under the body, and succeed on the retry without reading again', async () => {
        const { ds, other } = fresh();
        await seed(ds);
        await assignLike(ds, 'h-1');
        const stored = await other.blocks.get('10.0.0.0/30');
        await other.blocks.update({ ...stored, sequenceNumber: stored.sequenceNumber + 100n });
        const seen: bigint[] = [];
        const bump = () =>
          transact(ds)(async (tx) => {
            const block = await tx.blocks.get('10.0.0.0/30');
            seen.push(block.sequenceNumber);
            tx.write({ op: 'update', kind: 'block', value: { ...block, sequenceNumber: block.sequenceNumber + 1n } });
          });
        // The commit (no else branch), then one read at its revision to tell why, which refreshes the cache.
        const failed = await counted(() => bump().catch((err: unknown) => err));
        expect(failed.result).toBeInstanceOf(ConflictError);
        expect(failed.requests).toBe(2);
        // The retry is one request again.
        const retry = await counted(bump);
        expect(retry.requests).toBe(1);
        expect(seen).toEqual([stored.sequenceNumber, stored.sequenceNumber + 100n]);
        expect((await other.blocks.get('10.0.0.0/30')).sequenceNumber).toBe(stored.sequenceNumber + 101n);
      });

      it('commit a warm transaction without an else branch, and still tell a cached range gone stale', async () => {
        const { ds, other } = fresh();
        await seed(ds);
        await assignLike(ds, 'h-1');
        const txn = vi.spyOn(EtcdKv.prototype, 'txn');
        try {
          const warm = await counted(() => assignLike(ds, 'h-2'));
          expect(warm.requests).toBe(1);
          // The compares prove the body's reads; a commit that fails reads them again at its revision.
          expect(txn.mock.calls.map(([req]) => [req.compares.length > 2, req.elseReads.length])).toEqual([[true, 0]]);
        } finally {
          txn.mockRestore();
        }
        await other.ipPools.create({ name: 'pool-b', cidr: '10.0.1.0/24', blockSize: 30 });
        const stale = await counted(() => assignLike(ds, 'h-3').catch((err: unknown) => err));
        expect(stale.result).toBeInstanceOf(ConflictError);
        expect(stale.requests).toBe(2);
        const retry = await counted(() => assignLike(ds, 'h-3'));
        expect(retry).toMatchObject({ requests: 1, result: { pools: ['pool-a', 'pool-b'] } });
      });

      it('take a handle it has never seen as absent, and see it on the retry when it exists', async () => {
        const { ds, other } = fresh();
        await seed(ds);
        await assignLike(ds, 'h-1');
        await other.handles.create(sampleHandle('h-2'));
        const seen: (Versioned<IPAMHandle> | undefined)[] = [];
        const write = () =>
          transact(ds)(async (tx) => {
            const handle = await orUndefined(tx.handles.get('h-2'));
            seen.push(handle);
            if (handle === undefined) tx.write({ op: 'create', kind: 'handle', value: sampleHandle('h-2') });
            else tx.write({ op: 'update', kind: 'handle', value: { ...handle, block: { '10.0.0.8/30': 7 } } });
          });
        await expect(write()).rejects.toBeInstanceOf(ConflictError);
        await write();
        expect(seen.map((h) => h?.handleId)).toEqual([undefined, 'h-2']);
        expect((await other.handles.get('h-2')).block).toEqual({ '10.0.0.8/30': 7 });
      });

      it('read a handle it has never seen when the transaction expects its handles to exist (a release)', async () => {
        const { ds, other } = fresh();
        await seed(ds);
        await assignLike(ds, 'h-1');
        await other.handles.create(sampleHandle('h-2'));
        const release = (id: string) =>
          counted(() =>
            transact(ds)(async (tx) => {
              const handle = await orUndefined(tx.handles.get(id));
              if (handle !== undefined) tx.write({ op: 'delete', kind: 'handle', value: handle });
              return handle?.handleId;
            }, { handlesExist: true }),
          );
        // One read and the commit, where a guess would have cost a failed commit and a second body.
        expect(await release('h-2')).toEqual({ result: 'h-2', requests: 2 });
        // An absent handle read fresh: nothing to prove at commit, nothing written.
        expect(await release('h-3')).toEqual({ result: undefined, requests: 1 });
        await expect(other.handles.get('h-2')).rejects.toBeInstanceOf(NotFoundError);
      });

      it('send a key or range asked twice in one wave (a stamp and the read it names) once', async () => {
        const { ds, other } = fresh();
        await seed(ds);
        const readMany = vi.spyOn(EtcdKv.prototype, 'readMany');
        try {
          // `other` has read nothing yet: all four go out in its first wave.
          const [, pools, , node] = await transact(other)((tx) =>
            Promise.all([tx.stamps.get({ kind: 'ipPools' }), tx.ipPools.list(), tx.stamps.get({ kind: 'node', name: 'node-a' }), tx.nodes.get('node-a')]),
          );
          expect(pools.map((p) => p.name)).toEqual(['pool-a']);
          expect(node.name).toBe('node-a');
          expect(readMany.mock.calls.map(([reads]) => reads.length)).toEqual([2]);
        } finally {
          readMany.mockRestore();
        }
      });

      it('notice a pool created, and a reservation deleted, since the cached ranges were read', async () => {
        const { ds, other } = fresh();
        await seed(ds);
        await other.ipReservations.create({ name: 'res-a', reservedCIDRs: ['10.0.0.1/32'] });
        await assignLike(ds, 'h-1');
        await other.ipPools.create({ name: 'pool-b', cidr: '10.0.1.0/24', blockSize: 30 });
        await other.ipReservations.delete('res-a');
        // The cached ranges fail the commit, as a concurrent writer would; the core's CAS loop retries.
        await expect(assignLike(ds, 'h-2')).rejects.toBeInstanceOf(ConflictError);
        const warm = await assignLike(ds, 'h-2');
        expect(warm.pools).toEqual(['pool-a', 'pool-b']);
        expect(warm.reservations).toEqual([]);
      });

      it('turn a body error on stale cached reads into ConflictError, and rethrow one on current reads', async () => {
        const { ds, other } = fresh();
        await seed(ds);
        await assignLike(ds, 'h-1');
        const poolsSeen: number[] = [];
        const failure = new Error('fewer than two pools');
        const needsTwoPools = (): Promise<number> =>
          transact(ds)(async (tx) => {
            const pools = await tx.ipPools.list();
            poolsSeen.push(pools.length);
            if (pools.length < 2) throw failure;
            return pools.length;
          });
        await expect(needsTwoPools()).rejects.toBe(failure);
        await other.ipPools.create({ name: 'pool-b', cidr: '10.0.1.0/24', blockSize: 30 });
        const stale = await needsTwoPools().catch((err: unknown) => err);
        expect(stale).toBeInstanceOf(ConflictError);
        expect((stale as ConflictError).cause).toBe(failure);
        await expect(needsTwoPools()).resolves.toBe(2);
        expect(poolsSeen).toEqual([1, 1, 2]);
      });

      it('keep a write precondition failure what it was: a stale revision in the body is a conflict', async () => {
        const { ds } = fresh();
        await seed(ds);
        const block = await ds.blocks.get('10.0.0.0/30');
        await assignLike(ds, 'h-1');
        await expect(
          transact(ds)(async (tx) => {
            await tx.blocks.get('10.0.0.0/30');
            tx.write({ op: 'update', kind: 'block', value: { ...block, sequenceNumber: 1n } });
          }),
        ).rejects.toBeInstanceOf(ConflictError);
      });

      it('never let a caller mutate what later transactions read', async () => {
        const { ds } = fresh();
        await seed(ds);
        await assignLike(ds, 'h-1');
        const first = await transact(ds)((tx) => tx.blocks.get('10.0.0.0/30'));
        first.unallocated.length = 0;
        (first.attributes as unknown[]).push({ handleId: 'mutated' });
        const second = await transact(ds)((tx) => tx.blocks.get('10.0.0.0/30'));
        expect(second.unallocated.length).toBeGreaterThan(0);
        expect(second.attributes.some((a) => a.handleId === 'mutated')).toBe(false);
      });

      it('read back what a transaction wrote exactly as a client that never saw it decodes it', async () => {
        const { ds, other } = fresh();
        await seed(ds);
        const block = await ds.blocks.get('10.0.0.0/30');
        const written = {
          ...block,
          allocations: [0, null, 1, null],
          unallocated: [3, 1],
          attributes: [
            { handleId: 'k8s-pod-network.abc', activeOwnerAttrs: { namespace: 'ns', node: 'node-a', pod: 'p', timestamp: '2026-11-29 09:00:00.123456789 +0000 UTC' } },
            { handleId: 'vxlan-tunnel-addr-node-a', activeOwnerAttrs: { node: 'node-a', type: 'vxlanTunnelAddress' }, alternateOwnerAttrs: { node: 'node-b' } },
          ],
          sequenceNumber: 1_779_000_000_000_000_123n,
          sequenceNumberForAllocation: { '0': 1_779_000_000_000_000_121n, '2': 1_779_000_000_000_000_122n },
        };
        await transact(ds)((tx) => {
          tx.write({ op: 'update', kind: 'block', value: written });
          return Promise.resolve();
        });
        expect(await transact(ds)((tx) => tx.blocks.get('10.0.0.0/30'))).toEqual(await other.blocks.get('10.0.0.0/30'));
        expect(await ds.blocks.get('10.0.0.0/30')).toEqual(await other.blocks.get('10.0.0.0/30'));
      });
    });
  });
}
