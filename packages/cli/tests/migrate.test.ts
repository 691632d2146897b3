import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { DatastoreUnavailableError, type AllocationBlock, type Datastore, type IPAMHandle } from '@ipamkit/models';
import { withEtcd } from '@ipamkit/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock, openBackend } from './fixtures.js';
import { LB_HANDLE, NODE_A, NODE_B, POD_HANDLE, VM_HANDLE, seedMigrationSource, snapshot } from './migrate-fixtures.js';
import { runCli } from './run-cli.js';

const etcd = withEtcd();
const clock = new FakeClock();
const TIMESTAMP = '2026-01-01 00:00:00 +0000 UTC';

let dir: string;
const cleanups: (() => Promise<void>)[] = [];
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ipamkit-migrate-'));
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  rmSync(dir, { recursive: true, force: true });
});

async function open(backend: 'sqlite' | 'etcd'): Promise<Datastore> {
  const { ds, cleanup } = await openBackend(backend, () => etcd.endpoint);
  cleanups.push(cleanup);
  return ds;
}

interface ExportEntry {
  Key: string;
  Value: Record<string, unknown>;
  TTL: number;
}

interface ExportDoc {
  kind: string;
  ipam: { blocks: ExportEntry[]; handles: ExportEntry[]; [section: string]: unknown };
  [field: string]: unknown;
}

const byHandleId = (a: IPAMHandle, b: IPAMHandle): number => (a.handleId < b.handleId ? -1 : 1);
const tunnel = (handleId: string, node: string, type: string) => ({ handleId, activeOwnerAttrs: { node, type } });

describe('datastore migrate: sqlite → etcd with Kubernetes node names', () => {
  it('moves every object and renames nodes, owners and IPv4 and IPv6 tunnel handles exactly', async () => {
    const source = await open('sqlite');
    const target = await open('etcd');
    await seedMigrationSource(source, clock);
    const before = await snapshot(source);
    const file = join(dir, 'export.json');

    const exported = await runCli(['datastore', 'migrate', 'export', '--k8s-node-names', '-f', file], source, clock);
    expect(exported).toEqual({
      code: 0,
      stderr: '',
      stdout:
        `Exported 19 IPAM resource(s), 3 IP pool(s), 1 IP reservation(s) and 2 node(s) from sqlite to ${file}\n` +
        `Renamed node ${NODE_A} to node-a\nRenamed node ${NODE_B} to node-b\n`,
    });
    const imported = await runCli(['datastore', 'migrate', 'import', '-f', file], target, clock);
    expect(imported).toEqual({
      code: 0,
      stderr: '',
      stdout:
        'Importing IPAM resources\nSuccessfully applied 19 IPAM resource(s)\nApplied 3 IP pool(s), 1 IP reservation(s) and 2 node(s)\n' +
        'Datastore information successfully imported. Please refer to the datastore migration documentation for next steps.\n',
    });

    const after = await snapshot(target);
    // etcd reads pools with clientv3's defaults filled in (design/calico-stored-formats.md#ip-pools).
    const defaults = { assignmentMode: 'Automatic', ipipMode: 'Never', vxlanMode: 'Never' };
    expect(after.ipPools).toEqual([
      { name: 'pool-lb', cidr: '10.2.0.0/28', blockSize: 28, allowedUses: ['LoadBalancer'], nodeSelector: 'all()', ...defaults },
      { name: 'pool-v4', cidr: '10.0.0.0/24', blockSize: 26, nodeSelector: 'all()', allowedUses: ['Workload', 'Tunnel'], ...defaults, ipipMode: 'Always' },
      { name: 'pool-v6', cidr: 'fd00::/120', blockSize: 122, nodeSelector: 'all()', allowedUses: ['Workload', 'Tunnel'], ...defaults },
    ]);
    expect(after.ipReservations).toEqual(before.ipReservations);
    expect(after.config).toEqual({ strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 4, kubeVirtVMAddressPersistence: 'Disabled', ipCooldownSeconds: 30 });
    expect(after.nodes).toEqual([
      { name: 'node-a', labels: { zone: 'a' }, unknownFields: { spec: { orchRefs: [{ orchestrator: 'k8s', nodeName: 'node-a' }] } } },
      { name: 'node-b', labels: { zone: 'b' }, unknownFields: { spec: { orchRefs: [{ orchestrator: 'k8s', nodeName: 'node-b' }] } } },
    ]);
    expect(after.affinities).toEqual([
      { host: 'node-a', type: 'host', cidr: '10.0.0.0/26', state: 'confirmed', deleted: false },
      { host: 'node-a', type: 'host', cidr: 'fd00::/122', state: 'confirmed', deleted: false },
      { host: 'node-b', type: 'host', cidr: '10.0.0.64/26', state: 'confirmed', deleted: false },
      { host: 'node-b', type: 'host', cidr: 'fd00::40/122', state: 'confirmed', deleted: false },
      { host: 'load-balancer', type: 'virtual', cidr: '10.2.0.0/28', state: 'confirmed', deleted: false },
    ]);
    expect([...after.handles].sort(byHandleId)).toEqual(
      [
        { handleId: 'ipip-tunnel-addr-node-a', block: { '10.0.0.0/26': 1 }, deleted: false },
        { handleId: 'vxlan-tunnel-addr-node-a', block: { '10.0.0.0/26': 1 }, deleted: false },
        { handleId: 'wireguard-v6-tunnel-addr-node-a', block: { 'fd00::/122': 1 }, deleted: false },
        { handleId: 'ipip-tunnel-addr-node-b', block: { '10.0.0.64/26': 1 }, deleted: false },
        { handleId: 'vxlan-v6-tunnel-addr-node-b', block: { 'fd00::40/122': 1 }, deleted: false },
        { handleId: POD_HANDLE, block: { '10.0.0.0/26': 1 }, deleted: false },
        { handleId: VM_HANDLE, block: { '10.0.0.64/26': 1 }, deleted: false },
        { handleId: LB_HANDLE, block: { '10.2.0.0/28': 1 }, deleted: false },
      ].sort(byHandleId),
    );
    // Allocations, free lists and sequence numbers are untouched; only owners and handles change.
    const renamed: Record<string, Pick<AllocationBlock, 'affinity' | 'attributes'>> = {
      '10.0.0.0/26': {
        affinity: { type: 'host', host: 'node-a' },
        attributes: [
          tunnel('ipip-tunnel-addr-node-a', 'node-a', 'ipipTunnelAddress'),
          tunnel('vxlan-tunnel-addr-node-a', 'node-a', 'vxlanTunnelAddress'),
          { handleId: POD_HANDLE, activeOwnerAttrs: { namespace: 'default', pod: 'web-1', node: 'node-a', timestamp: TIMESTAMP } },
        ],
      },
      '10.0.0.64/26': {
        affinity: { type: 'host', host: 'node-b' },
        attributes: [
          tunnel('ipip-tunnel-addr-node-b', 'node-b', 'ipipTunnelAddress'),
          { handleId: VM_HANDLE, activeOwnerAttrs: { namespace: 'vms', vmi: 'vm-1', node: 'node-b', timestamp: TIMESTAMP } },
        ],
      },
      '10.2.0.0/28': {
        affinity: { type: 'virtual', host: 'load-balancer' },
        attributes: [{ handleId: LB_HANDLE, activeOwnerAttrs: { service: 'lb-1', namespace: 'default', type: 'LoadBalancer', timestamp: TIMESTAMP } }],
      },
      'fd00::/122': {
        affinity: { type: 'host', host: 'node-a' },
        attributes: [tunnel('wireguard-v6-tunnel-addr-node-a', 'node-a', 'wireguardV6TunnelAddress')],
      },
      'fd00::40/122': {
        affinity: { type: 'host', host: 'node-b' },
        attributes: [tunnel('vxlan-v6-tunnel-addr-node-b', 'node-b', 'vxlanV6TunnelAddress')],
      },
    };
    expect(after.blocks).toEqual(before.blocks.map((b) => ({ ...b, ...renamed[b.cidr] })));
    expect(after.blocks.map((b) => b.cidr)).toEqual(Object.keys(renamed).sort());
  });
});

describe('datastore migrate: etcd → sqlite', () => {
  it('copies every object exactly when nodes keep their names, with -o json summaries', async () => {
    const source = await open('etcd');
    const target = await open('sqlite');
    await seedMigrationSource(source, clock);
    const file = join(dir, 'export.json');

    const exported = await runCli(['datastore', 'migrate', 'export', '-f', file, '-o', 'json'], source, clock);
    expect(exported.code).toBe(0);
    expect(JSON.parse(exported.stdout)).toEqual({
      source: 'etcd',
      file,
      counts: { ipPools: 3, ipReservations: 1, nodes: 2, blockAffinities: 5, blocks: 5, handles: 8, config: 1, ipamResources: 19 },
      nodeRenames: {},
    });
    const dryRun = await runCli(['datastore', 'migrate', 'import', '-f', file, '--dry-run', '-o', 'json'], target, clock);
    expect(JSON.parse(dryRun.stdout)).toEqual({
      file,
      target: 'sqlite',
      dryRun: true,
      counts: { ipPools: 3, ipReservations: 1, nodes: 2, blockAffinities: 5, blocks: 5, handles: 8, config: 1, ipamResources: 19 },
      nodesSkipped: 0,
    });
    expect(await snapshot(target)).toEqual({ ipPools: [], ipReservations: [], nodes: [], affinities: [], blocks: [], handles: [] });

    const imported = await runCli(['datastore', 'migrate', 'import', '-f', file], target, clock);
    expect(imported.code).toBe(0);
    const after = await snapshot(target);
    expect(after).toEqual(await snapshot(source));
    expect(after.handles.map((h) => h.handleId)).toEqual([
      'ipip-tunnel-addr-Node-A.example.com',
      'ipip-tunnel-addr-node-b.example.com',
      POD_HANDLE,
      VM_HANDLE,
      LB_HANDLE,
      'vxlan-tunnel-addr-Node-A.example.com',
      'vxlan-v6-tunnel-addr-node-b.example.com',
      'wireguard-v6-tunnel-addr-Node-A.example.com',
    ]);
  });

  it('writes the document to stdout without --file', async () => {
    const source = await open('etcd');
    await seedMigrationSource(source, clock);
    const run = await runCli(['datastore', 'migrate', 'export'], source, clock);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout);
    expect(Object.keys(doc)).toEqual(['apiVersion', 'kind', 'source', 'nodeRenames', 'resources', 'ipam']);
    expect(Object.keys(doc.ipam)).toEqual(['block_affinities', 'blocks', 'handles', 'config']);
    expect(doc.ipam.config).toEqual({
      Key: '/calico/ipam/v2/config',
      Value: { strict_affinity: true, auto_allocate_blocks: true, maxBlocksPerHost: 4, kubeVirtVMAddressPersistence: 'Disabled', ipCooldownSeconds: 30 },
      TTL: 0,
    });
  });
});

describe('datastore migrate: refusals', () => {
  it('refuses to export when a node has no k8s orchestrator reference, writing no file', async () => {
    const source = await open('sqlite');
    await seedMigrationSource(source, clock, { nodeCWithoutK8sRef: true });
    const file = join(dir, 'export.json');
    const run = await runCli(['datastore', 'migrate', 'export', '--k8s-node-names', '-f', file], source, clock);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: "node node-c missing a 'k8s' orchestrator reference. Unable to export data unless every node has a 'k8s' orchestrator reference\n",
    });
    expect(existsSync(file)).toBe(false);
  });

  /** A valid export of the seeded source, as parsed JSON to corrupt. */
  async function exportDocument(): Promise<ExportDoc> {
    const source = await createDatastore({ type: 'memory' });
    await seedMigrationSource(source, clock);
    const run = await runCli(['datastore', 'migrate', 'export'], source, clock);
    await source.close();
    return JSON.parse(run.stdout) as ExportDoc;
  }

  const corruptions: [string, (doc: ExportDoc) => unknown, string][] = [
    ['not JSON', () => '{"apiVersion": ', 'not JSON'],
    ['another kind of document', (d) => ({ ...d, kind: 'Other' }), 'not an ipamkit export'],
    ['an unknown field', (d) => ({ ...d, ipam: { ...d.ipam, hosts: [] } }), 'field in document is not recognized or is in the wrong location: $.ipam.hosts'],
    [
      'a block under handles',
      (d) => ({ ...d, ipam: { ...d.ipam, handles: [...d.ipam.handles, d.ipam.blocks[0]], blocks: d.ipam.blocks.slice(1) } }),
      '$.ipam.handles[8]: key /calico/ipam/v2/assignment/ipv4/block/10.0.0.0-26 is of kind IPAMBlock, expected IPAMHandle',
    ],
    ['a duplicated key', (d) => ({ ...d, ipam: { ...d.ipam, blocks: [...d.ipam.blocks, d.ipam.blocks[0]] } }), 'appears more than once'],
    [
      'a block whose value names another CIDR',
      (d) => ({ ...d, ipam: { ...d.ipam, blocks: [{ ...d.ipam.blocks[4]!, Value: { ...d.ipam.blocks[4]!.Value, cidr: '10.9.0.0/26' } }, ...d.ipam.blocks.slice(0, 4)] } }),
      "does not match the key's",
    ],
    ['a leased key', (d) => ({ ...d, ipam: { ...d.ipam, handles: [{ ...d.ipam.handles[0], TTL: 30 }, ...d.ipam.handles.slice(1)] } }), 'TTL must be 0'],
    ['no IPAM objects', (d) => ({ ...d, ipam: {} }), 'no IPAM resources specified in file'],
  ];

  it.each(corruptions)('refuses a file with %s and leaves the target empty', async (_name, corrupt, message) => {
    const target = await open('sqlite');
    const doc = await exportDocument();
    const file = join(dir, 'bad.json');
    const bad = corrupt(doc);
    writeFileSync(file, typeof bad === 'string' ? bad : JSON.stringify(bad));
    const run = await runCli(['datastore', 'migrate', 'import', '-f', file], target, clock);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(file);
    expect(run.stderr).toContain(message);
    expect(await snapshot(target)).toEqual({ ipPools: [], ipReservations: [], nodes: [], affinities: [], blocks: [], handles: [] });
  });

  it('refuses a target that already holds Calico resources and leaves it unchanged', async () => {
    const target = await open('sqlite');
    const doc = await exportDocument();
    const file = join(dir, 'export.json');
    writeFileSync(file, JSON.stringify(doc));
    await target.ipPools.create({ name: 'existing', cidr: '10.9.0.0/24', blockSize: 26 });
    await target.ipamConfig.create({ strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 0 });
    const before = await snapshot(target);
    const run = await runCli(['datastore', 'migrate', 'import', '-f', file], target, clock);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'datastore already has Calico resources: found existing IP pools, IPAM resources. Import into an empty datastore\n',
    });
    expect(await snapshot(target)).toEqual(before);
  });

  it('deletes what it created when a write fails part-way', async () => {
    const real = await createDatastore({ type: 'memory' });
    cleanups.push(() => real.close());
    const doc = await exportDocument();
    const file = join(dir, 'export.json');
    writeFileSync(file, JSON.stringify(doc));
    let creates = 0;
    const handles = new Proxy(real.handles, {
      get: (store, prop) =>
        prop === 'create'
          ? async (h: IPAMHandle) => {
              if (++creates === 3) throw new DatastoreUnavailableError('etcd went away');
              return store.create(h);
            }
          : (Reflect.get(store, prop) as unknown),
    });
    const failing = new Proxy(real, { get: (ds, prop) => (prop === 'handles' ? handles : (Reflect.get(ds, prop) as unknown)) });
    const run = await runCli(['datastore', 'migrate', 'import', '-f', file], failing, clock);
    expect(run).toEqual({
      code: 1,
      stdout: '',
      stderr: 'import failed on object 19 of 25: etcd went away; the 18 object(s) created before it were deleted\n',
    });
    expect(await snapshot(real)).toEqual({ ipPools: [], ipReservations: [], nodes: [], affinities: [], blocks: [], handles: [] });
  });

  it.each([
    [['import'], "error: required option '-f, --file <path>' not specified\n"],
    [['import', '-f', ''], '--file must name a file\n'],
    [['import', '-f', 'x.json', '-o', 'yaml'], 'unknown output format "yaml": use table or json\n'],
    [['export', '--file', ' '], '--file must name a file\n'],
  ])('rejects the arguments %j before touching a datastore', async (args, stderr) => {
    const target = await open('sqlite');
    const run = await runCli(['datastore', 'migrate', ...args], target, clock);
    expect(run).toEqual({ code: 2, stdout: '', stderr });
  });

  it('reads a missing file as an input error', async () => {
    const target = await open('sqlite');
    const file = join(dir, 'missing.json');
    const run = await runCli(['datastore', 'migrate', 'import', '-f', file], target, clock);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: cannot read: ENOENT`));
  });
});
