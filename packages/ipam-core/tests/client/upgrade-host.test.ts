import { createDatastore } from '@ipamkit/ipam-datastore';
import { DatastoreUnavailableError, UnauthorizedError } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { upgradeHost } from '../../src/client/upgrade-host.js';
import { FakeClock } from '@ipamkit/test-utils';

async function depsWith(upgrade: (node: string) => Promise<void>) {
  const ds = await createDatastore({ type: 'memory' });
  return { ds: { ...ds, upgradeHost: upgrade }, clock: new FakeClock(), windowsHost: false, affineHints: new Map<string, string[]>(), readAhead: new Map() };
}

describe('upgradeHost', () => {
  it('retries transient failures with doubling back-off from 100 ms', async () => {
    let calls = 0;
    const deps = await depsWith((node) => {
      calls += 1;
      expect(node).toBe('node-a');
      return calls <= 3 ? Promise.reject(new DatastoreUnavailableError('down')) : Promise.resolve();
    });
    const delays: number[] = [];
    await upgradeHost(deps, 'node-a', (ms) => {
      delays.push(ms);
      return Promise.resolve();
    });
    expect(delays).toEqual([100, 200, 400]);
    expect(calls).toBe(4);
  });

  it('surfaces a non-transient failure at once', async () => {
    const deps = await depsWith(() => Promise.reject(new UnauthorizedError('no')));
    await expect(upgradeHost(deps, 'node-a', () => Promise.resolve())).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
