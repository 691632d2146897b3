import { BadHandleError, BadSequenceNumberError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { autoAssignInBlock } from '../../src/block/take-free-addresses.js';
import { AddressNotInBlockError } from '../../src/block/block-errors.js';
import { isEmpty, sequenceNumberFor } from '../../src/block/block-queries.js';
import { bumpSequenceNumber } from '../../src/block/block-writes.js';
import { newBlock } from '../../src/block/new-block.js';
import { releaseInBlock } from '../../src/block/release-in-block.js';
import { blockViolations, snapshot } from './block-invariants.js';

const t0 = new Date('2026-08-22T13:33:20Z');
const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);
const nodeA = { type: 'host', host: 'node-a' } as const;

/** A /29 with .0–.2 allocated to handle h1 and .3 to h2, persisted once (sequence bumped). */
function allocated() {
  const fresh = newBlock({ cidr: '10.0.0.0/29', now: t0, owner: nodeA });
  const a = autoAssignInBlock(fresh, { num: 3, handleId: 'h1', attrs: { pod: 'a' } }).block;
  return bumpSequenceNumber(autoAssignInBlock(a, { num: 1, handleId: 'h2' }).block);
}

describe('releaseInBlock', () => {
  it('moves released ordinals to one cooldown attribute and re-stamps their sequence numbers', () => {
    const block = allocated();
    const before = snapshot(block);
    const result = releaseInBlock(block, { releases: [{ address: '10.0.0.1' }, { address: '10.0.0.3' }], now: t0, cooldownSeconds: 60 });
    expect(result.released).toEqual(['10.0.0.1', '10.0.0.3']);
    expect(result.unallocated).toEqual([]);
    expect([...result.handleDeltas]).toEqual([['h1', 1], ['h2', 1]]);
    expect(result.changed).toBe(true);
    expect(result.block.attributes).toEqual([{ handleId: 'h1', activeOwnerAttrs: { pod: 'a' } }, { releasedAt: '2026-08-22T13:33:20Z' }]);
    expect(result.block.allocations.slice(0, 4)).toEqual([0, 1, 0, 1]);
    expect(result.block.unallocated).toEqual([4, 5, 6, 7]);
    expect(sequenceNumberFor(result.block, '10.0.0.1')).toBe(block.sequenceNumber);
    expect(isEmpty(result.block)).toBe(false);
    expect(block).toEqual(before);
    expect(blockViolations(result.block)).toEqual([]);
  });

  it('frees released ordinals in the same call when the cooldown is zero, appending them in ordinal order', () => {
    const result = releaseInBlock(allocated(), {
      releases: [{ address: '10.0.0.2' }, { address: '10.0.0.0' }], now: t0, cooldownSeconds: 0,
    });
    expect(result.block.unallocated).toEqual([4, 5, 6, 7, 0, 2]);
    expect(result.block.allocations.slice(0, 4)).toEqual([null, 0, null, 1]);
    expect(Object.keys(result.block.sequenceNumberForAllocation).sort()).toEqual(['1', '3']);
  });

  it('reports already-free and in-cooldown addresses as unallocated without an error', () => {
    const once = releaseInBlock(allocated(), { releases: [{ address: '10.0.0.0' }], now: t0, cooldownSeconds: 60 }).block;
    const again = releaseInBlock(once, { releases: [{ address: '10.0.0.0' }, { address: '10.0.0.6' }], now: t0, cooldownSeconds: 60 });
    expect(again.released).toEqual([]);
    expect(again.unallocated).toEqual(['10.0.0.0', '10.0.0.6']);
    expect(again.changed).toBe(false);
    expect(again.block).toBe(once);
  });

  it('rejects a stale sequence number and releases nothing, even for the other addresses', () => {
    const block = allocated();
    const stored = sequenceNumberFor(block, '10.0.0.0')!;
    let caught: unknown;
    try {
      releaseInBlock(block, {
        releases: [{ address: '10.0.0.1' }, { address: '10.0.0.0', sequenceNumber: stored - 1n }], now: t0, cooldownSeconds: 0,
      });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(BadSequenceNumberError);
    expect((caught as BadSequenceNumberError).expected).toBe(stored);
    expect((caught as BadSequenceNumberError).requested).toBe(stored - 1n);
    expect((caught as BadSequenceNumberError).category).toBe('stop-and-re-evaluate');
  });

  it('checks the sequence number before the allocation state (a free ordinal compares against 0)', () => {
    const block = allocated();
    expect(() => releaseInBlock(block, { releases: [{ address: '10.0.0.7', sequenceNumber: 5n }], now: t0, cooldownSeconds: 0 })).toThrow(
      BadSequenceNumberError,
    );
    expect(releaseInBlock(block, { releases: [{ address: '10.0.0.7', sequenceNumber: 0n }], now: t0, cooldownSeconds: 0 }).unallocated).toEqual([
      '10.0.0.7',
    ]);
  });

  it('accepts the matching sequence number', () => {
    const block = allocated();
    const result = releaseInBlock(block, {
      releases: [{ address: '10.0.0.0', sequenceNumber: sequenceNumberFor(block, '10.0.0.0')! }], now: t0, cooldownSeconds: 0,
    });
    expect(result.released).toEqual(['10.0.0.0']);
  });

  it.each([
    ['a different handle', 'h2', true],
    ['the same handle', 'h1', false],
    ['the same handle with a stray carriage return', 'h1\rjunk', false],
    ['no handle', '', false],
  ])('with %s: rejects=%s', (_name, handle, rejects) => {
    const run = () => releaseInBlock(allocated(), { releases: [{ address: '10.0.0.0', handle }], now: t0, cooldownSeconds: 0 });
    if (rejects) expect(run).toThrow(BadHandleError);
    else expect(run().released).toEqual(['10.0.0.0']);
  });

  it('lets the last duplicate of an address win', () => {
    const result = releaseInBlock(allocated(), {
      releases: [{ address: '10.0.0.0', handle: 'wrong' }, { address: '10.0.0.0', handle: 'h1' }], now: t0, cooldownSeconds: 0,
    });
    expect(result.released).toEqual(['10.0.0.0']);
  });

  it('rejects an address outside the block before releasing anything', () => {
    expect(() => releaseInBlock(allocated(), { releases: [{ address: '10.0.0.0' }, { address: '10.0.1.0' }], now: t0, cooldownSeconds: 0 })).toThrow(
      AddressNotInBlockError,
    );
  });

  it('also collects earlier releases whose cooldown has ended', () => {
    const first = releaseInBlock(allocated(), { releases: [{ address: '10.0.0.3' }], now: t0, cooldownSeconds: 30 }).block;
    const second = releaseInBlock(first, { releases: [{ address: '10.0.0.0' }], now: later(31), cooldownSeconds: 30 }).block;
    expect(second.unallocated).toEqual([4, 5, 6, 7, 3]);
    expect(second.allocations[0]).not.toBeNull();
  });
});

describe('sequence-number ABA protection', () => {
  it('rejects a stale release after the address was released and reallocated, and the new owner keeps it', () => {
    // Allocate to the old owner and persist (the write path bumps once per update).
    const fresh = newBlock({ cidr: '10.0.0.0/30', now: t0, owner: nodeA });
    const firstAlloc = autoAssignInBlock(fresh, { num: 4, handleId: 'old' });
    const persisted1 = bumpSequenceNumber(firstAlloc.block);
    const oldSeq = sequenceNumberFor(persisted1, '10.0.0.0')!;
    expect(oldSeq).toBe(fresh.sequenceNumber);
    // Release with the right number; cooldown 0 frees it, then persist.
    const released = releaseInBlock(persisted1, { releases: [{ address: '10.0.0.0', sequenceNumber: oldSeq }], now: t0, cooldownSeconds: 0 });
    const persisted2 = bumpSequenceNumber(released.block);
    // Reallocate the same address to a new owner.
    const realloc = autoAssignInBlock(persisted2, { num: 1, handleId: 'new' });
    expect(realloc.ips).toEqual(['10.0.0.0']);
    const persisted3 = bumpSequenceNumber(realloc.block);
    expect(sequenceNumberFor(persisted3, '10.0.0.0')).toBe(oldSeq + 2n);
    // The old owner's delayed release (same number, even with its handle omitted) is rejected.
    expect(() =>
      releaseInBlock(persisted3, { releases: [{ address: '10.0.0.0', sequenceNumber: oldSeq }], now: t0, cooldownSeconds: 0 }),
    ).toThrow(BadSequenceNumberError);
    expect(persisted3.attributes[persisted3.allocations[0]!]).toEqual({ handleId: 'new' });
  });

  it('rejects replaying the allocation number on an address still in cooldown', () => {
    const block = allocated();
    const seq = sequenceNumberFor(block, '10.0.0.0')!;
    const cooling = bumpSequenceNumber(releaseInBlock(block, { releases: [{ address: '10.0.0.0', sequenceNumber: seq }], now: t0, cooldownSeconds: 60 }).block);
    expect(() => releaseInBlock(cooling, { releases: [{ address: '10.0.0.0', sequenceNumber: seq }], now: t0, cooldownSeconds: 60 })).toThrow(
      BadSequenceNumberError,
    );
    expect(releaseInBlock(cooling, { releases: [{ address: '10.0.0.0' }], now: t0, cooldownSeconds: 60 }).unallocated).toEqual(['10.0.0.0']);
  });
});
