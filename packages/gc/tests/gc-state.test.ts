import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Allocation } from '../src/state/allocation.js';
import { assertConsistentState } from '../src/state/assert-consistent-state.js';
import { GcState } from '../src/state/gc-state.js';
import { GcInconsistentStateError } from '../src/errors.js';
import { makeBlock } from './block-fixtures.js';

const podAttrs = (node: string, pod = 'p'): Record<string, string> => ({ node, namespace: 'default', pod });

describe('the allocation pair', () => {
  it('leaves no trace in any map after assign then release', () => {
    const state = new GcState();
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a' }));
    const a = new Allocation('10.0.0.1', 'h1', '10.0.0.0/30', podAttrs('node-a'), 1n);
    state.assignAllocation(a);
    a.markConfirmedLeak();
    state.trackConfirmedLeak(a);
    expect(state.confirmedLeaks.get(a.id)).toBe(a);
    state.releaseAllocation(a);
    expect(state.allocationsByBlock.get('10.0.0.0/30')?.has(a.id)).toBe(false);
    expect(state.confirmedLeaks.has(a.id)).toBe(false);
    expect(state.allocationsByNode.has('node-a')).toBe(false);
    expect(state.allocationsByHandle.has('h1')).toBe(false);
    assertConsistentState(state, { fixtureInvariants: true });
  });
});

describe('block ingest', () => {
  it('tracks a block through add, allocate, release and delete', () => {
    const state = new GcState();
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a' }));
    expect(state.nodesByBlock.get('10.0.0.0/30')).toBe('node-a');
    expect(state.emptyBlocks.get('10.0.0.0/30')).toBe('node-a');
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a', allocations: [{ ordinal: 2, handle: 'h', attrs: podAttrs('node-a') }] }));
    expect([...(state.allocationsByBlock.get('10.0.0.0/30')?.keys() ?? [])]).toEqual(['h/10.0.0.2']);
    expect([...(state.allocationsByNode.get('node-a')?.keys() ?? [])]).toEqual(['h/10.0.0.2']);
    expect(state.emptyBlocks.has('10.0.0.0/30')).toBe(false);
    assertConsistentState(state, { fixtureInvariants: true });
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a' }));
    expect(state.allocationsByBlock.get('10.0.0.0/30')?.size).toBe(0);
    expect(state.allocationsByNode.has('node-a')).toBe(false);
    state.forgetBlock('10.0.0.0/30');
    expect(state.allBlocks.size).toBe(0);
    expect(state.nodesByBlock.size).toBe(0);
    expect(state.blocksByNode.size).toBe(0);
    expect(state.allocationsByBlock.size).toBe(0);
    assertConsistentState(state, { fixtureInvariants: true });
  });

  it('keeps the allocation of a block that loses its affinity, and clears the node once released', () => {
    const state = new GcState();
    const alloc = [{ ordinal: 1, handle: 'h', attrs: podAttrs('node-a') }];
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a', allocations: alloc }));
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', allocations: alloc }));
    expect(state.nodesByBlock.has('10.0.0.0/30')).toBe(false);
    expect(state.blocksByNode.has('node-a')).toBe(false);
    expect(state.allocationsByNode.get('node-a')?.size).toBe(1);
    assertConsistentState(state);
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30' }));
    expect(state.allocationsByNode.has('node-a')).toBe(false);
    assertConsistentState(state, { fixtureInvariants: true });
  });

  it('moves a block between hosts without leaving the old mapping behind', () => {
    const state = new GcState();
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a' }));
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-b' }));
    expect(state.blocksByNode.has('node-a')).toBe(false);
    expect([...(state.blocksByNode.get('node-b') ?? [])]).toEqual(['10.0.0.0/30']);
    assertConsistentState(state, { fixtureInvariants: true });
  });

  it('refreshes a re-used address: new sequence number, leak state cleared, release uses it', () => {
    const state = new GcState();
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a', allocations: [{ ordinal: 1, handle: 'h', attrs: podAttrs('node-a'), seq: 10n }] }));
    const a = state.allocationsByBlock.get('10.0.0.0/30')!.get('h/10.0.0.1')!;
    a.markLeak(0, 1000);
    a.markLeak(5000, 1000);
    state.trackConfirmedLeak(a);
    expect(state.confirmedLeaks.size).toBe(1);
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a', allocations: [{ ordinal: 1, handle: 'h', attrs: podAttrs('node-a'), seq: 11n }] }));
    expect(a.sequenceNumber).toBe(11n);
    expect(a.leakedAt).toBeUndefined();
    expect(a.isConfirmedLeak()).toBe(false);
    expect(state.confirmedLeaks.size).toBe(0);
    expect(a.releaseOptions()).toEqual({ address: '10.0.0.1', handle: 'h', sequenceNumber: 11n });
    assertConsistentState(state, { fixtureInvariants: true });
  });

  it('tracks cold blocks by their earliest released time and forgets them once freed', () => {
    const state = new GcState();
    state.onBlockUpdated(
      makeBlock({
        cidr: '10.0.0.0/30',
        host: 'node-a',
        allocations: [
          { ordinal: 1, releasedAt: '2026-08-22T10:00:00Z' },
          { ordinal: 2, releasedAt: '2026-08-22T09:00:00Z' },
        ],
      }),
    );
    expect(state.coldBlocks.get('10.0.0.0/30')).toBe(Date.parse('2026-08-22T09:00:00Z'));
    expect(state.allocationsByBlock.get('10.0.0.0/30')?.size ?? 0).toBe(0);
    expect(state.emptyBlocks.has('10.0.0.0/30')).toBe(false);
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a' }));
    expect(state.coldBlocks.has('10.0.0.0/30')).toBe(false);
    assertConsistentState(state, { fixtureInvariants: true });
  });
});

describe('pool association', () => {
  it('moves orphan blocks into a new pool, back out on delete, and drops the empty orphan bucket', () => {
    const state = new GcState();
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a' }));
    expect(state.pools.poolOf('10.0.0.0/30')).toBe('no_ippool');
    expect(state.setPool({ name: 'p', cidr: '10.0.0.0/24' })).toBe(true);
    expect(state.pools.poolOf('10.0.0.0/30')).toBe('p');
    expect(state.pools.blocksByPool.has('no_ippool')).toBe(false);
    state.deletePool('p');
    expect(state.pools.poolOf('10.0.0.0/30')).toBe('no_ippool');
    state.setPool({ name: 'q', cidr: '192.168.0.0/24' });
    state.forgetBlock('10.0.0.0/30');
    expect(state.pools.blocksByPool.has('no_ippool')).toBe(false);
    expect(state.pools.blocksByPool.get('q')?.size).toBe(0);
    assertConsistentState(state, { fixtureInvariants: true });
  });

  it('associates a block with the narrowest covering pool, whatever the insertion order', () => {
    for (const order of [['wide', 'narrow'], ['narrow', 'wide']]) {
      const state = new GcState();
      const pools = { wide: '10.0.0.0/16', narrow: '10.0.0.0/24' } as const;
      for (const name of order as ('wide' | 'narrow')[]) state.setPool({ name, cidr: pools[name] });
      state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30' }));
      expect(state.pools.poolOf('10.0.0.0/30')).toBe('narrow');
    }
  });

  it('ignores a pool whose CIDR does not parse', () => {
    const state = new GcState();
    expect(state.setPool({ name: 'bad', cidr: 'not-a-cidr' })).toBe(false);
    expect(state.setPool({ name: 'bad', cidr: 'not-a-cidr' })).toBe(false);
    expect(state.pools.allPools.size).toBe(0);
  });
});

describe('assertConsistentState', () => {
  it('reports a handle tracker that disagrees with the blocks', () => {
    const state = new GcState();
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a' }));
    // An allocation filed only in the handle index, as a path that skipped the pair would leave it.
    const stray = new Allocation('10.0.0.1', 'h', '10.0.0.0/30', podAttrs('node-a'), 1n);
    state.assignAllocation(stray);
    state.onBlockUpdated(makeBlock({ cidr: '10.0.0.0/30', host: 'node-a' }));
    expect(() => assertConsistentState(state)).not.toThrow();
    state.forgetBlock('10.0.0.0/30');
    state.assignAllocation(stray);
    expect(() => assertConsistentState(state)).toThrow(GcInconsistentStateError);
  });
});

describe('invariants under random block histories', () => {
  const nodes = ['node-a', 'node-b', ''];
  const op = fc.record({
    block: fc.integer({ min: 0, max: 3 }),
    host: fc.constantFrom(...nodes),
    forget: fc.boolean(),
    allocations: fc.uniqueArray(
      fc.record({
        ordinal: fc.integer({ min: 0, max: 3 }),
        handle: fc.constantFrom('h1', 'h2', 'lb-x', undefined),
        node: fc.constantFrom(...nodes),
        seq: fc.bigInt({ min: 1n, max: 3n }),
        cooling: fc.boolean(),
      }),
      { selector: (a) => a.ordinal, maxLength: 4 },
    ),
  });

  it('keeps every map consistent after any sequence of block updates and deletes', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 30 }), (ops) => {
        const state = new GcState();
        state.setPool({ name: 'p', cidr: '10.0.0.0/28' });
        for (const o of ops) {
          const cidr = `10.0.0.${o.block * 4}/30`;
          if (o.forget) {
            if (state.allBlocks.has(cidr)) state.forgetBlock(cidr);
            continue;
          }
          const allocations = o.allocations.map((a) =>
            a.cooling
              ? { ordinal: a.ordinal, releasedAt: '2026-08-22T10:00:00Z' }
              : {
                  ordinal: a.ordinal,
                  ...(a.handle === undefined ? {} : { handle: a.handle }),
                  attrs: a.handle === 'lb-x' ? { service: 's', namespace: 'n' } : podAttrs(a.node),
                  seq: a.seq,
                },
          );
          state.onBlockUpdated(makeBlock({ cidr, ...(o.host === '' ? {} : { host: o.host }), allocations }));
          for (const a of state.allocationsByBlock.get(cidr)?.values() ?? []) {
            a.markConfirmedLeak();
            state.trackConfirmedLeak(a);
          }
          assertConsistentState(state);
        }
      }),
      { numRuns: 300 },
    );
  });
});
