import { describe, expect, it } from 'vitest';
import {
  AlreadyExistsError,
  ConflictError,
  NotFoundError,
  type Datastore,
  type DatastoreTx,
  sleep,
} from '@ipamkit/models';
import { allocateFirst, content, sampleAffinity, sampleBlock, sampleHandle } from './contract-fixtures.js';
import { stampContract } from './stamp-contract.js';

/** How long a transaction pauses between its reads so a racing write lands in between. */
const RACER_WINDOW_MS = 50;

type Transact = <R>(body: (tx: DatastoreTx) => Promise<R>) => Promise<R>;

function transactOf(ds: Datastore): Transact {
  if (ds.transact === undefined) throw new Error('this backend has no transact; declare { transact: false }');
  return ds.transact.bind(ds);
}

/** Multi-object atomic writes (design/calico-stored-formats.md#backend-operations; datastore.ts `DatastoreTx`). */
export function transactContract(ds: () => Datastore, declared: boolean): void {
  describe('transact', () => {
    it(`is ${declared ? 'offered' : 'absent'}, as the backend declares`, () => {
      expect(typeof ds().transact).toBe(declared ? 'function' : 'undefined');
    });
    if (!declared) return;

    it('commits every write of the body together and returns its result', async () => {
      const block = await ds().blocks.create(sampleBlock('10.0.0.0/30'));
      const stale = await ds().affinities.create(sampleAffinity('node-x', '10.0.0.8/30'));
      const result = await transactOf(ds())(async (tx) => {
        const read = await tx.blocks.get('10.0.0.0/30');
        tx.write({ op: 'update', kind: 'block', value: { ...allocateFirst(content(read), 'h1'), revision: read.revision } });
        tx.write({ op: 'create', kind: 'handle', value: sampleHandle('h1') });
        tx.write({ op: 'create', kind: 'affinity', value: sampleAffinity('node-a', '10.0.0.0/30') });
        tx.write({ op: 'delete', kind: 'affinity', value: await tx.affinities.get({ host: 'node-x', type: 'host', cidr: '10.0.0.8/30' }) });
        return read.revision;
      });
      expect(result).toBe(block.revision);
      expect(content(await ds().blocks.get('10.0.0.0/30'))).toEqual(allocateFirst(sampleBlock('10.0.0.0/30'), 'h1'));
      expect(content(await ds().handles.get('h1'))).toEqual(sampleHandle('h1'));
      expect((await ds().affinities.list({ host: 'node-a' })).map((a) => a.cidr)).toEqual(['10.0.0.0/30']);
      await expect(ds().affinities.get({ host: 'node-x', type: 'host', cidr: stale.cidr })).rejects.toBeInstanceOf(NotFoundError);
    });

    it('writes nothing when one revision precondition fails', async () => {
      const block = await ds().blocks.create(sampleBlock('10.0.0.0/30'));
      const moved = await ds().blocks.update({ ...allocateFirst(content(block), 'other'), revision: block.revision });
      await expect(
        transactOf(ds())(async (tx) => {
          tx.write({ op: 'create', kind: 'handle', value: sampleHandle('h1') });
          tx.write({ op: 'update', kind: 'block', value: { ...allocateFirst(content(block), 'h1'), revision: block.revision } });
          return Promise.resolve();
        }),
      ).rejects.toBeInstanceOf(ConflictError);
      await expect(ds().handles.get('h1')).rejects.toBeInstanceOf(NotFoundError);
      expect((await ds().blocks.get('10.0.0.0/30')).revision).toBe(moved.revision);
    });

    it('writes nothing when a create collides with AlreadyExistsError', async () => {
      await ds().handles.create(sampleHandle('h1', { '10.0.0.4/30': 1 }));
      await expect(
        transactOf(ds())(async (tx) => {
          tx.write({ op: 'create', kind: 'block', value: sampleBlock('10.0.0.0/30') });
          tx.write({ op: 'create', kind: 'handle', value: sampleHandle('h1') });
          return Promise.resolve();
        }),
      ).rejects.toBeInstanceOf(AlreadyExistsError);
      await expect(ds().blocks.get('10.0.0.0/30')).rejects.toBeInstanceOf(NotFoundError);
      expect((await ds().handles.get('h1')).block).toEqual({ '10.0.0.4/30': 1 });
    });

    it('writes nothing and rethrows when the body throws', async () => {
      const failure = new Error('body failed');
      await expect(
        transactOf(ds())(async (tx) => {
          tx.write({ op: 'create', kind: 'handle', value: sampleHandle('h1') });
          return Promise.reject(failure);
        }),
      ).rejects.toBe(failure);
      await expect(ds().handles.get('h1')).rejects.toBeInstanceOf(NotFoundError);
    });

    it('reads one consistent state while another writer races, and exactly one of them wins', async () => {
      const block = await ds().blocks.create(sampleBlock('10.0.0.0/30'));
      const outcome = (p: Promise<unknown>): Promise<string> =>
        p.then(
          () => 'won',
          (err: unknown) => (err instanceof ConflictError ? 'conflict' : `unexpected ${String(err)}`),
        );
      let racer: Promise<string> | undefined;
      const reads: string[] = [];
      const tx = outcome(
        transactOf(ds())(async (t) => {
          const first = await t.blocks.get('10.0.0.0/30');
          racer ??= outcome(ds().blocks.update({ ...allocateFirst(content(block), 'racer'), revision: block.revision }));
          // Give the racer every chance to run before the second read.
          await sleep(RACER_WINDOW_MS);
          const second = await t.blocks.get('10.0.0.0/30');
          reads.push(first.revision, second.revision);
          t.write({ op: 'update', kind: 'block', value: { ...allocateFirst(content(first), 'tx'), revision: first.revision } });
        }),
      );
      const txOutcome = await tx;
      const racerOutcome = await (racer ?? Promise.resolve('racer never started'));
      // A backend may retry the body once the racer committed; every attempt must read one state.
      expect(reads.slice(0, 2)).toEqual([block.revision, block.revision]);
      expect([txOutcome, racerOutcome].sort()).toEqual(['conflict', 'won']);
      const winner = txOutcome === 'won' ? 'tx' : 'racer';
      expect((await ds().blocks.get('10.0.0.0/30')).attributes[0]?.handleId).toBe(winner);
    });

    it('sees pools, reservations, nodes and the IPAM config through the transaction view', async () => {
      await ds().ipPools.create({ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 30 });
      await ds().ipReservations.create({ name: 'res-a', reservedCIDRs: ['10.0.0.1/32'] });
      await ds().nodes.create({ name: 'node-a', labels: { zone: 'z1' } });
      await ds().ipamConfig.create({ strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 2, ipCooldownSeconds: 0 });
      const seen = await transactOf(ds())(async (t) => ({
        pools: (await t.ipPools.list()).map((p) => p.name),
        reservations: (await t.ipReservations.list()).map((r) => r.name),
        zone: (await t.nodes.get('node-a')).labels?.['zone'],
        maxBlocks: (await t.ipamConfig.get()).maxBlocksPerHost,
        affinities: (await t.affinities.list({ host: 'node-a' })).length,
        blocks: (await t.blocks.list()).length,
      }));
      expect(seen).toEqual({ pools: ['pool-a'], reservations: ['res-a'], zone: 'z1', maxBlocks: 2, affinities: 0, blocks: 0 });
    });

    stampContract(ds);
  });
}
