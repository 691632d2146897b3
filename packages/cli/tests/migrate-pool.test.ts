import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIpamClient } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from './fixtures.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'ipamkit-migrate-pool-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('ipam migrate-pool refusals', () => {
  let ds: Datastore;
  const clock = new FakeClock();

  beforeEach(async () => {
    ds = await createDatastore({ type: 'memory' });
    await ds.ipPools.create({ name: 'old', cidr: '10.0.0.0/24', blockSize: 28 });
    await ds.ipPools.create({ name: 'small', cidr: '10.1.0.0/28', blockSize: 28, disabled: true });
    await Promise.all(['node-a', 'node-b'].map((name) => ds.nodes.create({ name })));
    const ipam = createIpamClient({ datastore: ds, clock, windowsHost: false });
    for (const [i, node] of ['node-a', 'node-a', 'node-b', 'node-b'].entries()) {
      await ipam.autoAssign({ num4: 1, hostname: node, intendedUse: 'Workload', handleId: `k8s-pod-network.c${i}`, attrs: { namespace: 'web', pod: `p${i}`, node } });
    }
  });

  it('plans a move to a pool too small for every node and says who cannot re-add its workloads', async () => {
    await ds.ipamConfig.create({ strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 0 });
    const run = await runCli(['ipam', 'migrate-pool', 'plan', '--from', 'old', '--to', 'small'], ds, clock);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Migrate old (10.0.0.0/24) to small (10.1.0.0/28), disabled now: start enables it\n');
    expect(run.stdout).toContain('  node-a: 2 workloads, fit\n');
    expect(run.stdout).toContain('  node-b: 2 workloads, do not all fit: IPv4: no free address in affine blocks, no unclaimed blocks left in the selecting pools; strict affinity forbids borrowing\n');
  });

  it('refuses bad steps, a missing target definition and a finish before start, writing nothing', async () => {
    expect((await runCli(['ipam', 'migrate-pool', 'go', '--from', 'old', '--to', 'small'], ds, clock)).code).toBe(2);
    const missing = await runCli(['ipam', 'migrate-pool', 'start', '--from', 'old', '--to', 'nope'], ds, clock);
    expect(missing).toMatchObject({ code: 2, stderr: 'pool nope does not exist: give its definition with -f <file>\n' });
    const file = join(dir, 'v6.yaml');
    writeFileSync(file, 'apiVersion: projectcalico.org/v3\nkind: IPPool\nmetadata:\n  name: v6\nspec:\n  cidr: fd00::/120\n');
    const family = await runCli(['ipam', 'migrate-pool', 'start', '--from', 'old', '--to', 'v6', '-f', file], ds, clock);
    expect(family.stderr).toContain('is not of the same address family');
    const early = await runCli(['ipam', 'migrate-pool', 'finish', '--from', 'old', '--to', 'small'], ds, clock);
    expect(early).toMatchObject({ code: 1, stderr: 'migration not started: pool old is still enabled; run start first\n' });
    expect((await ds.ipPools.list()).map((p) => [p.name, p.disabled === true])).toEqual([['old', false], ['small', true]]);
  });

  it('starts by enabling the new pool before disabling the old one, and lists the pods to restart', async () => {
    const run = await runCli(['ipam', 'migrate-pool', 'start', '--from', 'old', '--to', 'small'], ds, clock);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      'Started: enabled small; disabled old\nRestart these pods when you choose (nothing deletes them):\n' +
        '  web/p0 on node-a (10.0.0.0)\n  web/p1 on node-a (10.0.0.1)\n  web/p2 on node-b (10.0.0.176)\n  web/p3 on node-b (10.0.0.177)\n',
    );
  });
});
