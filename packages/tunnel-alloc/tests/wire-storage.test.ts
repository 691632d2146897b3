import { execFile } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createIpamClient } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { KUBERNETES_NODE_ANNOTATIONS } from '@ipamkit/models';
import { startKubeApiServer } from '@ipamkit/test-utils';
import { describe, expect, it } from 'vitest';
import { reconcileTunnelAddresses } from '../src/index.js';
import { ETCD, FIVE_TYPE_POOLS, NODE, etcdEndpoint, reconcile, tempDir, useBackends, world } from './fixtures.js';

useBackends();

const run = promisify(execFile);
const CRD_DIR = resolve(fileURLToPath(import.meta.url), '../../../ipam-datastore/manifests/crds');

/** The raw value etcd holds for this node's Calico Node key, read with etcdctl (not our codecs). */
async function rawEtcdNode(): Promise<Record<string, unknown>> {
  const { stdout } = await run('etcdctl', ['--endpoints', etcdEndpoint(), 'get', '--prefix', '/'], {
    env: { ...process.env, ETCDCTL_API: '3' },
    timeout: 30_000,
  });
  const lines = stdout.split('\n');
  const at = lines.findLastIndex((line) => line.endsWith(`/projectcalico.org/nodes/${NODE}`));
  expect(at).toBeGreaterThanOrEqual(0);
  return JSON.parse(lines[at + 1]!) as Record<string, unknown>;
}

describe('where the tunnel addresses are stored', () => {
  it('writes the Calico Node spec fields in etcd', async () => {
    const w = await world(ETCD, {
      pools: FIVE_TYPE_POOLS,
      nodes: [{ name: NODE, wireguardPublicKey: 'k4=', wireguardPublicKeyV6: 'k6=' }],
    });
    const result = await reconcile(w);
    const t = result.node.tunnelAddresses!;
    const raw = await rawEtcdNode();
    expect(raw['spec']).toEqual({
      bgp: { ipv4IPIPTunnelAddr: t.ipv4IPIPTunnelAddr },
      ipv4VXLANTunnelAddr: t.ipv4VXLANTunnelAddr,
      ipv6VXLANTunnelAddr: t.ipv6VXLANTunnelAddr,
      wireguard: { interfaceIPv4Address: t.wireguardInterfaceIPv4Address, interfaceIPv6Address: t.wireguardInterfaceIPv6Address },
    });

    // Disabling everything clears the fields and drops the emptied bgp / wireguard objects.
    for (const pool of await w.ds.ipPools.list()) await w.ds.ipPools.update({ ...pool, disabled: true });
    const node = await w.ds.nodes.get(NODE);
    const { wireguardPublicKey: _k4, wireguardPublicKeyV6: _k6, ...withoutKeys } = node;
    await w.ds.nodes.update(withoutKeys);
    await reconcile(w);
    expect((await rawEtcdNode())['spec']).toEqual({});
  });

  it('writes the projectcalico.org annotations on the Kubernetes Node and keeps the rest of it', async () => {
    const server = await startKubeApiServer({ crdDirectories: [CRD_DIR], initialNamespaces: [] });
    const datastore = await createDatastore({ type: 'kubernetes', kubeconfig: server.writeKubeconfig(join(tempDir(), 'kubeconfig')) });
    try {
      server.inject({
        apiVersion: 'v1',
        kind: 'Node',
        metadata: {
          name: NODE,
          labels: { 'kubernetes.io/hostname': NODE },
          annotations: { [KUBERNETES_NODE_ANNOTATIONS.wireguardPublicKey]: 'k4=', 'example.com/keep': 'me' },
        },
        spec: { podCIDR: '10.244.3.0/24' },
        status: { nodeInfo: { kubeletVersion: 'v1.31.0' } },
      });
      for (const pool of FIVE_TYPE_POOLS) await datastore.ipPools.create(pool);
      const ipam = createIpamClient({ datastore });
      const result = await reconcileTunnelAddresses({ datastore, ipam, nodeName: NODE });
      const t = result.node.tunnelAddresses!;
      const raw = server.readRaw({ group: '', plural: 'nodes', name: NODE })!;
      expect((raw['metadata'] as { annotations: Record<string, string> }).annotations).toEqual({
        [KUBERNETES_NODE_ANNOTATIONS.wireguardPublicKey]: 'k4=',
        'example.com/keep': 'me',
        'projectcalico.org/IPv4IPIPTunnelAddr': t.ipv4IPIPTunnelAddr,
        'projectcalico.org/IPv4VXLANTunnelAddr': t.ipv4VXLANTunnelAddr,
        'projectcalico.org/IPv6VXLANTunnelAddr': t.ipv6VXLANTunnelAddr,
        'projectcalico.org/IPv4WireguardInterfaceAddr': t.wireguardInterfaceIPv4Address,
      });
      expect(raw['spec']).toEqual({ podCIDR: '10.244.3.0/24' });
      expect(raw['status']).toEqual({ nodeInfo: { kubeletVersion: 'v1.31.0' } });

      const again = await reconcileTunnelAddresses({ datastore, ipam, nodeName: NODE });
      expect(again.nodeUpdated).toBe(false);
    } finally {
      await datastore.close();
      await server.close();
    }
  });
});
