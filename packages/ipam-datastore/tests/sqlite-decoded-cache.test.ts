import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleBlock } from '@ipamkit/test-utils';
import { copyDecoded, DecodedValueCache } from '../src/sqlite/decoded-value-cache.js';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { encodeValue } from '../src/sqlite/row-codec.js';
import { tempDir } from './support/temp-dir.js';

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

describe('copyDecoded', () => {
  it('keeps a __proto__ key as an own data property and bigints as they are', () => {
    const copy = copyDecoded(JSON.parse('{"__proto__":{"x":1},"n":[null,true,"s"]}')) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'n']);
    expect(copy.__proto__).toEqual({ x: 1 });
    expect(copyDecoded({ seq: 2n ** 64n })).toEqual({ seq: 2n ** 64n });
  });
});

describe('sqlite reads after a write behind the datastore’s back', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

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
