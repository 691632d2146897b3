import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AllocationAttribute, ConflictError, type Datastore, type DatastoreTx } from '@ipamkit/models';
import { allocateFirst, sampleBlock, sampleHandle } from '@ipamkit/test-utils';
import type { KindName } from '../src/engine/kinds.js';
import { decodedAsIs, decodedCopy, frozenAttributeText } from '../src/sqlite/decoded-copy.js';
import { DecodedValueCache } from '../src/sqlite/decoded-value-cache.js';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { decodeValue, encodeExact, encodeValue } from '../src/sqlite/row-codec.js';
import { cleanupsAfterEach, tempDir } from './support/temp-dir.js';

describe('DecodedValueCache', () => {
  it('returns a fresh copy on every hit, so a caller cannot change what the next caller reads', () => {
    const cache = new DecodedValueCache(4);
    const text = '{"name":"p","labels":{"a":"1"},"list":[1,{"b":2}]}';
    const first = cache.decode('ipPool', 'p', text);
    (first['labels'] as Record<string, string>)['a'] = 'changed';
    const second = cache.decode('ipPool', 'p', text);
    expect(second).toEqual({ name: 'p', labels: { a: '1' }, list: [1, { b: 2 }] });
    expect(second).not.toBe(cache.decode('ipPool', 'p', text));
  });

  it('decodes again when the stored text differs, whatever the revision', () => {
    const cache = new DecodedValueCache(4);
    expect(cache.decode('ipPool', 'p', '{"name":"p","blockSize":26}')).toEqual({ name: 'p', blockSize: 26 });
    expect(cache.decode('ipPool', 'p', '{"name":"p","blockSize":24}')).toEqual({ name: 'p', blockSize: 24 });
  });

  it('keeps at most its capacity of rows', () => {
    const cache = new DecodedValueCache(2);
    for (const name of ['a', 'b', 'c', 'a']) expect(cache.decode('node', name, `{"name":"${name}"}`)).toEqual({ name });
  });
});

describe('DecodedValueCache.seed', () => {
  it('answers a seeded row from the seed, with a fresh copy each time', () => {
    const cache = new DecodedValueCache(4);
    // A seed that differs from what the text decodes to shows that the hit did not parse.
    const seeded = { name: 'a', labels: { from: 'seed' } };
    cache.seed('node', 'a', '{"name":"a"}', seeded);
    const first = cache.decode('node', 'a', '{"name":"a"}');
    expect(first).toEqual({ name: 'a', labels: { from: 'seed' } });
    expect(first).not.toBe(seeded);
    (first['labels'] as Record<string, string>)['from'] = 'caller';
    expect(cache.decode('node', 'a', '{"name":"a"}')).toEqual({ name: 'a', labels: { from: 'seed' } });
    expect(cache.decode('node', 'a', '{"name":"b"}')).toEqual({ name: 'b' });
  });
});

describe('DecodedValueCache.take', () => {
  it('hands over the value a write seeded, once, and forgets it', () => {
    const cache = new DecodedValueCache(4);
    // A seed that differs from what the text decodes to shows where a value came from.
    const seeded = { name: 'a', labels: { from: 'seed' } };
    cache.seed('node', 'a', '{"name":"a"}', seeded);
    expect(cache.take('node', 'a', '{"name":"a"}')).toBe(seeded);
    seeded.labels.from = 'the taker';
    expect(cache.take('node', 'a', '{"name":"a"}')).toEqual({ name: 'a' });
  });

  it('copies a decoded entry and keeps it, so a row read and not written is not decoded again', () => {
    const cache = new DecodedValueCache(4);
    const first = cache.take('node', 'b', '{"name":"b"}');
    first['name'] = 'changed';
    const second = cache.take('node', 'b', '{"name":"b"}');
    const third = cache.take('node', 'b', '{"name":"b"}');
    expect(second).toEqual({ name: 'b' });
    expect(third).toEqual({ name: 'b' });
    expect(third).not.toBe(second);
  });
});

describe('transaction reads', () => {
  it('leaves stored blocks as they were when a transaction changes the block it read', async () => {
    const tmp = tempDir('sqlite-take');
    const ds = createSqliteDatastore({ path: join(tmp.dir, 'ipam.db') });
    try {
      const created = await ds.blocks.create(allocateFirst(sampleBlock('10.0.0.0/30'), 'h1'));
      const transact = ds.transact;
      if (transact === undefined) throw new Error('sqlite has transact');
      for (let i = 0; i < 2; i++) {
        const read = await transact((tx) => tx.blocks.get('10.0.0.0/30'));
        read.allocations[0] = 3;
        read.attributes.push({ handleId: 'intruder' });
        read.sequenceNumberForAllocation['0'] = 99n;
      }
      expect(await transact((tx) => tx.blocks.get('10.0.0.0/30'))).toEqual(created);
      expect(await ds.blocks.get('10.0.0.0/30')).toEqual(created);
    } finally {
      await ds.close();
      tmp.remove();
    }
  });
});

describe('frozen attributes', () => {
  const frozen = (a: AllocationAttribute): AllocationAttribute => {
    if (a.activeOwnerAttrs !== undefined) Object.freeze(a.activeOwnerAttrs);
    return Object.freeze(a);
  };

  it('are shared by a copy, their text reused, and never changed through a transaction read', async () => {
    const attribute = frozen({ handleId: 'h1', activeOwnerAttrs: { namespace: 'default', pod: 'p' } });
    const loose = { handleId: 'h2', activeOwnerAttrs: Object.freeze({ pod: 'q' }) };
    const block = { ...sampleBlock('10.0.0.0/30'), allocations: [0, 1, null, null], attributes: [attribute, loose] };
    const copy = decodedCopy('block', block);
    const attributes = copy?.['attributes'] as unknown[];
    expect(attributes[0]).toBe(attribute);
    expect(frozenAttributeText(attribute)).toBe(JSON.stringify(attribute));
    // Only an attribute frozen with its owner maps is shared; the loose one is copied.
    expect(attributes[1]).not.toBe(loose);
    expect(frozenAttributeText(loose)).toBeUndefined();
    expect(encodeExact('block', copy ?? {})).toBe(encodeValue(block as unknown as Record<string, unknown>));

    const tmp = tempDir('sqlite-frozen');
    const ds = createSqliteDatastore({ path: join(tmp.dir, 'ipam.db') });
    try {
      const created = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
      const written = { ...block, revision: created.revision };
      await transact(ds, (tx) => Promise.resolve(tx.write({ kind: 'block', op: 'update', value: written })));
      const stored = await ds.blocks.get('10.0.0.0/30');
      // The transaction's read takes the value the write left: its attribute is the frozen one.
      await expect(
        transact(ds, async (tx) => {
          const read = await tx.blocks.get('10.0.0.0/30');
          expect(read.attributes[0]).toBe(attribute);
          Object.assign(read.attributes[0] ?? {}, { handleId: 'changed' });
        }),
      ).rejects.toBeInstanceOf(TypeError);
      expect(await ds.blocks.get('10.0.0.0/30')).toStrictEqual(stored);
      expect(await transact(ds, (tx) => tx.blocks.get('10.0.0.0/30'))).toStrictEqual(stored);
      expect(stored.attributes[0]).toStrictEqual({ handleId: 'h1', activeOwnerAttrs: { namespace: 'default', pod: 'p' } });
    } finally {
      await ds.close();
      tmp.remove();
    }
  });
});

// Values that round-trip exactly and values the codec changes (unsafe integers as numbers, small
// bigints, -0, undefined members and items, holes, Dates, Maps).
const roundTripValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constant(null),
    fc.constant(undefined),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.constantFrom(-0, 2 ** 53, -(2 ** 60), 1e21),
    fc.bigInt({ min: -(1n << 70n), max: 1n << 70n }),
    fc.bigInt({ min: -(1n << 20n), max: 1n << 20n }),
    fc.string({ unit: 'binary' }),
    fc.constant(new Date(Date.UTC(2026, 0, 2))),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(tie('value'), { maxLength: 3 }).map((items) => {
      const holey = new Array<unknown>(items.length + 1);
      items.forEach((item, i) => (holey[i + 1] = item));
      return holey;
    }),
    fc.dictionary(fc.constantFrom('__proto__', '0', '10', 'a', 'b', 'toJSON'), tie('value'), { maxKeys: 3 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
    fc.array(fc.tuple(fc.string(), tie('value')), { maxLength: 2 }).map((entries) => new Map(entries)),
  ),
})).value;

// Owner maps and attributes shaped as the core writes them, and near misses (attributesCopy).
const ownerMap = fc.dictionary(fc.constantFrom('__proto__', '0', '10', 'pod', 'toJSON'), fc.oneof(fc.string(), fc.string(), roundTripValue), { maxKeys: 3 });
const attributeLike = fc.record(
  {
    handleId: fc.oneof(fc.string(), fc.string(), roundTripValue),
    activeOwnerAttrs: fc.oneof(ownerMap, ownerMap, roundTripValue),
    alternateOwnerAttrs: ownerMap,
    releasedAt: fc.oneof(fc.string(), fc.constant(undefined)),
    other: fc.string(),
  },
  { requiredKeys: [] },
);

const blockLike = fc.record({
  cidr: fc.constant('10.0.0.0/30'),
  allocations: fc.array(fc.option(fc.nat(3)), { maxLength: 4 }),
  unallocated: fc.array(fc.nat(3), { maxLength: 4 }),
  attributes: fc.oneof(fc.array(roundTripValue, { maxLength: 2 }), fc.array(attributeLike, { maxLength: 3 })),
  sequenceNumber: fc.oneof(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), fc.integer()),
  sequenceNumberForAllocation: fc.dictionary(fc.constantFrom('0', '1', '2', '63', '4095', '12345678901', '', '__proto__', 'a"b', '1\\n', '٣'), fc.oneof(fc.bigInt({ min: 0n, max: 1n << 64n }), fc.nat())),
  deleted: fc.boolean(),
});

/** The decoded value, with key order made visible (toStrictEqual ignores it). */
const shape = (value: Record<string, unknown>): unknown => [value, encodeValue(value)];

describe('decodedCopy', () => {
  it('is what decoding the written text gives, whenever it answers', () => {
    const cases = fc.oneof(
      fc.tuple(fc.constant<KindName>('block'), blockLike),
      fc.tuple(fc.constantFrom<KindName>('node', 'handle', 'ipPool'), fc.dictionary(fc.string(), roundTripValue, { maxKeys: 5 })),
    );
    let answered = 0;
    fc.assert(
      fc.property(cases, ([kind, value]) => {
        const copy = decodedCopy(kind, value);
        if (copy === undefined) return;
        answered++;
        expect(shape(copy)).toStrictEqual(shape(decodeValue(kind, encodeValue(value as Record<string, unknown>))));
      }),
      { numRuns: 1500 },
    );
    expect(answered).toBeGreaterThan(100);
  });

  it('copies attributes shaped as the core writes them as decoding would, and declines near misses', () => {
    // Some attributes frozen, some with their owner maps: frozen ones of the right shape are shared.
    const maybeFrozen = fc.tuple(attributeLike, fc.constantFrom('no', 'shallow', 'deep')).map(([a, how]) => {
      if (how === 'deep') for (const map of [a.activeOwnerAttrs, a.alternateOwnerAttrs]) if (typeof map === 'object' && map !== null) Object.freeze(map);
      return how === 'no' ? a : Object.freeze(a);
    });
    const block = fc.record({
      cidr: fc.constant('10.0.0.0/30'),
      attributes: fc.array(maybeFrozen, { minLength: 1, maxLength: 3 }),
      sequenceNumber: fc.bigInt({ min: 0n, max: 1n << 64n }),
      sequenceNumberForAllocation: fc.constant({ '0': 1n }),
    });
    let answered = 0;
    fc.assert(
      fc.property(block, (value) => {
        const copy = decodedCopy('block', value);
        if (copy === undefined) return;
        answered++;
        expect(shape(copy)).toStrictEqual(shape(decodeValue('block', encodeValue(value))));
        // The native writer refuses a bigint elsewhere (undefined): the lossless writer is used then.
        expect(encodeExact('block', copy) ?? encodeValue(copy)).toBe(encodeValue(value));
        (copy['attributes'] as unknown[]).forEach((a, i) => expect(a === value.attributes[i]).toBe(Object.isFrozen(a) && frozenAttributeText(a) !== undefined));
      }),
      { numRuns: 1500 },
    );
    expect(answered).toBeGreaterThan(100);
  });

  it('answers for the values the core writes, as private copies', () => {
    const block = allocateFirst(sampleBlock('10.0.0.0/30'), 'h1') as unknown as Record<string, unknown>;
    const copy = decodedCopy('block', block);
    expect(copy).toStrictEqual(decodeValue('block', encodeValue(block)));
    expect(copy?.['attributes']).not.toBe(block['attributes']);
    expect(decodedCopy('handle', sampleHandle('h1') as unknown as Record<string, unknown>)).toStrictEqual(sampleHandle('h1'));
  });

  it('declines what the round trip changes', () => {
    expect(decodedCopy('node', { name: 'n', at: new Date(0) })).toBeUndefined();
    expect(decodedCopy('node', { name: 'n', gone: undefined })).toBeUndefined();
    expect(decodedCopy('node', { name: 'n', small: 5n })).toBeUndefined();
    expect(decodedCopy('node', { name: 'n', unsafe: 2 ** 60 })).toBeUndefined();
    expect(decodedCopy('block', { ...sampleBlock('10.0.0.0/30'), sequenceNumber: 1 })).toBeUndefined();
  });
});

describe('decodedAsIs', () => {
  it('answers with the value itself exactly when it already is what decoding its text gives', () => {
    const cases = fc.oneof(
      fc.tuple(fc.constant<KindName>('block'), blockLike),
      fc.tuple(fc.constantFrom<KindName>('node', 'handle', 'ipPool'), fc.dictionary(fc.string(), roundTripValue, { maxKeys: 5 })),
    );
    let answered = 0;
    fc.assert(
      fc.property(cases, ([kind, value]) => {
        const record = value as Record<string, unknown>;
        const asIs = decodedAsIs(kind, record);
        if (asIs === undefined) return;
        answered++;
        expect(asIs).toBe(record);
        expect(shape(asIs)).toStrictEqual(shape(decodeValue(kind, encodeValue(record))));
      }),
      // About one case in twelve is answered as is: 3,000 runs keep the count well above 100 (1,500 fell
      // under it now and then, a flaky guard).
      { numRuns: 3000 },
    );
    expect(answered).toBeGreaterThan(100);
  });

  it('answers for the values the core writes, without copying them', () => {
    const block = allocateFirst(sampleBlock('10.0.0.0/30'), 'h1') as unknown as Record<string, unknown>;
    expect(decodedAsIs('block', block)).toBe(block);
    expect(decodedAsIs('block', { ...block, sequenceNumber: 1 })).toBeUndefined();
    expect(decodedAsIs('node', Object.assign(Object.create(null) as Record<string, unknown>, { name: 'n' }))).toBeUndefined();
    expect(decodedAsIs('node', { name: 'n', small: 5n })).toBeUndefined();
  });
});

describe('encodeExact', () => {
  it('writes the lossless text byte for byte for every value the decode cache accepts', () => {
    const cases = fc.oneof(
      fc.tuple(fc.constant<KindName>('block'), blockLike),
      fc.tuple(fc.constantFrom<KindName>('node', 'handle', 'ipPool'), fc.dictionary(fc.string(), roundTripValue, { maxKeys: 5 })),
    );
    let answered = 0;
    fc.assert(
      fc.property(cases, ([kind, value]) => {
        const record = value as Record<string, unknown>;
        if (decodedCopy(kind, record) === undefined) return;
        const text = encodeExact(kind, record);
        if (text === undefined) return;
        answered++;
        expect(text).toBe(encodeValue(record));
      }),
      { numRuns: 2000 },
    );
    expect(answered).toBeGreaterThan(100);
  });

  it('writes a block the core wrote as the lossless writer does, and declines a bigint it cannot write', () => {
    const block = allocateFirst(sampleBlock('10.0.0.0/30'), 'h1') as unknown as Record<string, unknown>;
    expect(encodeExact('block', block)).toBe(encodeValue(block));
    expect(encodeExact('node', { name: 'n', big: 1n << 60n })).toBeUndefined();
  });

  it('writes a full block’s per-ordinal sequence numbers as the lossless writer does', () => {
    // 64 ordinals' keys (one to two digits) and time-seeded numbers above 2^53, and an empty map.
    const base = 1_764_612_345_678_901_234n;
    for (let round = 0; round < 20; round++) {
      const block: Record<string, unknown> = { ...sampleBlock('10.0.0.0/26'), sequenceNumber: base + BigInt(round * 64) };
      const perOrdinal: Record<string, bigint> = {};
      for (let ordinal = 0; ordinal < 64; ordinal++) perOrdinal[String(ordinal)] = base + BigInt(round * 64 + ((ordinal * 7) % 97));
      block['sequenceNumberForAllocation'] = perOrdinal;
      const lossless = encodeValue(block);
      expect(encodeExact('block', block)).toBe(lossless);
    }
    expect(encodeExact('block', { ...sampleBlock('10.0.0.0/26'), sequenceNumber: -5n, sequenceNumberForAllocation: {} })).toBe(
      encodeValue({ ...sampleBlock('10.0.0.0/26'), sequenceNumber: -5n, sequenceNumberForAllocation: {} }),
    );
  });
});

describe('sqlite reads after a write behind the datastore’s back', () => {
  const cleanups = cleanupsAfterEach();

  it('see the new row even when another writer kept the revision', async () => {
    const tmp = tempDir('sqlite-cache');
    cleanups.push(tmp.remove);
    const path = join(tmp.dir, 'ipam.db');
    const ds = createSqliteDatastore({ path, pollIntervalMs: 20 });
    cleanups.push(() => ds.close());
    const created = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
    expect((await ds.blocks.get('10.0.0.0/30')).allocations).toEqual(created.allocations);
    const { revision: _revision, ...value } = created;
    const db = new Database(path);
    db.prepare('UPDATE blocks SET value = ? WHERE key = ?').run(encodeValue({ ...value, allocations: [0, null, null, null] }), '10.0.0.0/30');
    db.close();
    const read = await ds.blocks.get('10.0.0.0/30');
    expect(read.revision).toBe(created.revision);
    expect(read.allocations).toEqual([0, null, null, null]);
  });
});

function transact<R>(ds: Datastore, body: (tx: DatastoreTx) => Promise<R>): Promise<R> {
  if (ds.transact === undefined) throw new Error('the backend has no transactions');
  return ds.transact(body);
}

describe('sqlite reads after this connection wrote the row', () => {
  const cleanups = cleanupsAfterEach();

  function open() {
    const tmp = tempDir('sqlite-seed');
    cleanups.push(tmp.remove);
    const ds = createSqliteDatastore({ path: join(tmp.dir, 'ipam.db'), pollIntervalMs: 20 });
    cleanups.push(() => ds.close());
    return ds;
  }

  it('return equal values that no caller shares, whatever the writer and readers mutate', async () => {
    const ds = open();
    const input = allocateFirst(sampleBlock('10.0.0.0/30'), 'h1');
    const created = await ds.blocks.create(input);
    input.attributes.push({ handleId: 'input', activeOwnerAttrs: {} });
    created.attributes.push({ handleId: 'created', activeOwnerAttrs: {} });
    const first = await ds.blocks.get('10.0.0.0/30');
    const second = await ds.blocks.get('10.0.0.0/30');
    expect(first).toStrictEqual({ ...allocateFirst(sampleBlock('10.0.0.0/30'), 'h1'), revision: created.revision });
    expect(second).toStrictEqual(first);
    expect(second.attributes).not.toBe(first.attributes);
    Object.assign(first.attributes[0]?.activeOwnerAttrs ?? {}, { pod: 'changed' });
    first.sequenceNumberForAllocation['0'] = 99n;
    expect(await ds.blocks.get('10.0.0.0/30')).toStrictEqual(second);
  });

  it('see the old row after a transaction rolled back a write it had already applied', async () => {
    const ds = open();
    const a = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
    const b = await ds.blocks.create(sampleBlock('10.0.0.4/30'));
    await ds.blocks.update(b);
    // The write of `a` is applied (and its row seeded) before the stale write of `b` fails.
    await expect(
      transact(ds, (tx) => {
        tx.write({ kind: 'block', op: 'update', value: { ...allocateFirst(a, 'h1'), revision: a.revision } });
        tx.write({ kind: 'block', op: 'update', value: b });
        return Promise.resolve();
      }),
    ).rejects.toBeInstanceOf(ConflictError);
    expect(await ds.blocks.get('10.0.0.0/30')).toStrictEqual(a);
    const updated = await ds.blocks.update({ ...allocateFirst(a, 'h2'), revision: a.revision });
    expect((await ds.blocks.get('10.0.0.0/30')).attributes).toEqual([{ handleId: 'h2', activeOwnerAttrs: { namespace: 'default', pod: 'pod-1' } }]);
    expect((await ds.blocks.get('10.0.0.0/30')).revision).toBe(updated.revision);
  });
});
