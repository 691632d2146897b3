import type { AllocationBlock } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { kubernetesHandleCollisions } from '../../src/migrate/migrate-import.js';
import { kubernetesNodeRenames } from '../../src/migrate/node-renames.js';
import { renameContents } from '../../src/migrate/rename-contents.js';

const renames = new Map([['Node-A', 'node-a']]);

function block(overrides: Partial<AllocationBlock>): AllocationBlock {
  return {
    cidr: '10.0.0.0/30',
    allocations: [0, null, null, null],
    unallocated: [1, 2, 3],
    attributes: [],
    sequenceNumber: 7n,
    sequenceNumberForAllocation: { '0': 7n },
    deleted: false,
    ...overrides,
  };
}

const empty = { ipPools: [], ipReservations: [], nodes: [], affinities: [], handles: [] };

describe('renameContents', () => {
  it('renames the node of active and alternate owners and leaves other attributes alone', () => {
    const source = block({
      affinity: { type: 'host', host: 'Node-A' },
      attributes: [{ handleId: 'k8s-pod-network.c1', activeOwnerAttrs: { node: 'Node-A', pod: 'p' }, alternateOwnerAttrs: { node: 'Node-A', vmi: 'v' } }],
    });
    const [renamed] = renameContents({ ...empty, blocks: [source] }, renames).blocks;
    expect(renamed).toEqual(
      block({
        affinity: { type: 'host', host: 'node-a' },
        attributes: [{ handleId: 'k8s-pod-network.c1', activeOwnerAttrs: { node: 'node-a', pod: 'p' }, alternateOwnerAttrs: { node: 'node-a', vmi: 'v' } }],
      }),
    );
    expect(source.affinity).toEqual({ type: 'host', host: 'Node-A' });
  });

  it('leaves a virtual owner of the same name alone: it is not a node', () => {
    const contents = renameContents(
      { ...empty, blocks: [block({ affinity: { type: 'virtual', host: 'Node-A' } })], affinities: [{ host: 'Node-A', type: 'virtual', cidr: '10.0.0.0/30', state: 'confirmed', deleted: false }] },
      renames,
    );
    expect(contents.blocks[0]?.affinity).toEqual({ type: 'virtual', host: 'Node-A' });
    expect(contents.affinities).toEqual([{ host: 'Node-A', type: 'virtual', cidr: '10.0.0.0/30', state: 'confirmed', deleted: false }]);
  });

  it('refuses renames that make two handles one', () => {
    const handles = [
      { handleId: 'ipip-tunnel-addr-Node-A', block: {}, deleted: false },
      { handleId: 'ipip-tunnel-addr-node-a', block: {}, deleted: false },
    ];
    expect(() => renameContents({ ...empty, blocks: [], handles }, renames)).toThrow('renaming nodes would give two handles the same key ipip-tunnel-addr-node-a');
  });
});

describe('kubernetesNodeRenames', () => {
  it('refuses two nodes with one Kubernetes name', () => {
    const node = (name: string) => ({ name, unknownFields: { spec: { orchRefs: [{ orchestrator: 'k8s', nodeName: 'n' }] } } });
    expect(() => kubernetesNodeRenames([node('a'), node('b')])).toThrow('nodes a and b both have the Kubernetes name n');
  });
});

describe('kubernetesHandleCollisions', () => {
  it('groups handle IDs that differ only in case', () => {
    expect(kubernetesHandleCollisions(['ipip-tunnel-addr-Node-A', 'k8s-pod-network.x', 'ipip-tunnel-addr-node-a'])).toEqual([
      ['ipip-tunnel-addr-Node-A', 'ipip-tunnel-addr-node-a'],
    ]);
    expect(kubernetesHandleCollisions(['a', 'b'])).toEqual([]);
  });
});
