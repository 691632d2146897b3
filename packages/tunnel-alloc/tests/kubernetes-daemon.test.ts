import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIpamClient } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { startKubeApiServer } from '@ipamkit/test-utils';
import { describe, expect, it } from 'vitest';
import { TUNNEL_KINDS } from '../src/tunnel-kinds.js';
import { daemonFor, has, lacks } from './daemon-harness.js';
import { NODE, tempDir, track, useBackends } from './fixtures.js';

useBackends({ etcd: false });

const CRD_DIR = resolve(fileURLToPath(import.meta.url), '../../../ipam-datastore/manifests/crds');
const { ipip, vxlan } = TUNNEL_KINDS;

describe('tunnel allocation daemon on Kubernetes', () => {
  it('moves the annotation from IPIP to VXLAN when the pool changes encapsulation', async () => {
    const server = await startKubeApiServer({ crdDirectories: [CRD_DIR], initialNamespaces: [], bookmarkIntervalMs: 200 });
    try {
      const ds = track(await createDatastore({ type: 'kubernetes', kubeconfig: server.writeKubeconfig(join(tempDir(), 'kubeconfig')) }));
      server.inject({ apiVersion: 'v1', kind: 'Node', metadata: { name: NODE }, spec: {} });
      await ds.ipPools.create({ name: 'pool-a', cidr: '10.10.0.0/24', blockSize: 26, ipipMode: 'Always' });
      const { daemon, reconciled } = daemonFor({ ds, ipam: createIpamClient({ datastore: ds }) });
      try {
        const first = await reconciled(has(ipip));
        const annotations = () =>
          (server.readRaw({ group: '', plural: 'nodes', name: NODE })!['metadata'] as { annotations?: Record<string, string> }).annotations;
        expect(annotations()).toEqual({ 'projectcalico.org/IPv4IPIPTunnelAddr': first.node.tunnelAddresses!.ipv4IPIPTunnelAddr });

        const stored = await ds.ipPools.get('pool-a');
        await ds.ipPools.update({ ...stored, ipipMode: 'Never', vxlanMode: 'Always' });
        const flipped = await reconciled((r) => has(vxlan)(r) && lacks(ipip)(r));
        expect(annotations()).toEqual({ 'projectcalico.org/IPv4VXLANTunnelAddr': flipped.node.tunnelAddresses!.ipv4VXLANTunnelAddr });
      } finally {
        await daemon.stop();
      }
    } finally {
      await server.close();
    }
  });
});
