import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blocksOf } from '@ipamkit/models';
import { blockSearchStart, inSearchOrder } from '../../src/client/block-generators.js';
import { fnv1Hash32, randomBlockGenerator } from '../../src/client/block-generators.js';

const noTime = (): bigint => 0n;

describe('fnv1Hash32', () => {
  it.each([
    ['node-a', 568266999],
    ['testHost', 2118914743],
    ['', 2166136261],
  ])('hashes %j to %d (Calico seed values)', (text, hash) => {
    expect(fnv1Hash32(text)).toBe(hash);
  });
});

describe('randomBlockGenerator', () => {
  it('yields every block of the pool exactly once, starting at the host-seeded block', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 6 }), fc.string(), (extraBits, host) => {
        const blockSize = 26;
        const poolPrefix = blockSize - extraBits;
        const pool = `10.0.0.0/${poolPrefix}`;
        const blocks = [...randomBlockGenerator(pool, blockSize, host, noTime)];
        expect(blocks).toHaveLength(2 ** extraBits);
        expect(new Set(blocks).size).toBe(blocks.length);
        expect(new Set(blocks)).toEqual(new Set(blocksOf(pool, blockSize)));
        const start = blockSearchStart(pool, blockSize, host, noTime);
        expect(blocks[0]).toBe([...blocksOf(pool, blockSize)][Number(start)]);
      }),
    );
  });

  it('walks the same order for the same host (retries revisit the same candidates)', () => {
    const a = [...randomBlockGenerator('10.0.0.0/20', 26, 'node-a', noTime)];
    const b = [...randomBlockGenerator('10.0.0.0/20', 26, 'node-a', noTime)];
    expect(a).toEqual(b);
  });

  it('orders existing blocks exactly as the generator visits them', () => {
    fc.assert(
      fc.property(fc.string(), fc.uniqueArray(fc.integer({ min: 0, max: 63 }), { maxLength: 20 }), (host, indices) => {
        const pool = '10.0.0.0/20';
        const all = [...blocksOf(pool, 26)];
        const existing = indices.map((i) => all[i]!);
        const order = [...randomBlockGenerator(pool, 26, host, noTime)].filter((c) => existing.includes(c));
        expect(inSearchOrder(pool, 26, blockSearchStart(pool, 26, host, noTime), existing)).toEqual(order);
      }),
    );
  });

  it('handles IPv6 pools with more blocks than a number can count, lazily', () => {
    const it6 = randomBlockGenerator('fd00::/48', 122, 'node-a', noTime);
    const first = it6.next().value;
    expect(first).toMatch(/^fd00:0?:?[0-9a-f:]*\/122$/);
  });
});
