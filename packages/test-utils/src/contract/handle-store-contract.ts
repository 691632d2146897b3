import { describe, expect, it } from 'vitest';
import { AlreadyExistsError, ConflictError, NotFoundError, type Datastore } from '@ipamkit/models';
import { content, sampleHandle } from './contract-fixtures.js';

/** Mixed case on purpose: the handle ID keeps its case (design/calico-stored-formats.md#handles). */
const HANDLE_ID = 'k8s-pod-network.4F1cE0aB';

/** Handles: keyed by handle ID, CAS on the per-block counts. */
export function handleStoreContract(ds: () => Datastore): void {
  describe('handles', () => {
    it('reads back exactly the handle it created, ID case kept', async () => {
      const handle = sampleHandle(HANDLE_ID, { '10.0.0.0/30': 1, 'fd00::/126': 1 });
      const created = await ds().handles.create(handle);
      expect(content(created)).toEqual(handle);
      const got = await ds().handles.get(HANDLE_ID);
      expect(got.handleId).toBe(HANDLE_ID);
      expect(content(got)).toEqual(handle);
      expect((await ds().handles.list()).map((h) => h.handleId)).toEqual([HANDLE_ID]);
    });

    it('applies a count change at the current revision and refuses the stale one with ConflictError', async () => {
      const created = await ds().handles.create(sampleHandle(HANDLE_ID));
      const updated = await ds().handles.update({ ...created, block: { '10.0.0.0/30': 2 } });
      expect(updated.block).toEqual({ '10.0.0.0/30': 2 });
      await expect(ds().handles.update({ ...created, block: { '10.0.0.0/30': 3 } })).rejects.toBeInstanceOf(ConflictError);
      expect((await ds().handles.get(HANDLE_ID)).block).toEqual({ '10.0.0.0/30': 2 });
    });

    it('refuses to create an existing handle with AlreadyExistsError', async () => {
      await ds().handles.create(sampleHandle(HANDLE_ID));
      await expect(ds().handles.create(sampleHandle(HANDLE_ID, { '10.0.0.4/30': 1 }))).rejects.toBeInstanceOf(AlreadyExistsError);
      expect((await ds().handles.get(HANDLE_ID)).block).toEqual({ '10.0.0.0/30': 1 });
    });

    it('deletes only at the current revision and then reports NotFoundError', async () => {
      const created = await ds().handles.create(sampleHandle(HANDLE_ID));
      const updated = await ds().handles.update({ ...created, block: { '10.0.0.0/30': 2 } });
      await expect(ds().handles.delete(created)).rejects.toBeInstanceOf(ConflictError);
      await ds().handles.delete(updated);
      await expect(ds().handles.get(HANDLE_ID)).rejects.toBeInstanceOf(NotFoundError);
      await expect(ds().handles.update(updated)).rejects.toBeInstanceOf(NotFoundError);
      await expect(ds().handles.delete(updated)).rejects.toBeInstanceOf(NotFoundError);
      expect(await ds().handles.list()).toEqual([]);
    });
  });
}
