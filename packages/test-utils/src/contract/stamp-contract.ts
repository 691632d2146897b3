import { describe, expect, it } from 'vitest';
import type { Datastore, StampTarget } from '@ipamkit/models';
import { SAMPLE_IPAM_CONFIG, sampleAffinity, sampleBlock } from './contract-fixtures.js';

const POOLS: StampTarget = { kind: 'ipPools' };
const RESERVATIONS: StampTarget = { kind: 'ipReservations' };
const CONFIG: StampTarget = { kind: 'ipamConfig' };
const NODE_A: StampTarget = { kind: 'node', name: 'node-a' };
const AFFINITIES_A: StampTarget = { kind: 'affinities', host: 'node-a', type: 'host', ipVersion: 4 };
const ALL: readonly StampTarget[] = [POOLS, RESERVATIONS, CONFIG, NODE_A, AFFINITIES_A];

async function stampOf(ds: Datastore, target: StampTarget): Promise<string> {
  if (ds.transact === undefined) throw new Error('this backend has no transact');
  return await ds.transact((tx) => tx.stamps.get(target));
}

/** Every stamp target, read in one transaction. */
async function allStamps(ds: Datastore): Promise<string[]> {
  if (ds.transact === undefined) throw new Error('this backend has no transact');
  return await ds.transact((tx) => Promise.all(ALL.map((t) => tx.stamps.get(t))));
}

/**
 * Version stamps inside transactions (datastore.ts `TxStamps`): equal stamps mean the same state,
 * so every change of a target (create, update, delete, and a delete followed by a create that
 * restores the count) must change its stamp, and nothing else may be needed to notice it.
 */
export function stampContract(ds: () => Datastore): void {
  describe('transaction stamps', () => {
    it('stay the same while nothing they name changes', async () => {
      await ds().ipPools.create({ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 30 });
      await ds().affinities.create(sampleAffinity('node-a', '10.0.0.0/30'));
      const before = await allStamps(ds());
      await ds().blocks.create(sampleBlock('10.0.0.0/30'));
      await ds().affinities.create(sampleAffinity('node-b', '10.0.0.4/30'));
      await ds().affinities.create(sampleAffinity('node-a', 'fd00::/126'));
      expect(await allStamps(ds())).toEqual(before);
    });

    it('move when a pool is created, updated, deleted or replaced by another', async () => {
      const seen = [await stampOf(ds(), POOLS)];
      const a = await ds().ipPools.create({ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 30 });
      seen.push(await stampOf(ds(), POOLS));
      await ds().ipPools.update({ ...a, disabled: true });
      seen.push(await stampOf(ds(), POOLS));
      await ds().ipPools.create({ name: 'pool-b', cidr: '10.0.1.0/24', blockSize: 30 });
      seen.push(await stampOf(ds(), POOLS));
      await ds().ipPools.delete('pool-a');
      seen.push(await stampOf(ds(), POOLS));
      // Same count as two steps back, one pool fewer than before: only the revisions tell.
      await ds().ipPools.create({ name: 'pool-c', cidr: '10.0.2.0/24', blockSize: 30 });
      seen.push(await stampOf(ds(), POOLS));
      expect(new Set(seen).size).toBe(seen.length);
    });

    it('move when a reservation, the IPAM config or the node changes', async () => {
      for (const [target, change] of [
        [RESERVATIONS, async () => ds().ipReservations.create({ name: 'res-a', reservedCIDRs: ['10.0.0.1/32'] })],
        [RESERVATIONS, async () => ds().ipReservations.update({ ...(await ds().ipReservations.get('res-a')), reservedCIDRs: ['10.0.0.2/32'] })],
        [RESERVATIONS, async () => ds().ipReservations.delete('res-a')],
        [CONFIG, async () => ds().ipamConfig.create(SAMPLE_IPAM_CONFIG)],
        [CONFIG, async () => ds().ipamConfig.update({ ...(await ds().ipamConfig.get()), maxBlocksPerHost: 9 })],
        [CONFIG, async () => ds().ipamConfig.delete()],
        [NODE_A, async () => ds().nodes.create({ name: 'node-a', labels: { zone: 'z1' } })],
        [NODE_A, async () => ds().nodes.update({ ...(await ds().nodes.get('node-a')), labels: { zone: 'z2' } })],
        [NODE_A, async () => ds().nodes.delete('node-a')],
      ] as const) {
        const before = await stampOf(ds(), target);
        await change();
        expect(await stampOf(ds(), target), `${target.kind} after a change`).not.toBe(before);
      }
    });

    it("move when one of the owner's affinities of the family is created, updated or deleted", async () => {
      const seen = [await stampOf(ds(), AFFINITIES_A)];
      const first = await ds().affinities.create({ ...sampleAffinity('node-a', '10.0.0.0/30'), state: 'pending' });
      seen.push(await stampOf(ds(), AFFINITIES_A));
      const confirmed = await ds().affinities.update({ ...first, state: 'confirmed' });
      seen.push(await stampOf(ds(), AFFINITIES_A));
      await ds().affinities.delete(confirmed);
      // Back to no affinities: the state of the start, so its stamp may be the start's.
      const emptyAgain = await stampOf(ds(), AFFINITIES_A);
      await ds().affinities.create(sampleAffinity('node-a', '10.0.0.4/30'));
      seen.push(await stampOf(ds(), AFFINITIES_A));
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.slice(1, 3)).not.toContain(emptyAgain);
    });

    it('are read with the other reads of the transaction', async () => {
      await ds().ipPools.create({ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 30 });
      if (ds().transact === undefined) throw new Error('this backend has no transact');
      const inOne = await ds().transact?.(async (tx) => {
        const [stamp, pools] = await Promise.all([tx.stamps.get(POOLS), tx.ipPools.list()]);
        return { stamp, names: pools.map((p) => p.name) };
      });
      expect(inOne).toEqual({ stamp: await stampOf(ds(), POOLS), names: ['pool-a'] });
    });
  });
}
