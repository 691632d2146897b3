import { describe, expect, it } from 'vitest';
import { AlreadyExistsError, ConflictError, NotFoundError, type Datastore } from '@ipamkit/models';
import { content, SAMPLE_IPAM_CONFIG } from './contract-fixtures.js';

/** The IPAM config singleton (design/calico-stored-formats.md#ipam-configuration). */
export function ipamConfigContract(ds: () => Datastore): void {
  describe('ipamConfig', () => {
    it('reports NotFoundError while no config is stored', async () => {
      await expect(ds().ipamConfig.get()).rejects.toBeInstanceOf(NotFoundError);
    });

    it('stores one config, refuses a second create and reads it back exactly', async () => {
      const created = await ds().ipamConfig.create(SAMPLE_IPAM_CONFIG);
      expect(content(created)).toEqual(SAMPLE_IPAM_CONFIG);
      await expect(ds().ipamConfig.create({ ...SAMPLE_IPAM_CONFIG, maxBlocksPerHost: 9 })).rejects.toBeInstanceOf(AlreadyExistsError);
      expect(content(await ds().ipamConfig.get())).toEqual(SAMPLE_IPAM_CONFIG);
    });

    it('round-trips false and zero fields, which etcd omits on the wire', async () => {
      const zeroes = { strictAffinity: false, autoAllocateBlocks: false, maxBlocksPerHost: 0, ipCooldownSeconds: 0 };
      await ds().ipamConfig.create(zeroes);
      expect(content(await ds().ipamConfig.get())).toEqual(zeroes);
    });

    it('updates by CAS, refuses the stale revision and deletes', async () => {
      const created = await ds().ipamConfig.create(SAMPLE_IPAM_CONFIG);
      const updated = await ds().ipamConfig.update({ ...created, strictAffinity: false, maxBlocksPerHost: 8 });
      expect(content(updated)).toEqual({ ...SAMPLE_IPAM_CONFIG, strictAffinity: false, maxBlocksPerHost: 8 });
      await expect(ds().ipamConfig.update({ ...created, maxBlocksPerHost: 1 })).rejects.toBeInstanceOf(ConflictError);
      await expect(ds().ipamConfig.delete(created.revision)).rejects.toBeInstanceOf(ConflictError);
      await ds().ipamConfig.delete(updated.revision);
      await expect(ds().ipamConfig.get()).rejects.toBeInstanceOf(NotFoundError);
      await expect(ds().ipamConfig.delete()).rejects.toBeInstanceOf(NotFoundError);
    });
  });
}
