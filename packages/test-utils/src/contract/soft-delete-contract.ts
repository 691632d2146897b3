import { describe, expect, it } from 'vitest';
import { NotFoundError, type AllocationBlock, type BlockAffinity, type IPAMHandle } from '@ipamkit/models';
import type { ContractBackend, SoftDeletedRow } from './contract-backend.js';
import { content, sampleAffinity, sampleBlock, sampleHandle } from './contract-fixtures.js';

const BLOCK: AllocationBlock = { ...sampleBlock('10.0.0.0/30'), deleted: true };
const AFFINITY: BlockAffinity = { ...sampleAffinity('node-a', '10.0.0.0/30'), deleted: true };
const HANDLE: IPAMHandle = { ...sampleHandle('handle-gone'), deleted: true };

/** Stores the soft-deleted rows: behind the datastore's back when the backend can, else by CAS update. */
async function storeSoftDeleted(b: ContractBackend): Promise<void> {
  const rows: SoftDeletedRow[] = [
    { kind: 'block', value: BLOCK },
    { kind: 'affinity', value: AFFINITY },
    { kind: 'handle', value: HANDLE },
  ];
  if (b.injectSoftDeleted !== undefined) {
    for (const row of rows) await b.injectSoftDeleted(row);
    return;
  }
  const ds = b.datastore;
  const block = await ds.blocks.create({ ...BLOCK, deleted: false });
  await ds.blocks.update({ ...block, deleted: true });
  const affinity = await ds.affinities.create({ ...AFFINITY, deleted: false });
  await ds.affinities.update({ ...affinity, deleted: true });
  const handle = await ds.handles.create({ ...HANDLE, deleted: false });
  await ds.handles.update({ ...handle, deleted: true });
}

/** Rows with `deleted: true` are invisible to every reader (design/calico-stored-formats.md#soft-delete). */
export function softDeleteContract(backend: () => ContractBackend): void {
  describe('soft delete', () => {
    it('hides soft-deleted blocks, affinities and handles from get and every list', async () => {
      const b = backend();
      const ds = b.datastore;
      // One live row of each kind, so an empty list cannot pass by accident.
      await ds.blocks.create(sampleBlock('10.0.0.4/30'));
      await ds.affinities.create(sampleAffinity('node-a', '10.0.0.4/30'));
      await ds.handles.create(sampleHandle('handle-live'));
      await storeSoftDeleted(b);
      await expect(ds.blocks.get('10.0.0.0/30')).rejects.toBeInstanceOf(NotFoundError);
      await expect(ds.affinities.get({ host: 'node-a', type: 'host', cidr: '10.0.0.0/30' })).rejects.toBeInstanceOf(NotFoundError);
      await expect(ds.handles.get('handle-gone')).rejects.toBeInstanceOf(NotFoundError);
      expect((await ds.blocks.list()).map((x) => x.cidr)).toEqual(['10.0.0.4/30']);
      expect((await ds.blocks.list({ ipVersion: 4 })).map((x) => x.cidr)).toEqual(['10.0.0.4/30']);
      expect((await ds.blocks.listWithRevision()).items.map((x) => x.cidr)).toEqual(['10.0.0.4/30']);
      expect((await ds.affinities.list()).map((x) => x.cidr)).toEqual(['10.0.0.4/30']);
      expect((await ds.affinities.list({ host: 'node-a', ipVersion: 4 })).map((x) => x.cidr)).toEqual(['10.0.0.4/30']);
      expect((await ds.affinities.listWithRevision()).items.map((x) => x.cidr)).toEqual(['10.0.0.4/30']);
      expect((await ds.handles.list()).map((x) => x.handleId)).toEqual(['handle-live']);
      expect((await ds.handles.listWithRevision()).items.map((x) => x.handleId)).toEqual(['handle-live']);
    });

    it('lets a create succeed over a soft-deleted row', async () => {
      const b = backend();
      const ds = b.datastore;
      await storeSoftDeleted(b);
      const block = await ds.blocks.create(sampleBlock('10.0.0.0/30'));
      expect(content(block)).toEqual(sampleBlock('10.0.0.0/30'));
      const affinity = await ds.affinities.create(sampleAffinity('node-a', '10.0.0.0/30'));
      expect(content(affinity)).toEqual(sampleAffinity('node-a', '10.0.0.0/30'));
      const handle = await ds.handles.create(sampleHandle('handle-gone'));
      expect(content(handle)).toEqual(sampleHandle('handle-gone'));
      expect(content(await ds.handles.get('handle-gone'))).toEqual(sampleHandle('handle-gone'));
    });
  });
}
