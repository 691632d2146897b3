import { blockCidrFor, type Datastore, type IPAMConfig } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { createIpamClient, type IPAMAssignments, type IpamClient } from '../src/index.js';
import { assertConsistent, bare } from './client/fixtures.js';
import type { RaceBackend, RaceStore } from './race-backends.js';

/** Every racing test must settle well inside this (issue 20: "each done in under 10 s"). */
export const RACE_TIMEOUT_MS = 10_000;

const NO_MORE_AFFINE_BLOCKS = 'No more free affine blocks and strict affinity enabled';
const strict: IPAMConfig = { strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 0 };

function clientsOn(handles: readonly Datastore[]): IpamClient[] {
  return handles.map((datastore) => createIpamClient({ datastore, windowsHost: false }));
}

/** The reasons of the rejected outcomes, so a failing run says what went wrong. */
function rejections(outcomes: readonly PromiseSettledResult<unknown>[]): string[] {
  return outcomes.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []));
}

function fulfilled<T>(outcomes: readonly PromiseSettledResult<T>[]): T[] {
  return outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
}

async function seedHosts(store: RaceStore, pool: { cidr: string; blockSize: number }, hosts: readonly string[], config?: IPAMConfig): Promise<void> {
  await store.seed.ipPools.create({ name: 'race', ...pool });
  for (const name of hosts) await store.seed.nodes.create({ name });
  if (config !== undefined) await store.seed.ipamConfig.create(config);
}

/** Blocks and affinities agree: each block's owner holds exactly one confirmed affinity for it, and no affinity dangles. */
async function expectAffinitiesMatchBlocks(ds: Datastore): Promise<void> {
  const [blocks, affinities] = await Promise.all([ds.blocks.list(), ds.affinities.list()]);
  const fromBlocks = blocks.flatMap((b) => (b.affinity === undefined ? [] : [`${b.affinity.type}:${b.affinity.host} ${b.cidr} confirmed`])).sort();
  const fromAffinities = affinities.map((a) => `${a.type}:${a.host} ${a.cidr} ${a.state}`).sort();
  expect(fromAffinities).toEqual(fromBlocks);
}

export function describeRaceScenarios(backend: RaceBackend): void {
  backend.setup();

  describe(`32 hosts racing for 16 blocks through separate handles on ${backend.name}`, () => {
    const hosts = Array.from({ length: 32 }, (_, i) => `racer-${String(i).padStart(2, '0')}`);
    const pool = { cidr: '10.0.0.0/22', blockSize: 26 };
    const request = (ipam: IpamClient, host: string): Promise<{ ipv4?: IPAMAssignments }> =>
      ipam.autoAssign({ num4: 1, hostname: host, handleId: `handle-${host}`, intendedUse: 'Workload' });

    it(
      'with strict affinity: 16 hosts own one block each and get an address, the others are told there are no more blocks',
      async () => {
        const store = await backend.open();
        await seedHosts(store, pool, hosts, strict);
        const clients = clientsOn(await store.handles(hosts.length));
        const outcomes = await Promise.allSettled(clients.map((ipam, i) => request(ipam, hosts[i] ?? '')));
        expect(rejections(outcomes)).toEqual([]);
        const results = fulfilled(outcomes).map((r) => r.ipv4);
        const served = results.filter((r) => (r?.ips.length ?? 0) === 1);
        const refused = results.filter((r) => r?.ips.length === 0);
        expect(served).toHaveLength(16);
        expect(refused).toHaveLength(16);
        for (const r of refused) expect(r?.msgs).toEqual([NO_MORE_AFFINE_BLOCKS]);
        const ips = served.flatMap((r) => r?.ips ?? []).map(bare);
        expect(new Set(ips).size).toBe(16);

        const blocks = await store.seed.blocks.list();
        expect(blocks).toHaveLength(16);
        expect(new Set(blocks.map((b) => b.affinity?.host)).size).toBe(16);
        // Each served host's address lies in the one block it owns.
        for (const [i, r] of results.entries()) {
          const owned = blocks.filter((b) => b.affinity?.host === hosts[i]);
          const ip = r?.ips[0];
          if (ip === undefined) expect(owned).toEqual([]);
          else expect(owned.map((b) => b.cidr)).toEqual([blockCidrFor(bare(ip), 26)]);
        }
        await expectAffinitiesMatchBlocks(store.seed);
        expect(await assertConsistent(store.seed)).toEqual({ allocated: 16, handles: 16 });
      },
      RACE_TIMEOUT_MS,
    );

    it(
      'without strict affinity: every host gets an address, borrowing once the 16 blocks are owned',
      async () => {
        const store = await backend.open();
        await seedHosts(store, pool, hosts);
        const clients = clientsOn(await store.handles(hosts.length));
        const outcomes = await Promise.allSettled(clients.map((ipam, i) => request(ipam, hosts[i] ?? '')));
        expect(rejections(outcomes)).toEqual([]);
        const ips = fulfilled(outcomes).flatMap((r) => r.ipv4?.ips ?? []).map(bare);
        expect(ips).toHaveLength(32);
        expect(new Set(ips).size).toBe(32);
        const blocks = await store.seed.blocks.list();
        expect(blocks).toHaveLength(16);
        expect(new Set(blocks.map((b) => b.affinity?.host)).size).toBe(16);
        await expectAffinitiesMatchBlocks(store.seed);
        expect(await assertConsistent(store.seed)).toEqual({ allocated: 32, handles: 32 });
      },
      RACE_TIMEOUT_MS,
    );
  });

  describe(`4 requests from one host through separate handles on ${backend.name}`, () => {
    it(
      'gives each request a distinct address and confirms exactly one affinity for the host',
      async () => {
        const store = await backend.open();
        await seedHosts(store, { cidr: '10.0.0.0/25', blockSize: 26 }, ['node-a']);
        const clients = clientsOn(await store.handles(4));
        const outcomes = await Promise.allSettled(
          clients.map((ipam, i) => ipam.autoAssign({ num4: 1, hostname: 'node-a', handleId: `pod-${i}`, intendedUse: 'Workload' })),
        );
        expect(rejections(outcomes)).toEqual([]);
        const ips = fulfilled(outcomes).flatMap((r) => r.ipv4?.ips ?? []);
        expect(ips).toHaveLength(4);
        expect(new Set(ips).size).toBe(4);
        const affinities = await store.seed.affinities.list({ host: 'node-a' });
        expect(affinities.map((a) => [a.host, a.state])).toEqual([['node-a', 'confirmed']]);
        const blocks = await store.seed.blocks.list();
        expect(blocks.map((b) => [b.cidr, b.affinity])).toEqual([[affinities[0]?.cidr, { type: 'host', host: 'node-a' }]]);
        for (const ip of ips) expect(ip.endsWith('/26')).toBe(true);
        expect(await assertConsistent(store.seed)).toEqual({ allocated: 4, handles: 4 });
      },
      RACE_TIMEOUT_MS,
    );
  });

  describe(`racing claims and releases of one range through separate handles on ${backend.name}`, () => {
    it(
      'never lets two hosts hold a block at once and leaves the range consistent and free',
      async () => {
        const store = await backend.open();
        const range = '10.0.0.0/24';
        const allBlocks = ['10.0.0.0/26', '10.0.0.64/26', '10.0.0.128/26', '10.0.0.192/26'];
        const hosts = ['node-a', 'node-b', 'node-c', 'node-d'];
        await seedHosts(store, { cidr: range, blockSize: 26 }, hosts);
        const handles = await store.handles(hosts.length);
        const rounds = 3;
        const race = hosts.map(async (host, i) => {
          const ds = handles[i];
          if (ds === undefined) throw new Error('missing handle');
          const [ipam] = clientsOn([ds]);
          if (ipam === undefined) throw new Error('missing client');
          const heldAtOnce: string[][] = [];
          for (let round = 0; round < rounds; round += 1) {
            const { claimed, failed } = await ipam.claimAffinity(range, { affinityType: 'host', host });
            expect([...claimed, ...failed].sort()).toEqual([...allBlocks].sort());
            // Only this host releases its blocks, and it is not releasing now: they must be its own.
            const owners = await Promise.all(claimed.map(async (cidr) => (await ds.blocks.get(cidr)).affinity?.host));
            heldAtOnce.push(owners.map((o) => o ?? '(none)'));
            await ipam.releaseAffinity(range, host, true);
          }
          return heldAtOnce;
        });
        const outcomes = await Promise.allSettled(race);
        expect(rejections(outcomes)).toEqual([]);
        for (const [i, held] of fulfilled(outcomes).entries()) {
          for (const owners of held) expect(owners.every((o) => o === hosts[i])).toBe(true);
        }
        expect(await store.seed.blocks.list()).toEqual([]);
        expect(await store.seed.affinities.list()).toEqual([]);
        const [late] = clientsOn([store.seed]);
        expect(await late?.claimAffinity(range, { affinityType: 'host', host: 'node-e' })).toEqual({ claimed: allBlocks, failed: [] });
        await expectAffinitiesMatchBlocks(store.seed);
      },
      RACE_TIMEOUT_MS,
    );
  });
}
