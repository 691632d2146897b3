import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createIpamClient } from '@ipamkit/ipam-core';
import { cniHandleId, vmHandleId } from '@ipamkit/models';
import { startKubeApiServer, type KubeApiServer } from '@ipamkit/test-utils';
import { afterAll, beforeAll, beforeEach, afterEach, describe, expect, it } from 'vitest';
import { allocations, NODE, seed, sqliteBackend, type TestBackend } from './helpers/backend.js';
import { call, netConf } from './helpers/cni-call.js';

const KUBEVIRT_TYPES = [
  { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachineinstances', kind: 'VirtualMachineInstance', namespaced: true, statusSubresource: false },
  { group: 'kubevirt.io', version: 'v1', plural: 'virtualmachines', kind: 'VirtualMachine', namespaced: true, statusSubresource: false },
];
const NS = 'vms';
const VM_HANDLE = vmHandleId('k8s-pod-network', NS, 'vm1');

let server: KubeApiServer;
let b: TestBackend;

function launcher(name: string, labels: Record<string, string> = {}): void {
  server.inject({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: NS, labels, ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachineInstance', name: 'vm1', uid: 'vmi-uid-1', controller: true }] },
  });
}

function vm(deleting: boolean): void {
  server.inject({ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', metadata: { name: 'vm1', namespace: NS, uid: 'vm-uid-1', ...(deleting ? { deletionTimestamp: '2026-01-01T00:00:00Z' } : {}) } });
}

beforeAll(async () => {
  server = await startKubeApiServer({ resourceTypes: KUBEVIRT_TYPES, initialNamespaces: ['default', NS] });
  vm(false);
  server.inject({
    apiVersion: 'kubevirt.io/v1',
    kind: 'VirtualMachineInstance',
    metadata: { name: 'vm1', namespace: NS, uid: 'vmi-uid-1', ownerReferences: [{ apiVersion: 'kubevirt.io/v1', kind: 'VirtualMachine', name: 'vm1', uid: 'vm-uid-1', controller: true }] },
  });
  launcher('virt-launcher-vm1-src');
  launcher('virt-launcher-vm1-dst', { 'kubevirt.io/migrationJobUID': 'mig-1' });
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  b = await sqliteBackend();
  await seed(b.ds);
  vm(false);
});
afterEach(async () => {
  await b.close();
});

const conf = () => netConf(b.confKeys, { kubernetes: { kubeconfig: server.writeKubeconfig(join(b.dir, 'kubeconfig')) } });
const podArgs = (pod: string) => `IgnoreUnknown=1;K8S_POD_NAMESPACE=${NS};K8S_POD_NAME=${pod}`;

describe('KubeVirt launcher pods', () => {
  it('keep one address per VM across source and migration target, and release it when the VM goes', async () => {
    const ipam = createIpamClient({ datastore: b.ds });
    const src = await call({ command: 'ADD', conf: conf(), containerId: 'src', args: podArgs('virt-launcher-vm1-src') });
    expect(src.exitCode).toBe(0);
    const ip = (src.json?.ips as { address: string }[])[0]!.address.split('/')[0]!;
    expect(await allocations(b.ds)).toEqual([expect.stringMatching(new RegExp(`^${VM_HANDLE.replace(/\./g, '\\.')}=`))]);
    expect((await ipam.getAssignmentAttributes(ip)).activeOwnerAttrs).toMatchObject({ pod: 'virt-launcher-vm1-src', namespace: NS, node: NODE, 'vmi-name': 'vm1', 'vmi-uid': 'vmi-uid-1', 'vm-uid': 'vm-uid-1' });

    // A second ADD for the source reuses the address (as /32) instead of allocating another.
    const again = await call({ command: 'ADD', conf: conf(), containerId: 'src2', args: podArgs('virt-launcher-vm1-src') });
    expect(again.json).toEqual({ cniVersion: '1.0.0', ips: [{ address: `${ip}/32` }], routes: [{ dst: `${ip}/32` }] });

    const dst = await call({ command: 'ADD', conf: conf(), containerId: 'dst', args: podArgs('virt-launcher-vm1-dst') });
    expect(dst.json).toEqual({ cniVersion: '1.0.0', ips: [{ address: `${ip}/32` }] });
    expect((await ipam.getAssignmentAttributes(ip)).alternateOwnerAttrs).toMatchObject({ pod: 'virt-launcher-vm1-dst', 'vmim-uid': 'mig-1' });

    // The VM still exists: DEL of the source clears its ownership but keeps the address.
    expect(await call({ command: 'DEL', conf: conf(), containerId: 'src', args: podArgs('virt-launcher-vm1-src') })).toMatchObject({ exitCode: 0 });
    expect((await ipam.getAssignmentAttributes(ip)).activeOwnerAttrs).toEqual({});
    expect(await allocations(b.ds)).toHaveLength(1);

    // Once the VM is being deleted and the last owner leaves, the address is released.
    vm(true);
    expect(await call({ command: 'DEL', conf: conf(), containerId: 'dst', args: podArgs('virt-launcher-vm1-dst') })).toMatchObject({ exitCode: 0 });
    expect(await allocations(b.ds)).toEqual([]);
  });

  it('refuse a migration target when VM address persistence is disabled', async () => {
    await b.ds.ipamConfig.create({ strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 0, kubeVirtVMAddressPersistence: 'Disabled' });
    const dst = await call({ command: 'ADD', conf: conf(), containerId: 'dst', args: podArgs('virt-launcher-vm1-dst') });
    expect(dst.json).toEqual({ code: 999, msg: 'live migration target pod is not allowed when KubeVirtVMAddressPersistence is disabled' });
    expect(await allocations(b.ds)).toEqual([]);
  });

  it('DEL of a launcher pod that no longer exists succeeds without releasing anything', async () => {
    const ipam = createIpamClient({ datastore: b.ds });
    await ipam.assignIP({ ip: '10.40.0.9', handleId: cniHandleId('k8s-pod-network', 'gone'), hostname: NODE, intendedUse: 'Workload' });
    const del = await call({ command: 'DEL', conf: conf(), containerId: 'gone', args: podArgs('virt-launcher-gone-x') });
    expect(del).toMatchObject({ exitCode: 0, stdout: '' });
    expect(await allocations(b.ds)).toEqual([expect.stringMatching(/^k8s-pod-network\.gone=/)]);
  });
});

describe('pods that are not launcher pods', () => {
  it('are allocated and released without Kubernetes access being looked up: a broken KUBECONFIG does not matter', async () => {
    const broken = join(b.dir, 'broken-kubeconfig');
    writeFileSync(broken, 'clusters: [\n');
    const env = { KUBECONFIG: broken };
    const conf = netConf(b.confKeys);
    const add = await call({ command: 'ADD', conf, containerId: 'plain', args: podArgs('web-1'), env });
    expect(add.exitCode).toBe(0);
    expect(await allocations(b.ds)).toHaveLength(1);
    expect(await call({ command: 'DEL', conf, containerId: 'plain', args: podArgs('web-1'), env })).toMatchObject({ exitCode: 0 });
    expect(await allocations(b.ds)).toEqual([]);
    // A launcher pod still needs the access, and says why it has none.
    const launcherAdd = await call({ command: 'ADD', conf, containerId: 'vm', args: podArgs('virt-launcher-vm1-src'), env });
    expect(launcherAdd.json).toMatchObject({ code: 7, msg: expect.stringMatching(/^failed to get VMI info: kubeconfig .*broken-kubeconfig/) });
  });
});
