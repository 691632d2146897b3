import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CodecError, type AllocationBlock, type Datastore } from '@ipamkit/models';
import { allocateFirst, sampleBlock } from '@ipamkit/test-utils';
import { blockOrdinalsOf } from '../src/engine/block-ordinals.js';
import { decodeFreeBlockText, freeBlockOrdinals } from '../src/sqlite/free-block-text.js';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { decodeValue, encodeExact, encodeValue } from '../src/sqlite/row-codec.js';
import { tempDir } from './support/temp-dir.js';

/** The stored text of a block value, as `putRow` writes it. */
const storedText = (value: Record<string, unknown>): string => encodeExact('block', value) ?? encodeValue(value);

/** The decoded value with its key order made visible (toStrictEqual ignores order). */
const shape = (value: Record<string, unknown>): unknown => [value, encodeValue(value)];

/** decodeValue's answer, or the fact that it refuses the text. */
function decodedOrRefused(text: string): Record<string, unknown> | 'refused' {
  try {
    return decodeValue('block', text);
  } catch {
    return 'refused';
  }
}

const CIDRS = ['10.0.0.0/30', '10.0.0.4/30', 'fd00::/126', '10.0.0.0/29'] as const;
const sizeOf = (cidr: string): number => 2 ** ((cidr.includes(':') ? 128 : 32) - Number(cidr.split('/')[1]));

/** Blocks as the core writes them, and some it never would: allocated, short, out of order, extra keys. */
const blockValue = fc
  .record({
    cidr: fc.constantFrom(...CIDRS),
    allocatedOrdinals: fc.array(fc.nat(7), { maxLength: 3 }),
    shortBy: fc.constantFrom(0, 0, 0, 1),
    freeOrder: fc.constantFrom('in order', 'shuffled', 'with a stray ordinal', 'empty'),
    owner: fc.option(fc.record({ type: fc.constantFrom('host', 'virtual'), host: fc.constantFrom('node-a', 'a"b', 'é') }), { nil: undefined }),
    claimTime: fc.option(fc.constant('2026-12-01T00:00:00Z'), { nil: undefined }),
    extra: fc.option(fc.dictionary(fc.constantFrom('note', 'strictAffinity', 'big'), fc.oneof(fc.string(), fc.boolean(), fc.bigInt({ min: 0n, max: 1n << 64n }))), {
      nil: undefined,
    }),
    sequenceNumber: fc.oneof(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.constantFrom(0n, 7n)),
    deleted: fc.boolean(),
  })
  .map((g) => {
    const n = sizeOf(g.cidr) - g.shortBy;
    const allocations: (number | null)[] = Array.from({ length: n }, () => null);
    const attributes: Record<string, unknown>[] = [];
    const perAllocation: Record<string, bigint> = {};
    for (const o of g.allocatedOrdinals) {
      if (o >= n) continue;
      allocations[o] = 0;
      perAllocation[String(o)] = g.sequenceNumber;
    }
    if (Object.keys(perAllocation).length > 0) attributes.push({ handleId: 'h' });
    const inOrder = allocations.flatMap((a, o) => (a === null ? [o] : []));
    const unallocated =
      g.freeOrder === 'shuffled' ? [...inOrder].reverse() : g.freeOrder === 'with a stray ordinal' ? [...inOrder, 1000] : g.freeOrder === 'empty' ? [] : inOrder;
    const value: Record<string, unknown> = {
      cidr: g.cidr,
      allocations,
      unallocated,
      attributes,
      sequenceNumber: g.sequenceNumber,
      sequenceNumberForAllocation: perAllocation,
      deleted: g.deleted,
    };
    if (g.owner !== undefined) value['affinity'] = g.owner;
    if (g.claimTime !== undefined) value['affinityClaimTime'] = g.claimTime;
    Object.assign(value, g.extra);
    return value;
  });

describe('decodeFreeBlockText', () => {
  it('gives exactly what decodeValue gives, key order included, whenever it answers', () => {
    let answered = 0;
    fc.assert(
      fc.property(blockValue, fc.boolean(), (value, underItsKey) => {
        const text = storedText(value);
        const key = underItsKey ? String(value['cidr']) : '10.9.9.0/30';
        const fast = decodeFreeBlockText(text, key);
        const ordinals = freeBlockOrdinals(text, key);
        if (fast === undefined) {
          expect(ordinals).toBeUndefined();
          return;
        }
        answered += 1;
        const decoded = decodeValue('block', text);
        expect(shape(fast)).toStrictEqual(shape(decoded));
        expect(ordinals).toStrictEqual(blockOrdinalsOf(key, decoded));
      }),
      { numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(200);
  });

  it('never answers for a text decodeValue refuses, nor differs from it on any edit of a free block text', () => {
    let answered = 0;
    const owned = sampleBlock('10.0.0.0/30') as unknown as Record<string, unknown>;
    // The owner before the arrays (read by the parser) and after them (the CIDR taken from the key).
    const { affinity, affinityClaimTime, ...unowned } = owned;
    const bases = [storedText(owned), storedText({ ...unowned, affinity, affinityClaimTime })];
    const edit = fc.record({
      base: fc.constantFrom(...bases),
      at: fc.nat(bases[0]?.length ?? 0),
      removed: fc.nat(3),
      inserted: fc.string({ unit: fc.constantFrom(...'[]{}",:0123456789 nultrfase\\-.e'.split('')), maxLength: 3 }),
    });
    fc.assert(
      fc.property(edit, ({ base, at, removed, inserted }) => {
        const text = base.slice(0, at) + inserted + base.slice(at + removed);
        const fast = decodeFreeBlockText(text, '10.0.0.0/30');
        const slow = decodedOrRefused(text);
        if (fast === undefined) expect(freeBlockOrdinals(text, '10.0.0.0/30')).toBeUndefined();
        if (slow === 'refused') expect(fast).toBeUndefined();
        else if (fast !== undefined) {
          answered += 1;
          expect(shape(fast)).toStrictEqual(shape(slow));
        }
      }),
      { numRuns: 5000 },
    );
    expect(answered).toBeGreaterThan(100);
  });

  it('declines the near misses the parsers refuse', () => {
    const owned = sampleBlock('10.0.0.0/30') as unknown as Record<string, unknown>;
    const { affinity, affinityClaimTime, ...unowned } = owned;
    const plain = storedText({ ...unowned, sequenceNumber: 10n });
    const withOwner = storedText({ ...unowned, sequenceNumber: 10n, affinity, affinityClaimTime });
    const broken = [
      plain.replace('"sequenceNumber":10', '"sequenceNumber":010'),
      plain.replace('"sequenceNumber":10', '"sequenceNumber":'),
      plain.replace('[0,1,2,3]', '[0,01,2,3]'),
      plain.replace('[0,1,2,3]', '[0,1,,3]'),
      plain.replace('[0,1,2,3]', '[0,1,2,3,]'),
      plain.replace('"cidr":"10.0.0.0/30"', ''),
      plain.replace('null,null]', 'null,nul]'),
      plain.replace('false}', 'false,}'),
      plain.replace('false}', 'fals}'),
      `${plain}}`,
      withOwner.replace('"host":"node-a"', '"host":"node-a'),
      withOwner.replace('Z"}', 'Z"'),
      withOwner.replace(',"affinityClaimTime"', ',,"affinityClaimTime"'),
    ];
    for (const text of broken) {
      expect([text, decodedOrRefused(text)]).toStrictEqual([text, 'refused']);
      expect([text, decodeFreeBlockText(text, '10.0.0.0/30')]).toStrictEqual([text, undefined]);
    }
    // Both untouched texts are read, so the cases above fail for their edit alone.
    expect(decodeFreeBlockText(plain, '10.0.0.0/30')).toStrictEqual(decodeValue('block', plain));
    expect(decodeFreeBlockText(withOwner, '10.0.0.0/30')).toStrictEqual(decodeValue('block', withOwner));
  });

  it('answers for a block with no allocation, with or without an owner, and declines any other', () => {
    const free = sampleBlock('10.0.0.0/30') as unknown as Record<string, unknown>;
    const unowned = { ...free };
    delete unowned['affinity'];
    delete unowned['affinityClaimTime'];
    for (const value of [free, unowned]) {
      const text = storedText(value);
      expect(decodeFreeBlockText(text, '10.0.0.0/30')).toStrictEqual(decodeValue('block', text));
    }
    const allocated = allocateFirst(sampleBlock('10.0.0.0/30'), 'h1') as unknown as Record<string, unknown>;
    expect(decodeFreeBlockText(storedText(allocated), '10.0.0.0/30')).toBeUndefined();
    // Under another key the CIDR is read by the parser, not taken from the key.
    expect(decodeFreeBlockText(storedText(free), '10.0.0.4/30')).toStrictEqual(decodeValue('block', storedText(free)));
    expect(decodeFreeBlockText(`${storedText(free)} `, '10.0.0.0/30')).toBeUndefined();
  });

  it('returns private arrays: changing one decoded block does not change the next', () => {
    const text = storedText(sampleBlock('10.0.0.0/30') as unknown as Record<string, unknown>);
    const first = decodeFreeBlockText(text, '10.0.0.0/30');
    (first?.['allocations'] as (number | null)[]).fill(0);
    (first?.['unallocated'] as number[]).length = 0;
    expect(decodeFreeBlockText(text, '10.0.0.0/30')).toStrictEqual(decodeValue('block', text));
  });
});

describe('SQLite paged block reads', () => {
  let ds: Datastore | undefined;
  const tmp = tempDir('free-blocks');
  afterEach(async () => {
    await ds?.close();
    ds = undefined;
  });
  afterAll(() => tmp.remove());

  it('list the same blocks and ordinals as get, for blocks with and without allocations', async () => {
    const path = join(tmp.dir, 'free-blocks.db');
    const writer = createSqliteDatastore({ path });
    ds = writer;
    const blocks: AllocationBlock[] = [
      sampleBlock('10.0.0.0/30'),
      allocateFirst(sampleBlock('10.0.0.4/30'), 'h1'),
      { ...sampleBlock('10.0.0.8/30'), unallocated: [3, 2, 1, 0] },
      (({ affinity: _a, affinityClaimTime: _c, ...rest }) => rest)(sampleBlock('10.0.0.12/30')),
    ];
    for (const block of blocks) await writer.blocks.create(block);
    // A new handle: the writer's decode cache would answer the reads below without decoding.
    await writer.close();
    const reader = createSqliteDatastore({ path });
    ds = reader;
    const first = await reader.blocks.listPage?.({ limit: 2 });
    const second = await reader.blocks.listPage?.({ limit: 2, continue: first?.continue ?? '' });
    const paged = [...(first?.items ?? []), ...(second?.items ?? [])];
    // Pages come in key order, which is the text order of the CIDRs.
    const keys = blocks.map((b) => b.cidr).sort();
    const got = await Promise.all(keys.map((cidr) => reader.blocks.get(cidr)));
    expect(paged).toStrictEqual(got);
    const ordinals = (await reader.blocks.listOrdinalsPage?.({ limit: 10 }))?.items;
    expect(ordinals).toStrictEqual(got.map((b) => ({ cidr: b.cidr, allocations: b.allocations, unallocated: b.unallocated })));
  });

  it('still refuse a free block written behind the datastore\'s back without a CIDR string', async () => {
    const path = join(tmp.dir, 'bad-cidr.db');
    const writer = createSqliteDatastore({ path });
    await writer.blocks.create(sampleBlock('10.0.0.0/30'));
    await writer.close();
    const raw = new Database(path);
    const text = storedText({ ...(sampleBlock('10.0.0.0/30') as unknown as Record<string, unknown>), cidr: 5 });
    raw.prepare('UPDATE blocks SET value = ? WHERE key = ?').run(text, '10.0.0.0/30');
    raw.close();
    const reader = createSqliteDatastore({ path });
    ds = reader;
    await expect(reader.blocks.listOrdinalsPage?.({ limit: 10 })).rejects.toBeInstanceOf(CodecError);
  });
});
