import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { startEtcd, type EtcdHandle } from '@ipamkit/test-utils';
import { afterAll, afterEach, beforeAll } from 'vitest';

/**
 * One shared store reached through several datastore handles, as separate processes (or a
 * controller beside the CLI) reach it. `handles(n)` opens n more handles on the same store.
 */
export interface RaceStore {
  readonly seed: Datastore;
  handles(n: number): Promise<Datastore[]>;
}

export interface RaceBackend {
  readonly name: string;
  /** Registers the backend's before/after hooks; call at the top of the test file. */
  setup(): void;
  open(): Promise<RaceStore>;
}

const opened: Datastore[] = [];

function track<T extends Datastore>(ds: T): T {
  opened.push(ds);
  return ds;
}

function closeAfterEach(): void {
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((ds) => ds.close().catch(() => undefined)));
  });
}

/** Memory has no second handle: separate clients on the one instance. */
export const memoryRaceBackend: RaceBackend = {
  name: 'memory',
  setup: closeAfterEach,
  open: async () => {
    const seed = track(await createDatastore({ type: 'memory' }));
    return { seed, handles: (n) => Promise.resolve(Array.from({ length: n }, () => seed)) };
  },
};

/** Separate `createDatastore` handles on one SQLite file in this process. */
export function sqliteRaceBackend(): RaceBackend {
  const dirs: string[] = [];
  return {
    name: 'sqlite',
    setup: () => {
      closeAfterEach();
      afterAll(() => {
        for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
      });
    },
    open: async () => {
      const dir = mkdtempSync(join(tmpdir(), 'ipam-core-race-'));
      dirs.push(dir);
      const path = join(dir, 'ipam.db');
      const seed = track(await createDatastore({ type: 'sqlite', path }));
      return {
        seed,
        handles: async (n) => {
          const out: Datastore[] = [];
          for (let i = 0; i < n; i += 1) out.push(track(await createDatastore({ type: 'sqlite', path })));
          return out;
        },
      };
    },
  };
}

/** Separate etcd datastore handles (one client connection each) on one key prefix of a real etcd. */
export function etcdRaceBackend(): RaceBackend {
  let etcd: EtcdHandle | undefined;
  let prefixes = 0;
  const endpoint = (): string => {
    if (etcd === undefined) throw new Error('etcd not started');
    return etcd.endpoint;
  };
  return {
    name: 'etcd',
    setup: () => {
      beforeAll(async () => {
        etcd = await startEtcd();
      }, 60_000);
      closeAfterEach();
      afterAll(async () => {
        await etcd?.stop();
      }, 30_000);
    },
    open: async () => {
      prefixes += 1;
      const prefix = `/race-${process.pid}-${prefixes}`;
      const seed = track(await createDatastore({ type: 'etcd', endpoints: [endpoint()], prefix }));
      return {
        seed,
        handles: async (n) => Promise.all(Array.from({ length: n }, async () => track(await createDatastore({ type: 'etcd', endpoints: [endpoint()], prefix })))),
      };
    },
  };
}
