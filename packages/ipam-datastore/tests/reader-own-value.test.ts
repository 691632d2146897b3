import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { DatastoreTx, Datastore } from '@ipamkit/models';
import { sampleBlock, sampleHandle } from '@ipamkit/test-utils';
import { kindReader } from '../src/engine/engine-stores.js';
import type { ReadEngine } from '../src/engine/cas-ops.js';
import type { StoredRow } from '../src/engine/row-engine.js';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { cleanupsAfterEach, tempDir } from './support/temp-dir.js';

// A read hands its reader the row's own value with the revision added when the engine says the
// value is the reader's alone (`StoredRow.ownValue`), and a copy otherwise (design/ipam-core.md,
// "Allocation cost: the ninth round (2026-12-02)").

function engineOf(row: StoredRow): ReadEngine {
  return { getRow: () => row, listRows: () => [row] };
}

describe('kindReader', () => {
  it('adds the revision to a value the row owns, without copying it', () => {
    const value: Record<string, unknown> = { name: 'n' };
    const reader = kindReader<{ name: string }>({ engine: engineOf({ key: 'n', revision: 7n, value, ownValue: true }) }, 'node');
    const read = reader.get('n');
    expect(read).toBe(value);
    expect(read).toEqual({ name: 'n', revision: '7' });
  });

  it('copies a value the row does not own, and leaves it as it was', () => {
    const value: Record<string, unknown> = { name: 'n' };
    const reader = kindReader<{ name: string }>({ engine: engineOf({ key: 'n', revision: 7n, value }) }, 'node');
    for (const read of [reader.get('n'), ...reader.list()]) {
      expect(read).not.toBe(value);
      expect(read).toEqual({ name: 'n', revision: '7' });
    }
    expect(value).toEqual({ name: 'n' });
  });
});

describe('sqlite reads own their values', () => {
  const cleanups = cleanupsAfterEach();

  function open(): Datastore {
    const tmp = tempDir('sqlite-own-value');
    cleanups.push(tmp.remove);
    const ds = createSqliteDatastore({ path: join(tmp.dir, 'ipam.db') });
    cleanups.push(() => ds.close());
    return ds;
  }

  it('gives every reader a value of its own: what one changes no later reader sees', async () => {
    const ds = open();
    await ds.handles.create(sampleHandle('h1'));
    await ds.blocks.create(sampleBlock('10.0.0.0/30'));
    const transact = ds.transact;
    if (transact === undefined) throw new Error('sqlite transacts');
    const [first, second] = [await ds.handles.get('h1'), await ds.handles.get('h1')];
    expect(first).not.toBe(second);
    first.block['10.9.9.0/30'] = 9;
    for (const listed of await ds.handles.list()) listed.block['10.8.8.0/30'] = 8;
    const inTx = await transact(async (tx: DatastoreTx) => {
      const handle = await tx.handles.get('h1');
      const block = await tx.blocks.get('10.0.0.0/30');
      handle.block['10.7.7.0/30'] = 7;
      block.allocations[0] = 0;
      return [await tx.handles.get('h1'), await tx.blocks.get('10.0.0.0/30')] as const;
    });
    expect(inTx[0]).toEqual({ ...sampleHandle('h1'), revision: second.revision });
    expect(inTx[1].allocations[0]).toBeNull();
    expect(await ds.handles.get('h1')).toEqual(second);
    expect((await ds.blocks.get('10.0.0.0/30')).allocations[0]).toBeNull();
  });
});
