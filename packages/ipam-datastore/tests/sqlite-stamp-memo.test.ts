import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Datastore, StampTarget } from '@ipamkit/models';
import { sampleAffinity, sampleBlock, sampleHandle } from '@ipamkit/test-utils';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { cleanupsAfterEach, tempDir } from './support/temp-dir.js';

// SQLite reuses a stamp read earlier on the same connection while `PRAGMA data_version` and the
// connection's own writes of the kind prove it current (design/ipam-datastore.md, "Version
// stamps"). Each case compares the reusing connection's stamp with the one a second connection
// reads from the table at the same moment: a reused stamp that missed a change would differ.

const cleanups = cleanupsAfterEach();

const POOLS: StampTarget = { kind: 'ipPools' };
const NODE: StampTarget = { kind: 'node', name: 'node-a' };
const AFFINITIES: StampTarget = { kind: 'affinities', host: 'node-a', type: 'host', ipVersion: 4 };
const TARGETS = [POOLS, NODE, AFFINITIES];

async function stamps(ds: Datastore): Promise<string[]> {
  if (ds.transact === undefined) throw new Error('sqlite has transact');
  return await ds.transact((tx) => Promise.all(TARGETS.map((t) => tx.stamps.get(t))));
}

function twoHandles(): { mine: Datastore; other: Datastore } {
  const tmp = tempDir('stamp-memo');
  cleanups.push(tmp.remove);
  const path = join(tmp.dir, 'ipam.db');
  const mine = createSqliteDatastore({ path });
  const other = createSqliteDatastore({ path });
  cleanups.push(() => mine.close(), () => other.close());
  return { mine, other };
}

describe('sqlite stamps reused on one connection', () => {
  it('move when another connection commits, and equal a fresh read every time', async () => {
    const { mine, other } = twoHandles();
    await mine.ipPools.create({ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 30 });
    const first = await stamps(mine);
    expect(await stamps(mine)).toEqual(first);
    expect(await stamps(other)).toEqual(first);

    await other.ipPools.create({ name: 'pool-b', cidr: '10.1.0.0/24', blockSize: 30 });
    const afterPool = await stamps(mine);
    expect(afterPool[0]).not.toBe(first[0]);
    expect(afterPool).toEqual(await stamps(other));

    await other.nodes.create({ name: 'node-a' });
    await other.affinities.create(sampleAffinity('node-a', '10.0.0.0/30'));
    const afterNode = await stamps(mine);
    expect(afterNode[1]).not.toBe(afterPool[1]);
    expect(afterNode[2]).not.toBe(afterPool[2]);
    expect(afterNode).toEqual(await stamps(other));
  });

  it('move on this connection’s own writes of the kind, in a store call or a transaction, and only then', async () => {
    const { mine, other } = twoHandles();
    await mine.nodes.create({ name: 'node-a' });
    const start = await stamps(mine);

    // Another kind written by this connection: no stamp moves.
    await mine.blocks.create(sampleBlock('10.0.0.0/30'));
    expect(await stamps(mine)).toEqual(start);

    await mine.ipPools.create({ name: 'pool-a', cidr: '10.0.0.0/24', blockSize: 30 });
    const afterPool = await stamps(mine);
    expect(afterPool[0]).not.toBe(start[0]);
    expect(afterPool.slice(1)).toEqual(start.slice(1));

    if (mine.transact === undefined) throw new Error('sqlite has transact');
    await mine.transact((tx) => {
      tx.write({ op: 'create', kind: 'affinity', value: sampleAffinity('node-a', '10.0.0.0/30') });
      return Promise.resolve();
    });
    const afterAffinity = await stamps(mine);
    expect(afterAffinity[2]).not.toBe(afterPool[2]);
    expect(afterAffinity).toEqual(await stamps(other));
  });

  it('stay right after a transaction whose writes were rolled back', async () => {
    const { mine, other } = twoHandles();
    const start = await stamps(mine);
    if (mine.transact === undefined) throw new Error('sqlite has transact');
    // The affinity is written, then the handle update fails (no such handle): all rolled back.
    await expect(
      mine.transact((tx) => {
        tx.write({ op: 'create', kind: 'affinity', value: sampleAffinity('node-a', '10.0.0.0/30') });
        tx.write({ op: 'update', kind: 'handle', value: { ...sampleHandle('absent'), revision: '1' } });
        return Promise.resolve();
      }),
    ).rejects.toThrow();
    expect(await stamps(mine)).toEqual(start);
    expect(await stamps(other)).toEqual(start);
  });
});
