import { describe, expect, it } from 'vitest';
import { WatchExpiredError } from '@ipamkit/models';
import { collectEvents, sampleBlock, sampleHandle } from '@ipamkit/test-utils';
import { DatastoreClosedError } from '../src/errors.js';
import { createMemoryDatastore } from '../src/memory/index.js';

describe('createMemoryDatastore', () => {
  it('never shares objects with callers: mutating a result leaves the store unchanged', async () => {
    const ds = createMemoryDatastore();
    const handle = sampleHandle('h1');
    const created = await ds.handles.create(handle);
    handle.block['10.9.9.9/30'] = 9;
    created.block['10.8.8.8/30'] = 8;
    expect((await ds.handles.get('h1')).block).toEqual({ '10.0.0.0/30': 1 });
    await ds.close();
  });

  it('expires a watch from a revision the change log no longer holds', async () => {
    const ds = createMemoryDatastore({ changeLogRetention: 2 });
    for (const name of ['a', 'b', 'c', 'd']) await ds.nodes.create({ name });
    const abort = new AbortController();
    await expect(collectEvents(ds.nodes.watch({ fromRevision: '0', signal: abort.signal }), 1, 5_000)).rejects.toBeInstanceOf(WatchExpiredError);
    const recent = await collectEvents(ds.nodes.watch({ fromRevision: '2', signal: abort.signal }), 2, 5_000);
    expect(recent.map((e) => e.key)).toEqual(['c', 'd']);
    abort.abort();
    await ds.close();
  });

  it('refuses every call after close with DatastoreClosedError', async () => {
    const ds = createMemoryDatastore();
    await ds.close();
    await expect(ds.blocks.create(sampleBlock('10.0.0.0/30'))).rejects.toBeInstanceOf(DatastoreClosedError);
    await expect(ds.ipPools.list()).rejects.toBeInstanceOf(DatastoreClosedError);
  });
});
