import { describe, expect, it } from 'vitest';
import { AlreadyExistsError, ConflictError, NotFoundError, type AffinityListOptions, type Datastore } from '@ipamkit/models';
import { content, sampleAffinity } from './contract-fixtures.js';

const HOST_A = 'node-a';
/** A name at the 63-character label limit, so host scoping cannot rely on the raw name. */
const HOST_LONG = `node-${'x'.repeat(58)}`;

const FIXTURE = [
  sampleAffinity(HOST_A, '10.0.0.0/30'),
  sampleAffinity(HOST_A, '10.0.0.4/30'),
  sampleAffinity(HOST_A, 'fd00::/126'),
  sampleAffinity('node-b', '10.0.0.8/30'),
  sampleAffinity(HOST_LONG, '10.0.0.12/30'),
  sampleAffinity('load-balancer', '10.0.0.16/30', 'virtual'),
  // A host named like another host's prefix must not leak into that host's list.
  sampleAffinity('node-a1', '10.0.0.20/30'),
];

const key = (a: { type: string; host: string; cidr: string }): string => `${a.type}/${a.host}/${a.cidr}`;

/** Which fixture rows a host-scoped list must return, and nothing else. */
const LISTING_CASES: { options: AffinityListOptions; expected: string[] }[] = [
  { options: {}, expected: FIXTURE.map(key) },
  { options: { host: HOST_A }, expected: ['host/node-a/10.0.0.0/30', 'host/node-a/10.0.0.4/30', 'host/node-a/fd00::/126'] },
  { options: { host: HOST_A, ipVersion: 4 }, expected: ['host/node-a/10.0.0.0/30', 'host/node-a/10.0.0.4/30'] },
  { options: { host: HOST_A, ipVersion: 6 }, expected: ['host/node-a/fd00::/126'] },
  { options: { host: HOST_A, type: 'host' }, expected: ['host/node-a/10.0.0.0/30', 'host/node-a/10.0.0.4/30', 'host/node-a/fd00::/126'] },
  { options: { host: HOST_A, type: 'virtual' }, expected: [] },
  { options: { host: HOST_LONG }, expected: [`host/${HOST_LONG}/10.0.0.12/30`] },
  { options: { type: 'virtual' }, expected: ['virtual/load-balancer/10.0.0.16/30'] },
  { options: { host: 'load-balancer', type: 'virtual', ipVersion: 4 }, expected: ['virtual/load-balancer/10.0.0.16/30'] },
  { options: { ipVersion: 6 }, expected: ['host/node-a/fd00::/126'] },
  { options: { host: 'node-c' }, expected: [] },
];

/** Affinities: keyed by (host, type, cidr), host-scoped listing (design/calico-stored-formats.md#affinities). */
export function affinityStoreContract(ds: () => Datastore): void {
  describe('affinities', () => {
    it('reads back exactly the affinity it created', async () => {
      const a = sampleAffinity(HOST_A, '10.0.0.0/30');
      const created = await ds().affinities.create({ ...a, state: 'pending' });
      expect(content(created)).toEqual({ ...a, state: 'pending' });
      expect(content(await ds().affinities.get({ host: HOST_A, type: 'host', cidr: '10.0.0.0/30' }))).toEqual({ ...a, state: 'pending' });
    });

    it('confirms a pending affinity by CAS and refuses the stale revision with ConflictError', async () => {
      const created = await ds().affinities.create({ ...sampleAffinity(HOST_A, '10.0.0.0/30'), state: 'pending' });
      const confirmed = await ds().affinities.update({ ...created, state: 'confirmed' });
      expect(confirmed.state).toBe('confirmed');
      expect(confirmed.revision).not.toBe(created.revision);
      await expect(ds().affinities.update({ ...created, state: 'pendingDeletion' })).rejects.toBeInstanceOf(ConflictError);
      expect((await ds().affinities.get({ host: HOST_A, type: 'host', cidr: '10.0.0.0/30' })).state).toBe('confirmed');
    });

    it('refuses to create an existing affinity with AlreadyExistsError', async () => {
      await ds().affinities.create(sampleAffinity(HOST_A, '10.0.0.0/30'));
      await expect(ds().affinities.create(sampleAffinity(HOST_A, '10.0.0.0/30'))).rejects.toBeInstanceOf(AlreadyExistsError);
    });

    it('deletes only at the current revision and then reports NotFoundError', async () => {
      const created = await ds().affinities.create({ ...sampleAffinity(HOST_A, '10.0.0.0/30'), state: 'pending' });
      const confirmed = await ds().affinities.update({ ...created, state: 'confirmed' });
      await expect(ds().affinities.delete(created)).rejects.toBeInstanceOf(ConflictError);
      await ds().affinities.delete(confirmed);
      await expect(ds().affinities.get({ host: HOST_A, type: 'host', cidr: '10.0.0.0/30' })).rejects.toBeInstanceOf(NotFoundError);
      await expect(ds().affinities.update(confirmed)).rejects.toBeInstanceOf(NotFoundError);
      await expect(ds().affinities.delete(confirmed)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('looks an affinity up by its type as well as its host and CIDR', async () => {
      await ds().affinities.create(sampleAffinity('load-balancer', '10.0.0.0/30', 'host'));
      await ds().affinities.create({ ...sampleAffinity('load-balancer', '10.0.0.4/30', 'virtual'), state: 'pending' });
      await expect(ds().affinities.get({ host: 'load-balancer', type: 'virtual', cidr: '10.0.0.0/30' })).rejects.toBeInstanceOf(NotFoundError);
      expect((await ds().affinities.get({ host: 'load-balancer', type: 'virtual', cidr: '10.0.0.4/30' })).state).toBe('pending');
    });

    it.each(LISTING_CASES)('lists by host, type and IP version: $options', async ({ options, expected }) => {
      for (const a of FIXTURE) await ds().affinities.create(a);
      const listed = await ds().affinities.list(options);
      expect(listed.map(key).sort()).toEqual([...expected].sort());
    });
  });
}
