// A fresh process's ADD reads its block in its first wave when the previous call's read hints are
// kept beside the host lock (design/cni.md, "Read hints between calls"): counted at the wire, on a
// real etcd, each call with a datastore of its own as a new process has.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createEtcdDatastore } from '@ipamkit/ipam-datastore/etcd';
import type { Datastore } from '@ipamkit/models';
import { withEtcd } from '@ipamkit/test-utils';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { runCni } from '../src/index.js';
import { allocations, etcdBackend, seed, type TestBackend } from './helpers/backend.js';
import { cniEnv, netConf } from './helpers/cni-call.js';

const etcd = withEtcd();
let backend: TestBackend;
beforeEach(async () => {
  backend = await etcdBackend(etcd.endpoint);
  await seed(backend.ds);
});
afterEach(async () => {
  await backend.close();
});

/** One call as a new process makes it: a datastore of its own; returns the requests it sent. */
async function call(command: 'ADD' | 'DEL', containerId: string): Promise<number> {
  let requests = 0;
  const keys = backend.confKeys as { etcd_prefix: string };
  const ds: Datastore = createEtcdDatastore({ endpoints: [etcd.endpoint], prefix: keys.etcd_prefix, onRequest: () => (requests += 1) });
  try {
    const r = await runCni({ env: cniEnv({ command, containerId }), stdin: JSON.stringify(netConf(backend.confKeys)), stderr: () => undefined, datastore: ds });
    expect(r.exitCode).toBe(0);
  } finally {
    await ds.close();
  }
  return requests;
}
const add = (containerId: string): Promise<number> => call('ADD', containerId);
const del = (containerId: string): Promise<number> => call('DEL', containerId);

it('sends two requests for an ADD after a call kept its hints, three without them', async () => {
  const hints = join(backend.dir, 'ipam.lock.hints');
  await add('c1'); // claims the node's block
  expect(existsSync(hints)).toBe(true);
  // The context with the hinted block, then the commit.
  expect(await add('c2')).toBe(2);
  rmSync(hints);
  // The context, the block its affinity names, the commit.
  expect(await add('c3')).toBe(3);
  expect((await allocations(backend.ds)).length).toBe(3);
});

it('sends two requests in sequence for a DEL after a call kept its hints, three without them', async () => {
  const hints = join(backend.dir, 'ipam.lock.hints');
  for (const id of ['c1', 'c2', 'c3']) await add(id);
  // Each release's handle (the container's, and the pod's workload ID, absent) with the config, the
  // pools and the hinted block, one request each, side by side; then the commit.
  expect(await del('c2')).toBe(3);
  rmSync(hints);
  // Without the hints the block is read after the handle names it: one more request.
  expect(await del('c3')).toBe(4);
  expect((await allocations(backend.ds)).length).toBe(1);
});
