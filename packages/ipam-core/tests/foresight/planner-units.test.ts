import { DEFAULT_IPAM_CONFIG, IPAMConfigConflictError, IPPoolValidationError, ValidationError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { applyWhatIf, computeRunway, rateFromFlag, rateFromHistory, type ClusterSnapshot } from '../../src/index.js';

const base: ClusterSnapshot = {
  pools: [{ name: 'pods', cidr: '10.0.0.0/24', blockSize: 26 }],
  blocks: [],
  affinities: [],
  reservations: [],
  nodes: [{ name: 'node-a' }, { name: 'node-b' }],
  config: { ...DEFAULT_IPAM_CONFIG, strictAffinity: true },
  now: new Date('2026-12-01T12:00:00Z'),
};

describe('rateFromHistory', () => {
  it('divides the allocations after the first by the span', () => {
    const times = ['2026-12-01T10:00:00Z', '2026-12-01T10:30:00Z', '2026-12-01T12:00:00Z'].map((t) => new Date(t));
    expect(rateFromHistory(times)).toEqual({ podsPerHour: 1, source: 'history', samples: 3, spanHours: 2 });
  });

  it('refuses a history too short, without a span or with a bad time', () => {
    expect(() => rateFromHistory([new Date()])).toThrow(ValidationError);
    expect(() => rateFromHistory([new Date(5), new Date(5)])).toThrow('spans no time');
    expect(() => rateFromHistory([new Date('x'), new Date(5)])).toThrow('does not parse');
    expect(() => rateFromFlag(0)).toThrow('positive');
  });
});

describe('computeRunway', () => {
  it('turns the first failure into hours at the given rate', () => {
    const report = computeRunway(base, { rate: rateFromFlag(64) });
    expect(report.firstFailure).toMatchObject({ node: 'node-a', afterPods: 256, failure: { limit: 'strict-affinity' } });
    expect(report.hoursUntilFirstFailure).toBe(4);
    expect(report.pools[0]).toMatchObject({ available: 256n, placedInFill: 256, strandedAfterFill: 0n, exhaustedAfterPods: 256 });
  });

  it('stops at the block cap in an IPv6 pool of 2^58 blocks without walking it', () => {
    const nodes = Array.from({ length: 50 }, (_, i) => ({ name: `node-${String(i).padStart(2, '0')}` }));
    const report = computeRunway({ ...base, pools: [{ name: 'v6', cidr: 'fd00::/64', blockSize: 122 }], nodes, config: { ...base.config, maxBlocksPerHost: 4 } });
    expect(report.ipVersions).toEqual([6]);
    expect(report.nodes.every((n) => n.alone === 256 && n.limit === 'block-limit')).toBe(true);
    expect(report.firstFailure?.afterPods).toBe(50 * 256);
    expect(report.pools[0]?.strandedAfterFill).toBe((1n << 64n) - 50n * 256n);
  });

  it('says a Windows node refuses to allocate without strict affinity', () => {
    const report = computeRunway({ ...base, nodes: [{ name: 'win', labels: { 'kubernetes.io/os': 'windows' } }], config: DEFAULT_IPAM_CONFIG });
    expect(report.nodes[0]).toMatchObject({ alone: 0, limit: 'windows-needs-strict-affinity' });
  });
});

describe('applyWhatIf', () => {
  it('refuses bad changes and leaves the snapshot as it was', () => {
    const copy = structuredClone(base);
    expect(() => applyWhatIf(base, { disablePools: ['nope'] })).toThrow('which does not exist');
    expect(() => applyWhatIf(base, { addPools: [{ name: 'clash', cidr: '10.0.0.128/25' }] })).toThrow('overlaps pool pods');
    expect(() => applyWhatIf(base, { addPools: [{ name: 'bad', cidr: '10.1.0.0/16', blockSize: 33 }] })).toThrow(IPPoolValidationError);
    expect(() => applyWhatIf(base, { blockSize: { size: 19 } })).toThrow('neither an IPv4 block size');
    expect(() => applyWhatIf(base, { strictAffinity: false, maxBlocksPerHost: 2 })).toThrow(IPAMConfigConflictError);
    expect(() => applyWhatIf(base, { addNodes: { count: 1, namePrefix: 'node' }, })).not.toThrow();
    expect(() => applyWhatIf({ ...base, nodes: [{ name: 'n-1' }] }, { addNodes: { count: 1, namePrefix: 'n' } })).toThrow('already exists');
    expect(base).toEqual(copy);
  });

  it('applies every change to a copy', () => {
    const changed = applyWhatIf(base, {
      addNodes: { count: 2, labels: { zone: 'b' } },
      blockSize: { size: 28 },
      strictAffinity: true,
      maxBlocksPerHost: 3,
      disablePools: ['pods'],
      addPools: [{ name: 'more', cidr: '10.1.0.0/24' }],
    });
    expect(changed.nodes.map((n) => n.name)).toEqual(['node-a', 'node-b', 'what-if-node-1', 'what-if-node-2']);
    expect(changed.nodes[3]?.labels).toEqual({ zone: 'b' });
    expect(changed.pools).toEqual([
      { name: 'pods', cidr: '10.0.0.0/24', blockSize: 26, disabled: true },
      { name: 'more', cidr: '10.1.0.0/24', blockSize: 28 },
    ]);
    expect(changed.config).toMatchObject({ strictAffinity: true, maxBlocksPerHost: 3 });
  });
});
