import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ConflictError,
  DatastoreUnavailableError,
  NotFoundError,
  UnauthorizedError,
  ValidationError,
  WatchExpiredError,
  type IPPool,
} from '@ipamkit/models';
import { createKubernetesDatastore } from '../../src/kubernetes/index.js';
import { kubeConfigFor, startKubeHarness, type KubeHarness } from './kube-test-server.js';

const pool = (name: string): IPPool => ({ name, cidr: '10.0.0.0/16', blockSize: 26 });
const countRequests = (h: KubeHarness, method: string, suffix: string): number =>
  h.server.requests.filter((r) => r.method === method && r.path.endsWith(suffix)).length;

let h: KubeHarness;
beforeEach(async () => {
  h = await startKubeHarness({ maxHistory: 20 });
});
afterEach(async () => {
  await h.close();
});

describe('kubernetes backend errors', () => {
  it('maps a refused token to UnauthorizedError', async () => {
    const ds = await createKubernetesDatastore({ kubeconfig: kubeConfigFor(h.server, 'wrong-token') });
    await expect(ds.ipPools.list()).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('maps 403 to UnauthorizedError without retrying', async () => {
    h.server.failNext({ status: 403, method: 'GET' });
    await expect(h.datastore.ipPools.list()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(countRequests(h, 'GET', '/ippools')).toBe(1);
  });

  it.each([429, 500, 503])('retries a transient %i and then succeeds', async (status) => {
    await h.datastore.ipPools.create(pool('pool-a'));
    h.server.failNext({ status, method: 'GET', times: 2 });
    expect((await h.datastore.ipPools.get('pool-a')).cidr).toBe('10.0.0.0/16');
    expect(countRequests(h, 'GET', '/ippools/pool-a')).toBe(3);
  });

  it('gives up after a few attempts with DatastoreUnavailableError', async () => {
    h.server.failNext({ status: 503, method: 'GET', times: 50 });
    await expect(h.datastore.ipPools.list()).rejects.toBeInstanceOf(DatastoreUnavailableError);
    expect(countRequests(h, 'GET', '/ippools')).toBe(4);
  });

  it('never retries a conflict', async () => {
    const created = await h.datastore.ipPools.create(pool('pool-a'));
    await h.datastore.ipPools.update({ ...created, blockSize: 28 });
    const before = countRequests(h, 'PUT', '/ippools/pool-a');
    await expect(h.datastore.ipPools.update({ ...created, blockSize: 27 })).rejects.toBeInstanceOf(ConflictError);
    expect(countRequests(h, 'PUT', '/ippools/pool-a') - before).toBe(1);
  });

  it('maps a schema rejection (422) to ValidationError and stores nothing', async () => {
    await expect(h.datastore.ipamConfig.create({ strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 5000 })).rejects.toBeInstanceOf(
      ValidationError,
    );
    await expect(h.datastore.ipamConfig.get()).rejects.toBeInstanceOf(NotFoundError);
  });

  it('reports an unreachable API server as DatastoreUnavailableError', async () => {
    const ds = await createKubernetesDatastore({ kubeconfig: kubeConfigFor(h.server) });
    await h.server.close();
    await expect(ds.ipPools.list()).rejects.toBeInstanceOf(DatastoreUnavailableError);
  });

  it('ends a watch from a compacted revision with WatchExpiredError', async () => {
    const { revision } = await h.datastore.ipPools.listWithRevision();
    await h.datastore.ipPools.create(pool('pool-a'));
    h.server.compact();
    const abort = new AbortController();
    const consume = async (): Promise<void> => {
      for await (const _event of h.datastore.ipPools.watch({ fromRevision: revision, signal: abort.signal })) {
        // Drain until the stream fails.
      }
    };
    await expect(consume()).rejects.toBeInstanceOf(WatchExpiredError);
    abort.abort();
  });

  it('delivers bookmarks with the current revision', async () => {
    await h.datastore.ipPools.create(pool('pool-a'));
    const abort = new AbortController();
    const { revision } = await h.datastore.ipPools.listWithRevision();
    for await (const event of h.datastore.ipPools.watch({ fromRevision: revision, signal: abort.signal })) {
      expect(event).toEqual({ type: 'bookmark', revision: h.server.currentResourceVersion });
      break;
    }
    abort.abort();
  });
});

describe('kubernetes backend nodes and namespaces', () => {
  it('reads Calico Node fields from the Kubernetes Node and writes tunnel addresses back as annotations', async () => {
    h.server.inject({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name: 'node-a', labels: { zone: 'z1' }, annotations: { 'projectcalico.org/IPv4Address': '192.168.0.10/24' } },
      spec: { podCIDR: '10.244.0.0/24' },
      status: { addresses: [{ type: 'InternalIP', address: '192.168.0.10' }] },
    });
    const node = await h.datastore.nodes.get('node-a');
    expect(node).toMatchObject({ name: 'node-a', labels: { zone: 'z1' }, bgpIPv4Address: '192.168.0.10/24', podCIDRs: ['10.244.0.0/24'] });
    const updated = await h.datastore.nodes.update({ ...node, tunnelAddresses: { ipv4VXLANTunnelAddr: '10.0.0.1' } });
    expect(updated.tunnelAddresses).toEqual({ ipv4VXLANTunnelAddr: '10.0.0.1' });
    const raw = h.server.readRaw({ group: '', plural: 'nodes', name: 'node-a' });
    expect(raw?.['metadata']).toMatchObject({
      labels: { zone: 'z1' },
      annotations: { 'projectcalico.org/IPv4Address': '192.168.0.10/24', 'projectcalico.org/IPv4VXLANTunnelAddr': '10.0.0.1' },
    });
    expect(raw?.['status']).toEqual({ addresses: [{ type: 'InternalIP', address: '192.168.0.10' }] });
    const cleared = await h.datastore.nodes.update({ ...updated, tunnelAddresses: {} });
    expect(cleared.tunnelAddresses).toBeUndefined();
    await expect(h.datastore.nodes.update({ ...node, labels: { zone: 'stale' } })).rejects.toBeInstanceOf(ConflictError);
  });

  it('reads Namespace labels from the Kubernetes Namespace', async () => {
    h.server.inject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-a', labels: { team: 'a' } } });
    expect(await h.datastore.namespaces.get('team-a')).toMatchObject({ name: 'team-a', labels: { team: 'a' } });
  });
});
