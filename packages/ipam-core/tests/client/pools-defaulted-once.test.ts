import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AllocationBlock, IPPool, Node } from '@ipamkit/models';
import {
  poolNoLongerSelectsHost,
  poolNoLongerSelectsHostAmong,
  selectionNeedsNode,
  selectionNeedsNodeAmong,
} from '../../src/client/ensure-consistent-affinity.js';
import { defaultedPools } from '../../src/client/pool-qualification.js';

// A transactional release decides on the pools its transaction read through `txPools`, already
// defaulted and sorted; the "Among" forms skip doing that again (design/ipam-core.md, "Allocation
// cost: the ninth round (2026-12-02)"). They must decide as the forms that default the raw list.

const pool: fc.Arbitrary<IPPool> = fc.record(
  {
    name: fc.constantFrom('a', 'b', 'c', 'b2'),
    cidr: fc.constantFrom('10.0.0.0/16', '10.0.0.0/8', '10.1.0.0/16', 'fd00::/48'),
    blockSize: fc.constantFrom(0, 24, 26),
    nodeSelector: fc.constantFrom('', '  ', 'all()', "zone == 'a'", 'has(gpu)', '!!bad'),
    disabled: fc.boolean(),
    allowedUses: fc.constantFrom([], ['Workload'], ['Tunnel']),
  },
  { requiredKeys: ['name', 'cidr'] },
);

const node: fc.Arbitrary<Node | undefined> = fc.option(
  fc.record({ name: fc.constant('h'), labels: fc.dictionary(fc.constantFrom('zone', 'gpu'), fc.constantFrom('a', 'b', '')) }),
  { nil: undefined },
);

const block = (cidr: string): AllocationBlock => ({
  cidr,
  affinity: { type: 'host', host: 'h' },
  allocations: [null],
  unallocated: [0],
  attributes: [],
  sequenceNumber: 1n,
  sequenceNumberForAllocation: {},
  deleted: false,
});

describe('pool decisions on pools defaulted once', () => {
  it('defaulting defaulted pools changes nothing', () => {
    fc.assert(
      fc.property(fc.array(pool, { maxLength: 5 }), (pools) => {
        expect(defaultedPools(defaultedPools(pools))).toEqual(defaultedPools(pools));
      }),
      { numRuns: 1000 },
    );
  });

  it('decide as the forms that default the raw list', () => {
    const cidr = fc.constantFrom('10.0.0.0/26', '10.1.0.64/26', '10.2.0.0/26', 'fd00::/122');
    fc.assert(
      fc.property(fc.array(pool, { maxLength: 5 }), cidr, node, (pools, at, host) => {
        const defaulted = defaultedPools(pools);
        expect(selectionNeedsNodeAmong(block(at), defaulted)).toBe(selectionNeedsNode(block(at), pools));
        let expected: boolean | Error;
        try {
          expected = poolNoLongerSelectsHost(block(at), host, pools);
        } catch (err) {
          expected = err as Error;
        }
        if (expected instanceof Error) expect(() => poolNoLongerSelectsHostAmong(block(at), host, defaulted)).toThrow(expected.constructor);
        else expect(poolNoLongerSelectsHostAmong(block(at), host, defaulted)).toBe(expected);
      }),
      { numRuns: 1000 },
    );
  });
});
