import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Datastore } from '@ipamkit/models';
import { sampleAffinity } from '@ipamkit/test-utils';
import { createMemoryDatastore } from '../src/memory/index.js';
import { createSqliteDatastore } from '../src/sqlite/index.js';
import { tempDir } from './support/temp-dir.js';

type Command =
  | { op: 'createHandle'; id: string; count: number }
  | { op: 'updateHandle'; id: string; count: number; revision: 'current' | number }
  | { op: 'deleteHandle'; id: string; revision: 'current' | number }
  | { op: 'createAffinity'; host: string; cidr: string; type: 'host' | 'virtual' }
  | { op: 'softDeleteAffinity'; host: string; cidr: string; type: 'host' | 'virtual' }
  | { op: 'listAffinities'; host?: string | undefined; ipVersion?: 4 | 6 | undefined };

const id = fc.constantFrom('h1', 'H1', 'h2');
const revision = fc.oneof(fc.constant('current' as const), fc.integer({ min: 0, max: 12 }));
const host = fc.constantFrom('node-a', 'node-b');
const cidr = fc.constantFrom('10.0.0.0/30', '10.0.0.4/30', 'fd00::/126');
const type = fc.constantFrom('host' as const, 'virtual' as const);
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ op: fc.constant('createHandle' as const), id, count: fc.nat(5) }),
  fc.record({ op: fc.constant('updateHandle' as const), id, count: fc.nat(5), revision }),
  fc.record({ op: fc.constant('deleteHandle' as const), id, revision }),
  fc.record({ op: fc.constant('createAffinity' as const), host, cidr, type }),
  fc.record({ op: fc.constant('softDeleteAffinity' as const), host, cidr, type }),
  fc.record({ op: fc.constant('listAffinities' as const), host: fc.option(host, { nil: undefined }), ipVersion: fc.option(fc.constantFrom(4 as const, 6 as const), { nil: undefined }) }, { requiredKeys: ['op'] }),
);

/** Runs `c` and describes the outcome: the value returned, or the error class that was thrown. */
async function apply(ds: Datastore, c: Command): Promise<unknown> {
  const rev = async (r: 'current' | number, current: () => Promise<{ revision: string }>) =>
    r === 'current' ? (await current().catch(() => ({ revision: '1' }))).revision : String(r);
  try {
    switch (c.op) {
      case 'createHandle':
        return await ds.handles.create({ handleId: c.id, block: { '10.0.0.0/30': c.count }, deleted: false });
      case 'updateHandle': {
        const r = await rev(c.revision, () => ds.handles.get(c.id));
        return await ds.handles.update({ handleId: c.id, block: { '10.0.0.0/30': c.count }, deleted: false, revision: r });
      }
      case 'deleteHandle': {
        const r = await rev(c.revision, () => ds.handles.get(c.id));
        await ds.handles.delete({ handleId: c.id, block: {}, deleted: false, revision: r });
        return 'deleted';
      }
      case 'createAffinity':
        return await ds.affinities.create(sampleAffinity(c.host, c.cidr, c.type));
      case 'softDeleteAffinity': {
        const current = await ds.affinities.get({ host: c.host, type: c.type, cidr: c.cidr });
        return await ds.affinities.update({ ...current, deleted: true });
      }
      case 'listAffinities':
        return await ds.affinities.list({ ...(c.host === undefined ? {} : { host: c.host }), ...(c.ipVersion === undefined ? {} : { ipVersion: c.ipVersion }) });
    }
  } catch (err) {
    return (err as Error).name;
  }
}

describe('memory and sqlite backends', () => {
  it('agree on the outcome and revision of every operation in any sequence', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 25 }), async (commands) => {
        const tmp = tempDir('agree');
        const memory = createMemoryDatastore();
        const sqlite = createSqliteDatastore({ path: join(tmp.dir, 'ipam.db') });
        try {
          for (const c of commands) expect(await apply(sqlite, c)).toEqual(await apply(memory, c));
          expect(await sqlite.handles.listWithRevision()).toEqual(await memory.handles.listWithRevision());
          expect(await sqlite.affinities.listWithRevision()).toEqual(await memory.affinities.listWithRevision());
        } finally {
          await Promise.all([memory.close(), sqlite.close()]);
          tmp.remove();
        }
      }),
      { numRuns: 40 },
    );
  });
});
