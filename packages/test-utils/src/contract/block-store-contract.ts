import { describe, expect, it } from 'vitest';
import { AlreadyExistsError, ConflictError, NotFoundError, type Datastore } from '@ipamkit/models';
import { allocateFirst, BIG_SEQUENCE_NUMBER, content, sampleBlock } from './contract-fixtures.js';

/** Blocks: keyed by CIDR, every write compare-and-swap (design/calico-stored-formats.md). */
export function blockStoreContract(ds: () => Datastore): void {
  describe('blocks', () => {
    it('reads back exactly the block it created', async () => {
      const block = sampleBlock('10.0.0.0/30');
      const created = await ds().blocks.create(block);
      expect(content(created)).toEqual(block);
      const got = await ds().blocks.get('10.0.0.0/30');
      expect(content(got)).toEqual(block);
      expect(got.revision).toBe(created.revision);
    });

    it('lists blocks filtered by IP version', async () => {
      await ds().blocks.create(sampleBlock('10.0.0.0/30'));
      await ds().blocks.create(sampleBlock('10.0.0.4/30'));
      await ds().blocks.create(sampleBlock('fd00::/126'));
      const cidrs = async (ipVersion?: 4 | 6) =>
        (await ds().blocks.list(ipVersion === undefined ? {} : { ipVersion })).map((b) => b.cidr).sort();
      expect(await cidrs()).toEqual(['10.0.0.0/30', '10.0.0.4/30', 'fd00::/126']);
      expect(await cidrs(4)).toEqual(['10.0.0.0/30', '10.0.0.4/30']);
      expect(await cidrs(6)).toEqual(['fd00::/126']);
    });

    it('refuses to create an existing block with AlreadyExistsError', async () => {
      await ds().blocks.create(sampleBlock('10.0.0.0/30'));
      await expect(ds().blocks.create(sampleBlock('10.0.0.0/30', 'node-b'))).rejects.toBeInstanceOf(AlreadyExistsError);
      expect((await ds().blocks.get('10.0.0.0/30')).affinity).toEqual({ type: 'host', host: 'node-a' });
    });

    it('applies an update at the current revision and refuses the stale one with ConflictError', async () => {
      const created = await ds().blocks.create(sampleBlock('10.0.0.0/30'));
      const next = allocateFirst(content(created), 'handle-1');
      const updated = await ds().blocks.update({ ...next, revision: created.revision });
      expect(updated.revision).not.toBe(created.revision);
      expect(content(updated)).toEqual(next);
      await expect(ds().blocks.update({ ...sampleBlock('10.0.0.0/30'), revision: created.revision })).rejects.toBeInstanceOf(ConflictError);
      expect(content(await ds().blocks.get('10.0.0.0/30'))).toEqual(next);
    });

    it('deletes only at the current revision', async () => {
      const created = await ds().blocks.create(sampleBlock('10.0.0.0/30'));
      const updated = await ds().blocks.update({ ...allocateFirst(content(created), 'h'), revision: created.revision });
      await expect(ds().blocks.delete(created)).rejects.toBeInstanceOf(ConflictError);
      expect((await ds().blocks.get('10.0.0.0/30')).revision).toBe(updated.revision);
      await ds().blocks.delete(updated);
      await expect(ds().blocks.get('10.0.0.0/30')).rejects.toBeInstanceOf(NotFoundError);
      expect(await ds().blocks.list()).toEqual([]);
    });

    it('reports NotFoundError for get, update and delete of a missing block', async () => {
      const other = await ds().blocks.create(sampleBlock('10.0.0.4/30'));
      await expect(ds().blocks.get('10.0.0.0/30')).rejects.toBeInstanceOf(NotFoundError);
      const missing = { ...sampleBlock('10.0.0.0/30'), revision: other.revision };
      await expect(ds().blocks.update(missing)).rejects.toBeInstanceOf(NotFoundError);
      await expect(ds().blocks.delete(missing)).rejects.toBeInstanceOf(NotFoundError);
    });

    it('round-trips sequence numbers beyond 2^53 exactly through create, update, get and list', async () => {
      const block = { ...sampleBlock('10.0.0.0/30'), sequenceNumber: BIG_SEQUENCE_NUMBER };
      const created = await ds().blocks.create(block);
      expect(created.sequenceNumber).toBe(BIG_SEQUENCE_NUMBER);
      const next = allocateFirst(content(created), 'handle-big');
      expect(next.sequenceNumberForAllocation).toEqual({ '0': 1779000000000000001n });
      await ds().blocks.update({ ...next, revision: created.revision });
      const got = await ds().blocks.get('10.0.0.0/30');
      expect(got.sequenceNumber).toBe(1779000000000000002n);
      expect(got.sequenceNumberForAllocation['0']).toBe(1779000000000000001n);
      const [listed] = await ds().blocks.list();
      expect(listed?.sequenceNumber).toBe(1779000000000000002n);
      expect(listed?.sequenceNumberForAllocation['0']).toBe(1779000000000000001n);
    });
  });
}
