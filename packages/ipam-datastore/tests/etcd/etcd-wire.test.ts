import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AllocationBlock, Datastore } from '@ipamkit/models';
import { withEtcd } from '@ipamkit/test-utils';
import { createEtcdDatastore } from '../../src/etcd/index.js';
import { ETCD_CLIENTS } from './support/etcd-clients.js';

// This file has an etcd of its own and writes without a key prefix: keys are exactly Calico's.
const etcd = withEtcd();
let raw: Etcd3;
let ds: Datastore;

beforeAll(() => {
  raw = new Etcd3({ hosts: etcd.endpoint });
});
afterAll(() => {
  raw.close();
});
beforeEach(async () => {
  await raw.delete().all().exec();
});

async function stored(key: string): Promise<{ value: string; modRevision: string }> {
  const kv = (await raw.get(key).exec()).kvs[0];
  if (kv === undefined) throw new Error(`no key ${key}`);
  return { value: kv.value.toString('utf8'), modRevision: kv.mod_revision };
}

const BLOCK: AllocationBlock = {
  cidr: '10.0.0.0/30',
  affinity: { type: 'host', host: 'node-a' },
  affinityClaimTime: '2026-08-22T13:33:20Z',
  allocations: [0, null, null, 1],
  unallocated: [1, 2],
  attributes: [
    { handleId: 'k8s-pod-network.4f1c', activeOwnerAttrs: { pod: 'web-0', namespace: 'default', node: 'node-a' } },
    { releasedAt: '2026-08-22T13:40:00Z' },
  ],
  sequenceNumber: 1787405600000000007n,
  sequenceNumberForAllocation: { '3': 1787405600000000006n, '0': 1787405600000000005n },
  deleted: false,
};

// Both etcd clients must write and read exactly Calico's bytes.
for (const client of ETCD_CLIENTS) {
  describe(`${client} client`, () => {
    beforeAll(() => {
      ds = createEtcdDatastore({ client, endpoints: [etcd.endpoint] });
    });
    afterAll(async () => {
      await ds.close();
    });

    describe('etcd wire format (design/ipam-datastore.md, "etcd backend")', () => {
      it('writes a block under its Calico key as the model JSON, sequence numbers as exact JSON numbers', async () => {
        const created = await ds.blocks.create(BLOCK);
        const row = await stored('/calico/ipam/v2/assignment/ipv4/block/10.0.0.0-30');
        expect(row.value).toBe(
          '{"cidr":"10.0.0.0/30","affinity":"host:node-a","affinity_claim_time":"2026-08-22T13:33:20Z",' +
            '"allocations":[0,null,null,1],"unallocated":[1,2],' +
            '"attributes":[{"handle_id":"k8s-pod-network.4f1c","secondary":{"namespace":"default","node":"node-a","pod":"web-0"}},' +
            '{"releasedAt":"2026-08-22T13:40:00Z"}],' +
            '"sequenceNumber":1787405600000000007,' +
            '"sequenceNumberForAllocation":{"0":1787405600000000005,"3":1787405600000000006},"deleted":false}',
        );
        expect(created.revision).toBe(row.modRevision);
      });

      it('writes an unaffine block with "affinity": null and keys IPv6 blocks with only "/" replaced', async () => {
        const { affinity: _affinity, affinityClaimTime: _claimed, ...unaffine } = BLOCK;
        await ds.blocks.create({ ...unaffine, cidr: 'fd00::/126' });
        const row = await stored('/calico/ipam/v2/assignment/ipv6/block/fd00::-126');
        expect(JSON.parse(row.value)).toMatchObject({ cidr: 'fd00::/126', affinity: null });
        expect(row.value).not.toContain('affinity_claim_time');
      });

      it('writes host and virtual affinities under their type and host, value state and deleted only', async () => {
        await ds.affinities.create({ host: 'node-a', type: 'host', cidr: '10.0.0.0/26', state: 'confirmed', deleted: false });
        await ds.affinities.create({ host: 'load-balancer', type: 'virtual', cidr: '10.0.0.64/26', state: 'pending', deleted: false });
        expect((await stored('/calico/ipam/v2/host/node-a/ipv4/block/10.0.0.0-26')).value).toBe('{"state":"confirmed","deleted":false}');
        expect((await stored('/calico/ipam/v2/virtual/load-balancer/ipv4/block/10.0.0.64-26')).value).toBe('{"state":"pending","deleted":false}');
      });

      it('writes a handle under its raw, case-kept ID', async () => {
        await ds.handles.create({ handleId: 'k8s-pod-network.ABC', block: { '10.0.0.0/26': 1, 'fd00::/122': 2 }, deleted: false });
        expect((await stored('/calico/ipam/v2/handle/k8s-pod-network.ABC')).value).toBe('{"block":{"10.0.0.0/26":1,"fd00::/122":2},"deleted":false}');
      });

      it('writes the IPAM config singleton with every zero field omitted', async () => {
        const created = await ds.ipamConfig.create({ strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 4, kubeVirtVMAddressPersistence: 'Enabled', ipCooldownSeconds: 30 });
        expect((await stored('/calico/ipam/v2/config')).value).toBe(
          '{"strict_affinity":true,"auto_allocate_blocks":true,"maxBlocksPerHost":4,"kubeVirtVMAddressPersistence":"Enabled","ipCooldownSeconds":30}',
        );
        await ds.ipamConfig.update({ strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 0, revision: created.revision });
        expect((await stored('/calico/ipam/v2/config')).value).toBe('{"auto_allocate_blocks":true}');
      });

      it('writes pools, reservations and nodes as v3 resources under /calico/resources/v3/projectcalico.org/', async () => {
        await ds.ipPools.create({ name: 'pool-a', cidr: '10.0.0.0/16', blockSize: 26, nodeSelector: 'all()' });
        await ds.ipReservations.create({ name: 'res-a', reservedCIDRs: ['10.0.0.1/32'] });
        await ds.nodes.create({ name: 'node-a', labels: { zone: 'z1' } });
        expect(JSON.parse((await stored('/calico/resources/v3/projectcalico.org/ippools/pool-a')).value)).toMatchObject({
          kind: 'IPPool',
          apiVersion: 'projectcalico.org/v3',
          metadata: { name: 'pool-a' },
          spec: { cidr: '10.0.0.0/16', blockSize: 26, nodeSelector: 'all()' },
        });
        expect(JSON.parse((await stored('/calico/resources/v3/projectcalico.org/ipreservations/res-a')).value)).toMatchObject({
          kind: 'IPReservation',
          metadata: { name: 'res-a' },
          spec: { reservedCIDRs: ['10.0.0.1/32'] },
        });
        expect(JSON.parse((await stored('/calico/resources/v3/projectcalico.org/nodes/node-a')).value)).toMatchObject({
          kind: 'Node',
          apiVersion: 'projectcalico.org/v3',
          metadata: { name: 'node-a', labels: { zone: 'z1' } },
        });
      });

      it('keeps namespaces under /ipamkit/v1/namespaces/, outside Calico\'s tree', async () => {
        await ds.namespaces.create({ name: 'team-a', labels: { team: 'blue' } });
        expect(JSON.parse((await stored('/ipamkit/v1/namespaces/team-a')).value)).toEqual({ name: 'team-a', labels: { team: 'blue' } });
      });
    });

    describe('reading what Calico wrote', () => {
      it('reads a fresh Calico block with null attributes and sequence map as empty', async () => {
        const key = '/calico/ipam/v2/assignment/ipv4/block/10.0.0.4-30';
        await raw
          .put(key)
          .value('{"cidr":"10.0.0.4/30","affinity":"host:node-b","allocations":[null,null,null,null],"unallocated":[0,1,2,3],"attributes":null,"sequenceNumber":1787405600000000000,"sequenceNumberForAllocation":null,"deleted":false}')
          .exec();
        const block = await ds.blocks.get('10.0.0.4/30');
        expect(block).toMatchObject({ cidr: '10.0.0.4/30', affinity: { type: 'host', host: 'node-b' }, attributes: [], sequenceNumberForAllocation: {} });
        expect(block.sequenceNumber).toBe(1787405600000000000n);
        expect(block.revision).toBe((await stored(key)).modRevision);
      });

      it('reads a legacy affinity with an empty value as state "" and skips the legacy host marker', async () => {
        await raw.put('/calico/ipam/v2/host/node-c/ipv4/block/10.0.0.8-30').value('').exec();
        await raw.put('/calico/ipam/v2/host/node-c').value('{}').exec();
        const byHost = await ds.affinities.list({ host: 'node-c' });
        const all = await ds.affinities.list();
        expect(all.map(({ revision: _r, ...a }) => a)).toEqual(byHost.map(({ revision: _r, ...a }) => a));
        expect(byHost.map(({ revision: _r, ...a }) => a)).toEqual([{ host: 'node-c', type: 'host', cidr: '10.0.0.8/30', state: '', deleted: false }]);
      });
    });
  });
}
