import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createIpamClient } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { CALICO_API_MODES, deniedRequests, failOnDenial, startRoleBoundServer, unjustifiedGrants, type RoleBoundServer } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TUNNEL_KINDS } from '../src/tunnel-kinds.js';
import { daemonFor, has, lacks } from './daemon-harness.js';
import { NODE, OTHER_NODE, tempDir, track, useBackends } from './fixtures.js';

useBackends({ etcd: false });

const MANIFESTS = resolve(fileURLToPath(import.meta.url), '../../../ipam-datastore/manifests');
const { ipip, vxlan } = TUNNEL_KINDS;

// RBAC proven by behaviour (design/tunnel-alloc.md, "RBAC"): the daemon runs under the manifest's
// ClusterRole; every request it makes must be allowed, and every grant used or justified.
describe.each(CALICO_API_MODES)('tunnel-alloc under its ClusterRole ($name group)', (mode) => {
  let bound: RoleBoundServer;
  let admin: Datastore;
  let asRole: Datastore;

  beforeAll(async () => {
    bound = await startRoleBoundServer({ manifestsDir: MANIFESTS, mode, component: 'tunnel-alloc', options: { initialNamespaces: [], bookmarkIntervalMs: 200 } });
    const dir = tempDir();
    admin = await createDatastore({ type: 'kubernetes', kubeconfig: bound.server.writeKubeconfig(join(dir, 'admin'), { admin: true }), apiGroup: mode.apiGroup });
    asRole = await createDatastore({ type: 'kubernetes', kubeconfig: bound.server.writeKubeconfig(join(dir, 'role')), apiGroup: mode.apiGroup });
  });
  afterAll(async () => {
    await admin.close();
    await asRole.close();
    await bound.server.close();
  });

  it('allocates, moves and releases the node\'s tunnel address with nothing denied', async () => {
    for (const name of [NODE, OTHER_NODE]) bound.server.inject({ apiVersion: 'v1', kind: 'Node', metadata: { name }, spec: {} });
    await admin.ipPools.create({ name: 'pool-a', cidr: '10.10.0.0/24', blockSize: 26, ipipMode: 'Always' });
    const { daemon, reconciled: reconciledOrDenied } = daemonFor({ ds: track(asRole), ipam: createIpamClient({ datastore: asRole }) });
    const reconciled: typeof reconciledOrDenied = (predicate) => failOnDenial(bound.server, reconciledOrDenied(predicate));
    try {
      const first = await reconciled(has(ipip));
      const annotations = () => (bound.server.readRaw({ group: '', plural: 'nodes', name: NODE })?.['metadata'] as { annotations?: Record<string, string> }).annotations;
      expect(annotations()).toEqual({ 'projectcalico.org/IPv4IPIPTunnelAddr': first.node.tunnelAddresses?.ipv4IPIPTunnelAddr });

      const stored = await admin.ipPools.get('pool-a');
      await admin.ipPools.update({ ...stored, ipipMode: 'Never', vxlanMode: 'Always' });
      const flipped = await reconciled((r) => has(vxlan)(r) && lacks(ipip)(r));
      expect(annotations()).toEqual({ 'projectcalico.org/IPv4VXLANTunnelAddr': flipped.node.tunnelAddresses?.ipv4VXLANTunnelAddr });

      // The encapsulation goes away: the address is released and the annotation removed.
      const again = await admin.ipPools.get('pool-a');
      await admin.ipPools.update({ ...again, vxlanMode: 'Never' });
      await reconciled((r) => lacks(vxlan)(r) && lacks(ipip)(r));
      expect(annotations() ?? {}).toEqual({});
    } finally {
      await daemon.stop();
    }
    expect(deniedRequests(bound.server)).toEqual([]);
  }, 60_000);

  it('leaves no grant of its role unused unless the manifest justifies it', () => {
    expect(unjustifiedGrants(bound.server)).toEqual({ unjustified: [], staleJustifications: [] });
  });
});
