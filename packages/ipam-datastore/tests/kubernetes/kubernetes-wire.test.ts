import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { blockAffinityName, hostnameHashLabel, type AllocationBlock } from '@ipamkit/models';
import { loadCrdDirectory, validateAgainstSchema, type JsonValue, type OpenApiSchema } from '@ipamkit/test-utils';
import { translateUid } from '../../src/kubernetes/uid-translation.js';
import { CRD_DIR, startKubeHarness, type KubeHarness } from './kube-test-server.js';

const GROUP = 'crd.projectcalico.org';
const SEQ = 1779000000000000001n;

const CRDS = loadCrdDirectory(CRD_DIR);

function schemaOf(plural: string): OpenApiSchema {
  const schema = CRDS.find((t) => t.plural === plural)?.schema;
  if (schema === undefined) throw new Error(`no CRD schema for ${plural}`);
  return schema;
}

/** The stored object checked against its CRD schema: no errors, and pruning would drop nothing. */
function expectSchemaValid(raw: Record<string, JsonValue> | undefined, plural: string): void {
  expect(raw).toBeDefined();
  const { metadata: _m, ...rest } = raw!;
  const { value, errors } = validateAgainstSchema(rest, schemaOf(plural));
  expect(errors).toEqual([]);
  expect(value).toEqual(rest);
}

function block(cidr: string, host = 'node-a'): AllocationBlock {
  return {
    cidr,
    affinity: { type: 'host', host },
    affinityClaimTime: '2026-08-22T13:33:20Z',
    allocations: [0, null, null, null],
    unallocated: [1, 2, 3],
    attributes: [{ handleId: 'k8s-pod-network.abc', activeOwnerAttrs: { namespace: 'default', pod: 'web-0' } }],
    sequenceNumber: SEQ + 1n,
    sequenceNumberForAllocation: { '0': SEQ },
    deleted: false,
  };
}

let h: KubeHarness;
beforeEach(async () => {
  h = await startKubeHarness();
});
afterEach(async () => {
  await h.close();
});

describe('kubernetes backend on the wire', () => {
  it('writes a block that validates against the CRD, named by its CIDR, with big sequence numbers intact', async () => {
    await h.datastore.blocks.create(block('fd00::/126'));
    const raw = h.server.readRaw({ group: GROUP, plural: 'ipamblocks', name: 'fd00---126' });
    expectSchemaValid(raw, 'ipamblocks');
    expect(raw?.['spec']).toMatchObject({ cidr: 'fd00::/126', affinity: 'host:node-a', sequenceNumber: SEQ + 1n, sequenceNumberForAllocation: { '0': SEQ }, strictAffinity: false, deleted: false });
    expect(raw?.['metadata']).toMatchObject({ annotations: { 'projectcalico.org/metadata': '{"creationTimestamp":null}' } });
    expect((await h.datastore.blocks.get('fd00::/126')).sequenceNumber).toBe(SEQ + 1n);
  });

  it('writes an affinity with its name, the three labels and the metadata annotation', async () => {
    await h.datastore.affinities.create({ host: 'node-a', type: 'host', cidr: '10.0.0.0/26', state: 'confirmed', deleted: false });
    const raw = h.server.readRaw({ group: GROUP, plural: 'blockaffinities', name: 'node-a-10-0-0-0-26' });
    expectSchemaValid(raw, 'blockaffinities');
    const labels = {
      'projectcalico.org/affinity-type': 'host',
      'projectcalico.org/hostname-hash': 'PY3TQE2E3XMTETLM2MJO3UITKPFB27YUJ4T4E5XGPEJON3SM4QAA',
      'projectcalico.org/ip-version': '4',
    };
    expect(raw?.['metadata']).toMatchObject({ labels });
    const annotation = JSON.parse((raw?.['metadata'] as { annotations: Record<string, string> }).annotations['projectcalico.org/metadata']!) as unknown;
    expect(annotation).toEqual({ creationTimestamp: null, labels });
    expect(raw?.['spec']).toEqual({ state: 'confirmed', node: 'node-a', type: 'host', cidr: '10.0.0.0/26', deleted: 'false' });
  });

  it('shortens the name of an affinity whose host is very long and still finds it by host', async () => {
    const host = 'a'.repeat(250);
    await h.datastore.affinities.create({ host, type: 'host', cidr: '10.0.0.0/26', state: 'pending', deleted: false });
    const name = blockAffinityName(host, '10.0.0.0/26');
    expect(name).toHaveLength(252);
    expect(h.server.readRaw({ group: GROUP, plural: 'blockaffinities', name })).toBeDefined();
    expect((await h.datastore.affinities.list({ host })).map((a) => a.state)).toEqual(['pending']);
  });

  it('stores a handle under its lower-cased ID and keeps the ID case in the spec', async () => {
    await h.datastore.handles.create({ handleId: 'K8s-Pod-Network.ABC', block: { '10.0.0.0/26': 2 }, deleted: false });
    const raw = h.server.readRaw({ group: GROUP, plural: 'ipamhandles', name: 'k8s-pod-network.abc' });
    expectSchemaValid(raw, 'ipamhandles');
    expect(raw?.['spec']).toEqual({ handleID: 'K8s-Pod-Network.ABC', block: { '10.0.0.0/26': 2 }, deleted: false });
    expect((await h.datastore.handles.get('K8s-Pod-Network.ABC')).block).toEqual({ '10.0.0.0/26': 2 });
  });

  it('stores the IPAM config as the singleton named default, valid against its CRD', async () => {
    await h.datastore.ipamConfig.create({ strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 4, ipCooldownSeconds: 30 });
    expectSchemaValid(h.server.readRaw({ group: GROUP, plural: 'ipamconfigs', name: 'default' }), 'ipamconfigs');
  });

  it('writes pools and reservations that validate against their CRDs', async () => {
    await h.datastore.ipPools.create({ name: 'pool-a', cidr: '10.0.0.0/16', blockSize: 26, allowedUses: ['Workload', 'Tunnel'], nodeSelector: 'all()' });
    await h.datastore.ipReservations.create({ name: 'res-a', reservedCIDRs: ['10.0.0.1/32'] });
    expectSchemaValid(h.server.readRaw({ group: GROUP, plural: 'ippools', name: 'pool-a' }), 'ippools');
    expectSchemaValid(h.server.readRaw({ group: GROUP, plural: 'ipreservations', name: 'res-a' }), 'ipreservations');
  });

  it('exposes the bit-reversed UID and sends the real one back', async () => {
    const created = await h.datastore.blocks.create(block('10.0.0.0/30'));
    const raw = h.server.readRaw({ group: GROUP, plural: 'ipamblocks', name: '10-0-0-0-30' });
    const realUid = (raw?.['metadata'] as { uid: string }).uid;
    expect(created.uid).toBe(translateUid(realUid));
    expect(created.uid).not.toBe(realUid);
    // An update carries the UID; were it not translated back, the server would refuse it.
    const updated = await h.datastore.blocks.update({ ...created, unallocated: [2, 3, 1] });
    expect(updated.unallocated).toEqual([2, 3, 1]);
  });

  it('deletes a block, a handle and an affinity by one DELETE whose precondition is the revision read', async () => {
    const created = await h.datastore.blocks.create(block('10.0.0.0/30'));
    const handle = await h.datastore.handles.create({ handleId: 'h1', block: { '10.0.0.0/30': 1 }, deleted: false });
    const affinity = await h.datastore.affinities.create({ host: 'node-a', type: 'host', cidr: '10.0.0.0/30', state: 'confirmed', deleted: false });
    const before = h.server.requests.length;
    await h.datastore.blocks.delete(created);
    await h.datastore.handles.delete(handle);
    await h.datastore.affinities.delete(affinity);
    const sent = h.server.requests.slice(before);
    // No soft-delete PUT: the API server checks the revision in the same step that removes the object.
    expect(sent.map((r) => r.method)).toEqual(['DELETE', 'DELETE', 'DELETE']);
    for (const [r, revision] of sent.map((q, i) => [q, [created, handle, affinity][i]?.revision] as const)) {
      expect(r.body).toMatchObject({ kind: 'DeleteOptions', preconditions: { resourceVersion: revision } });
    }
    expect(h.server.readRaw({ group: GROUP, plural: 'ipamblocks', name: '10-0-0-0-30' })).toBeUndefined();
    expect(h.server.readRaw({ group: GROUP, plural: 'ipamhandles', name: 'h1' })).toBeUndefined();
  });

  it('refuses to delete with a revision that is no longer current, and leaves the object as it is', async () => {
    const created = await h.datastore.blocks.create(block('10.0.0.0/30'));
    const updated = await h.datastore.blocks.update({ ...created, unallocated: [2, 3, 1] });
    await expect(h.datastore.blocks.delete(created)).rejects.toMatchObject({ name: 'ConflictError' });
    expect(await h.datastore.blocks.get('10.0.0.0/30')).toMatchObject({ revision: updated.revision, unallocated: [2, 3, 1] });
    await h.datastore.blocks.delete(updated);
    await expect(h.datastore.blocks.get('10.0.0.0/30')).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it.each([
    { plural: 'ipamblocks', object: { spec: { cidr: '10.0.0.0/30', allocations: [null, null, null, null], unallocated: [0, 1, 2, 3], attributes: [], strictAffinity: false, deleted: true } }, kind: 'IPAMBlock', name: '10-0-0-0-30' },
    { plural: 'blockaffinities', object: { spec: { cidr: '10.0.0.0/30', node: 'node-a', type: 'host', state: 'confirmed', deleted: 'true' } }, kind: 'BlockAffinity', name: 'node-a-10-0-0-0-30' },
    { plural: 'ipamhandles', object: { spec: { handleID: 'h1', block: {}, deleted: true } }, kind: 'IPAMHandle', name: 'h1' },
  ])('hides a $kind row stored with deleted=true from get and list', async ({ object, kind, name }) => {
    const labels = kind === 'BlockAffinity' ? { 'projectcalico.org/hostname-hash': hostnameHashLabel('node-a'), 'projectcalico.org/affinity-type': 'host', 'projectcalico.org/ip-version': '4' } : undefined;
    h.server.inject({ apiVersion: `${GROUP}/v1`, kind, metadata: { name, ...(labels === undefined ? {} : { labels }) }, ...object });
    const ds = h.datastore;
    const reads: Record<string, () => Promise<unknown[]>> = {
      IPAMBlock: () => ds.blocks.list(),
      BlockAffinity: () => ds.affinities.list({ host: 'node-a' }),
      IPAMHandle: () => ds.handles.list(),
    };
    const gets: Record<string, () => Promise<unknown>> = {
      IPAMBlock: () => ds.blocks.get('10.0.0.0/30'),
      BlockAffinity: () => ds.affinities.get({ host: 'node-a', type: 'host', cidr: '10.0.0.0/30' }),
      IPAMHandle: () => ds.handles.get('h1'),
    };
    expect(await reads[kind]!()).toEqual([]);
    await expect(gets[kind]!()).rejects.toMatchObject({ name: 'NotFoundError' });
  });

  it('lists a host through the hostname-hash label selector', async () => {
    await h.datastore.affinities.create({ host: 'node-b', type: 'host', cidr: 'fd00::/122', state: 'confirmed', deleted: false });
    await h.datastore.affinities.list({ host: 'node-b', type: 'host', ipVersion: 6 });
    const sent = h.server.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/blockaffinities')).map((r) => r.query['labelSelector']);
    expect(sent).toEqual([`projectcalico.org/hostname-hash=${hostnameHashLabel('node-b')},projectcalico.org/affinity-type=host,projectcalico.org/ip-version=6`]);
  });

  it('back-fills the labels of its own unlabelled affinities only, on upgradeHost', async () => {
    for (const host of ['node-a', 'node-b']) {
      h.server.inject({ apiVersion: `${GROUP}/v1`, kind: 'BlockAffinity', metadata: { name: `${host}-10-0-0-0-26` }, spec: { cidr: '10.0.0.0/26', node: host, type: 'host', state: 'confirmed', deleted: 'false' } });
    }
    expect(await h.datastore.affinities.list({ host: 'node-a' })).toEqual([]);
    await h.datastore.upgradeHost('node-a');
    expect((await h.datastore.affinities.list({ host: 'node-a' })).map((a) => a.cidr)).toEqual(['10.0.0.0/26']);
    expect(h.server.readRaw({ group: GROUP, plural: 'blockaffinities', name: 'node-b-10-0-0-0-26' })?.['metadata']).not.toHaveProperty('labels');
  });
});

describe('kubernetes backend on the wire, projectcalico.org/v3', () => {
  let v3: KubeHarness;
  beforeEach(async () => {
    v3 = await startKubeHarness({ apiGroup: 'projectcalico.org/v3' });
  });
  afterEach(async () => {
    await v3.close();
  });

  it('writes affinities with a boolean deleted, no metadata annotation, and exposes the real UID', async () => {
    const created = await v3.datastore.affinities.create({ host: 'node-a', type: 'host', cidr: '10.0.0.0/26', state: 'confirmed', deleted: false });
    const raw = v3.server.readRaw({ group: 'projectcalico.org', plural: 'blockaffinities', name: 'node-a-10-0-0-0-26' });
    expect(raw?.['apiVersion']).toBe('projectcalico.org/v3');
    expect(raw?.['spec']).toEqual({ state: 'confirmed', node: 'node-a', type: 'host', cidr: '10.0.0.0/26', deleted: false });
    expect(raw?.['metadata']).not.toHaveProperty('annotations');
    expect(created.uid).toBe((raw?.['metadata'] as { uid: string }).uid);
  });

  it('stores the IPAM config as an IPAMConfiguration named default', async () => {
    await v3.datastore.ipamConfig.create({ strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 4, ipCooldownSeconds: 0 });
    expect(v3.server.readRaw({ group: 'projectcalico.org', plural: 'ipamconfigurations', name: 'default' })).toMatchObject({
      kind: 'IPAMConfiguration',
      spec: { strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 4 },
    });
  });
});
