import { afterAll, beforeAll } from 'vitest';
import { startEtcd, type EtcdHandle, type StartEtcdOptions } from './start-etcd.js';

/** Access to the suite's etcd; valid inside tests and hooks that run after `beforeAll`. */
export interface EtcdFixture {
  readonly endpoint: string;
  readonly handle: EtcdHandle;
}

/**
 * Starts one real etcd for the enclosing vitest suite (beforeAll) and stops it afterwards
 * (afterAll). Call at the top of a `describe` or a test file.
 */
export function withEtcd(options: StartEtcdOptions = {}): EtcdFixture {
  let handle: EtcdHandle | undefined;
  beforeAll(async () => {
    handle = await startEtcd(options);
  }, 60_000);
  afterAll(async () => {
    await handle?.stop();
  }, 30_000);
  const current = (): EtcdHandle => {
    if (handle === undefined) throw new Error('withEtcd: etcd is only available after beforeAll has run');
    return handle;
  };
  return {
    get endpoint(): string {
      return current().endpoint;
    },
    get handle(): EtcdHandle {
      return current();
    },
  };
}
