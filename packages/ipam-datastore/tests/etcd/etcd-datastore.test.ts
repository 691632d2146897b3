import { createServer, type Socket } from 'node:net';
import { Etcd3 } from 'etcd3';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  ConflictError,
  DatastoreUnavailableError,
  NotFoundError,
  ValidationError,
  WatchExpiredError,
  type AllocationBlock,
  type Datastore,
} from '@ipamkit/models';
import { closedPort, collectEvents, describeEvent, sampleBlock, sampleHandle, withEtcd } from '@ipamkit/test-utils';
import { createEtcdDatastore } from '../../src/etcd/index.js';
import { withFirstEvent } from './support/first-event.js';
import { ETCD_CLIENTS, type EtcdClientName } from './support/etcd-clients.js';

const etcd = withEtcd();
let raw: Etcd3;
let run = 0;
const open: Datastore[] = [];

beforeAll(() => {
  raw = new Etcd3({ hosts: etcd.endpoint });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((ds) => ds.close()));
});
afterAll(() => raw.close());


/** A TCP server that accepts connections and never says a word (a hung etcd). */
async function silentServer(): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

// Every test runs with both etcd clients (design/ipam-datastore.md, "etcd clients").
for (const client of ETCD_CLIENTS) describe(`${client} client`, () => suite(client));

function suite(client: EtcdClientName): void {
  /** A datastore under a fresh key prefix, so tests cannot see each other's keys. */
  function fresh(): { ds: Datastore; prefix: string } {
    const prefix = `/t-${++run}`;
    const ds = createEtcdDatastore({ client, endpoints: [etcd.endpoint], prefix });
    open.push(ds);
    return { ds, prefix };
  }

  describe('createEtcdDatastore', () => {
    it('refuses an empty endpoint list and a prefix ending in "/"', () => {
      expect(() => createEtcdDatastore({ client, endpoints: [] })).toThrow(ValidationError);
      expect(() => createEtcdDatastore({ client, endpoints: [etcd.endpoint], prefix: '/tenant/' })).toThrow(ValidationError);
    });

    it('keeps every key under the configured prefix', async () => {
      const { ds, prefix } = fresh();
      await ds.blocks.create(sampleBlock('10.0.0.0/30'));
      const keys = (await raw.getAll().prefix(`${prefix}/`).keys()).sort();
      expect(keys).toEqual([`${prefix}/calico/ipam/v2/assignment/ipv4/block/10.0.0.0-30`]);
    });

    it('reports an unreachable etcd as DatastoreUnavailableError after its bounded retries', async () => {
      const ds = createEtcdDatastore({ client, endpoints: [`http://127.0.0.1:${await closedPort()}`], retry: { attempts: 2, backoff: { baseMs: 10, capMs: 60_000 } } });
      open.push(ds);
      await expect(ds.blocks.get('10.0.0.0/30')).rejects.toBeInstanceOf(DatastoreUnavailableError);
      await expect(ds.handles.create(sampleHandle('h'))).rejects.toBeInstanceOf(DatastoreUnavailableError);
    });

    it('names the unreachable endpoint in the error', async () => {
      const port = await closedPort();
      const ds = createEtcdDatastore({ client, endpoints: [`http://127.0.0.1:${port}`], retry: { attempts: 1, backoff: { baseMs: 10, capMs: 60_000 } } });
      open.push(ds);
      await expect(ds.blocks.get('10.0.0.0/30')).rejects.toThrow(`127.0.0.1:${port}`);
    });

    it('gives up on an endpoint that accepts connections but never answers, within the call deadline', { timeout: 30_000 }, async () => {
      const silent = await silentServer();
      try {
        const ds = createEtcdDatastore({ client, endpoints: [silent.endpoint], callTimeoutMs: 500, retry: { attempts: 1, backoff: { baseMs: 10, capMs: 60_000 } } });
        open.push(ds);
        const err = await ds.blocks.get('10.0.0.0/30').catch((e: unknown) => e);
        expect(err).toBeInstanceOf(DatastoreUnavailableError);
        expect((err as Error).message).toContain(new URL(silent.endpoint).host);
      } finally {
        await silent.close();
      }
    });

    it('fails over to the next endpoint when the first refuses connections', async () => {
      const endpoints = [`http://127.0.0.1:${await closedPort()}`, etcd.endpoint];
      const ds = createEtcdDatastore({ client, endpoints, prefix: `/t-${++run}`, retry: { attempts: 1, backoff: { baseMs: 10, capMs: 60_000 } } });
      open.push(ds);
      await expect(ds.handles.create(sampleHandle('h'))).resolves.toMatchObject({ handleId: 'h' });
      await expect(ds.handles.get('h')).resolves.toMatchObject({ handleId: 'h' });
    });
  });

  describe('compare-and-swap', () => {
    it('uses the key mod revision as the revision and refuses stale or malformed ones', async () => {
      const { ds, prefix } = fresh();
      const created = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
      const kv = (await raw.get(`${prefix}/calico/ipam/v2/assignment/ipv4/block/10.0.0.0-30`).exec()).kvs[0];
      expect(created.revision).toBe(kv?.mod_revision);
      const updated = await ds.blocks.update({ ...created, sequenceNumber: 1n });
      await expect(ds.blocks.update({ ...created, sequenceNumber: 2n })).rejects.toBeInstanceOf(ConflictError);
      await expect(ds.blocks.update({ ...updated, revision: 'not-a-revision' })).rejects.toBeInstanceOf(ValidationError);
      expect((await ds.blocks.get('10.0.0.0/30')).sequenceNumber).toBe(1n);
    });

    it('tells a deleted object (NotFoundError) from a changed one (ConflictError) on update', async () => {
      const { ds } = fresh();
      const created = await ds.handles.create(sampleHandle('h1'));
      await ds.handles.delete(created);
      await expect(ds.handles.update(created)).rejects.toBeInstanceOf(NotFoundError);
      await expect(ds.handles.create(sampleHandle('h1'))).resolves.toMatchObject({ handleId: 'h1' });
      await expect(ds.handles.create(sampleHandle('h1'))).rejects.toBeInstanceOf(AlreadyExistsError);
    });

    it('lets exactly one of many concurrent writers at the same revision win', async () => {
      const { ds } = fresh();
      const created = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
      const outcomes = await Promise.allSettled(Array.from({ length: 8 }, (_, i) => ds.blocks.update({ ...created, sequenceNumber: BigInt(i + 1) })));
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      expect(outcomes.filter((o) => o.status === 'rejected' && o.reason instanceof ConflictError)).toHaveLength(7);
    });
  });

  describe('reads of missing objects', () => {
    it('reject with a NotFoundError without a stack trace, inside a transaction and out, and keep the stack trace limit', async () => {
      const { ds } = fresh();
      const limit = Error.stackTraceLimit;
      const outside = await ds.handles.get('never-created').catch((e: unknown) => e);
      let inside: unknown;
      await ds.transact?.(async (tx) => {
        inside = await tx.handles.get('never-created').catch((e: unknown) => e);
      });
      for (const err of [outside, inside]) {
        expect(err).toBeInstanceOf(NotFoundError);
        expect((err as Error).stack).toBe(`NotFoundError: ${(err as Error).message}`);
      }
      expect(Error.stackTraceLimit).toBe(limit);
    });
  });

  describe('transact', () => {
    it('commits a handle and a block as one etcd revision', async () => {
      const { ds } = fresh();
      const block = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
      await ds.transact?.(async (tx) => {
        const current = await tx.blocks.get('10.0.0.0/30');
        tx.write({ op: 'create', kind: 'handle', value: sampleHandle('h1', { '10.0.0.0/30': 1 }) });
        tx.write({ op: 'update', kind: 'block', value: { ...current, sequenceNumber: 5n } });
      });
      const [handle, updated] = await Promise.all([ds.handles.get('h1'), ds.blocks.get('10.0.0.0/30')]);
      expect(handle.revision).toBe(updated.revision);
      expect(BigInt(updated.revision)).toBe(BigInt(block.revision) + 1n);
    });

    it('refuses to write the same object twice in one transaction, writing nothing', async () => {
      const { ds } = fresh();
      const block = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
      const twice = ds.transact?.((tx) => {
        tx.write({ op: 'create', kind: 'handle', value: sampleHandle('h1') });
        tx.write({ op: 'update', kind: 'block', value: { ...block, sequenceNumber: 1n } });
        tx.write({ op: 'delete', kind: 'block', value: block });
        return Promise.resolve();
      });
      await expect(twice).rejects.toBeInstanceOf(ValidationError);
      await expect(ds.handles.get('h1')).rejects.toBeInstanceOf(NotFoundError);
      expect((await ds.blocks.get('10.0.0.0/30')).revision).toBe(block.revision);
    });
  });

  describe('watch', () => {
    it('fails with WatchExpiredError when asked to start before the compacted revision', async () => {
      const { ds } = fresh();
      const { revision } = await ds.blocks.listWithRevision();
      let last: AllocationBlock & { revision: string } = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
      for (let i = 1; i <= 3; i++) last = await ds.blocks.update({ ...last, sequenceNumber: BigInt(i) });
      await raw.kv.compact({ revision: last.revision, physical: true });
      const abort = new AbortController();
      try {
        await expect(collectEvents(ds.blocks.watch({ fromRevision: revision, signal: abort.signal }), 1, 20_000)).rejects.toBeInstanceOf(WatchExpiredError);
      } finally {
        abort.abort();
      }
    });

    it('ends the stream when aborted while the watch is still being created', async () => {
      const { ds } = fresh();
      const abort = new AbortController();
      const iterator = ds.blocks.watch({ signal: abort.signal })[Symbol.asyncIterator]();
      const first = iterator.next();
      abort.abort();
      await expect(first).resolves.toEqual({ done: true, value: undefined });
    });

    it('reports affinities of both types from one ordered stream', async () => {
      const { ds } = fresh();
      const { revision } = await ds.affinities.listWithRevision();
      await ds.affinities.create({ host: 'node-a', type: 'host', cidr: '10.0.0.0/30', state: 'confirmed', deleted: false });
      await ds.blocks.create(sampleBlock('10.0.0.4/30'));
      await ds.affinities.create({ host: 'load-balancer', type: 'virtual', cidr: '10.0.0.8/30', state: 'confirmed', deleted: false });
      const abort = new AbortController();
      try {
        const events = await collectEvents(ds.affinities.watch({ fromRevision: revision, signal: abort.signal }), 2, 20_000);
        expect(events.map(describeEvent)).toEqual(['added:host/node-a/10.0.0.0/30', 'added:virtual/load-balancer/10.0.0.8/30']);
      } finally {
        abort.abort();
      }
    });

    /** A /26 with 64 allocations and pod attributes: ~14 KB stored, twice that per watch event. */
    function bigBlock(cidr: string): AllocationBlock {
      const hex = (i: number): string => i.toString(16).padStart(8, '0').repeat(8);
      return {
        ...sampleBlock(cidr, 'node-a', 64),
        allocations: Array.from({ length: 64 }, (_, i) => i),
        unallocated: [],
        attributes: Array.from({ length: 64 }, (_, i) => ({
          handleId: `k8s-pod-network.${hex(i)}`,
          activeOwnerAttrs: { namespace: 'default', node: 'node-a', pod: `pod-${i}`, timestamp: '2026-11-29 09:00:00.000000000 +0000 UTC' },
        })),
      };
    }

    /** `count` updates of one big block after `revision`; returns the revision to watch from. */
    async function bigHistory(ds: Datastore, count: number): Promise<string> {
      const { revision } = await ds.blocks.listWithRevision();
      let block = await ds.blocks.create(bigBlock('10.9.0.0/26'));
      for (let i = 0; i < count; i++) block = await ds.blocks.update({ ...block, sequenceNumber: block.sequenceNumber + 1n });
      return revision;
    }

    it('catches a watch up from far behind, though the catch-up arrives as one message of megabytes', { timeout: 60_000 }, async () => {
      const { ds } = fresh();
      // ~150 revisions × ~30 KB: etcd sends them in one watch response, beyond gRPC's 4 MiB default.
      const from = await bigHistory(ds, 150);
      const abort = new AbortController();
      try {
        const events = await collectEvents(ds.blocks.watch({ fromRevision: from, signal: abort.signal }), 151, 30_000);
        expect(events.map((e) => e.type)).toEqual(['added', ...Array.from({ length: 150 }, () => 'modified')]);
      } finally {
        abort.abort();
      }
    });

    // gRPC only: the http client has no message size limit (a catch-up is one long JSON line).
    if (client === 'grpc') it('ends a watch whose catch-up it can never receive, instead of reconnecting forever', { timeout: 60_000 }, async () => {
      const prefix = `/t-${++run}`;
      const ds = createEtcdDatastore({ client, endpoints: [etcd.endpoint], prefix, maxReceiveMessageBytes: 64 * 1024 });
      open.push(ds);
      const from = await bigHistory(ds, 10);
      const abort = new AbortController();
      try {
        await expect(collectEvents(ds.blocks.watch({ fromRevision: from, signal: abort.signal }), 11, 45_000)).rejects.toBeInstanceOf(DatastoreUnavailableError);
      } finally {
        abort.abort();
      }
    });

    it('keeps delivering across an etcd restart without losing or repeating events', { timeout: 60_000 }, async () => {
      const { ds } = fresh();
      const { revision } = await ds.ipPools.listWithRevision();
      const abort = new AbortController();
      try {
        const { watch, first } = withFirstEvent(ds.ipPools.watch({ fromRevision: revision, signal: abort.signal }));
        const pending = collectEvents(watch, 2, 45_000);
        await ds.ipPools.create({ name: 'before', cidr: '10.1.0.0/16' });
        // The stream is established (it delivered): the restart breaks a running watch.
        await first;
        await etcd.handle.restart();
        await createWhenBack(ds, { name: 'after', cidr: '10.2.0.0/16' });
        expect((await pending).map(describeEvent)).toEqual(['added:before', 'added:after']);
      } finally {
        abort.abort();
      }
    });
  });
}

/** Right after a restart the client may still be reconnecting: retry only while unavailable. */
async function createWhenBack(ds: Datastore, pool: { name: string; cidr: string }): Promise<void> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      await ds.ipPools.create(pool);
      return;
    } catch (err) {
      if (!(err instanceof DatastoreUnavailableError) || Date.now() > deadline) throw err;
    }
  }
}
