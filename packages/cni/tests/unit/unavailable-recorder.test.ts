import { createDatastore } from '@ipamkit/ipam-datastore';
import { ConflictError, DatastoreUnavailableError, type Datastore } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { CallDeadline, runWithinDeadline } from '../../src/runtime/call-deadline.js';
import { reportingUnavailable } from '../../src/runtime/unavailable-recorder.js';

// design/cni.md, "Deadline": the code-11 answer's details say why the datastore was unavailable.

/** A real memory datastore whose blocks.list rejects with `err`. */
async function failingBlocks(err: Error): Promise<Datastore> {
  const ds = await createDatastore({ type: 'memory' });
  return { ...ds, blocks: { ...ds.blocks, list: () => Promise.reject(err) } };
}

describe('reportingUnavailable', () => {
  it('reports a store operation rejecting with DatastoreUnavailableError, and the caller still gets the rejection', async () => {
    const seen: string[] = [];
    const ds = reportingUnavailable(await failingBlocks(new DatastoreUnavailableError('etcd at https://127.0.0.1:2379: TLS handshake failed')), (e) => seen.push(e.message));
    await expect(ds.blocks.list()).rejects.toThrow('TLS handshake failed');
    await Promise.resolve();
    expect(seen).toEqual(['etcd at https://127.0.0.1:2379: TLS handshake failed']);
  });

  it('ignores conflicts, which are the normal course of a compare-and-swap', async () => {
    const seen: string[] = [];
    const ds = reportingUnavailable(await failingBlocks(new ConflictError('block x')), (e) => seen.push(e.message));
    await expect(ds.blocks.list()).rejects.toBeInstanceOf(ConflictError);
    await Promise.resolve();
    expect(seen).toEqual([]);
  });

  it('leaves a working datastore working: methods stay bound to the real stores', async () => {
    const real = await createDatastore({ type: 'memory' });
    const ds = reportingUnavailable(real, () => undefined);
    await ds.ipPools.create({ name: 'p', cidr: '10.0.0.0/24', blockSize: 26 });
    expect((await ds.ipPools.list()).map((p) => p.name)).toEqual(['p']);
    expect(ds.kind).toBe(real.kind);
    await ds.close();
  });
});

describe('CallDeadline details', () => {
  it('the code-11 answer carries the last unavailability noted, and none when there was none', async () => {
    const quiet = new CallDeadline(0.01, 'waiting for ADD to finish');
    expect(quiet.expired()).toMatchObject({ code: 11, details: '' });
    const d = new CallDeadline(0.01, 'waiting for ADD to finish');
    d.noteUnavailable(new DatastoreUnavailableError('etcd unreachable (https://127.0.0.1:2379: TLS handshake failed)'));
    const err = await runWithinDeadline(d, () => new Promise<never>(() => undefined)).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 11, message: 'timed out after 0.01 s (ipam.timeout_seconds) waiting for ADD to finish', details: 'last datastore error: etcd unreachable (https://127.0.0.1:2379: TLS handshake failed)' });
  });
});
