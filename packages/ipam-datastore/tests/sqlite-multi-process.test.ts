import { join } from 'node:path';
import { afterEach, beforeAll, describe, it } from 'vitest';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { assertDistIsFresh, expectNoLostIncrement } from './support/run-cas-children.js';
import { tempDir } from './support/temp-dir.js';

describe('sqlite shared by many processes', () => {
  const cleanups: (() => void)[] = [];
  beforeAll(() => {
    assertDistIsFresh();
  });
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  it('loses no increment when 8 processes each CAS-increment one handle 200 times', { timeout: 240_000 }, async () => {
    const tmp = tempDir('sqlite-multi');
    cleanups.push(tmp.remove);
    const path = join(tmp.dir, 'ipam.db');
    // A generous run timeout: 8 writers on 2 shared cores can queue behind each other for a while.
    await expectNoLostIncrement(createSqliteDatastore({ path }), { type: 'sqlite', path }, 200_000);
  });

  it.each(['transact', 'optimistic'] as const)(
    'loses no increment when 8 processes each increment one handle 200 times in %s bodies',
    { timeout: 240_000 },
    async (mode) => {
      // With `optimisticTransactions` each body reads without the write lock and is validated under
      // it (design/ipam-datastore.md, "Optimistic transactions"): an increment applied from a stale
      // read would be lost.
      const tmp = tempDir('sqlite-multi');
      cleanups.push(tmp.remove);
      const path = join(tmp.dir, 'ipam.db');
      await expectNoLostIncrement(createSqliteDatastore({ path }), { type: 'sqlite', path }, 200_000, mode);
    },
  );
});
