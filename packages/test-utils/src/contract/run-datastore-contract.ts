import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Datastore } from '@ipamkit/models';
import { affinityStoreContract } from './affinity-store-contract.js';
import { blockPageContract } from './block-page-contract.js';
import { blockStoreContract } from './block-store-contract.js';
import type { ContractBackend, ContractOptions, ContractSetup } from './contract-backend.js';
import { sampleAffinity } from './contract-fixtures.js';
import { handleStoreContract } from './handle-store-contract.js';
import { ipamConfigContract } from './ipam-config-contract.js';
import { resourceStoreContract } from './resource-store-contract.js';
import { softDeleteContract } from './soft-delete-contract.js';
import { transactContract } from './transact-contract.js';
import { watchContract } from './watch-contract.js';

/**
 * The datastore contract (design/architecture.md#datastore-contract), as a vitest suite that runs
 * unchanged against any backend. `setup` runs before every test and must hand back an empty
 * datastore; `cleanup` runs after it.
 */
export function runDatastoreContract(name: string, setup: ContractSetup, options: ContractOptions = {}): void {
  describe(`datastore contract: ${name}`, () => {
    let backend: ContractBackend | undefined;
    const current = (): ContractBackend => {
      if (backend === undefined) throw new Error('the contract setup did not run');
      return backend;
    };
    const ds = (): Datastore => current().datastore;

    beforeEach(async () => {
      backend = await setup();
    });
    afterEach(async () => {
      const done = backend;
      backend = undefined;
      await done?.cleanup();
    });

    resourceStoreContract(ds);
    blockStoreContract(ds);
    blockPageContract(current, options.paging ?? true);
    affinityStoreContract(ds);
    handleStoreContract(ds);
    ipamConfigContract(ds);
    softDeleteContract(current);
    watchContract(ds, options.watchTimeoutMs ?? 30_000);
    transactContract(ds, options.transact ?? true);

    describe('upgradeHost', () => {
      it('runs for a host and leaves its host-scoped listing intact', async () => {
        await ds().affinities.create(sampleAffinity('node-a', '10.0.0.0/30'));
        await ds().affinities.create(sampleAffinity('node-b', '10.0.0.4/30'));
        await ds().upgradeHost('node-a');
        expect((await ds().affinities.list({ host: 'node-a' })).map((a) => a.cidr)).toEqual(['10.0.0.0/30']);
      });
    });
  });
}
