import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createIpamClient } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { startEtcd } from '@ipamkit/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runIpamCommand } from '../src/index.js';
import { FakeClock, Sink } from './fixtures.js';
import { IPAM_CONFIG, MULTI_DOCUMENT_YAML, NODE, POOL, RESERVATION, pool } from './resource-documents.js';

interface Backend {
  readonly flags: string[];
  open(): Promise<Datastore>;
  cleanup(): Promise<void>;
}

function sqliteBackend(dir: string): Promise<Backend> {
  const path = join(dir, 'ipam.db');
  return Promise.resolve({
    flags: ['--datastore', 'sqlite', '--sqlite-path', path],
    open: () => createDatastore({ type: 'sqlite', path }),
    cleanup: () => Promise.resolve(),
  });
}

async function etcdBackend(): Promise<Backend> {
  const etcd = await startEtcd();
  return {
    flags: ['--datastore', 'etcd', '--etcd-endpoints', etcd.endpoint],
    open: () => createDatastore({ type: 'etcd', endpoints: [etcd.endpoint] }),
    cleanup: () => etcd.stop(),
  };
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function withoutResourceVersion(doc: unknown): Record<string, unknown> {
  const { metadata, ...rest } = doc as { metadata: Record<string, unknown> };
  const { resourceVersion: _rv, ...meta } = metadata;
  return { ...rest, metadata: meta };
}

describe.each([
  ['sqlite', sqliteBackend],
  ['etcd', (): Promise<Backend> => etcdBackend()],
] as const)('resources on %s', (_name, makeBackend) => {
  let dir: string;
  let backend: Backend;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ipamkit-resources-'));
    backend = await makeBackend(dir);
  });
  afterEach(async () => {
    await backend.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  async function cli(argv: readonly string[], stdin?: string): Promise<Run> {
    const stdout = new Sink();
    const stderr = new Sink();
    const io = { stdout, stderr, env: {}, clock: new FakeClock() };
    const code = await runIpamCommand([...backend.flags, ...argv], stdin === undefined ? io : { ...io, stdin: Readable.from([stdin]) });
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  function file(name: string, content: unknown): string {
    const path = join(dir, name);
    writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
    return path;
  }

  async function getYaml(kind: string, name: string): Promise<Record<string, unknown>> {
    const run = await cli(['get', kind, name, '-o', 'yaml']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    return withoutResourceVersion(parse(run.stdout));
  }

  it('applies a multi-document file and gets every resource back as it was written', async () => {
    expect(await cli(['apply', '-f', file('all.yaml', MULTI_DOCUMENT_YAML)])).toEqual({ code: 0, stdout: 'Successfully applied 4 resource(s)\n', stderr: '' });
    // Defaults Calico applies on read are the only additions.
    expect(await getYaml('ippool', 'my.ippool-1')).toEqual({ ...POOL, spec: { ...POOL.spec, assignmentMode: 'Automatic' } });
    expect(await getYaml('ipreservation', 'my-ipreservation-1')).toEqual(RESERVATION);
    expect(await getYaml('ipamconfiguration', 'default')).toEqual({ ...IPAM_CONFIG, spec: { ...IPAM_CONFIG.spec, ipCooldownSeconds: 0 } });
    expect(await getYaml('node', 'node-hostname')).toEqual(NODE);
  });

  it('prints calicoctl tables, wide tables and JSON', async () => {
    await cli(['apply', '-f', file('all.yaml', MULTI_DOCUMENT_YAML)]);
    expect((await cli(['get', 'ippools'])).stdout).toBe('NAME          CIDR          SELECTOR\nmy.ippool-1   10.1.0.0/16   all()\n');
    expect((await cli(['get', 'pool', '-o', 'wide'])).stdout).toBe(
      'NAME          CIDR          NAT    IPIPMODE      VXLANMODE   DISABLED   DISABLEBGPEXPORT   SELECTOR\n' +
        'my.ippool-1   10.1.0.0/16   true   CrossSubnet   Never       false      false              all()\n',
    );
    expect((await cli(['get', 'nodes', '-o', 'wide'])).stdout).toBe(
      'NAME            ASN     IPV4            IPV6\nnode-hostname   64512   10.244.0.1/24   2001:db8:85a3::8a2e:370:7334/120\n',
    );
    const json = JSON.parse((await cli(['get', 'ipreservation', '-o', 'json'])).stdout) as { kind: string; items: unknown[] };
    expect(json.kind).toBe('IPReservationList');
    expect(json.items.map(withoutResourceVersion)).toEqual([RESERVATION]);
  });

  it('re-applies the output of get -o yaml from stdin, and creates from a JSON kind: List', async () => {
    const list = { apiVersion: 'v1', kind: 'List', items: [POOL, pool('second', { cidr: '10.2.0.0/16' })] };
    expect(await cli(['create', '-f', file('list.json', list)])).toEqual({ code: 0, stdout: "Successfully created 2 'IPPool' resource(s)\n", stderr: '' });
    const listed = (await cli(['get', 'ippool', '-o', 'yaml'])).stdout;
    expect(parse(listed)).toMatchObject({ kind: 'IPPoolList', items: [{ metadata: { name: 'my.ippool-1' } }, { metadata: { name: 'second' } }] });
    expect(await cli(['apply', '-f', '-'], listed)).toEqual({ code: 0, stdout: "Successfully applied 2 'IPPool' resource(s)\n", stderr: '' });
    const again = parse((await cli(['get', 'ippool', '-o', 'yaml'])).stdout) as { items: unknown[] };
    expect(again.items.map(withoutResourceVersion)).toEqual((parse(listed) as { items: unknown[] }).items.map(withoutResourceVersion));
  });

  it('refuses a pool overlapping an existing one with Calico\'s message, and writes nothing', async () => {
    await cli(['apply', '-f', file('pool.yaml', POOL)]);
    const run = await cli(['apply', '-f', file('over.yaml', pool('other', { cidr: '10.1.128.0/17' }))]);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: "Failed to apply 'IPPool' resource: error with field IPPool.Spec.CIDR = '10.1.128.0/17' (IPPool(other) CIDR overlaps with IPPool(my.ippool-1) CIDR 10.1.0.0/16)\n",
    });
    expect((await cli(['get', 'ippool'])).stdout).not.toContain('other');
  });

  it('refuses two overlapping pools in one file before writing either', async () => {
    const yaml = [pool('a', { cidr: '10.5.0.0/16' }), pool('b', { cidr: '10.5.3.0/24' })].map((d) => JSON.stringify(d)).join('\n---\n');
    const run = await cli(['create', '-f', file('two.yaml', yaml)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("Failed to create 'IPPool' resource: error with field IPPool.Spec.CIDR = '10.5.3.0/24' (IPPool(b) CIDR overlaps with IPPool(a) CIDR 10.5.0.0/16)\n");
    expect((await cli(['get', 'ippool'])).stdout).toBe('NAME   CIDR   SELECTOR\n');
  });

  it('refuses changing the CIDR or the block size of a pool with Calico\'s messages', async () => {
    await cli(['apply', '-f', file('pool.yaml', POOL)]);
    const cidr = await cli(['apply', '-f', file('cidr.yaml', pool('my.ippool-1', { ...POOL.spec, cidr: '10.9.0.0/16' }))]);
    expect(cidr.stderr).toBe("Failed to apply 'IPPool' resource: error with field IPPool.Spec.CIDR = '10.9.0.0/16' (IPPool CIDR cannot be modified)\n");
    const size = await cli(['replace', '-f', file('size.yaml', pool('my.ippool-1', { ...POOL.spec, blockSize: 24 }))]);
    expect(size.stderr).toBe("Failed to replace 'IPPool' resource: error with field IPPool.Spec.BlockSize = '24' (IPPool BlockSize cannot be modified)\n");
    expect([cidr.code, size.code]).toEqual([1, 1]);
    expect(await getYaml('ippool', 'my.ippool-1')).toMatchObject({ spec: { cidr: '10.1.0.0/16', blockSize: 26 } });
  });

  it.each([
    [{ cidr: '10.3.0.0/16', blockSize: 19 }, "IPPool.Spec.BlockSize = '19' (IPv4 block size must be between 20 and 32)"],
    [{ cidr: '10.3.0.0/16', blockSize: 33 }, "IPPool.Spec.BlockSize = '33' (IPv4 block size must be between 20 and 32)"],
    [{ cidr: 'fd00:1::/64', blockSize: 115 }, "IPPool.Spec.BlockSize = '115' (IPv6 block size must be between 116 and 128)"],
    [{ cidr: '10.3.0.0/16', nodeSelector: 'zone ==' }, "IPPool.Spec.NodeSelector = 'zone ==' (nodeSelector does not parse"],
    [{ cidr: '10.3.0.0/16', allowedUses: ['Workload', 'LoadBalancer'] }, "IPPool.Spec.AllowedUses = '[Workload LoadBalancer]' (LoadBalancer cannot be combined with other allowedUses)"],
    [{ cidr: '10.3.0.0/16', allowedUses: ['Workload', 'Bogus'] }, 'spec.allowedUses[1]: "Bogus" is not one of Workload, Tunnel, LoadBalancer'],
  ])('refuses the pool spec %j', async (spec, message) => {
    const run = await cli(['create', '-f', file('bad.yaml', pool('bad', spec))]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("Failed to create 'IPPool' resource: ");
    expect(run.stderr).toContain(message);
    expect((await cli(['get', 'ippool'])).stdout).not.toContain('bad');
  });

  it('create fails on an existing object, replace on a missing one or a stale resourceVersion', async () => {
    await cli(['create', '-f', file('pool.yaml', POOL)]);
    expect((await cli(['create', '-f', file('pool.yaml', POOL)])).stderr).toBe("Failed to create 'IPPool' resource: resource already exists: IPPool(my.ippool-1)\n");
    expect((await cli(['replace', '-f', file('r.yaml', RESERVATION)])).stderr).toBe("Failed to replace 'IPReservation' resource: resource does not exist: IPReservation(my-ipreservation-1)\n");
    const current = parse((await cli(['get', 'ippool', 'my.ippool-1', '-o', 'yaml'])).stdout) as { metadata: { resourceVersion: string }; spec: Record<string, unknown> };
    const stale = { ...current, metadata: { name: 'my.ippool-1', resourceVersion: `${current.metadata.resourceVersion}0` }, spec: { ...current.spec, natOutgoing: false } };
    expect(await cli(['replace', '-f', file('stale.yaml', stale)])).toMatchObject({ code: 1, stderr: "Failed to replace 'IPPool' resource: update conflict: IPPool(my.ippool-1)\n" });
    const fresh = { ...stale, metadata: current.metadata };
    expect(await cli(['replace', '-f', file('fresh.yaml', fresh)])).toEqual({ code: 0, stdout: "Successfully replaced 1 'IPPool' resource(s)\n", stderr: '' });
    expect(await getYaml('ippool', 'my.ippool-1')).toMatchObject({ spec: { natOutgoing: false } });
  });

  it('apply honours a stale resourceVersion with a conflict, and applies without one', async () => {
    await cli(['apply', '-f', file('pool.yaml', POOL)]);
    const current = parse((await cli(['get', 'ippool', 'my.ippool-1', '-o', 'yaml'])).stdout) as { metadata: { resourceVersion: string } };
    const changed = { ...POOL, metadata: { name: 'my.ippool-1', resourceVersion: `${current.metadata.resourceVersion}0` }, spec: { ...POOL.spec, natOutgoing: false } };
    expect(await cli(['apply', '-f', file('stale.yaml', changed)])).toMatchObject({ code: 1, stderr: "Failed to apply 'IPPool' resource: update conflict: IPPool(my.ippool-1)\n" });
    expect(await cli(['apply', '-f', file('any.yaml', { ...changed, metadata: { name: 'my.ippool-1' } })])).toMatchObject({ code: 0 });
    expect(await getYaml('ippool', 'my.ippool-1')).toMatchObject({ spec: { natOutgoing: false } });
  });

  it('refuses a new pool over existing blocks of another size', async () => {
    await cli(['apply', '-f', file('all.yaml', MULTI_DOCUMENT_YAML)]);
    const ds = await backend.open();
    try {
      const ipam = createIpamClient({ datastore: ds, clock: new FakeClock(), windowsHost: false });
      await ipam.assignIP({ ip: '10.1.0.20', hostname: 'node-hostname', handleId: 'k8s-pod-network.c1', attrs: { node: 'node-hostname' }, intendedUse: 'Workload' });
    } finally {
      await ds.close();
    }
    await cli(['delete', 'ippool', 'my.ippool-1']);
    const run = await cli(['create', '-f', file('p24.yaml', pool('wider', { cidr: '10.1.0.0/16', blockSize: 24 }))]);
    expect(run.stderr).toBe("Failed to create 'IPPool' resource: error with field IPPool.Spec.BlockSize = '24' (IPPool(wider) block size does not match existing block 10.1.0.0/26)\n");
    expect((await cli(['create', '-f', file('p26.yaml', pool('same', { cidr: '10.1.0.0/16', blockSize: 26 }))])).code).toBe(0);
  });

  it('refuses an IPAM configuration and a node Calico would refuse', async () => {
    const config = { ...IPAM_CONFIG, spec: { strictAffinity: false, maxBlocksPerHost: 4, autoAllocateBlocks: true } };
    expect((await cli(['apply', '-f', file('cfg.yaml', config)])).stderr).toBe(
      "Failed to apply 'IPAMConfiguration' resource: error with field IPAMConfiguration.Spec = 'default' (MaxBlocksPerHost requires StrictAffinity to be enabled)\n",
    );
    const node = { ...NODE, spec: { bgp: { ipv4Address: 'fd00::1/64' } } };
    expect((await cli(['apply', '-f', file('node.yaml', node)])).stderr).toBe(
      "Failed to apply 'Node' resource: error with field Node.Spec.BGP.IPv4Address = 'fd00::1/64' (must be an IPv4 address with a prefix length)\n",
    );
    expect((await cli(['get', 'ipamconfiguration'])).stdout).toBe('NAME\n');
  });

  it('deletes by file and by kind and name', async () => {
    await cli(['apply', '-f', file('all.yaml', MULTI_DOCUMENT_YAML)]);
    expect(await cli(['delete', 'ippool', 'my.ippool-1'])).toEqual({ code: 0, stdout: "Successfully deleted 1 'IPPool' resource(s)\n", stderr: '' });
    expect(await cli(['delete', '-f', file('node.yaml', NODE)])).toEqual({ code: 0, stdout: "Successfully deleted 1 'Node' resource(s)\n", stderr: '' });
    expect(await cli(['get', 'ippool', 'my.ippool-1'])).toEqual({ code: 1, stdout: '', stderr: 'resource does not exist: IPPool(my.ippool-1)\n' });
    expect((await cli(['delete', 'node', 'node-hostname'])).stderr).toBe("Failed to delete 'Node' resource: resource does not exist: Node(node-hostname)\n");
    expect((await cli(['get', 'ipreservation'])).stdout).toContain('my-ipreservation-1');
  });

  it('disabling a pool keeps its blocks and allocations', async () => {
    await cli(['apply', '-f', file('all.yaml', MULTI_DOCUMENT_YAML)]);
    const ds = await backend.open();
    try {
      const ipam = createIpamClient({ datastore: ds, clock: new FakeClock(), windowsHost: false });
      await ipam.assignIP({ ip: '10.1.0.20', hostname: 'node-hostname', handleId: 'k8s-pod-network.c1', attrs: { node: 'node-hostname' }, intendedUse: 'Workload' });
    } finally {
      await ds.close();
    }
    expect((await cli(['apply', '-f', file('off.yaml', pool('my.ippool-1', { ...POOL.spec, disabled: true }))])).code).toBe(0);
    expect(await getYaml('ippool', 'my.ippool-1')).toMatchObject({ spec: { disabled: true } });
    const after = await backend.open();
    try {
      const blocks = await after.blocks.list();
      expect(blocks.map((b) => b.cidr)).toEqual(['10.1.0.0/26']);
      expect((await after.handles.get('k8s-pod-network.c1')).block).toEqual({ '10.1.0.0/26': 1 });
    } finally {
      await after.close();
    }
  });

  it('refuses a file that is not YAML, or names a kind it does not manage, before writing anything', async () => {
    const bad = await cli(['apply', '-f', file('bad.yaml', 'kind: IPPool\n  metadata: [\n')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('bad.yaml: not valid YAML or JSON');
    const wrongKind = `${JSON.stringify(POOL)}\n---\n${JSON.stringify({ apiVersion: 'projectcalico.org/v3', kind: 'BGPPeer', metadata: { name: 'x' } })}`;
    const run = await cli(['apply', '-f', file('kinds.yaml', wrongKind)]);
    expect(run.stderr).toContain('resource 2: kind "BGPPeer" is not one of IPPool, IPReservation, IPAMConfiguration, Node');
    expect((await cli(['get', 'ippool'])).stdout).toBe('NAME   CIDR   SELECTOR\n');
  });
});
