import { describe, expect, it } from 'vitest';
import type { RowStamp } from '../src/engine/row-engine.js';
import { StampMemo } from '../src/sqlite/stamp-memo.js';

describe('StampMemo', () => {
  const reader = () => {
    let reads = 0;
    return {
      reads: () => reads,
      read: (): RowStamp => {
        reads++;
        return { count: reads, maxRevision: BigInt(reads) };
      },
    };
  };

  it('reuses a stamp only while the data version and the kind’s own writes are as they were', () => {
    const memo = new StampMemo();
    const r = reader();
    const first = memo.stamp('ipPool', {}, 1n, r.read);
    expect(memo.stamp('ipPool', {}, 1n, r.read)).toBe(first);
    expect(r.reads()).toBe(1);

    // Another connection committed.
    expect(memo.stamp('ipPool', {}, 2n, r.read)).not.toBe(first);
    expect(r.reads()).toBe(2);

    // This connection wrote a node: the pools' stamp stands, the node's is read again.
    memo.stamp('node', { key: 'a' }, 2n, r.read);
    memo.wrote('node');
    memo.stamp('ipPool', {}, 2n, r.read);
    expect(r.reads()).toBe(3);
    memo.stamp('node', { key: 'a' }, 2n, r.read);
    expect(r.reads()).toBe(4);

    // Targets of one kind are kept apart; forget drops everything.
    memo.stamp('affinity', { host: 'a', type: 'host', ipVersion: 4 }, 2n, r.read);
    memo.stamp('affinity', { host: 'b', type: 'host', ipVersion: 4 }, 2n, r.read);
    expect(r.reads()).toBe(6);
    memo.forget();
    memo.stamp('affinity', { host: 'a', type: 'host', ipVersion: 4 }, 2n, r.read);
    expect(r.reads()).toBe(7);
  });
});
