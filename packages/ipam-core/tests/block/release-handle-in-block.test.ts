import { describe, expect, it } from 'vitest';
import { autoAssignInBlock } from '../../src/block/take-free-addresses.js';
import { sequenceNumberFor } from '../../src/block/block-queries.js';
import { bumpSequenceNumber } from '../../src/block/block-writes.js';
import { newBlock } from '../../src/block/new-block.js';
import { releaseHandleInBlock } from '../../src/block/release-handle-in-block.js';
import { blockViolations, snapshot } from './block-invariants.js';

const t0 = new Date('2026-08-22T13:33:20Z');
const nodeA = { type: 'host', host: 'node-a' } as const;

function twoHandles() {
  const fresh = newBlock({ cidr: '10.0.0.0/29', now: t0, owner: nodeA });
  const a = bumpSequenceNumber(autoAssignInBlock(fresh, { num: 2, handleId: 'h1' }).block);
  const b = bumpSequenceNumber(autoAssignInBlock(a, { num: 1, handleId: 'h2\rstray' }).block);
  return bumpSequenceNumber(autoAssignInBlock(b, { num: 1, handleId: 'h1', attrs: { pod: 'x' } }).block);
}

describe('releaseHandleInBlock', () => {
  it('releases every allocation of the handle across attribute entries without re-stamping sequence numbers', () => {
    const block = twoHandles();
    const before = snapshot(block);
    const result = releaseHandleInBlock(block, { handleId: 'h1', now: t0, cooldownSeconds: 60 });
    expect(result.count).toBe(3);
    expect(result.released).toEqual(['10.0.0.0', '10.0.0.1', '10.0.0.3']);
    expect(result.block.attributes).toEqual([{ handleId: 'h2\rstray' }, { releasedAt: '2026-08-22T13:33:20Z' }]);
    expect(result.block.allocations.slice(0, 4)).toEqual([1, 1, 0, 1]);
    expect(result.block.sequenceNumberForAllocation).toEqual(block.sequenceNumberForAllocation);
    expect(block).toEqual(before);
    expect(blockViolations(result.block)).toEqual([]);
  });

  it('matches a stored handle after sanitizing its carriage return', () => {
    const result = releaseHandleInBlock(twoHandles(), { handleId: 'h2', now: t0, cooldownSeconds: 0 });
    expect(result.released).toEqual(['10.0.0.2']);
    expect(result.block.unallocated).toEqual([4, 5, 6, 7, 2]);
  });

  it('skips ordinals whose sequence number does not match, silently', () => {
    const block = twoHandles();
    const seq = sequenceNumberFor(block, '10.0.0.3')!;
    const result = releaseHandleInBlock(block, { handleId: 'h1', sequenceNumber: seq, now: t0, cooldownSeconds: 0 });
    expect(result.released).toEqual(['10.0.0.3']);
  });

  it('returns zero and the same block for an unknown handle', () => {
    const block = twoHandles();
    const result = releaseHandleInBlock(block, { handleId: 'nobody', now: t0, cooldownSeconds: 0 });
    expect(result).toEqual({ block, count: 0, released: [], changed: false });
  });

  it('does not count ordinals already in cooldown', () => {
    const once = releaseHandleInBlock(twoHandles(), { handleId: 'h1', now: t0, cooldownSeconds: 60 }).block;
    expect(releaseHandleInBlock(once, { handleId: 'h1', now: t0, cooldownSeconds: 60 }).count).toBe(0);
  });
});
