import { createDatastore } from '@ipamkit/ipam-datastore';
import { DatastoreUnavailableError, type Datastore, type IPPool } from '@ipamkit/models';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runIpamCommand } from '../src/index.js';
import { FakeClock, Sink } from './fixtures.js';
import { pool } from './resource-documents.js';

/** A memory datastore whose pool creates fail from the `failFrom`-th on, as an unreachable backend would. */
async function failingPools(failFrom: number): Promise<Datastore> {
  const ds = await createDatastore({ type: 'memory' });
  let creates = 0;
  const create = ds.ipPools.create.bind(ds.ipPools);
  const ipPools = {
    ...ds.ipPools,
    list: ds.ipPools.list.bind(ds.ipPools),
    get: ds.ipPools.get.bind(ds.ipPools),
    create(p: IPPool) {
      creates += 1;
      return creates >= failFrom ? Promise.reject(new DatastoreUnavailableError('etcd at http://127.0.0.1:1 is unreachable')) : create(p);
    },
  };
  return { ...ds, ipPools, blocks: ds.blocks, close: () => ds.close() };
}

async function apply(ds: Datastore, text: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new Sink();
  const stderr = new Sink();
  const code = await runIpamCommand(['apply', '-f', '-'], { datastore: ds, clock: new FakeClock(), stdout, stderr, stdin: Readable.from([text]) });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const THREE = [pool('a', { cidr: '10.10.0.0/16' }), pool('b', { cidr: '10.11.0.0/16' }), pool('c', { cidr: '10.12.0.0/16' })]
  .map((d) => JSON.stringify(d))
  .join('\n---\n');

describe('a datastore failure part-way through a file', () => {
  it('says how many resources were written before it, and which one failed', async () => {
    const ds = await failingPools(2);
    expect(await apply(ds, THREE)).toEqual({
      code: 1,
      stdout: '',
      stderr: "Partial success: applied the first 1 out of 3 'IPPool' resources; hit error on IPPool(b): etcd at http://127.0.0.1:1 is unreachable\n",
    });
    expect((await ds.ipPools.list()).map((p) => p.name)).toEqual(['a']);
  });

  it('says nothing was written when the first write fails', async () => {
    const ds = await failingPools(1);
    expect((await apply(ds, THREE)).stderr).toBe("Failed to apply 'IPPool' resource(s): etcd at http://127.0.0.1:1 is unreachable\n");
    expect(await ds.ipPools.list()).toEqual([]);
  });
});
