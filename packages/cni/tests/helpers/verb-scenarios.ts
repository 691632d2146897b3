import { createIpamClient } from '@ipamkit/ipam-core';
import { cniWorkloadId, tunnelHandleId } from '@ipamkit/models';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { allocations, dump, NODE, seed, type TestBackend } from './backend.js';
import { addressesOf, call, netConf, VERSIONS } from './cni-call.js';

const V4_RESULT = /^10\.40\.0\.\d{1,3}\/26$/;

/** The behaviours every datastore must show through runCni (issue 4, acceptance). */
export function describeVerbScenarios(label: string, makeBackend: () => Promise<TestBackend>, unreachable: () => Record<string, unknown>): void {
  describe(`runCni against ${label}`, () => {
    let b: TestBackend;
    beforeEach(async () => {
      b = await makeBackend();
      await seed(b.ds);
    });
    afterEach(async () => {
      await b.close();
    });

    it.each(VERSIONS)('ADD in cniVersion %s prints that version\'s result shape and DEL twice succeeds', async (version) => {
      const conf = netConf(b.confKeys, { cniVersion: version });
      const add = await call({ command: 'ADD', conf, containerId: 'ctr-1' });
      expect(add.exitCode).toBe(0);
      const [address] = addressesOf(add.json);
      expect(address).toMatch(V4_RESULT);
      const expected = version.startsWith('0.')
        ? { cniVersion: version, ips: [{ version: '4', address }], routes: [{ dst: address }], dns: {} }
        : { cniVersion: version, ips: [{ address }], routes: [{ dst: address }] };
      expect(add.json).toEqual(expected);
      expect(Object.keys(add.json ?? {})).toEqual(Object.keys(expected));
      expect(add.stdout.endsWith('\n')).toBe(false);
      expect(await allocations(b.ds)).toEqual([expect.stringMatching(/^k8s-pod-network\.ctr-1=10\.40\.0\.\d+\+\d+$/)]);

      for (let i = 0; i < 2; i++) {
        const del = await call({ command: 'DEL', conf, containerId: 'ctr-1' });
        expect(del).toMatchObject({ exitCode: 0, stdout: '' });
      }
      expect(await allocations(b.ds)).toEqual([]);
    });

    it.each(['0.4.0', '1.0.0', '1.1.0'])('CHECK in cniVersion %s passes while the handle owns exactly prevResult', async (version) => {
      const conf = netConf(b.confKeys, { cniVersion: version });
      const add = await call({ command: 'ADD', conf });
      const check = await call({ command: 'CHECK', conf: { ...conf, prevResult: add.json } });
      expect(check).toMatchObject({ exitCode: 0, stdout: '' });
    });

    it.each(['0.3.0', '0.3.1'])('CHECK in cniVersion %s is refused with code 1', async (version) => {
      const check = await call({ command: 'CHECK', conf: netConf(b.confKeys, { cniVersion: version, prevResult: { ips: [] } }) });
      expect(check.exitCode).toBe(1);
      expect(check.json).toEqual({ code: 1, msg: 'config version does not allow CHECK' });
    });

    it.each(['STATUS', 'GC'])('%s needs cniVersion 1.1.0 (code 1 below it)', async (verb) => {
      const r = await call({ command: verb, conf: netConf(b.confKeys, { cniVersion: '1.0.0', 'cni.dev/valid-attachments': [] }) });
      expect(r.json).toEqual({ code: 1, msg: `config version does not allow ${verb}` });
      expect(r.exitCode).toBe(1);
    });

    it('CHECK fails after the allocation is released behind its back', async () => {
      const conf = netConf(b.confKeys);
      const add = await call({ command: 'ADD', conf });
      const ip = addressesOf(add.json)[0]!.split('/')[0]!;
      // eslint-disable-next-line ipamkit/require-release-sequence-number -- an operator freeing the address behind the plugin's back
      await createIpamClient({ datastore: b.ds }).releaseIPs([{ address: ip }]);
      const check = await call({ command: 'CHECK', conf: { ...conf, prevResult: add.json } });
      expect(check.exitCode).toBe(1);
      expect(check.json).toEqual({ code: 999, msg: `handle k8s-pod-network.c1 does not match prevResult (not allocated to it: ${ip})` });
    });

    it('DEL by workload ID releases an allocation made under an older container ID', async () => {
      const ipam = createIpamClient({ datastore: b.ds });
      await ipam.assignIP({ ip: '10.40.0.77', handleId: cniWorkloadId('ns1', 'web-0'), hostname: NODE, intendedUse: 'Workload' });
      const del = await call({ command: 'DEL', conf: netConf(b.confKeys), containerId: 'new-container', args: 'IgnoreUnknown=1;K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=web-0' });
      expect(del).toMatchObject({ exitCode: 0, stdout: '' });
      expect(await allocations(b.ds)).toEqual([]);
    });

    it('a dual-stack request with no IPv6 pool fails and leaves no IPv4 allocation behind', async () => {
      const conf = netConf(b.confKeys, { ipam: { type: 'calico-ipam', assign_ipv4: 'true', assign_ipv6: 'true' } });
      const add = await call({ command: 'ADD', conf });
      expect(add.exitCode).toBe(1);
      expect(add.json?.code).toBe(999);
      expect(await allocations(b.ds)).toEqual([]);
      expect(await b.ds.handles.list()).toEqual([]);
    });

    it('an explicit IP= address is assigned as /32 and a taken one is refused without changes', async () => {
      const conf = netConf(b.confKeys);
      const first = await call({ command: 'ADD', conf, containerId: 'a', args: 'IP=10.40.0.200' });
      expect(first.json).toEqual({ cniVersion: '1.0.0', ips: [{ address: '10.40.0.200/32' }], routes: [{ dst: '10.40.0.200/32' }] });
      const before = await dump(b.ds);
      const second = await call({ command: 'ADD', conf, containerId: 'b', args: 'IP=10.40.0.200' });
      expect(second.exitCode).toBe(1);
      expect(await dump(b.ds)).toBe(before);
    });

    it('GC releases exactly the stale attachments of its own network', async () => {
      const mine = netConf(b.confKeys, { cniVersion: '1.1.0' });
      const other = netConf(b.confKeys, { cniVersion: '1.1.0', name: 'other-net' });
      for (const id of ['keep', 'stale1', 'stale2']) expect((await call({ command: 'ADD', conf: mine, containerId: id })).exitCode).toBe(0);
      expect((await call({ command: 'ADD', conf: other, containerId: 'stale1' })).exitCode).toBe(0);
      const ipam = createIpamClient({ datastore: b.ds });
      await ipam.assignIP({ ip: '10.40.0.250', handleId: tunnelHandleId('ipip', NODE), hostname: NODE, attrs: { node: NODE, type: 'ipipTunnelAddress' } });
      const gc = await call({ command: 'GC', conf: { ...mine, 'cni.dev/valid-attachments': [{ containerID: 'keep', ifname: 'eth0' }] } });
      expect(gc).toMatchObject({ exitCode: 0, stdout: '' });
      const left = (await allocations(b.ds)).map((a) => a.split('=')[0]);
      expect(left.sort()).toEqual(['ipip-tunnel-addr-node-a', 'k8s-pod-network.keep', 'other-net.stale1']);
    });

    it('STATUS succeeds with a free address and answers 50 when no pool can serve the node', async () => {
      const conf = netConf(b.confKeys, { cniVersion: '1.1.0' });
      expect(await call({ command: 'STATUS', conf })).toMatchObject({ exitCode: 0, stdout: '' });
      const pool = await b.ds.ipPools.get('pool4');
      await b.ds.ipPools.update({ ...pool, disabled: true });
      const down = await call({ command: 'STATUS', conf });
      expect(down.exitCode).toBe(1);
      expect(down.json).toEqual({ code: 50, msg: 'no enabled IP pool has a free address for node node-a' });
    });

    it('STATUS answers 50 and DEL fails when the datastore is unreachable', async () => {
      const conf = netConf(unreachable(), { cniVersion: '1.1.0' });
      const status = await call({ command: 'STATUS', conf });
      expect(status.exitCode).toBe(1);
      expect(status.json?.code).toBe(50);
      const del = await call({ command: 'DEL', conf });
      expect(del.exitCode).toBe(1);
      expect([11, 999]).toContain(del.json?.code);
    });
  });
}
