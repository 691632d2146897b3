import { withEtcd } from '@ipamkit/test-utils';
import type { Datastore } from '@ipamkit/models';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ipamCheck } from '../src/index.js';
import { renderCheck } from '../src/check/render-check.js';
import { FakeClock, openBackend, type BackendName } from './fixtures.js';

const etcd = withEtcd();

const REASON = 'allocations array has 1 entries but the block has 64 addresses; it is never allocated from';

describe.each<BackendName>(['sqlite', 'etcd'])('ipam check of a block with a short allocations array on %s', (backend) => {
  let ds: Datastore;
  let cleanup: () => Promise<void>;
  const clock = new FakeClock();

  beforeEach(async () => {
    ({ ds, cleanup } = await openBackend(backend, () => etcd.endpoint));
    await ds.ipPools.create({ name: 'p', cidr: '10.0.0.0/24', blockSize: 26 });
    await ds.nodes.create({ name: 'node-a' });
    await ds.affinities.create({ host: 'node-a', type: 'host', cidr: '10.0.0.0/26', state: 'confirmed', deleted: false });
    await ds.handles.create({ handleId: 'h', block: { '10.0.0.0/26': 1 }, deleted: false });
    // The shape of Calico's own test objects: a /26 whose allocations array has one entry.
    await ds.blocks.create({
      cidr: '10.0.0.0/26',
      affinity: { type: 'host', host: 'node-a' },
      allocations: [0],
      unallocated: Array.from({ length: 63 }, (_, i) => i + 1),
      attributes: [{ handleId: 'h', activeOwnerAttrs: { node: 'node-a' } }],
      sequenceNumber: 2n,
      sequenceNumberForAllocation: { '0': 1n },
      deleted: false,
    });
  });
  afterEach(async () => {
    await cleanup();
  });

  it('reports it as a short-allocations finding, and only that, instead of failing', async () => {
    const result = await ipamCheck({ datastore: ds, clock });
    expect(result.findings.map((f) => [f.kind, f.subject, f.reason, f.problem])).toEqual([['short-allocations', '10.0.0.0/26', REASON, true]]);
    expect(result.allocations.map((a) => a.ip)).toEqual(['10.0.0.0']);
    expect(result.problems).toBe(1);
  });

  it('prints the finding', async () => {
    const text = renderCheck(await ipamCheck({ datastore: ds, clock }));
    expect(text).toContain(`| short-allocations | 10.0.0.0/26 | ${REASON} |`);
    expect(text).toContain('Check complete; found 1 problems.');
  });
});
