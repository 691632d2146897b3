import { describe, expect, it } from 'vitest';
import { DecodedMemo } from '../../src/etcd/decoded-memo.js';

// The decoded memo hands every reader a value of its own; a transaction's reader may take over the
// value a committed write left (design/ipam-datastore.md, "Allocation cost: the fourth round (2026-12-02)").

const block = () => ({ cidr: '10.0.0.0/30', allocations: [0, null], attributes: [{ handleId: 'h' }] });

describe('DecodedMemo', () => {
  it('hands a write\'s value over once to a taking reader and forgets it, so what the taker changes reaches nobody', () => {
    const memo = new DecodedMemo();
    const written = block();
    memo.remember('k', '7', written);
    let decodes = 0;
    const decode = () => (decodes++, block());
    const taken = memo.decode('k', '7', decode, true);
    expect(taken).toEqual(block());
    expect(taken).not.toBe(written);
    expect(decodes).toBe(0);
    taken.attributes[0] = { handleId: 'changed by the taker' };
    taken.allocations.push(1);
    // The entry is gone: the next reader decodes the stored text again and sees the stored value.
    expect(memo.decode('k', '7', decode, true)).toEqual(block());
    expect(decodes).toBe(1);
  });

  it('copies a decoded entry for a taking reader and keeps it, so a value read and not written is decoded once', () => {
    const memo = new DecodedMemo();
    let decodes = 0;
    const decode = () => (decodes++, block());
    const first = memo.decode('k', '3', decode, true);
    const second = memo.decode('k', '3', decode, true);
    expect(decodes).toBe(1);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    second.attributes.length = 0;
    expect(memo.decode('k', '3', decode, true)).toEqual(block());
    expect(decodes).toBe(1);
  });

  it('copies a write\'s value for a reader that does not take, and keeps the entry', () => {
    const memo = new DecodedMemo();
    const written = block();
    memo.remember('k', '7', written);
    written.allocations[1] = 1;
    let decodes = 0;
    const decode = () => (decodes++, block());
    const read = memo.decode('k', '7', decode);
    expect(read).toEqual(block());
    read.attributes.length = 0;
    expect(memo.decode('k', '7', decode, true)).toEqual(block());
    expect(decodes).toBe(0);
  });

  it('keeps a write\'s deeply frozen attributes as they are, so a taker gets the same objects', () => {
    const memo = new DecodedMemo();
    const attribute = Object.freeze({ handleId: 'h', activeOwnerAttrs: Object.freeze({ pod: 'p' }) });
    const written = { ...block(), attributes: [attribute] };
    memo.remember('k', '7', written);
    const taken = memo.decode('k', '7', block, true);
    expect(taken).not.toBe(written);
    expect(taken.attributes).not.toBe(written.attributes);
    expect(taken.attributes[0]).toBe(attribute);
  });

  it('decodes a version it does not hold, whatever the key held before', () => {
    const memo = new DecodedMemo();
    memo.remember('k', '7', block());
    expect(memo.decode('k', '8', () => ({ cidr: 'other' }), true)).toEqual({ cidr: 'other' });
  });
});
