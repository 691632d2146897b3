import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AllocationBlock, Versioned } from '@ipamkit/models';
import { autoAssignInBlock } from '../../src/block/take-free-addresses.js';
import { bumpSequenceNumber } from '../../src/block/block-writes.js';
import { newBlock } from '../../src/block/new-block.js';
import { releaseInBlock } from '../../src/block/release-in-block.js';
import { asUpdate } from '../../src/client/client-deps.js';

// asUpdate builds the written block without cloning the one the block operation made
// (design/ipam-core.md, "Allocation cost: the ninth round (2026-12-02)"): the same fields, in the
// same order, with the same values as bumping a clone gave.

const t0 = new Date('2026-12-02T15:00:00Z');

/** A block after a few allocations and releases, affine or not, with or without a claim time. */
const block: fc.Arbitrary<AllocationBlock> = fc
  .record({ take: fc.integer({ min: 0, max: 8 }), release: fc.integer({ min: 0, max: 8 }), affine: fc.boolean(), deleted: fc.boolean() })
  .map(({ take, release, affine, deleted }) => {
    const fresh = newBlock({ cidr: '10.0.0.0/29', now: t0, ...(affine ? { owner: { type: 'host' as const, host: 'h' } } : {}) });
    let current = take === 0 ? fresh : autoAssignInBlock(fresh, { num: take, handleId: 'h', attrs: { pod: 'p' } }).block;
    const releases = Array.from({ length: Math.min(release, take) }, (_, i) => ({ address: `10.0.0.${i}` }));
    if (releases.length > 0) current = releaseInBlock(current, { releases, now: t0, cooldownSeconds: 60 }).block;
    return { ...current, deleted };
  });

describe('asUpdate', () => {
  it('writes what bumping a clone wrote, field for field and in the same order', () => {
    fc.assert(
      fc.property(block, fc.option(fc.constant('uid-1'), { nil: undefined }), (next, uid) => {
        const original: Versioned<AllocationBlock> = { ...next, revision: '41', ...(uid === undefined ? {} : { uid }) };
        const before = { ...bumpSequenceNumber(next), revision: '41', ...(uid === undefined ? {} : { uid }) };
        const written = asUpdate(original, next);
        expect(written).toStrictEqual(before);
        expect(Object.keys(written)).toEqual(Object.keys(before));
        expect(Object.keys(written.sequenceNumberForAllocation)).toEqual(Object.keys(before.sequenceNumberForAllocation));
      }),
      { numRuns: 300 },
    );
  });

  it('shares the arrays and maps of the block it is given, and leaves that block as it was', () => {
    const next = autoAssignInBlock(newBlock({ cidr: '10.0.0.0/29', now: t0, owner: { type: 'host', host: 'h' } }), { num: 2, handleId: 'h' }).block;
    const sequenceNumber = next.sequenceNumber;
    const written = asUpdate({ ...next, revision: '7' }, next);
    expect(written.allocations).toBe(next.allocations);
    expect(written.unallocated).toBe(next.unallocated);
    expect(written.attributes).toBe(next.attributes);
    expect(written.sequenceNumberForAllocation).toBe(next.sequenceNumberForAllocation);
    expect(written.affinity).not.toBe(next.affinity);
    expect(written.sequenceNumber).toBe(sequenceNumber + 1n);
    expect(next.sequenceNumber).toBe(sequenceNumber);
  });
});
