import { join } from 'node:path';
import { startKubeApiServer, type KubeApiServer } from '@ipamkit/test-utils';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allocations, dump, seed, sqliteBackend, type TestBackend } from './helpers/backend.js';
import { addressesOf, call, netConf } from './helpers/cni-call.js';

const POOLS = [
  { name: 'pool-a', cidr: '10.41.0.0/24', blockSize: 26 },
  { name: 'pool-b', cidr: '10.42.0.0/24', blockSize: 26 },
  { name: 'pool-c', cidr: '10.43.0.0/24', blockSize: 26 },
  { name: 'tunnels', cidr: '10.44.0.0/24', blockSize: 26, allowedUses: ['Tunnel' as const] },
  { name: 'pool-v6', cidr: 'fd00:41::/120', blockSize: 122 },
];

let server: KubeApiServer;
let b: TestBackend;
let podCount = 0;

beforeAll(async () => {
  server = await startKubeApiServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(async () => {
  b = await sqliteBackend();
  await seed(b.ds, POOLS);
});
afterEach(async () => {
  await b.close();
});

/** A namespace and a pod with the given annotations; returns the CNI_ARGS naming the pod. */
function makePod(podAnnotations: Record<string, string>, nsAnnotations: Record<string, string> = {}, nsLabels: Record<string, string> = {}): string {
  podCount += 1;
  const ns = `ns-${podCount}`;
  server.inject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns, annotations: nsAnnotations, labels: nsLabels } });
  server.inject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: ns, annotations: podAnnotations } });
  return `IgnoreUnknown=1;K8S_POD_NAMESPACE=${ns};K8S_POD_NAME=web`;
}

function k8sConf(ipam: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const kubeconfig = server.writeKubeconfig(join(b.dir, 'kubeconfig'));
  return netConf(b.confKeys, { policy: { type: 'k8s' }, kubernetes: { kubeconfig }, ipam: { type: 'calico-ipam', ...ipam }, ...extra });
}

const V4 = 'cni.projectcalico.org/ipv4pools';

describe('annotation precedence (pod > namespace > config > all pools)', () => {
  it.each([
    { case: 'pod annotation wins', pod: { [V4]: '["pool-b"]' }, ns: { [V4]: '["pool-c"]' }, conf: ['pool-a'], expect: /^10\.42\./ },
    { case: 'namespace annotation beats config', pod: {}, ns: { [V4]: '["10.43.0.0/24"]' }, conf: ['pool-a'], expect: /^10\.43\./ },
    { case: 'an empty pod annotation falls through', pod: { [V4]: '[]' }, ns: { [V4]: '["pool-c"]' }, conf: ['pool-a'], expect: /^10\.43\./ },
    { case: 'config is used without annotations', pod: {}, ns: {}, conf: ['pool-a'], expect: /^10\.41\./ },
    { case: 'all workload pools without any', pod: {}, ns: {}, conf: [], expect: /^10\.4[123]\./ },
  ])('$case', async (row) => {
    const args = makePod(row.pod, row.ns);
    const add = await call({ command: 'ADD', conf: k8sConf({ ipv4_pools: row.conf }), args });
    expect(add.exitCode).toBe(0);
    expect(addressesOf(add.json)).toEqual([expect.stringMatching(row.expect)]);
  });

  it('ipFamilies on the pod requests IPv6 only', async () => {
    const args = makePod({ 'cni.projectcalico.org/ipFamilies': '["IPv6"]' });
    const add = await call({ command: 'ADD', conf: k8sConf(), args });
    expect(addressesOf(add.json)).toEqual([expect.stringMatching(/^fd00:41::([0-9a-f]+)?\/122$/)]);
  });

  it('annotations are ignored unless policy.type is k8s', async () => {
    const args = makePod({ [V4]: '["pool-b"]' });
    const add = await call({ command: 'ADD', conf: k8sConf({ ipv4_pools: ['pool-a'] }, { policy: {} }), args });
    expect(addressesOf(add.json)).toEqual([expect.stringMatching(/^10\.41\./)]);
  });

  it('a namespace label selects a pool through its namespaceSelector', async () => {
    await b.ds.ipPools.create({ name: 'blue', cidr: '10.45.0.0/24', blockSize: 26, namespaceSelector: "team == 'blue'" });
    for (const name of ['pool-a', 'pool-b', 'pool-c']) {
      const pool = await b.ds.ipPools.get(name);
      await b.ds.ipPools.update({ ...pool, namespaceSelector: "team == 'red'" });
    }
    const args = makePod({}, {}, { team: 'blue' });
    const add = await call({ command: 'ADD', conf: k8sConf(), args });
    expect(addressesOf(add.json)).toEqual([expect.stringMatching(/^10\.45\./)]);
  });
});

describe('ipAddrs and ipAddrsNoIpam', () => {
  it('ipAddrs assigns the named address as /32 in a Workload pool', async () => {
    const args = makePod({ 'cni.projectcalico.org/ipAddrs': '["10.42.0.9"]' });
    const add = await call({ command: 'ADD', conf: k8sConf(), args });
    expect(add.json).toEqual({ cniVersion: '1.0.0', ips: [{ address: '10.42.0.9/32' }], routes: [{ dst: '10.42.0.9/32' }] });
  });

  it('ipAddrs honours allowedUses: an address of a Tunnel-only pool is refused and nothing is written', async () => {
    const args = makePod({ 'cni.projectcalico.org/ipAddrs': '["10.44.0.9"]' });
    const before = await dump(b.ds);
    const add = await call({ command: 'ADD', conf: k8sConf(), args });
    expect(add.exitCode).toBe(1);
    expect(add.json?.code).toBe(999);
    expect(String(add.json?.msg)).toContain('not allowed for use "Workload"');
    expect(await dump(b.ds)).toBe(before);
  });

  it('a dual-stack ipAddrs whose second address fails gives back the first', async () => {
    const args = makePod({ 'cni.projectcalico.org/ipAddrs': '["10.42.0.10", "fd00:99::1"]' });
    const add = await call({ command: 'ADD', conf: k8sConf(), args });
    expect(add.exitCode).toBe(1);
    expect(await allocations(b.ds)).toEqual([]);
  });

  it.each([
    { pod: { 'cni.projectcalico.org/ipAddrsNoIpam': '["10.99.0.1"]' }, features: {}, code: 7, msg: 'requested feature is not enabled: ip_addrs_no_ipam' },
    { pod: { 'cni.projectcalico.org/ipAddrs': '["10.42.0.1"]', 'cni.projectcalico.org/ipAddrsNoIpam': '["10.99.0.1"]' }, features: { ip_addrs_no_ipam: true }, code: 7, msg: "can't have both annotations: 'ipAddrs' and 'ipAddrsNoIpam' in use at the same time" },
    { pod: { 'cni.projectcalico.org/ipAddrs': '[]' }, features: {}, code: 7, msg: 'annotation "cni.projectcalico.org/ipAddrs" specified but empty' },
    { pod: { 'cni.projectcalico.org/ipAddrs': '["10.42.0.1","10.42.0.2"]' }, features: {}, code: 7, msg: 'cannot have more than one IPv4 address for "cni.projectcalico.org/ipAddrs" annotation' },
    { pod: { 'cni.projectcalico.org/ipFamilies': '["IPv5"]' }, features: {}, code: 7, msg: 'error parsing ipFamilies: ["IPv5"]' },
  ])('rejects $msg', async (row) => {
    const args = makePod(row.pod);
    const before = await dump(b.ds);
    const add = await call({ command: 'ADD', conf: k8sConf({}, { feature_control: row.features }), args });
    expect(add.exitCode).toBe(1);
    expect(add.json).toEqual({ code: row.code, msg: row.msg });
    expect(await dump(b.ds)).toBe(before);
  });

  it('ipAddrsNoIpam, when enabled, answers without touching the datastore', async () => {
    const args = makePod({ 'cni.projectcalico.org/ipAddrsNoIpam': '["10.99.0.1"]' });
    const before = await dump(b.ds);
    const add = await call({ command: 'ADD', conf: k8sConf({}, { feature_control: { ip_addrs_no_ipam: true } }), args });
    expect(add.json).toEqual({ cniVersion: '1.0.0', ips: [{ address: '10.99.0.1/32' }], routes: [{ dst: '10.99.0.1/32' }] });
    expect(await dump(b.ds)).toBe(before);
  });

  it('runtimeConfig.ips beats the ipAddrs annotation', async () => {
    const args = makePod({ 'cni.projectcalico.org/ipAddrs': '["10.42.0.9"]' });
    const add = await call({ command: 'ADD', conf: k8sConf({}, { runtimeConfig: { ips: ['10.43.0.7/24'] } }), args });
    expect(addressesOf(add.json)).toEqual(['10.43.0.7/32']);
  });
});

describe('secrets', () => {
  it('never logs the token or the stdin text, even at debug level', async () => {
    const args = makePod({ [V4]: '["pool-b"]' });
    const conf = k8sConf({}, { log_level: 'debug', policy: { type: 'k8s', k8s_auth_token: server.token } });
    const add = await call({ command: 'ADD', conf, args });
    expect(add.exitCode).toBe(0);
    const logs = add.logs.join('');
    expect(logs).not.toContain(server.token);
    expect(logs).not.toContain(JSON.stringify(conf));
    expect(logs).toContain('assigned');
  });

  it('a pod that does not exist fails ADD with a clear error', async () => {
    const add = await call({ command: 'ADD', conf: k8sConf(), args: 'IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=ghost' });
    expect(add.json).toEqual({ code: 999, msg: 'failed to get pod default/ghost: pod not found' });
  });
});
