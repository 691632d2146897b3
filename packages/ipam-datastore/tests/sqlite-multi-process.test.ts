import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { assertDistIsFresh, runCasCounterChildren } from './support/run-cas-children.js';
import { tempDir } from './support/temp-dir.js';

const PROCESSES = 8;
const ITERATIONS = 200;
const CIDR = '10.0.0.0/26';

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
    const ds = createSqliteDatastore({ path });
    try {
      await ds.handles.create({ handleId: 'counter', block: { [CIDR]: 0 }, deleted: false });
      // A generous busy timeout: 8 writers on 2 shared cores can queue behind each other for a while.
      const results = await runCasCounterChildren({
        config: { type: 'sqlite', path },
        handleId: 'counter',
        cidr: CIDR,
        processes: PROCESSES,
        iterations: ITERATIONS,
        timeoutMs: 200_000,
      });
      expect(results.map((r) => [r.exitCode, r.stderr])).toEqual(results.map(() => [0, '']));
      const reported = results.map((r) => (JSON.parse(r.stdout) as { increments: number }).increments);
      expect(reported).toEqual(Array.from({ length: PROCESSES }, () => ITERATIONS));
      expect((await ds.handles.get('counter')).block[CIDR]).toBe(1_600);
    } finally {
      await ds.close();
    }
  });
});
