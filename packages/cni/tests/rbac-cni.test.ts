import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { CALICO_API_MODES, deniedRequests, KUBEVIRT_RESOURCE_TYPES, startRoleBoundServer, unjustifiedGrants, type RoleBoundServer } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressesOf, call, netConf } from './helpers/cni-call.js';
import { NODE } from './helpers/backend.js';

const MANIFESTS = resolve(fileURLToPath(import.meta.url), '../../../ipam-datastore/manifests');
const NS = 'vms';

// RBAC proven by behaviour (design/cni.md, "RBAC"): the plugin runs every verb under the manifest's
// ClusterRole, with the Kubernetes datastore on the same API server; nothing may be refused, and
// every grant must be used or justified in the manifest.
describe.each(CALICO_API_MODES)('the CNI plugin under its ClusterRole ($name group)', (mode) => {
  let bound: RoleBoundServer;
  let admin: Datastore;
  let dir: string;
  let keys: Record<string, unknown>;

  beforeAll(async () => {
    bound = await startRoleBoundServer({ manifestsDir: MANIFESTS, mode, component: 'cni', resourceTypes: KUBEVIRT_RESOURCE_TYPES, options: { initialNamespaces: ['default', NS] } });
    dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-rbac-'));
    admin = await createDatastore({ type: 'kubernetes', kubeconfig: bound.server.writeKubeconfig(join(dir, 'admin'), { admin: true }), apiGroup: mode.apiGroup });
    bound.server.inject({ apiVersion: 'v1', kind: 'Node', metadata: { name: NODE } });
    await admin.ipPools.create({ name: 'pool-a', cidr: '10.41.0.0/24', blockSize: 26 });
    await admin.ipPools.create({ name: 'pool-b', cidr: '10.42.0.0/24', blockSize: 26 });
    keys = {
      datastore_type: 'kubernetes',
      calico_api_group: mode.apiGroup,
      ipam_lock_file: join(dir, 'ipam.lock'),
      policy: { type: 'k8s' },
      kubernetes: { kubeconfig: bound.server.writeKubeconfig(join(dir, 'kubeconfig')) },
    };
  });
  afterAll(async () => {
    await admin.close();
    await bound.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const podArgs = (namespace: string, pod: string) => `IgnoreUnknown=1;K8S_POD_NAMESPACE=${namespace};K8S_POD_NAME=${pod}`;

  it('ADD, CHECK and DEL a pod whose annotation picks the pool', async () => {
    bound.server.inject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', annotations: { 'cni.projectcalico.org/ipv4pools': '["pool-b"]' } } });
    const conf = netConf(keys);
    const add = await call({ command: 'ADD', conf, containerId: 'web', args: podArgs('default', 'web') });
    expect({ code: add.exitCode, ips: addressesOf(add.json) }).toEqual({ code: 0, ips: [expect.stringMatching(/^10\.42\.0\.\d+\/26$/)] });
    const check = await call({ command: 'CHECK', conf: { ...conf, prevResult: add.json }, containerId: 'web', args: podArgs('default', 'web') });
    expect({ code: check.exitCode, stdout: check.stdout }).toEqual({ code: 0, stdout: '' });
    const del = await call({ command: 'DEL', conf, containerId: 'web', args: podArgs('default', 'web') });
    expect(del.exitCode).toBe(0);
    expect(await admin.handles.list()).toEqual([]);
    expect(deniedRequests(bound.server)).toEqual([]);
  });

  it('ADD and DEL the launcher pods of a KubeVirt VM across a live migration', async () => {
    bound.server.inject({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'vm1', namespace: NS, uid: 'vm-uid-1' } });
    bound.server.inject({
      apiVersion: 'kubevirt.io/v1',
      kind: 'VirtualMachineInstance',
      metadata: { name: 'vm1', namespace: NS, uid: 'vmi-uid-1', ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: 'vm1', uid: 'vm-uid-1', controller: true }] },
    });
    const launcher = (name: string, labels: Record<string, string>) =>
      bound.server.inject({
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name, namespace: NS, labels, ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', name: 'vm1', uid: 'vmi-uid-1', controller: true }] },
      });
    launcher('virt-launcher-vm1-src', {});
    launcher('virt-launcher-vm1-dst', { 'kubevirt.io/migrationJobUID': 'mig-1' });
    const conf = netConf(keys);
    const src = await call({ command: 'ADD', conf, containerId: 'src', args: podArgs(NS, 'virt-launcher-vm1-src') });
    const [address] = addressesOf(src.json);
    const dst = await call({ command: 'ADD', conf, containerId: 'dst', args: podArgs(NS, 'virt-launcher-vm1-dst') });
    expect({ src: src.exitCode, dst: dst.exitCode, dstIps: addressesOf(dst.json) }).toEqual({ src: 0, dst: 0, dstIps: [`${address?.split('/')[0] ?? ''}/32`] });
    expect(await call({ command: 'DEL', conf, containerId: 'src', args: podArgs(NS, 'virt-launcher-vm1-src') })).toMatchObject({ exitCode: 0 });
    // The VM is being deleted: the last owner's DEL releases the VM's address.
    bound.server.inject({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'vm1', namespace: NS, uid: 'vm-uid-1', deletionTimestamp: '2026-01-01T00:00:00Z' } });
    expect(await call({ command: 'DEL', conf, containerId: 'dst', args: podArgs(NS, 'virt-launcher-vm1-dst') })).toMatchObject({ exitCode: 0 });
    expect(await admin.handles.list()).toEqual([]);
    expect(deniedRequests(bound.server)).toEqual([]);
  });

  it('GC releases the stale attachments of its network', async () => {
    const conf = netConf(keys, { cniVersion: '1.1.0' });
    for (const id of ['keep', 'stale']) {
      bound.server.inject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: id, namespace: 'default' } });
      expect((await call({ command: 'ADD', conf, containerId: id, args: podArgs('default', id) })).exitCode).toBe(0);
    }
    const gc = await call({ command: 'GC', conf: { ...conf, 'cni.dev/valid-attachments': [{ containerID: 'keep', ifname: 'eth0' }] } });
    expect(gc.exitCode).toBe(0);
    expect((await admin.handles.list()).map((h) => h.handleId)).toEqual(['k8s-pod-network.keep']);
    expect(deniedRequests(bound.server)).toEqual([]);
  });

  it('leaves no grant of its role unused unless the manifest justifies it', () => {
    expect(unjustifiedGrants(bound.server)).toEqual({ unjustified: [], staleJustifications: [] });
  });
});
